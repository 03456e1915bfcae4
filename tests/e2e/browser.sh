# SPDX-License-Identifier: GPL-2.0-only
# The pictures in a real browser, headless Chromium (Debian's chromium):
# kft flame's SVG runs its script there (names clipped to their boxes, a
# link's search and zoom), and speedscope opens kft's Chrome JSON and
# folded stacks. Screenshots are kept in test-artifacts/. A test that
# cannot run here says why and counts as skipped (exit 77), never as
# passed.

# The DOM of a page once its scripts have run, and a screenshot of it.
browse() {	# URL SHOT.png
	local flags=(--headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader
		     --virtual-time-budget=15000 --window-size=1200,700)
	mkdir -p "$ROOT/test-artifacts"
	timeout 120 chromium "${flags[@]}" --dump-dom "$1" 2>/dev/null
	timeout 120 chromium "${flags[@]}" --screenshot="$ROOT/test-artifacts/$2" "$1" \
		>/dev/null 2>&1
	check "screenshot $2" test -s "$ROOT/test-artifacts/$2"
}

need_chromium() {
	command -v chromium >/dev/null && return 0
	echo "skipped: chromium is not installed (Debian's chromium package)"
	return 77
}

# name width display for each box of the SVG's DOM
boxes_of() {
	grep -o '<g class="f"[^>]*><title>[^<]*</title><rect x="[^"]*" y="[^"]*" width="[^"]*"[^>]*><text[^>]*>[^<]*' "$1" |
		sed -E 's/.*<title>([^ ]+) .*width="([^"]*)".*<text[^>]*>(.*)/\1 \2 \3/; s/$/ ./'
}

once_browser_flame_svg() {
	need_chromium || return
	build nest
	kft record -- ./nest
	kft flame -o f.svg 2>/dev/null
	browse "file://$PWD/f.svg" flame.png >dom
	# the script ran: a box too narrow for its name shows it clipped or not at all
	# (d's one call takes some 20 ns, the signal handler's on_usr1 and h a few
	# us: a box only when an interrupt fell in them)
	boxes_of dom | grep -vE '^(d|on_usr1|h) ' >boxes
	check "every function's box" test "$(awk '{ print $1 }' boxes | sort -u | tr '\n' ' ')" = "a b c main x y "
	check "main's name in full" grep -q '^main [0-9.]* main \.$' boxes
	check "names clipped to their boxes" awk '$2 < 20 && $3 != "." { bad = 1 } END { exit bad }' boxes
	# a link that searches and zooms, as the page opens
	browse "file://$PWD/f.svg?s=%5Eb%24&f=c" zoomed.png >zoomed
	check "search marks b's boxes, only them" test \
		"$(grep -o '<title>[a-z]* [^<]*</title><rect [^>]*fill="rgb(200,60,230)"' zoomed |
		   sed 's/<title>\([a-z]*\) .*/\1/' | tr '\n' ' ')" = "b b "
	grep -o '<g class="f"[^>]*><title>[a-z]* [^<]*</title><rect x="[^"]*" y="[^"]*" width="[^"]*"' zoomed |
		sed -E 's/.*style="display: none;".*<title>([a-z]+).*/\1 hidden/; s/.*<title>([a-z]+) .*width="([0-9.]+)".*/\1 \2/' |
		grep -v '^d ' >zoom
	expect zoom <<'E'
main 1180
a hidden
b hidden
c 1180
x hidden
y hidden
b hidden
E
}

# speedscope and playwright-core (to wait for the page), from npm's
# registry, cached in the build directory; the page served over HTTP by
# busybox. Its sandwich view lists the functions as a table.
NPM_DIR() { echo "$KFT_BUILD/browser-npm"; }
npm_tools() {
	local dir
	dir=$(NPM_DIR)
	[ -e "$dir/speedscope/dist/release/index.html" ] &&
		[ -e "$dir/node_modules/playwright-core" ] && return 0
	command -v npm >/dev/null || { echo "skipped: no npm to fetch speedscope"; return 77; }
	mkdir -p "$dir"
	(cd "$dir" &&
	 timeout 300 npm install --no-save --no-audit --no-fund playwright-core@1.49.1 >/dev/null 2>&1 &&
	 timeout 120 npm pack speedscope@1.25.0 >/dev/null 2>&1 &&
	 mkdir -p speedscope && tar xzf speedscope-1.25.0.tgz -C speedscope --strip-components=1) || {
		echo "skipped: speedscope and playwright-core could not be fetched from npm's registry (offline?)"
		return 77
	}
}

once_browser_speedscope() {
	need_chromium || return
	local port pid dir
	npm_tools || return
	dir=$(NPM_DIR)
	build nest
	kft record -- ./nest
	mkdir www
	cp -r "$dir/speedscope/dist/release/." www/
	kft export --chrome www/trace.json 2>/dev/null
	kft export --folded www/trace.folded 2>/dev/null
	port=$((20000 + RANDOM % 20000))
	busybox httpd -f -p "127.0.0.1:$port" -h www &
	pid=$!
	mkdir -p "$ROOT/test-artifacts"
	for f in trace.json trace.folded; do
		NODE_PATH="$dir/node_modules" node "$ROOT/tests/e2e/browser-page.js" \
			"http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/$f&view=sandwich" \
			"$ROOT/test-artifacts/speedscope-${f#trace.}.png" on_usr1 >"dom.$f" ||
			{ kill $pid; return 1; }
		grep -o '>[a-z_0-9]*</' "dom.$f" | tr -d '></' | grep . | sort -u | tr '\n' ' ' >names
		check "speedscope lists the functions of $f" test "$(cat names)" = "a b c d h main on_usr1 x y " ||
			{ cat names; kill $pid; return 1; }
	done
	kill $pid
}
