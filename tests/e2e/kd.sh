# SPDX-License-Identifier: GPL-2.0-only
# kft kd, addr2sym and sym2addr: the workflows of the KFT documents.

DATA="$ROOT/tests/data"

each_kd_summary_counts() {
	build calls
	kft record -- ./calls >/dev/null
	kft kd -f Fc -s c >out
	expect out <<'E'
Function                            Count
----------------------------------- -----
leaf                                    4
middle                                  2
main                                    1
top                                     1
E
	kft kd -f Fc -s c --ascending -n 2 >out
	expect out <<'E'
Function                            Count
----------------------------------- -----
main                                    1
top                                     1
E
	# Local is exact: the locals add up to main's time
	kft kd -f Ftl >tl
	main=$(awk '$1 == "main" { print $2 }' tl)
	sum=$(awk 'NR > 2 { s += $3 } END { print s }' tl)
	check "locals add up ($sum vs $main)" test $((sum - main)) -le 4 -a $((main - sum)) -le 4
}

each_kd_call_tree() {
	build calls
	kft record -- ./calls >/dev/null
	kft kd -c >out
	expect out <<'E'
 Trace
---------------------------------
main
|  top
|  |  middle
|  |  |  leaf
|  |  |  leaf
|  |  leaf
|  |  middle
|  |  |  leaf
E
	kft kd -c -l | head -3 | tail -1 | awk '{ print NF, $5 }' >row
	expect row <<'E'
5 main
E
}

# The classic workflow: a raw log, addr2sym with a map, then kd on the
# text; the tree must be the one kd finds in the trace itself.
test_addr2sym_workflow() {
	"$TCC" -g "$TOPT" -no-pie -fno-pie $INSTR -o calls "$PROGS/calls.c"
	kft record -- ./calls >/dev/null
	nm -n calls >System.map
	kft log --raw >raw.log
	kft addr2sym raw.log -m System.map >kft.lst
	check "names in the log" grep -q " top  *main+0x" kft.lst
	kft kd -c kft.lst >from-text
	kft kd -c >from-trace
	expect from-text <from-trace
	# an ELF file serves as the map too
	kft addr2sym -m calls <raw.log >kft2.lst
	cmp kft.lst kft2.lst
}

# The same workflow on a PIE (gcc's default): the raw log says where the
# program was loaded, and addr2sym takes its addresses back to the file's
# own; without that line it refuses, saying what to do
test_addr2sym_workflow_pie() {
	"$TCC" -g "$TOPT" -fPIE -pie $INSTR -o calls "$PROGS/calls.c"
	kft record -- ./calls >/dev/null
	kft log --raw >raw.log
	check "the load base" grep -qE "^Load base of $PWD/calls: 0x[0-9a-f]{16}$" raw.log
	kft addr2sym raw.log -m calls >kft.lst
	kft kd -c kft.lst >from-text
	kft kd -c >from-trace
	expect from-text <from-trace
	check "nested, not flat" grep -q "^|  |  " from-text
	grep -v "^Load base" raw.log >bare.log
	refused kft addr2sym bare.log -m calls >/dev/null 2>err
	check "says what to do" grep -q "calls is position-independent .* -b BASE" err
	base=$(sed -nE 's/^Load base of .*: (0x[0-9a-f]+)$/\1/p' raw.log)
	kft addr2sym bare.log -m calls -b "$base" | kft kd -c - >with-b
	expect with-b <from-trace
}

test_sym2addr_workflow() {
	"$TCC" -g "$TOPT" -no-pie -fno-pie $INSTR -o calls "$PROGS/calls.c"
	nm -n calls >System.map
	printf 'new\nbegin\n  trigger start entry middle  # by name\n  trigger stop exit middle\nend\n' >m.conf
	kft sym2addr m.conf System.map >m.addr
	check "addresses" grep -q "trigger start entry 0x0000000000[0-9a-f]*  # by name" m.addr
	kft record -c m.addr -- ./calls >/dev/null
	kft kd -c >out
	expect out <<'E'
 Trace
---------------------------------
middle
|  leaf
|  leaf
E
}

