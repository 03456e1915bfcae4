# SPDX-License-Identifier: GPL-2.0-only
# Programs as they are: threads, fork, exec, longjmp, signals, deep
# recursion, crashes, stack watches.

test_threads() {
	build threads
	kft record -- ./threads >/dev/null
	rows >r
	check "4 workers" test "$(count '^worker <- ' r)" = 4
	check "4000 steps" test "$(count '^step <- worker$' r)" = 4000
	# each worker thread has its own tid and its own 1000 steps
	kft log | awk '$4 == "step" { print $3 }' | sort | uniq -c >per
	check "4 threads of 1000" test "$(awk '$1 == 1000' per | wc -l)" = 4
	kft ftrace | norm | grep -c "worker() {" >n
	check "4 trees" test "$(cat n)" = 4
	kft status | grep -q "^  threads 5$"
}

test_fork_exec() {
	build procs
	kft record -- ./procs
	kft log >/dev/null 2>err
	check "a fork child has no map of its own, and needs none: $(cat err)" test ! -s err
	rows >r
	check "parent" test "$(count '^in_parent <- spawn$' r)" = 1
	check "child" test "$(count '^in_child <- spawn$' r)" = 1
	check "exec'd image" test "$(count '^in_exec <- main$' r)" = 1
	check "the exec'd main ended" test "$(count '^main <- ' r)" = 1
	# the first image's main never returns (exec): open
	check "open main" test "$(count '^-1 main <- ' r)" = 1
	# the calls open at the fork (main, spawn) are the parent's: the child,
	# which returns through spawn only as far as _exit, does not log them
	# again
	check "spawn once" test "$(count 'spawn <- main$' r)" = 1
	check "spawn ended" test "$(count '^spawn <- main$' r)" = 1
	kft kd -f Fc | awk '$1 == "spawn" || $1 == "main" { print $1, $2 }' | sort >counts
	expect counts <<'E'
main 2
spawn 1
E
	# in trees: the child under main and spawn, the exec'd image under
	# the main exec replaced, each marked, neither counted again
	kft kd -c | grep -A2 -E '^main /\* inherited \*/$' >trees
	expect trees <<'E'
main /* inherited */
|  spawn /* inherited */
|  |  in_child
main /* inherited */
|  main
|  |  in_exec
E
	kft export --folded - | awk '{ print $1 }' | grep -E 'in_(child|exec)' >stacks
	expect stacks <<'E'
main;spawn;in_child
main;main;in_exec
E
}

# A fork child starts with its parent's map and saves none of its own
# until it changes; its calls are named through its parent's map as it
# stood at the fork, then its own. The thread files came from the spares
# kft record made ahead, none of which is left behind.
# Fork children return through the calls open at the fork while their
# parent returns from them and calls others: each child starts from its
# frames as they were at the fork (it read them from the shared thread
# file, changing under it: with -pg it returned to a stale address)
test_fork_children_return_through_inherited_calls() {
	build forkret
	kft record -- ./forkret >out
	check "every child exited 7: $(cat out) of 40" test "$(cat out)" = 40
	rows >r
	check "40 children's level1 calls end" test "$(count '^level1 <- main$' r)" = 40
	check "none lost: $(grep -c 'not found' <(kft log) || true)" grep -q "^Entries not found = 0$" <(kft log)
}

# A fork child runs inside the calls open at the fork: every tree view
# and export draws its calls under them, marked inherited (its parent's,
# not counted again), also after it returns through one of them
test_fork_child_drawn_under_inherited_calls() {
	build forkunder
	kft record -- ./forkunder
	kft kd -c >tree
	expect tree <<'E'
 Trace
---------------------------------
main
|  spawn
|  after
main /* inherited */
|  spawn /* inherited */
|  |  child_leaf
|  after
E
	kft kd -c -l | awk '/inherited/ { print $2, $3 }' >cols
	expect cols <<'E'
- -
- -
E
	kft kd -f Fc | sort >counts
	expect counts <<'E'
----------------------------------- -----
Function                            Count
after                                   2
child_leaf                              1
main                                    1
spawn                                   1
E
	kft ftrace | sed -n 's/^ *[0-9]*) *[^|]*|  //p' | tail -6 >graph
	expect graph <<'E'
main() { /* inherited */
  spawn() { /* inherited */
    child_leaf();
  } /* spawn: inherited */
  after();
} /* main: inherited */
E
	kft export --folded - | awk '{ print $1 }' | sort >stacks
	expect stacks <<'E'
main
main;after
main;spawn
main;spawn;child_leaf
E
	kft export --chrome t.json 2>err
	check "chrome: two inherited slices" test "$(grep -c '"inherited":true' t.json)" = 2
	check "chrome: five calls, not seven" grep -q "5 events of 5 calls" err
	kft export --perfetto t.pb 2>/dev/null
	perfetto_slices t.pb | awk '$3 == "child_leaf" { print $2 }' >depth
	expect depth <<<2
}

