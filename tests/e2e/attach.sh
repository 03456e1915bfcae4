# SPDX-License-Identifier: GPL-2.0-only
# kft record -p: attach to a program already running (built with
# -fpatchable-function-entry=5, started without kft), trace it, and let
# it run on untraced.

# The five bytes at function FUNC of process PID (program PROG), in hex.
entry_bytes() {
	local pid=$1 prog=$2 func=$3 base off
	base=$(awk -v p="$(readlink -f "$prog")" '$6 == p && $3 == "00000000" {
		split($1, a, "-"); print a[1]; exit }' "/proc/$pid/maps")
	off=$(nm "$prog" | awk -v f="$func" '$3 == f { print $1; exit }')
	# a position-dependent program's symbols are its addresses already
	if [ "$(od -An -tx1 -j16 -N1 "$prog" | tr -d ' ')" = 02 ]; then base=0; fi
	dd if="/proc/$pid/mem" bs=1 skip=$((0x$base + 0x$off)) count=5 2>/dev/null |
		od -An -tx1 | tr -d ' \n'
}

# got_slot PID PROG SYMBOL: the 8 bytes of SYMBOL's GOT slot in process
# PID (program PROG, position-independent), in hex
got_slot() {
	local pid=$1 prog=$2 sym=$3 base off
	base=$(awk -v p="$(readlink -f "$prog")" '$6 == p && $3 == "00000000" {
		split($1, a, "-"); print a[1]; exit }' "/proc/$pid/maps")
	off=$(objdump -R "$prog" | awk -v s="$sym" '$2 == "R_X86_64_JUMP_SLOT" && $3 ~ "^" s "@" {
		print $1; exit }')
	dd if="/proc/$pid/mem" bs=1 skip=$((0x$base + 0x$off)) count=8 2>/dev/null |
		od -An -tx8 | tr -d ' \n'
}

# code_sum PID PROG: a checksum of PROG's code as process PID has it
code_sum() {
	local range
	range=$(awk -v p="$(readlink -f "$2")" '$6 == p && $2 ~ /x/ { print $1; exit }' \
		"/proc/$1/maps")
	dd if="/proc/$1/mem" bs=4096 iflag=skip_bytes,count_bytes skip=$((0x${range%-*})) \
		count=$((0x${range#*-} - 0x${range%-*})) 2>/dev/null | md5sum
}

# kft record -p has attached, the trace in DIR says (10 s at most)
wait_attached() {
	for _ in $(seq 200); do
		grep -q "^status = attached$" "$1/info" 2>/dev/null && return
		sleep 0.05
	done
}

# an entry as the compiler left it: five one-byte NOPs or one five-byte NOP
is_nop() { case $1 in 9090909090|0f1f44????) return 0 ;; *) return 1 ;; esac; }

test_attach_and_detach() {
	build retune
	./retune >out &
	prog=$!
	wait_for pid
	pid=$(cat pid)
	case $TINSTR in
	-fpatchable*) ;;
	*)
		refused kft record -p "$pid" 2>err
		touch end
		wait "$prog"
		check "a program without patchable entries is refused, and told why" \
			grep -q "was not built with -fpatchable-function-entry=5" err
		check "... and runs on" grep -q "^calls made, each sum right$" out
		return 0 ;;
	esac
	check "alpha's entry is a NOP before" is_nop "$(entry_bytes "$pid" retune alpha)"
	"$KFT" record -p "$pid" -o t 2>err &
	rec=$!
	wait_attached t
	check "attached: $(cat err)" grep -q "^status = attached$" t/info
	check "alpha's entry calls kft while traced" \
		test "$(entry_bytes "$pid" retune alpha | cut -c1-2)" = e8
	sleep 0.3
	kill -INT "$rec"
	wait "$rec"
	check "detached" grep -q "^status = detached$" t/info
	check "said so" grep -q "process $pid runs on untraced; the trace is in t" err
	check "the program runs on" kill -0 "$pid"
	check "alpha's entry is a NOP again" is_nop "$(entry_bytes "$pid" retune alpha)"
	check "... and beta's" is_nop "$(entry_bytes "$pid" retune beta)"
	# (it ends just after it says the entries are NOPs: give it a moment)
	for _ in $(seq 100); do
		[ "$(ls "/proc/$pid/task" | wc -l)" = 4 ] && break
		sleep 0.02
	done
	check "kft's helper thread has ended: the program's own four threads" \
		test "$(ls "/proc/$pid/task" | wc -l)" = 4
	sleep 0.2
	touch end
	wait "$prog"
	check "its output is unchanged" grep -q "^calls made, each sum right$" out
	# the trace: both functions from the three workers, nothing else
	rows t >rows
	check "alpha traced" test "$(grep -c '^alpha <- worker$' rows)" -gt 30
	check "beta traced" test "$(grep -c '^beta <- worker$' rows)" -gt 30
	check "nothing else" test "$(grep -v -c -E '^(-1 )?(alpha|beta) <- worker$' rows)" = 0
	check "from the three threads" \
		test "$(kft log t | awk '$4 == "alpha" { print $3 }' | sort -u | wc -l)" = 3
	check "stopped by the user" grep -q "by user action$" <(kft log t)
	check "status: let go" grep -q "^  program let go at [0-9]* usec (kft record -p), its code as it was$" \
		<(kft status t)
	# views agree on what was recorded
	check "kd counts the log's calls" test "$(kft kd -f Fc t | awk '$1 == "alpha" || $1 == "beta" {
		n += $2 } END { print n }')" = "$(grep -c -E '^(-1 )?(alpha|beta) <- ' rows)"
	check "ftrace has as many" test "$(kft ftrace -t function t | grep -c -E ' (alpha|beta) <-')" = \
		"$(grep -c -E '^(-1 )?(alpha|beta) <- ' rows)"
}

