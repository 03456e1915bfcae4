# SPDX-License-Identifier: GPL-2.0-only
# kft pipe: a running trace's calls as they end, each once (trace_pipe);
# and the other views reading a trace being written.

# The pipe, started as the run begins, prints the log's rows, each once:
# the same multiset of rows, with the runtime compressing (and giving back)
# records while the pipe reads them, and without.
once_pipe_sees_every_call_once() {
	build many
	for behind in "" 64K; do
		rm -rf t
		env ${behind:+KFT_COMPRESS_BEHIND=$behind} "$KFT" record -o t -- ./many 300000 3 \
			>/dev/null &
		rec=$!
		wait_for t/control
		kft pipe t >piped
		wait "$rec"
		tail -n +3 piped | sort >a
		kft log t | awk 'rows { print } /^--------/ { rows = 1 }' | sort >b
		check "behind '$behind': every row once ($(wc -l <a) of $(wc -l <b))" cmp -s a b
		check "behind '$behind': the leaves" test "$(grep -c ' leaf ' a)" = 900000
	done
}

# A flight recorder's small ring goes round many times; the pipe, let
# read it after each of the program's pulses, prints each call once
# (where it had read to once counted places in the file, which go back
# each time the ring goes round: after the second it printed nothing).
once_pipe_follows_a_ring_round_and_round() {
	build pulses
	printf 'begin\n  logentries 4096\n  overwrite\nend\n' >ring.conf
	"$KFT" record -c ring.conf -o t -- ./pulses 8 3000 wait >/dev/null &
	rec=$!
	wait_for t/control
	"$KFT" pipe t >piped &
	pipe=$!
	for r in $(seq 8); do
		for _ in $(seq 400); do
			[ "$(grep -c ' leaf ' piped)" -ge $((r * 3000)) ] && break
			sleep 0.05
		done
		touch "go-$r"
	done
	wait "$rec"
	wait "$pipe"
	check "every pulse's calls, once ($(grep -c ' leaf ' piped) of 24000)" \
		test "$(grep -c ' leaf ' piped)" = 24000
	check "each pulse whole" test "$(grep -c ' pulse ' piped)" = 8
}

# Calls show while the program runs, and the pipe ends with it.
once_pipe_is_live() {
	build waiter
	kft record -- ./waiter >/dev/null 2>&1 &
	rec=$!
	wait_for pid
	pid=$(cat pid)
	"$KFT" pipe "$pid" >piped &	# (not the shell function: $! is kft's pid)
	pipe=$!
	for _ in $(seq 200); do
		grep -q ' tick ' piped && break
		sleep 0.1
	done
	check "ticks printed while it runs" grep -q ' tick ' piped
	check "... and it does run" kill -0 "$pid"
	touch end
	wait "$rec"
	check "the pipe ended with the program" gone "$pipe" 10
	wait "$pipe"
	check "every tick once" test "$(grep -c ' tick ' piped)" = "$(calls_of kft.data tick)"
	check "main, last to end, last" test "$(tail -1 piped | awk '{ print $4 }')" = main
}

# The arguments and return values come live too: each poll reads the
# .args files as they are then (a call's are written before its record).
once_pipe_shows_arguments_live() {
	build waiter
	kft record --libcalls -A 'access@arg1/s,retval/d32' -- ./waiter >/dev/null 2>&1 &
	rec=$!
	wait_for pid
	pid=$(cat pid)
	"$KFT" pipe -t function_graph "$pid" >piped &
	pipe=$!
	for _ in $(seq 200); do
		grep -q 'access("end"); /\* = -1 \*/' piped && break
		sleep 0.1
	done
	check "access's argument and result printed while it runs" \
		grep -q 'access("end"); /\* = -1 \*/' piped
	check "... and it does run" kill -0 "$pid"
	touch end
	wait "$rec"
	check "the pipe ended with the program" gone "$pipe" 10
	wait "$pipe"
	check "the last access found the file" grep -q 'access("end"); /\* = 0 \*/' piped
	check "no access without its argument" test "$(grep -c 'access();' piped)" = 0
}

