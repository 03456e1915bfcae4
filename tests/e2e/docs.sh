# SPDX-License-Identifier: GPL-2.0-only
# The EXAMPLES of every man page in docs/, run as a user would type them,
# so that the pages cannot drift from kft.
#
# In a page's EXAMPLES section, each line of a .nf/.fi block that begins
# with a command (kft, gcc, cc, nm, du, cat, printf, ./) is run, in order, in one
# shell, in a directory of its own; a here-document goes with its
# command; a line ending in & runs in the background, and the next one a
# second later (as a user types it). Each must exit 0 (a pipeline: its
# last command). A line "$ CMD" shows CMD with what it prints after it:
# CMD's output (stdout and stderr) must be those lines, blanks aside; its
# exit status is not asked. Other lines are output shown and are not run,
# and so is a block whose first line is not a command. A line that cannot be run here says why in a
# troff comment at its end, which the page does not show:
#   chromium flame.svg        \" not run: a browser
# The programs the pages name are here: demo (examples/demo.c), prog and
# prog.c (progs/docprog.c, linked without PIE as kft-addr2sym(1) wants),
# server and server.c (progs/docserver.c, which runs two seconds),
# periodic, variant, args.c (progs/args.c) and the data.txt it reads,
# files.c (progs/files.c), types.c (progs/types.c), mathcalls.c
# (progs/mathcalls.c);
# and the traces and files they read: kft.data and demo.data (of demo),
# kft.lst (its log), the configs.

# examples_script PAGE: the page's examples as a bash script calling
# _check LINE STATUS CMD, _output LINE OUTPUT EXPECTED and _not_run LINE WHY
examples_script() {
	awk '
	function q(s) { gsub(/\047/, "\047\\\047\047", s); return "\047" s "\047" }
	function end_shown() {
		if (shown_cmd != "")
			print "_output " shown_at " \"$( { " shown_cmd "\n} 2>&1 )\" " q(shown)
		shown_cmd = ""; shown = ""
	}
	/^\.SH / { sect = ($2 == "EXAMPLES" || $2 == "EXAMPLE"); nf = 0; next }
	!sect { next }
	/^\.nf/ { nf = 1; first = 1; next }
	/^\.fi/ { nf = 0; end_shown(); next }
	!nf { next }
	{
		line = $0; why = ""
		if ((i = index(line, "\\\"")) > 0) {
			why = substr(line, i + 2); line = substr(line, 1, i - 1)
		}
		gsub(/\\-/, "-", line); gsub(/\\&/, "", line); gsub(/\\e/, "\\", line)
		sub(/[ \t]+$/, "", line)
		if (here != "") {
			if (!skipping)
				body = body "\n" line
			if (line == here) {
				if (!skipping)
					print body "\n_check " at " $? " q(cmd)
				here = ""
			}
			next
		}
		shown_cmd_line = sub(/^\$ /, "", line)
		is_cmd = line ~ /^(kft|gcc|cc|nm|du|cat|printf)( |$)/ || line ~ /^\.\//
		if (first && !is_cmd)
			nf = 0	# output shown, all of it
		first = 0
		if (!is_cmd) {
			if (shown_cmd != "")
				shown = shown " " line
			next
		}
		end_shown()
		skipping = 0
		if (match(line, /<<[A-Za-z_]+/))
			here = substr(line, RSTART + 2, RLENGTH - 2)
		if (why != "") {
			sub(/^ */, "", why)
			if (why !~ /^not run: ./) {
				printf "echo \"%s: a comment that is not \\\"not run: WHY\\\"\"; _failed=1\n", NR
				next
			}
			print "_not_run " NR " " q(substr(why, 10))
			skipping = 1
			next
		}
		if (shown_cmd_line) {
			shown_cmd = line; shown_at = NR
			next
		}
		if (here != "") {
			body = line; at = NR; cmd = line
			next
		}
		if (line ~ /&$/)
			print line "\nsleep 1"
		else
			print line "\n_check " NR " $? " q(line)
	}
	END { end_shown() }' "$1"
}

