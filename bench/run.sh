#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kft against uftrace and LTTng-UST, on the same binaries, in one run.
#
#   bench/run.sh [--runs N] [--no-scale]      (make bench)
#
# Besides the table (build/bench/results.md) it writes every row's figures
# as build/bench/results.tsv and compares each row's ratio to uftrace with
# bench/baseline.tsv, the committed baseline: a ratio more than 10% worse
# is printed as a REGRESSION (the ratio, not the time: both tools ran in
# the same run, on the same machine), and so are the whole run's page
# faults (perf stat, fib) where they are 25% more than the baseline's.
# Update the baseline only with a commit that says why.
#
# Workloads: fib (tiny functions), work (merge sort, hashing, a tree:
# varied depth and real work per call), mt4 (4 threads of fib); storm
# (200 short children or threads: the cost of starting a log; 200
# openings of a library: the cost of following it); libcalls
# (2 million strlen calls through the PLT: kft --libcalls against
# uftrace, which records library calls by default); args (every call of
# fib saving its argument and return value: kft -A/-R against uftrace's
# -A/-R, and every function's typed from the debug information, kft -a
# against uftrace -a; -pg -mfentry). Each is
# built uninstrumented, with -finstrument-functions, with -pg -mfentry and
# with -fpatchable-function-entry=5; the tools trace the same binaries,
# the uninstrumented one too (kft patching its entries as it loads,
# uftrace -P .). For each mode: the added
# wall time per call against the uninstrumented run (median of N runs),
# trace bytes per call, peak RSS; then how fast each tool's analysis reads
# the same trace. Ratios are to uftrace recording everything. Calls are
# counted per binary (gcc -O2 turns some of fib's calls into a loop in the
# -pg and patchable builds), so each row is per call of its own binary.
# The floor row preloads bench/floor-hooks.c: two TSC reads per call and
# nothing else, the least any TSC-timing tracer can cost.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=5
scale=1
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--no-scale) scale=""; shift ;;
	*) echo "usage: bench/run.sh [--runs N] [--no-scale]" >&2; exit 2 ;;
	esac
done

# --- what the run needs --------------------------------------------------
need=""
command -v uftrace >/dev/null || need="$need uftrace"
command -v lttng >/dev/null || need="$need lttng-tools"
[ -e /usr/include/lttng/ust-events.h ] || need="$need liblttng-ust-dev"
[ -x /usr/bin/time ] || need="$need time"
if [ -n "$need" ]; then
	echo "bench: installing$need" >&2
	apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