once_pipe_stops_on_ctrl_c() {
	build waiter
	kft record -- ./waiter >/dev/null 2>&1 &
	rec=$!
	wait_for pid
	"$KFT" pipe -t function >piped &
	pipe=$!
	# its first poll has written (and it has its handlers by then)
	for _ in $(seq 200); do
		[ -s piped ] && break
		sleep 0.1
	done
	kill -INT "$pipe"
	if ! gone "$pipe" 10; then
		kill -KILL "$pipe"
		echo "kft pipe still ran 10 s after SIGINT"
		touch end
		return 1
	fi
	wait "$pipe" && rc=0 || rc=$?
	check "Ctrl-C: exit 0" test "$rc" = 0
	check "function lines" grep -qE '^ *waiter-[0-9]+ +\[([0-9]{2,}|\?\?)\] +[0-9]+\.[0-9]{6}: tick <-main$' piped
	touch end
	wait "$rec"
	check "the program went on" grep -q "by the end of the program$" <(kft log)
}

# On a finished trace: every call, in each layout, as the views give them.
once_pipe_layouts() {
	build calls
	kft record -- ./calls >/dev/null
	kft pipe -t function | grep -v '^#' | sort >a
	kft ftrace -t function | grep -v '^#' | sort >b
	check "function: the lines of kft ftrace -t function" cmp -s a b
	kft pipe -t function_graph >g
	check "function_graph: each call a leaf line" \
		test "$(grep -cE '^ *[0-9]+\) .* us \|  +(main|top|middle|leaf)\(\);$' g)" = 8
	check "function_graph: leaf indented under middle" \
		grep -qE '\|      +leaf\(\);$' g
	refused kft pipe -t bogus 2>err
	check "an unknown layout named" grep -q "pipe: unknown layout 'bogus' (log, function or function_graph)" err
	refused kft pipe nosuch.data 2>err
	check "a missing trace named" grep -q "kft: nosuch.data: no such trace directory (record one with" err
	# names it cannot make are said, once, as kft log says them
	rm kft.data/maps-*
	kft log >/dev/null 2>log.err
	kft pipe >/dev/null 2>pipe.err
	check "kft log warns of the missing map" grep -q "^kft: warning: kft.data/maps-[0-9]*: " log.err
	expect pipe.err <log.err
}

# Markers: each once, as kft log and kft ftrace show them.
test_pipe_markers() {
	build marks -I"$ROOT/include" -L"$KFT_BUILD/lib" -Wl,-rpath,"$KFT_BUILD/lib" -lkft
	kft record -- ./marks >/dev/null
	kft pipe | awk '$2 == "#"' >a
	kft log | awk 'r && $2 == "#" { print } /^--------/ { r = 1 }' >b
	check "log rows: the markers of kft log" cmp -s a b
	check "... all three" test "$(wc -l <a)" = 3
	kft pipe -t function | grep '/\*' | sort >a
	kft ftrace -t function | grep '/\*' | sort >b
	check "function: the marker lines of kft ftrace -t function" cmp -s a b
	kft pipe -t function_graph | grep '/\*' | sed 's/^ *[0-9]*) *|//' >g
	expect g <<'E'
      /* inside a */
    /* between, n=42 */
    /* last */
E
}

# Views read a trace while kft record writes it, compresses it and cuts
# its files down: every read ends well (a file cut down at the end was a
# SIGBUS), and shows one moment of the run (raw records given back after
# compression read as calls at time 0, and open frames newer than the
# records read made intervals between entries negative)
once_views_read_a_trace_being_recorded() {
	build many
	KFT_COMPRESS_BEHIND=64K "$KFT" record -o t -- ./many 1000000 2 4 >/dev/null &
	rec=$!
	for _ in $(seq 200); do
		ls t/thread-*.kft >/dev/null 2>&1 && break
		sleep 0.05
	done
	: >status
	: >bad
	while kill -0 "$rec" 2>/dev/null; do
		"$KFT" stats t >stats 2>>err
		echo "stats $?" >>status
		awk '$4 ~ /^-[0-9]/ || $8 ~ /^-[0-9]/ { print "negative:", $0 }' stats >>bad
		"$KFT" kd t >/dev/null 2>>err
		echo "kd $?" >>status
	done
	wait "$rec"
	check "every read ended well: $(sort status | uniq -c | tr '\n' ' ')$(head -2 err)" \
		test -z "$(grep -v ' 0$' status)"
	check "no interval or duration below zero: $(head -2 bad)" test ! -s bad
	check "the finished trace: every call" test "$(calls_of t leaf)" = 8000000
}
