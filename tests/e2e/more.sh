# SPDX-License-Identifier: GPL-2.0-only
# Symbols across shared libraries and dlopen, live control, the demo,
# and traces that are damaged.

test_shared_libraries() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o libsame.so \
		"$PROGS/same/a.c" "$PROGS/same/b.c"
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o plugin.so "$PROGS/plugin.c"
	"$TCC" -g "$TOPT" -fPIE -pie $INSTR -o libs "$PROGS/libs.c" \
		-L. -lsame -Wl,-rpath,"$PWD" -ldl
	kft record -- ./libs "$PWD/plugin.so"
	kft log | awk '/^-----/ { r = 1; next } r { print $4, $5 }' | sed -E 's/\+0x[0-9a-f]+//' |
		libc_named >r
	expect r <<'E'
main libc.so.6
from_a main
create_dir from_a
from_b main
create_dir from_b
create_dir from_b
plugin_entry main
plugin_helper plugin_entry
E
	# two static functions of one name are two addresses
	kft log --raw | awk '/^-----/ { r = 1; next } r { print $4 }' | sed -n '3p;5p;6p' | sort -u >addr
	check "two create_dir" test "$(wc -l <addr)" = 2
}

# --libcalls: the calls an instrumented library and a plugin opened with
# dlopen (twice: closed between) make into the C library, under their
# callers; the program's calls into them are recorded once, by their own
# hooks; its dlopen and dlclose too (kft's own, which stand for libc's)
test_library_calls_of_libraries() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o liblc.so "$PROGS/libcalls-so.c"
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -DPLUGIN -o plugin.so "$PROGS/libcalls-so.c"
	"$TCC" -g "$TOPT" $INSTR -o lcmain "$PROGS/libcalls-main.c" -L. -llc \
		-Wl,-rpath,"$PWD" -ldl
	local libs=()
	# (built plain, the libraries are patched as they load: named)
	[ "$TINSTR" = plain ] && libs=(--lib liblc.so --lib "$PWD/plugin.so")
	kft record --libcalls "${libs[@]}" -- ./lcmain "$PWD/plugin.so"
	# (main's subtree: -pg adds the start-up code's calls as roots; dlsym
	# is named without its version, dlsym@@GLIBC_2.34, where libc's debug
	# symbols are installed)
	kft kd -c | awk '/^main/ { p = 1; print; next } p && /^\|/ { print; next } { p = 0 }' >tree
	expect tree <<'E'
main
|  from_lib
|  |  getpid
|  dlopen
|  dlsym
|  plugin_entry
|  |  getppid
|  dlclose
|  dlopen
|  dlsym
|  plugin_entry
|  |  getppid
|  dlclose
E
}

# the same, all built with no instrumentation flag: patched as they load,
# they are the traced code whose library calls are recorded
each_plain_library_calls_of_libraries() {
	INSTR=$(plain_flags) TINSTR=plain test_library_calls_of_libraries
}

# --libcalls keeps the program's function pointers the library's: built
# -fno-plt, the program reads free's address from the GOT slot it calls
# free through, which kft then leaves alone; what it only calls is seen
test_library_calls_keep_function_pointers() {
	build fnptr -fno-plt -ldl
	kft record --libcalls -o t -- ./fnptr >out
	expect out <<<"same 1"
	kft kd -c t | awk '/^main$/ { p = 1; print; next } p && /^\|/ { print; next } { p = 0 }' >tree
	expect tree <<'E'
main
|  strlen
|  malloc
|  same
|  |  dlsym
|  printf
E
}

# --libcalls and exec: an image exec'd from a traced one is traced, its
# library calls too. execchain 2 makes ten calls of step and one of
# snprintf, then execs plain 1 (built without instrumentation: patched as
# it starts, its snprintf recorded), which execs execchain 0: ten calls
# of step
test_library_calls_of_exec_images() {
	build execchain
	"$TCC" -O0 -DPLAIN -o plain "$PROGS/execchain.c"
	kft record --libcalls -o t -- ./execchain 2 >/dev/null
	kft log t | awk '/^-----/ { r = 1; next } r && ($4 == "step" || $4 == "snprintf") { print $4 }' |
		sort | uniq -c | awk '{ print $2, $1 }' >n
	expect n <<'E'
snprintf 2
step 20
E
}

