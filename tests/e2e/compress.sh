# SPDX-License-Identifier: GPL-2.0-only
# Compressed records (.kfz): the views read a trace the same compressed or
# raw, a killed run's half-compressed trace reads whole, and damage is
# reported, never a crash.

# same_views A B: every view prints the same for traces A and B
same_views() {
	local v
	for v in "kd" "kd -c" "kd -c -l" "kd -l" "kd -f FcaNXDMPQU -s P" "log" "log --ns" \
		 "ftrace" "ftrace --tracer function" "status"; do
		kft $v "$1" >a.out 2>&1 || true
		kft $v "$2" >b.out 2>&1 || true
		sed -i "s|$1|DIR|g" a.out
		sed -i "s|$2|DIR|g" b.out
		check "kft $v: $1 and $2 the same" diff a.out b.out
	done
	kft log "$2" | log_rows | sort | uniq -c >rows-b
	kft log "$1" | log_rows | sort | uniq -c >rows-a
	check "the same rows" diff rows-a rows-b
}

# one run, kept raw, then compressed by `kft compress`: threads, signal
# handlers, fork children, longjmp, deep recursion, and 25000 calls
test_views_same_raw_or_compressed() {
	for case in "threads" "signals" "procs" "jumps" "deep 300" "bursts 20000 0 5000"; do
		set -- $case
		prog=$1
		shift
		build $prog
		kft record --no-compress -o raw -- "./$prog" "$@" >/dev/null 2>&1 || true
		check "$prog: --no-compress writes no .kfz" test -z "$(ls raw | grep kfz || true)"
		for f in raw/thread-*.kft; do
			# cut to what it holds, not the room it grew (23 MiB at first)
			check "$f: raw, as long as it holds" test "$(stat -c %s "$f")" -lt 1048576
		done
		rm -rf z
		cp -r raw z
		kft compress z >said
		check "$prog: compress says what it did" grep -q "calls compressed now" said
		for f in z/thread-*.kft; do
			check "$f: compacted" test "$(stat -c %s "$f")" -lt 65536
		done
		# few records stay raw, in the compacted file; more go to a .kfz
		[ "$prog" != bursts ] || check "$prog: .kfz written" test -n "$(ls z | grep kfz)"
		same_views raw z
		rm -rf raw z
	done
}

# by default the records end up compressed, and the thread files hold only
# their header, open calls and sites (and a few records left raw: main's)
once_record_compresses() {
	build many
	kft record -o t -- ./many 300000 3 2>err
	check "nothing said" test ! -s err
	check "every call" test "$(calls_of t leaf)" = 900000
	check "a .kfz for each worker" test "$(ls t/*.kfz | wc -l)" = 3
	for f in t/thread-*.kft; do
		size=$(stat -c %s "$f")
		check "$f: compacted ($size bytes)" test "$size" -lt 65536
	done
	bytes=$(cat t/*.kfz | wc -c)
	check "under 4 bytes a call ($bytes bytes for 900000)" test "$bytes" -lt 3600000
}

# Threads that end one after another, each compressed by the helper as it
# ends (its slot then serves the next): every call, in every view.
once_threads_compressed_as_they_end() {
	build many
	KFT_COMPRESS_BEHIND=0 kft record -o t -- ./many 10000 4 15 >/dev/null
	check "a .kfz for each thread" test "$(ls t/*.kfz | wc -l)" = 60
	check "every call" test "$(calls_of t leaf)" = 600000
	check "every thread" test "$(calls_of t worker)" = 60
}

# Compressed while the program ran (nothing kept raw behind it), then the
# program and kft record were killed: the frames the helper wrote and
# the raw rest read as one, and `kft compress` then finishes the job.
once_killed_half_compressed_trace_reads() {
	build bursts
	KFT_COMPRESS_BEHIND=0 kft record -o killed -- ./bursts 200000 500 3000 kill >/dev/null 2>&1 || true
	check "the helper compressed some" test "$(stat -c %s killed/thread-*.kfz)" -gt 32
	check "every call" test "$(calls_of killed leaf)" = 203000
	cp -r killed before
	pid=$(ls killed | sed -n 's/^thread-1-\([0-9]*\)-0.kft$/\1/p')
	for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kft compress killed >said
	check "compressed the rest" grep -q " 1 thread files fully compressed" said
	same_views before killed
	check "all compressed now" test "$(stat -c %s killed/thread-*.kft)" -lt 65536
}

# A crash between writing a frame and giving its records back leaves the
# frame cut short and the records raw: the raw ones are read.
once_frame_cut_short_reads_raw() {
	build bursts
	kft record --no-compress -o raw -- ./bursts 50000 >/dev/null
	# raw, the file is its records and little else (not the room it grew)
	check "--no-compress: the file holds its records" test \
		"$(stat -c %s raw/thread-*.kft)" -le $(($(kft kd -f Fc raw | awk 'NR > 2 { s += $2 } END { print s }') * 16 + 65536))
	cp -r raw z
	kft compress z >/dev/null
	f=$(ls z | grep kfz)
	size=$(stat -c %s "z/$f")
	head -c $((size * 2 / 3)) "z/$f" >"raw/$f"
	same_views z raw
}

# A damaged frame: a warning, the other calls, no crash.
once_damaged_frame_reported() {
	build bursts
	kft record -o t -- ./bursts 50000 >/dev/null
	f=$(ls t/thread-*.kfz)
	printf 'XXXXXXXX' | dd of="$f" bs=1 seek=2000 conv=notrunc 2>/dev/null
	kft kd t >out 2>err
	check "a warning" grep -q "compressed blocks of 4096 calls failed their checksum" err
	check "the other calls" test "$(awk '$1 == "leaf" { print $2 }' out)" -ge 40000
	# a cut .kfz whose records were given back: the records past it are lost,
	# and said so, or read as naming no function; never a crash
	head -c 3000 "$f" >cut && mv cut "$f"
	rc=0
	kft kd t >out 2>err || rc=$?
	check "cut: no crash (rc $rc)" test $rc -le 1
}

# A thread of more than a ring's calls (2^20): its log wraps round a ring
# the helper keeps ahead of it (the file stops growing there), and every
# call is read, while the program runs, once it is killed, and after.
once_ring_wraps() {
	build bursts
	kft record -o ringed -- ./bursts 1500000 1500 500000 kill >/dev/null 2>&1 &
	local f=
	for _ in $(seq 100); do
		f=$(ls ringed/thread-*.kft 2>/dev/null || true)
		[ -n "$f" ] && [ "$(stat -c %s ringed/thread-*.kfz 2>/dev/null || echo 0)" -gt 1000000 ] && break
		sleep 0.1
	done
	sleep 0.5	# in the pause: 1,500,000 calls written, more than a ring's
	# the records' place (past the sites, 22 MiB in) and 16 MiB of ring,
	# not 23 MiB of records
	check "the file stops at the ring ($(stat -c %s "$f") bytes)" \
		test "$(stat -c %s "$f")" -le $(((38 << 20) + 8192))
	check "read while it runs: every call so far" test "$(calls_of ringed leaf)" = 1500000
	wait || true
	check "killed: every call" test "$(calls_of ringed leaf)" = 2000000
	check "killed: both bursts" test "$(calls_of ringed burst)" = 2
	cp -r ringed before
	kft compress ringed >said
	check "compressed the rest" grep -q " 1 thread files fully compressed" said
	same_views before ringed
	check "all compressed now" test "$(stat -c %s ringed/thread-*.kft)" -lt 65536
}