test_fork_children_maps() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o plugin.so "$PROGS/plugin.c"
	build forkmaps -ldl
	kft record -- ./forkmaps "$PWD/plugin.so"
	rows >r
	check "first child" test "$(count '^own_code <- main$' r)" = 1
	check "plugin, twice" test "$(count '^plugin_entry <- call_plugin$' r)" = 2
	check "plugin helper, twice" test "$(count '^plugin_helper <- plugin_entry$' r)" = 2
	check "parent" test "$(count '^after_forks <- main$' r)" = 1
	# the parent's map, and the second child's once it opened the plugin
	check "two maps" test "$(ls kft.data | grep -c '^maps-')" = 2
	check "no spare left" test "$(ls kft.data | grep -c '^spare-')" = 0
	# control's spares_made and spares_taken (docs/kft-data.5): no more
	# taken than made (on a busy machine the children may all fork before
	# kft record has made one: ci33 saw 0 and 0)
	read -r made taken < <(od -An -tu4 -j176 -N8 kft.data/control)
	check "spares counted" test "$taken" -le "$made"
	check "no unnamed call" test "$(grep -c '0x' r)" = 0
}

test_longjmp() {
	build jumps
	kft record -- ./jumps
	kft ftrace | norm >g
	expect g <<'E'
# tracer: function_graph
#
#   TID    DURATION         FUNCTION CALLS
#   |      |   |             |   |   |   |
TID)   |  main() {
TID)   |    guarded() {
TID)   |      deep() {
TID)   |        deep() {
TID) DUR |          deep();
TID) DUR |        } /* deep */
TID) DUR |      } /* deep */
TID) DUR |      after_jump();
TID) DUR |    } /* guarded */
TID) DUR |    after_jump();
TID) DUR |  } /* main */
E
}

test_signal_context() {
	build signals
	kft record -- ./signals
	rows >r
	check "handlers in signal context" test "$(count '^i handler <- ' r)" = 2
	# called by the kernel's signal return code in libc (__restore_rt where
	# libc's debug symbols are installed), not by kft
	check "a handler's caller is not kft's" test "$(count '^i handler <- (libc|__restore_rt)' r)" = 2
	check "their calls too" test "$(count '^i in_handler <- handler$' r)" = 2
	check "normal calls not" test "$(count '^normal <- main$' r)" = 2
	printf 'begin\nfilter noints\nend\n' >noints.conf
	kft record -c noints.conf -- ./signals
	rows >r
	check "noints drops them" test "$(count '^i ' r)" = 0
	check "noints keeps the rest" test "$(count '^normal' r)" = 2
	printf 'begin\nfilter onlyints\nend\n' >onlyints.conf
	kft record -c onlyints.conf -- ./signals
	rows >r
	check "onlyints keeps handlers" test "$(grep -v -c '^i ' r)" = 0
	check "onlyints: 4 rows" test "$(wc -l <r)" = 4
}

test_deep_recursion() {
	build deep
	kft record -- ./deep
	kft log >log
	check "100001 calls" test "$(awk '$4 == "down"' log | wc -l)" = 100001
	check "all finished" test "$(awk '$2 == "-1"' log | wc -l)" = 0
	# (ftrace's layout indents two columns a level: 100,000 levels are
	# 20 GB of it; 5,000 are 50 MB)
	kft record -o t5 -- ./deep 5000
	kft ftrace t5 | tail -1 | norm >last
	check "tree closes" grep -q '^TID) DUR |  } /\* main \*/$' last
}