KFT_NO_DEPS=${KFT_NO_DEPS:-} make -s all
kft=$root/build/bin/kft
cyg=$(ls /usr/lib/*/liblttng-ust-cyg-profile-fast.so* 2>/dev/null | head -1 || true)
if [ -n "$cyg" ] && ! pgrep -x lttng-sessiond >/dev/null; then
	lttng-sessiond --daemonize >/dev/null 2>&1 || cyg=""
	sleep 1
fi

out=$root/build/bench
tmp=$(mktemp -d /tmp/kft-bench.XXXXXX)
trap 'rm -rf "$tmp"; lttng destroy kftbench >/dev/null 2>&1 || true' EXIT
mkdir -p "$out"
for w in fib work fib_mt; do
	gcc -O2 -g -o "$out/$w-base" "bench/$w.c" -lpthread
	gcc -O2 -g -finstrument-functions -o "$out/$w-inst" "bench/$w.c" -lpthread
	gcc -O2 -g -pg -mfentry -o "$out/$w-fentry" "bench/$w.c" -lpthread
	gcc -O2 -g -fpatchable-function-entry=5 -o "$out/$w-patch" "bench/$w.c" -lpthread
done
gcc -O2 -shared -fPIC -o "$out/floor-hooks.so" bench/floor-hooks.c
printf 'begin\nlogentries 8000000\nend\n' >"$tmp/all.conf"
printf 'begin\nlogentries 8000000\nfilter mintime 1000000\nend\n' >"$tmp/drop.conf"

declare -A args=([fib]="32" [work]="60" [fib_mt]="28 4")

# run CMD...: one timed run; sets elapsed_ns and rss_kb
run() {
	local t0 t1
	t0=$(date +%s%N)
	/usr/bin/time -f "%M %U %S %R %F" -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err" || {
		cat "$tmp/err" >&2; return 1; }
	t1=$(date +%s%N)
	elapsed_ns=$((t1 - t0))
	rss_kb=$(tail -1 "$tmp/rss" | awk '{ print $1 }')
	cpu_ns=$(tail -1 "$tmp/rss" | awk '{ printf "%d", ($2 + $3) * 1e9 }')
	faults=$(tail -1 "$tmp/rss" | awk '{ print $4 + $5 }')
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# the commands of one mode, for workload $1 writing into $2
mode_cmd() {	# mode workload dir
	local bin="$out/$2-inst" a=${args[$2]}
	case $1 in
	base)          echo "$out/$2-base $a" ;;
	built)         echo "$bin $a" ;;
	floor)         echo "env LD_PRELOAD=$out/floor-hooks.so $bin $a" ;;
	kft-all)       echo "$kft record -c $tmp/all.conf -o $3 -- $bin $a" ;;
	kft-raw)       echo "$kft record --no-compress -c $tmp/all.conf -o $3 -- $bin $a" ;;
	kft-drop)      echo "$kft record -c $tmp/drop.conf -o $3 -- $bin $a" ;;
	uftrace-all)   echo "uftrace record --no-libcall -d $3 $bin $a" ;;
	uftrace-drop)  echo "uftrace record --no-libcall -t 1s -d $3 $bin $a" ;;
	kft-fentry)    echo "$kft record -c $tmp/all.conf -o $3 -- $out/$2-fentry $a" ;;
	patch-built)   echo "$out/$2-patch $a" ;;
	kft-patch)     echo "$kft record -c $tmp/all.conf -o $3 -- $out/$2-patch $a" ;;
	uftrace-fentry) echo "uftrace record --no-libcall -d $3 $out/$2-fentry $a" ;;
	kft-plain)     echo "$kft record -c $tmp/all.conf -o $3 -- $out/$2-base $a" ;;
	uftrace-plain) echo "uftrace record -P . --no-libcall -d $3 $out/$2-base $a" ;;
	lttng-fast)    echo "lttng-run $3 $bin $a" ;;
	esac
}

lttng-run() {	# dir cmd...: one LTTng session around cmd
	local dir=$1; shift
	lttng create kftbench -o "$dir" >/dev/null
	lttng enable-event -u 'lttng_ust_cyg_profile_fast:*' >/dev/null
	lttng start >/dev/null
	LD_PRELOAD=$cyg "$@"
	lttng stop >/dev/null
	lttng destroy kftbench >/dev/null
}
export -f lttng-run
export cyg

modes=(base built floor kft-all kft-raw kft-drop uftrace-all uftrace-drop kft-fentry uftrace-fentry
       patch-built kft-patch kft-plain uftrace-plain)
[ -n "$cyg" ] && modes+=(lttng-fast)

# the build a mode runs
build_of() {
	case $1 in
	kft-fentry|uftrace-fentry) echo fentry ;;
	patch-built|kft-patch) echo patch ;;
	kft-plain|uftrace-plain) echo base ;;
	*) echo inst ;;
	esac
}

declare -A T R B C F CALLS SB
for w in fib work fib_mt; do
	# the number of calls of each build, counted by kft itself
	for b in inst fentry patch base; do
		rm -rf "$tmp/count"
		$kft record -c "$tmp/all.conf" -o "$tmp/count" -- "$out/$w-$b" ${args[$w]} >/dev/null
		CALLS[$w,$b]=$($kft status "$tmp/count" | awk '/^  entries/ { print $2 }')
	done
	CALLS[$w]=${CALLS[$w,inst]}
	for m in "${modes[@]}"; do
		ts=() rs=() cs=() fs=()
		for i in $(seq "$runs"); do
			rm -rf "$tmp/trace"
			sync
			run bash -c "$(mode_cmd "$m" "$w" "$tmp/trace")"
			ts+=("$elapsed_ns") rs+=("$rss_kb") cs+=("$cpu_ns") fs+=("$faults")
		done
		T[$w,$m]=$(printf '%s\n' "${ts[@]}" | median)
		R[$w,$m]=$(printf '%s\n' "${rs[@]}" | median)
		C[$w,$m]=$(printf '%s\n' "${cs[@]}" | median)
		F[$w,$m]=$(printf '%s\n' "${fs[@]}" | median)
		# bytes the trace really takes on disk (kft's files are sparse)
		B[$w,$m]=$(du -s -B1 "$tmp/trace" 2>/dev/null | awk '{ print $1 }' || echo 0)
		[ -d "$tmp/trace" ] || B[$w,$m]=0
		echo "  $w $m: $(( T[$w,$m] / 1000000 )) ms" >&2
		if [ "$w" = fib ] && [ "$m" = kft-all ]; then rm -rf "$tmp/kft-fib"; mv "$tmp/trace" "$tmp/kft-fib"; fi
		if [ "$w" = fib ] && [ "$m" = uftrace-all ]; then rm -rf "$tmp/uft-fib"; mv "$tmp/trace" "$tmp/uft-fib"; fi
		# a plain build: how many calls each tool saw, and what kft patched
		if [ "$w" = fib ] && [ "$m" = kft-plain ]; then
			PLAIN_KFT=$($kft status "$tmp/trace" | awk '/^  entries/ { print $2 }')
			PLAIN_NOTE="kft patched $(sed -n 's/.* \([0-9]* of its [0-9]*\) functions are patched.*/\1/p' \
				"$tmp/err") functions"
		fi
		if [ "$w" = fib ] && [ "$m" = uftrace-plain ]; then
			PLAIN_UFT=$(uftrace report -d "$tmp/trace" 2>/dev/null |
				awk 'NR > 2 && $6 !~ /^linux:/ { s += $5 } END { print s + 0 }')
		fi
	done
done

# --- a busy machine: fib beside a busy loop on every other CPU, so that
# whatever a tool does on another thread (kft's compression) competes with
# the program; base, kft (default and --no-compress) and uftrace alike
busy_modes=(base kft-all kft-raw uftrace-all)
declare -A TB
busy=()
for i in $(seq $(( $(nproc) > 1 ? $(nproc) - 1 : 1 ))); do
	( while :; do :; done ) &
	busy+=($!)
done
for m in "${busy_modes[@]}"; do
	ts=()
	for i in $(seq "$runs"); do
		rm -rf "$tmp/trace"
		run bash -c "$(mode_cmd "$m" fib "$tmp/trace")"
		ts+=("$elapsed_ns")
	done
	TB[$m]=$(printf '%s\n' "${ts[@]}" | median)
	echo "  busy fib $m: $(( TB[$m] / 1000000 )) ms" >&2
done
kill "${busy[@]}" 2>/dev/null || true
wait "${busy[@]}" 2>/dev/null || true

# Page faults as perf stat counts them, where perf works: getrusage also
# counts those the helper takes ahead of the program in one
# MADV_POPULATE_WRITE, a fault a page; perf's event only the real ones
declare -A PF
if perf stat -e page-faults true >/dev/null 2>&1; then
	for m in kft-all kft-raw uftrace-all; do
		pfs=()
		for i in $(seq "$runs"); do
			rm -rf "$tmp/trace"
			pfs+=("$(bash -c "perf stat -x, -e page-faults -- $(mode_cmd "$m" fib "$tmp/trace") \
				2>&1 >/dev/null" | awk -F, '/page-faults/ { print $1 }')")
		done
		PF[$m]=$(printf '%s\n' "${pfs[@]}" | median)
	done
fi

# A patchable build not traced against the uninstrumented one, on a run
# long enough (fib 38, some 140 ms) for start-up not to count;
# runs alternate so that drift hits both alike
pt=() bt=()
for i in $(seq $((2 * runs + 1))); do
	run "$out/fib-base" 38; bt+=("$elapsed_ns")
	run "$out/fib-patch" 38; pt+=("$elapsed_ns")
done
PATCH_BASE=$(printf '%s\n' "${bt[@]}" | median)
PATCH_BUILT=$(printf '%s\n' "${pt[@]}" | median)

# --- library calls: kft record --libcalls against uftrace's default (it
# records library calls), on LIBCALLS calls of strlen through the PLT
LIBCALLS=2000000
gcc -O2 -g -fno-builtin -o "$out/libcalls-base" bench/libcalls.c
gcc -O2 -g -fno-builtin -finstrument-functions -o "$out/libcalls-inst" bench/libcalls.c
declare -A L
for tool in base kft uftrace; do
	ts=()
	for i in $(seq "$runs"); do
		rm -rf "$tmp/lib"
		case $tool in
		base) run "$out/libcalls-base" $LIBCALLS ;;
		kft) run "$kft" record --libcalls -o "$tmp/lib" -- "$out/libcalls-inst" $LIBCALLS ;;
		uftrace) run uftrace record -d "$tmp/lib" "$out/libcalls-inst" $LIBCALLS ;;
		esac
		ts+=("$elapsed_ns")
	done
	L[$tool]=$(printf '%s\n' "${ts[@]}" | median)
