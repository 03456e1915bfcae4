# SPDX-License-Identifier: GPL-2.0-only
# Every view gives the same calls and the same nesting, whatever config
# chose them: kft log, kft kd -c, kft kd (both ways of summing), kft
# ftrace, kft log | kft kd -, and the exports (Chrome JSON, Perfetto,
# folded stacks), on progs/nest.c, whose kept calls often
# have parents that were not kept.

# The calls of a signal handler (nest.c's on_usr1 and h): kd shows them as
# trees of their own, ftrace inside the call they interrupted; both are
# brought to "i DEPTH NAME", depth from the handler's first logged call,
# after the other calls.
SIG_FUNCS='^(on_usr1|h)$'

# kd -c -l rows as "[i ]DEPTH NAME[ -1]", signal calls last.
kd_tree() {
	kft kd -c -l "$@" | awk 'NR > 2 {
		pid = $4; dur = $2; s = $0
		for (i = 0; i < 4; i++) sub(/^ *[^ ]+/, "", s)
		sub(/^ /, "", s)
		d = 0
		while (substr(s, 1, 3) == "|  ") { d++; s = substr(s, 4) }
		sub(/ .*/, "", s)
		line = d " " s (dur == "-1" ? " -1" : "")
		if (pid ~ /i$/) sig[ns++] = "i " line; else print line
	} END { for (i = 0; i < ns; i++) print sig[i] }'
}

# kft ftrace's function_graph as the same lines.
ftrace_tree() {
	kft ftrace | awk -v sigre="$SIG_FUNCS" '
	/^#/ || !/\|/ { next }
	{
		s = $0; sub(/^[^|]*\|  /, "", s)
		ind = match(s, /[^ ]/) - 1; d = ind / 2; s = substr(s, ind + 1)
		if (s ~ /^}/) {
			if (s ~ /unfinished/) line[open[d]] = line[open[d]] " -1"
			if (base == d) base = -1
			next
		}
		name = s; sub(/\(.*/, "", name)
		if (base < 0 && name ~ sigre) base = d
		n++
		if (base >= 0 && d >= base) { line[n] = (d - base) " " name; issig[n] = 1 }
		else line[n] = d " " name
		if (s ~ /unfinished/) line[n] = line[n] " -1"
		if (s ~ /{$/) open[d] = n
	}
	BEGIN { base = -1 }
	END {
		for (i = 1; i <= n; i++) if (!issig[i]) print line[i]
		for (i = 1; i <= n; i++) if (issig[i]) print "i " line[i]
	}'
}

# kft export --chrome's complete events, nested by their times, as the
# same lines (the JSON must parse: jq reads it).
chrome_tree() {
	kft export --chrome trace.json 2>/dev/null
	jq -r '.traceEvents[] | select(.ph == "X") |
		"\(.ts) \(.dur) \(.name) \(if .args.unfinished then "-1" else "" end)"' trace.json |
	sort -s -k1,1g -k2,2gr | awk -v sigre="$SIG_FUNCS" '
	BEGIN { base = -1; d = 0 }
	{
		while (d > 0 && end[d - 1] <= $1 + 0) { d--; if (base == d) base = -1 }
		if (base < 0 && $3 ~ sigre) base = d
		n++
		if (base >= 0 && d >= base) { line[n] = "i " (d - base) " " $3; sig[n] = 1 }
		else line[n] = d " " $3
		if ($4 == "-1") line[n] = line[n] " -1"
		end[d++] = $1 + $2
	}
	END {
		for (i = 1; i <= n; i++) if (!sig[i]) print line[i]
		for (i = 1; i <= n; i++) if (sig[i]) print line[i]
	}'
}

# kft export --perfetto's slices as the same lines: the signal handlers
# have a track of their own.
perfetto_tree() {
	kft export --perfetto trace.pb 2>/dev/null
	perfetto_slices trace.pb | awk '{
		line = $2 " " $3 ($6 ? " -1" : "")
		if ($1 ~ /_signal_handlers$/) sig[ns++] = "i " line; else print line
	} END { for (i = 0; i < ns; i++) print sig[i] }'
}