# Instrumented calls from .preinit_array, before libkft's constructor and
# before the C library set up environ: traced from the first (the trace
# was empty); a patchable build cannot be patched that early, and kft
# record says so
test_preinit_array() {
	build preinit
	kft record -- ./preinit >out 2>err
	check "the program ran" test "$(cat out)" = main
	rows >r
	case $TINSTR in
	-fpatchable*)
		check "said" grep -q "runs code from its .preinit_array before kft can patch" err
		check "main's call" test "$(count '^early_work <- main$' r)" = 1
		;;
	*)
		check "nothing said: $(cat err)" test ! -s err
		check "the early calls" test "$(count '^early_work <- early$' r)" = 2
		check "and main's" test "$(count '^early_work <- main$' r)" = 1
		;;
	esac
}

# A GNU C nested function (gcc only): the program keeps its static chain
# (-pg -mfentry took the saved r10 for the return address and broke it)
test_nested_function() {
	if [ "$TCC" != gcc ]; then
		echo "clang has no nested functions"
		return 77
	fi
	"$TCC" -g "$TOPT" $INSTR -Wall -Werror -Wno-trampolines -z execstack -o nested \
		"$PROGS/nested.c"
	kft record -- ./nested >out
	check "the program's answer: $(cat out)" test "$(cat out)" = 33
	rows >r
	check "three calls of add" test "$(count '^add[.0-9]* <- apply$' r)" = 3
	check "three of apply" test "$(count '^apply <- main$' r)" = 3
}

crash_case() {	# how, expected exit status, how the views say it ended
	build crash
	set +e
	kft record -- ./crash "$1" 2>err
	rc=$?
	set -e
	check "exit status $2 (got $rc)" test "$rc" = "$2"
	rows >r
	expect r <<'E'
-1 main <- libc.so.6
-1 doomed <- main
finished <- doomed
-1 dying <- doomed
E
	# the log, status and the Chrome export say how the program ended
	check "log: $3" grep -qx "Logging stopped at [0-9]* usec by the end of the program: $3" \
		<(kft log)
	check "status: $3" grep -qx "  program ended at [0-9]* usec: $3" <(kft status)
	check "export: $3" test "$(kft export --chrome - | jq -r .otherData.program_ended)" = "$3"
	# a function none of whose calls finished has no time: '-', as its Average
	kft kd -f Fctasl >kd
	check "kd: main's times" grep -qE '^main +1 +- +- +- +-$' kd
	check "kd: finished's" grep -qE '^finished +1( +[0-9]+){4}$' kd
	kft log | kft kd -f Fctasl - >kd-log
	check "kd of the log" diff kd kd-log
	kft diff kft.data kft.data >diff
	check "diff: main's times" grep -qE '^ +1 +1 +\+0 +- +- +\+0.0 +- +- +- +- +main$' diff
}

test_crash_segv() {
	crash_case segv 139 "killed by signal 11 (SIGSEGV)"
	grep -q "Segmentation fault" err
}
test_crash_abort() { crash_case abort 134 "killed by signal 6 (SIGABRT)"; }
test_crash_sigkill() { crash_case kill 137 "killed by signal 9 (SIGKILL)"; }
test_crash_exit() { crash_case exit 7 "exited 7"; }

test_watch_stack() {
	build stack
	# nest(1) stays below 8 KiB of stack in use; nest(3) passes it
	printf 'begin\nwatch stack 10000\nend\n' >w.conf
	kft record -c w.conf -- ./stack
	rows >r
	check "one chain" test "$(count '^-2 ' r)" -ge 4
	check "chain shape" test "$(grep '^-2 ' r | awk '{ sub(/\..*/, "", $2); print $2 }' | head -2 | tr '\n' ' ')" = "main nest "
	kft status >st
	check "deepest stack" grep -E -q "^  deepest stack [0-9]+ bytes" st
	deepest=$(sed -n 's/^  deepest stack \([0-9]*\) bytes.*/\1/p' st)
	# (-pg measures at entry, before the function's own frame: 3 frames)
	check "deepest >= 12 KiB" test "$deepest" -ge 12288
}