# --libcalls and calls that never return: the program ends as it would
# alone, and the calls stay open (-1) under their callers
test_library_calls_that_never_return() {
	build noreturn
	for how in "1 3 exit" "2 134 abort" "3 4 _exit"; do
		set -- $how
		rc=0
		kft record --libcalls -o "t$1" -- ./noreturn "$1" >/dev/null 2>&1 || rc=$?
		check "$3: exit status $2 as alone (got $rc)" test "$rc" = "$2"
		# (-pg adds the start-up code's calls as roots; _exit and _Exit
		# are one function, named by its strong name, as called here)
		kft kd -c "t$1" | awk '/^(main|worker)$/ { p = 1; print; next }
				       p && /^\|/ { print; next } { p = 0 }' >tree
		expect tree <<E
main
|  pthread_create
|  pthread_join
|  finish
|  |  $3
worker
|  leave_thread
|  |  pthread_exit
E
		kft log "t$1" | awk '$2 == -1 { print $4 }' | sort | tr '\n' ' ' >open
		expect open <<<"$3 finish leave_thread main pthread_exit worker "
		# the caller of a call that does not return, often its last
		# instruction (the return address is then the next function's)
		kft log "t$1" | awk -v f="$3" '$4 == f || $4 == "pthread_exit" { print $4, $5 }' |
			sed -E 's/(\.cold)?\+0x[0-9a-f]*$//' | sort >callers
		expect callers <<E
$3 finish
pthread_exit leave_thread
E
	done
}

# Libraries found through a relative LD_LIBRARY_PATH, and a plugin opened
# as "./plugin.so": the loader names them as asked, kft by their real
# files, so filters and triggers find their functions (and a patchable
# plugin gets patched)
test_libraries_by_relative_path() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o libsame.so \
		"$PROGS/same/a.c" "$PROGS/same/b.c"
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o plugin.so "$PROGS/plugin.c"
	"$TCC" -g "$TOPT" $INSTR -o libs "$PROGS/libs.c" -L. -lsame -ldl
	printf 'begin\n trigger start entry from_b\nend\n' >c.conf
	LD_LIBRARY_PATH=. kft record --no-check -c c.conf -F 'from_*' -F plugin_helper \
		-- ./libs ./plugin.so 2>err
	check "nothing said never ran: $(cat err)" test ! -s err
	kft log | awk '/^-----/ { r = 1; next } r { print $4 }' >r
	expect r <<'E'
from_b
plugin_helper
E
}

# A plugin closed and another opened at its addresses: each call is named
# by the maps in force when it ran, also once the libraries are gone.
test_library_reloaded_at_same_address() {
	for w in work_a work_b; do
		"$TCC" -g "$TOPT" -fPIC -shared $INSTR -DWORK=$w -o lib$w.so "$PROGS/reload-lib.c"
	done
	"$TCC" -g "$TOPT" $INSTR -o reload "$PROGS/reload.c" -ldl
	kft record -- ./reload "$PWD/libwork_a.so" "$PWD/libwork_b.so"
	# the premise: the second library took the first one's code pages (or
	# some of them: it may land a page off)
	awk '$6 ~ /libwork_a/ && $2 == "r-xp" { split($1, r, "-"); a0 = r[1]; a1 = r[2] }
	     $6 ~ /libwork_b/ { split($1, r, "-"); if (r[1] < a1 && a0 < r[2]) hit = 1 }
	     END { exit !hit }' kft.data/maps-1 ||
		{ echo "check failed: libwork_b.so was not mapped over libwork_a.so's code"; return 1; }
	rm libwork_a.so libwork_b.so
	kft kd -c | sed 1,2d | sed 's/ \[.*\]$//' >tree
	expect tree <<'E'
main
|  run
|  |  entry
|  |  |  work_a
|  run
|  |  entry
|  |  |  work_b
E
	kft log | kft kd -c - | sed 1,2d >text
	sed 's/ \[.*\]$//' text >text.tree
	expect text.tree <tree
	kft ftrace | norm | grep -o "work_[ab]" | tr '\n' ' ' >graph
	check "ftrace names both" test "$(cat graph)" = "work_a work_b "
	kft kd -f Fc | awk '$1 ~ /^work_/ { print $1, $2 }' | sort >counts
	expect counts <<'E'
work_a 1
work_b 1
E
}

