#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every test of kft: builds with gcc and clang (warnings are errors), the
# unit tests (cmocka), the end-to-end tests of tests/e2e/ run against
# tools built with AddressSanitizer and UndefinedBehaviorSanitizer,
# libFuzzer targets over their committed corpus (tests/fuzz/), every call
# of a real program counted exactly (tests/fidelity/), and the kernel
# tests of tests/kernel/ in QEMU.
# Ends with the line "N passed, N failed"; exits non-zero on any failure.
#
#   tests/run.sh [PATTERN]   only e2e tests whose name contains PATTERN
#                            (PATTERN "kernel": only the kernel tests;
#                            "fidelity": only tests/fidelity/)
set -u
cd "$(dirname "$0")/.."
root=$PWD
only=${1:-}
passed=0
failed=0
skipped=0
failures=()

scripts/install-deps.sh || { echo "could not install dependencies"; exit 1; }

pass() { passed=$((passed + 1)); }
# the wall time of each part, said at the end
parts=() part_start=$SECONDS
part_done() { parts+=("$1 $((SECONDS - part_start)) s"); part_start=$SECONDS; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL: $1"; }

# --- builds -------------------------------------------------------------
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
build() {	# name, make arguments...
	local name=$1; shift
	if make -s -j"$(nproc)" "$@" all unit >"$root/build-$name.log" 2>&1; then
		pass
	else
		fail "build $name (see build-$name.log)"
		tail -20 "$root/build-$name.log"
	fi
}
build gcc     O=build CC=gcc
build clang   O=build-clang CC=clang
build gcc-san O=build-gcc-san CC=gcc SANITIZE="$SAN"
build clang-san O=build-clang-san CC=clang SANITIZE="$SAN"
part_done builds
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# --- unit tests (cmocka, TAP output) -----------------------------------
if [ -z "$only" ]; then
	for O in build build-clang build-gcc-san build-clang-san; do
		for t in "$O"/tests/test-*; do
			[ -x "$t" ] || continue
			out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
			rc=$?
			while read -r line; do
				case $line in
				"ok "*) pass ;;
				# (a test that cannot run here: the TSC not the clock)
				"not ok "*"# SKIP"*) skipped=$((skipped + 1)) ;;
				"not ok "*) fail "$t: ${line#not ok }" ;;
				esac
			done <<<"$out"
			if [ $rc -ne 0 ] && ! grep -q "^not ok" <<<"$out"; then
				fail "$t exited $rc"
				echo "$out" | tail -20
			fi
		done
	done
fi

part_done "unit tests"

# --- the floors of docs/design.md: no include from a floor above -----------
if [ -z "$only" ]; then
	if floors=$(tests/floors.sh 2>&1); then
		pass
	else
		fail "include floors (tests/floors.sh)"
		echo "$floors"
	fi
	# the hooks' path calls no C library routine that changes vector
	# registers, outside the places that keep them
	for b in build build-clang; do
		if calls=$(tests/hook-calls.sh "$b" 2>&1); then
			pass
		else
			fail "C library calls on the hooks' path ($b, tests/hook-calls.sh)"
			echo "$calls"
		fi
	done
fi

# --- fuzzing: the committed corpus and a short pass (tests/fuzz/) -----------
if [ -z "$only" ]; then
	if make -s -j"$(nproc)" O=build-fuzz CC=clang \
		SANITIZE="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		fuzz-targets >"$root/build-fuzz.log" 2>&1; then
		pass
		while read -r line; do
			echo "$line"
			case $line in
			"fuzz "*": "*" executions, no crash") pass ;;
			"fuzz "*) fail "$line" ;;
			esac
		done < <(tests/fuzz/run.sh build-fuzz check 2>&1)
	else
		fail "build fuzz targets (see build-fuzz.log)"
		tail -20 "$root/build-fuzz.log"
	fi
fi

part_done "floors and fuzzing"

