# SPDX-License-Identifier: GPL-2.0-only
# ftrace's selections for a program: kft record -F/-N/-G/-D and the
# config statements they stand for, globs, and kft functions.

# The options give the trees the statements give (views.sh checks those
# against every view), and add to a config's own lists.
test_select_options_as_statements() {
	build nest
	for pair in "-N b|filter notrace b fend" "-F [a-c] -N b|filter funclist [a-c] fend
filter notrace b fend" "-G x -D 2|filter graph x fend
filter depth 2" "-D 2|filter depth 2"; do
		opts=${pair%%|*}
		printf 'begin\n%s\nend\n' "${pair#*|}" >cfg.conf
		kft record $opts -o by-opts -- ./nest >/dev/null
		kft record -c cfg.conf -o by-config -- ./nest >/dev/null
		kft kd -c by-opts >opts.tree
		kft kd -c by-config >config.tree
		check "$opts: as the config" diff config.tree opts.tree
		check "$opts: something recorded" test -s opts.tree
	done
	# a config's funclist and -F's patterns add up; -N wins over both
	printf 'begin\nfilter funclist a fend\nend\n' >a.conf
	kft record -c a.conf -F c -F 'b*' -N b -o t -- ./nest >/dev/null
	kft kd -c t | sed 1,2d >tree
	expect tree <<'E'
a
c
E
	kft status t | grep "filter [fng]" >statements
	expect statements <<'E'
  filter funclist a c b* fend
  filter notrace b fend
E
}

once_select_errors() {
	build nest
	refused kft record -F 'zz*' -o t -- ./nest 2>err
	check "a glob matching nothing" grep -q "^kft: kft record: 'zz\*': no function matches it in ./nest nor in the libraries it loads (one it opens with dlopen: use --no-check)" err
	refused kft record -G nothere -o t -- ./nest 2>err
	check "a graph function not there" grep -q "'nothere': no function of that name in ./nest" err
	refused kft record -D 0 -o t -- ./nest 2>err
	check "depth 0" grep -q "^kft: record: -D: '0': a depth of at least 1" err
	printf 'begin\ntrigger start entry ma*\nend\n' >trig.conf
	refused kft record -c trig.conf -o t -- ./nest 2>err
	check "a trigger glob" grep -q "^kft: trig.conf:2: 'ma\*': a trigger names one function, not a glob" err
	printf 'begin\nfilter notrace b fend\nfilter notrace c fend\nend\n' >twice.conf
	refused kft record -c twice.conf -o t -- ./nest 2>err
	check "notrace twice" grep -q "twice.conf:3: 'notrace': that list is already set" err
	kft record --no-check -G zz -o t -- ./nest >/dev/null 2>err
	check "a graph function that never ran: said" \
		grep -q "^kft: graph: zz: never ran while the run was on" err
	check "and nothing recorded" test -z "$(kft kd -c t | sed 1,2d)"
}

# with --libcalls a selection may name the library functions the program
# calls; without, the check says what to add
test_select_library_calls() {
	build libcalls
	refused kft record -F malloc -o t -- ./libcalls 2>err
	check "a library function without --libcalls" grep -q \
		"^kft: kft record: 'malloc': ./libcalls calls it in a shared library: add --libcalls to trace those calls$" err
	refused kft record --libcalls --kernel 2>err
	check "not with --kernel" grep -q "^kft: record: --libcalls goes with a program, not --kernel$" err
	kft record --libcalls -F malloc -F 'f*' -F work -o t -- ./libcalls >/dev/null
	kft kd -c t | sed 1,2d >tree
	expect tree <<'E'
work
|  malloc
|  free
E
	kft record --libcalls -N qsort -N 'get*' -o t -- ./libcalls >/dev/null
	kft kd -c t | sed 1,2d | grep -v '^[a-z_]' | grep -A9 '^|  work' >tree || true
	expect tree <<'E'
|  work
|  |  malloc
|  |  strlen
|  |  cmp
|  |  free
|  |  write
E
	# the config's word for --libcalls, and --no-libcalls over it
	printf 'begin\n  libcalls\nend\n' >lc.conf
	kft record -c lc.conf -F malloc -F work -o t -- ./libcalls >/dev/null
	kft kd -c t | sed 1,2d >tree
	expect tree <<'E'
work
|  malloc
E
	kft record -c lc.conf --no-libcalls -F work -o t -- ./libcalls >/dev/null
	kft kd -c t | sed 1,2d >tree
	expect tree <<<"work"
	refused kft record -c lc.conf --kernel 2>err
	check "the config's libcalls not with --kernel" grep -q \
		"^kft: record: lc.conf: libcalls goes with a program, not --kernel$" err
	refused kft config t lc.conf 2>err
	check "nor in a new run" grep -q \
		"^kft: config: lc.conf: libcalls is for kft record: a new run cannot change it$" err
	printf 'begin\n  trigger start entry strlen\n  trigger stop exit free\nend\n' >s.conf
	kft record --libcalls -c s.conf -o t -- ./libcalls >/dev/null
	kft kd -c t | sed 1,2d >tree
	expect tree <<'E'
strlen
qsort
|  cmp
free
E
}