# A plugin closed, rebuilt in place (the same file, other code) and opened
# again: its second opening is traced as what it is now, not as what the
# file held when first looked at (every call of both is in the trace), and
# the first one's calls are not given the new build's names: they show as
# addresses, and the views say why
test_library_rebuilt_in_place() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -DWORK=work_a -o libwork.so "$PROGS/reload-lib.c"
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -DWORK=work_b -DPAD -o libnew.so "$PROGS/reload-lib.c"
	"$TCC" -g "$TOPT" $INSTR -o reload "$PROGS/reload.c" -ldl
	kft record -- ./reload "$PWD/libwork.so" "$PWD/libwork.so" "$PWD/libnew.so"
	check "rebuilt" cmp -s libwork.so libnew.so
	# main, run twice, entry and work_X in each, and copy_over
	kft kd -f Fc | awk 'NR > 2 { n += $NF } END { print n }' >calls
	expect calls <<<8
	kft kd -c 2>err | sed 1,2d | sed 's/ \[.*\]$//; s/libwork\.so+0x[0-9a-f]*/libwork.so+OFF/' >tree
	expect tree <<'E'
main
|  run
|  |  libwork.so+OFF
|  |  |  libwork.so+OFF
|  copy_over
|  run
|  |  entry
|  |  |  work_b
E
	check "the views say why" grep -q "libwork.so was rebuilt or replaced while the program ran" err
	# a filter's names are looked up in the build opened, each time
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -DWORK=work_a -o libwork.so "$PROGS/reload-lib.c"
	kft record -o filtered --no-check -F 'work_*' -- ./reload "$PWD/libwork.so" "$PWD/libwork.so" \
		"$PWD/libnew.so"
	kft kd -f Fc filtered | awk 'NR > 2 { n += $NF } END { print n }' >calls
	expect calls <<<2
}

# run the waiting program in the background; wait until it ticks
start_waiting() {
	build waiting
	kft record "$@" -- ./waiting >/dev/null &
	pid=$!
	trap 'touch done; wait' EXIT	# a failed check must not leave it running
	for _ in $(seq 200); do [ -e kft.data/control ] && break; sleep 0.05; done
	sleep 0.1
}
finish_waiting() {
	touch done
	wait $pid
}

once_live_start_stop() {
	printf 'begin\ntrigger start entry main\nend\n' >c.conf
	start_waiting --no-prime -c c.conf
	kft status >st
	check "loaded" grep -q "^status: run id 1, not primed, not triggered, not complete$" st
	kft start
	sleep 0.05
	kft status | grep -q "triggered"
	kft stop
	set +e
	kft prime 2>err
	rc=$?
	set -e
	check "prime of a complete run is refused" test $rc = 1
	check "says why" grep -q "already running or complete" err
	n=$(rows | wc -l)
	sleep 0.05
	check "nothing after the stop" test "$(rows | wc -l)" = "$n"
	finish_waiting
	kft log >log
	check "started by user" grep -q "^Logging started at [0-9]* usec by user action$" log
	check "stopped by user" grep -q "^Logging stopped at [0-9]* usec by user action$" log
	check "ticks" test "$n" -ge 2
	# once the program has ended, its trace is history
	for verb in prime start stop; do
		refused kft $verb 2>err
		check "$verb after the end: says why" grep -q "^kft: $verb: the program of the trace in kft.data has ended$" err
	done
	kft status >st
	check "complete at the end" grep -q "^status: run id 1, .*triggered, complete$" st
	check "the end in status" grep -q "^  program ended at [0-9]* usec: exited 0$" st
	# main was entered before the start: not in the log
	check "no main" test "$(rows | grep -c '^main')" = 0
}

