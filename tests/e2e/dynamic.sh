# SPDX-License-Identifier: GPL-2.0-only
# Programs built with no instrumentation flag: kft record patches their
# functions' entries as they load (record/patch-plan.c, runtime/dynamic.c).
# The build ignores this run's instrumentation: each_* gives gcc and clang
# at -O0 and -O2.

# build_plain NAME: progs/NAME.c with this run's compiler and level only
build_plain() { "$TCC" -g "$TOPT" -Wall -Werror -o "$1" "$PROGS/$1.c"; }

# fib's count: its two recursions at -O0; at -O2 gcc and clang make one a loop
plain_fib() { if [ "$TOPT" = -O2 ]; then echo 13; else echo 25; fi; }

# expect_plain_counts FILE: "function count" lines of plain's run
# (countdown's and spin8's jumps to their own starts are calls: tail
# calls of themselves, as an instrumented build's hook counts them)
expect_plain_counts() {
	expect "$1" <<E
callfirst 1
countdown 6
deep 4
fib $(plain_fib)
jumper 1
leaf 8
loop 2
main 1
rip 1
spin8 4
tail 1
tiny 1
E
}

each_plain_program_is_patched_and_counted() {
	build_plain plain
	./plain >alone
	kft record -- ./plain >out 2>err
	check "the output is the untraced run's" cmp alone out
	check "said what is patched" \
		grep -q "^kft: note: ./plain is not instrumented: 12 of its 12 functions are patched as it loads (1 piece of the C runtime or cold part not counted)" err
	kft kd -f Fc | awk 'NR > 2 { print $1, $2 }' | sort >counts
	fib=$(plain_fib)
	expect_plain_counts counts
	kft kd -c | grep -o '[a-z]*$' | grep -v '^$' >tree
	check "kd -c has as many fib as kd counts" test "$(grep -c '^fib$' tree)" = "$fib"
	rows >rows
	check "log: deep under jumper, left by longjmp" \
		test "$(grep -c '^deep <- jumper$' rows)" = 1
	check "log: six leaf under loop" test "$(grep -c '^leaf <- loop$' rows)" = 6
	# (at -O2 the call is among the instructions kft moves)
	check "log: one leaf under callfirst" test "$(grep -c '^leaf <- callfirst$' rows)" = 1
	# (at -O2 tail jumps to leaf: as with -pg, the jump ends tail's call)
	check "log: one under tail, or where tail was" \
		test "$(grep -c -E '^leaf <- (tail|main)$' rows)" = 1
	kft ftrace >ft
	check "ftrace: every call" test "$(grep -c -E '[a-z0-9]+\(\);|[a-z0-9]+\(\) \{' ft)" = $((fib + 30))
}

# a stripped build: its functions are found in its .eh_frame, named
# func_ADDR (here named back from the unstripped build's symbols)
each_plain_stripped_program_is_patched_and_counted() {
	build_plain plain
	strip -o stripped plain
	./plain >alone
	kft record -- ./stripped >out 2>err
	check "the output is the untraced run's" cmp alone out
	check "said what is patched" \
		grep -q "^kft: note: ./stripped is not instrumented: 12 of its 12 functions are patched as it loads (1 piece of the C runtime or cold part not counted)" err
	nm plain | while read -r addr type name; do
		case $type in t | T) printf 'func_%x %s\n' "0x$addr" "$name" ;; esac
	done >names
	kft kd -f Fc >kd
	check "named by address" grep -q '^func_[0-9a-f]* ' kd
	awk 'NR > 2 { print $1, $2 }' kd |
		awk 'FILENAME == ARGV[1] { n[$1] = $2; next } { print ($1 in n ? n[$1] : "?" $1), $2 }' \
		names - | sort >counts
	expect_plain_counts counts
	kft record --dynamic-report -- ./stripped >/dev/null 2>err
	check "its entry point left alone" \
		grep -q "^kft:   func_[0-9a-f]* (0x[0-9a-f]*): the program's entry point (_start)" err
}

# the patched entry sees the argument registers, as -pg -mfentry's does
each_plain_program_arguments() {
	build_plain plain
	kft record -A leaf@arg1 -R loop -- ./plain >/dev/null 2>&1
	# (a long call's duration has ftrace's mark before it: + ! # * @ $)
	kft ftrace | sed -E 's/^ *[0-9]+\) +[-+!#*@$ ]*[0-9. us]*\| *//' >ft
	check "leaf's argument" test "$(grep -c -E '^leaf\([0-9]+\);' ft)" = 8
	check "loop's return value" grep -q '^} /\* loop = 51 \*/$' ft
}

