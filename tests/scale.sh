#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-scale: a trace of more than a billion calls (fib 43: 1.4
# billion), recorded, then read by the views, each within 64 MiB of peak
# memory; how long each takes, and how soon `kft kd -c` prints its first
# row. Not part of `make check`: some 20 minutes on 2 cores, 2.5 GB of
# trace and up to 17 GB of temporary files (the entry-order index, in
# $TMPDIR). KFT_SCALE_FIB=N traces fib N instead.
#   tests/scale.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
kft=$PWD/${1:-build}/bin/kft
n=${KFT_SCALE_FIB:-43}
limit_kib=65536
work=$(mktemp -d "${TMPDIR:-/tmp}/kft-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0

gcc -O2 -finstrument-functions -o "$work/fib" bench/fib.c
# fib(n) makes 2 fib(n+1) - 1 calls of fib
want=$(awk -v n="$n" 'BEGIN { a = 0; b = 1; for (i = 0; i < n + 1; i++) { t = a + b; a = b; b = t }
			     printf "%.0f", 2 * a - 1 }')
t0=$(date +%s%N)
"$kft" record -o "$work/t" -- "$work/fib" "$n" >/dev/null
echo "fib $n: recorded in $(( ($(date +%s%N) - t0) / 1000000 )) ms," \
     "$(du -sh "$work/t" | cut -f1) on disk"

echo "| view | s | peak MiB |"
echo "|---|---|---|"
for view in "kd" "kd -c" "log" "ftrace" "stats" "flame -o /dev/null"; do
	out=/dev/null	# (kd -c writes some 20 bytes a call: 30 GB here)
	[ "$view" = kd ] && out=$work/out
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # (the view's words, split)
	/usr/bin/time -f %M -o "$work/rss" "$kft" $view "$work/t" >"$out" 2>"$work/err" ||
		{ echo "FAIL: kft $view: $(tail -3 "$work/err")"; failed=1; continue; }
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	kib=$(tail -1 "$work/rss")
	echo "| kft $view | $(( ms / 1000 )).$(( ms % 1000 / 100 )) | $(( kib / 1024 )) |"
	if [ "$kib" -ge "$limit_kib" ]; then
		echo "FAIL: kft $view: $kib KiB, over $limit_kib"
		failed=1
	fi
	if [ "$view" = kd ]; then
		got=$(awk '$1 == "fib" { print $2 }' "$work/out")
		[ "$got" = "$want" ] || { echo "FAIL: kft kd counts $got calls of fib, not $want"; failed=1; }
	fi
done
t0=$(date +%s%N)
"$kft" kd -c "$work/t" 2>/dev/null | head -1 >/dev/null || true
echo "kft kd -c: first row after $(( ($(date +%s%N) - t0) / 1000000 )) ms"
[ $failed = 0 ] && echo "scale: every view within $((limit_kib / 1024)) MiB, every call counted"
exit $failed
