# SPDX-License-Identifier: GPL-2.0-only
# kft stats: intervals and durations of a program whose timing is known by
# construction (progs/periodic.c: a 2 ms tick, one interval held 30 ms
# longer by reset_coprocessor, nap sleeping 5 ms once).

# field N (1 = Fired) of FUNC's row, in usec
stat_of() { awk -v f="$1" -v n="$2" 'NR > 2 && NF == 14 && $1 == f { print $(n + 1) }' stats; }

each_stats_intervals() {
	build periodic
	kft record -- ./periodic
	kft stats >stats
	check "tick fired 50 times" test "$(stat_of tick 1)" = 50
	check "its intervals: at least the 2 ms slept" awk -v v="$(stat_of tick 3)" 'BEGIN { exit !(v >= 2000) }'
	check "the longest: the 30 ms reset and a tick" \
		awk -v v="$(stat_of tick 5)" 'BEGIN { exit !(v >= 32000 && v < 500000) }'
	check "the average: 49 intervals, one of them long" \
		awk -v a="$(stat_of tick 4)" -v mx="$(stat_of tick 5)" -v mn="$(stat_of tick 3)" \
		'BEGIN { exit !(a > mn && a < mx && a * 49 >= 48 * mn + mx - 5) }'
	check "nap slept 5 ms" awk -v v="$(stat_of nap 7)" 'BEGIN { exit !(v >= 5000) }'
	check "one call: no interval" test "$(stat_of nap 3)" = "-"
	# the calls counted as kd counts them, every function
	awk 'NR > 2 && NF == 14 { print $1, $2 }' stats | sort >fired
	kft kd -f Fc | awk 'NR > 2 { print $1, $2 }' | sort >counts
	expect fired <counts
	# what the thread ran during the longest interval
	kft stats tick >gap
	check "one row for tick" test "$(awk 'NR > 2 && NF == 14' gap | wc -l)" = 1
	check "the gap found" grep -q "^The longest interval of tick, " gap
	check "inside run" grep -q "^  inside: main > run$" gap
	check "reset_coprocessor in it" awk '$NF == "reset_coprocessor" && $2 >= 30000 { ok = 1 } END { exit !ok }' gap
}

each_stats_histogram() {
	build periodic
	kft record -- ./periodic
	kft stats --hist tick --intervals >hist
	check "titled" grep -q "^Intervals of tick: 49 intervals between entries$" hist
	check "every interval in a bucket" test "$(awk 'NR > 1 { s += $6 } END { print s }' hist)" = 49
	check "the long one past 16 ms" awk 'NR > 1 && $1 + 0 >= 16 && $2 == "ms" && $6 >= 1 { ok = 1 } END { exit !ok }' hist
	kft stats --hist nap -o nap.svg 2>wrote
	check "says what it wrote" grep -q "^kft: wrote nap.svg$" wrote
	check "an SVG" xmllint --noout nap.svg
	check "one bucket, one call" test "$(grep -c '<g class="bucket">' nap.svg)" = 1
}

once_stats_errors() {
	build periodic
	kft record -- ./periodic
	refused kft stats --hist nosuch 2>err
	check "names the function" grep -q "function .nosuch.: no function of the trace matches it" err
	refused kft stats -o x.svg 2>err
	check "-o needs --hist" grep -q "stats: -o goes with --hist FUNC" err
	refused kft stats -n many 2>err
	check "a number" grep -q "stats: -n: 'many' is not a number" err
	kft stats 'ti*' >stats
	check "a glob" test "$(awk 'NR > 2 && NF == 14 { print $1 }' stats)" = tick
}

# kft latency: the longest call, in ftrace's latency_trace layout
each_latency_trace() {
	build periodic
	kft record -- ./periodic
	kft latency reset_coprocessor >lat
	check "the tracer" grep -q "^# tracer: kft$" lat
	check "30 ms at least" awk '/^latency: / { exit !($2 >= 30000) }' lat
	check "where it started and ended" \
		test "$(grep -c '^=> \(started\|ended\) at: reset_coprocessor$' lat)" = 2
	check "the task" grep -qE '^\| task: periodic-[0-9]+$' lat
	check "its first row: itself, at 0 us, called by run" \
		grep -qE '^ *periodic-[0-9]+ +[0-9.]\.\.\.\. +0us.: reset_coprocessor \(run\)$' lat
	kft latency -n 3 run >run
	check "-n 3: three rows of many" test "$(grep -cE '^ *periodic-[0-9]+ ' run)" = 3
	check "#3/N in the header" grep -qE '^latency: [0-9]+ us, #3/[0-9]+,' run
	refused kft latency nosuch 2>err
	check "a function never called" grep -q "no finished call of 'nosuch' in the trace" err
}

