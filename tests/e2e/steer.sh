# SPDX-License-Identifier: GPL-2.0-only
# Steering a running program: kft_pause()/kft_resume(), kft tracing on|off,
# and prime/start/stop/status/tracing by PID.

test_pause_resume_in_the_program() {
	build pause -I"$ROOT/include" -L"$KFT_BUILD/lib" -Wl,-rpath,"$KFT_BUILD/lib" -lkft
	./pause >alone
	check "alone: it runs, and the calls say there is no trace" \
		grep -q "^pause -1 resume -1 sink 6$" alone
	kft record -- ./pause >out
	check "traced: both calls done" grep -q "^pause 0 resume 0 sink 6$" out
	rows >rows
	expect rows <<'E'
main <- libc.so.6
before <- main
after <- main
E
	check "main, open across the pause, ends whole" \
		test "$(kft log | awk '$4 == "main" { print $2 }')" -ge 0
	kft kd -c | grep -o '[a-z]*$' | grep -v '^$' >tree
	check "kd -c: hidden is not there" test "$(grep -c hidden tree)" = 0
	check "the run was not stopped by it" \
		grep -q "^Logging stopped at [0-9]* usec by the end of the program$" <(kft log)
}

once_steer_by_pid() {
	build waiter
	kft record -- ./waiter >/dev/null 2>err &
	rec=$!
	wait_for pid
	pid=$(cat pid)
	kft status "$pid" >st
	check "status by PID" grep -q "^status: run id 1, primed, triggered, not complete$" st
	kft tracing off "$pid"
	kft status "$pid" >st
	check "status says tracing is off" grep -q "^  tracing off: " st
	refused kft tracing off "$pid" 2>err2
	check "off twice: said" grep -q "tracing: already off" err2
	touch go-a
	wait_for did-a
	kft tracing on "$pid"
	touch go-b
	wait_for did-b
	sleep 0.05
	kft stop "$pid"
	refused kft stop "$pid" 2>err2
	check "stopped twice: said" grep -q "stop: the run is already complete" err2
	touch end
	wait "$rec"
	rows >rows
	check "a, called while tracing was off, is not logged" test "$(grep -c '^a <- ' rows)" = 0
	check "b, after tracing on, is" test "$(grep -c '^b <- ' rows)" = 1
	check "ticks logged before and after" test "$(grep -c '^tick <- ' rows)" -gt 2
	kft log >log
	check "stopped by the user" grep -q "^Logging stopped at [0-9]* usec by user action$" log
	refused kft stop "$pid" 2>err2
	check "the program has gone: said" grep -q "no process $pid (and no directory of that name)" err2
}

once_steer_refusals() {
	refused kft stop 2147483646 2>err
	check "no such process" grep -q "^kft: no process 2147483646 (and no directory of that name)$" err
	sleep 20 &
	other=$!
	refused kft tracing off "$other" 2>err
	check "an untraced process" grep -q "^kft: process $other is not traced by kft" err
	refused kft tracing maybe 2>err
	check "tracing needs on or off" grep -q "^kft: tracing: usage: kft tracing on|off \[DIR|PID\]$" err
	kill "$other"
	# another user's traced process: the kernel keeps its map from us
	if [ "$(id -u)" != 0 ] || ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
		echo "not root, or no runuser/nobody: another user cannot be tried here"
		return 77
	fi
	build waiter
	kft record -- ./waiter >/dev/null 2>&1 &
	rec=$!
	wait_for pid
	pid=$(cat pid)
	# a copy of kft that nobody may run, wherever the source tree lies
	bin=$(mktemp -d /tmp/kft-nobody.XXXXXX)
	cp "$KFT" "$bin/kft"
	chmod 755 "$bin" "$bin/kft"
	(cd / && runuser -u nobody -- "$bin/kft" stop "$pid") 2>err && ok=1 || ok=0
	rm -rf "$bin"
	touch end
	wait "$rec"
	check "another user is refused" test "$ok" = 0
	check "... and told why" grep -q "only its owner, or root, may steer it" err
	kft log >log
	check "the run went on to the end" grep -q "by the end of the program$" log
}