test_watch_worst_stack() {
	build stack
	printf 'begin\nwatch worst-stack 0\nend\n' >w.conf
	kft record -c w.conf -- ./stack
	rows >r
	# every new maximum logs the calls not in the chain logged before it:
	# main, nest(1) at its two depths, then nest(3)'s four calls of which
	# the first two take the places of nest(1)'s (nest(2) never goes deeper)
	check "counted" grep -q "^Stack watch firings = 5$" <(kft log)
	check "main once" test "$(count '^-2 main' r)" = 1
	check "a row a new call: 7" test "$(count '^-2 ' r)" = 7
	# (gcc -O2 -pg runs a clone: nest.isra.0)
	check "the deepest chain" grep -qE "^  stack watch, thread [0-9]+: 5 calls deep: main > nest[.a-z0-9]* \(x4\)$" <(kft status)
	# the views of calls say where the rows are
	kft kd >/dev/null 2>err
	check "kd says" grep -q "stack watch fired 5 times: its rows (Delta -2) are not calls, and are in kft log" err
	kft ftrace >/dev/null 2>err
	check "ftrace says" grep -q "stack watch fired 5 times" err
}

# A recursion 1000 deep under watch worst-stack: rows in proportion to the
# depth (it logged every chain whole, half a million rows), and the calls
# all there
once_watch_worst_stack_deep_recursion() {
	cat >deep.c <<'C'
__attribute__((noinline)) int rec(int n)
{
	volatile char b[64];

	b[0] = (char)n;
	return n ? rec(n - 1) + b[0] : 0;
}
int main(void) { return rec(1000) & 0; }
C
	"$TCC" -O0 $INSTR -o deep deep.c
	printf 'begin\nwatch worst-stack 0\nend\n' >w.conf
	kft record -c w.conf -- ./deep
	check "a row a level" test "$(rows | grep -c '^-2 ')" = 1002
	check "every call" test "$(calls_of kft.data rec)" = 1001
	check "the chain" grep -qx "  stack watch, thread [0-9]*: 1002 calls deep: main > rec (x1001)" \
		<(kft status)
}

# The helper thread that faults logs in ahead is optional, and the trace
# is the same without it.
test_without_prefault_helper() {
	build threads
	KFT_PREFAULT=0 kft record -- ./threads >/dev/null
	kft log | log_rows >r
	check "4000 steps" test "$(count '^step <- worker$' r)" = 4000
}

# When the run ends, a patchable build's entries become NOPs again, while
# another thread calls through them; the program goes on unharmed, and
# its own SIGTRAP handler still gets its own trap.
test_entries_off_after_the_run() {
	build relive
	printf 'begin\ntrigger stop exit phase\nfilter funclist phase\nend\n' >cfg.conf
	case $TINSTR in
	-fpatchable*) arg=bytes ;;
	*) arg= ;;
	esac
	kft record -c cfg.conf -- ./relive $arg >out
	check "phase logged" test "$(rows | grep -c '^phase <- main$')" = 1
	kft log >log
	check "stopped by phase" grep -q "^Logging stopped at [0-9]* usec by exit from function phase$" log
	if [ -n "$arg" ]; then
		expect out <<'E'
during: call
after: nop
own trap: handled
E
	else
		expect out <<'E'
own trap: handled
E
	fi
}

# pthread_exit from depth: the unwinder walks through traced frames (with
# -pg, kft puts their return addresses back first); the calls left end
# as unwound, -1.
test_pthread_exit_from_depth() {
	build pexit
	kft record -- ./pexit >out
	check "the program ran on" grep -q "^joined$" out
	kft kd -c | sed 1,2d >got
	expect got <<'E'
main
worker
|  outer
|  |  inner
|  |  |  leave
E
}

# Children started with an environment of their own (posix_spawn with
# envp, execle) are traced like any other.
test_spawn_with_own_environment() {
	build spawn
	kft record -- ./spawn >out
	check "both children ran" test "$(grep -c '^child$' out)" = 2
	kft kd -f Fc >got
	check "three images' main" grep -q "^main  *3$" got
	check "both children traced" grep -q "^child_work  *2$" got
}

