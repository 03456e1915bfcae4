# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the end-to-end tests. Set by tests/run.sh: ROOT (the
# source tree), KFT_BUILD (a build directory), TCC, TOPT and TINSTR (the
# compiler, optimisation and instrumentation of this run). Tests run in
# an empty directory.

KFT="$KFT_BUILD/bin/kft"
# -pg and patched entries call a hook at entry only: a sibling call (jmp) ends its
# caller early, which would change the expected trees
case $TINSTR in
-pg*|-fpatchable*) INSTR="$TINSTR -fno-optimize-sibling-calls" ;;
*) INSTR=$TINSTR ;;
esac
PROGS="$ROOT/tests/e2e/progs"

kft() { "$KFT" "$@"; }

# This run's kft (under the sanitizers when the program is built -O0:
# tests/run.sh), and the same compiler's build without them (the same kft
# when this one is plain)
KFT_SANITIZED=$KFT
case $KFT_BUILD in
*/build-gcc-san) KFT_PLAIN=$ROOT/build/bin/kft ;;
*/build-clang-san) KFT_PLAIN=$ROOT/build-clang/bin/kft ;;
*) KFT_PLAIN=$KFT ;;
esac
[ -x "$KFT_PLAIN" ] || KFT_PLAIN=$KFT

# sanitized_one_in N I: for the I-th of a test's many runs (from 1), kft
# (KFT) is this run's for one I in N, the first among them, and its plain
# build for the others: a sanitized kft's start and exit scan (some 70 ms)
# cost many times a small command
sanitized_one_in() {
	if [ $(($2 % $1)) = $((1 % $1)) ]; then KFT=$KFT_SANITIZED; else KFT=$KFT_PLAIN; fi
}

# build NAME [extra flags]: compile progs/NAME.c into ./NAME, instrumented.
build() {
	local name=$1; shift
	cached "$name" "$TCC" -g "$TOPT" $INSTR -Wall -Werror -o "$name" \
		"$PROGS/$name.c" "$@" -lpthread
}

# cached OUT COMMAND...: run COMMAND, which writes the file OUT; or, when
# a test of this run ran the same command, copy what it wrote (tests/run.sh
# keeps them in KFT_BUILD_CACHE for the run: the same programs are built
# by many tests, and the compiler was a fifth of their time)
cached() {
	local out=$1 key
	shift
	if [ -z "${KFT_BUILD_CACHE:-}" ]; then
		"$@"
		return
	fi
	key=$KFT_BUILD_CACHE/$(echo "$*" | md5sum | cut -c1-32)
	if [ -f "$key" ]; then
		cp "$key" "$out"
		return
	fi
	"$@" || return
	cp "$out" "$key.$BASHPID" && mv "$key.$BASHPID" "$key"
}

# The flags a build with no instrumentation takes in place of one, so
# that its functions stay as the program writes them (neither inlined nor
# cloned: gcc's -pg builds keep them so, and the tests expect them).
plain_flags() {
	if [ "$TCC" = gcc ]; then
		echo "-fno-inline -fno-ipa-cp -fno-ipa-sra -fno-ipa-icf -fno-ipa-pure-const -fno-optimize-sibling-calls"
	else
		echo "-fno-inline -fno-optimize-sibling-calls"
	fi
}

# build_cxx NAME: progs/NAME.cc with the C++ compiler of this run's TCC.
build_cxx() {
	local cxx=g++
	[ "$TCC" = clang ] && cxx=clang++
	cached "$1" "$cxx" -g "$TOPT" $INSTR -Wall -Werror -o "$1" "$PROGS/$1.cc"
}

# Mask what changes from run to run: durations, times, thread ids and
# code offsets, in the ftrace graph and the kft log layouts.
norm() {
	sed -E -e 's/^ *[0-9]+\) +\|/TID)   |/' \
	       -e 's/^ *[0-9]+\) [^|]*[0-9] us \|/TID) DUR |/' \
	       -e 's/\+0x[0-9a-f]+//g'
}