# --- end-to-end tests ---------------------------------------------------
# Each tests/e2e/*.sh defines functions: test_* run once per variant
# (gcc and clang, -O0 and -O2, each instrumentation: -finstrument-functions,
# -pg, -pg -mfentry, -fpatchable-function-entry=5), each_* once per
# instrumentation (each_variants: every compiler and level twice), once_*
# once. Each runs in a fresh directory, in a subshell; it fails by
# returning non-zero, and returns 77 when it cannot run here (it says why;
# counted as skipped, never as passed).
# KFT_TEST_JOBS of them run at once (default: the CPUs); what they print
# comes out in the order of the list, whatever order they end in.
variants=()
for instr in -finstrument-functions -pg "-pg -mfentry" -fpatchable-function-entry=5; do
	for cc in gcc clang; do
		for opt in -O0 -O2; do
			variants+=("$cc $opt $instr")
		done
	done
done
each_variants=("gcc -O2 -finstrument-functions" "clang -O0 -pg" "clang -O2 -pg -mfentry"
	       "gcc -O0 -fpatchable-function-entry=5")
jobs_list=()	# "file|fn|variant"
once_list=()
for file in tests/e2e/*.sh; do
	[ "$(basename "$file")" = lib.sh ] && continue
	fns=$(bash -c "source tests/e2e/lib.sh; source $file; declare -F" |
	      awk '$3 ~ /^(test|each|once)_/ { print $3 }')
	for fn in $fns; do
		name="$(basename "$file" .sh)/$fn"
		[ -n "$only" ] && [[ $name != *"$only"* ]] && continue
		if [[ $fn == once_* ]]; then
			once_list+=("$file|$fn|gcc -O0 -finstrument-functions")
			continue
		fi
		if [[ $fn == each_* ]]; then
			for v in "${each_variants[@]}"; do
				jobs_list+=("$file|$fn|$v")
			done
			continue
		fi
		for v in "${variants[@]}"; do
			jobs_list+=("$file|$fn|$v")
		done
	done
done
# the once_ runs first: the longest are among them, and a long run that
# starts last makes the whole wait for it
jobs_list=("${once_list[@]}" "${jobs_list[@]}")
results=$(mktemp -d /tmp/kft-e2e-results.XXXXXX)
# the programs the tests build, shared by the run's tests (lib.sh: cached)
KFT_BUILD_CACHE=$(mktemp -d /tmp/kft-e2e-builds.XXXXXX)
export KFT_BUILD_CACHE
# e2e_job I: run jobs_list[I] into $results/I.{rc,log,work,secs}
e2e_job() {
	local idx=$1 file fn v vcc vopt work kdir t0 rc
	IFS='|' read -r file fn v <<<"${jobs_list[$idx]}"
	set -- $v
	vcc=$1 vopt=$2
	shift 2
	work=$(mktemp -d /tmp/kft-e2e.XXXXXX)
	# kft built by the variant's compiler; under the sanitizers in four
	# -O0 variants, each instrumentation once and each compiler twice
	# (every test_, each_ and once_ function runs in one or more of them),
	# plain in the others: the sanitizers' start and exit scan double a
	# test's time, and the tool's code paths barely differ by variant.
	# Leaks are looked for once a function: in its gcc -O0
	# -fpatchable-function-entry=5 variant (test_ and each_) or its one
	# run (once_). LeakSanitizer's scan at exit (45 to 90 ms here) is most
	# of a sanitized command's cost, and the other variants run the same
	# code of the tool
	local asan=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
	case "$v" in
	"gcc -O0 -fpatchable-function-entry=5")
		kdir=build-gcc-san asan=$ASAN_OPTIONS ;;
	"gcc -O0 -finstrument-functions")
		kdir=build-gcc-san
		[[ $fn == once_* ]] && asan=$ASAN_OPTIONS ;;
	"clang -O0 -pg" | "clang -O0 -pg -mfentry")
		kdir=build-clang-san ;;
	gcc*) kdir=build ;;
	*) kdir=build-clang ;;
	esac
	t0=$(date +%s%N)
	( cd "$work" && ASAN_OPTIONS=$asan ROOT=$root KFT_BUILD=$root/$kdir TCC=$vcc TOPT=$vopt TINSTR="$*" \
		bash -c "set -e -o pipefail; source '$root/tests/e2e/lib.sh'; \
		source '$root/$file'; $fn" ) </dev/null >"$results/$idx.log" 2>&1
	rc=$?
	echo $(( ($(date +%s%N) - t0) / 1000000 )) >"$results/$idx.ms"
	echo "$work" >"$results/$idx.work"
	echo $rc >"$results/$idx.rc"
}
# (job control on: a job run in the background keeps SIGINT, which a
# test sends its program, as one in the foreground does)
set -m
njobs=${KFT_TEST_JOBS:-$(nproc)}
running=0
for i in "${!jobs_list[@]}"; do
	if [ $running -ge "$njobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	e2e_job "$i" &
	running=$((running + 1))
done
wait
set +m
for i in "${!jobs_list[@]}"; do
	IFS='|' read -r file fn v <<<"${jobs_list[$i]}"
	name="$(basename "$file" .sh)/$fn"
	rc=$(cat "$results/$i.rc" 2>/dev/null || echo 1)
	work=$(cat "$results/$i.work" 2>/dev/null)
	if [ "$rc" -eq 0 ]; then
		pass
		rm -rf "$work"
	elif [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		echo "SKIP: $name: $(tail -1 "$results/$i.log")"
		rm -rf "$work"
	else
		fail "$name [$v]"
		tail -40 "$results/$i.log" | sed 's/^/    /'
		echo "    (work directory kept: $work)"
	fi
	echo "$(cat "$results/$i.ms" 2>/dev/null || echo 0) $name [$v]" >>"$results/times"
done
if [ -s "$results/times" ]; then
	echo "the ten slowest end-to-end tests (ms, $njobs at a time):"
	sort -rn "$results/times" | head -10 | sed 's/^/  /'
	# every test's time, for a look at where the run's time goes
	[ -n "${KFT_TEST_TIMES:-}" ] && sort -rn "$results/times" >"$KFT_TEST_TIMES"
fi
rm -rf "$results" "$KFT_BUILD_CACHE"

part_done "end-to-end tests ($njobs at a time)"

# --- every call, exactly, on a real program (tests/fidelity/), and the
# kernel, in QEMU (tests/kernel/), side by side: neither checks a time,
# and each leaves a core idle much of its run. The kernel's lines are
# kept and said after fidelity's, so the output's order stays the same.
kernel_out=
if [ -z "$only" ] || [[ kernel == *"$only"* ]]; then
	if [ -n "${KFT_NO_KERNEL_TESTS:-}" ]; then
		echo "kernel tests skipped (KFT_NO_KERNEL_TESTS is set)"
	else
		kernel_out=$(mktemp /tmp/kft-kernel-tests.XXXXXX)
		tests/kernel/run.sh build >"$kernel_out" 2>&1 &
		kernel_pid=$!
	fi
fi

# Debian's dash in every variant against a ground truth without kft
if [ -z "$only" ] || [[ fidelity == *"$only"* ]]; then
	while read -r line; do
		echo "$line"
		case $line in
		"fidelity: skipped"*) skipped=$((skipped + 1)) ;;
		"fidelity "*", exact") pass ;;
		"fidelity "*": "*) fail "$line" ;;
		esac
	done < <(tests/fidelity/run.sh build build-fidelity 2>&1)
fi

if [ -n "$kernel_out" ]; then
	wait "$kernel_pid"
	while read -r line; do
		case $line in
		"ok - "*) pass ;;
		"not ok - "*) fail "kernel: ${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$kernel_out"
	rm -f "$kernel_out"
fi

part_done "fidelity and kernel tests (side by side)"

echo
echo "time by part: $(printf '%s, ' "${parts[@]}" | sed 's/, $//'); all $SECONDS s"
if [ $failed -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
[ $skipped -gt 0 ] && echo "$skipped skipped (each said why above)"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