# A program with its own instrumented allocator is traced from its first
# call (kft's runtime allocates while it starts).
test_own_allocator() {
	build ownmalloc
	kft record -- ./ownmalloc >out
	check "ran" grep -q "^6$" out
	kft status >st
	check "triggered" grep -q "^status: run id 1, primed, triggered, complete$" st
	kft kd -f Fc >got
	check "main" grep -q "^main  *1$" got
	check "work (gcc may clone it: work.constprop.0)" grep -q "^work\(\.constprop\.0\)\?  *1$" got
	check "the program's mallocs" grep -q "^malloc  *[1-9]" got
}

# Coroutines (swapcontext): each stack nests apart, as a thread file of
# its own (kft log's PID 1234/1); a coroutine that ended leaves its log
# to the next one. Every view shows the same trees.
test_coroutines() {
	build coro
	kft record -- ./coro >out
	check "ran" grep -q "^done 1$" out
	check "main's log and two coroutines' logs" test "$(ls kft.data/thread-*.kft | wc -l)" = 3
	kft kd -c | sed 1,2d >got
	expect got <<'E'
main
|  make
|  make
|  resume
|  resume
|  resume
|  resume
|  resume
|  resume
|  after
|  make
|  resume
|  resume
|  resume
co_body
|  leaf
|  yield_to_main
|  leaf
|  yield_to_main
co_body
|  leaf
|  yield_to_main
|  leaf
|  yield_to_main
co_body
|  leaf
|  yield_to_main
|  leaf
|  yield_to_main
E
	kft log | kft kd -c - | sed 1,2d >text
	expect text <got
	kft ftrace | norm | grep -c -- "------" >seps
	check "ftrace: three trees" test "$(cat seps)" = 2
	kft ftrace | norm | grep -E "co_body|yield" | LC_ALL=C sort | uniq -c >fg
	expect fg <<'E'
      3 TID)   |  co_body() {
      6 TID) DUR |    yield_to_main();
      3 TID) DUR |  } /* co_body */
E
	kft log | awk '$4 == "co_body" { print $3 }' | sed 's/^[0-9]*//' | sort | uniq -c >labels
	check "coroutines 1 and 2, one reused" test "$(awk '{ print $2 }' labels | tr '\n' ' ')" = "/1 /2 "
	check "every call ended" test "$(kft log | awk '$2 == -1' | wc -l)" = 0
	kft status | grep -q "^  threads 1 (and 2 coroutine stacks)$"
}

# The same programs built with no instrumentation flag, their entries
# patched as they load: the hard cases of exits (threads, fork and exec of
# itself, longjmp, signals, coroutines) as -pg -mfentry builds have them.
# (-pg keeps each function whole where a plain -O2 build inlines it into
# its callers or makes a clone of it: plain_flags keeps the programs as
# written, the code of each function optimised still.)
each_plain_threads() { INSTR=$(plain_flags) TINSTR=plain test_threads; }
each_plain_fork_exec() { INSTR=$(plain_flags) TINSTR=plain test_fork_exec; }
each_plain_longjmp() { INSTR=$(plain_flags) TINSTR=plain test_longjmp; }
each_plain_daemon() { INSTR=$(plain_flags) TINSTR=plain test_daemon; }
each_plain_signal_context() { INSTR=$(plain_flags) TINSTR=plain test_signal_context; }
each_plain_coroutines() { INSTR=$(plain_flags) TINSTR=plain test_coroutines; }

# expect_daemon_calls DIR: the daemon's calls in DIR's trace, under the
# main it inherited (clang instruments the atoi it inlines: not what is
# checked)
expect_daemon_calls() {
	kft kd -c "$1" | grep -v atoi | grep -A3 -E '^main /\* inherited \*/$' >tree
	expect tree <<'E'
main /* inherited */
|  a
|  |  b
|  |  |  c
E
}