# The same with a position-independent program (Debian's default): the
# addresses are link-time ones, which kft moves to where the program was
# loaded; from the program itself (ELF) or from nm's map.
test_sym2addr_pie() {
	build calls
	printf 'begin\n  trigger start entry middle\n  filter funclist middle leaf fend\nend\n' >m.conf
	nm -n calls >System.map
	for map in ./calls System.map; do
		kft sym2addr m.conf "$map" >m.addr
		check "$map: addresses" grep -q "trigger start entry 0x0000000000[0-9a-f]*$" m.addr
		kft record -c m.addr -o "t-${map#./}" -- ./calls >/dev/null 2>err
		check "$map: nothing said" test ! -s err
		kft kd -c "t-${map#./}" | sed 1,2d >out
		expect out <<'E'
middle
|  leaf
|  leaf
leaf
middle
|  leaf
E
	done
}

# A config whose functions the run never meets says so when it ends.
each_unreached_said() {
	build calls
	printf 'begin\n  trigger start entry main_loop\nend\n' >a.conf
	kft record --no-check -c a.conf -o a -- ./calls >/dev/null 2>err
	check "start never fired" grep -q "^kft: the run never started: main_loop was never entered (not called, not traced, or not the function meant); nothing was recorded$" err
	printf 'begin\n  filter funclist middle _fini leaf fend\nend\n' >b.conf
	kft record -c b.conf -o b -- ./calls >/dev/null 2>err
	check "funclist" grep -q "^kft: funclist: _fini: never ran while the run was on" err
	kft record -o c -- ./calls >/dev/null 2>err
	check "a plain run: nothing said" test ! -s err
}

once_kd_text_log() {
	kft kd -c -l -i "$DATA/do_fork.lst" >out
	expect out <<'E'
 Entry      Duration   Local       Pid    Trace
---------- ---------- ---------- ------- ---------------------------------
         4      20428        222      33 do_fork
         7          6          6      33 |  alloc_pidmap
        15      20100      20100      33 |  copy_process
        20         -1          -      33 |  |  dup_mm
----------- !!!! start --------------
       253        151         63      33 timer_interrupt
       256          8          8      -1 !  profile_tick
       266         80         40      -1 !  do_timer
       270         40         40      -1 !  !  update_process_times
----------- !!!! end ----------------
----------- @@@@ start --------------
       400        300        200      45 create_dir
       410        100        100      45 @  sysfs_new_dirent
----------- @@@@ end ----------------
      1000       5000       1000      33 |  |  |  create_dir
      1010       4000       4000      33 |  |  |  |  sysfs_new_dirent
     20200        100        100      33 |  wake_up_new_task
     20300         -1          -    33.1 |  schedule
E
	kft kd -l -n 4 "$DATA/do_fork.lst" >out
	expect out <<'E'
Function                            Count Time     Average  Local    Sub-time Max-sub                             Ms count
----------------------------------- ----- -------- -------- -------- -------- ----------------------------------- --------
do_fork                                 1    20428    20428      222    20206                        copy_process        1
copy_process                            1    20100    20100    20100        0                              dup_mm        1
create_dir                              2     5300     2650     1200     4100                    sysfs_new_dirent        2
sysfs_new_dirent                        2     4100     2050     4100        0                                            0
E
	# kd 1.1's numbers: -1 summed into Time, Local below zero
	kft kd --classic -f Fctalr -t -5 -s l --ascending -n 2 "$DATA/do_fork.lst" >out
	expect out <<'E'
Function                            Count Time     Average  Local    Range
----------------------------------- ----- -------- -------- -------- ------------
dup_mm                                  1       -1       -1    -5001      (-1--1)
schedule                                1       -1       -1       -1      (-1--1)
E
	kft kd -f FcNXMU -t 100 "$DATA/do_fork.lst" >out
	expect out <<'E'
Function                            Count Min      Max      Median   Unfinished
----------------------------------- ----- -------- -------- -------- ----------
do_fork                                 1    20428    20428    20428          0
copy_process                            1    20100    20100    20100          0
create_dir                              2      300     5000      300          0
sysfs_new_dirent                        2      100     4000      100          0
timer_interrupt                         1      151      151      151          0
wake_up_new_task                        1      100      100      100          0
E
	kft kd --slowest 1 create_dir "$DATA/do_fork.lst" >out
	expect out <<'E'
#1: create_dir, 5000 usec, entered at 1000 usec, pid 33
 Entry      Duration   Local       Pid    Trace
---------- ---------- ---------- ------- ---------------------------------
      1000       5000       1000      33 create_dir
      1010       4000       4000      33 |  sysfs_new_dirent
E
}

