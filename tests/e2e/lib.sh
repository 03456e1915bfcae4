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

# build NAME [extra flags]: compile progs/NAME.c into ./NAME, instrumented.
build() {
	local name=$1; shift
	"$TCC" -g "$TOPT" $INSTR -Wall -Werror -o "$name" \
		"$PROGS/$name.c" "$@" -lpthread
}

# build_cxx NAME: progs/NAME.cc with the C++ compiler of this run's TCC.
build_cxx() {
	local cxx=g++
	[ "$TCC" = clang ] && cxx=clang++
	"$cxx" -g "$TOPT" $INSTR -Wall -Werror -o "$1" "$PROGS/$1.cc"
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

# count PATTERN FILE: lines matching.
count() { grep -c -E -- "$1" "$2" || true; }

# refused COMMAND...: fail unless the command fails (`! cmd` never stops
# a test under set -e).
refused() {
	if "$@"; then echo "accepted, should be refused: $*"; return 1; fi
}
