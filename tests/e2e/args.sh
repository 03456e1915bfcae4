# SPDX-License-Identifier: GPL-2.0-only
# Arguments and return values (kft record -A, -R; the config's args
# statement): saved where the hooks see the registers (-pg, -pg -mfentry,
# patched entries, library calls), refused where they do not
# (-finstrument-functions), and shown alike by every view.

ARGS_OPTS=(-A mix@arg1/d32,arg2/u8,arg3,arg4/x -R mix@retval/d32 -A measure@arg1/s -R measure
	   -R pick@retval/s)

# "NAME(ARGS)... /* = RET */" of the ftrace graph, the rest cut off
ftrace_calls() {
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(mix|measure|pick|open|read)\("
}

test_args_and_return_values() {
	build args
	printf 'abcdefgh' >data.txt
	if [ "$TINSTR" = -finstrument-functions ]; then
		refused kft record "${ARGS_OPTS[@]}" -- ./args >/dev/null 2>err
		check "refused, naming the function and why" grep -q \
			"'mix': its arguments and return value cannot be saved: ./args was built with" err
		check "and what to build with" grep -q "^-finstrument-functions, whose hooks" err
		# library calls go through kft's own hooks: theirs are seen
		kft record --libcalls -A open@arg1/s -R read -- ./args >out
		ftrace_calls >calls
		expect calls <<'E'
mix();
measure();
measure();
measure();
pick();
pick();
open("data.txt");
read(); /* = 8 */
E
		return 0
	fi
	kft record "${ARGS_OPTS[@]}" --libcalls -A open@arg1/s -R read -- ./args >out
	check "the program's own account" grep -q "^mix = -1387$" out
	ftrace_calls >calls
	expect calls <<'E'
mix(-7, 200, 123456789012, 0xffffffffffffffff); /* = -1387 */
measure("hello, \"kft\"\n"); /* = 13 */
measure(NULL); /* = 0 */
measure(0x8 (unreadable)); /* = 0 */
pick(); /* = "hello, \"kft\"\n" */
pick(); /* = NULL */
open("data.txt");
read(); /* = 8 */
E
}

# The views agree: kd -c after the name, the exports as the slice's args,
# kft log in KFT's SAVE_ARGS columns (the registers as they were). With
# -finstrument-functions, the library calls' only.
each_args_in_every_view() {
	local own=("${ARGS_OPTS[@]}") only=.
	[ "$TINSTR" = -finstrument-functions ] && { own=(); only='^(open|read)\b|\["(open|read)"'; }
	build args
	printf 'abcdefgh' >data.txt
	kft record "${own[@]}" --libcalls -A open@arg1/s,arg2/x -R read -- ./args >/dev/null
	kft kd -c -d 1 -m 8 | grep -E "^\|  (mix|measure|pick|open|read) " | sed 's/^|  //; s/  */ /' >kd
	grep -E "$only" >want <<'E'
mix (-7, 200, 123456789012, 0xffffffffffffffff) = -1387
measure ("hello, \"kft\"\n") = 13
measure (NULL) = 0
measure (0x8 (unreadable)) = 0
pick () = "hello, \"kft\"\n"
pick () = NULL
open ("data.txt", 0x0)
read () = 8
E
	check "kd -c" cmp want kd
	kft export --chrome trace.json 2>/dev/null
	jq -c '.traceEvents[] | select(.ph == "X" and (.args.arg1 or .args.retval)) |
		[.name, .args]' trace.json >chrome
	grep -E "$only" >want <<'E'
["mix",{"arg1":"-7","arg2":"200","arg3":"123456789012","arg4":"0xffffffffffffffff","retval":"-1387"}]
["measure",{"arg1":"\"hello, \\\"kft\\\"\\n\"","retval":"13"}]
["measure",{"arg1":"NULL","retval":"0"}]
["measure",{"arg1":"0x8 (unreadable)","retval":"0"}]
["pick",{"retval":"\"hello, \\\"kft\\\"\\n\""}]
["pick",{"retval":"NULL"}]
["open",{"arg1":"\"data.txt\"","arg2":"0x0"}]
["read",{"retval":"8"}]
E
	check "Chrome JSON" cmp want chrome
	kft export --perfetto trace.pb 2>/dev/null
	perfetto_annotations trace.pb | tail -3 >pb
	expect pb <<'E'
arg1 \"data.txt\"
arg2 0x0
retval 8
E
	kft log >log
	check "KFT's columns" grep -q "Caller   Frame ptr        Arg 1            Arg 2            Arg 3$" log
	check "open's row: the stack pointer and three registers, the second O_RDONLY" \
		awk '$4 == "open" { ok = NF == 9 && $8 == "0000000000000000" } END { exit !ok }' log
	check "close's row: nothing saved, no columns" awk '$4 == "close" { ok = NF == 5 } END { exit !ok }' log
	[ ${#own[@]} = 0 ] && return 0
	check "mix's row: its third argument 123456789012" \
		awk '$4 == "mix" { ok = NF == 9 && $9 == "0000001cbe991a14" } END { exit !ok }' log
}

once_args_errors() {
	build args
	refused kft record -A 'mix@arg9' -- ./args 2>err
	check "the spec's error" grep -q "'mix@arg9': expected FUNC@SPEC" err
	refused kft record -A nosuch@arg1 -- ./args 2>err
	check "an unknown function" grep -q "'nosuch': no function of that name" err
}

# A program killed inside a call leaves the arguments saved till then:
# the .args file is a memory-mapped log, as the thread file is.
each_args_of_a_killed_program() {
	# (-finstrument-functions: refused, test_args_and_return_values)
	[ "$TINSTR" = -finstrument-functions ] && return 0
	build crash
	refused kft record -A 'dying@arg1/s' -A 'doomed@arg1/s' -- ./crash kill >/dev/null 2>&1
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(doomed|dying)\(" >calls
	expect calls <<'E'
doomed("kill") {
dying("kill"); /* unfinished */
E
}

# Traces saved in older versions of the .args format (a record at the
# entry, another at the exit, each naming its thread: the fuzz seeds
# tests/fuzz/corpus/trace/args, version 1, and args-typed, version 2,
# recorded then) read as they did.
once_args_of_older_traces() {
	unpack_trace "$ROOT/tests/fuzz/corpus/trace/args" v1
	check "args is of version 1" test "$(od -An -tu4 -j8 -N4 v1/thread-1-9570-0.args)" -eq 1
	kft ftrace v1 | sed -n 's/^[^|]*|  *//p' | grep -v '^|' >calls
	expect calls <<'E'
b(-5, "data \"x\"\n", NULL, 0x8 (unreadable), 0x10, 44); /* = "abc"... */
b(-5, "data \"x\"\n", NULL, 0x8 (unreadable), 0x10, 44); /* = 42 */
c(-5, "data \"x\"\n", NULL, 0x8 (unreadable), 0x10, 44); /* = 42 */
E
	kft log v1 | tail -3 | sed 's/  */ /g' >rows
	expect rows <<'E'
 0 1000 9570 b a+0x1f 000000007ffd0000 fffffffffffffffb 000000007ffd1234 0000000000000000
 1001 1000 9570 b y+0x1f 000000007ffd0000 fffffffffffffffb 000000007ffd1234 0000000000000000
 2001 30003 9570 c main+0x42 000000007ffd0000 fffffffffffffffb 000000007ffd1234 0000000000000000
E
	unpack_trace "$ROOT/tests/fuzz/corpus/trace/args-typed" v2
	check "args-typed is of version 2" \
		test "$(od -An -tu4 -j8 -N4 v2/thread-1-11453-0.args)" -eq 2
	kft ftrace v2 2>/dev/null | sed -n 's/^[^|]*|  *//p' | grep -v '^|' >calls
	expect calls <<'E'
main() {
small(-100, -30000, 250, 65000); /* = 35150 */
wide(-5000000000, 18000000000000000000); /* = 18000000005000000000 */
mixed(3, 2.5, -4, 0.25); /* = 1.75 */
half(3); /* = 1.5 */
flag(true, 3); /* = false */
color_name(GREEN); /* = "green" */
next_color(GREEN); /* = BLUE */
by_struct(); /* = 6 */
vsum(3); /* = 6 */
scaled();
} /* main = 0 */
E
}

# A full disk ends the saving, never the program: the .args file's room
# is taken before records go there (a store into a page the file system
# could not back would kill it with SIGBUS), and what was saved reads.
each_args_on_a_full_disk() {
	[ "$TINSTR" = -finstrument-functions ] && return 0	# refused
	build fill
	small_disk small || return 0
	rc=0
	kft record -o small/t -A leaf@arg1/d -- ./fill >out 2>err || rc=$?
	check "the program ran to its end" test "$rc" = 3
	check "and wrote its output" grep -qx done out
	kft ftrace small/t 2>ferr | sed -n 's/^[^|]*|  *//p' >calls
	# (the arguments' file, or before it the calls' own log, finds the
	# disk full first: either way the loss is said)
	check "said why arguments are missing" grep -qE \
		"calls could not be saved \(no room|calls not recorded: no space left" err ferr
	check "no file left half made" test "$(count damaged ferr)" = 0
	check "what was saved reads" grep -q "^leaf(999);" calls
	kft kd -c small/t >/dev/null
}

# kft stats --by and kft latency --by: calls grouped by a saved value,
# the counts against the program's own (progs/files.c: small.txt and
# medium.txt loaded three times, large.txt once, each opened once more
# to be written), and against the other views' account of the calls.
each_args_grouped_by_value() {
	local own=(-A load@arg1/s)
	[ "$TINSTR" = -finstrument-functions ] && own=()
	build files
	kft record "${own[@]}" --libcalls -A open@arg1/s -R read -- ./files >out
	check "the program's own account: seven loads" test "$(grep -c '^load ' out)" = 7
	# values and calls, most time first: large.txt's 32 MiB lead
	kft stats --by open@arg1 >opens
	awk 'NR > 1 { print $1, $2 }' opens | sort >got
	expect got <<'E'
"large.txt" 2
"medium.txt" 4
"small.txt" 4
E
	check "the header names the key" grep -q '^open@arg1  *Calls  *Total (us)  *Min  *Avg  *Max$' opens
	kft stats --by read@retval | awk 'NR > 1 { print $1, $2 }' | sort -n >got
	expect got <<'E'
0 7
100 3
3392 3
65536 521
E
	check "as many reads as kft stats counts" \
		test "$(kft stats read | awk '$1 == "read" { print $2 }')" = 534
	if [ ${#own[@]} != 0 ]; then
		kft stats --by load@arg1 >loads
		awk 'NR > 1 { print $1, $2 }' loads >got
		# most time first, as the table says it: which value took the
		# most depends on the machine's load (a preempted medium.txt can
		# outlast large.txt), the order by the Total column does not
		check "values ordered by their total time, most first" \
			awk 'NR > 2 && $3 > last { bad = 1 } NR > 1 { last = $3 }
			     END { exit bad }' loads
		sort got >sorted
		expect sorted <<'E'
"large.txt" 1
"medium.txt" 3
"small.txt" 3
E
		# the longest call of each value, longest first; then the worst
		# of all as kft latency shows it, the first row's
		kft latency --by load@arg1 -n 3 >lat
		check "latency's table: a row a value" \
			test "$(awk 'NR > 1 && NR <= 4 && NF == 5' lat | wc -l)" = 3
		# (4273.96 us: 4274.0 in the table, rounded, and 4273 in the
		# report, cut)
		check "its first row is the latency reported under it (us, rounded there)" \
			awk 'NR == 2 { worst = $3 } /^latency: / { got = $2 }
			     END { d = worst - got; exit !(d >= 0 && d < 1.1) }' lat
	fi
}

# kft diff --by: each value's calls and time in two traces, the largest
# change first (progs/files.c loads medium.txt five times with an argument)
each_args_diff_by_value() {
	local fn=load
	[ "$TINSTR" = -finstrument-functions ] && fn=open	# (its own: not seen)
	build files
	kft record --libcalls -A "$fn@arg1/s" -o old -- ./files >/dev/null
	kft record --libcalls -A "$fn@arg1/s" -o new -- ./files more >/dev/null
	kft diff --by "$fn@arg1" old new >diff
	check "the header" grep -q "^$fn@arg1  *Calls old  *Time old  *Calls new  *Time new  *Change$" diff
	awk 'NR > 1 { print $1, $2, $4 }' diff | sort >got
	if [ "$fn" = load ]; then
		expect got <<'E'
"large.txt" 1 1
"medium.txt" 3 5
"small.txt" 3 3
E
	else
		expect got <<'E'
"large.txt" 2 2
"medium.txt" 4 6
"small.txt" 4 4
E
	fi
	kft diff --by "$fn@arg1" -n 1 old new >one
	check "-n 1: one row" test "$(wc -l <one)" = 2
	kft record -o bare -- ./files >/dev/null
	refused kft diff --by "$fn@arg1" old bare 2>err
	check "a trace with no values saved is named" grep -q "bare holds no saved arguments" err
}

once_args_grouping_errors() {
	build files
	kft record -- ./files >/dev/null
	refused kft stats --by read@retval 2>err
	check "a trace with none saved" grep -q "holds no saved arguments or return values" err
	kft record --libcalls -R read -- ./files >/dev/null
	refused kft stats --by read 2>err
	check "no slot named" grep -q "'*read'*: not FUNC@argN" err
	refused kft stats --by read@arg1,arg2 2>err
	check "two slots" grep -q "not FUNC@argN" err
	refused kft latency --by nosuch@arg1 2>err
	check "a function the trace does not know" grep -q "nosuch.: no function of the trace matches it" err
	refused kft stats --by read@retval read 2>err
	check "--by and FUNC" grep -q "no FUNC, --set or --hist with it" err
}

# Floating-point arguments and results (the vector registers, which the
# hooks save on their whole path), bool, integers of each size, in the
# order the spec gives: a function's parameters' (progs/types.c).
each_args_floats_and_bools() {
	[ "$TINSTR" = -finstrument-functions ] && return 0	# refused: test_args_and_return_values
	build types
	kft record -A 'mixed@arg1/d32,fparg1,arg2/d32,fparg2/f32,retval/f' \
		-A 'half@fparg1/f32,retval/f32' -A 'flag@arg1/b,arg2/d32,retval/b' \
		-A 'small@arg1/d8,arg2/d16,arg3/u8,arg4/u16,retval/d32' -- ./types >out
	check "the program's own account" grep -q "^mixed = 1.75$" out
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(small|mixed|half|flag)\(" >calls
	expect calls <<'E'
small(-100, -30000, 250, 65000); /* = 35150 */
mixed(3, 2.5, -4, 0.25); /* = 1.75 */
half(3); /* = 1.5 */
flag(true, 3); /* = false */
E
	kft export --chrome trace.json 2>/dev/null
	jq -c '.traceEvents[] | select(.ph == "X" and .name == "mixed") | .args' trace.json >chrome
	expect chrome <<'E'
{"arg1":"3","fparg1":"2.5","arg2":"-4","fparg2":"0.25","retval":"1.75"}
E
}

# kft record -a: every function's arguments and result from the debug
# information (progs/types.c, built -g), checked against what the
# program prints; a struct by value holds its place ({...}) and the
# registers it takes; what cannot be followed (a variadic tail, long
# double) stops the spec there, never a wrong value. The C
# library's common functions from kft's table, under --libcalls.
test_args_from_debug_info() {
	build types
	kft record -a --libcalls -- ./types >out 2>err
	check "the program's own account" grep -q "^wide = 18000000005000000000$" out
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(small|wide|mixed|half|flag|color_name|next_color|by_struct|structs|vsum|scaled|puts|printf)\(" >calls
	if [ "$TINSTR" = -finstrument-functions ]; then
		check "a note says why the program's own are not saved" \
			grep -q "whose hooks do not see the registers" err
		check "none of its own functions' arguments" \
			test "$(grep -c '^[a-z_]*();$' calls)" = 11
		check "the library calls' from the table" \
			grep -q '^printf("small = %d\\n"); /\* = 14 \*/$' calls
		return 0
	fi
	grep -v '^printf' calls >own
	expect own <<'E'
small(-100, -30000, 250, 65000); /* = 35150 */
wide(-5000000000, 18000000000000000000); /* = 18000000005000000000 */
mixed(3, 2.5, -4, 0.25); /* = 1.75 */
half(3); /* = 1.5 */
flag(true, 3); /* = false */
color_name(GREEN); /* = "green" */
next_color(GREEN); /* = BLUE */
by_struct({...}, 3); /* = 6 */
structs(7, {...}, {...}, 9, 1.5); /* = 26 */
vsum(3); /* = 6 */
scaled();
E
	check "a note counts those shown in part" \
		grep -q "^kft: -a: 1 of 11 functions show only some of their arguments" err
	check "printf's format string, from the table" \
		grep -q '^printf("mixed = %g\\n"); /\* = 13 \*/$' calls
}

# An enum by its enumerators' names: /e:TYPE, found in the debug
# information at record time (the trace's enums file); a type it does
# not have shows as numbers, and a note says so.
# Arguments passed on the stack (a 7th integer, a 9th double, a string,
# a struct too big for registers): -a finds their words from the debug
# information, -A names them stack1 to stack8; the values against the
# program's own results. With -pg (mcount, called after the prologue)
# clang's unoptimized code loads a double passed on the stack through
# xmm0 first: such a function's floating-point values are left out.
test_args_passed_on_the_stack() {
	local nine='nine(0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5); /* = 22.5 */' partial=1
	[ "$TINSTR" = -finstrument-functions ] && return 0	# refused: test_args_and_return_values
	[ "$TINSTR" = -pg ] && { nine='nine(); /* = 22.5 */'; partial=2; }
	build stackargs
	kft record -a -- ./stackargs >out 2>err
	check "the program's own account" grep -q "^eight = 8000000014$" out
	check "a note says why some show only some" \
		grep -q "^kft: -a: $partial of 5 functions show only some of their arguments" err
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(eight|nine|mixed_stack|after_big)\(" >calls
	expect calls <<E
eight(1, 2, 3, 4, 5, 6, -7, 8000000000); /* = 8000000014 */
$nine
mixed_stack(1, 2, 3, 4, 5, 6, "kft", 2.5, 250); /* = 380 */
after_big({...}, 1, 2, 3, 4, 5, 6); /* = 328 */
E
	kft record -A 'eight@stack1/x32,stack2' -A 'mixed_stack@stack1/s,stack2/u8' \
		-- ./stackargs >/dev/null
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(eight|mixed_stack)\(" >calls
	expect calls <<'E'
eight(0xfffffff9, 8000000000);
mixed_stack("kft", 250);
E
	if [ "$TINSTR" = -pg ]; then
		refused kft record -A nine@fparg1 -- ./stackargs >/dev/null 2>err
		check "-A refused where xmm0 may hold another value" grep -q \
			"'nine': its floating-point arguments cannot be saved: ./stackargs calls mcount" err
	else
		kft record -A nine@fparg1,fparg8 -- ./stackargs >/dev/null
		check "-A nine's floating-point registers" \
			grep -q "nine(0.5, 4);" <(kft ftrace)
	fi
}

each_args_enums_by_name() {
	[ "$TINSTR" = -finstrument-functions ] && return 0	# refused: test_args_and_return_values
	build types
	kft record -A 'next_color@arg1/e:color,retval/e:color' -A 'color_name@arg1/e:nosuch' \
		-- ./types >/dev/null 2>err
	check "the note on the type it could not find" \
		grep -q "^kft: enum nosuch: not in ./types's debug information" err
	check "the enums file" grep -qx "5 GREEN" kft.data/enums
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(next_color|color_name)\(" >calls
	expect calls <<'E'
color_name(5);
next_color(GREEN); /* = BLUE */
E
	kft export --chrome trace.json 2>/dev/null
	jq -c '.traceEvents[] | select(.ph == "X" and .name == "next_color") | .args' trace.json >chrome
	expect chrome <<'E'
{"arg1":"GREEN","retval":"BLUE"}
E
	# the enums file is kft's: a new trace goes over it, and takes it away
	kft record -- ./types >/dev/null
	check "no enums file left from the trace before" test ! -e kft.data/enums
}

# -a on a program without debug information: a note, and the library
# calls' still.
once_args_without_debug_info() {
	"$TCC" -O2 -pg -mfentry -o nodebug "$PROGS/types.c"
	kft record -a --libcalls -- ./nodebug >/dev/null 2>err
	check "the note" grep -q "has no debug information (DWARF): build it with -g" err
	kft ftrace >graph
	check "printf's all the same" grep -qF 'printf("small = %d\n"); /* = 14 */' graph
}

# Hard cases with arguments: calls that never return (exit at depth,
# pthread_exit), C++'s operator new and delete and a library call inside
# operator new (--libcalls=all), an exception thrown through the C++
# runtime, and a plugin opened by dlopen (the call and its arguments)
# calling into the C library (its result: the program's parent's pid).
each_args_of_calls_that_never_return() {
	local own=(-A 'finish@arg1/d32')
	[ "$TINSTR" = -finstrument-functions ] && own=()
	build noreturn
	refused kft record --libcalls "${own[@]}" -A 'exit@arg1/d32' -A 'pthread_exit@arg1/x' \
		-- ./noreturn 1 2>/dev/null
	check "the program's exit status kept" test "$(sed -n 's/^status = exited //p' kft.data/info)" = 3
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(exit|pthread_exit|finish)\(" >calls
	cat >want <<'E'
finish(1) {
exit(3); /* unfinished */
pthread_exit(0x0); /* unfinished */
E
	# (-finstrument-functions: finish's own argument is not seen)
	[ ${#own[@]} = 0 ] && sed -i 's/^finish(1)/finish()/' want
	check "exit and pthread_exit with their arguments, open" cmp want calls
}

each_args_of_cxx_library_calls() {
	build_cxx newdelete
	# (operator delete: sized, _ZdlPvm, from g++, plain from clang++;
	# the sized one calls the plain one; named as the source names them)
	kft record --libcalls=all -A 'operator new@arg1/u' -R 'operator new@retval/x' \
		-A 'operator delete@arg1/x' -- ./newdelete
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "operator (new|delete)\(|= 0x" | head -3 >calls
	new=$(sed -n 's/^} \/\* operator new = \(0x[0-9a-f]*\) \*\/$/\1/p' calls)
	check "operator new's result" test -n "$new"
	sed "s/$new/PTR/" calls >got
	expect got <<'E'
operator new(4) {
} /* operator new = PTR */
operator delete(PTR);
E
	# the C library's malloc, called by libstdc++'s operator new (the
	# program does not import it: said, not refused)
	kft record --libcalls=all -R '_Znwm@retval/x' -A 'malloc@arg1/u' \
		-R 'malloc@retval/x' -- ./newdelete 2>err
	check "malloc looked for among the libraries' calls" \
		grep -q "^kft: note: kft record: 'malloc': not in ./newdelete nor among the functions it imports: looked for in the calls between its libraries (--libcalls=all)$" err
	kft ftrace | sed -n 's/^[^|]*|  *//p' >graph
	new=$(sed -n 's/^} \/\* operator new = \(0x[0-9a-f]*\) \*\/$/\1/p' graph)
	check "malloc(4) inside operator new, returning its pointer" \
		grep -qx "malloc(4); /\* = $new \*/" graph
	# -a's table serves calls between libraries under --libcalls=all
	kft record -a --libcalls=all -- ./newdelete 2>/dev/null
	kft ftrace | sed -n 's/^[^|]*|  *//p' >graph
	ptr=$(sed -n 's/^malloc(4); \/\* = \(0x[0-9a-f]*\) \*\/$/\1/p' graph)
	check "-a: libstdc++'s malloc with its argument and result" test -n "$ptr"
	check "-a: and the free of that pointer" grep -qx "free($ptr);" graph
}

each_args_of_an_exception_through_the_cxx_runtime() {
	local own=(-A '_Z6middlei@arg1/d32' -R '_Z6middlei@retval/d32')
	[ "$TINSTR" = -finstrument-functions ] && own=()
	build_cxx cxx
	kft record --libcalls "${own[@]}" -A '__cxa_allocate_exception@arg1/u' \
		-R '__cxa_allocate_exception@retval/x' -A '__cxa_throw@arg1/x' -- ./cxx >/dev/null
	kft ftrace | sed -n 's/^[^|]*|  *//p' |
		grep -E "^(__cxa_allocate_exception|__cxa_throw|middle)\(|^} /\* middle" | sed -n 1,6p >calls
	obj=$(sed -n 's/^__cxa_allocate_exception(4); \/\* = \(0x[0-9a-f]*\) \*\/$/\1/p' calls | head -1)
	check "the exception's memory" test -n "$obj"
	sed "s/$obj/OBJ/" calls >got
	cat >want <<'E'
middle(6) {
__cxa_allocate_exception(4); /* = OBJ */
__cxa_throw(OBJ);
} /* middle */
middle(1) {
} /* middle = 2 */
E
	# (-finstrument-functions: middle's own are not seen)
	[ ${#own[@]} = 0 ] && sed -i 's/^middle([0-9])/middle()/; s/ = 2 \*\// *\//' want
	check "thrown through, the middle call left without a result" cmp want got
}

each_args_of_a_dlopened_plugin() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o liblc.so "$PROGS/libcalls-so.c"
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -DPLUGIN -o plugin.so "$PROGS/libcalls-so.c"
	"$TCC" -g "$TOPT" $INSTR -o lcmain "$PROGS/libcalls-main.c" -L. -llc \
		-Wl,-rpath,"$PWD" -ldl
	# (--no-check: getppid is the plugin's call, not the program's)
	kft record --libcalls --no-check -A 'dlopen@arg1/s,arg2/x' -A 'dlsym@arg2/s' -R getppid \
		-R getpid -- ./lcmain "$PWD/plugin.so"
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(dlopen|dlsym|getppid|getpid)\(" |
		sed "s|$PWD|DIR|; s/= [0-9][0-9]* /= N /" >calls
	expect calls <<'E'
getpid(); /* = N */
dlopen("DIR/plugin.so", 0x2);
dlsym("plugin_entry");
getppid(); /* = N */
dlopen("DIR/plugin.so", 0x2);
dlsym("plugin_entry");
getppid(); /* = N */
E
	# (its one thread's file is named by its pid)
	pid=$(ls kft.data | sed -n 's/^thread-1-\([0-9]*\)-0\.kf[tz]$/\1/p' | head -1)
	kft ftrace | sed -n 's/^[^|]*|  *//p' >graph
	check "getpid's result is the program's pid" grep -qx "getpid(); /\* = $pid \*/" graph
}

# -a on many functions: the runtime finds each name by a binary search
# (kft_elf_index_names) and every one of them shows its arguments.
once_args_of_many_functions() {
	{
		echo 'volatile long sink;'
		for i in $(seq 0 59); do
			echo "__attribute__((noinline)) long f$i(int a, const char *s) { sink += a; return a + (s != 0); }"
		done
		echo 'int main(void) { long t = 0;'
		for i in $(seq 0 59); do echo " t += f$i($i, \"s$i\");"; done
		echo ' return t == 1830 ? 0 : 1; }'
	} >many.c
	"$TCC" -O2 -g -pg -mfentry -o many many.c
	kft record -a -- ./many
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -c '^f[0-9]*([0-9]*, "s[0-9]*"); /\* = [0-9]* \*/$' >n
	expect n <<<60
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -q '^f41(41, "s41"); /\* = 42 \*/$'
}

# A program built without instrumentation: -a finds its functions'
# types as for -pg -mfentry (its patched entries see the registers)
each_plain_args_from_debug_info() { INSTR=$(plain_flags) TINSTR=plain test_args_from_debug_info; }

# -A FUNC and -R FUNC without a spec take FUNC's types from the debug
# information, as -a does: its parameters, its result; one it has no
# types for keeps the default, and a note says which
test_bare_args_take_debug_types() {
	[ "$TINSTR" = -finstrument-functions ] && return 0	# (hooks without registers)
	build types
	kft record -A small -A color_name -R next_color -A nosuch_fn --no-check -- ./types >out 2>err
	kft ftrace | sed -n 's/^[^|]*|  *//p' | grep -E "^(small|color_name|next_color)\(" >calls
	expect calls <<'E'
small(-100, -30000, 250, 65000);
color_name(GREEN);
next_color(); /* = BLUE */
E
	check "the default said: $(cat err)" grep -q "^kft: -A nosuch_fn: ./types gives no types for it: arg1,arg2,arg3$" err
}
each_plain_bare_args_take_debug_types() { INSTR=$(plain_flags) TINSTR=plain test_bare_args_take_debug_types; }
