# SPDX-License-Identifier: GPL-2.0-only
# The kernel tests, run as root inside the QEMU guest (see boot.sh).
# Prints "ok - NAME" or "not ok - NAME" per check; exits with the
# number of failures. Assert names, nesting and counts, never durations:
# emulation stretches them.
. /guest-lib.sh
# calls DIR FUNC: how many calls of FUNC the trace holds (kd's count column)
calls() { kft kd -f Fc "$1" 2>/dev/null | awk -v f="$2" '$1 == f { print $2; found = 1 } END { if (!found) print 0 }'; }
snapshot() {
	for f in current_tracer tracing_on tracing_thresh buffer_size_kb trace_clock \
		set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_graph_function set_graph_notrace max_graph_depth \
		tracing_cpumask \
		kprobe_events options/overwrite options/funcgraph-irqs options/record-tgid \
		options/function-fork stack_max_size stack_trace_filter \
		events/irq/irq_handler_entry/enable events/irq/irq_handler_exit/enable \
		events/irq/softirq_entry/enable events/irq/softirq_exit/enable \
		events/irq_vectors/local_timer_entry/enable events/sched/sched_switch/enable \
		events/sched/sched_wakeup/enable; do
		echo "$f: $(cat $T/$f | tr '\n' ' ')"
	done
	echo "stack_tracer: $(cat /proc/sys/kernel/stack_tracer_enabled)"
	ls /run/kft/journal 2>/dev/null
}
same_as_before() { snapshot > /tmp/now; diff /tmp/before /tmp/now; }
# wait_armed PID: until kft says it traces (the journal is there then)
wait_armed() {
	for i in $(seq 1 60); do
		grep -q "tracing the kernel" /tmp/kerr && return 0
		kill -0 $1 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}


