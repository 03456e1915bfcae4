# SPDX-License-Identifier: GPL-2.0-only
# Traces of any length: the log grows with the run, and whatever stops
# it (logentries, --max-size) is said, with the true count of what was lost.

# 3 threads whose logs each grow several times past their first room
test_log_grows_with_the_run() {
	build many
	kft record -o t -- ./many 100000 3 2>err
	check "nothing said lost" test ! -s err
	check "every call" test "$(calls_of t leaf)" = 300000
	check "every thread" test "$(calls_of t worker)" = 3
	kft status t >st
	check "status: no cap" grep -q "logentries unlimited" st
	check "status: nothing lost" sh -c '! grep -q "lost:" st'
	check "log: every row" test "$(rows t | grep -c "^leaf <- worker")" = 300000
	# the files end where the logs do: records and headers, not a reservation
	for f in t/thread-*.kft; do
		blocks=$(du -k "$f" | cut -f1)
		check "$f: holds what was written ($blocks KiB)" test "$blocks" -lt 8192
	done
}

# 5,000 call sites of one function in each of four threads: a thread's
# site table doubles past 256, 512, ... 4096 pairs, and no call is lost at
# any of those edges
test_every_call_site_kept() {
	build sites
	kft record -o t -- ./sites >out 2>err
	check "the program's output" test "$(cat out)" = 20000
	check "nothing said lost" test ! -s err
	check "every call of f" test "$(calls_of t f)" = 20000
	check "every call of many" test "$(calls_of t many)" = 4
	check "main" test "$(calls_of t main)" = 1
	check "every thread" test "$(calls_of t worker)" = 3
}

# more calls than the old default log size (1000000), no config
once_every_call_recorded_by_default() {
	build many
	kft record -o t -- ./many 3000000 2>err
	check "nothing said lost" test ! -s err
	check "every call" test "$(calls_of t leaf)" = 3000000
	kft log t | grep -c " leaf " >n
	check "log shows every call" test "$(cat n)" = 3000000
}

once_a_cap_says_what_was_lost() {
	build many
	printf 'begin\n  logentries 1000\nend\n' >cap.conf
	kft record -c cap.conf -o t -- ./many 5000 2>err
	sed -E 's/thread [0-9]+/thread TID/' err >said
	# main and worker hold 2 of the 1000 places; 998 leaf calls fit
	expect said <<'X'
kft: thread TID (many): 4002 calls not recorded: the log was full at logentries 1000; raise it in the config
X
	check "logged" test "$(calls_of t leaf)" = 998
	kft log t >log
	check "log: the true count" grep -q "^Calls not logged because the log was full = 4002$" log
	check "log: why it stopped" grep -q "^Logging stopped at .* by log full" log
	kft status t >st
	check "status: lost" grep -q "^  lost: thread [0-9]* (many): 4002 calls not recorded" st
}

once_max_size_caps_the_whole_trace() {
	build many
	kft record --max-size 1M -o t -- ./many 100000 3 2>err
	check "said" grep -q "calls not recorded: the trace reached --max-size 1048576 bytes; raise it" err
	kft status t >st
	logged=$(awk '/^  entries/ { print $2 }' st)
	lost=$(grep "^  lost:" st | awk '{ s += $5 } END { print s }')
	check "1 MiB of records: $logged" test "$logged" -le 65536
	check "logged and lost are every call ($logged + $lost)" test $((logged + lost)) = 300004
	open=$(kft log t | awk '$2 == "-1"' | wc -l)
	check "status: as many unfinished as the log's -1 rows ($open)" \
		grep -q "^  entries $logged ($open unfinished)$" st
	ls t/thread-*.kft | xargs du -k -c | tail -1 | cut -f1 >kib
	check "the files stay small ($(cat kib) KiB)" test "$(cat kib)" -lt 4096
}

once_max_size_bad_values() {
	build many
	for bad in 12Q 0 -5 K; do
		refused kft record --max-size "$bad" -o t -- ./many 2>err
		check "$bad: says what is wanted" grep -q "^kft: --max-size $bad: expected a size in bytes" err
	done
	kft record --max-size 2g -o t -- ./many >/dev/null
	check "2g accepted" test "$(calls_of t leaf)" = 1000
}

# peak RSS in KiB of a command (its output discarded)
peak_kib() { /usr/bin/time -f %M -o rss "$@" >/dev/null && tail -1 rss; }

# The views read a long trace in bounded memory: 20 million calls, each
# view under 64 MiB, the sanitizers' own included (17 MiB measured for 4
# million; a tree in memory took some 130 bytes a call, 250 under the
# sanitizers).
once_views_read_in_bounded_memory() {
	build many
	kft record -o t -- ./many 20000000
	bound=65536
	for view in "kd -c" "kd -c -l" "kd -c -r" "log" "ftrace" "kd" "kd --classic -l"; do
		kib=$(peak_kib "$KFT" $view t)
		check "kft $view: $kib KiB, bound $bound" test "$kib" -lt "$bound"
	done
	check "every call in the tree" test "$(kft kd -c t | grep -c "^|  |  leaf$")" = 20000000
}

