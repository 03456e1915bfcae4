#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every call, exactly, on a real program: Debian's dash, from its source
# package, built in every variant (gcc and clang, -O0 and -O2, each
# instrumentation), runs work.sh (recursion through functions and command
# substitutions: hundreds of processes) under kft record with no config.
# Each function's count in the trace must equal the ground truth, counted
# without kft's runtime by count-calls.so (a preloaded library of hooks
# that count and do nothing else), and the program's output must be the
# untraced run's. A patchable build has no hooks without kft: its truth is
# the -pg -mfentry build of the same compiler and level (the same
# functions, inlined alike). dash's signal handler (onsig) and its wait
# for children (waitproc, waitone: a wait a SIGCHLD interrupts is made
# again) are left out: how often they run depends on timing, not on the
# tracer.
#
#   tests/fidelity/run.sh KFT_BUILD WORKDIR
#
# A plain build (no instrumentation flag: kft patches its entries as it
# loads) has the -pg -mfentry build as its truth too; the functions kft
# leaves alone (--dynamic-report) are left out on both sides, and may be
# at most 1% of them.
#
# Debian's own dash, stripped as installed, is patched as it loads too,
# its functions found in its .eh_frame: its truth is a run counting each
# function's entry with a uprobe (tracefs), without kft; the signal
# handler (the function kft logs in a signal's context: onsig) and the
# functions that call wait3 (its waitone, waitproc inlined) are left out on
# both sides, as above.
#
# A second program, Debian's gzip from its source package, built plain
# (gcc and clang, -O2), compresses a file at three levels under kft
# record, one run each, the last started by a shell (sh -c: the shell
# traced too, gzip planned as it starts); its truth is its -pg -mfentry
# build's counts, as for dash. Its first level's run is also held against
# callgrind's count on the very binary kft patched (valgrind).
#
# Prints "fidelity VARIANT: N functions, M calls, exact" or what differs,
# one line a variant; "fidelity: skipped: ..." when dash's source cannot
# be had; exits non-zero on any difference.
# shellcheck disable=SC2317 # (functions side_by_side runs by name)
set -u
kft_build=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "$0")" && pwd)
kft=$kft_build/bin/kft
mkdir -p "$work"
work=$(cd "$work" && pwd)

# dash's source, once (apt-get source with a deb-src list of our own)
src=$work/dash-src
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/apt/parts"
	  -o Dir::State::Lists="$work/apt/lists" -o Dir::Cache="$work/apt/cache")
if [ ! -x "$src/configure" ]; then
	apt="$work/apt"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/parts"
	cat >"$apt/parts/deb-src.sources" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	if ! (cd "$apt" && apt-get "${apt_opts[@]}" update -qq >/dev/null 2>&1 &&
	      apt-get "${apt_opts[@]}" source --download-only dash >/dev/null 2>&1); then
		echo "fidelity: skipped: dash's source package could not be fetched (apt-get source dash)"
		exit 77
	fi
	rm -rf "$src" && mkdir -p "$src"
	tar -xzf "$apt"/dash_*.orig.tar.gz -C "$src" --strip-components=1 || exit 1
fi