once_kd_errors() {
	printf -- '--------\n  1 2 3 f g\n  1 2 x f g\n' >bad.lst
	set +e
	kft kd bad.lst 2>err; rc=$?
	set -e
	check "fails" test $rc = 1
	expect err <<'E'
kft: bad.lst:3: 'x': not a PID
E
	set +e
	kft kd -s z bad.lst 2>err; rc=$?
	set -e
	check "bad sort" test $rc = 1
	check "says so" grep -q "Invalid sort order" err
	set +e
	kft kd missing.lst 2>err; rc=$?
	set -e
	check "missing file" test $rc = 1
	kft kd -h | grep -q "^usage: kft kd"
	kft kd -V | grep -q "kd 1.1"
	kft addr2sym --help | grep -q "^usage: kft addr2sym"
	set +e
	kft addr2sym x.log 2>err; rc=$?
	set -e
	check "addr2sym needs a map" test $rc = 1
	grep -q "no map file" err
	kft sym2addr --help | grep -q "^usage: kft sym2addr"
}

# Two static functions of one name, in two files, stay two rows.
test_kd_static_functions() {
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o libsame.so \
		"$PROGS/same/a.c" "$PROGS/same/b.c"
	"$TCC" -g "$TOPT" $INSTR -o libs "$PROGS/libs.c" -L. -lsame \
		-Wl,-rpath,"$PWD" -ldl
	"$TCC" -g "$TOPT" -fPIC -shared $INSTR -o plugin.so "$PROGS/plugin.c"
	kft record -- ./libs "$PWD/plugin.so"
	kft kd -f Fc -s c >out
	check "a.c's" grep -q "^create_dir \[a.c\]  *1$" out
	check "b.c's" grep -q "^create_dir \[b.c\]  *2$" out
	kft kd -f Fc --classic -s c >out
	check "classic merges them" grep -q "^create_dir  *3$" out
}

# Signal handlers are user space's interrupts: chains of their own,
# interlaced where they happened.
each_kd_signals_interlaced() {
	build signals
	kft record -- ./signals
	kft kd -c -i >out
	expect out <<'E'
 Trace
---------------------------------
main
|  normal
----------- !!!! start --------------
handler
!  in_handler
----------- !!!! end ----------------
|  normal
----------- @@@@ start --------------
handler
@  in_handler
----------- @@@@ end ----------------
E
	kft kd -c -l | awk 'NR > 2 && $5 ~ /handler/ { print $4 }' | sort -u | grep -c 'i$' >n
	check "pid marked i" test "$(cat n)" = 1
}

# The one-pass totals agree with the totals taken from the call trees, on
# threads, signal handlers, deep recursion, filtered levels and a ring.
each_kd_fast_totals_match_trees() {
	for p in threads signals deep phases; do build $p; done
	printf 'begin\nfilter mintime 200\nend\n' >gaps.conf
	printf 'begin\nlogentries 50\noverwrite\nend\n' >ring.conf
	for run in "threads" "signals" "deep 3000" "-c gaps.conf -- ./phases 2" \
		   "-c ring.conf -- ./phases 3"; do
		case $run in -c*) kft record $run >/dev/null ;; *) kft record -- ./$run >/dev/null ;; esac
		kft kd -f FctalsNXDU | tail -n +3 >fast
		# asking for Max-sub too takes the tree path
		kft kd -f FctalsNXDUm | tail -n +3 | cut -c1-131 | sed 's/ *$//' >tree
		check "same totals for '$run'" cmp fast tree
		check "rows for '$run'" test -s fast
	done
}

# Recursion counts once: the Time of a function recursing 1000 deep is
# its outermost call's, never more than the program's; every call still
# counts in Count, and the average is per call. The same from the log as
# text.
each_kd_recursion_counts_once() {
	build deep
	kft record -- ./deep 1000 >/dev/null
	for input in "" "-"; do
		if [ -z "$input" ]; then kft kd -f Fctal >sum; else kft log | kft kd -f Fctal - >sum; fi
		main=$(awk '$1 == "main" { print $3 }' sum)
		down=$(awk '$1 == "down" { print $3 }' sum)
		calls=$(awk '$1 == "down" { print $2 }' sum)
		check "all calls counted ($calls)" test "$calls" = 1001
		check "down's Time ($down) within main's ($main) [$input]" test "$down" -le "$main"
	done
	# kd 1.1's sum stays behind --classic: 1001 nested calls add up to far more
	kft kd --classic -f Fct >classic
	ctime=$(awk '$1 == "down" { print $3 }' classic)
	check "classic sums every level ($ctime vs $down)" test "$ctime" -gt $((down * 10 + 10))
}