# the config's stop trigger ends the session; a config's filters hold
once_attach_until_stop_trigger() {
	"$TCC" -g -O2 -fpatchable-function-entry=5 -o waiter "$PROGS/waiter.c"
	./waiter &
	prog=$!
	wait_for pid
	pid=$(cat pid)
	printf 'begin\n  trigger stop entry a\n  filter funclist tick a fend\nend\n' >stop.conf
	"$KFT" record -p "$pid" -c stop.conf 2>err &
	rec=$!
	wait_attached kft.data
	sleep 0.2
	touch go-a
	wait_for did-a
	check "kft record -p ended with the stop trigger" gone "$rec" 5
	wait "$rec"
	check "detached" grep -q "^status = detached$" kft.data/info
	touch go-b
	wait_for did-b
	touch end
	wait "$prog"
	rows >rows
	check "ticks logged" test "$(grep -c '^tick <- main$' rows)" -gt 10
	check "b, after the stop, is not" test "$(grep -c '^b <- ' rows)" = 0
	check "stopped by a" grep -q "Logging stopped at [0-9]* usec by entry to function a$" \
		<(kft log)
}

once_attach_refusals() {
	refused kft record -p 2147483646 2>err
	check "no such process" grep -q "^kft: no process 2147483646$" err
	refused kft record -p 12x 2>err
	check "not a pid" grep -q "^kft: record: -p 12x: not a process id$" err
	refused kft record -p 1 -- ./prog 2>err
	check "-p takes no program" grep -q "^kft: record: -p takes no program" err
	# another user's process: the kernel refuses
	if [ "$(id -u)" != 0 ] || ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
		echo "not root, or no runuser/nobody: another user cannot be tried here"
		return 77
	fi
	"$TCC" -g -fpatchable-function-entry=5 -o waiter "$PROGS/waiter.c"
	./waiter &
	prog=$!
	wait_for pid
	pid=$(cat pid)
	bin=$(mktemp -d /tmp/kft-nobody.XXXXXX)
	cp -r "$KFT_BUILD/bin" "$KFT_BUILD/lib" "$bin/"
	chmod -R a+rX "$bin"
	(cd /tmp && runuser -u nobody -- "$bin/bin/kft" record -p "$pid" -o "$bin/t") \
		2>err && ok=1 || ok=0
	rm -rf "$bin"
	check "another user is refused" test "$ok" = 0
	check "... and told why" grep -q "only its owner, or root, may" err
	check "the program is untouched" sh -c "! grep -q libkft /proc/$pid/maps"
	# attached twice: the second is refused
	"$KFT" record -p "$pid" -o t1 2>err1 &
	rec=$!
	wait_attached t1
	refused kft record -p "$pid" -o t2 2>err2
	check "a second attach is refused" grep -q "it is traced by kft already" err2
	kill -INT "$rec"
	wait "$rec"
	touch end
	wait "$prog"
}

# --libcalls on a running program: its library calls (the workers'
# usleep) are traced, and on leaving every GOT slot holds again what it
# held before
test_attach_library_calls() {
	case $TINSTR in -fpatchable*) ;; *) echo "attach takes patchable programs"; return 77 ;; esac
	build retune
	./retune >out &
	prog=$!
	wait_for pid
	pid=$(cat pid)
	sleep 0.1
	before=$(got_slot "$pid" retune usleep)
	"$KFT" record --libcalls -p "$pid" -o t 2>err &
	rec=$!
	wait_attached t
	check "attached: $(cat err)" grep -q "^status = attached$" t/info
	sleep 0.3
	check "usleep's slot points elsewhere while traced" test "$(got_slot "$pid" retune usleep)" != "$before"
	kill -INT "$rec"
	wait "$rec"
	check "detached" grep -q "^status = detached$" t/info
	check "usleep's slot as it was ($before)" test "$(got_slot "$pid" retune usleep)" = "$before"
	touch end
	wait "$prog"
	check "its output is unchanged" grep -q "^calls made, each sum right$" out
	rows t >rows
	check "usleep traced under the workers" test "$(grep -c '^usleep <- worker$' rows)" -gt 30
}

