#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run each libFuzzer target built in BUILD/fuzz/ from the committed corpus
# (tests/fuzz/corpus/NAME/), one line of result each.
#
#   tests/fuzz/run.sh BUILD SECONDS   fuzz each target that long; what it
#                                     finds stays in BUILD/fuzz-corpus/NAME/
#   tests/fuzz/run.sh BUILD check     the seeds once each, then a few
#                                     thousand mutations (same every run)
#
# A crash leaves its input in BUILD/fuzz-crashes/ and its report in
# BUILD/fuzz-NAME.log; run the target on that input to see it again.
set -u
build=$1
mode=${2:-60}
root=$(cd "$(dirname "$0")/../.." && pwd)
crashes=$build/fuzz-crashes
status=0
mkdir -p "$crashes"
for target in "$build"/fuzz/fuzz-*; do
	[ -x "$target" ] || continue
	name=${target##*/fuzz-}
	log=$build/fuzz-$name.log
	if [ "$mode" = check ]; then
		found=$(mktemp -d)
		args=(-runs=3000 -seed=1)
	else
		found=$build/fuzz-corpus/$name
		mkdir -p "$found"
		args=(-max_total_time="$mode")
	fi
	"$target" "${args[@]}" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
		-artifact_prefix="$crashes/$name-" "$found" "$root/tests/fuzz/corpus/$name" \
		>"$log" 2>&1
	rc=$?
	execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
	if [ $rc -eq 0 ]; then
		echo "fuzz $name: ${execs:-0} executions, no crash"
	else
		echo "fuzz $name: CRASH after ${execs:-?} executions (input in $crashes, report in $log)"
		grep -m1 -E "ERROR|runtime error" "$log"
		status=1
	fi
	[ "$mode" = check ] && rm -rf "$found"
done
exit $status