# kd keeps the nanoseconds of `kft log --ns`: its answers are the trace's
# own, where a log in usec rounds each call down (sites: 20,000 calls of
# some 50 ns each)
once_kd_reads_a_log_in_nanoseconds() {
	build sites
	kft record -o t -- ./sites >/dev/null
	for opts in "" "-l" "-f FctalsmnuNXDMPQU -s l" "--classic" "-c -l" "-c -r -l"; do
		kft kd $opts t >trace
		kft log --ns t | kft kd $opts - >ns
		check "kd $opts: the log in ns as the trace" diff trace ns
	done
	kft kd t >trace
	kft log t | kft kd - >us
	check "a log in usec loses the short calls' time" sh -c '! diff -q trace us >/dev/null'
	check "titled in ns" grep -q "^  Entry (ns)   Delta (ns) " <(kft log --ns t)
}

# The seed's Appendix B log (KFI, kfiboot-9.lst): "A Delta value of 0
# usually means the exit from the routine was not seen". A KFI-era log
# (its callers titled "Called At") is read so: start_kernel is open and
# holds the boot; --zero-unfinished does the same for any log.
once_kd_kfi_log_zero_is_not_seen() {
	kft kd -c "$DATA/kfiboot-9-excerpt.lst" | sed -n '3,5p' >kfi
	expect kfi <<'E'
start_kernel
|  setup_arch
|  |  setup_memory
E
	check "start_kernel unfinished" \
		grep -qE '^ +1 +-1 +- +0 start_kernel$' <(kft kd -c -l "$DATA/kfiboot-9-excerpt.lst")
	kft kd -f FctU "$DATA/kfiboot-9-excerpt.lst" >sum
	check "its time '-', counted unfinished" grep -qE '^start_kernel +1 +- +1$' sum
	sed 's/Called At/Caller   /' "$DATA/kfiboot-9-excerpt.lst" >kft-layout.lst
	kft kd -c kft-layout.lst | sed -n '3,4p' >plain
	expect plain <<'E'
start_kernel
setup_arch
E
	kft kd -c --zero-unfinished kft-layout.lst >asked
	check "--zero-unfinished: as the KFI log" diff <(kft kd -c "$DATA/kfiboot-9-excerpt.lst") asked
}

# Text logs nest by caller name, so their trees are kept on disk
# (spooltree.c), read again as often as asked: a log from a pipe is first
# copied. Every option, on logs of threads, interrupts, signal handlers,
# unfinished calls and saved arguments, gives the same rows from a pipe
# as from the file.
once_kd_text_logs_from_a_pipe_as_from_the_file() {
	build threads
	kft record -o t -- ./threads >/dev/null
	kft log t >threads.log
	local i=0
	for log in "$DATA/do_fork.lst" "$DATA/kfiboot-9-excerpt.lst" "$ROOT"/tests/fuzz/corpus/text-log/* \
		   threads.log; do
		i=$((i + 1))
		sanitized_one_in 4 "$i"	# (the fuzzers read the corpus sanitized)
		for opts in "" "-l" "-f FctalsmnuNXDMPQU -s l" "--classic" "--classic -l" "-c" \
			    "-c -l" "-c -r -l" "-c -i -l" "-c --classic -l" "-c --classic -i -l" \
			    "-c --classic -r" "--slowest 2 create_dir" "--slowest 3 work" \
			    "--classic --slowest 1 main"; do
			kft kd $opts "$log" >file 2>&1 || true
			cat "$log" | kft kd $opts - >pipe 2>&1 || true
			check "kd $opts $(basename "$log"): from a pipe as from the file" \
				diff file pipe
		done
	done
	KFT=$KFT_SANITIZED
	kft kd -c -i threads.log >direct
	kft kd -c -i - <threads.log >from-file
	cat threads.log | kft kd -c -i - >from-pipe
	check "stdin as a file" diff direct from-file
	check "stdin as a pipe" diff direct from-pipe
}