# What each view's memory grows by per call: nothing but noise (the
# bound leaves 1 MB for the noise of two runs), but for kd 1.1's nesting
# by name. The trace is read a frame at a time, never mapped; the
# entry-order index goes to a temporary file seen through a few pages,
# and so do the durations that exact percentiles need (stats, diff, kd's
# M, P and Q columns). 8 bytes a call before, the trace's mapped pages
# besides, and 4 more for percentiles.
# Measured as the peak RSS of 4 million calls less that of 2 million, so
# the constant part falls out; with the build that has no sanitizer (ASan
# keeps freed blocks for a while, which is no part of kft's memory).
# growth_per_call KFT CALLS VIEW...: the bytes a call that the view's
# peak RSS grows by from the trace in t2 to the one in t4, CALLS more.
growth_per_call() {
	local kft=$1 calls=$2 a b
	shift 2
	a=$(cd t2 && TMPDIR=$PWD peak_kib "$kft" "$@")
	b=$(cd t4 && TMPDIR=$PWD peak_kib "$kft" "$@")
	awk -v a="$a" -v b="$b" -v n="$calls" 'BEGIN { printf "%.2f", (b - a) * 1024 / n }'
}

once_views_grow_by_nothing_a_call() {
	build many
	plain=${KFT_PLAIN_BUILD:-$ROOT/build}/bin/kft	# tests/run.sh's gcc build
	test -x "$plain" || { echo "no plain build at $plain"; return 1; }
	mkdir t2 t4	# each view reads its default, kft.data
	(cd t2 && "$plain" record -- ../many 2000000)
	(cd t4 && "$plain" record -- ../many 4000000)
	for view in "kd" "kd -c" "kd -c -l" "kd -c -r" "kd --slowest 2 leaf" "kd --classic -l" \
		    "kd -f FcatlmnMPQ" "log" "ftrace" "ftrace -t function" "stats" "stats leaf" \
		    "export --chrome /dev/null" "export --folded /dev/null" \
		    "export --perfetto /dev/null" "flame -o /dev/null" "flame --chart -o /dev/null"; do
		per=$(growth_per_call "$plain" 2000000 $view)
		check "kft $view: $per bytes a call more" awk -v p="$per" 'BEGIN { exit !(p <= 0.5) }'
	done
	a=$(peak_kib "$plain" diff t2/kft.data t2/kft.data)
	b=$(peak_kib "$plain" diff t4/kft.data t4/kft.data)
	per=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", (b - a) * 1024 / 2000000 }')
	check "kft diff: $per bytes a call more" awk -v p="$per" 'BEGIN { exit !(p <= 0.5) }'
	# kd 1.1's nesting by name keeps each row's place, 8 bytes (8.04)
	per=$(growth_per_call "$plain" 2000000 kd -c --classic -l)
	check "kft kd -c --classic -l: $per bytes a call more" awk -v p="$per" 'BEGIN { exit !(p <= 8.5) }'
}

# The same with arguments saved for every call: they are read from their
# file as the calls come (a mark every 64 records kept, a quarter of a
# byte a call), not loaded (116 bytes a call more before, kd -c).
once_views_with_arguments_grow_by_a_quarter_byte_a_call() {
	"$TCC" -O0 -pg -mfentry -o many "$PROGS/many.c" -lpthread
	plain=${KFT_PLAIN_BUILD:-$ROOT/build}/bin/kft	# tests/run.sh's gcc build
	test -x "$plain" || { echo "no plain build at $plain"; return 1; }
	mkdir t2 t4
	(cd t2 && "$plain" record -A leaf@arg1/d -R worker -- ../many 1000000 >/dev/null)
	(cd t4 && "$plain" record -A leaf@arg1/d -R worker -- ../many 2000000 >/dev/null)
	check "arguments saved" grep -q "leaf(1999999);" <(cd t4 && "$plain" ftrace | tail -5)
	for view in "kd -c" "log" "ftrace" "export --chrome /dev/null" \
		    "export --perfetto /dev/null"; do
		per=$(growth_per_call "$plain" 1000000 $view)
		# (the marks' quarter, with the same half a byte of slack for
		# the peak's noise as the test above)
		check "kft $view: $per bytes a call more" awk -v p="$per" 'BEGIN { exit !(p <= 0.75) }'
	done
}

# kd 1.1's nesting (--classic) and text logs nest by caller name, so
# their trees are kept on disk, not in memory: 4 million
# calls, under the same 40 bytes a call plus 64 MiB (a tree in memory
# took 130 and more).
once_classic_and_text_logs_read_in_bounded_memory() {
	build many
	kft record -o t -- ./many 4000000
	kft log t >big.log
	bound=$(( (4000000 * 40) / 1024 + 65536 ))
	for view in "kd -c --classic t" "kd -c --classic -l t" "kd --slowest 2 leaf --classic t" \
		    "kd big.log" "kd -c -l big.log" "kd -c -i big.log" "kd --classic big.log"; do
		kib=$(TMPDIR=$PWD peak_kib "$KFT" $view)
		check "kft $view: $kib KiB, bound $bound" test "$kib" -lt "$bound"
	done
	kib=$(peak_kib sh -c "'$KFT' log t | TMPDIR=$PWD '$KFT' kd -c -" )
	check "kft log | kft kd -c -: $kib KiB, bound $bound" test "$kib" -lt "$bound"
	# (kd 1.1's nesting by usec times may leave the last leaf calls of
	# worker outside it, as roots: ci34 saw 3 of them; count them anywhere)
	check "every call in the classic tree" \
		test "$(kft kd -c --classic t | grep -c "leaf$")" = 4000000
	check "every call in the log's tree" \
		test "$(kft log t | kft kd -c - | grep -c "leaf$")" = 4000000
	check "no temporary file left" test -z "$(ls -A | grep -v '^t$\|^big.log$\|^many$\|^rss$')"
}