# configure's answers are cached for this run's builds only
rm -f "$work"/dash-*.cache "$work"/gzip/*.cache
cc -O2 -Wall -Wextra -Werror -fPIC -shared -o "$work/count-calls.so" \
	"$here/count-calls.c" "$here/count-calls-x86_64.S" -ldl || exit 1
cc -O2 -Wall -Wextra -Werror -o "$work/count-calls-dump" "$here/count-calls-dump.c" || exit 1
cc -O2 -Wall -Wextra -Werror -fPIC -shared -o "$work/count-libcalls.so" \
	"$here/count-libcalls.c" -lelf || exit 1

# configure_cached CACHE ARGS...: ./configure -q ARGS with a cache of its
# answers shared by the builds of one compiler (configure is most of a
# build's time: dash's 10 s of 13, gzip's 41 of 48); the flags each build
# gives are its own, so the cache's record of the last one's goes
configure_cached() {
	local cache=$1; shift
	[ -f "$cache" ] && sed -i '/^ac_cv_env_/d' "$cache"
	./configure -q --cache-file="$cache" "$@" >/dev/null 2>&1
}

# build CC OPT FLAGS DIR: dash built into DIR/src/dash
build() {
	rm -rf "$4" && cp -a "$src" "$4" &&
	(cd "$4" && configure_cached "$work/dash-$1.cache" CC="$1" CFLAGS="-g $2 $3" &&
	 make -s -j"$(nproc)" >/dev/null 2>&1) && [ -x "$4/src/dash" ]
}

# the same environment for every run (dash counts its variables): kft
# record adds LD_PRELOAD and KFT_DIR, the truth has them and
# COUNT_CALLS_FILE, which the traced run gets too
clean_env=(env -i PATH=/usr/bin:/bin HOME=/nonexistent LANG=C)

# truth DIR: "function count" lines of the counting run, and its output
truth() {
	rm -f "$1/truth.tab"
	(cd "$1" && "${clean_env[@]}" LD_PRELOAD="$work/count-calls.so" KFT_DIR=/nonexistent \
		COUNT_CALLS_FILE="$1/truth.tab" ./src/dash "$here/work.sh" >"$1/truth.out" 2>&1)
	counts_of "$1/truth.tab" "$1" >"$1/truth.counts"
}

# counts_of TABLE DIR: count-calls.so's TABLE as "function count" lines
counts_of() {
	"$work/count-calls-dump" "$1" | "$kft" addr2sym -m "$2/src/dash" |
		sed -E 's/\+0x[0-9a-f]+//' | by_name
}

# kd_counts TRACE: kft kd's "function count" lines of TRACE
kd_counts() {
	"$kft" kd -f Fc "$1" | awk 'NR > 2 { sub(/ \[.*\]/, ""); print $1, $NF }'
}

# calls_in COUNTS: the calls a file of "function count" lines holds in all
calls_in() { awk '{ s += $2 } END { print s + 0 }' "$1"; }

# counts_differ NAME TRUTH GOT: whether the "function count" lines of GOT
# differ from TRUTH's; if they do, it says so, with the first lines of the
# diff (kept in GOT.diff)
counts_differ() {
	diff "$2" "$3" >"$3.diff" && return 1
	echo "fidelity $1: counts differ from the truth:"
	head -20 "$3.diff" | sed 's/^/    /'
}

# sum "name count" lines by name (two static functions of one name are
# one), those whose count depends on timing left out
by_name() {
	awk '$1 !~ /^(onsig|waitproc|waitone)$/ { c[$1] += $2 }
	     END { for (f in c) print f, c[f] }' | sort
}

# What --libcalls leaves alone (kft-record(1)): libkft's own functions
# (the hooks, and those kft stands between: longjmp, exec*, sigaction...)
# and those that return twice or elsewhere; and, as above, the calls whose
# number depends on timing (waitproc's wait3, sigsuspend, sigprocmask)
left_alone=" $(nm -D --defined-only --without-symbol-versions "$kft_build/lib/libkft.so" |
	awk '{ printf "%s ", $3 }')__libc_start_main vfork setjmp _setjmp sigsetjmp __sigsetjmp \
getcontext _Unwind_Resume wait3 sigsuspend sigprocmask "

# aliases PROGRAM: "NAME FUNCTION" for each function its libraries define,
# FUNCTION one of the names at its address (the fewest leading
# underscores, the shortest): aliases (strtol, strtoimax) are one
# function, which kft names by one of them
aliases() {
	ldd "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' |
	while read -r lib; do
		nm -D --defined-only --without-symbol-versions "$lib" |
			awk -v lib="$lib" '$2 ~ /^[TtWiI]$/ { print $3, lib ":" $1 }'
	done | awk '{ n[NR] = $1; at[NR] = $2; match($1, /^_*/)
		      rank = sprintf("%03d %04d %s", RLENGTH, length($1), $1)
		      if (!($2 in best) || rank < best[$2]) { best[$2] = rank; name[$2] = $1 } }
		    END { for (i = 1; i <= NR; i++)
			    if (!(n[i] in seen)) { seen[n[i]] = 1; print n[i], name[at[i]] } }'
}

# canonical DIR: "name count" lines summed by function, a library's by
# its aliases (DIR's), those --libcalls leaves alone and those whose
# number depends on timing left out. A name dash defines is its own; one
# of a library can come from the hooks too (clang instruments the libc
# functions it inlines: atoi, bsearch)
canonical() {
	awk -v skip="$left_alone" 'FILENAME == ARGV[1] { fn[$1] = $2; next }
		FILENAME == ARGV[2] { own[$1] = 1; next }
		($1 in fn) && !($1 in own) { if (!index(skip, " " $1 " ")) c[fn[$1]] += $2; next }
		$1 !~ /^(onsig|waitproc|waitone)$/ { c[$1] += $2 }
		END { for (f in c) print f, c[f] }' "$1/aliases" "$1/own" - | sort
}

