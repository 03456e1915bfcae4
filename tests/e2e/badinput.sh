# SPDX-License-Identifier: GPL-2.0-only
# docs/bad-input.md, row by row: each command gives the exit status and
# the message the table says.

# The table's rows: command, exit status and message, tab-separated
# ('\|' in a cell is a '|'; the backticks around code go).
bad_input_rows() {
	awk -F' [|] ' '
		/^\| / && !/^\| (Input|---)/ {
			for (i = 2; i <= 4; i++) {
				gsub(/\\\|/, "|", $i)
				gsub(/^`|`$/, "", $i)
			}
			sub(/ \|$/, "", $4)
			gsub(/^`|`$/, "", $4)
			print $2 "\t" $3 "\t" $4
		}' "$ROOT/docs/bad-input.md"
}

once_bad_input_table() {
	local base=$PWD/base n=0 cmd want says rc
	mkdir "$base"
	cat > "$base/prog.c" <<'C'
#include <stdlib.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(int argc, char **argv) { return fib(argc > 1 ? atoi(argv[1]) : 10) & 0; }
C
	(cd "$base" && "$TCC" -O0 $INSTR -o prog prog.c &&
	 kft record -o good -- ./prog 10 && kft record -o big -- ./prog 20) >/dev/null 2>&1
	check "the big trace is compressed" ls "$base"/big/*.kfz >/dev/null
	while IFS=$'\t' read -r cmd want says; do
		n=$((n + 1))
		rm -rf row && cp -r "$base" row
		rc=0
		( cd row && KFT="$KFT" bash -c "kft() { \"\$KFT\" \"\$@\"; }; $cmd" ) >/dev/null 2>err ||
			rc=$?
		check "row $n ($cmd): exit $want, got $rc: $(head -2 err)" test "$rc" = "$want"
		check "row $n ($cmd): says '$says', said: $(head -2 err)" grep -qF -- "$says" err
	done < <(bad_input_rows)
	check "every row ran" test "$n" -ge 40
}
