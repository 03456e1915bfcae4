# SPDX-License-Identifier: GPL-2.0-only
# A trace names its own functions: the program rebuilt, removed or
# stripped after the run changes nothing, and a rebuild is said.

# every view of trace $1, into files named $2.*
views() {
	kft kd -c "$1" >"$2.tree" 2>"$2.err"
	kft log "$1" 2>/dev/null | log_rows >"$2.rows"
	kft ftrace "$1" 2>/dev/null | norm >"$2.graph"
}

test_names_survive_a_rebuild() {
	build calls
	kft record -o t -- ./calls >/dev/null
	check "symbols saved" test -s t/symbols
	views t before
	check "no warning" test ! -s before.err
	check "names" grep -q "^|  |  leaf$" before.tree
	# the same program with a function more, before the others: every
	# address moves
	sed 's/^static volatile int sink;/&\n__attribute__((used)) static void pad(void) { sink += 3; sink *= 5; sink -= 7; }/' \
		"$PROGS/calls.c" >calls2.c
	"$TCC" -g "$TOPT" $INSTR -o calls calls2.c
	views t rebuilt
	for v in tree rows graph; do
		check "rebuilt: $v the same" diff before.$v rebuilt.$v
	done
	check "rebuilt: said" grep -q "^kft: warning: $PWD/calls has changed since the trace was recorded (build-id [0-9a-f]*, now [0-9a-f]*); its names come from the trace$" rebuilt.err
	rm calls
	views t gone
	for v in tree rows graph; do
		check "removed: $v the same" diff before.$v gone.$v
	done
	check "removed: nothing to say" test ! -s gone.err
	# elsewhere: another directory, the program nowhere
	mv t elsewhere
	views elsewhere moved
	check "moved: the same" diff before.tree moved.tree
}

# A stripped program whose symbols are in a separate debug file
# (.gnu_debuglink): named from there, static functions too.
test_stripped_program_debug_file() {
	build calls
	objcopy --only-keep-debug calls calls.debug
	strip calls
	objcopy --add-gnu-debuglink=calls.debug calls
	kft record -o t -- ./calls >/dev/null
	kft kd -c t >tree
	check "static functions named" grep -q "^|  |  leaf$" tree
	check "from the debug file, saved" grep -q "	calls.c$" t/symbols
	rm calls.debug
	kft kd -c t >again
	check "the debug file gone: the same" diff tree again
}

# A program stripped the way some distributions ship them, with its
# function symbols in MiniDebugInfo (.gnu_debugdata: a small ELF file,
# xz-compressed): the runtime finds the config's functions there, and the
# views name every call from it.
test_stripped_program_minidebuginfo() {
	build calls
	nm calls --format=posix --defined-only | awk '$2 ~ /^[Tt]$/ { print $1 }' >keep
	objcopy --only-keep-debug calls mini.debug
	objcopy -S --remove-section .comment --keep-symbols=keep mini.debug mini
	strip --strip-all calls
	xz mini
	objcopy --add-section .gnu_debugdata=mini.xz calls
	printf 'begin\n\ttrigger start entry middle\nend\n' >cfg
	kft record -c cfg -o t -- ./calls >/dev/null
	rm t/symbols
	kft kd -c t | sed 1,2d >tree
	expect tree <<'E'
middle
|  leaf
|  leaf
leaf
middle
|  leaf
E
}

# A damaged symbols file: a warning, names from the files on disk.
once_damaged_symbols_file() {
	build calls
	kft record -o t -- ./calls >/dev/null
	kft kd t >good
	printf 'f zz\n' >>t/symbols
	kft kd t >out 2>err
	check "warned" grep -q "^kft: warning: t/symbols: corrupt near line [0-9]*; names come from the files on disk$" err
	check "names from disk" diff good out
}