# kft export --folded's stacks, and the expected tree's as stacks.
folded_stacks() {
	kft export --folded - --weight total | sed 's/ [0-9]*$//' | sort -u
}
tree_stacks() {
	awk '{ sig = ($1 == "i"); d = sig ? $2 : $1; at[d] = sig ? $3 : $2
	       s = at[0]; for (i = 1; i <= d; i++) s = s ";" at[i]; print s }' "$1" | sort -u
}

# The log's rows as "[i ]NAME[ -1]" in their order, signal calls last.
log_names() {
	kft log | log_rows | awk '{
		un = ($1 == "-1"); if (un) $1 = ""
		sig = ($0 ~ /^ *i /); sub(/^ *(i )?/, "")
		line = $1 (un ? " -1" : "")
		if (sig) s[ns++] = "i " line; else print line
	} END { for (i = 0; i < ns; i++) print s[i] }'
}

# The expected tree's names, as log_names prints them.
tree_names() { sed -E 's/^(i )?[0-9]+ /\1/' "$1"; }

# Count per function (from the tree) = kd's Count, and every Max-sub is a
# call made under that function in the tree.
check_summary() {
	local want=$1
	kft kd -l -s F >long
	awk '{ n = ($1 == "i") ? $3 : $2; c[n]++ }
	     END { for (f in c) print f, c[f] }' "$want" | sort >want-counts
	awk 'NR > 2 { print $1, $2 }' long | sort >got-counts
	expect got-counts <want-counts
	awk 'NR > 2 && NF >= 8 { print $1, $7 }' long | while read -r f sub; do
		grep -q . <(awk -v f="$f" -v c="$sub" '
			{ sig = ($1 == "i"); d = sig ? $2 : $1; n = sig ? $3 : $2 }
			{ at[d] = n; if (d > 0 && at[d - 1] == f && n == c) print }' "$want") ||
			{ echo "Max-sub of $f is $sub, never called under it"; return 1; }
	done
	# the one-pass totals (kft kd) and the tree's (kd -l) agree
	kft kd -f Fctal -s F | awk 'NR > 2 { print $1, $2, $3, $4, $5 }' >fast
	awk 'NR > 2 { print $1, $2, $3, $4, $5 }' long >slow
	expect fast <slow
	# so do the counts kd finds in the log as text
	kft log | kft kd -f Fc -s F - >text
	kft kd -f Fc -s F >trace
	expect text <trace
	# kd 1.1's sums of the trace are those of its log
	kft kd --classic -l -s F >classic
	kft log | kft kd --classic -l -s F - >classic.log
	expect classic <classic.log
}

# views_agree EXPECTED-TREE CONFIG-STATEMENT...: trace nest (or
# VIEWS_PROG, recorded with the options VIEWS_RECORD) under the config,
# then check each view against the expected tree. TEXT_TREE, if set, is
# what kd finds in the log as text instead (a text log has no depths: a
# call whose caller was not logged is a root there).
views_agree() {
	local want=$1 prog=${VIEWS_PROG:-nest}; shift
	build "$prog" ${VIEWS_CFLAGS:-}
	if [ $# -gt 0 ]; then
		{ echo begin; printf '\t%s\n' "$@"; echo end; } >cfg.conf
		kft record ${VIEWS_RECORD:-} -c cfg.conf -- "./$prog"
	else
		kft record ${VIEWS_RECORD:-} -- "./$prog"
	fi
	printf '%s\n' "$want" >want
	kd_tree >kd.tree
	expect kd.tree <want
	ftrace_tree >ftrace.tree
	expect ftrace.tree <want
	kft log | kft kd -c -l - >/dev/null
	kd_tree - < <(kft log) >text.tree
	expect text.tree <<<"${TEXT_TREE:-$want}"
	log_names >log.names
	tree_names want >want.names
	expect log.names <want.names
	chrome_tree >chrome.tree
	expect chrome.tree <want
	perfetto_tree >perfetto.tree
	expect perfetto.tree <want
	folded_stacks >folded.stacks
	tree_stacks want >want.stacks
	expect folded.stacks <want.stacks
	check_summary want
}

each_views_whole_program() {
	views_agree "0 main
1 a
2 b
1 x
2 y
3 b
1 c
2 d
i 0 on_usr1
i 1 h"
}

# library calls nest under their callers in every view, and a callback
# (qsort's cmp) under the library call; the log names cmp's caller inside
# the C library, which no logged call is, so as text cmp is a root
test_views_library_calls() {
	library_calls_agree
}

# the same built -fno-plt (and -z now): the calls go through GOT slots
# with no PLT
test_views_library_calls_without_plt() {
	VIEWS_CFLAGS="-fno-plt -Wl,-z,now" library_calls_agree
}

library_calls_agree() {
	TEXT_TREE="0 main
1 work
2 getpid
2 malloc
2 strlen
2 qsort
2 free
2 write
0 cmp" VIEWS_PROG=libcalls VIEWS_RECORD=--libcalls views_agree "0 main
1 work
2 getpid
2 malloc
2 strlen
2 qsort
3 cmp
2 free
2 write" "trigger start entry main" "trigger stop exit main"
}

each_views_funclist_of_nested_functions() {
	views_agree "0 b
0 b
0 c
1 d" "filter funclist b c d fend"
}

each_views_funclist_skipping_levels() {
	TEXT_TREE="0 main
0 b
0 b
i 0 h" views_agree "0 main
1 b
1 b
i 0 h" "filter funclist main b h fend"
}

each_views_start_on_a_nested_function() {
	views_agree "0 y
1 b
0 c
1 d
i 0 on_usr1
i 1 h" "trigger start entry y"
}

each_views_start_and_stop() {
	views_agree "0 x
1 y
2 b" "trigger start entry x" "trigger stop exit x"
}

each_views_stop_leaves_open_calls() {
	views_agree "0 main -1
1 a
2 b" "trigger stop exit a"
}

each_views_mintime() {
	views_agree "0 main
1 c" "filter mintime 10000"
}

each_views_maxtime() {
	views_agree "0 a
1 b
0 x
1 y
2 b
0 d
i 0 on_usr1
i 1 h" "filter maxtime 10000"
}

each_views_funclist_and_maxtime() {
	views_agree "0 y
0 d" "filter funclist main y d fend" "filter maxtime 10000"
}

# ftrace's selections: notrace wins over a funclist of globs; a graph
# function and the levels below it; a depth from the outermost call.
each_views_notrace() {
	views_agree "0 main
1 a
1 x
2 y
1 c
2 d
i 0 on_usr1
i 1 h" "filter notrace b fend"
}

each_views_funclist_glob_and_notrace() {
	views_agree "0 a
0 c" "filter funclist [a-c] fend" "filter notrace b fend"
}

each_views_graph() {
	views_agree "0 x
1 y
2 b" "filter graph x fend"
}

each_views_graph_and_depth() {
	views_agree "0 x
1 y" "filter graph x fend" "filter depth 2"
}

each_views_depth() {
	views_agree "0 main
1 a
1 x
1 c
i 0 on_usr1" "filter depth 2"
}

each_views_autorepeat() {
	views_agree "0 b
0 b" "trigger start entry b" "trigger stop exit b" "autorepeat"
}

each_views_noints() {
	views_agree "0 main
1 a
2 b
1 x
2 y
3 b
1 c
2 d" "filter noints"
}

each_views_onlyints() {
	views_agree "i 0 on_usr1
i 1 h" "filter onlyints"
}