# record_libcalls DIR: kft record --libcalls of work.sh in DIR (into tl,
# outl, errl), in the truth's environment (the same variables: dash
# counts them), the audit library loaded but counting nothing; its
# counts, canonical
record_libcalls() {
	rm -rf "$1/tl"
	(cd "$1" && "${clean_env[@]}" COUNT_CALLS_FILE= LD_AUDIT="$work/count-libcalls.so" \
		COUNT_LIBCALLS_FILE= "$kft" record --libcalls -o tl -- ./src/dash "$here/work.sh" \
		>outl 2>errl)
	kd_counts "$1/tl" 2>"$1/kdl.err" | canonical "$1"
}

# judge NAME DIR TRUTH_OUT NOTE: DIR's --libcalls run against its truth
# (libtruth.counts) and the untraced output TRUTH_OUT
judge() {
	local name="$1 --libcalls" dir=$2
	if ! cmp -s "$dir/outl" "$3"; then
		echo "fidelity $name: the output differs from the untraced run's ($dir/outl)"
	elif [ -s "$dir/errl" ]; then
		echo "fidelity $name: kft record said: $(head -3 "$dir/errl")"
	elif ! counts_differ "$name" "$dir/libtruth.counts" "$dir/kftl.counts"; then
		echo "fidelity $name: $(wc -l <"$dir/kftl.counts") functions," \
		     "$(calls_in "$dir/kftl.counts") calls ($4), exact"
		return 0
	fi
	return 1
}

# libcalls NAME DIR TRUTH_DIR: kft record --libcalls against the truth:
# a run with the audit library counting its library calls, and the
# program's own functions counted by the hooks in that run (TRUTH_DIR's,
# for a patchable build)
libcalls() {
	local dir=$2 truth_dir=$3 lib
	aliases "$dir/src/dash" >"$dir/aliases"
	nm --defined-only "$dir/src/dash" | awk '$2 ~ /^[Tt]$/ { print $3 }' >"$dir/own"
	rm -f "$dir/libtruth.tab" "$dir/libtruth-own.tab"
	(cd "$dir" && "${clean_env[@]}" LD_PRELOAD="$work/count-calls.so" KFT_DIR=/nonexistent \
		COUNT_CALLS_FILE="$dir/libtruth-own.tab" LD_AUDIT="$work/count-libcalls.so" \
		COUNT_LIBCALLS_FILE="$dir/libtruth.tab" ./src/dash "$here/work.sh" >libtruth.out 2>&1)
	[ "$dir" = "$truth_dir" ] && counts_of "$dir/libtruth-own.tab" "$dir" >"$dir/libtruth.own"
	"$work/count-calls-dump" "$dir/libtruth.tab" | canonical "$dir" >"$dir/libtruth.lib"
	cat "$truth_dir/libtruth.own" - <"$dir/libtruth.lib" | canonical "$dir" >"$dir/libtruth.counts"
	record_libcalls "$dir" >"$dir/kftl.counts"
	lib=$(calls_in "$dir/libtruth.lib")
	if ! cmp -s "$dir/libtruth.out" "$truth_dir/truth.out"; then
		echo "fidelity $1 --libcalls: the audited run's output differs ($dir/libtruth.out)"
	elif [ "$lib" -eq 0 ]; then
		echo "fidelity $1 --libcalls: the audit library counted no library call"
	else
		judge "$1" "$dir" "$truth_dir/truth.out" \
		      "$(wc -l <"$dir/libtruth.lib") library functions, $lib calls"
		return
	fi
	return 1
}

