# SPDX-License-Identifier: GPL-2.0-only
# The kft.ko tests, run as root inside the QEMU guest (see run.sh): the
# seeds' command lines on /proc/kft and /proc/kft_data, as written, then
# kft addr2sym and kft kd on what they give. Names, nesting and counts,
# never durations.
. /guest-lib.sh
mkdir -p /run
# rows LOG: the data rows of a KFT log (after the dashes), into LOG.rows
rows() { sed -n '/^--------/,$p' "$1" | sed 1d > "$1.rows"; }
kernel_log_clean() { ! dmesg | grep -E 'WARNING|BUG|Oops|Call Trace|general protection|kft: .*(leak|corrupt)'; }

# kft kernel's steps, through ftrace first (kft.ko not loaded), then
# through kft.ko: the same calls. (No `sh -c` while a run waits for its
# start trigger: busybox's shell calls getppid.)
printf 'begin\n\ttrigger start entry __do_sys_getppid\n\ttrigger stop entry __do_sys_sched_yield\n\tfilter funclist __do_sys_getppid ksys_read vfs_read fend\nend\n' > /tmp/same.conf
listed() { sed -n '/^--------/,$p' "$1" | sed 1d | awk '{ print $4 }' | grep -E '^(__do_sys_getppid|ksys_read|vfs_read)$'; }
kft kernel config /tmp/same.conf && kft kernel prime
kft kernel status > /tmp/st.ftrace
/progs/sysprog
kft kernel stop 2>/dev/null
kft kernel data > /tmp/same.ftrace
check "kft kernel status names ftrace without kft.ko" grep -q "^backend: ftrace" /tmp/st.ftrace

check "insmod kft.ko" insmod /kft.ko
kft kernel config /tmp/same.conf && kft kernel prime
kft kernel status > /tmp/st.module
/progs/sysprog
kft kernel data > /tmp/same.module
check "kft kernel status names kft.ko once loaded" grep -q "^backend: kft.ko" /tmp/st.module
check "kft kernel status: kft.ko's run primed" grep -q "primed, not triggered" /tmp/st.module
listed /tmp/same.ftrace > /tmp/same.ftrace.names
listed /tmp/same.module > /tmp/same.module.names
printf '%s\n' __do_sys_getppid ksys_read vfs_read > /tmp/same.want
check "kft kernel data through ftrace: the calls" diff /tmp/same.want /tmp/same.ftrace.names
check "kft kernel data through kft.ko: the same calls" diff /tmp/same.ftrace.names /tmp/same.module.names

# seed 000: a config in one write, prime, run, stop, read, name, analyse
cat > /tmp/sys.conf <<'CONF'
new
begin
	trigger start entry __do_sys_getppid
	trigger stop entry __do_sys_sched_yield
	filter funclist __do_sys_getppid ksys_read vfs_read __do_sys_sched_yield fend
end
CONF
check "cat config >/proc/kft" sh -c 'cat /tmp/sys.conf > /proc/kft'
check "echo prime >/proc/kft" sh -c 'echo prime > /proc/kft'
# (no sh -c from here to the stop: busybox's shell calls getppid)
check "status: primed, waiting" grep -q "primed, not triggered, not complete" /proc/kft
/progs/sysprog
check "status: complete after the stop trigger" grep -q "primed, triggered, complete" /proc/kft
cat /proc/kft_data > /tmp/sys.log
check "kft_data header" grep -q "^Logging stopped at [0-9]* usec by entry to function 0x" /tmp/sys.log
kft addr2sym /tmp/sys.log -m /proc/kallsyms > /tmp/sys.lst
rows /tmp/sys.lst
awk '{ print $4 }' /tmp/sys.lst.rows > /tmp/names
printf '%s\n' __do_sys_getppid ksys_read vfs_read __do_sys_sched_yield > /tmp/want
check "the calls, in entry order" diff /tmp/want /tmp/names
check "the stop trigger's call is open (-1)" awk '$4 == "__do_sys_sched_yield" { found = 1; bad = $2 != -1 } END { exit !found || bad }' /tmp/sys.lst.rows
kft kd -c /tmp/sys.lst > /tmp/sys.tree 2>&1
check "kft kd -c nests vfs_read under ksys_read" sh -c "grep -A1 'ksys_read' /tmp/sys.tree | grep -q '^ *[0-9].* vfs_read\|vfs_read'"
cat /tmp/sys.tree | sed 's/^/#   /'
kft kd /tmp/sys.lst > /tmp/sys.kd 2>&1
check "kft kd counts each call once" sh -c "awk '\$1 == \"vfs_read\" { print \$2 }' /tmp/sys.kd | grep -qx 1"

