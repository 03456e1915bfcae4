# SPDX-License-Identifier: GPL-2.0-only
# ftrace's one-line layouts: the function tracer's trace file and its
# latency_trace, with iter_ctrl's options (kft ftrace -t function|latency -O).

# function rows as "comm-TID [CPU] func <-caller" (TID, CPU, time masked)
fn_rows() {
	sed -E -e 's/^ *([^ ]+)-[0-9]+ +\[([0-9]{2,}|\?\?)\] +[0-9]+\.[0-9]{6}: /\1-TID [CPU] /' \
	       -e 's/\+0x[0-9a-f]+//g' | libc_named
}

test_function_layout() {
	build calls
	kft record -- ./calls >/dev/null
	kft ftrace -t function >fn
	head -4 fn >head
	expect head <<'E'
# tracer: function
#
#           TASK-PID   CPU#    TIMESTAMP  FUNCTION
#              | |      |          |         |
E
	tail -n +5 fn | fn_rows >rows
	expect rows <<'E'
calls-TID [CPU] main <-libc.so.6
calls-TID [CPU] top <-main
calls-TID [CPU] middle <-top
calls-TID [CPU] leaf <-middle
calls-TID [CPU] leaf <-middle
calls-TID [CPU] leaf <-top
calls-TID [CPU] middle <-top
calls-TID [CPU] leaf <-middle
E
	# the same calls and callers as the log
	rows | sed 's/ <- / <-/' >log.rows
	sed 's/^calls-TID \[CPU\] //' rows >fn.rows
	expect fn.rows <log.rows
	# the seed's defaults leave the offset out (the CPU, [NN] or [??]
	# where no switch of the thread was recorded: once_function_layout_cpu)
	check "no offsets" test "$(tail -n +5 fn | grep -c '+0x')" = 0
}

# The CPU of each call, from the context switches: progs/cpus.c moves
# itself from CPU 0 to 1 and back, calling work() on each.
once_function_layout_cpu() {
	test "$(nproc)" -ge 2 || { echo "one CPU: nothing to move between"; return 77; }
	build cpus
	kft record -- ./cpus >/dev/null 2>err
	test -s kft.data/switches || { echo "no context switches recorded: $(cat err)"; return 77; }
	kft ftrace -t function | awk '/ work <-main$/ { print $2 }' >cpus
	expect cpus <<'E'
[00]
[01]
[00]
E
	kft ftrace -t latency | awk '/: work \(main\)$/ { print substr($2, 1, 1) }' >lat
	expect lat <<'E'
0
1
0
E
}

test_function_options() {
	build calls
	kft record -- ./calls >/dev/null
	kft ftrace -t function -O noprint-parent >np
	check "noprint-parent: no callers" test "$(grep -c ' <-' np)" = 0
	check "noprint-parent: every call" test "$(grep -cE ': (main|top|middle|leaf)$' np)" = 8
	kft ftrace -t function -O sym-offset >so
	# (the function's own offset is where its hook is called: 0 with
	# -finstrument-functions, past the prologue with clang's -pg)
	check "sym-offset: the function's offset" \
		test "$(grep -cE ': (main|top|middle|leaf)\+0x[0-9a-f]+ <-' so)" = 8
	check "sym-offset: the caller's offset" grep -qE ': top\+0x[0-9a-f]+ <-main\+0x[0-9a-f]+$' so
	# sym-addr: the address the raw log gives the same call
	kft ftrace -t function -O sym-addr,noprint-parent >sa
	addr=$(awk '/: top </ { gsub(/[<>]/, "", $NF); print $NF; exit }' sa)
	kft log --raw | awk '$4 ~ /^0x/ { print $4 }' | sed -n 2p >raw.top
	check "sym-addr: top's address as the raw log's ($addr)" \
		test "0x$(printf '%016x' "0x$addr")" = "$(cat raw.top)"
	# raw and hex: numbers only, five to a call
	kft ftrace -t function -O raw >raw
	check "raw: five fields a call" test "$(grep -v '^#' raw | awk 'NF != 5' | wc -l)" = 0
	check "raw: every call" test "$(grep -vc '^#' raw)" = 8
	check "raw: top's address" test "$(grep -v '^#' raw | sed -n 2p | awk '{ print $4 }')" = "$addr"
	kft ftrace -t function -O hex >hex
	check "hex: fixed-width hex" \
		test "$(grep -v '^#' hex | grep -cvE '^[0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{16} [0-9a-f]{16} [0-9a-f]{16}$')" = 0
	refused kft ftrace -O bogus 2>err
	check "an unknown option named" grep -q "kft: ftrace: -O: unknown option 'bogus'" err
	refused kft ftrace -t nosuch 2>err
	check "an unknown tracer named" grep -q "unknown tracer 'nosuch' (function_graph, function or latency)" err
}

test_latency_layout() {
	build calls
	kft record -- ./calls >/dev/null
	kft ftrace -t latency >lat
	check "the tracer" grep -q "^# tracer: function$" lat
	check "every call in the header" grep -qE '^latency: [0-9]+ us, #8/8, ' lat
	check "the columns" grep -q '^#              ||| / _--=> preempt-depth' lat
	check "kft latency's legend the same" \
		cmp -s <(grep '^#  *[|/_\\]\|^#  cmd' lat) <(kft latency main | grep '^#  *[|/_\\]\|^#  cmd')
	grep -vE '^#|^latency|^function' lat >rows
	check "a row a call" test "$(wc -l <rows)" = 8
	check "rows: cmd-pid, flags, time, delay, function (caller)" \
		test "$(grep -cvE '^ *calls-[0-9]+ +[0-9.]\.\.\.\. +[0-9]+us[ +!]: [a-z_]+ \([a-z_.0-9]+\)$' rows)" = 0
	check "the seed's columns: flags at 15, the delay mark at 27" \
		awk '{ i = index($0, "us") } substr($0, 1, 1) != " " || substr($0, 15, 1) != " " ||
			substr($0, 16, 1) !~ /[0-9.]/ || i != 26 { bad = 1 } END { exit bad }' rows
	# (main's whole call: the same rows; the last one's delay runs to
	# main's end there, to its own start here)
	kft latency main | grep -vE '^#|^latency|^kft|^[|=]' >lrows
	check "kft latency's rows the same" cmp -s <(head -n -1 rows) <(head -n -1 lrows)
	check "the first at 0 us" grep -qE '^ *calls-[0-9]+ +[0-9.]\.\.\.\. +0us.: main ' rows
	# the same calls as the function layout, in the same order
	awk '{ print $(NF - 1), $NF }' rows | tr -d '()' | libc_named >lat.calls
	kft ftrace -t function | grep -v '^#' | awk '{ print $(NF - 1), $NF }' |
		sed 's/ <-/ /' | libc_named >fn.calls
	expect lat.calls <fn.calls
	kft ftrace -t latency -O verbose >v
	check "verbose: comm pid cpu flags count index [time] ms (+ms): func (caller)" \
		test "$(grep -vE '^#|^latency|^function' v |
			grep -cvE '^calls [0-9]+ ([0-9]+|-) [01] 00000000 [0-9a-f]{8} \[[0-9a-f]{8}\] [0-9]+\.[0-9]{3}ms \(\+[0-9]+\.[0-9]{3}ms\): [a-z_]+ \([a-z_.0-9]+\)$')" = 0
}