done
rm -rf "$tmp/lib"
lib_added() { echo $(( (L[$1] - L[base]) / LIBCALLS )); }
echo "  library calls: kft $(lib_added kft) ns, uftrace $(lib_added uftrace) ns a call" >&2

# --- arguments: every call of fib saving its argument and return value,
# kft record -A fib@arg1/d32 -R fib against uftrace's -A fib@arg1 -R
# fib@retval on the same -pg -mfentry build (and each without them)
ARGS_N=30
rm -rf "$tmp/count"
$kft record -o "$tmp/count" -- "$out/fib-fentry" $ARGS_N >/dev/null
ARGS_CALLS=$($kft status "$tmp/count" | awk '/^  entries/ { print $2 }')
declare -A AG
for tool in base kft kft-args kft-auto uftrace uftrace-args uftrace-auto; do
	ts=()
	for i in $(seq "$runs"); do
		rm -rf "$tmp/args"
		case $tool in
		base) run "$out/fib-base" $ARGS_N ;;
		kft) run "$kft" record -o "$tmp/args" -- "$out/fib-fentry" $ARGS_N ;;
		kft-args) run "$kft" record -A 'fib@arg1/d32' -R fib -o "$tmp/args" -- \
			"$out/fib-fentry" $ARGS_N ;;
		uftrace) run uftrace record --no-libcall -d "$tmp/args" "$out/fib-fentry" $ARGS_N ;;
		uftrace-args) run uftrace record --no-libcall -A fib@arg1 -R fib@retval \
			-d "$tmp/args" "$out/fib-fentry" $ARGS_N ;;
		# every function's, typed from the debug information
		kft-auto) run "$kft" record -a -o "$tmp/args" -- "$out/fib-fentry" $ARGS_N ;;
		uftrace-auto) run uftrace record --no-libcall -a -d "$tmp/args" \
			"$out/fib-fentry" $ARGS_N ;;
		esac
		ts+=("$elapsed_ns")
	done
	AG[$tool]=$(printf '%s\n' "${ts[@]}" | median)