# KFT's SAVE_ARGS, asked by the args statement: ksys_read's rows end in
# the stack pointer and its three argument registers (sysprog reads 256
# bytes: its third, the count, is 0x100); the columns in the header
cat > /tmp/args.conf <<'CONF'
new
begin
	trigger start entry __do_sys_getppid
	trigger stop entry __do_sys_sched_yield
	filter funclist __do_sys_getppid ksys_read vfs_read __do_sys_sched_yield fend
	args ksys_read fend
end
CONF
check "a config with an args statement" sh -c 'cat /tmp/args.conf > /proc/kft && echo prime > /proc/kft'
/progs/sysprog
cat /proc/kft_data > /tmp/args.log
check "SAVE_ARGS's columns in the header" grep -q "Caller *Frame ptr *Arg 1 *Arg 2 *Arg 3$" /tmp/args.log
kft addr2sym /tmp/args.log -m /proc/kallsyms > /tmp/args.lst
rows /tmp/args.lst
check "ksys_read's row: the frame pointer and three registers, the count 0x100" \
	awk '$4 == "ksys_read" { ok = NF == 9 && $9 == "0000000000000100" } END { exit !ok }' /tmp/args.lst.rows
check "vfs_read's row: nothing saved" awk '$4 == "vfs_read" { ok = NF == 5 } END { exit !ok }' /tmp/args.lst.rows
kft kd -c -d 0 -m 4 /tmp/args.lst > /tmp/args.tree 2>&1
check "kft kd -c shows them after the name" grep -q "ksys_read .*0000000000000100" /tmp/args.tree
grep -E "ksys_read|vfs_read" /tmp/args.lst.rows | sed 's/^/#   /'
check "a glob is refused by the module" sh -c '! printf "begin\n\targs ksys_* fend\nend\n" > /proc/kft'
check "the kernel log says why" sh -c 'dmesg | grep -q "the kernel module takes function names, not globs"'

# seed 000's do_fork config (do_fork is kernel_clone today), through
# sym2addr: addresses, a time stop trigger, mintime, noints
printf 'new\nbegin\n\ttrigger start entry kernel_clone\n\ttrigger stop time 1000000\n\tfilter mintime 500\n\tfilter maxtime 0\n\tfilter noints\nend\n' > /tmp/fork.sym
kft sym2addr /tmp/fork.sym /proc/kallsyms > /tmp/fork.addr 2>/dev/null
check "sym2addr gives the address" grep -q "trigger start entry 0x" /tmp/fork.addr
check "the do_fork config by address" sh -c 'cat /tmp/fork.addr > /proc/kft && echo prime > /proc/kft'
sh -c 'sleep 2' &
wait
check "complete by the time trigger" grep -q "primed, triggered, complete" /proc/kft
cat /proc/kft_data > /tmp/fork.log
kft addr2sym /tmp/fork.log -m /proc/kallsyms > /tmp/fork.lst
check "started by kernel_clone's entry" grep -q "^Logging started at [0-9]* usec by entry to function kernel_clone$" /tmp/fork.lst
check "stopped by the time trigger" grep -q "^Logging stopped at [0-9]* usec by time at 1000000 usec from start trigger" /tmp/fork.lst
rows /tmp/fork.lst
check "no interrupt context rows (noints)" sh -c "! awk '\$3 ~ /^-1/' /tmp/fork.lst.rows | grep -q ."
check "the fork's child slept: its nanosleep is kept" grep -q ' do_nanosleep ' /tmp/fork.lst.rows
check "kft kd reads it" sh -c "kft kd /tmp/fork.lst | grep -q do_nanosleep"

# trace everything, keep the calls of 1 ms or more (seed: mintime 500)
printf 'new\nbegin\n\tfilter mintime 1000\n\tlogentries 5000\nend\n' > /proc/kft
check "start by hand" sh -c 'echo start > /proc/kft'
sleep 1
check "stop by hand" sh -c 'echo stop > /proc/kft'
cat /proc/kft_data > /tmp/all.log
kft addr2sym /tmp/all.log -m /proc/kallsyms > /tmp/all.lst
rows /tmp/all.lst
check "a sleep's nanosleep is kept" grep -q ' do_nanosleep ' /tmp/all.lst.rows
check "only calls of 1 ms or more, or open" awk '$2 != -1 && $2 < 1000 { bad = 1 } END { exit bad }' /tmp/all.lst.rows
check "the time filter counted" sh -c "grep -q '^Execution time filter count = [1-9]' /tmp/all.lst"
head -5 /tmp/all.lst.rows | sed 's/^/#   /'

