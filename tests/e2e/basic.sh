# SPDX-License-Identifier: GPL-2.0-only
# Recording a program from the start: exact calls, nesting, exit status.

# expect_calls_graph FILE: FILE is the normalised ftrace graph of progs/calls.c.
expect_calls_graph() {
	expect "$1" <<'E'
# tracer: function_graph
#
#   TID    DURATION         FUNCTION CALLS
#   |      |   |             |   |   |   |
TID)   |  main() {
TID)   |    top() {
TID)   |      middle() {
TID) DUR |        leaf();
TID) DUR |        leaf();
TID) DUR |      } /* middle */
TID) DUR |      leaf();
TID)   |      middle() {
TID) DUR |        leaf();
TID) DUR |      } /* middle */
TID) DUR |    } /* top */
TID) DUR |  } /* main */
E
}

test_call_tree() {
	build calls
	kft record -- ./calls >out
	check "program output" grep -q "sink 8" out
	kft ftrace | norm >graph
	expect_calls_graph graph
}

test_log_layout() {
	build calls
	kft record -- ./calls >/dev/null
	kft log >log
	check "run id" grep -q "^Kernel Instrumentation Run ID 1$" log
	check "start line" grep -q "^Logging started at [0-9]* usec by entry to function main$" log
	check "stop line" grep -q "^Logging stopped at [0-9]* usec by the end of the program$" log
	check "entries" grep -q "^Number of entries after filters = 8$" log
	log_rows <log >rows
	expect rows <<'E'
main <- libc.so.6
top <- main
middle <- top
leaf <- middle
leaf <- middle
leaf <- top
middle <- top
leaf <- middle
E
	# --raw prints addresses: every function of the table is a hex number
	kft log --raw | log_rows | awk '{ print $1 }' >raw
	check "raw addresses" test "$(grep -c -v -E '^0x[0-9a-f]{16}$' raw)" = 0
	check "raw rows" test "$(wc -l <raw)" = 8
}

test_exit_status() {
	build calls
	set +e
	kft record -- ./calls fail >/dev/null
	rc=$?
	set -e
	check "exit status is the program's" test $rc = 3
}

once_missing_program() {
	set +e
	kft record -- ./no-such-program 2>err
	rc=$?
	set -e
	check "fails" test $rc != 0
	check "names the program" grep -q "no-such-program" err
}

# --compensate with every instrumentation: the same calls, none of 0 ns,
# and the hooks' cost out of the durations (in a loop of 200000 calls of
# an empty function, ten times the function's own time and more). On-CPU
# time: a thread that waits for a CPU inside the loop (the machine busy
# with other tests) waits as long whether traced or not.
# worker's time (usec), the least of three runs of kft record OPTS: a
# run that lost the CPU for a while does not decide
worker_usec() {
	local best="" t
	for i in 1 2 3; do
		kft record "$@" -- ./many 200000 >/dev/null
		t=$(kft kd -f Fo | awk '$1 == "worker" { print $2 }')
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	echo "$best"
}

test_compensate() {
	build many
	raw=$(worker_usec)
	kft status >st
	check "hook cost measured" grep -E -q "^  hook cost [0-9]+ ns per call \([0-9]+ ns of it inside the call's own time\)$" st
	comp=$(worker_usec --compensate)
	kft status >st
	check "compensated" grep -q "taken out of durations$" st
	kft kd -f Fc -s c >out
	check "same calls" grep -q "^leaf  *200000$" out
	# worker is a loop of empty calls: their hooks are most of its time
	check "hooks taken out ($comp of $raw usec)" test "$comp" -lt $((raw / 2))
	# a call that ran took some time, however little its hooks left
	kft log --ns | awk 'NF >= 5 && $1 ~ /^[0-9]+$/ && $2 == 0' >zero
	check "no call of 0 ns" test ! -s zero
	# how far each figure can be trusted is said with it: the
	# calibration, each Time's doubt and what was taken off it, and
	# where that is more than is left (worker's empty calls, unless the
	# machine was so busy that worker waited for a CPU), a warning
	check "the calibration said" grep -E -q \
		"^  compensation: each call less its hooks' own time and [0-9.]+ ns a stretch of program between two hooks \(its tries within [0-9.]+ ns either side\), about [0-9]+ ns a nested call in all$" st
	kft kd >kd 2>warn
	check "Doubt and Taken beside Time" grep -q "^Function  *Count Time  *Doubt  *Taken  *Average  *Local$" kd
	if awk '$1 == "worker" { exit !($5 > $3) }' kd; then
		check "worker: more taken off than left, said" grep -E -q \
			"^kft: kd: compensation took off more than it left .*worker: [0-9]+ us taken off, [0-9]+ us left" warn
	else
		check "worker: as much left as taken off, not said" test -z "$(grep "worker:" warn)"
	fi
	check "leaf: a Doubt and a Taken, from its calls' own stretches" \
		awk '$1 == "leaf" { found = NF == 7 && $4 <= $5 } END { exit !found }' kd
	kft kd --classic >classic 2>warn
	check "classic: kd 1.1's columns" grep -q "^Function  *Count Time  *Average  *Local$" classic
	check "classic: no warning" test ! -s warn
}