# A daemon (fork; the parent exits; the child goes on): kft record waits
# for it, as for any process the program leaves running, and its calls
# are kept whole and named. With --no-wait, kft status lists it while it
# runs, and the trace read after it ended names its calls too.
test_daemon() {
	build daemon
	kft record -- ./daemon "$PWD/done" 2>err
	check "kft record waited for the daemon" test -s done
	check "said it waits: $(cat err)" grep -q "^kft: waiting for 1 process (pid [0-9]*) that ./daemon left running" err
	check "nothing failed: $(cat err)" test "$(grep -vc -e '^kft: waiting' -e '^kft: note' err)" = 0
	expect_daemon_calls kft.data
	rm -f done
	kft record --no-wait -o t2 -- ./daemon "$PWD/done" 1500 2>err
	check "did not wait" test ! -e done
	check "said so: $(cat err)" grep -q "^kft: 1 process (pid [0-9]*) that ./daemon left running still writes the trace" err
	pid=$(sed -n 's/^kft: 1 process (pid \([0-9]*\)).*/\1/p' err)
	kft status t2 >st
	check "kft status lists it" grep -q "^  still running, writing the trace: pid $pid\$" st
	wait_for done
	check "the daemon ended" gone "$pid" 10
	kft status t2 >st
	check "kft status no longer lists it" test "$(count 'still running' st)" = 0
	expect_daemon_calls t2
	# Ctrl-C while kft waits: it stops waiting, with the program's status
	rm -f done
	"$KFT" record -o t3 -- ./daemon "$PWD/done" 3000 2>err &
	local rec=$! st=0
	for _ in $(seq 200); do grep -q waiting err && break; sleep 0.05; done
	kill -INT "$rec"
	wait "$rec" || st=$?
	check "kft record's status is the program's: $st" test "$st" = 0
	check "stopped waiting: $(cat err)" grep -q "^kft: 1 process (pid [0-9]*) that ./daemon left running still writes the trace" err
	check "before the daemon's end" test ! -e done
	wait_for done
}

# kft's descriptors stay out of the program's way: its first open returns
# 3, as untraced; a program that closes every descriptor and fills the
# numbers with its own still has its new thread's and child's calls
# traced (kft opens its directory again)
test_descriptors_closed() {
	build closer
	./closer >untraced
	kft record -- ./closer >out 2>err
	diff untraced out
	check "nothing said: $(cat err)" test "$(grep -vc '^kft: note' err)" = 0
	kft kd -f Fc | awk '$1 ~ /^in_/ { print $1, $2 }' | sort >counts
	expect counts <<'E'
in_child 1
in_thread 1
E
}
each_plain_descriptors_closed() { INSTR=$(plain_flags) TINSTR=plain test_descriptors_closed; }

# A function that jumps to its own entry (a tail call of itself) is
# entered anew each time: counted as often as it counts itself, patched
# as it loads and with patchable entries alike (the instrumentations that
# call a hook from the function's own code leave its hand-written code
# without one)
test_self_tail_jump() {
	case $TINSTR in
	plain) INSTR="$INSTR" ;;
	-fpatchable*) INSTR="$INSTR -DPATCHABLE" ;;
	*) return 0 ;;
	esac
	build selfjump
	kft record -- ./selfjump 394 >out
	check "the truth: $(cat out)" test "$(cat out)" = "entries 395"
	kft kd -f Fc | awk '$1 == "countdown" || $1 == "start" { print $1, $2 }' | sort >counts
	expect counts <<'E'
countdown 395
start 1
E
	# each entry a call under start's, one after another: the jump ends
	# the call it leaves
	kft kd -c | grep -c '^|  |  countdown$' >n
	expect n <<'E'
395
E
}
each_plain_self_tail_jump() { INSTR=$(plain_flags) TINSTR=plain test_self_tail_jump; }