done
rm -rf "$tmp/args"
args_added() { echo $(( (AG[$1] - AG[base]) / ARGS_CALLS )); }
echo "  arguments: kft $(args_added kft-args) ns (without $(args_added kft))," \
     "uftrace $(args_added uftrace-args) ns (without $(args_added uftrace)) a call;" \
     "-a: kft $(args_added kft-auto), uftrace $(args_added uftrace-auto)" >&2

# --- set-up cost: 200 processes, 200 threads, 1000 calls each --------------
# (and 200 dlopen and dlclose of a library, 1000 calls into it each time)
gcc -O2 -g -o "$out/storm-base" bench/storm.c -lpthread -ldl
gcc -O2 -g -finstrument-functions -o "$out/storm-inst" bench/storm.c -lpthread -ldl
gcc -O2 -g -shared -fPIC -o "$out/storm-lib-base.so" bench/storm-lib.c
gcc -O2 -g -shared -fPIC -finstrument-functions -o "$out/storm-lib-inst.so" bench/storm-lib.c
declare -A S
for kind in procs threads dlopens; do
	for tool in base kft uftrace; do
		ts=()
		for i in $(seq "$runs"); do
			rm -rf "$tmp/storm"
			lib=()
			[ $kind = dlopens ] && lib=("$out/storm-lib-$([ $tool = base ] && echo base || echo inst).so")
			case $tool in
			base) run "$out/storm-base" $kind 200 1000 "${lib[@]}" ;;
			kft) run "$kft" record -o "$tmp/storm" -- "$out/storm-inst" $kind 200 1000 "${lib[@]}" ;;
			uftrace) run uftrace record --no-libcall -d "$tmp/storm" "$out/storm-inst" $kind 200 1000 \
				"${lib[@]}" ;;
			esac
			ts+=("$elapsed_ns")
		done
		S[$kind,$tool]=$(printf '%s\n' "${ts[@]}" | median)
	done
	echo "  storm $kind: kft $(( S[$kind,kft] / 1000000 )) ms, uftrace $(( S[$kind,uftrace] / 1000000 )) ms" >&2
done

