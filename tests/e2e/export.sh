# SPDX-License-Identifier: GPL-2.0-only
# kft export: Chrome JSON and folded stacks. (Every config of views.sh
# checks their nesting against the other views.)

# "name entry_ns dur_ns" for each finished call, from the JSON and from
# kft log --ns
chrome_calls() {
	jq -r '.traceEvents[] | select(.ph == "X" and (.args.unfinished | not)) |
		"\(.name) \(.ts * 1000 | round) \(.dur * 1000 | round)"' "$1" | sort
}
log_calls() {
	kft log --ns | awk '/^--------/ { rows = 1; next } rows && NF >= 4 && $2 >= 0 { print $4, $1, $2 }' |
		sort
}

# The events are the calls: names, entries and durations to the ns, and
# as many open ones as the log has.
each_export_chrome_round_trips() {
	build nest
	kft record -- ./nest
	kft export --chrome trace.json 2>wrote
	chrome_calls trace.json >chrome
	log_calls >log
	check "some calls" test "$(wc -l <log)" -ge 9
	expect chrome <log
	check "no open call" test "$(jq '[.traceEvents[] | select(.args.unfinished)] | length' trace.json)" = 0
	check "the thread named" test "$(jq -r '.traceEvents[] | select(.name == "thread_name") | .args.name' trace.json)" = nest
	check "says what it wrote" grep -qE "^kft: wrote trace.json: 10 events of 10 calls, [0-9]+ bytes$" wrote
}

once_export_filters() {
	build nest
	kft record -- ./nest
	kft export --chrome - --min-duration 20ms >long.json
	check "calls of 20 ms or more: main and c" \
		test "$(jq -r '.traceEvents[] | select(.ph == "X") | .name' long.json | sort | tr '\n' ' ')" = "c main "
	kft export --chrome - --filter 'b' --filter 'x' >bx.json
	check "--filter" test "$(jq -r '.traceEvents[] | select(.ph == "X") | .name' bx.json | sort | tr '\n' ' ')" = "b b x "
	kft export --chrome - --filter '*' --notrace 'b*' --notrace '?' >nob.json
	check "--notrace wins" test "$(jq -r '.traceEvents[] | select(.ph == "X") | .name' nob.json | sort | tr '\n' ' ')" = "main on_usr1 "
	# folded: a call left out is as if not logged
	kft export --folded - --filter main --filter b --weight total | sed 's/ [0-9]*$//' >stacks
	expect stacks <<'E'
main
main;b
E
	# self times add up to main's own time plus its children's: its total
	check "self times add up to the total" test \
		"$(kft export --folded - --filter main --filter b | awk '{ s += $2 } END { print s }')" = \
		"$(kft export --folded - --filter main --filter b --weight total | awk '$1 == "main" { print $2 }')"
}

once_export_errors() {
	build nest
	kft record -- ./nest
	refused kft export 2>err
	check "asks which format" grep -q "export: which format" err
	refused kft export --chrome a --folded b 2>err
	check "one format" grep -q "one format at a time" err
	refused kft export --folded - --weight most 2>err
	check "weight" grep -q "'most': self or total" err
	refused kft export --chrome - --min-duration 3h 2>err
	check "time" grep -q "'3h' is not a time" err
	refused kft export --chrome /nonexistent/dir/x.json 2>err
	check "names the file" grep -q "/nonexistent/dir/x.json: No such file or directory" err
}

# kft flame: a well-formed SVG, a box per stack, widths as the times
each_flame_svg() {
	build nest
	kft record -- ./nest
	kft flame -o f.svg 2>wrote
	check "says what it wrote" grep -qE "^kft: wrote f.svg: [0-9]+ boxes of 10 calls" wrote
	check "well-formed" xmllint --noout f.svg
	# "name width" for each box
	sed -nE 's/.*data-w="([0-9.]+)"><title>([^ ]+) .*/\2 \1/p' f.svg >boxes
	check "a box for each stack of main" test \
		"$(awk '{ print $1 }' boxes | grep -E '^(main|a|b|x|y|c)$' | sort | tr '\n' ' ')" = "a b b c main x y "
	# (the signal handler's stack is a root of its own beside main: on a
	# busy machine it ran long enough for a box over a pixel wide, ci43)
	check "main and the handler span the graph" awk '
		$1 == "main" { m = $2 } $1 == "on_usr1" { h = $2 }
		END { exit !(m + h >= 1179 && m >= 1000) }' boxes
	local c main
	c=$(kft kd -f Ft | awk '$1 == "c" { print $2 }')
	main=$(kft kd -f Ft | awk '$1 == "main" { print $2 }')
	check "c's width is its share of main's time" awk -v c="$c" -v m="$main" '
		$1 == "c" { w = $2 } $1 == "main" { mw = $2 }
		END { r = w / mw - c / m; exit !(r < 0.01 && r > -0.01) }' boxes
	check "the script to zoom and search" grep -q "function zoom" f.svg
}

