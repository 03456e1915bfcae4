# SPDX-License-Identifier: GPL-2.0-only
# The boot trace, inside the QEMU guest booted with the command line
# `kft kernel bootargs boot.conf` printed (run.sh). Names and nesting,
# never durations.
. /guest-lib.sh

echo "#   command line: $(cat /proc/cmdline)"
check "boot: ftrace ran function_graph from boot" grep -q "^function_graph" $T/current_tracer
kft kernel data --from-boot -c /boot.conf -o /tmp/b > /tmp/bout 2>&1
check "boot: kft kernel data --from-boot read it" grep -q "calls from .* tasks traced since boot" /tmp/bout
sed 's/^/#   /' /tmp/bout | head -3
check "boot: tracing is off after" grep -q "^0" $T/tracing_on
kft kd -c /tmp/b > /tmp/tree 2>&1
# (the graph function's calls are the roots; a callee whose own caller
# the kernel does not trace may stand alone: 2 of 309 were seen)
grep -E '^[a-z_]' /tmp/tree > /tmp/roots
check "boot: the roots are initcalls, 10 at least, and nearly all" awk '
	$1 == "do_one_initcall" { n++ } END { exit !(n >= 10 && n * 10 >= NR * 9) }' /tmp/roots
check "boot: the initcalls under them, one level down" sh -c \
	'grep -q "^|  [a-z_0-9.]*$" /tmp/tree && ! grep -q "^|  |" /tmp/tree'
sort /tmp/roots | uniq -c | sort -rn | head -3 | sed "s/^/#   /"
grep -B1 -m3 '^|  [a-z_0-9.]*$' /tmp/tree | sed 's/^/#   /'
kft kd -n 5 /tmp/b > /tmp/sum 2>&1
check "boot: kd's slowest, do_one_initcall among them" grep -q "^do_one_initcall " /tmp/sum
sed 's/^/#   /' /tmp/sum
kft log /tmp/b > /tmp/log 2>&1
check "boot: the log's entries count from power-on" awk '
	/^--------/ { rows = 1; next } rows && $4 == "do_one_initcall" { n++ } END { exit !(n >= 10) }' /tmp/log
kft ftrace /tmp/b > /tmp/graph 2>&1
check "boot: ftrace's graph opens do_one_initcall" grep -q "do_one_initcall() {" /tmp/graph
kft kernel bootargs /boot.conf > /tmp/args 2>/tmp/notes
check "boot: bootargs names what the command line cannot say" grep -q "^trigger stop exit: " /tmp/notes
printf 'begin\n\targs do_one_initcall fend\nend\n' > /tmp/args.conf
kft kernel bootargs /tmp/args.conf > /tmp/args 2>/tmp/notes
check "boot: bootargs says the args statement cannot be done at boot" grep -q "^args: not at boot" /tmp/notes
exit $failed