# --- compensation: the work's time as --compensate gives it, against the
# instrumented binary's own, untraced (the program times its work:
# bench/work-time.h); runs alternate so that drift hits both alike, at
# least 11 of each so that single runs' spread shows
declare -A WF=([fib]=fib [work]=round_of_work [fib_mt]=fib)
declare -A CU CK CUS CKS
comp_runs=$(( runs > 11 ? runs : 11 ))
# spread LIST... MEDIAN: the lowest and highest of LIST against MEDIAN
spread() {
	local m=${!#}
	printf '%s\n' "${@:1:$#-1}" | awk -v m="$m" 'NR == 1 || $1 < lo { lo = $1 }
		NR == 1 || $1 > hi { hi = $1 }
		END { printf "%+.0f%%..%+.0f%%", (lo - m) * 100 / m, (hi - m) * 100 / m }'
}
for w in fib work fib_mt; do
	us=() ks=()
	for i in $(seq "$comp_runs"); do
		BENCH_WORK_NS=1 "$out/$w-inst" ${args[$w]} 2>"$tmp/work" >/dev/null
		us+=("$(awk '/^work_ns/ { print $2 }' "$tmp/work")")
		rm -rf "$tmp/comp"
		$kft record --compensate -o "$tmp/comp" -- "$out/$w-inst" ${args[$w]} >/dev/null 2>&1
		ks+=("$($kft kd -f Ft "$tmp/comp" 2>/dev/null | awk -v f="${WF[$w]}" '$1 == f { printf "%d\n", $2 * 1000 }')")
	done
	CU[$w]=$(printf '%s\n' "${us[@]}" | median)
	CK[$w]=$(printf '%s\n' "${ks[@]}" | median)
	CUS[$w]=$(spread "${us[@]}" "${CU[$w]}")
	CKS[$w]=$(spread "${ks[@]}" "${CU[$w]}")
	echo "  compensated $w: $(( CK[$w] / 1000 )) us (single runs ${CKS[$w]}), untraced $(( CU[$w] / 1000 )) us (${CUS[$w]})" >&2
done
rm -rf "$tmp/comp"

# --- scale: fib 38, 126 million calls, recorded once and read by each view --
# (each tool's trace is removed before the other's is written: some 2 GB
# for kft, 4 GB for uftrace)
declare -A ST SR FR
scale_views=("kft kd" "kft kd -l" "kft kd -c" "kft log" "kft ftrace"
	     "uftrace report" "uftrace graph" "uftrace replay")
# first_row CMD...: how long CMD takes to print its first row, in
# first_ns: until `CMD | head -1` ends (CMD ends on head's leaving)
first_row() {
	local t0
	t0=$(date +%s%N)
	"$@" 2>/dev/null | head -1 >/dev/null || true
	first_ns=$(( $(date +%s%N) - t0 ))
}
if [ -n "$scale" ]; then
	rm -rf "$tmp/scale"
	run "$kft" record -o "$tmp/scale" -- "$out/fib-inst" 38
	ST[kft record]=$elapsed_ns SR[kft record]=$rss_kb
	SCALE_CALLS=$($kft status "$tmp/scale" | awk '/^  entries/ { print $2 }')
	SB[kft]=$(du -s -B1 "$tmp/scale" | cut -f1)
	for v in "${scale_views[@]}"; do
		case $v in
		kft*) run "$kft" ${v#kft } "$tmp/scale" ;;
		*) continue ;;
		esac
		ST[$v]=$elapsed_ns SR[$v]=$rss_kb
		first_row "$kft" ${v#kft } "$tmp/scale"
		FR[$v]=$first_ns
		echo "  scale: $v $(( elapsed_ns / 1000000 )) ms" >&2
	done
	rm -rf "$tmp/scale"
	run uftrace record --no-libcall -d "$tmp/scale" "$out/fib-inst" 38
	ST[uftrace record]=$elapsed_ns SR[uftrace record]=$rss_kb
	SB[uftrace]=$(du -s -B1 "$tmp/scale" | cut -f1)
	for v in "uftrace report" "uftrace graph" "uftrace replay"; do
		run $v -d "$tmp/scale"
		ST[$v]=$elapsed_ns SR[$v]=$rss_kb
		first_row $v -d "$tmp/scale"
		FR[$v]=$first_ns
		echo "  scale: $v $(( elapsed_ns / 1000000 )) ms" >&2
	done
	rm -rf "$tmp/scale"
fi

# --- the table ------------------------------------------------------------
calls_of() { echo "${CALLS[$1,$(build_of "$2")]}"; }
added() { echo $(( (T[$1,$2] - T[$1,base]) / $(calls_of "$1" "$2") )); }
added_cpu() { echo $(( (C[$1,$2] - C[$1,base]) / $(calls_of "$1" "$2") )); }
busy_added() { echo $(( (TB[$1] - TB[base]) / CALLS[fib] )); }
rat() { awk -v a="$1" -v b="$2" 'BEGIN { printf (b > 0 ? "%.2f" : "-"), a / b }'; }
{
	echo "# kft benchmark ($(date -u +%F), $(nproc) cores, median of $runs runs)"
	echo
	for b in inst fentry patch base; do
		echo "calls ($b build): fib ${CALLS[fib,$b]}, work ${CALLS[work,$b]}, mt4 ${CALLS[fib_mt,$b]}"
	done
	echo
	echo "Added ns per call, wall (CPU: user+sys, all threads of the tool):"
	echo
	echo "| mode | fib | work | mt4 | fib B/call | fib peak RSS MiB | fib wall ratio to uftrace |"
	echo "|---|---|---|---|---|---|---|"
	for m in "${modes[@]}"; do
		[ "$m" = base ] && continue
		ratio=$(awk -v a="$(added fib "$m")" -v u="$(added fib uftrace-all)" \
			'BEGIN { printf (u > 0 ? "%.2f" : "-"), a / u }')
		echo "| $m | $(added fib "$m") ($(added_cpu fib "$m")) | $(added work "$m") ($(added_cpu work "$m")) |" \
		     "$(added fib_mt "$m") ($(added_cpu fib_mt "$m")) |" \
		     "$(awk -v b="${B[fib,$m]}" -v c="$(calls_of fib "$m")" 'BEGIN { printf "%.1f", b / c }') |" \
		     "$(( R[fib,$m] / 1024 )) | $ratio |"
	done
	echo
	echo "Against the targets (fib, wall):"
	echo
	bpc() { awk -v b="${B[fib,$1]}" -v c="$(calls_of fib "$1")" 'BEGIN { print b / c }'; }
	echo "- every call recorded, kft / uftrace: $(rat "$(added fib kft-all)" "$(added fib uftrace-all)") (target 0.35);" \
	     "with --no-compress: $(rat "$(added fib kft-raw)" "$(added fib uftrace-all)") (target 0.30)"
	echo "- mintime dropping every call, kft / uftrace -t: $(rat "$(added fib kft-drop)" "$(added fib uftrace-drop)") (target 0.25)"
	echo "- bytes per call, kft / uftrace: $(rat "$(bpc kft-all)" "$(bpc uftrace-all)") (target 0.50)"
	echo "- -pg -mfentry, kft / uftrace: $(rat "$(added fib kft-fentry)" "$(added fib uftrace-fentry)") (target 0.6);" \
	     "patchable, kft / uftrace -pg -mfentry: $(rat "$(added fib kft-patch)" "$(added fib uftrace-fentry)") (target 0.6)"
	echo "- a build with no instrumentation flag, patched as it loads, kft / uftrace -P .:" \
	     "$(rat "$(added fib kft-plain)" "$(added fib uftrace-plain)"); fib's calls recorded: kft" \
	     "${PLAIN_KFT:-?}, uftrace ${PLAIN_UFT:-?} (of ${CALLS[fib,base]}); $PLAIN_NOTE"
	echo "- patchable build, not traced, against uninstrumented (fib 38, $(( PATCH_BASE / 1000000 )) ms): $(awk -v p="$PATCH_BUILT" -v b="$PATCH_BASE" 'BEGIN { printf "%+.1f%%", (p - b) * 100 / b }') (target within 2%)"
	echo "- 4 threads, per call / single thread: $(rat "$(added fib_mt kft-all)" "$(added fib kft-all)") (target 1.2)"
	echo "- kft recording every call / the floor: $(rat "$(added fib kft-all)" "$(added fib floor)")," \
	     "--no-compress / the floor: $(rat "$(added fib kft-raw)" "$(added fib floor)") (target 1.3)," \
	     "dropping every call / the floor: $(rat "$(added fib kft-drop)" "$(added fib floor)")"
	echo "- busy machine (fib beside a busy loop on every other CPU), added ns per call:" \
	     "kft $(busy_added kft-all), --no-compress $(busy_added kft-raw), uftrace $(busy_added uftrace-all);" \
	     "kft / uftrace $(rat "$(busy_added kft-all)" "$(busy_added uftrace-all)")," \
	     "default / --no-compress $(rat "$(busy_added kft-all)" "$(busy_added kft-raw)") (target 1.15)"
	echo "- library calls ($LIBCALLS strlen calls through the PLT), added ns per call: kft --libcalls" \
	     "$(lib_added kft), uftrace $(lib_added uftrace); kft / uftrace $(rat "$(lib_added kft)" "$(lib_added uftrace)")"
	echo "- arguments (fib $ARGS_N, $ARGS_CALLS calls, -pg -mfentry, each saving its argument and" \
	     "return value), added ns per call: kft -A/-R $(args_added kft-args) (without: $(args_added kft))," \
	     "uftrace -A/-R $(args_added uftrace-args) (without: $(args_added uftrace));" \
	     "kft / uftrace $(rat "$(args_added kft-args)" "$(args_added uftrace-args)");" \
	     "every function's typed from DWARF (-a): kft $(args_added kft-auto)," \
	     "uftrace $(args_added uftrace-auto)," \
	     "kft / uftrace $(rat "$(args_added kft-auto)" "$(args_added uftrace-auto)")"
	echo "- page faults, whole run (fib), getrusage: kft ${F[fib,kft-all]}, --no-compress ${F[fib,kft-raw]}," \
	     "uftrace ${F[fib,uftrace-all]}; perf stat: kft ${PF[kft-all]:-?}, --no-compress" \
	     "${PF[kft-raw]:-?}, uftrace ${PF[uftrace-all]:-?} (target 500)"
	echo
	echo "Set-up cost, 200 children (fork, one at a time), 200 threads (4 at a time) or 200" \
	     "dlopen and dlclose of a library, 1000 calls each, trace on $(findmnt -n -o FSTYPE -T "$tmp");" \
	     "ms added per child, thread or opening (target 0.5):"
	echo
	echo "| storm | untraced ms | kft ms | uftrace ms | kft per child | uftrace per child | ratio |"
	echo "|---|---|---|---|---|---|---|"
	for kind in procs threads dlopens; do
		awk -v b="${S[$kind,base]}" -v k="${S[$kind,kft]}" -v u="${S[$kind,uftrace]}" -v n="$kind" \
			'BEGIN { kc = (k - b) / 200e6; uc = (u - b) / 200e6
				 printf "| %s | %.1f | %.1f | %.1f | %.3f | %.3f | %.2f |\n", n, b / 1e6, k / 1e6,
					u / 1e6, kc, uc, (uc > 0 ? kc / uc : 0) }'
	done
	echo
	echo "Compensation: the work's time (fib, round_of_work, fib in each thread) by kft record" \
	     "--compensate and kft kd, against the -finstrument-functions binary run untraced;" \
	     "medians of $comp_runs runs each, ms, and how far single runs fell from the untraced median:"
	echo
	echo "| | fib | work | mt4 |"
	echo "|---|---|---|---|"
	echo "| untraced | $(awk -v a="${CU[fib]}" -v b="${CU[work]}" -v c="${CU[fib_mt]}" \
		'BEGIN { printf "%.2f | %.2f | %.2f", a / 1e6, b / 1e6, c / 1e6 }') |"
	echo "| kft --compensate | $(awk -v a="${CK[fib]}" -v b="${CK[work]}" -v c="${CK[fib_mt]}" \
		'BEGIN { printf "%.2f | %.2f | %.2f", a / 1e6, b / 1e6, c / 1e6 }') |"
	echo "| error of the median | $(for w in fib work fib_mt; do awk -v k="${CK[$w]}" -v u="${CU[$w]}" \
		'BEGIN { printf "%+.0f%% | ", (k - u) * 100 / u }'; done | sed 's/ | $//') |"
	echo "| single runs, compensated | ${CKS[fib]} | ${CKS[work]} | ${CKS[fib_mt]} |"
	echo "| single runs, untraced | ${CUS[fib]} | ${CUS[work]} | ${CUS[fib_mt]} |"
	if [ -n "$scale" ]; then
		echo
		echo "Scale: fib 38, $SCALE_CALLS calls, one run; seconds and peak RSS (MiB), each view's" \
		     "output to /dev/null, and seconds to its first row (\`| head -1\`); the nearest" \
		     "uftrace command beside it:"
		echo
		echo "| step | kft s | kft MiB | kft first row s | uftrace | uftrace s | uftrace MiB |" \
		     "uftrace first row s | time ratio |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for pair in "kft record:uftrace record" "kft kd:uftrace report" "kft kd -l:uftrace report" \
			    "kft kd -c:uftrace graph" "kft log:uftrace replay" "kft ftrace:uftrace replay"; do
			k=${pair%%:*} u=${pair#*:}
			awk -v k="$k" -v u="$u" -v kt="${ST[$k]}" -v km="${SR[$k]}" -v ut="${ST[$u]}" \
			    -v um="${SR[$u]}" -v kf="${FR[$k]:-}" -v uf="${FR[$u]:-}" \
			    'function s(ns) { return ns == "" ? "-" : sprintf("%.2f", ns / 1e9) }
			     BEGIN { printf "| %s | %.1f | %d | %s | %s | %.1f | %d | %s | %.2f |\n",
				k, kt / 1e9, km / 1024, s(kf), u, ut / 1e9, um / 1024, s(uf), kt / ut }'
		done
		awk -v k="${SB[kft]}" -v u="${SB[uftrace]}" -v n="$SCALE_CALLS" \
			'BEGIN { printf "\nOn disk: kft %.1f bytes a call, uftrace %.1f\n", k / n, u / n }'
	fi
	echo
	echo "Analysis over the fib trace (${CALLS[fib]} calls), ns per call, median of 3:"
	echo
	echo "| command | ns/call | ratio to uftrace report |"
	echo "|---|---|---|"
	declare -A A
	for c in "kft kd" "kft log" "uftrace report" "uftrace replay"; do
		ts=()
		for i in 1 2 3; do
			case $c in
			"kft kd") run "$kft" kd "$tmp/kft-fib" ;;
			"kft log") run "$kft" log "$tmp/kft-fib" ;;
			"uftrace report") run uftrace report -d "$tmp/uft-fib" ;;
			"uftrace replay") run uftrace replay -d "$tmp/uft-fib" ;;
			esac
			ts+=("$elapsed_ns")
		done
		A[$c]=$(( $(printf '%s\n' "${ts[@]}" | median) / CALLS[fib] ))
	done
	for c in "kft kd" "kft log" "uftrace report" "uftrace replay"; do
		echo "| $c | ${A[$c]} | $(awk -v a="${A[$c]}" -v u="${A[uftrace report]}" 'BEGIN { printf "%.2f", a / u }') |"
	done
	echo
	echo "Clock: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)," \
	     "uftrace $(uftrace --version | head -1 | awk '{ print $2 }')," \
	     "lttng-ust $(dpkg-query -W -f='${Version}' liblttng-ust-dev 2>/dev/null || echo -)"
} | tee "$out/results.md"