each_plain_program_report() {
	build_plain plain
	kft record --dynamic-report -- ./plain >/dev/null 2>err
	check "the one left out, and why" \
		grep -q "^kft:   _start (0x[0-9a-f]*): the C runtime's start-up and end, not the program's$" err
	check "under its heading: $(cat err)" grep -q "^kft:   not counted, none of its functions (1):$" err
	check "no function left as it is" sh -c "! grep -q 'left as they are' err"
	kft record -- ./plain >/dev/null 2>err
	check "no pointer to the report: $(cat err)" sh -c "! grep -q 'says why not the others' err"
	check "spin8, whose short jump back to its start lands on the patch, is patched" \
		sh -c "! grep -q '^kft:   spin8 ' err"
	check "a trace directory's own file" test -s kft.data/patch-plan
	kft record -- ./plain >/dev/null 2>err
	check "recorded again over it" test -s kft.data/patch-plan
}

# a funclist filter: only the functions it logs (and the triggers') are
# patched, the others cost nothing; a graph filter needs them all
each_plain_filter_patches_only_its_functions() {
	build_plain plain
	kft record -F leaf -F 'fi*' -- ./plain >/dev/null 2>err
	check "said what is patched" \
		grep -q "^kft: note: ./plain is not instrumented: 2 of the 2 functions the filter logs are patched as it loads$" err
	kft kd -f Fc | awk 'NR > 2 { print $1, $2 }' | sort >counts
	expect counts <<E
fib $(plain_fib)
leaf 8
E
	check "ftrace: as many calls" test "$(kft ftrace | grep -c -E '(fib|leaf)\(\)')" = $(($(plain_fib) + 8))
	printf 'begin\n  trigger start entry rip\n  filter funclist leaf fend\nend\n' >trig.conf
	kft record -c trig.conf -- ./plain >/dev/null 2>err
	check "the trigger's function too" \
		grep -q "^kft: note: ./plain is not instrumented: 2 of the 2 functions the filter logs are patched" err
	check "leaf from rip on: callfirst's" test "$(calls_of kft.data leaf)" = 1
	kft record -G loop -- ./plain >/dev/null 2>err
	check "a graph filter: all" \
		grep -q "^kft: note: ./plain is not instrumented: 12 of its 12 functions are patched" err
	check "inside loop" test "$(calls_of kft.data leaf)" = 6
}

# a caller's ymm8 upper half (and ymm16, with AVX-512) kept across patched
# calls, also where the first of them sets the thread's log up (with -F
# only they are patched), which the C library's vector routines do; a
# function too short for the jmp (gcc -O2: the last of .text) entered
# through its slot by its callers
each_plain_vector_registers_and_a_short_last_function() {
	if ! grep -q ' avx2' /proc/cpuinfo; then
		echo "this CPU has no AVX2"
		return 77
	fi
	"$TCC" -g "$TOPT" -mavx2 -pthread -o vectors "$PROGS/vectors.c"
	check "vector registers kept untraced" ./vectors
	check "...and traced" kft record -- ./vectors
	kft kd -f Fc | awk 'NR > 2 { print $1, $2 }' | sort >counts
	expect counts <<E
add_one 6
in_thread 1
main 1
rounds 2
say_twice 6
E
	check "...and where the first patched call sets a thread up" \
		kft record -F add_one -F say_twice -o only -- ./vectors
	kft kd -f Fc only | awk 'NR > 2 { print $1, $2 }' | sort >counts
	expect counts <<E
add_one 6
say_twice 6
E
}

# --no-check checks nothing before the run, but a program built without
# instrumentation is still patched: as it starts, as the programs a run
# starts are
once_plain_program_no_check_is_patched() {
	build_plain plain
	kft record --no-check -- ./plain >out 2>err
	check "said as it started: $(cat err)" grep -q "^kft: note: $PWD/plain is not instrumented: 12 of its 12 functions are patched as it loads" err
	kft kd -f Fc | awk 'NR > 2 { print $1, $2 }' | sort >counts
	expect_plain_counts counts
}

# --lib: a shared library built without instrumentation, patched as it
# loads, under a program built plain or instrumented
build_plainlib() {
	"$TCC" -g "$TOPT" -Wall -Werror -fPIC -shared -o libplainlib.so "$PROGS/plainlib.c"
	"$TCC" -g "$TOPT" -Wall -Werror $1 -o uselib "$PROGS/plainlib-main.c" -L. -lplainlib \
		-Wl,-rpath,'$ORIGIN'
}