# Programs built without instrumentation that the traced program starts
# (posix_spawn, and a shell pipeline through system()) are patched as
# they load, planned by kft record as they start: each once, said once
test_started_plain_programs() {
	build starter
	"$TCC" -g "$TOPT" $(plain_flags) -o plainkid "$PROGS/plainkid.c"
	kft record -- ./starter "$PWD/plainkid" >out 2>err
	expect out <<'E'
0
6
E
	check "planned once, said: $(cat err)" test "$(count "^kft: note: $PWD/plainkid is not instrumented: 3 of its 3 functions are patched as it loads" err)" = 1
	kft kd -f Fc | awk '$1 == "leaf" || $1 == "work" || $1 == "start_one" || $1 == "start_pipeline" { print $1, $2 }' | sort >counts
	expect counts <<'E'
leaf 6
start_one 1
start_pipeline 1
work 3
E
	# each under its own image's main, wherever that is (the shell's
	# calls it exec'd inside are inherited): depths relative to it
	kft kd -c | awk 'BEGIN { base = -1 } { d = 0; while (substr($0, 3 * d + 1, 3) == "|  ") d++; name = substr($0, 3 * d + 1) }
		name == "main [plainkid]" { base = d; print "main"; next }
		base >= 0 && d > base && name ~ /^(work|leaf)$/ { printf "%d %s\n", d - base, name; next }
		{ base = -1 }' | sort | uniq -c | sed 's/^ *//' >tree
	expect tree <<'E'
3 1 work
6 2 leaf
3 main
E
}
each_plain_started_plain_programs() { INSTR=$(plain_flags) TINSTR=plain test_started_plain_programs; }

# A stripped program built without PIE, whose functions are reached
# through a table of pointers (no relocation names them): its functions
# come from its unwind table, told from cold parts by the frame each
# begins in, and every call is counted
test_stripped_non_pie() {
	"$TCC" -g "$TOPT" $(plain_flags) -fno-pie -no-pie -o optable "$PROGS/optable.c"
	./optable >untraced
	strip optable
	kft record -- ./optable >out 2>err
	diff untraced out
	# (the four, and the C runtime's _dl_relocate_static_pie, which
	# only a static PIE calls)
	check "its functions patched: $(cat err)" grep -q "^kft: note: ./optable is not instrumented: 5 of its 5 functions are patched" err
	# (named func_ADDR: main once, each of the three ten times)
	kft kd -f Fc | awk '$1 ~ /^func_/ { print $2 }' | sort -n >counts
	expect counts <<'E'
1
10
10
10
E
}
each_stripped_non_pie() { TINSTR=plain test_stripped_non_pie; }

# kft's runtime never calls the program's allocator, and leaves its
# descriptors alone: a program that defines malloc and counts its calls
# counts as many traced as untraced, in the parent and in a fork child,
# and its trace holds each of them, under main
test_own_allocator_untouched() {
	build countmalloc -fno-builtin
	./countmalloc >untraced
	kft record -- ./countmalloc >out
	diff untraced out
	# the trace's calls of the allocator under main: the parent's, then
	# the child's since the fork (its count holds the parent's before)
	kft kd -c | awk '/^main( \/\* inherited \*\/)?$/ { n++; next } /^[^|]/ { n = 0 }
		n && /^\|.*(malloc|free|calloc|realloc)$/ { c[n]++ } END { print c[1] + 0, c[2] + 0 }' >got
	read -r parent child <got
	check "the parent's, traced: $parent" test "$parent" = "$(sed -n 's/^parent //p' out)"
	check "the child's since the fork, traced: $child" test "$((child + 3))" = "$(sed -n 's/^child //p' out)"
}
each_plain_own_allocator_untouched() { INSTR=$(plain_flags) TINSTR=plain test_own_allocator_untouched; }

# A script as the program: said to be one, its interpreter and what it
# runs traced (a program built without instrumentation, planned as it
# starts)
once_script_is_followed() {
	"$TCC" -g -O2 $(plain_flags) -o plainkid "$PROGS/plainkid.c"
	printf '#!/bin/sh\n./plainkid 2\nexit 3\n' >s.sh
	chmod +x s.sh
	local st=0
	kft record -- ./s.sh >out 2>err || st=$?
	check "its exit status: $st" test "$st" = 3
	expect out <<'E'
2
E
	check "said: $(cat err)" grep -q "^kft: note: ./s.sh is a script: its interpreter (/bin/sh) and the programs it starts are traced$" err
	kft kd -f Fc | awk '$1 == "leaf" || $1 == "work" { print $1, $2 }' | sort >counts
	expect counts <<'E'
leaf 2
work 1
E
}
