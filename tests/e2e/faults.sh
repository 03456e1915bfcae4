# SPDX-License-Identifier: GPL-2.0-only
# The fault matrix: what may happen to a traced program, its trace
# directory or kft itself, and what must hold then.

# finished FUNC DIR: how many calls of FUNC ended in the trace
finished() { kft kd -f FcU "$2" | awk -v f="$1" '$1 == f { print $2 - $3 }'; }

# every view reads DIR
readable() {
	kft kd "$1" >/dev/null && kft kd -c "$1" >/dev/null && kft log "$1" >/dev/null &&
		kft ftrace "$1" >/dev/null && kft status "$1" >/dev/null
}

# the program's own count: word N (0: its pid, 1: calls that returned)
counted_word() { od -An -t u8 -j $((8 * $1)) -N 8 count 2>/dev/null | tr -d ' ' || true; }

# SIGKILL at 50 random moments: each trace reads, and holds every call of
# work() the program saw return (and at most the one the kill cut short).
# One run in five by the sanitized kft, the others by the plain build.
once_killed_at_random_moments() {
	build counted
	for run in $(seq 50); do
		sanitized_one_in 5 "$run"
		rm -rf t count
		kft record -o t -- ./counted >/dev/null 2>&1 &
		local rec=$! pid=
		for _ in $(seq 500); do
			pid=$(counted_word 0)
			[ -n "$pid" ] && [ "$pid" != 0 ] && [ "$(counted_word 1)" != 0 ] && break
			sleep 0.01
		done
		check "run $run: the program started" test -n "$pid"
		sleep "$(printf '0.%03d' $((RANDOM % 80)))"
		kill -9 "$pid"
		wait "$rec" || true
		local done traced
		done=$(counted_word 1)
		traced=$(finished work t)
		check "run $run: trace readable" readable t
		check "run $run: $traced calls of work() traced, $done returned" \
			test "$traced" -ge "$done" -a "$traced" -le $((done + 1))
	done
}

# dying 1000 calls deep: the trace holds the 1000 open calls
crash_deep() {	# how, exit status
	build deepcrash
	local rc=0
	kft record -o t -- ./deepcrash "$1" >/dev/null 2>&1 || rc=$?
	check "exit status $2 (got $rc)" test "$rc" = "$2"
	check "trace readable" readable t
	kft kd -f FcU t >sum
	check "1000 calls of down, all open" grep -qE "^down +1000 +1000$" sum
	check "main open" grep -qE "^main +1 +1$" sum
	check "nested 1000 deep" test "$(kft kd -c t | awk '/down/ { n = gsub(/[|]/, "") } END { print n }')" = 1000
}
once_segv_at_depth_1000() { crash_deep segv 139; }
once_abort_at_depth_1000() { crash_deep abort 134; }

# a trace directory kft may not write: refused before the program runs
once_trace_directory_not_writable() {
	build eight
	mkdir ro
	if [ "$(id -u)" = 0 ]; then
		if ! mount -t tmpfs -o ro,size=1m tmpfs ro 2>/dev/null; then
			echo "SKIPPED: cannot mount a read-only file system here"
			return 0
		fi
	else
		chmod 555 ro
	fi
	local rc=0
	kft record -o ro/t -- ./eight 10 >out 2>err || rc=$?
	[ "$(id -u)" = 0 ] && umount ro
	check "refused (exit $rc)" test "$rc" = 1
	check "says why" grep -qE "ro/t: (Read-only file system|Permission denied)" err
}

# the trace directory removed while the program runs: the program runs on
# to its own end, and kft says the trace is lost (writing nothing more)
once_trace_directory_removed_during_the_run() {
	build steered
	kft record -o t -- ./steered >out 2>err &
	local rec=$! rc=0
	until [ -s t/control ]; do sleep 0.01; done
	sleep 0.2
	rm -rf t
	touch stop
	wait "$rec" || rc=$?
	check "the program's own exit status (got $rc)" test "$rc" = 0
	check "says so" grep -q "t: the trace directory was removed or replaced while ./steered ran; its trace is lost" err
	check "nothing written again" test ! -e t
}

# 8 threads each making a million calls: no record lost or torn
once_eight_threads_a_million_calls_each() {
	build eight
	kft record -o t -- ./eight >/dev/null
	kft kd -f FcU t >sum
	check "8,000,000 calls of leaf, none open" grep -qE "^leaf +8000000 +0$" sum
	check "8 workers" grep -qE "^worker +8 +0$" sum
	check "no other function (a torn record would name one)" \
		test "$(tail -n +3 sum | awk '{ print $1 }' | sort | tr '\n' ' ')" = "leaf main worker "
}

# an exec storm, instrumented and plain programs in turn; a fork storm
once_exec_storm() {
	build execchain
	"$TCC" -O0 -DPLAIN -o plain "$PROGS/execchain.c"
	kft record -o t -- ./execchain 40 >/dev/null
	check "21 instrumented images, 10 calls each" test "$(finished step t)" = 210
	check "trace readable" readable t
}

once_fork_storm() {
	build forkstorm
	kft record -o t -- ./forkstorm >/dev/null
	check "200 children, 100 calls each" test "$(finished leaf t)" = 20000
	check "201 processes" test "$(kft status t | grep -oE 'threads [0-9]+' | grep -oE '[0-9]+')" = 201
	check "trace readable" readable t
}

# a thousand control commands against a running program with four threads,
# racing with its own triggers (autorepeat): each is done or refused as
# the state machine says, the program is not disturbed, the trace reads
# and its views agree (one command in ten by the sanitized kft, the
# others by the plain build)
once_steered_a_thousand_times() {
	build steered
	printf 'begin\n  trigger start entry outer\n  trigger stop exit outer\n  autorepeat\nend\n' >c.conf
	kft record -c c.conf --max-size 64M -o t -- ./steered >out 2>err &
	local rec=$! verbs=(prime start status) rc done=0 refused=0
	until [ -s t/control ] && kft status t >/dev/null 2>&1; do sleep 0.01; done
	for i in $(seq 1000); do
		rc=0
		sanitized_one_in 10 "$i"
		kft "${verbs[i % 3]}" t >/dev/null 2>cmd.err || rc=$?
		if [ $rc = 0 ]; then
			done=$((done + 1))
		else
			refused=$((refused + 1))
			check "command $i refused as the state machine says" \
				grep -qE "the run is already (running or complete|complete)" cmd.err
		fi
	done
	KFT=$KFT_SANITIZED
	kft stop t >/dev/null 2>&1 || true
	touch stop
	rc=0
	wait "$rec" || rc=$?
	check "the program ends as it would alone (exit $rc)" test "$rc" = 0
	echo "commands done: $done, refused: $refused"
	check "trace readable" readable t
	kft kd -c t >tree
	# (in ns: a log in usec cannot tell a call that began within the usec
	# its caller's namesake ended, while a run restarted, from its callee)
	kft log --ns t | kft kd -c - >tree2
	check "kd -c and log | kd -c - agree" diff <(cut -c1-200 tree | sed 's/^ *//') <(cut -c1-200 tree2 | sed 's/^ *//')
}