# tracing_cpumask: --cpus and "filter cpus" log only the calls entered on
# those CPUs. progs/cpus.c, started on CPU 0, moves to 1 and back: main,
# pin(0), work(0), pin(1) on 0; work(1), pin(0) on 1; work(0) on 0.
test_select_cpus() {
	test "$(nproc)" -ge 2 || { echo "one CPU: nothing to choose between"; return 77; }
	build cpus
	taskset -c 0 "$KFT" record --cpus 1 -o one -- ./cpus >/dev/null
	printf 'begin\nfilter cpus 0x1\nend\n' >zero.conf
	taskset -c 0 "$KFT" record -c zero.conf -o zero -- ./cpus >/dev/null
	for t in one:01 zero:00; do
		cpu=${t#*:} t=${t%:*}
		kft log $t | awk '$1 ~ /^[0-9]+$/ && NF >= 5 { print $4 }' >$t.log
		kft ftrace -t function $t | awk '/ <-/ { print $(NF - 1) }' >$t.fn
		check "$t: ftrace's calls are the log's" cmp $t.log $t.fn
		kft kd -c $t | awk 'NR > 2 { print $NF }' | sort >$t.kd
		check "$t: kd -c's calls are the log's" cmp $t.kd <(sort $t.log)
		# where the switches say where each ran: all on the CPU asked
		[ ! -s $t/switches ] || check "$t: every call on CPU $cpu" test "$(kft ftrace \
			-t function $t | awk '/ <-/ { print $2 }' | sort -u)" = "[$cpu]"
	done
	expect one.log <<'E'
work
pin
E
	expect zero.log <<'E'
main
pin
work
pin
work
E
	# every call either logged or counted: 7 in all
	check "the filtered calls counted" kft log one | grep -q "^CPU mask filter count = 5$"
	check "... and said" kft log one | grep -q "no functions entered on CPUs other than 1$"
	check "zero: 2 filtered" kft log zero | grep -q "^CPU mask filter count = 2$"
	check "status says the filter" kft status one | grep -q "^  filter cpus 1$"
	refused kft record --cpus 1024 -o t -- ./cpus 2>err
	check "a CPU past the list's reach" grep -q "'1024': CPU numbers go up to 1023" err
	refused kft record --cpus 1023 -o t -- ./cpus 2>err
	check "a CPU this machine has not" grep -q "filter cpus 1023: no such CPU here" err
	refused kft record --cpus 0x0 -o t -- ./cpus 2>err
	check "no CPU at all" grep -q "'0x0': names no CPU: every call would be dropped" err
}

once_functions_lists_what_filters_name() {
	build nest
	kft functions ./nest >all
	for f in main a b c d x y h on_usr1; do
		check "$f listed" grep -qx "$f" all
	done
	check "sorted" sort -c all
	kft functions ./nest '[ab]' 'on_*' >some
	expect some <<'E'
a
b
on_usr1
E
	refused kft functions ./nest 'zz*' 2>err
	check "no match" grep -q "^kft: functions: no function of ./nest matches" err
	build waiting
	./waiting & pid=$!
	kft functions "$pid" 't*' >by-pid || true
	kft functions "$pid" printf >printf || true
	touch done
	wait "$pid"
	grep -v ' \[' by-pid >own
	expect own <<'E'
tick
E
	# the libraries it has loaded, as available_filter_functions shows modules
	check "a library's functions, named with it" grep -qE '^t[a-z_0-9]* \[libc\.so\.6\]$' by-pid
	expect printf <<'E'
printf [libc.so.6]
E
	refused kft functions /nonexistent/prog 2>err
	check "no program" grep -q "program not found" err
}

# -F names a function of a library the program loads (not one it calls
# itself): found there, not refused; an instrumented library's calls of
# it are the trace, a library built without instrumentation is said
test_filter_names_a_library_function() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o libsame.so "$PROGS/same/a.c" "$PROGS/same/b.c"
	"$TCC" -g "$TOPT" -fPIE -pie $INSTR -o libs "$PROGS/libs.c" -L. -lsame -Wl,-rpath,"$PWD" -ldl
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o plugin.so "$PROGS/plugin.c"
	kft record -F create_dir -- ./libs "$PWD/plugin.so" 2>err
	# (two static functions of that name, one each in a.c and b.c)
	kft kd -f Fc | sed 's/ \[.*\]//' | awk 'NR > 2 { c[$1] += $2 } END { for (f in c) print f, c[f] }' >counts
	expect counts <<'E'
create_dir 3
E
	"$TCC" -g "$TOPT" -fPIC -shared -o libsame.so "$PROGS/same/a.c" "$PROGS/same/b.c"
	kft record -F create_dir -o t2 -- ./libs "$PWD/plugin.so" 2>err
	check "said where it is: $(cat err)" grep -q "^kft: note: kft record: 'create_dir': in $PWD/libsame.so, built without instrumentation: its calls are traced with --lib libsame.so" err
}
