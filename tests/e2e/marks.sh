# SPDX-License-Identifier: GPL-2.0-only
# Markers (kft.h's kft_printf and kft_mark, as ftrace's trace_marker): in
# the log among the calls, in ftrace's layouts where they were made.

build_marks() {
	build marks -I"$ROOT/include" -L"$KFT_BUILD/lib" -Wl,-rpath,"$KFT_BUILD/lib" -lkft
}

test_markers() {
	build_marks
	./marks >alone
	check "alone: it runs, the markers say there is no trace" \
		grep -q "^marks -1 -1 -1 sink 2$" alone
	kft record -- ./marks >out
	check "traced: written, and the paused one is not" grep -q "^marks 0 0 0 sink 2$" out
	# the log: a row each, at its time among the calls
	kft log | awk '/^--------/ { rows = 1; next }
		rows { print ($2 == "#") ? "# " substr($0, index($0, $4)) : $4 }' >rows
	expect rows <<'E'
main
a
# inside a
# between, n=42
b
# last
E
	# function_graph: a comment inside the call it was made in
	kft ftrace | norm | grep -v '^#' >graph
	expect graph <<'E'
TID)   |  main() {
TID)   |    a() {
TID)   |      /* inside a */
TID) DUR |    } /* a */
TID)   |    /* between, n=42 */
TID) DUR |    b();
TID)   |    /* last */
TID) DUR |  } /* main */
E
	# kd's call trees: a row where the call's name would be, as ftrace's
	# comment; the same from each way kd builds a tree
	kft kd -c >tree
	expect tree <<'E'
 Trace
---------------------------------
main
|  a
|  |  /* inside a */
|  /* between, n=42 */
|  b
|  /* last */
E
	kft kd --slowest 1 a | awk '/\/\*/ { sub(/^.*\|  /, ""); print }' >slow
	expect slow <<'E'
/* inside a */
E
	kft kd -c -l | awk '/\/\*/ { print ($2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/) ? "one number" : "blank" }' >cols
	expect cols <<'E'
blank
blank
blank
E
	kft ftrace -t function | grep -o '/\* .* \*/$' >fn
	expect fn <<'E'
/* inside a */
/* between, n=42 */
/* last */
E
	# the exports: Chrome's instant events, Perfetto's inside the slices
	kft export --chrome m.json
	grep -o '"ph":"i","s":"t","name":"[^"]*","cat":"marker"' m.json >instants
	expect instants <<'E'
"ph":"i","s":"t","name":"inside a","cat":"marker"
"ph":"i","s":"t","name":"between, n=42","cat":"marker"
"ph":"i","s":"t","name":"last","cat":"marker"
E
	kft export --perfetto m.pb
	perfetto_slices m.pb | awk '{ print $2, $3, $6 }' >slices
	expect slices <<'E'
0 main 0
1 a 0
2 inside_a instant
1 between,_n=42 instant
1 b 0
1 last instant
E
	# the log's text still reads as a KFT log: markers are no calls
	kft log | kft kd -c - | grep -v '^---\|Trace' >tree
	expect tree <<'E'
main
|  a
|  b
E
	check "kd counts calls only" test "$(kft kd -f Fc | awk '$1 == "a" { print $2 }')" = 1
	kft record -- ./marks >/dev/null 2>err
	check "a trace with markers is recorded over" test ! -s err
}