# the programs, traces and files the pages name, made once into $1
examples_fixture() {
	local to=$1 cc=gcc
	mkdir -p "$to"
	ln -s "$ROOT/examples" "$to/examples"
	(cd "$to" &&
	 $cc -g -finstrument-functions -o demo examples/demo.c &&
	 cp "$PROGS/docprog.c" prog.c &&
	 $cc -g -O0 -no-pie -finstrument-functions -o prog prog.c &&
	 cp "$PROGS/docserver.c" server.c &&
	 $cc -g -O0 -finstrument-functions -o server server.c &&
	 $cc -g -O0 -finstrument-functions -o periodic "$PROGS/periodic.c" &&
	 $cc -g -O0 -finstrument-functions -o variant "$PROGS/variant.c" &&
	 cp "$PROGS/args.c" args.c && printf 'abcdefgh' >data.txt &&
	 cp "$PROGS/files.c" files.c && cp "$PROGS/types.c" types.c &&
	 cp "$PROGS/mathcalls.c" mathcalls.c &&
	 "$KFT" record -o kft.data -- ./demo >/dev/null &&
	 "$KFT" record -o demo.data -- ./demo >/dev/null &&
	 "$KFT" log kft.data >kft.lst &&
	 printf 'begin\nend\n' >all.conf &&
	 printf 'begin\n  filter funclist handle_request handle fend\nend\n' >requests.conf &&
	 printf 'begin\n  trigger start entry handle_request\nend\n' >server.conf &&
	 printf 'begin\n  filter funclist parse_line fend\nend\n' >boot.conf &&
	 printf 'new\nbegin\n  trigger start entry main\n  filter mintme 5\nend\n' >bad.conf &&
	 printf 'begin\n  trigger start entry do_fork\n  trigger stop exit do_fork\nend\n' >trace_do_fork.conf &&
	 nm -n prog >System.map)
}

once_man_page_examples() {
	local fix=$PWD/fixture failed=0 ran=0 page name out rc
	examples_fixture "$fix"
	for page in "$ROOT"/docs/*.[1-9]; do
		name=$(basename "$page")
		mkdir "$name"
		cp -a "$fix"/. "$name"/
		examples_script "$page" >"$name.sh"
		grep -q "^_check\|^_output" "$name.sh" && ran=$((ran + 1))
		# as a user's shell: no -e, no pipefail; kft, libkft and kft.h found
		rc=0
		out=$(cd "$name" && PAGE=$name PATH="$KFT_BUILD/bin:$PATH" \
			LIBRARY_PATH="$KFT_BUILD/lib" LD_LIBRARY_PATH="$KFT_BUILD/lib" \
			CPATH="$ROOT/include" bash -c '
			exec 4>&1
			_failed=0
			_squeeze() { printf "%s" "$1" | tr -s " \t\n" "   " | sed "s/^ //; s/ \$//"; }
			_check() { [ "$2" = 0 ] || { echo "$PAGE:$1: exit $2: $3" >&4; _failed=1; }; }
			_output() {
				[ "$(_squeeze "$2")" = "$(_squeeze "$3")" ] || {
					echo "$PAGE:$1: printed: $2" >&4
					echo "  the page says: $3" >&4
					_failed=1
				}
			}
			_not_run() { echo "$PAGE:$1: not run: $2" >&4; }
			source "../$PAGE.sh" </dev/null >/dev/null 2>"../$PAGE.err"
			wait
			exit $_failed' 2>&1) || rc=1
		[ -n "$out" ] && echo "$out"
		if [ "$rc" = 1 ]; then
			failed=1
			echo "--- $name: the end of what its commands said on stderr"
			tail -5 "$name.err"
		fi
	done
	rm -rf /var/tmp/boot.data	# kft-embed(1)'s
	check "the examples of $ran pages ran" test "$ran" -ge 15
	check "each did what its page says" test "$failed" = 0
}

# README's examples (its ```sh blocks), run as written, in order, in an
# empty directory that has the source tree's examples/; what they print
# checked where README shows it
once_readme_examples() {
	cp -r "$ROOT/examples" .
	mkdir bin && ln -s "$KFT" bin/kft
	awk '/^```sh$/ { on = 1; next } /^```/ { on = 0; next } on' "$ROOT/README.md" >readme.sh
	check "README has examples" test "$(grep -c . readme.sh)" -ge 10
	if ! PATH="$PWD/bin:$PATH" bash -e readme.sh >out 2>err; then
		echo "README's examples failed:"; tail -20 err
		return 1
	fi
	# (a fast parse_record the machine held up past the 5 us filter may
	# show too, when tests run side by side: the outlier is checked)
	kft log | awk '/^-------- / { r = 1; next } r && NF { print $4 }' >rows
	check "load_file first: $(head -1 rows)" test "$(head -1 rows)" = load_file
	check "the outlier and what it called" grep -A1 -x parse_record rows | grep -qx busy_wait_us
	check "the library call and its argument" grep -q 'printf("loaded %d records\\n");' out
	check "gzip traced under the shell" test "$(kft kd -f Fc gz.data | grep -c 'func_\|main')" -gt 3
}