# --- every row, machine-readable, and against the committed baseline -------
# a mode's reference: uftrace on the same build
ref_of() {
	case $1 in
	kft-fentry|uftrace-fentry) echo uftrace-fentry ;;
	kft-patch|patch-built) echo uftrace-fentry ;;
	kft-drop|uftrace-drop) echo uftrace-drop ;;
	kft-plain|uftrace-plain) echo uftrace-plain ;;
	*) echo uftrace-all ;;
	esac
}
{
	printf 'workload\tmode\tadded_ns_per_call\tratio_to_uftrace\tpage_faults\tpeak_rss_kb\n'
	for w in fib work fib_mt; do
		for m in "${modes[@]}"; do
			[ "$m" = base ] && continue
			a=$(added "$w" "$m")
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$m" "$a" \
				"$(rat "$a" "$(added "$w" "$(ref_of "$m")")")" "${F[$w,$m]}" "${R[$w,$m]}"
		done
	done
	for m in kft-all kft-raw; do
		printf 'busy-fib\t%s\t%s\t%s\t-\t-\n' "$m" "$(busy_added "$m")" \
			"$(rat "$(busy_added "$m")" "$(busy_added uftrace-all)")"
	done
	printf 'libcalls\tkft-libcalls\t%s\t%s\t-\t-\n' "$(lib_added kft)" \
		"$(rat "$(lib_added kft)" "$(lib_added uftrace)")"
	printf 'args\tkft-args\t%s\t%s\t-\t-\n' "$(args_added kft-args)" \
		"$(rat "$(args_added kft-args)" "$(args_added uftrace-args)")"
	printf 'args\tkft-auto\t%s\t%s\t-\t-\n' "$(args_added kft-auto)" \
		"$(rat "$(args_added kft-auto)" "$(args_added uftrace-auto)")"
	# the whole run's page faults as perf stat counts them (median)
	for m in kft-all kft-raw uftrace-all; do
		[ -n "${PF[$m]:-}" ] && printf 'faults-fib\t%s\t-\t-\t%s\t-\n' "$m" "${PF[$m]}"
	done
} >"$out/results.tsv"
echo
echo "Rows written to $out/results.tsv; against bench/baseline.tsv (ratio to uftrace, now and then):"
if [ -f bench/baseline.tsv ]; then
	# a ratio 10% worse, or a perf-counted fault row 25% more (a
	# single run's faults scatter more than its time)
	awk -F'\t' 'NR == FNR { if (FNR > 1) { base[$1 FS $2] = $4; basef[$1 FS $2] = $5 }; next }
		FNR > 1 && ($1 FS $2) in base && $4 != "-" && base[$1 FS $2] != "-" {
			worse = $4 > base[$1 FS $2] * 1.10
			n += worse
			printf "  %-8s %-15s %6s  %6s%s\n", $1, $2, $4, base[$1 FS $2], worse ? "  REGRESSION" : ""
		}
		FNR > 1 && $1 ~ /^faults-/ && ($1 FS $2) in basef && basef[$1 FS $2] != "-" {
			worse = $5 > basef[$1 FS $2] * 1.25
			n += worse
			printf "  %-8s %-15s %6s  %6s faults%s\n", $1, $2, $5, basef[$1 FS $2],
			       worse ? "  REGRESSION" : ""
		}
		END { printf "bench: %d regression%s against bench/baseline.tsv\n", n, n == 1 ? "" : "s" }' \
		bench/baseline.tsv "$out/results.tsv"
else
	echo "  (no bench/baseline.tsv: copy $out/results.tsv there to make one)"
fi
