# SPDX-License-Identifier: GPL-2.0-only
# kft record -o never touches a file it did not create.

once_output_refuses_a_directory_of_other_files() {
	build calls
	mkdir src
	for f in thread-pool.c maps-parser.c config info; do echo "mine: $f" >"src/$f"; done
	refused kft record -o src -- ./calls >/dev/null 2>err
	check "says why" grep -q "src: not empty, and not a kft trace" err
	for f in thread-pool.c maps-parser.c config info; do
		check "$f kept" test "$(cat "src/$f")" = "mine: $f"
	done
	check "nothing added" test "$(ls src | wc -l)" = 4
	# in the current directory, as `-o .`
	(cd src && refused kft record -o . -- ../calls >/dev/null 2>/dev/null)
	check "still 4 files" test "$(ls src | wc -l)" = 4
}

once_output_replaces_only_its_own_trace() {
	build calls
	kft record -o t -- ./calls >/dev/null
	kft record -o t -- ./calls >/dev/null
	check "a trace again" test -s t/control
	# a trace with a file of the user's in it is not replaced
	echo notes >t/notes.txt
	refused kft record -o t -- ./calls >/dev/null 2>err
	check "says why" grep -q "holds files that are not kft's" err
	check "notes kept" test "$(cat t/notes.txt)" = notes
	kft log t >/dev/null
}

# A kft record killed while the program ran leaves the spare thread
# files it made ahead: the trace still reads, and is still kft's to replace.
once_output_spares_left_by_a_killed_recorder() {
	build calls
	kft record -o t -- ./calls >/dev/null
	: >t/spare-7
	kft log t | log_rows >rows
	check "reads" grep -q "^leaf <- middle" rows
	kft record -o t -- ./calls >/dev/null
	check "replaced" test ! -e t/spare-7
}

# A full disk stops the log, never the program (a store into the mapped
# log that the file system could not back killed it with SIGBUS).
once_full_disk_stops_the_log_not_the_program() {
	build fill
	small_disk small || return 0
	rc=0
	kft record -o small/t -- ./fill >out 2>err || rc=$?
	check "the program ran to its end" test "$rc" = 3
	check "and wrote its output" grep -qx done out
	check "said why calls are missing" grep -q "not recorded: no space left on the trace's file system" err
	kft status small/t >st
	check "status says it" grep -q "lost: .*no space left on the trace's file system" st
	kft log small/t >log
	check "the log says it" grep -q "^Logs ended early: no space left on the trace's file system$" log
	log_rows <log >rows
	check "what was written reads" grep -q "^leaf <- work" rows
	kft kd -c small/t >/dev/null
}

# A link planted in the trace directory where kft will write a file is
# never written through.
once_no_file_written_through_a_planted_link() {
	"$TCC" -g -O0 -fPIC -shared -finstrument-functions -o plugin.so "$PROGS/plugin.c"
	build plant -ldl
	echo mine >victim
	kft record -o t -- ./plant "$PWD/plugin.so" "$PWD/victim" >/dev/null 2>&1
	check "the victim untouched" test "$(cat victim)" = mine
	check "the link left as it was" test -L t/maps-2
}

once_output_refuses_a_symlink() {
	build calls
	mkdir elsewhere
	ln -s elsewhere link.data
	refused kft record -o link.data -- ./calls >/dev/null 2>err
	check "says why" grep -q "link.data: a symbolic link" err
	check "nothing written through it" test -z "$(ls elsewhere)"
}

once_output_one_recorder_at_a_time() {
	build waiting
	kft record -o t -- ./waiting >/dev/null &
	first=$!
	for _ in $(seq 100); do [ -e t/control ] && break; sleep 0.05; done
	refused kft record -o t -- ./waiting >/dev/null 2>err
	check "second refused" grep -q "t: another kft is recording into it" err
	touch done
	wait $first
	kft log t | log_rows >rows
	check "the first's trace is whole" grep -q "^tick <- main" rows
}

# Errors name the right thing.
once_errors_name_the_right_thing() {
	mkdir plain
	refused kft log plain 2>err
	check "not a trace" grep -q "plain: not a kft trace directory (it has no control file)" err
	build calls
	kft record -- ./calls >/dev/null
	refused kft kd --slowest 0 main 2>err
	check "slowest 0" grep -q "N is how many calls to show: at least 1" err
	printf 'begin\nwatch stack\nend\n' >w.conf
	refused kft record -c w.conf -- ./calls 2>err
	check "watch stack size" grep -q "w.conf:3: 'end': expected a stack size in bytes" err
}