once_live_prime() {
	printf 'begin\ntrigger start entry tick\ntrigger stop exit tick\nautorepeat\nend\n' >c.conf
	start_waiting --no-prime -c c.conf
	check "not primed: nothing" test "$(rows | wc -l)" = 0
	kft prime
	sleep 0.05
	finish_waiting
	check "primed: ticks" test "$(rows | grep -c '^tick')" -ge 2
	check "each tick its own cycle" test "$(kft status | sed -n 's/^  stops //p')" -ge 2
}

once_demo() {
	# the README's first command, on its example
	make -s -C "$ROOT" O="$PWD/b" demo >out 2>&1
	sed -n '/^ Entry/,/^$/p' out | awk 'NR > 2 && NF { print $2 == "-1" ? "-1" : "", $4, $5 }' |
		sed -E 's/\+0x[0-9a-f]+//; s/^ //' >r
	# the outlier, with busy_wait_us under it; a fast parse_record shows
	# too when the machine held it up past the 5 us filter (the tests run
	# side by side): such rows are checked apart
	awk '{ l[NR] = $0 } END { for (i = 1; i <= NR; i++)
		if (l[i] != "parse_record load_file" || l[i + 1] == "busy_wait_us parse_record")
			print l[i] }' r >r.outlier
	expect r.outlier <<'E'
load_file main
parse_record load_file
busy_wait_us parse_record
E
	check "no more parse_record than made" test "$(grep -c '^parse_record load_file$' r)" -le 8
	check "status" grep -q "^status: run id 1, primed, triggered, complete$" out
}

once_corrupt_traces() {
	build bursts
	kft record -- ./bursts 10000 >/dev/null
	t=$(ls kft.data/thread-*.kft)
	z=$(ls kft.data/thread-*.kfz)
	size=$(stat -c %s "$t")
	zsize=$(stat -c %s "$z")
	for cut in 0 10 100 $((size / 2)) $((size - 1)) z0 z20 z40 z$((zsize - 1)); do
		rm -rf bad && cp -r kft.data bad
		case $cut in
		z*) truncate -s ${cut#z} bad/$(basename "$z") ;;
		*) truncate -s $cut bad/$(basename "$t") ;;
		esac
		set +e
		kft log bad >/dev/null 2>err
		rc=$?
		set -e
		check "truncated to $cut: an error, not a crash (rc $rc)" test $rc = 1
		check "names the file" grep -q "thread-" err
	done
	# one bad thread file of several: the others still read
	build threads
	kft record -o many -- ./threads >/dev/null
	n=$(ls many/thread-*.kft | wc -l)
	bad=$(ls many/thread-*.kft | tail -1)
	truncate -s 100 "$bad"
	kft log many 2>err | log_rows >rows
	check "warns, naming the file" grep -q "^kft: warning: .*$(basename "$bad"): truncated.*that thread's calls are left out$" err
	check "the other threads read" grep -q "^step <- worker$" rows
	check "status counts them" grep -q "^  threads $((n - 1))$" <(kft status many 2>/dev/null)
	# random bytes over the header and the records
	for seed in 1 2 3 4 5 6 7 8; do
		rm -rf bad && cp -r kft.data bad
		f=bad/$(basename "$t") n=$size
		# odd seeds garble the thread file, even ones its compressed records
		[ $((seed % 2)) = 0 ] && f=bad/$(basename "$z") n=$zsize
		for off in $(awk -v s=$seed -v n="$n" 'BEGIN { srand(s); for (i = 0; i < 20; i++) print int(rand() * (i < 10 && n > 256 ? 256 : n)) }'); do
			printf "\\x$(printf %02x $((RANDOM % 256)))" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
		done
		set +e
		kft log bad >/dev/null 2>&1; rc1=$?
		kft ftrace bad >/dev/null 2>&1; rc2=$?
		kft status bad >/dev/null 2>&1; rc3=$?
		set -e
		check "garbled $seed: no crash ($rc1 $rc2 $rc3)" test $rc1 -le 1 -a $rc2 -le 1 -a $rc3 -le 1
	done
	rm -rf bad && cp -r kft.data bad && : >bad/control
	set +e
	kft log bad 2>err
	rc=$?
	set -e
	check "empty control file" test $rc = 1
	check "says so" grep -q "control" err
	set +e
	kft log no-such-dir 2>err
	rc=$?
	set -e
	check "missing directory" test $rc = 1
}

