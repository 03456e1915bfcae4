# SPDX-License-Identifier: GPL-2.0-only
# Context switches (kft record's perf events) and on-CPU time: progs/blocks.c
# spins 20 ms, then blocks 100 ms on a pipe.

# kd's column of FUNC (field N: 1 Count, 2 Time, 3 On-CPU)
kd_of() { awk -v f="$2" -v n="$3" '$1 == f { print $(n + 1) }' "$1"; }

# The switches recorded, or a skip that says why not.
record_switches() {
	build blocks
	kft record -- ./blocks 2>err
	if [ ! -e kft.data/switches ]; then
		check "said why" grep -q "^kft: context switches not recorded: " err
		echo "skipped: $(cat err)"
		return 77
	fi
}

test_switches_on_cpu_time() {
	record_switches || return
	kft kd -f Fcto >kd
	check "wait_pipe waited about 100 ms" awk -v t="$(kd_of kd wait_pipe 2)" 'BEGIN { exit !(t >= 90000) }'
	check "... nearly all of it off the CPU" \
		awk -v t="$(kd_of kd wait_pipe 2)" -v o="$(kd_of kd wait_pipe 3)" 'BEGIN { exit !(o * 10 < t) }'
	check "spin ran on the CPU" \
		awk -v t="$(kd_of kd spin 2)" -v o="$(kd_of kd spin 3)" 'BEGIN { exit !(o > 0 && o <= t) }'
	check "main's On-CPU holds spin's" \
		awk -v m="$(kd_of kd main 3)" -v s="$(kd_of kd spin 3)" 'BEGIN { exit !(m >= s) }'
	# kft stats: the average call's on-CPU time
	kft stats wait_pipe >stats
	check "stats: wait_pipe mostly off the CPU" awk 'NR == 3 { exit !($14 * 10 < $9) }' stats
}

once_switches_not_asked() {
	build blocks
	kft record --no-switches -- ./blocks 2>err
	check "none recorded" test ! -e kft.data/switches
	check "nothing said" test ! -s err
	kft kd -f Fcto >kd
	check "no On-CPU figures" test "$(kd_of kd wait_pipe 3)" = "-"
	kft ftrace --switches >graph 2>err
	check "ftrace --switches says there are none" grep -q "kft.data has no context switches" err
	# and a damaged switches file is named, not a crash
	record_switches || return
	printf 'garbage' >kft.data/switches
	kft kd -f Fcto >kd 2>err
	check "a damaged switches file is named" \
		grep -q "kft.data/switches: not a kft switches file.*read without its context switches" err
	check "... and the calls read without On-CPU" test "$(kd_of kd wait_pipe 3)" = "-"
}

# kft ftrace --switches: where the thread left the CPU, inside the call
test_switches_in_ftrace() {
	record_switches || return
	kft ftrace --switches >graph
	awk '/wait_pipe\(\) \{/ { on = 1; next } on && /\} \/\* wait_pipe/ { exit }
	     on && /off the CPU .* us: slept/ { print }' graph >slept
	check "wait_pipe opens, the sleep inside" test -s slept
	check "... 100 ms of it (one sleep or more)" awk '
		{ for (i = 1; i <= NF; i++) if ($i == "CPU") v += $(i + 1) }
		END { exit !(v >= 90000) }' slept
	kft ftrace >plain
	check "without --switches, no such line" test "$(grep -c 'off the CPU' plain)" = 0
	kft ftrace -t function --switches >fn
	# the seed's "pid:prio:state ==> pid:prio:state"; a program's switches
	# know neither the other task nor the priorities
	tid=$(awk '/ wait_pipe <-/ { sub(/^.*-/, "", $1); print $1; exit }' fn)
	check "the sched_switch tracer's lines: out asleep after wait_pipe began, back in" awk -v t="$tid" '
		/ wait_pipe <-/ { w = 1; next } w && $NF == "?:?:R" && $(NF - 2) == t ":?:S" { s = 1; next }
		s && $(NF - 2) == "?:?:?" && $NF == t ":?:R" { ok = 1 } END { exit !ok }' fn
	check "every switch line has both sides" awk '
		/==>/ && !($(NF - 1) == "==>" && $NF ~ /^[0-9?]+:[0-9?]+:[RSD?]$/ &&
			   $(NF - 2) ~ /^[0-9?]+:[0-9?]+:[RSD?]$/) { bad = 1; print }
		END { exit bad }' fn
	check "no wakeups in a program's switches" test "$(grep -c ' + ' fn)" = 0
}

# kft kd -c --switches: the same spans at the same places as ftrace's,
# from the streamed tree, the tree in memory and the tree on disk
test_switches_in_kd_trees() {
	record_switches || return
	kft kd -c -l --switches >tree
	awk '$NF == "wait_pipe" { on = 1; next } on && !/off the CPU/ { exit }
	     on && /off the CPU .* us: slept/ { print }' tree >slept
	check "the sleep shows inside wait_pipe" test -s slept
	check "... 100 ms of it" awk '
		{ for (i = 1; i <= NF; i++) if ($i == "CPU") v += $(i + 1) }
		END { exit !(v >= 90000) }' slept
	# as many spans, at the same depth, as ftrace --switches shows, thread
	# by thread (kd prints what threads did after their last call at the
	# end, ftrace with each thread)
	kft ftrace --switches | awk '/off the CPU/ { tid = $1 + 0; sub(/^.*\|/, "");
		match($0, /^ */); print tid, RLENGTH / 2 - 1 }' | sort -s -k1,1n >ftrace.depths
	awk '/off the CPU/ { n = 0; for (i = 1; i <= NF && $i != "/*"; i++) if ($i == "|") n++
		print $2, n }' tree | sort -s -k1,1n >kd.depths
	expect ftrace.depths <kd.depths
	kft kd -c >plain
	check "without --switches, no such row" test "$(grep -c 'off the CPU' plain)" = 0
	# --slowest: the spans inside the call it shows, nothing around it
	kft kd --slowest 1 wait_pipe --switches >slow
	check "--slowest: the sleep inside wait_pipe" grep -q '^ .* |  /\* off the CPU .* us: slept \*/$' slow
	check "--slowest: nothing outside it" test "$(grep -c '[0-9] /\* off the CPU' slow)" = 0
}

# kft export --perfetto --switches: the time off the CPU as slices inside
# the calls then open
test_switches_in_perfetto() {
	record_switches || return
	kft export --perfetto s.pb --switches 2>/dev/null
	perfetto_slices s.pb >slices
	# (slices come in time order: the fork child's, inside main inherited,
	# among them)
	check "off the CPU in wait_pipe, 100 ms (one sleep or more)" awk '
		$3 == "wait_pipe" { d = $2; b = $4; e = $5; next }
		$3 == "off_CPU:_slept" && $2 == d + 1 && $4 >= b && $5 <= e { slept += $5 - $4 }
		END { exit !(slept >= 90000000) }' slices
	check "no span before the run" test "$(awk '$3 ~ /^off_CPU/ && $5 == 0' slices | wc -l)" = 0
	kft export --perfetto plain.pb 2>/dev/null
	check "not without --switches" test "$(perfetto_slices plain.pb | grep -c off_CPU)" = 0
}