# kft record --latency: the longest call kept as the program runs, while
# the rings forget it; readable while it runs, replaced by a longer one
each_latency_kept() {
	build worst
	printf 'begin\n  logentries 20000\nend\n' >ring.conf
	"$KFT" record --latency handle -c ring.conf -- ./worst >out 2>err &
	rec=$!
	wait_for half
	for _ in $(seq 100); do
		kft latency >live 2>/dev/null && grep -q "^=> started at: handle$" live &&
			awk '/^latency: / { exit !($2 >= 20000) }' live && break
		sleep 0.05
	done
	check "while it runs: the 20 ms call" awk '/^latency: / { exit !($2 >= 20000) }' live
	touch go
	wait "$rec"
	check "the program ran as ever" grep -q "^sink 1$" out
	check "nothing said: $(cat err)" test ! -s err
	kft latency -n 1000 >lat
	check "the worst call, 20 ms at least" awk '/^latency: / { exit !($2 >= 20000 && $2 < 100000) }' lat
	check "where it started and ended" \
		test "$(grep -c '^=> \(started\|ended\) at: handle$' lat)" = 2
	check "its first row: itself, called by main" \
		grep -qE '^ *worst-[0-9]+ +[0-9.]\.\.\.\. +0us.: handle \(main\)$' lat
	check "the other thread meanwhile" test "$(grep -c ': other (side)$' lat)" -ge 3
	check "the rings have forgotten it" \
		test "$(kft kd -f Fc | awk '$1 == "handle" { print $2 }')" -lt 30
	check "the copy kept it: FUNC named or not, the same" \
		cmp -s lat <(kft latency -n 1000 kft.data handle)
	check "... and read as a trace of its own" \
		cmp -s lat <(kft latency -n 1000 kft.data/latency handle)
	n=$(readlink kft.data/latency | sed 's/^latency\.//')
	check "a longer call replaced a shorter one (copy $n linked)" test "$n" -ge 2
	check "... and copies before the one before it are gone" \
		test "$(ls -d kft.data/latency.* | wc -l)" -le 2
	check "another function: from the rings" \
		grep -q "^=> started at: other$" <(kft latency -n 1 other)
	# kept with the trace, and replaced with it
	build periodic
	kft record -- ./periodic >/dev/null 2>err
	check "a trace with copies is recorded over" test ! -e kft.data/latency.2
	refused kft latency 2>err
	check "no function kept, none named" grep -q "latency: which function?" err
	refused kft record --latency 'han*' -- ./worst 2>err
	check "a glob is refused" grep -q "record: --latency han\*: one function, not a glob" err
	refused kft record --latency nosuch -- ./worst 2>err
	check "a function the program lacks" grep -q "record: --latency nosuch: no function of that name" err
}

# The longest call kept when it comes after the rings went round many
# times, the keeper looking between (where it had read to once counted
# places in the file, which go back each time a ring goes round: after
# the second it read nothing, and kept no copy)
each_latency_kept_after_rings_went_round() {
	build pulses
	printf 'begin\n  logentries 4096\nend\n' >ring.conf
	"$KFT" record --latency slow -c ring.conf -- ./pulses 8 3000 wait 30 >/dev/null 2>err &
	rec=$!
	for r in $(seq 8); do
		sleep 0.1	# (the keeper looks every 20 ms)
		touch "go-$r"
	done
	wait "$rec"
	check "nothing said: $(cat err)" test ! -s err
	check "a copy kept" test -e kft.data/latency
	check "... of the 30 ms call" awk '/^latency: / { exit !($2 >= 30000) }' \
		<(kft latency -n 1 kft.data/latency slow)
	# (a thread file is mostly holes, room for its shadow stack and sites)
	check "the copy keeps the holes: $(du -sk kft.data/latency/ | cut -f1) KiB on disk" \
		test "$(du -sk kft.data/latency/ | cut -f1)" -lt 4096
}

# symbol sets, as kptrace.conf's groups: in the funclist, and for kft stats
each_stats_sets() {
	build periodic
	cat >sets.conf <<'E'
begin
	set timing tick reset_coprocessor
	set naps nap n*p
	filter funclist @timing run main nap fend
end
E
	kft record -c sets.conf -- ./periodic
	kft stats --set timing >stats
	check "the set's functions, and no other" \
		test "$(awk 'NR > 2 && NF == 14 { print $1 }' stats | sort | tr '\n' ' ')" = "reset_coprocessor tick "
	check "the set's gaps follow" grep -q "^The longest interval of tick, " stats
	kft stats --set naps >naps
	check "a set of a name and a glob" test "$(awk 'NR > 2 && NF == 14 { print $1 }' naps)" = nap
	check "the funclist took the set" test "$(awk 'NR > 2 && NF == 14' <(kft stats) | wc -l)" = 5
	refused kft stats --set nosuch 2>err
	check "an unknown set" grep -q "stats: --set nosuch: the config of kft.data defines no such set" err
	printf 'begin\n\tset t tick re*\n\tfilter funclist @t fend\nend\n' >glob.conf
	# a glob in a program's funclist, through a set: every function it matches
	kft record -o g -c glob.conf -- ./periodic 2>err
	kft stats g | awk 'NR > 2 && NF == 14 { print $1 }' | sort >globbed
	expect globbed <<'E'
reset_coprocessor
tick
E
}