# Without the TSC, the hooks time themselves with clock_gettime.
once_compensate_monotonic() {
	build many
	raw=$(KFT_CLOCK=monotonic worker_usec)
	comp=$(KFT_CLOCK=monotonic worker_usec --compensate)
	check "hooks taken out ($comp of $raw usec)" test "$comp" -lt $((raw / 2))
	kft log --ns | awk 'NF >= 5 && $1 ~ /^[0-9]+$/ && $2 == 0' >zero
	check "no call of 0 ns" test ! -s zero
}

# The clock_gettime clock, for machines without an invariant TSC.
once_clock_monotonic() {
	build calls
	KFT_CLOCK=monotonic kft record -- ./calls >/dev/null
	kft ftrace | norm >graph
	expect_calls_graph graph
	kft log >log
	check "started" grep -q "^Logging started at [0-9]* usec by entry to function main$" log
}

# kft record measures the TSC's rate once and leaves it after the control
# file's struct for every process of the run, out of the program's sight:
# its environment gains KFT_DIR alone of kft's variables.
once_tsc_rate_in_the_control_file() {
	kft record -- sh -c 'env' >env 2>/dev/null
	(env | grep '^KFT_' | cut -d= -f1; echo KFT_DIR) | sort -u >want
	grep '^KFT_' env | cut -d= -f1 | sort >got
	check "KFT_DIR alone added" cmp -s want got
	size=$(stat -c %s kft.data/control)
	od -An -t u8 -j $((size - 8)) kft.data/control | tr -d ' ' >rate
	if grep -q '^tsc$' /sys/devices/system/clocksource/clocksource0/current_clocksource &&
	   grep -q ' constant_tsc.* nonstop_tsc\| nonstop_tsc.* constant_tsc' /proc/cpuinfo; then
		check "a rate of 0.01 to 100 ns a tick" awk '{ exit !($1 >= 42949672 && $1 <= 429496729600) }' rate
	fi
}

# Ctrl-C is the program's: kft ignores SIGINT while it waits, the program
# gets the disposition kft found (default here, ignored when it was).
once_sigint_is_the_programs() {
	cat >sig.c <<'SRC'
#include <signal.h>
int main(void)
{
	struct sigaction sa;

	sigaction(SIGINT, 0, &sa);
	return sa.sa_handler == SIG_IGN;
}
SRC
	cc -g -finstrument-functions -o sig sig.c
	set +e
	kft record -- ./sig >/dev/null
	rc_default=$?
	(trap '' INT; kft record -- ./sig >/dev/null)
	rc_ignored=$?
	set -e
	check "default in the program" test $rc_default = 0
	check "ignored when the caller ignored it" test $rc_ignored = 1
}

# A program that is not instrumented has its entries patched (dynamic.sh
# tests that in depth); a shell that names no function of its own is
# said to be left alone, and what it starts instrumented is traced.
once_not_instrumented_is_patched() {
	cc -g -o plain "$PROGS/calls.c"
	kft record -o t -- ./plain >/dev/null 2>err
	check "says so" grep -q \
		"^kft: note: ./plain is not instrumented: [0-9]* of its [0-9]* functions are patched as it loads" err
	check "its calls are traced" grep -q "^leaf <- middle" <(rows t)
	build calls
	kft record -o t -- sh -c ./calls >/dev/null 2>err
	# (Debian's sh is stripped: its functions come from its .eh_frame)
	check "the shell: said" grep -q \
		"^kft: note: sh is not instrumented: [0-9]* of its [0-9]* functions are patched as it loads" err
	check "traced through the shell" grep -q "^leaf <- middle" <(rows t)
	kft record --no-check -o t -- sh -c ./calls >/dev/null
	check "traced through the shell" grep -q "^leaf <- middle" <(rows t)
}
