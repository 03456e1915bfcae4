# SPDX-License-Identifier: GPL-2.0-only
# kft diff: a regression that enters through one function (progs/variant.c
# makes render's work a hundred times longer when given an argument).

# "Calls-old Calls-new name" rows of a table (functions: 1, paths: 2)
rows_of() {
	awk -v t="$1" '/^Functions,/ { n = 1; next } /^Call paths,/ { n = 2; next }
		n == t && $1 ~ /^[0-9]+$/ { s = $0; sub(/.*[0-9%a-z]  /, "", s); print $1, $2, s }' "$2"
}

test_diff_finds_the_regression() {
	build variant
	kft record -o old.data -- ./variant
	kft record -o new.data -- ./variant slow
	kft diff old.data new.data >diff
	check "the same calls, every function" test \
		"$(rows_of 1 diff | awk '$1 != $2' | wc -l)" = 0
	check "render's time grew most among its callers: before parse" awk '
		/^Functions,/ { on = 1 } /^Call paths,/ { on = 0 }
		on && $NF == "render" { r = NR } on && $NF == "parse" { p = NR }
		END { exit !(r && p && r < p) }' diff
	check "the path whose own time grew most: main > render > work" test \
		"$(rows_of 2 diff | head -1 | cut -d' ' -f3-)" = "main > render > work"
	check "render's time went up" awk '$NF == "render" { exit !($7 + 0 > 0) }' diff
	# a busy machine moves parse's time too (CI once saw 6.7 ms of 8 in
	# one run), never by a third of render's growth (some 100 ms)
	check "parse's path changed far less than render's" awk '
		/^Call paths,/ { on = 1 } !on { next }
		/ main > parse > work$/ { p = $6 < 0 ? -$6 : $6 } / main > render > work$/ { r = $6 }
		END { exit !(r > 3 * p) }' diff
	kft diff -n 1 --functions old.data new.data >one
	check "-n 1 --functions: one row, no paths" test "$(rows_of 1 one | wc -l)" = 1
	check "no paths table" test "$(grep -c '^Call paths' one)" = 0
}

once_diff_new_and_gone() {
	build variant
	build nest
	kft record -o a.data -- ./variant
	kft record -o b.data -- ./nest
	kft diff --functions a.data b.data >diff
	check "nest's functions are new" awk '$NF == "c" && /  new  / { ok = 1 } END { exit !ok }' diff
	check "variant's are gone" awk '$NF == "render" && /  gone  / { ok = 1 } END { exit !ok }' diff
	check "main is in both" awk '$NF == "main" { ok = !/ new | gone / } END { exit !ok }' diff
	kft diff a.data a.data >same
	check "a trace against itself: no change" test \
		"$(awk '$1 ~ /^[0-9]+$/ && $3 != "+0"' same | wc -l)" = 0
	refused kft diff a.data 2>err
	check "two traces" grep -q "diff: two trace directories, OLD and NEW" err
}