mkdir -p /run
# the virtio disk's drivers (run.sh staged them), for a device's interrupts
for m in $(ls /modules/*.ko 2>/dev/null | sort -n); do insmod "$m" || echo "#   insmod $m failed"; done
# a setting someone else left: kft must give it back as it was
echo 20 > $T/buffer_size_kb
snapshot > /tmp/before

cat > /tmp/io.conf <<'CONF'
begin
  filter funclist __x64_sys_openat do_sys_openat2 ksys_read __x64_sys_newuname fend
end
CONF
check "record --kernel with an instrumented program" \
	kft record --kernel -c /tmp/io.conf -o /tmp/t1 -- /progs/sysprog
check "settings restored after record" same_as_before
# the args statement through ftrace: kprobe events, each value joined to
# its call; a string read from the program's stack, the bytes read
# checked against the file's length
cat > /tmp/args.conf <<'CONF'
begin
  filter funclist do_sys_openat2 ksys_read fend
  args do_sys_openat2@arg2/s,arg1/d32,retval/d32 ksys_read@arg3/u64,retval/d64 fend
end
CONF
len=$(wc -c < /proc/version)
check "args: record --kernel with an args statement" \
	kft record --kernel -c /tmp/args.conf -o /tmp/targs -- /progs/sysprog
check "args: settings restored, the kprobe events gone" same_as_before
kft ftrace /tmp/targs > /tmp/args.graph 2>/tmp/args.err
check "args: nothing to warn about" test ! -s /tmp/args.err
check "args: ftrace shows the path and its flags, and the descriptor" \
	grep -q 'do_sys_openat2("/proc/version", -100); /\* = [0-9][0-9]* \*/' /tmp/args.graph
check "args: ftrace shows the count asked and the bytes read" \
	grep -q "ksys_read(256); /\\* = $len \\*/" /tmp/args.graph
check "args: under the program's read_file" awk '
	/read_file\(\) \{/ { inside = 1 }
	inside && /ksys_read\(256\)/ { found = 1 }
	END { exit !found }' /tmp/args.graph
kft kd -c /tmp/targs > /tmp/args.tree 2>&1
check "args: kd -c agrees" sh -c "grep -q 'do_sys_openat2 .*(\"/proc/version\", -100) = [0-9]' /tmp/args.tree &&
	grep -q 'ksys_read .*(256) = $len\$' /tmp/args.tree"
kft log /tmp/targs > /tmp/args.log 2>/tmp/args.log.err
check "args: log warns of nothing" test ! -s /tmp/args.log.err
check "args: log has KFT's columns, ksys_read's third word 256" sh -c \
	'grep -q "Frame ptr *Arg 1 *Arg 2 *Arg 3" /tmp/args.log &&
	 grep -q "ksys_read .* 0000000000000100\$" /tmp/args.log'
kft export --chrome /tmp/args.json /tmp/targs > /dev/null 2>&1
check "args: the Chrome export carries them" \
	grep -q '"arg2":"\\"/proc/version\\"","arg1":"-100","retval":"[0-9]' /tmp/args.json
[ -n "${KFT_SHOW_GRAPH:-}" ] && grep -E "ksys_read|do_sys_openat2" /tmp/args.graph | sed 's/^/#   /'
# README's example: the same from the command line
check "args: record --kernel -F/-A/-R name kernel functions too" sh -c "
	kft record --kernel -F do_sys_openat2 -F ksys_read \\
		-A do_sys_openat2@arg2/s,arg1/d32 -R do_sys_openat2@retval/d32 \\
		-A ksys_read@arg3/u64 -R ksys_read@retval/d64 -o /tmp/targs2 -- /progs/sysprog &&
	kft ftrace /tmp/targs2 > /tmp/args3.graph &&
	grep -q 'do_sys_openat2(\"/proc/version\", -100); /\\* = [0-9]' /tmp/args3.graph &&
	grep -q 'ksys_read(256); /\\* = $len \\*/' /tmp/args3.graph"
# the whole kernel traced (the probes' own handlers traced too, but left
# out), step by step; one byte a read, as the shell reads a line
printf 'begin\n\targs ksys_read@arg3/u64,retval/d64 fend\nend\n' > /tmp/args2.conf
kft kernel config /tmp/args2.conf && kft kernel prime && read line < /proc/version
kft kernel stop 2>/dev/null
kft ftrace /run/kft/kft.data > /tmp/args2.graph 2>&1
check "args: kft kernel: ksys_read(1) returned 1" grep -q "ksys_read(1) {" /tmp/args2.graph
check "args: kft kernel: its return value at its end" grep -q "} /\* ksys_read = 1 \*/" /tmp/args2.graph
check "args: kft kernel: the probes' handlers are not calls" sh -c \
	'! grep -q -E "kprobe_ftrace_handler|kretprobe_rethook_handler" /tmp/args2.graph'
check "args: kft kernel: settings restored" same_as_before
# what kprobes cannot give is refused, naming it, with nothing changed
printf 'begin\n\targs ksys_* fend\nend\n' > /tmp/args3.conf
check "args: a glob refused" sh -c \
	'! kft kernel config /tmp/args3.conf 2>/tmp/args.err && grep -q "not a glob" /tmp/args.err'
printf 'begin\n\targs ksys_read@fparg1 fend\nend\n' > /tmp/args3.conf
check "args: a floating-point argument refused" sh -c \
	'! kft kernel config /tmp/args3.conf 2>/tmp/args.err && grep -q "no floating-point" /tmp/args.err'
check "settings as they were after the refusals" same_as_before
check "kernel calls of the program: do_sys_openat2" test "$(calls /tmp/t1 do_sys_openat2)" -ge 1
check "kernel calls of the program: newuname twice" test "$(calls /tmp/t1 __x64_sys_newuname)" -eq 2
kft ftrace /tmp/t1 > /tmp/graph
# the kernel calls nest under the user function that made them
check "nesting: openat under read_file" awk '
	/read_file\(\) \{/ { inside = 1 }
	inside && /__x64_sys_openat\(\) \{/ { openat = 1 }
	openat && /do_sys_openat2\(\);/ { found = 1 }
	END { exit !found }' /tmp/graph
check "nesting: newuname under ask_name" awk '
	/ask_name\(\) \{/ { inside = 1 }
	inside && /__x64_sys_newuname\(\);/ { found = 1 }
	END { exit !found }' /tmp/graph
[ -n "${KFT_SHOW_GRAPH:-}" ] && sed 's/^/#   /' /tmp/graph | head -60
check "kft log reads the kernel trace" sh -c 'kft log /tmp/t1 | grep -q do_sys_openat2'
# the summary's one-pass path and the tree agree: kernel time is not read_file's own
kft kd -f Fl /tmp/t1 | grep "^read_file " > /tmp/local1
kft kd -f Flm /tmp/t1 | grep "^read_file " | awk '{ print $1, $2 }' > /tmp/local2
check "kd: Local without the kernel calls, on both paths" sh -c \
	'test -s /tmp/local1 && diff -w /tmp/local1 /tmp/local2'
# the trees, each thread's kernel calls joined to its own (every layout)
for opts in "-c" "-c -l" "-c -r -l" "-c -i -l" "--slowest 2 read_file" \
	    "--slowest 1 do_sys_openat2"; do
	kft kd $opts /tmp/t1 > /tmp/tree1
	check "kd $opts: the kernel's calls in the trees" grep -q do_sys_openat2 /tmp/tree1
done
# a thread that exec'd: each image's kernel calls in its own trees
kft record --kernel -c /tmp/io.conf -o /tmp/tx -- /progs/sysprog exec > /dev/null 2>&1
for opts in "-c" "-c -l" "-c -r -l"; do
	kft kd $opts /tmp/tx > /tmp/treex
	check "exec, kd $opts: openat under read_file in both images" awk '
		{ d = gsub(/\|/, "|"); name = $NF }
		name == "read_file" { rd = d; inside = 1; next }
		inside && d <= rd { inside = 0 }
		inside && name == "__x64_sys_openat" && d == rd + 1 { found++; inside = 0 }
		END { exit found != 2 }' /tmp/treex
done

# the exports: a slice or event a call, kernel calls on the program's thread
kft export --perfetto /tmp/t1.pb /tmp/t1 2>/tmp/wrote
check "export --perfetto: a slice a call" awk '
	/^kft: wrote \/tmp\/t1.pb: [0-9]+ slices of [0-9]+ calls/ && $4 == $7 && $4 > 0 { ok = 1 }
	END { exit !ok }' /tmp/wrote
kft export --chrome /tmp/t1.json /tmp/t1 2>/dev/null
check "export --chrome: the kernel's calls on the thread of read_file" sh -c '
	tid=$(grep -o "\"name\":\"read_file\",\"cat\":\"user\",\"pid\":[0-9]*,\"tid\":[0-9]*" /tmp/t1.json |
	      head -1 | sed "s/.*tid\":\([0-9]*\)/\1/")
	test -n "$tid" &&
	grep -q "\"name\":\"do_sys_openat2\",\"cat\":\"kernel\",\"pid\":[0-9]*,\"tid\":$tid," /tmp/t1.json'
kft diff /tmp/t1 /tmp/t1 > /tmp/diff
check "kft diff: a kernel trace against itself, no change" awk '
	$1 ~ /^[0-9]+$/ { rows++; if ($3 != "+0" || $6 != "+0.0") bad = 1 }
	END { exit bad || !rows }' /tmp/diff
check "kft diff: the kernel's functions in it" grep -q " do_sys_openat2$" /tmp/diff

# context switches from sched_switch: the seed's lines, and time on the CPU
check "switches: recorded from sched_switch" test -s /tmp/t1/switches
kft ftrace -t function --switches /tmp/t1 > /tmp/swlines 2>&1
check "switches: the sched_switch tracer's lines, pid:prio:state ==> pid:prio:state" \
	grep -qE ' [0-9]+:[0-9]+:[RSD] ==> [0-9]+:[0-9]+:R$' /tmp/swlines
check "switches: back in, the task that left first" \
	grep -qE '^ *[^ ]+-([0-9]+) .* [0-9]+:[0-9]+:[RSD] ==> \1:[0-9]+:R$' /tmp/swlines
check "switches: wakeups, waker + woken" \
	grep -qE '^ *[^ ]+-([0-9]+) .* [0-9]+:([0-9]+|\?):R \+ \1:[0-9]+:[RSD]$' /tmp/swlines
grep -E '==>| \+ ' /tmp/swlines | head -4 | sed 's/^/#   /'
kft kd -f Fto /tmp/t1 > /tmp/oncpu
check "switches: kd's On-CPU for the kernel's calls" awk '
	$1 == "do_sys_openat2" && $3 ~ /^[0-9]+$/ && $3 <= $2 { ok = 1 } END { exit !ok }' /tmp/oncpu
kft latency --wakeup /tmp/t1 > /tmp/wakeup 2>&1
check "wakeup latency: the worst, in the latency_trace layout" sh -c '
	grep -q "^# tracer: wakeup$" /tmp/wakeup && grep -qE "^latency: [0-9]+ us, #[0-9]+/[0-9]+, CPU#[0-9]+ " /tmp/wakeup &&
	grep -q "^=> started at: woken by " /tmp/wakeup && grep -q "^=> ended at: switched in" /tmp/wakeup'
head -6 /tmp/wakeup | sed 's/^/#   /'
check "wakeup latency: that CPU's calls only (or where not known)" awk '
	/^latency: / { split($0, a, "CPU#"); cpu = (a[2] + 0) % 10; split($4, n, /[#\/]/); shown = n[2] + 0 }
	/^ *[^ #]+-[0-9]+ +[0-9.]\.\.[h.]\. / { c = substr($2, 1, 1); if (c != "." && c != cpu) bad = 1; rows++ }
	END { exit bad || rows != shown }' /tmp/wakeup
kft ftrace -t function /tmp/t1 > /tmp/fnk 2>&1
check "function layout: the kernel's calls, each on its CPU" \
	grep -qE '^ *[^ ]+-[0-9]+ +\[[0-9]{2,}\] +[0-9]+\.[0-9]{6}: do_sys_openat2 <-' /tmp/fnk
kft record --kernel --no-switches -o /tmp/tn -- /progs/sysprog > /dev/null 2>&1
check "switches: none with --no-switches" test ! -e /tmp/tn/switches

# a set with a glob in a kernel funclist: set_ftrace_filter takes it
cat > /tmp/set.conf <<'CONF'
begin
  set io do_sys_open* ksys_read
  filter funclist @io fend
end
CONF
kft record --kernel -c /tmp/set.conf -o /tmp/tset -- /progs/sysprog > /dev/null 2>&1
check "set: a glob in the kernel's funclist" test "$(calls /tmp/tset do_sys_openat2)" -ge 1
check "set: kft stats --set io" sh -c 'kft stats --set io /tmp/tset | grep -q "^do_sys_openat2 "'
cat > /tmp/noset.conf <<'CONF'
begin
  set io no_such_function_*
  filter funclist @io fend
end
CONF
kft record --kernel -c /tmp/noset.conf -o /tmp/tns -- /progs/sysprog > /dev/null 2>/tmp/err
check "set: a glob that matches nothing is named" \
	grep -q "noset.conf:3: 'no_such_function_\*': no function this kernel can trace matches it" /tmp/err

# ftrace's selections from kft record's options: a graph function and a
# depth below it, a notrace glob; every setting put back after (cat is
# not instrumented: the kernel's calls alone, none under a program call)
kft record --kernel -G do_sys_openat2 -D 2 -N 'getname*' -o /tmp/tg -- cat /proc/version \
	> /dev/null 2>/tmp/err
check "graph: do_sys_openat2 in" test "$(calls /tmp/tg do_sys_openat2)" -ge 1
check "graph: nothing outside it (ksys_read)" test "$(calls /tmp/tg ksys_read)" = 0
# (a call whose parent's entry the ring buffer overwrote is a root of its
# own: the log's header says so then, and the roots are not checked; a
# failure prints the roots that are not do_sys_openat2)
kft log /tmp/tg | sed '/^--------/q' > /tmp/tg.head
if grep -q "^Entries overwritten" /tmp/tg.head; then
	echo "#   graph: roots not checked: $(grep '^Entries overwritten' /tmp/tg.head)"
else
	# (an interrupt's chain is a root of its own, its pid marked 'i':
	# one that came inside do_sys_openat2 is traced, and is no failure)
	kft kd -c -f p /tmp/tg | sed 1,2d > /tmp/tg.tree
	check "graph: do_sys_openat2 the only root" sh -c \
		'! awk '"'"'$1 !~ /i$/ && $2 != "|" { print $2 }'"'"' /tmp/tg.tree | grep -vx do_sys_openat2'
fi
kft kd -c /tmp/tg | sed 1,2d > /tmp/gtree
check "graph: -D 2 keeps its callees" grep -q "^|  [a-z_]" /tmp/gtree
check "graph: -D 2, nothing deeper" sh -c '! grep -q "^|  |  " /tmp/gtree || { grep -B3 -A3 "^|  |  " /tmp/gtree | head -20; false; }'
check "notrace: no getname call" test "$(kft kd -f F /tmp/tg | grep -c "^getname")" = 0
check "selections: settings restored" same_as_before

# --cpus: tracing_cpumask while it records, put back after
kft record --kernel --cpus 0 -o /tmp/tc -- sh -c "cat $T/tracing_cpumask > /tmp/mask; /progs/sysprog" \
	> /dev/null 2>&1
check "cpus: tracing_cpumask 1 while recording" test "$(cat /tmp/mask)" = 1
check "cpus: the calls on CPU 0 recorded" test "$(calls /tmp/tc do_sys_openat2)" -ge 1
check "cpus: settings restored" same_as_before

# interrupts and softirqs (--irqs): KPTrace's table from kft stats; the
# disk write makes the virtio disk interrupt (a scratch disk; written and
# flushed, which no page cache can answer, as it may a read). Only the
# outermost kernel calls are logged (-D 1): every function of a 4 MiB
# write overflows the 20 KiB buffer set above, and the disk's interrupts
# were among the events lost (kft said how many: a test's slip, not kft's)
if [ -b /dev/vda ]; then disk="dd if=/dev/zero of=/dev/vda bs=64k count=64 conv=fsync"; else disk=true; fi
kft record --kernel --irqs -D 1 -o /tmp/ti -- sh -c "/progs/sysprog; $disk" > /dev/null 2>/tmp/ierr
check "irqs: the events put back after" same_as_before
kft stats /tmp/ti 'irq[0-9:]*' 'softirq:*' > /tmp/irqstats 2>&1
check "irqs: kft stats has an interrupt table, the timer's in it" awk '
	NR > 2 && NF == 14 && $1 == "irq:local_timer" && $2 > 0 { t = 1 }
	NR > 2 && NF == 14 && $1 ~ /^softirq:/ && $2 > 0 { s = 1 } END { exit !(t && s) }' /tmp/irqstats
awk 'NR <= 2 || NF == 14' /tmp/irqstats | head -8 | sed 's/^/#   /'
if [ -b /dev/vda ] && grep -q "events lost" /tmp/ierr; then
	# (the reader fell behind after all: what was lost is unknown)
	echo "#   $(grep -o '[0-9]* events lost' /tmp/ierr): no device row checked"
elif [ -b /dev/vda ]; then
	check "irqs: the virtio disk's interrupt has its row (irqN:virtio0-req.0)" awk '
		NR > 2 && NF == 14 && $1 ~ /^irq[0-9]+:virtio[0-9]+-req/ && $2 > 0 { d = 1 }
		END { exit !d }' /tmp/irqstats
else
	echo "#   no virtio disk in this guest (its drivers were not staged): no device row checked"
fi
check "irqs: their pseudo-tasks" sh -c 'kft ftrace -t function /tmp/ti | grep -q "softirq:\|irq[0-9]"'
check "irqs: a plain kernel trace has none" sh -c '! kft kd -f F /tmp/t1 | grep -q "^softirq:"'

# the kickstart workflow: system calls as triggers
cat > /tmp/bad.conf <<'CONF'
begin
  trigger start entry __x64_sys_getppid
end
CONF
kft record --kernel -c /tmp/bad.conf -o /tmp/tbad -- /progs/sysprog 2>/tmp/err
check "an untraceable trigger is an error naming its neighbour" \
	grep -q "bad.conf:2: '__x64_sys_getppid': this kernel cannot trace.*__do_sys_getppid" /tmp/err
check "nothing touched after the error" same_as_before

for how in entry exit; do
	cat > /tmp/trig.conf <<CONF
begin
  trigger start $how __do_sys_getppid
  trigger stop entry __do_sys_sched_yield
  filter funclist do_sys_openat2 __x64_sys_newuname fend
end
CONF
	check "triggers ($how): record" kft record --kernel -c /tmp/trig.conf -o /tmp/t2 -- /progs/sysprog
	check "triggers ($how): the open between them" test "$(calls /tmp/t2 do_sys_openat2)" -ge 1
	check "triggers ($how): no uname before or after" test "$(calls /tmp/t2 __x64_sys_newuname)" -eq 0
	check "triggers ($how): status names the trigger" sh -c \
		"kft status /tmp/t2 | grep -q 'started .* by $how .*function __do_sys_getppid'"
	check "triggers ($how): settings restored" same_as_before
done

# KFT's old names: do_fork is kernel_clone today
printf 'begin\n  trigger start entry do_fork\nend\n' > /tmp/fork.conf
kft record --kernel -c /tmp/fork.conf -o /tmp/tf -- /bin/true 2>/tmp/err
check "do_fork: the error names kernel_clone" grep -q "kernel_clone" /tmp/err
printf 'begin\n  filter funclist kernel_clone fend\nend\n' > /tmp/fork.conf
check "do_fork-style single function trace" kft record --kernel -c /tmp/fork.conf -o /tmp/tf -- sh -c '/progs/sysprog; /progs/sysprog; /progs/sysprog'
check "kernel_clone counted" test "$(calls /tmp/tf kernel_clone)" -ge 2

# mintime is tracing_thresh: nothing here lasts a second
printf 'begin\n  filter mintime 1000000\n  filter funclist do_sys_openat2 fend\nend\n' > /tmp/min.conf
check "mintime: record" kft record --kernel -c /tmp/min.conf -o /tmp/tm -- /progs/sysprog
check "mintime: short calls dropped" test "$(calls /tmp/tm do_sys_openat2)" -eq 0

# system-wide until the stop trigger
# (a trigger fires for every task: sync is called by this script alone)
printf 'begin\n  trigger stop entry ksys_sync\n  filter funclist __x64_sys_newuname fend\nend\n' > /tmp/sw.conf
kft record --kernel -c /tmp/sw.conf -o /tmp/tsw 2>/tmp/kerr &
kpid=$!
wait_armed $kpid
uname >/dev/null; uname >/dev/null
/progs/sysprog
sync
for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 $kpid 2>/dev/null || break; sleep 1; done
if kill -0 $kpid 2>/dev/null; then not_ok "system-wide: ends at the stop trigger"; kill -INT $kpid; else ok "system-wide: ends at the stop trigger"; fi
wait $kpid
check "system-wide: the uname calls of every task" test "$(calls /tmp/tsw __x64_sys_newuname)" -ge 3
check "system-wide: settings restored" same_as_before

# Ctrl-C (SIGINT) and SIGTERM end a system-wide trace cleanly
for sig in INT TERM; do
	kft record --kernel -c /tmp/io.conf -o /tmp/tsig 2>/tmp/kerr &
	kpid=$!
	wait_armed $kpid
	kill -$sig $kpid
	wait $kpid
	check "SIG$sig: settings restored" same_as_before
	check "SIG$sig: the trace is readable" kft kd /tmp/tsig
done

# a kft killed outright leaves a journal; the next one restores it first
kft record --kernel -c /tmp/io.conf -o /tmp/tkill 2>/tmp/kerr &
kpid=$!
wait_armed $kpid
kill -KILL $kpid
wait $kpid 2>/dev/null
check "SIGKILL: the journal is left" test -e /run/kft/journal
kft record --kernel -c /tmp/io.conf -o /tmp/tnext -- /bin/true 2>/tmp/err
check "SIGKILL: the next kft says it restores" grep -q "left behind" /tmp/err
check "SIGKILL: settings restored" same_as_before
kft record --kernel -c /tmp/io.conf -o /tmp/tkill 2>/tmp/kerr &
kpid=$!
wait_armed $kpid
kill -KILL $kpid
wait $kpid 2>/dev/null
# the dead kft's pid now belongs to another program: still a leftover
sleep 100 &
spid=$!
sed -i "1s/.*/kft-journal $spid/" /run/kft/journal
kft record --kernel -c /tmp/io.conf -o /tmp/tnext -- /bin/true 2>/tmp/err
check "pid reused: the next kft restores" grep -q "left behind" /tmp/err
check "pid reused: settings restored" same_as_before
kill $spid
kft record --kernel -c /tmp/io.conf -o /tmp/tkill 2>/tmp/kerr &
kpid=$!
wait_armed $kpid
kill -KILL $kpid
wait $kpid 2>/dev/null
check "kft kernel reset: restores what a killed kft left" kft kernel reset
check "kft kernel reset: settings restored" same_as_before

# /proc/kft the old way, step by step
check "kft kernel config" kft kernel config /tmp/io.conf
check "kft kernel prime" kft kernel prime
check "kft kernel status: primed" sh -c 'kft kernel status | grep -q "primed, tracing on"'
/progs/sysprog
check "kft kernel stop" kft kernel stop
check "kft kernel data: the log" sh -c 'kft kernel data | grep -q do_sys_openat2'
check "kft kernel status: complete" sh -c 'kft kernel status | grep -q "complete"'
check "kft kernel: settings restored" same_as_before
printf 'begin\n  trigger start entry __do_sys_getppid\n  filter funclist do_sys_openat2 __x64_sys_newuname fend\nend\n' > /tmp/pr.conf
kft kernel config /tmp/pr.conf && kft kernel prime
kft kernel status > /tmp/st
check "kft kernel prime: waits for the start trigger" grep -q "tracing off" /tmp/st
/progs/sysprog
kft kernel stop 2>/dev/null
check "kft kernel prime: started by the trigger" test "$(calls /run/kft/kft.data do_sys_openat2)" -ge 1
check "kft kernel prime: nothing before it" test "$(calls /run/kft/kft.data __x64_sys_newuname)" -eq 1

# autorepeat: the triggers re-arm, each run of the program is logged
printf 'begin\n  trigger start entry __do_sys_getppid\n  trigger stop entry __do_sys_sched_yield\n  filter funclist __x64_sys_newuname do_sys_openat2 fend\n  autorepeat\nend\n' > /tmp/ar.conf
# (system-wide: a new sh would call getppid itself, and fire the trigger)
kft record --kernel -c /tmp/ar.conf -o /tmp/tar 2>/tmp/kerr &
kpid=$!
wait_armed $kpid
/progs/sysprog
/progs/sysprog
kill -INT $kpid
wait $kpid
check "autorepeat: both runs between their triggers" test "$(calls /tmp/tar do_sys_openat2)" -eq 2
check "autorepeat: never outside them" test "$(calls /tmp/tar __x64_sys_newuname)" -eq 0
check "autorepeat: settings restored" same_as_before

# a start time, step by step: kft kernel keeps a helper awake for it
printf 'begin\n  trigger start time 3000000\n  filter funclist __x64_sys_newuname fend\nend\n' > /tmp/tt.conf
kft kernel config /tmp/tt.conf && kft kernel prime
check "start time: off at first" sh -c 'kft kernel status | grep -q "tracing off"'
sleep 5
check "start time: on after it" sh -c 'kft kernel status | grep -q "tracing on"'
uname >/dev/null
kft kernel stop 2>/dev/null
check "start time: the call after it" test "$(calls /run/kft/kft.data __x64_sys_newuname)" -ge 1
check "start time: settings restored" same_as_before

# filters applied when reading, and the log size
printf 'begin\n  filter onlyints\n  filter funclist __x64_sys_newuname fend\nend\n' > /tmp/oi.conf
check "onlyints: record" kft record --kernel -c /tmp/oi.conf -o /tmp/toi -- /progs/sysprog
check "onlyints: system calls are not interrupts" test "$(calls /tmp/toi __x64_sys_newuname)" -eq 0
printf 'begin\n  logentries 3\n  filter funclist __x64_sys_openat do_sys_openat2 fend\nend\n' > /tmp/le.conf
check "logentries: record" kft record --kernel -c /tmp/le.conf -o /tmp/tle -- /progs/sysprog
check "logentries: 3 calls kept" test "$(kft log /tmp/tle | grep -c "openat")" -eq 3

# a stop time ends a system-wide trace by itself
printf 'begin\n  trigger stop time 1000000\n  filter funclist __x64_sys_newuname fend\nend\n' > /tmp/st.conf
check "stop time: a system-wide trace ends by itself" timeout 60 kft record --kernel -c /tmp/st.conf -o /tmp/tst
check "stop time: settings restored" same_as_before

# tracefs not mounted: kft mounts it, and unmounts it after
umount $T
check "tracefs unmounted: record" kft record --kernel -c /tmp/io.conf -o /tmp/tum -- /progs/sysprog
check "tracefs unmounted: the trace" test "$(calls /tmp/tum do_sys_openat2)" -ge 1
check "tracefs unmounted: left unmounted" sh -c '! grep -q " tracefs " /proc/mounts'
mount -t tracefs nodev $T
check "tracefs unmounted: settings restored" same_as_before

# not root: a clear message, nothing touched
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> /etc/passwd
su -s /bin/sh nobody -c "/kft/bin/kft record --kernel -o /tmp/nobody -- /bin/true" 2>/tmp/err
check "not root: says so" grep -q "needs root" /tmp/err
check "not root: settings untouched" same_as_before

# watch stack: the stack tracer's deepest stack
printf 'begin\n  watch stack 64\n  filter funclist __x64_sys_newuname do_sys_openat2 fend\nend\n' > /tmp/w.conf
check "watch: record" kft record --kernel -c /tmp/w.conf -o /tmp/tw -- /progs/sysprog
check "watch: the deepest kernel stack" sh -c \
	'kft status /tmp/tw | grep "deepest stack" | grep -qv "deepest stack 0 bytes"'
check "watch: settings restored" same_as_before

# the kickstart seed, one to one: kallsyms as the System.map, sym2addr,
# config, prime, run the program, status says complete, data, kd -c.
# sys_open is do_sys_openat2 today; no funclist: every kernel function
cat /proc/kallsyms > /tmp/system.map
printf 'new\nbegin\n\ttrigger start entry do_sys_openat2\n\ttrigger stop exit do_sys_openat2\nend\n' > /tmp/config.sym
check "kickstart: sym2addr" sh -c 'kft sym2addr /tmp/config.sym /tmp/system.map > /tmp/config.addr'
check "kickstart: the config holds addresses" grep -q "entry 0xffffffff" /tmp/config.addr
check "kickstart: config" kft kernel config /tmp/config.addr
check "kickstart: prime" kft kernel prime
/progs/sysprog
check "kickstart: status says complete" sh -c 'kft kernel status | grep -q complete'
check "kickstart: data" sh -c 'kft kernel data > /tmp/kft.log'
# The program's first logged call is do_sys_openat2, but for the kprobe's
# own handler, which ftrace also sees, and an interrupt that came between
# the trigger and the call (on a slow host, a timer's may last a
# millisecond): every row of that thread before it is the handler's or
# the interrupt's, or began inside one of them. Other CPUs' calls made
# after the trigger fired are in the log too, and may come before it.
opener=$(awk '/^--------/ { body = 1; next } body && $4 == "do_sys_openat2" { print $3; exit }' /tmp/kft.log)
check "kickstart: the log starts at do_sys_openat2" sh -c \
	"awk -v pid='$opener' 'BEGIN { inside = -1 } /^--------/ { body = 1; next }
		!body || (\$3 != pid && \$3 != pid \"i\") { next }
		\$3 == pid && \$4 == \"do_sys_openat2\" { found = 1; exit }
		\$3 == pid \"i\" || \$4 ~ /kprobe|irq/ {
			if (\$1 + \$2 > inside) inside = \$1 + \$2
			next
		}
		\$1 + 0 > inside { print \"before do_sys_openat2: \" \$0; exit }
		END { exit !found }' /tmp/kft.log ||
	 { sed -n '/^--------/,\$p' /tmp/kft.log | head -16; false; }"
check "kickstart: functions called under it" sh -c \
	'test "$(grep -c . /tmp/kft.log)" -gt 20'
check "kickstart: kd -c nests them" sh -c \
	'kft kd -c /run/kft/kft.data | grep -A2 "^do_sys_openat2" | grep -q "^|  [a-z_]"'
check "kickstart: settings restored" same_as_before

# a kernel without function_graph: entries only
KFT_KERNEL_TRACER=function kft record --kernel -c /tmp/io.conf -o /tmp/tfn -- /progs/sysprog 2>/dev/null
kft log /tmp/tfn > /tmp/fnlog
check "function tracer: entries recorded" grep -q "do_sys_openat2" /tmp/fnlog
check "function tracer: no durations (-1)" sh -c '! grep do_sys_openat2 /tmp/fnlog | grep -v -q -- " -1 "'
check "function tracer: settings restored" same_as_before

exit $failed
