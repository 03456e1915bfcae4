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
	printf 'begin\nend\n' >"$bin/new.conf"
	chmod 644 "$bin/new.conf"
	(cd / && runuser -u nobody -- "$bin/kft" config "$pid" "$bin/new.conf") 2>err-config &&
		ok_config=1 || ok_config=0
	rm -rf "$bin"
	touch end
	wait "$rec"
	check "another user is refused" test "$ok" = 0
	check "... and told why" grep -q "only its owner, or root, may steer it" err
	check "another user cannot load a config either" test "$ok_config" = 0
	check "... and is told why" grep -q "only its owner, or root, may steer it" err-config
	check "the run is still run 1" test ! -e kft.data/config-run1
	kft log >log
	check "the run went on to the end" grep -q "by the end of the program$" log
}

# kft config: a new run, with other functions, while three threads call
test_new_config_mid_run() {
	build retune
	printf 'begin\n  filter funclist alpha fend\nend\n' >a.conf
	printf 'begin\n  filter funclist beta fend\nend\n' >b.conf
	"$KFT" record -c a.conf -- ./retune >out 2>err &
	rec=$!
	wait_for pid
	pid=$(cat pid)
	sleep 0.2
	kft config "$pid" b.conf >said
	check "kft config says what it did" \
		grep -q "^run 2 installed and primed; run 1's config kept as .*kft.data/config-run1$" said
	# (started by the next call a thread makes)
	for _ in $(seq 100); do
		kft status "$pid" >st
		grep -q "^status: run id 2, primed, triggered, not complete$" st && break
		sleep 0.02
	done
	check "status: run 2, primed and started" \
		grep -q "^status: run id 2, primed, triggered, not complete$" st
	check "status shows the new config" grep -q "beta" st
	sleep 0.2
	touch end
	wait "$rec"
	check "the program's result is unchanged" grep -q "^calls made, each sum right$" out
	check "the old run's config is kept" grep -q alpha kft.data/config-run1
	kft log >log
	check "the log's header tells of the runs" \
		grep -q "^Runs before this one: 1 (its config kept as config-run1)$" log
	rows >rows
	check "alpha was traced in run 1" test "$(grep -c '^alpha <- worker' rows)" -gt 10
	check "beta in run 2" test "$(grep -c '^beta <- worker' rows)" -gt 10
	check "nothing else" test "$(grep -v -c -E '^(-1 )?(alpha|beta) <- worker$' rows)" = 0
	# every alpha began before every beta: the runs do not overlap
	kft log | awk '/^--------/ { r = 1; next }
		r && $4 == "alpha" && $1 > a { a = $1 }
		r && $4 == "beta" && (b == "" || $1 < b) { b = $1 }
		END { print (a < b) ? "apart" : "overlap " a " " b }' >order
	check "alpha's calls all came before beta's" grep -q "^apart$" order
	kft kd -f Fc | awk '$1 == "alpha" || $1 == "beta" { n += $2 } END { print n }' >kdn
	check "kd counts the calls the log has" \
		test "$(cat kdn)" = "$(grep -c -E '^(-1 )?(alpha|beta) <- ' rows)"
}

once_new_config_refusals() {
	printf 'begin\n  filter mintme 5\nend\n' >bad.conf
	printf 'begin\n  overwrite\n  logentries 1000\nend\n' >ring.conf
	printf 'begin\nend\n' >plain.conf
	build waiter
	"$KFT" record -- ./waiter >/dev/null 2>&1 &
	rec=$!
	wait_for pid
	pid=$(cat pid)
	refused kft config "$pid" bad.conf 2>err
	check "a bad config names file, line and word" grep -q "^kft: bad.conf:2: 'mintme': unknown filter" err
	refused kft config "$pid" ring.conf 2>err
	check "a ring cannot come in" grep -q "a new config cannot change that" err
	kft status "$pid" >st
	check "refused: run 1 goes on" grep -q "^status: run id 1, primed, triggered, not complete$" st
	kft config --no-prime "$pid" plain.conf >said
	check "--no-prime: loaded only" grep -q "^run 2 installed, not primed" said
	kft status "$pid" >st
	check "status: run 2, not primed" \
		grep -q "^status: run id 2, not primed, not triggered, not complete$" st
	touch go-a
	wait_for did-a
	kft start "$pid"
	touch go-b
	wait_for did-b
	touch end
	wait "$rec"
	rows >rows
	check "a ran while run 2 was not started: not logged" test "$(grep -c '^a <- ' rows)" = 0
	check "b, after kft start, is" test "$(grep -c '^b <- ' rows)" = 1
	refused kft config kft.data plain.conf 2>err
	check "the program has ended: said" grep -q "has ended" err
	check "nothing was written outside the trace" test ! -e config-run1
	rm -f pid end
	kft record -- ./waiter >/dev/null 2>err &
	rec=$!
	wait_for pid
	touch end
	wait "$rec"
	check "a trace with an earlier run's config is recorded over" test ! -s err
	check "... and the old config went with it" test ! -e kft.data/config-run1
}