# Rows of `kft log`: function and caller only (plus 'i' for signals,
# -1/-2 kept).
log_rows() {
	awk '/^--------/ { rows = 1; next }
	     rows && NF >= 4 {
		d = ($2 == "-1" || $2 == "-2") ? $2 " " : "";
		ctx = ($3 ~ /i$/) ? "i " : "";
		sub(/\+0x[0-9a-f]+$/, "", $5);
		print d ctx $4 " <- " $5 }' | libc_named
}

# main's caller is libc's __libc_start_call_main where libc's debug
# symbols are installed (libc6-dbg), libc.so.6+0x... where not
libc_named() { sed 's/__libc_start_call_main$/libc.so.6/'; }

# wait_for FILE: up to 20 s for FILE to appear
wait_for() {
	for _ in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	echo "no $1 after 20 s"
	return 1
}

# gone PID SECONDS: whether process PID has ended within SECONDS (polled
# every 50 ms; it is not waited for)
gone() {
	for _ in $(seq $(($2 * 20))); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.05
	done
	! kill -0 "$1" 2>/dev/null
}

# calls_of DIR FUNC: kd's count for FUNC
calls_of() { kft kd -f Fc "$1" | awk -v f="$2" '$1 == f { print $2 }'; }

# rows [DIR]: the log's rows as "[-1 ][i ]func <- caller".
rows() { kft log "$@" | log_rows; }

# expect FILE: compare FILE with the expected text on stdin.
expect() {
	local want
	want=$(cat)
	if [ "$want" != "$(cat "$1")" ]; then
		echo "--- expected"; echo "$want"
		echo "--- got ($1)"; cat "$1"
		diff <(echo "$want") "$1" || true
		return 1
	fi
}

# check "what" CONDITION...: fail with a message unless the command succeeds.
check() {
	local what=$1; shift
	"$@" || { echo "check failed: $what"; return 1; }
}

# small_disk DIR: a 2 MiB tmpfs mounted on DIR (made) till the test ends,
# or 1 with a SKIPPED line where mounting needs a root this run lacks.
small_disk() {
	mkdir "$1"
	if ! mount -t tmpfs -o size=2m tmpfs "$1" 2>/dev/null; then
		echo "SKIPPED: mounting a 2 MiB tmpfs needs root"
		return 1
	fi
	trap "umount '$1'" EXIT
}

# unpack_trace FILE DIR: a trace packed by tests/fuzz/pack-trace.sh (a
# fuzz seed) laid out as the directory DIR, to read as a trace of its day.
unpack_trace() {
	mkdir -p "$2"
	perl -e 'open(F, "<:raw", $ARGV[0]) or die "$ARGV[0]: $!"; local $/; my $d = <F>;
		for (my $i = 0; $i < length $d;) {
			my $n = ord(substr($d, $i, 1)); my $name = substr($d, $i + 1, $n);
			my $size = unpack("V", substr($d, $i + 1 + $n, 4));
			open(O, ">:raw", "$ARGV[1]/$name") or die "$name: $!";
			print O substr($d, $i + 5 + $n, $size); close O; $i += 5 + $n + $size;
		}' "$1" "$2"
}

# count PATTERN FILE: lines matching.
count() { grep -c -E -- "$1" "$2" || true; }

# refused COMMAND...: fail unless the command fails (`! cmd` never stops
# a test under set -e).
refused() {
	if "$@"; then echo "accepted, should be refused: $*"; return 1; fi
}

# The inflater of compressed Perfetto packets, built once for every test
# of this build: into a name of its own, then renamed, so that a test
# running it while another builds it never finds it half written.
perfetto_inflater() {
	local inflate="$KFT_BUILD/tests/perfetto-inflate"

	if [ ! -x "$inflate" ]; then
		cc -O2 -o "$inflate.$$" "$ROOT/tests/perfetto/inflate.c" -lz &&
			mv -f "$inflate.$$" "$inflate"
	fi
	echo "$inflate"
}

# A Perfetto trace (FILE) as protoc's text, packets inflated.
perfetto_text() {
	"$(perfetto_inflater)" <"$1" | protoc --decode=kft_perfetto.Trace \
		-I "$ROOT/tests/perfetto" kft-perfetto.proto
}