# expect_lib_calls: the library's calls, counted and nested, in every view
expect_lib_calls() {
	kft kd -f Fc | awk 'NR > 2 && /^lib_/ { print $1, $2 }' | sort >counts
	expect counts <<E
lib_leaf 6
lib_sum 1
lib_twice 6
E
	rows >rows
	check "log: five lib_leaf under lib_sum" test "$(grep -c '^lib_leaf <- lib_sum$' rows)" = 5
	check "log: lib_twice under lib_leaf" test "$(grep -c '^lib_twice <- lib_leaf$' rows)" = 6
	kft kd -c | grep -o 'lib_[a-z]*$' | sort | uniq -c | awk '{ print $2, $1 }' >tree
	check "kd -c: the same calls" cmp counts tree
	kft ftrace | grep -o -E 'lib_[a-z]+\(\)' | sort | uniq -c | awk '{ print $2, $1 }' |
		sed 's/()//' >ft
	check "ftrace: the same calls" cmp counts ft
}

each_plain_library_is_patched_and_counted() {
	build_plainlib
	./uselib >alone
	kft record --lib libplainlib.so -- ./uselib >out 2>err
	check "the output is the untraced run's" cmp alone out
	check "said what is patched" \
		grep -q "^kft: note: libplainlib.so (--lib): 3 of its 3 functions are patched as it loads$" err
	expect_lib_calls
	check "main's calls too" test "$(kft kd -f Fc | grep -c '^main ')" = 1
	# a filter that logs none of the program's functions: said so
	kft record --lib libplainlib.so -F 'lib_*' -o filtered -- ./uselib >out 2>err
	check "said the filter leaves the program out" \
		grep -q "^kft: note: ./uselib is not instrumented: the filter logs none of its functions: nothing of it is patched$" err
	check "the library's calls only" \
		test "$(kft kd -f Fc filtered | awk 'NR > 2 { print $1 }' | sort | tr '\n' ' ')" = "lib_leaf lib_sum lib_twice "
	# a program built with -pg -mfentry, the library patched: one trace
	build_plainlib "-pg -mfentry"
	kft record --lib 'libplain*' -- ./uselib >out 2>err
	check "said only the library's plan" test "$(grep -c 'patched as it loads' err)" = 1
	expect_lib_calls
	# stripped: its static function named by its address
	build_plainlib
	strip libplainlib.so
	kft record --lib libplainlib.so -- ./uselib >out 2>err
	check "the output is the untraced run's, stripped" cmp alone out
	kft kd -f Fc | awk 'NR > 2 && /^func_/ { print $2 }' >made
	check "lib_twice, by its address" test "$(cat made)" = 6
}

# a library from Debian: libm, whose exp and pow are called as often
# as the program calls them
each_plain_system_library_is_patched() {
	"$TCC" -g "$TOPT" -o mathcalls "$PROGS/mathcalls.c" -lm
	./mathcalls 300 >alone
	kft record --lib 'libm.so*' -- ./mathcalls 300 >out 2>err
	check "the output is the untraced run's" cmp alone out
	check "said what is patched" grep -q "^kft: note: libm.so.6 (--lib): [0-9]* of its" err
	kft kd -f Fc | awk 'NR > 2 && ($1 == "exp" || $1 == "pow") { print $1, $2 }' | sort >counts
	expect counts <<E
exp 300
pow 300
E
}

# --lib PATH: a library built without instrumentation that the program
# opens later with dlopen, patched as it opens, again when opened anew;
# where another thread runs meanwhile, that one held still (and then
# calling the library too)
each_plain_library_opened_later() {
	"$TCC" -g "$TOPT" -fPIC -shared -o plugin.so "$PROGS/plugin.c"
	build_plain plugin-user
	kft record --lib "$PWD/plugin.so" -- ./plugin-user "$PWD/plugin.so" >out 2>err
	check "ran" grep -q "^called$" out
	check "said" grep -q "^kft: note: plugin.so (--lib): [0-9]* of its 2 functions are patched as it loads" err
	check "plugin_helper, each call" test "$(calls_of kft.data plugin_helper)" = 4
	check "ftrace: as many" test "$(kft ftrace | grep -c 'plugin_helper()')" = 4
	kft record --lib "$PWD/plugin.so" -o threaded -- ./plugin-user "$PWD/plugin.so" thread >out 2>err
	check "with a thread: ran" grep -q "^called$" out
	check "plugin_helper, each call, the thread's too" \
		test "$(calls_of threaded plugin_helper)" = 5
	check "the thread's own calls" test "$(calls_of threaded thread)" = 1
	check "ftrace: as many" test "$(kft ftrace threaded | grep -c 'plugin_helper()')" = 5
	refused kft record --lib plugin.so -- ./plugin-user "$PWD/plugin.so" 2>err
	check "one opened later is named by its path" \
		grep -q "name one it opens later, with dlopen, by its path" err
}