# attach_plain PROG [WHILE [CODE [OPTION...]]]: progs/PROG.c built without
# instrumentation (linked with $link too), started, attached to with
# OPTIONs (the trace in t, kft's stderr in err), WHILE PID run while
# attached (if not ""), and let go: the code of CODE (a file it maps,
# PROG by default) must be as it was, and its output right
attach_plain() {
	local name=$1 while=${2:-} code=${3:-$1} prog pid before rec
	shift $(($# < 3 ? $# : 3))
	"$TCC" -g "$TOPT" -o "$name" "$PROGS/$name.c" -lpthread ${link:-}
	./"$name" >out &
	prog=$!
	wait_for pid
	pid=$(cat pid)
	before=$(code_sum "$pid" "$code")
	"$KFT" record -p "$pid" -o t --dynamic-report "$@" 2>err &
	rec=$!
	wait_attached t
	check "attached: $(cat err)" grep -q "^status = attached$" t/info
	[ -z "$while" ] || "$while" "$pid"
	sleep 0.2
	kill -INT "$rec"
	wait "$rec"
	check "detached: $(cat err)" grep -q "^status = detached$" t/info
	check "its code as it was" test "$(code_sum "$pid" "$code")" = "$before"
	touch end
	wait "$prog"
	check "its output is unchanged" grep -q "^calls made, each sum right$" out
}

# (alpha may be left out: clang -O2 makes it 4 bytes, the last of .text)
beta_patched() {
	check "beta's entry jumps to kft while traced" \
		test "$(entry_bytes "$1" retune beta | cut -c1-2)" = e9
}

# a program built without instrumentation: patched as kft attaches, every
# thread held still meanwhile, and its code given back byte for byte
each_plain_attach_and_detach() {
	attach_plain retune beta_patched
	check "said what is patched" \
		grep -q "^kft: note: .*/retune is not instrumented: [0-9]* of its [0-9]* functions are patched as kft attaches" err
	check "status says so" grep -q "^  program let go at [0-9]* usec (kft record -p), its code as it was$" \
		<(kft status t)
	rows t >rows
	check "beta traced" test "$(grep -c '^beta <- worker$' rows)" -gt 30
	check "nothing but alpha and beta" test "$(grep -v -c -E '^(-1 )?(alpha|beta) <- worker$' rows)" = 0
	check "kd counts the log's calls" test "$(kft kd -f Fc t | awk '$1 == "alpha" || $1 == "beta" {
		n += $2 } END { print n }')" = "$(grep -c -E '^(-1 )?(alpha|beta) <- ' rows)"
}

# a thread found inside a function's first instructions (blocked_call's,
# waiting in pause there; or step's, as it spins) has the function left
# alone: the program runs on, right
each_plain_attach_with_threads_inside() {
	attach_plain spinners
	check "blocked_call left alone, and why" \
		grep -q "^kft:   blocked_call (0x[0-9a-f]*): a thread was inside its first instructions as kft attached$" err
	grep -q '^kft:   step[.a-z0-9]* (0x[0-9a-f]*): a thread was inside' err ||
		check "step traced, where not left alone" grep -q '^step' <(kft kd -f Fc t)
}

# (a second kft record -p, for a library the process has not)
no_such_library() {
	refused kft record -p "$1" --lib libnone.so 2>err2
	check "a library it has not" grep -q "^kft: record: --lib libnone.so: the process has no such library loaded (it has .*libplainlib.so" err2
}

# --lib on a running program: the library's functions patched as kft
# attaches, and its code given back byte for byte
each_plain_attach_library() {
	"$TCC" -g "$TOPT" -fPIC -shared -o libplainlib.so "$PROGS/plainlib.c"
	link="-L. -lplainlib -Wl,-rpath,\$ORIGIN" \
		attach_plain plainlib-waiter no_such_library libplainlib.so --lib libplainlib.so
	check "said" grep -q "^kft: note: libplainlib.so (--lib): 3 of its 3 functions are patched as kft attaches$" err
	rows t >rows
	check "lib_sum traced under main" test "$(grep -c '^lib_sum <- main$' rows)" -gt 10
	check "lib_leaf under lib_sum" test "$(grep -c '^lib_leaf <- lib_sum$' rows)" = \
		"$(( $(grep -c '^lib_sum <- main$' rows) * 3 ))"
}
