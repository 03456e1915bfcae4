#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the hooks' path may call in the C library, checked on the built
# libkft.so: system calls only, outside the functions that keep the
# program's vector registers (those that call kft_vec_keep, see
# src/runtime/vector-state.h). A string or memory routine of the C
# library runs an AVX or AVX-512 build that changes vector registers the
# hook stubs do not save. Prints each call found with the chain of
# functions that reaches it from a hook, and exits 1; silent and 0 when
# there is none. Calls through pointers are not followed.
#
# And nothing in libkft.so calls the program's allocator (a program may
# define malloc, count its calls, be the code traced): it imports none of
# the C library's allocating routines, nor those that allocate inside
# (stdio, qsort's copy, pthread_getattr_np's CPU set). What libelf and
# libstdc++ allocate (the config's names looked up in a library as it
# loads; --libcalls; a C++ name demangled) is said in kft-record(1).
#
# Nor libzstd (the runtime writes Rice alone), nor its own dlopen: the
# libraries kft reads with (liblzma, libstdc++) are opened through the C
# library's (common/own-lib.c), not the interposer that saves maps and
# patches for the program's.
#
#   tests/hook-calls.sh [BUILD_DIR]     (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-build}/lib/libkft.so
[ -e "$lib" ] || { echo "hook-calls: no $lib (make first)"; exit 1; }
case $(uname -m) in x86_64) ;; *) exit 0 ;; esac

allocating="malloc calloc realloc reallocarray free strdup strndup asprintf vasprintf
qsort qsort_r fopen fdopen getline getdelim open_memstream pthread_getattr_np realpath"
imports=$(nm -D --undefined-only "$lib" | awk '{ sub(/@.*/, "", $2); print $2 }')
# (but the C library's free of what __cxa_demangle allocated, in
# kft_demangle alone)
free_callers=$(objdump -d --no-show-raw-insn "$lib" | awk '
	/^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); next }
	/\t(call|jmp) +[0-9a-f]+ <free@plt>$/ { print fn }' | sort -u | tr '\n' ' ')
bad_imports=0
for f in $allocating; do
	[ "$f" = free ] && [ "$free_callers" = "kft_demangle " ] && continue
	if grep -qx "$f" <<<"$imports"; then
		echo "hook-calls: libkft.so calls $f, which allocates with the program's malloc"
		bad_imports=1
	fi
done
needed=$(objdump -p "$lib" | awk '$1 == "NEEDED" { print $2 }')
if grep -q zstd <<<"$needed"; then
	echo "hook-calls: libkft.so needs libzstd"
	bad_imports=1
fi
own_dlopen=$(objdump -d --no-show-raw-insn "$lib" | awk '/\t(call|jmp) +[0-9a-f]+ <dlopen@plt>$/')
if [ -n "$own_dlopen" ]; then
	echo "hook-calls: libkft.so calls its own dlopen (the interposer), not the C library's"
	bad_imports=1
fi
[ $bad_imports = 0 ] || exit 1

# the C side of every hook stub: -pg and patched functions, their
# returns, library calls, and the paths every hook may take
roots="kft_pg_entry kft_pg_exit kft_pg_entry_short kft_pg_exit_short kft_plt_entry
kft_entry_general kft_exit_general"
# system calls and the vDSO: no vector register is touched
syscalls="__errno_location clock_gettime close fallocate fstat ftruncate getpid gettid
madvise mmap mprotect mremap munmap nanosleep open openat process_vm_readv pwrite read
sched_getcpu syscall unlinkat write"

objdump -d --no-show-raw-insn "$lib" | awk -v roots="$roots" -v syscalls="$syscalls" '
/^[0-9a-f]+ <.*>:$/ { fn = substr($2, 2, length($2) - 3); known[fn] = 1; next }
/\t(call|jmp) +[0-9a-f]+ <[^>]+>$/ {
	to = $NF
	sub(/^</, "", to); sub(/>$/, "", to); sub(/\+0x[0-9a-f]+$/, "", to)
	if (to == fn) next
	if (to == "kft_vec_keep") keeps[fn] = 1
	calls[fn] = calls[fn] " " to
}
END {
	n = split(syscalls, s, /[ \n]+/)
	for (i = 1; i <= n; i++) allowed[s[i] "@plt"] = 1
	n = split(roots, r, /[ \n]+/)
	for (i = 1; i <= n; i++) {
		if (!(r[i] in known)) { print "hook-calls: no function " r[i] " in libkft.so"; bad = 1; continue }
		stack[++top] = r[i]; from[r[i]] = ""; seen[r[i]] = 1
	}
	while (top) {
		f = stack[top--]
		if (f in keeps) continue
		if (f ~ /@plt$/) {
			if (f in allowed) continue
			chain = f
			for (g = from[f]; g != ""; g = from[g]) chain = chain " <- " g
			print "hook-calls: " chain
			bad = 1
			continue
		}
		m = split(calls[f], c, " ")
		for (j = 1; j <= m; j++)
			if (!(c[j] in seen)) { seen[c[j]] = 1; from[c[j]] = f; stack[++top] = c[j] }
	}
	exit bad
}'