# every command that reads a trace says the same helpful thing when there
# is none
once_no_trace_says_what_to_do() {
	for cmd in log kd "kd -c" ftrace stats status flame compress pipe "export --chrome x.json" \
		"latency f" "diff kft.data kft.data"; do
		set +e
		kft $cmd >out 2>err
		rc=$?
		set -e
		check "kft $cmd: exit 1" test $rc = 1
		check "kft $cmd: says what to do" \
			grep -q "^kft: kft.data: no such trace directory.*record one with .kft record." err
	done
}

once_help() {
	for cmd in record log ftrace export flame stats diff latency status prime start stop tracing config pipe embed kd addr2sym sym2addr compress functions; do
		kft $cmd --help >h
		check "$cmd --help" grep -q "^usage: kft" h
		case $cmd in prime|start|stop|tracing) page=control ;; *) page=$cmd ;; esac
		check "man page for $cmd" test -s "$ROOT/docs/kft-$page.1"
	done
	# every option a command's man page lists (under .TP), its --help lists
	for page in "$ROOT"/docs/kft-*.1; do
		cmd=$(basename "$page" .1)
		cmd=${cmd#kft-}
		[ "$cmd" = control ] && cmd=start
		kft "$cmd" --help >h 2>&1 || true
		awk 'tp { print; tp = 0 } /^\.TP/ { tp = 1 }' "$page" | sed 's/\\-/-/g' |
			grep -oE -- '(^|[ ",])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed -E 's/^[ ",]//' |
			sort -u >opts || true
		while read -r opt; do
			check "kft $cmd --help lists $opt (in $(basename "$page"))" \
				grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|\$)" h
		done <opts
	done
	check "config man page" test -s "$ROOT/docs/kft-config.5"
	check "format man page" test -s "$ROOT/docs/kft-data.5"
	check "kft.ko man page" test -s "$ROOT/docs/kft-module.4"
	kft --help | grep -q "commands:"
	kft --version | grep -q "^kft [0-9]"
	set +e
	kft frobnicate 2>err
	rc=$?
	set -e
	check "unknown command" test $rc = 2
}

# The vDSO's functions (gettimeofday and time, bound there by the C
# library) are named in every view, from the copy the trace holds
test_vdso_calls_named() {
	build vdsocalls
	kft record --libcalls -- ./vdsocalls >out
	check "a copy of the vDSO" test -s kft.data/vdso
	kft kd -c | awk '/^main$/ { p = 1; next } p && /^\|  / { print } /^[^|]/ && !/^main$/ { p = 0 }' |
		grep -E 'gettimeofday|time$' >tree
	expect tree <<'E'
|  gettimeofday
|  time
E
	check "ftrace names them" test "$(kft ftrace | grep -c -E ' (gettimeofday|time)\(\);')" = 2
	check "log names them" test "$(kft log | grep -c -E ' (gettimeofday|time) ')" = 2
	check "no address left" sh -c "! kft kd -c | grep -q 0x0000"
}
each_plain_vdso_calls_named() { INSTR=$(plain_flags) TINSTR=plain test_vdso_calls_named; }

# --libcalls and a program built without PIE that takes a library
# function's address (its PLT entry stands for the function): the call is
# recorded and goes on to the function, not back into the PLT
test_library_calls_of_a_canonical_plt_entry() {
	# (-fno-builtin: the compiler keeps the malloc and free it could
	# leave out)
	"$TCC" -g "$TOPT" $INSTR -fno-builtin -fno-pie -no-pie -Wl,-z,lazy -o fnaddr "$PROGS/fnaddr.c"
	timeout 60 "$KFT" record --libcalls -- ./fnaddr >out
	expect out <<<"same"
	kft kd -c | awk '/^main$/ { p = 1; next } p && /^\|  (malloc|free)$/ { print } /^[^|]/ && !/^main$/ { p = 0 }' >calls
	# (the call through the pointer goes through the PLT entry: a
	# library call too)
	expect calls <<'E'
|  malloc
|  malloc
|  free
|  free
E
}