# --lib PATH: a library opened and closed 300 times, its constructor
# starting a thread that naps and calls into the library each time: the
# library is patched before its constructors run (kft's __gmon_start__,
# which every object's _init calls), so every call of the thread is
# seen; no crash, and every opening patched (one new mapping of slots
# each would run out near the library after about 126)
each_plain_library_reopened_under_a_napping_thread() {
	"$TCC" -g "$TOPT" -fPIC -shared -o napper.so "$PROGS/napper.c" -lpthread
	build_plain napper-user
	kft record --lib "$PWD/napper.so" -- ./napper-user "$PWD/napper.so" 300 >out 2>err
	check "ran" grep -q "^opened 300 times, nap_work called [0-9]* times, [0-9]* after dlopen$" out
	check "napper_stop, each opening" test "$(calls_of kft.data napper_stop)" = 300
	check "the thread, each time" test "$(calls_of kft.data naps)" = 300
	check "nap_work, each call the thread made" \
		test "$(calls_of kft.data nap_work)" = "$(awk '{ print $6 }' out)"
	check "ftrace: as many" test "$(kft ftrace | grep -c 'napper_stop()')" = 300
	# a library without the C runtime's _init (-nostartfiles) does not
	# call __gmon_start__: it is patched once dlopen returns, its thread
	# running or asleep in it (the old runtime: a SIGSEGV in most runs),
	# the jmps written int3 first where a thread may wake
	"$TCC" -g "$TOPT" -fPIC -shared -nostartfiles -o nostart.so "$PROGS/napper.c" -lpthread
	kft record --lib "$PWD/nostart.so" -o nostart -- ./napper-user "$PWD/nostart.so" 300 >out 2>err
	check "no _init: ran" grep -q "^opened 300 times, nap_work called [0-9]* times, [0-9]* after dlopen$" out
	check "no _init: napper_stop, each opening" test "$(calls_of nostart napper_stop)" = 300
	# (the thread's calls before kft patched an opening are not seen;
	# those after dlopen returned are)
	check "no _init: nap_work, each call after dlopen, none more than made" \
		awk -v n="$(calls_of nostart nap_work)" '{ exit !($8 <= n && n <= $6) }' out
}

# A shared library's constructor calls functions of its own before kft's
# constructor runs (a preloaded library's comes after those of the
# program's libraries): patched or patchable, the library is patched
# before its constructors run all the same (__gmon_start__)
test_library_constructor_calls() {
	local lib=()

	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o libctor.so "$PROGS/ctorlib.c"
	"$TCC" -g "$TOPT" $INSTR -o ctormain "$PROGS/ctorlib-main.c" -L. -lctor -Wl,-rpath,"$PWD"
	[ "$TINSTR" = plain ] && lib=(--lib libctor.so)
	kft record "${lib[@]}" -- ./ctormain >out 2>err
	check "ran" grep -q "^ctor_work 3$" out
	kft kd -f Fc | awk 'NR > 2 && /^ctor_/ { print $1, $2 }' | sort >counts
	expect counts <<E
ctor_init 1
ctor_value 1
ctor_work 2
E
	kft ftrace | grep -o -E 'ctor_[a-z]+\(\)' | sort | uniq -c | awk '{ print $2, $1 }' |
		sed 's/()//' >ft
	check "ftrace: the same calls" cmp counts ft
}

each_plain_library_constructor_calls() {
	INSTR=$(plain_flags) TINSTR=plain test_library_constructor_calls
}

once_lib_refusals() {
	build_plainlib
	refused kft record --lib 'libc.so*' -- ./uselib 2>err
	check "libc: the runtime runs on it" grep -q "^kft: record: --lib libc.so\*: libc.so.6 is one that kft's runtime (libkft.so) itself runs on: it cannot be patched$" err
	refused kft record --lib libnone.so -- ./uselib 2>err
	check "a library it does not load" grep -q "^kft: record: --lib libnone.so: .*/uselib loads no such library at start (it loads libplainlib.so, libc.so.6, " err
	refused kft record --lib libplainlib.so --no-check -- ./uselib 2>err
	check "not with --no-check" grep -q "^kft: record: --lib goes with a program, checked$" err
	"$TCC" -g -O2 -fPIC -shared -finstrument-functions -o libplainlib.so "$PROGS/plainlib.c"
	refused kft record --lib libplainlib.so -- ./uselib 2>err
	check "not an instrumented library" grep -q "libplainlib.so is instrumented: it calls kft's hooks itself, and is not patched$" err
}
