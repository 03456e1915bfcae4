#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kft.ko against ftrace's function_graph with tracing_thresh, in the QEMU
# guest of the kernel tests (Debian's kernel, software emulation), on the
# same workload: every traceable function, the calls of 1 ms or more kept.
#
#   bench/kernel-module.sh [--runs N] [--count N]
#
# The workload is dd copying COUNT single bytes (two system calls each).
# Each run times it untraced, under function_graph (tracing_thresh 1000)
# and under kft.ko (filter mintime 1000), in turn; the cost per call is the
# added time over the calls kft.ko timed (its status's "calls timed"),
# median of N runs. Emulation makes every figure slower than on hardware:
# read the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 count=20000
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	*) sed -n '6,15p' "$0" >&2; exit 2 ;;
	esac
done
kernel=$(tests/kernel/fetch-kernel.sh)
stage=$(mktemp -d /tmp/kft-bench-stage.XXXXXX)
trap 'rm -rf "$stage"' EXIT
tests/kernel/build-module.sh "$kernel" "$stage"
cat > "$stage/guest.sh" <<GUEST
T=/sys/kernel/tracing
now() { awk '/^now at/ { print \$3; exit }' /proc/timer_list; }
work() { dd if=/dev/zero of=/dev/null bs=1 count=$count 2>/dev/null; }
timed() { a=\$(now); work; b=\$(now); echo \$((b - a)); }
insmod /kft.ko
for i in \$(seq 1 $runs); do
	base=\$(timed)
	echo 1000 > \$T/tracing_thresh
	echo function_graph > \$T/current_tracer
	graph=\$(timed)
	echo nop > \$T/current_tracer
	echo 0 > \$T/tracing_thresh
	printf 'begin\n\tfilter mintime 1000\nend\n' > /proc/kft
	echo start > /proc/kft
	kft=\$(timed)
	echo stop > /proc/kft
	calls=\$(awk '/calls timed/ { print \$3 }' /proc/kft)
	echo; echo "RUN \$base \$graph \$kft \$calls"
done
rmmod kft
GUEST
tests/kernel/boot.sh -t 1800 "$stage" | tr -d '\r' | awk '
/^RUN / {
	n++; base[n] = $2; graph[n] = $3; kft[n] = $4; calls[n] = $5
	printf "run %d: untraced %.1f ms, function_graph %.1f ms, kft.ko %.1f ms, %d calls timed\n", n, $2 / 1e6, $3 / 1e6, $4 / 1e6, $5
}
function median(a, n,   i, j, t, s) {
	for (i = 1; i <= n; i++) s[i] = a[i]
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
	return s[int((n + 1) / 2)]
}
END {
	if (!n) { print "no runs: the guest did not finish"; exit 1 }
	for (i = 1; i <= n; i++) { g[i] = (graph[i] - base[i]) / calls[i]; k[i] = (kft[i] - base[i]) / calls[i] }
	mg = median(g, n); mk = median(k, n)
	printf "per traced call (median of %d): function_graph+tracing_thresh %.0f ns, kft.ko %.0f ns, kft.ko/function_graph %.2f\n", n, mg, mk, mk / mg
}'