# addressed: of objdump -d's lines, the names of the imported functions
# whose GOT slot an instruction reads otherwise than to call through it:
# not `call *slot(%rip)`, nor `mov slot(%rip)` into a register a call may
# clobber that the next instruction calls through ("NAME 0" lines)
addressed() {
	awk 'function name(l) { sub(/.* </, "", l); sub(/@.*/, "", l); return l }
	     pending != "" {
		if ($0 !~ ("\t(call|jmp) +\\*%" reg "$")) seen[pending] = 1
		pending = ""
	     }
	     !/ <[^>@]+@[A-Z]/ || /\t(call|jmp) +\*0x/ { next }
	     /\tmov +0x[0-9a-f]+\(%rip\),%/ {
		reg = $0; sub(/.*\(%rip\),%/, "", reg); sub(/[ \t].*/, "", reg)
		if (reg ~ /^(rax|rcx|rdx|rsi|rdi|r8|r9|r10|r11)$/) { pending = name($0); next }
	     }
	     { seen[name($0)] = 1 }
	     END { if (pending != "") seen[pending] = 1; for (n in seen) print n, 0 }'
}

# noplt NAME DIR PLT_DIR: dash built with -fno-plt in DIR calls libc
# through GOT slots, which the dynamic linker does not report: the truth
# is the same build's with a PLT (PLT_DIR: the same code, the same
# calls). The functions whose slot DIR's code also reads otherwise than
# to call through it (objdump says which) kft leaves alone: they are
# left out on both sides (the programs work.sh runs, cat and wc, call
# some of them through their PLTs)
noplt() {
	local dir=$2 plt_dir=$3
	aliases "$dir/src/dash" >"$dir/aliases"
	nm --defined-only "$dir/src/dash" | awk '$2 ~ /^[Tt]$/ { print $3 }' >"$dir/own"
	objdump -d --no-show-raw-insn "$dir/src/dash" | addressed | sort -u |
		canonical "$dir" | awk '{ print $1 }' >"$dir/addressed"
	cat "$plt_dir/libtruth.own" "$plt_dir/libtruth.lib" | canonical "$dir" |
		awk 'FILENAME == ARGV[1] { skip[$1] = 1; next } !($1 in skip)' \
		"$dir/addressed" - >"$dir/libtruth.counts"
	record_libcalls "$dir" |
		awk 'FILENAME == ARGV[1] { skip[$1] = 1; next } !($1 in skip)' \
		"$dir/addressed" - >"$dir/kftl.counts"
	judge "$1" "$dir" "$plt_dir/truth.out" \
	      "$(wc -l <"$dir/addressed") whose address the code reads left alone"
}

# plan_notes DIR: what kft record --dynamic-report said in DIR/err (of
# one run or more): patched and total (the first note's: functions, the
# C runtime's code and cold parts not counted), DIR/left (what is left
# alone) and DIR/left.own (why, for the functions)
plan_notes() {
	local note='^kft: note: .* \([0-9]*\) of its \([0-9]*\) functions are patched.*'
	patched=$(sed -n "s/$note/\1/p" "$1/err" | head -1)
	total=$(sed -n "s/$note/\2/p" "$1/err" | head -1)
	sed -n 's/^kft:   \([^ ]*\) (0x[0-9a-f]*): .*/\1/p' "$1/err" | sort -u >"$1/left"
	sed -n 's/^kft:   [^ ]* (0x[0-9a-f]*): //p' "$1/err" | sort -u |
		grep -v -E "^(the C runtime's start-up|the program's entry point|found in .eh_frame, |a cold part of another function)" \
		>"$1/left.own" || true
}

# left_out SKIP IN: IN's "name count" lines but for the names in SKIP
left_out() {
	awk 'FILENAME == ARGV[1] { skip[$1] = 1; next } !($1 in skip)' "$1" "$2"
}

# callers_of BIN STARTS PLT: the functions of BIN (their starts in STARTS,
# hex, one a line) with a call to PLT@plt, named func_START
callers_of() {
	objdump -d --no-show-raw-insn "$1" | awk -v plt="<$3@plt>" '$2 == "call" && $NF == plt {
		sub(/:$/, "", $1); print $1 }' | sort -u | while read -r site; do
		local a f=
		while read -r a; do
			[ $((0x$a)) -le $((0x$site)) ] && [ $((0x$a)) -gt $((0x${f:-0})) ] && f=$a
		done <"$2"
		echo "func_$f"
	done
}