# "name entry_ns dur_ns" for each finished slice of a Perfetto trace
perfetto_calls() {
	perfetto_slices "$1" | awk '!$6 { print $3, $4, $5 - $4 }' | sort
}

# The slices are the calls: names, entries and durations to the ns, on
# the thread's track and the signal handlers' own; the compressed trace
# holds exactly the packets of the plain one.
each_export_perfetto_round_trips() {
	build nest
	kft record -- ./nest
	kft export --perfetto trace.pb 2>wrote
	kft export --perfetto plain.pb --no-compress 2>/dev/null
	check "says what it wrote" grep -qE "^kft: wrote trace.pb: 10 slices of 10 calls, [0-9]+ bytes$" wrote
	check "compressed: smaller" test "$(stat -c %s trace.pb)" -lt "$(stat -c %s plain.pb)"
	"$(perfetto_inflater)" <trace.pb >inflated
	check "inflated, the same packets" cmp inflated plain.pb
	perfetto_calls trace.pb >perfetto
	log_calls >log
	expect perfetto <log
	perfetto_slices trace.pb | awk '{ print $1, $2, $3, $6 }' | sed 's/^[0-9]*_/TID_/' >tracks
	expect tracks <<'E'
nest 0 main 0
nest 1 a 0
nest 2 b 0
nest 1 x 0
nest 2 y 0
nest 3 b 0
nest 1 c 0
nest 2 d 0
TID_signal_handlers 0 on_usr1 0
TID_signal_handlers 1 h 0
E
	protoc --decode=kft_perfetto.Trace -I "$ROOT/tests/perfetto" kft-perfetto.proto \
		<plain.pb >decoded
	check "the process named" grep -q 'process_name: "nest"' decoded
	check "the thread named" grep -q 'thread_name: "nest"' decoded
	check "each name interned once a track" test "$(grep -c 'name: "b"' decoded)" = 1
	check "no field outside the schema" test "$(grep -cE "^ *[0-9]+:" decoded)" = 0
}

# A call still open when the run stopped: a slice to the end, annotated;
# kernel calls in their category (kernel.sh's guest checks them).
each_export_perfetto_unfinished() {
	build crash
	kft record -- ./crash kill 2>/dev/null || true
	kft export --perfetto t.pb 2>/dev/null
	perfetto_slices t.pb | awk '$6 { print $3 }' | sort >open
	kft log | log_rows | awk '$1 == -1 { print $2 }' | sort >want
	check "some call open" test -s want
	expect open <want
	perfetto_slices t.pb | awk '$6 && $5 < $4 { bad = 1 } END { exit bad }'
	# how the program ended, on its process
	kft export --perfetto plain.pb --no-compress 2>/dev/null
	protoc --decode=kft_perfetto.Trace -I "$ROOT/tests/perfetto" kft-perfetto.proto \
		<plain.pb >decoded
	check "the process says how it ended" \
		grep -q 'process_labels: "program ended: killed by signal 9 (SIGKILL)"' decoded
}

# kft flame --chart: a box a call, at its time, above its caller
each_flame_chart() {
	build nest
	kft record -- ./nest
	kft flame --chart -o c.svg 2>wrote
	# (d, a few ns, and the signal handler's on_usr1 and h, a few us, are
	# too narrow for a box unless the machine held them up)
	check "says what it wrote" grep -qE "^kft: wrote c.svg: [7-9] boxes of 10 calls" wrote
	check "well-formed" xmllint --noout c.svg
	check "the thread's lane" grep -qE '<text x="10" y="[0-9]+">nest [0-9]+</text>' c.svg
	# "name x y" for each box, in time order: levels from the caller up
	sed -nE 's/.*data-x="([0-9.]+)" data-w="[0-9.]+"><title>([^ ]+) .*<rect x="[^"]*" y="([0-9]+)".*/\2 \1 \3/p' c.svg |
		sort -k2,2g -k3,3gr | awk 'NR == 1 { base = $3 } { print $1, (base - $3) / 16 }' |
		grep -vE '^(d 2|on_usr1 .*|h .*)$' >boxes
	expect boxes <<'E'
main 0
a 1
b 2
x 1
y 2
b 3
c 1
E
	# each box where its call began: c's x is to main's width as c's entry
	# is to main's duration
	local c_at span
	c_at=$(kft log --ns | awk '$4 == "c" { print $1 }')
	span=$(sed -nE 's/.*data-x="([0-9.]+)" data-w="([0-9.]+)"><title>main .*/\2/p' c.svg)
	sed -nE 's/.*data-x="([0-9.]+)" data-w="([0-9.]+)"><title>c .*/\1/p' c.svg >c.x
	check "c drawn where it began" awk -v at="$c_at" -v main_w="$span" -v end="$(kft log --ns | awk '$4 == "main" { print $2 }')" '
		{ want = at / end * main_w; d = $1 - want; exit !(d < 3 && d > -3) }' c.x
}