# filter cpus: only what CPU 1 runs (the guest has two), the rest counted
# (the log may fill first: then the run stopped itself)
printf 'new\nbegin\n\tfilter cpus 1\n\tlogentries 100000\nend\n' > /proc/kft
check "cpus: start by hand" sh -c 'echo start > /proc/kft'
taskset -c 0 sh -c 'i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done'
taskset -c 1 sh -c 'i=0; while [ $i -lt 200 ]; do i=$((i + 1)); done'
echo stop > /proc/kft 2>/dev/null
check "cpus: the run complete" grep -q "primed, triggered, complete" /proc/kft
check "cpus: the config kept" grep -q "filter cpus 1" /proc/kft
cat /proc/kft_data > /tmp/cpus.log
check "cpus: calls on the other CPU counted" grep -q '^CPU mask filter count = [1-9]' /tmp/cpus.log
check "cpus: and CPU 1's logged" awk '$1 ~ /^[0-9]+$/ { n++ } END { exit !n }' /tmp/cpus.log

# bad input: refused, the kernel log says why, the run before stays
check "a bad word is refused" sh -c '! printf "begin\n\tfilter mintim 5\nend\n" > /proc/kft'
check "the kernel log names line and word" sh -c "dmesg | grep -q \"kft: /proc/kft:2: 'mintim'\""
check "an unknown function is refused" sh -c '! printf "begin\n\ttrigger start entry no_such_fn\nend\n" > /proc/kft'
check "an unknown command is refused" sh -c '! echo primer > /proc/kft'
printf 'begin\n\t# the scheduler itself is notrace\n\ttrigger start entry __schedule\nend\n' > /tmp/bad.conf
kft kernel config /tmp/bad.conf 2> /tmp/bad.err
check "kft kernel config relays kft.ko's reason, with the file's line" grep -q "/proc/kft:3: '__schedule': " /tmp/bad.err
printf 'begin\n\tfilter funclist __x64_sys_getppid fend\nend\n' > /tmp/alias.conf
check "a function by its other name (sys_getppid's entry has two)" sh -c 'cat /tmp/alias.conf > /proc/kft'
kft kernel config /tmp/bad.conf 2>/dev/null
sed 's/^/#   /' /tmp/bad.err
check "the earlier run is kept" grep -q "filter funclist __x64_sys_getppid fend" /proc/kft

# stress: a fork storm on both CPUs (tasks taking shadow stacks, dying,
# freeing them) under an autorepeat run whose log fills, configs replaced
# under it and the log read meanwhile; then rmmod in the middle of it all
storm() { for i in $(seq 1 150); do /bin/true; done; }
printf 'new\nbegin\n\tlogentries 2000\n\tautorepeat\n\ttrigger start entry kernel_clone\n\ttrigger stop exit kernel_clone\nend\n' > /tmp/storm.conf
cat /tmp/storm.conf > /proc/kft && echo prime > /proc/kft
storm & storm &
for i in 1 2 3; do
	cat /proc/kft_data > /dev/null
	printf 'new\nbegin\n\tfilter mintime 10\nend\n' > /proc/kft && echo start > /proc/kft
	usleep 300000
	cat /tmp/storm.conf > /proc/kft && echo prime > /proc/kft
	usleep 300000
done
wait
check "after a fork storm the run answers" grep -q "^status: run id" /proc/kft
check "its log reads" grep -q "^Number of entries after filters" /proc/kft_data
storm & storm &
usleep 200000
check "rmmod during a fork storm" rmmod kft
wait
insmod /kft.ko
printf 'new\nbegin\nend\n' > /proc/kft && echo start > /proc/kft
storm &
usleep 300000
check "rmmod while every function is traced" rmmod kft
wait
insmod /kft.ko

# unload while calls are open: a sleeping task gets its return back
printf 'new\nbegin\n\tfilter funclist do_nanosleep hrtimer_nanosleep fend\nend\n' > /proc/kft
echo start > /proc/kft
sleep 3 &
sleeper=$!
sleep 1
check "open calls read as -1" sh -c "cat /proc/kft_data | grep -c ' -1 ' | grep -qv '^0$'"
check "rmmod with calls open" rmmod kft
wait $sleeper
check "the sleeper returned" test $? -eq 0
check "no oops or warning in the kernel log" kernel_log_clean
dmesg | grep -i kft | sed 's/^/#   /'
check "loaded again: no run" sh -c 'insmod /kft.ko && grep -qx "No logging run registered" /proc/kft && rmmod kft'
exit $failed