# judge_plain NAME DIR TRUTH_OUT [LIMIT]: a plain build's runs in DIR
# (out, err, and truth.counts and kft.counts without what is left out)
# against the untraced output TRUTH_OUT; with LIMIT, at most 1% of the
# functions left alone that are not the C runtime's. Uses plan_notes'
# patched and total.
judge_plain() {
	local name=$1 dir=$2 own
	own=$(wc -l <"$dir/left.own")
	if ! cmp -s "$dir/out" "$3"; then
		echo "fidelity $name: the output differs from the untraced run's ($dir/out)"
	elif [ -z "$total" ] || grep -v -q -E '^kft: (note: |  )' "$dir/err"; then
		echo "fidelity $name: kft record said: $(grep -v '^kft:   ' "$dir/err" | head -3)"
	elif [ -n "${4:-}" ] && [ $((own * 100)) -gt "$total" ]; then
		echo "fidelity $name: $own of $total functions left alone (over 1%): $(head -3 "$dir/left.own")"
	elif [ ! -s "$dir/truth.counts" ]; then
		echo "fidelity $name: the truth counted nothing"
	elif ! counts_differ "$name" "$dir/truth.counts" "$dir/kft.counts"; then
		echo "fidelity $name: $patched of $total functions patched" \
		     "(left alone: $(tr '\n' ' ' <"$dir/left" | sed 's/ $//; s/ /, /g'))," \
		     "$(wc -l <"$dir/kft.counts") functions called," \
		     "$(calls_in "$dir/kft.counts") calls, exact"
		return 0
	fi
	return 1
}

# plain NAME DIR TRUTH_DIR: DIR's build without instrumentation, patched
# as it loads, against TRUTH_DIR's counts but for the functions left alone
plain() {
	local name=$1 dir=$2 truth_dir=$3 patched total
	rm -rf "$dir/t"
	(cd "$dir" && "${clean_env[@]}" COUNT_CALLS_FILE=/nonexistent "$kft" record --dynamic-report \
		-o t -- ./src/dash "$here/work.sh" >out 2>err)
	plan_notes "$dir"
	kd_counts "$dir/t" 2>"$dir/kd.err" | by_name >"$dir/kft.counts"
	left_out "$dir/left" "$truth_dir/truth.counts" >"$dir/truth.counts"
	judge_plain "$name" "$dir" "$truth_dir/truth.out" limit || return 1
	uftrace_plain "$dir" "$truth_dir/truth.counts"
}