# Its slices' string annotations (saved arguments, return values), each
# as "NAME VALUE", in the order of the slices.
perfetto_annotations() {
	perfetto_text "$1" | awk '
	/debug_annotations \{/ { v = ""; next }
	$1 == "string_value:" { v = $0; sub(/^ *string_value: "/, "", v); sub(/"$/, "", v) }
	$1 == "name:" && v != "" { n = $2; gsub(/"/, "", n); print n, v; v = "" }'
}

# A Perfetto trace (kft export --perfetto) decoded by protoc against the
# schema subset in tests/perfetto, each slice as
# "TRACK DEPTH NAME BEGIN_NS END_NS UNFINISHED" in the order the slices
# began, TRACK being the name of its track (thread name or "TID signal
# handlers", "TID coroutine N"), DEPTH counted on that track from 0
# (blanks in names become '_'). An instant event (a marker) is a row too,
# with END its BEGIN and UNFINISHED "instant", DEPTH the slices open then.
# Compressed packets are inflated first (tests/perfetto/inflate.c).
perfetto_slices() {
	perfetto_text "$1" | awk '
	function flush() {
		if (ts != "") { if (clock == 6) now[seq] = ts; else now[seq] += ts }
		if (uuid != "") track[uuid] = (tname != "" ? tname : pname)
		if (defuuid != "") seqtrack[seq] = defuuid
		if (type == "TYPE_SLICE_BEGIN") {
			n++; sl_track[n] = seq; sl_depth[n] = depth[seq] + 0; sl_name[n] = names[seq, iid]
			sl_begin[n] = now[seq]; sl_un[n] = unfinished; stack[seq, depth[seq]++] = n
		} else if (type == "TYPE_SLICE_END") {
			sl_end[stack[seq, --depth[seq]]] = now[seq]
		} else if (type == "TYPE_INSTANT") {
			n++; sl_track[n] = seq; sl_depth[n] = depth[seq] + 0; sl_name[n] = iname
			sl_begin[n] = sl_end[n] = now[seq]; sl_un[n] = "instant"
		}
	}
	/^packet \{/ { ts = ""; clock = ""; seq = ""; type = ""; iid = ""; iname = ""; uuid = ""; tname = ""
		       pname = ""; defuuid = ""; unfinished = 0; path = ""; next }
	/\{$/ { path = path "/" $1; next }
	/^\}/ { flush(); next }
	/^ *\}/ { sub(/\/[^\/]*$/, "", path); next }
	{ v = $2; gsub(/"/, "", v) }
	path == "" && $1 == "timestamp:" { ts = v }
	path == "" && $1 == "timestamp_clock_id:" { clock = v }
	path == "" && $1 == "trusted_packet_sequence_id:" { seq = v }
	path == "/track_event" && $1 == "type:" { type = v }
	path == "/track_event" && $1 == "name_iid:" { iid = v }
	path == "/track_event" && $1 == "name:" { iname = $0; sub(/^ *name: "/, "", iname); sub(/"$/, "", iname) }
	path == "/track_event/debug_annotations" && $0 ~ /name: "unfinished"/ { unfinished = 1 }
	path == "/interned_data/event_names" && $1 == "iid:" { niid = v }
	path == "/interned_data/event_names" && $1 == "name:" {
		v = $0; sub(/^ *name: "/, "", v); sub(/"$/, "", v); names[seq, niid] = v }
	path == "/track_descriptor" && $1 == "uuid:" { uuid = v }
	path == "/track_descriptor" && $1 == "name:" { tname = $0; sub(/^ *name: "/, "", tname); sub(/"$/, "", tname) }
	path == "/track_descriptor/thread" && $1 == "thread_name:" { pname = v }
	path == "/trace_packet_defaults/track_event_defaults" && $1 == "track_uuid:" { defuuid = v }
	END {
		for (i = 1; i <= n; i++) {
			t = track[seqtrack[sl_track[i]]]; gsub(/ /, "_", t)
			nm = sl_name[i]; gsub(/ /, "_", nm)
			print t, sl_depth[i], nm, sl_begin[i], sl_end[i], sl_un[i]
		}
	}'
}