# uftrace_plain DIR TRUTH: where uftrace is installed (make bench's
# machines), what its dynamic patching (-P .) makes of the same build, as
# a line that judges nothing: functions patched, and of TRUTH's
# functions, how many it counts exactly
uftrace_plain() {
	local stats exact
	command -v uftrace >/dev/null || return 0
	rm -rf "$1/uft"
	stats=$(cd "$1" && "${clean_env[@]}" COUNT_CALLS_FILE=/nonexistent uftrace record -v -P . \
		--no-libcall -d uft ./src/dash "$here/work.sh" 2>&1 >/dev/null |
		awk '/patch stats for .dash./ { on = 1 } on && /total:/ { t = $3 }
		     on && /patched:/ { print $3 " of " t; exit }')
	uftrace report -d "$1/uft" 2>/dev/null | awk 'NR > 2 && $NF !~ /:/ { print $NF, $(NF - 1) }' |
		by_name >"$1/uft.counts"
	exact=$(join "$2" "$1/uft.counts" | awk '$2 == $3' | wc -l)
	echo "  (uftrace -P . on the same build: ${stats:-?} functions patched, $exact of" \
	     "$(wc -l <"$2") functions counted exactly)"
}

# debian: /usr/bin/dash as Debian built it, against its uprobe counts (a
# machine just booted may not have tracefs mounted: as root, it is
# mounted for this, and taken away after)
debian() {
	local T=/sys/kernel/tracing mounted= rc
	if [ ! -e "$T/uprobe_events" ] && [ "$(id -u)" = 0 ] &&
		mount -t tracefs nodev "$T" 2>/dev/null; then
		mounted=1
	fi
	debian_uprobes
	rc=$?
	[ -z "$mounted" ] || umount "$T"
	return $rc
}

debian_uprobes() {
	local dir=$work/debian bin=/usr/bin/dash T=/sys/kernel/tracing grp=kftfid$$
	local libc off vaddr delta buf a patched total lost=
	if [ ! -w "$T/uprobe_events" ] || ! command -v readelf >/dev/null; then
		echo "fidelity: skipped: Debian's dash: no uprobes here ($T/uprobe_events)"
		return 0
	fi
	rm -rf "$dir" && mkdir -p "$dir"
	libc=$(ldd "$bin" | awk '$1 ~ /^libc\.so/ { print $3 }')
	# each function's start, as readelf reads .eh_frame, as a file offset
	read -r off vaddr < <(readelf -lW "$bin" | awk '$1 == "LOAD" && $7 ~ /E/ { print $2, $3; exit }')
	delta=$((vaddr - off))
	readelf --debug-dump=frames "$bin" 2>/dev/null | sed -n 's/.* FDE .* pc=0*\([0-9a-f]*\)\.\..*/\1/p' |
		sort -u >"$dir/starts"
	while read -r a; do
		printf 'p:%s/f_%s %s:0x%x\n' "$grp" "$a" "$bin" $((0x$a - delta))
	done <"$dir/starts" >>"$T/uprobe_events" || {
		echo "fidelity debian dash: the uprobes could not be set"
		return 1
	}
	buf=$(cat "$T/buffer_size_kb")
	echo 65536 >"$T/buffer_size_kb"
	echo 1 >"$T/options/event-fork"
	echo >"$T/trace"
	echo 1 >"$T/events/$grp/enable"
	(echo "$BASHPID" >"$T/set_event_pid" && cd "$dir" &&
	 exec "${clean_env[@]}" LD_PRELOAD="$libc" KFT_DIR=/nonexistent COUNT_CALLS_FILE=/nonexistent \
		"$bin" "$here/work.sh" >"$dir/truth.out" 2>&1)
	echo 0 >"$T/events/$grp/enable"
	echo >"$T/set_event_pid"
	echo 0 >"$T/options/event-fork"
	grep -v '^#' "$T/trace" | grep -o " f_[0-9a-f]*:" | sort | uniq -c |
		awk '{ sub(/^f_/, "func_", $2); sub(/:$/, "", $2); print $2, $1 }' >"$dir/uprobe.counts"
	grep -q -E '^CPU:[0-9]+ \[LOST' "$T/trace" && lost=1
	echo >"$T/trace"
	echo "$buf" >"$T/buffer_size_kb"
	while read -r a; do echo "-:$grp/f_$a"; done <"$dir/starts" >>"$T/uprobe_events"
	(cd "$dir" && "${clean_env[@]}" COUNT_CALLS_FILE=/nonexistent "$kft" record --dynamic-report \
		-o t -- "$bin" "$here/work.sh" >out 2>err)
	plan_notes "$dir"
	# the signal handler, and what kft left alone, on both sides
	"$kft" log "$dir/t" 2>/dev/null | awk '/^--------/ { rows = 1; next }
		rows && $3 ~ /i$/ { print $4 }' | sort -u | cat - "$dir/left" >"$dir/skip"
	# and the wait for children, whose count depends on timing
	callers_of "$bin" "$dir/starts" wait3 >>"$dir/skip"
	kd_counts "$dir/t" 2>"$dir/kd.err" | left_out "$dir/skip" - | sort >"$dir/kft.counts"
	left_out "$dir/skip" "$dir/uprobe.counts" | sort >"$dir/truth.counts"
	if [ -n "$lost" ]; then
		echo "fidelity debian dash: the uprobes' trace lost events"
		return 1
	fi
	judge_plain "debian dash" "$dir" "$dir/truth.out" limit
}

# gzip_plain CC: gzip built plain by CC at -O2 against its -pg -mfentry
# build's counts, over gzip's runs of the levels in $work/gzip/levels
gzip_plain() {
	local cc=$1 dir=$work/gzip/$1 name="gzip $1 -O2 plain" patched total i=0 args cmd
	for v in plain fentry; do
		rm -rf "$dir/$v" && cp -a "$work/gzip/src" "$dir/$v" &&
		(cd "$dir/$v" && configure_cached "$work/gzip/$cc.cache" CC="$cc" \
			CFLAGS="-g -O2$([ $v = fentry ] && echo ' -pg -mfentry')" &&
		 make -s -j"$(nproc)" >/dev/null 2>&1) && [ -x "$dir/$v/gzip" ] || {
			echo "fidelity $name: gzip did not build"
			return 1
		}
	done
	rm -f "$dir/truth.tab" "$dir/kft.all" "$dir/out" "$dir/truth.out" "$dir/err"
	while read -r args; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # (the levels' options, word by word)
		(cd "$dir/fentry" && "${clean_env[@]}" LD_PRELOAD="$work/count-calls.so" \
			KFT_DIR=/nonexistent COUNT_CALLS_FILE="$dir/truth.tab" ./gzip $args "$work/gzip/input" \
			>>"$dir/truth.out")
		# the last through a shell, which starts it (the shell, Debian's
		# stripped dash, is traced too: its func_ADDR functions set apart)
		cmd=(./gzip $args "$work/gzip/input")
		[ "$i" = 3 ] && cmd=(sh -c "./gzip $args '$work/gzip/input'; :")
		# shellcheck disable=SC2086
		(cd "$dir/plain" && rm -rf "t$i" && "${clean_env[@]}" COUNT_CALLS_FILE=/nonexistent \
			"$kft" record --dynamic-report -o "t$i" -- "${cmd[@]}" \
			>>"$dir/out" 2>>"$dir/err")
		kd_counts "$dir/plain/t$i" 2>>"$dir/kd.err" | grep -v '^func_' >>"$dir/kft.all"
	done <"$work/gzip/levels"
	"$work/count-calls-dump" "$dir/truth.tab" | "$kft" addr2sym -m "$dir/fentry/gzip" |
		sed -E 's/\+0x[0-9a-f]+//' | by_name >"$dir/truth.all"
	by_name <"$dir/kft.all" >"$dir/kft.counts"
	plan_notes "$dir"
	left_out "$dir/left" "$dir/truth.all" >"$dir/truth.counts"
	judge_plain "$name" "$dir" "$dir/truth.out" limit
}

# callgrind_plain CC: gzip's plain build (CC's) against a second truth,
# callgrind's count of the calls into each of its own functions on the
# very binary kft patched, at the first level; kft's count from that
# level's run (t1), less what kft left alone
callgrind_plain() {
	local dir=$work/gzip/$1 name="gzip $1 -O2 plain, against callgrind" args
	if ! command -v valgrind >/dev/null; then
		echo "fidelity: skipped: no valgrind for $name"
		return 0
	fi
	args=$(head -1 "$work/gzip/levels")
	# (valgrind 3.19 cannot read clang 14's DWARF 5: it runs the same
	# code, the symbol table kept and the debug sections left out)
	objcopy --strip-debug "$dir/plain/gzip" "$dir/plain/gzip-nodebug" || return 1
	# shellcheck disable=SC2086
	(cd "$dir/plain" && "${clean_env[@]}" valgrind --tool=callgrind \
		--callgrind-out-file="$dir/callgrind.out" ./gzip-nodebug $args "$work/gzip/input" \
		>/dev/null 2>"$dir/callgrind.err") || {
		echo "fidelity $name: callgrind failed ($dir/callgrind.err)"
		return 1
	}
	nm --defined-only "$dir/plain/gzip" | awk '$2 ~ /^[Tt]$/ { print $3 }' | sort -u >"$dir/own"
	awk -f "$here/callgrind-counts.awk" "$dir/callgrind.out" |
		awk 'FILENAME == ARGV[1] { own[$1] = 1; next } ($1 in own)' "$dir/own" - |
		left_out "$dir/left" - | sort >"$dir/callgrind.counts"
	kd_counts "$dir/plain/t1" 2>/dev/null | by_name >"$dir/kft1.counts"
	if [ ! -s "$dir/callgrind.counts" ]; then
		echo "fidelity $name: callgrind counted nothing"
	elif ! counts_differ "$name" "$dir/callgrind.counts" "$dir/kft1.counts"; then
		echo "fidelity $name: $(wc -l <"$dir/kft1.counts") functions," \
		     "$(calls_in "$dir/kft1.counts") calls, exact"
		return 0
	fi
	return 1
}

# gzip's source, once, and its input: text of a known shape
gzip_src() {
	local apt=$work/apt
	[ -x "$work/gzip/src/configure" ] && return 0
	(cd "$apt" && apt-get "${apt_opts[@]}" source --download-only gzip >/dev/null 2>&1) &&
	ls "$apt"/gzip_*.orig.tar.* >/dev/null 2>&1 || return 1
	rm -rf "$work/gzip" && mkdir -p "$work/gzip/src" "$work/gzip/gcc" "$work/gzip/clang" &&
	tar -xf "$apt"/gzip_*.orig.tar.xz -C "$work/gzip/src" --strip-components=1 || return 1
	seq 1 200000 | awk '{ print $1, $1 * $1 % 977, "line" }' >"$work/gzip/input"
	printf '%s\n' "-c -6" "-c -1" "-c -9" >"$work/gzip/levels"
}

# instrumented CC OPT: dash in each instrumentation of CC at OPT, then its
# plain build against the -pg -mfentry one; non-zero if any differed
instrumented() {
	local cc=$1 opt=$2 failed=0 instr name dir truth_dir
	for instr in -finstrument-functions -pg "-pg -mfentry" -fpatchable-function-entry=5; do
		name="$cc $opt $instr"
		dir=$work/$cc$opt${instr// /}
		if ! build "$cc" "$opt" "$instr" "$dir"; then
			echo "fidelity $name: dash did not build"
			failed=1
			continue
		fi
		truth_dir=$dir
		if [ "$instr" = -fpatchable-function-entry=5 ]; then
			truth_dir=$work/$cc$opt-pg-mfentry
		else
			truth "$dir"
		fi
		rm -rf "$dir/t"
		(cd "$dir" && "${clean_env[@]}" COUNT_CALLS_FILE=/nonexistent "$kft" record -o t -- ./src/dash \
			"$here/work.sh" >out 2>err)
		kd_counts "$dir/t" 2>"$dir/kd.err" | by_name >"$dir/kft.counts"
		if ! cmp -s "$dir/out" "$truth_dir/truth.out"; then
			echo "fidelity $name: the output differs from the untraced run's ($dir/out)"
			failed=1
		elif [ -s "$dir/err" ]; then
			echo "fidelity $name: kft record said: $(head -3 "$dir/err")"
			failed=1
		elif counts_differ "$name" "$truth_dir/truth.counts" "$dir/kft.counts"; then
			failed=1
		else
			echo "fidelity $name: $(wc -l <"$dir/kft.counts") functions," \
			     "$(calls_in "$dir/kft.counts") calls, exact"
		fi
		libcalls "$name" "$dir" "$truth_dir" || failed=1
	done
	dir=$work/$cc$opt-plain
	if build "$cc" "$opt" "" "$dir"; then
		plain "$cc $opt plain" "$dir" "$work/$cc$opt-pg-mfentry" || failed=1
	else
		echo "fidelity $cc $opt plain: dash did not build"
		failed=1
	fi
	return $failed
}

# gzip_both CC: gzip's plain build by CC, against its -pg -mfentry build
# and against callgrind
gzip_both() {
	local failed=0
	gzip_plain "$1" || failed=1
	callgrind_plain "$1" || failed=1
	return $failed
}

# fno_plt CC OPT INSTR...: dash in that variant with -fno-plt, against
# the variant's build
fno_plt() {
	local cc=$1 opt=$2 instr dir
	shift 2
	instr="$*"
	dir=$work/$cc$opt${instr// /}-fno-plt
	if build "$cc" "$opt" "$instr -fno-plt" "$dir"; then
		noplt "$cc $opt $instr -fno-plt" "$dir" "$work/$cc$opt${instr// /}"
	else
		echo "fidelity $cc $opt $instr -fno-plt: dash did not build"
		return 1
	fi
}

# side_by_side "COMMAND ARGS" "COMMAND ARGS": both at once (each runs one
# program at a time and leaves a core idle much of its run), their lines
# said in that order when both have ended; non-zero if either failed. The
# two never share a build directory nor configure's cache (one per
# compiler: the pairs are one of each compiler)
side_by_side() {
	local out rc=0
	out=$(mktemp -d "$work/lanes.XXXXXX")
	# shellcheck disable=SC2086 # (each command and its arguments, word by word)
	$1 >"$out/1" 2>&1 &
	local first=$!
	# shellcheck disable=SC2086
	$2 >"$out/2" 2>&1 || rc=1
	wait "$first" || rc=1
	cat "$out/1" "$out/2"
	rm -rf "$out"
	return $rc
}

failed=0
if gzip_src; then
	side_by_side "gzip_both gcc" "gzip_both clang" || failed=1
else
	echo "fidelity: skipped: gzip's source package could not be fetched (apt-get source gzip)"
fi
debian || failed=1
for opt in -O0 -O2; do
	side_by_side "instrumented gcc $opt" "instrumented clang $opt" || failed=1
done
side_by_side "fno_plt gcc -O2 -finstrument-functions" "fno_plt clang -O0 -pg -mfentry" || failed=1
exit $failed
