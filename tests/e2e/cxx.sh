# SPDX-License-Identifier: GPL-2.0-only
# C++: names demangled in every view (--no-demangle keeps them), written
# as in the source in configs, and exceptions through traced frames with
# every instrumentation.

# kd's tree without its header
tree() { kft kd -c "$@" | sed -e 1,2d; }

test_cxx_names_and_exceptions() {
	build_cxx cxx
	kft record -o t -- ./cxx
	tree t >got
	cat >want <<'E'
main
|  ns::Foo::bar(int)const
|  ns::Foo::bar(double)const
|  ns::twice<int>
|  catcher
|  |  middle
|  |  |  thrower
|  catcher
|  |  middle
|  |  |  thrower
|  outer
|  |  rethrower
|  |  |  guarded
|  |  |  |  middle
|  |  |  |  |  thrower
|  |  |  |  Guard::~Guard
|  |  |  |  |  cleanup
E
	# gcc's -finstrument-functions calls the exit hooks as an exception
	# leaves each function, and kft puts -pg's return addresses back before
	# unwinding; clang's -finstrument-functions calls none, so a destructor
	# run while unwinding may nest under the call it unwinds (those are
	# closed when the handler catches): a known limit, left out here
	if [ "$TCC $TINSTR" = "clang -finstrument-functions" ]; then
		sed -i '/Guard::~Guard/,$d' got want
	fi
	check "the tree" diff want got
	kft log t | log_rows >rows
	check "log: demangled" grep -q "^ns::twice<int> <- main$" rows
	kft ftrace t >graph
	check "ftrace: demangled" grep -q "ns::Foo::bar() {\\|ns::Foo::bar();" graph
	# overloads told apart by their parameters where they share a name
	check "kd: both overloads" test "$(kft kd -f Fc t | grep -c "^ns::Foo::bar(\\(int\\|double\\))const *1$")" = 2
	kft kd --no-demangle -f F t >raw
	check "--no-demangle" grep -q "^_ZNK2ns3Foo3barEi" raw
	kft log --no-demangle t | grep -q "_Z5twiceIiET_S0_\\|_ZN2ns5twiceIiEET_S1_"
	kft ftrace --no-demangle t | grep -q "_ZN2ns5twiceIiEET_S1_"
}

test_cxx_config_names() {
	build_cxx cxx
	printf 'begin\n  filter funclist ns::Foo::bar ns::twice<int> fend\nend\n' >f.conf
	kft record -c f.conf -o f -- ./cxx
	tree f >got
	expect got <<'E'
ns::Foo::bar(int)const
ns::Foo::bar(double)const
ns::twice<int>
E
	# one overload, by its parameters ("const" need not be said)
	printf 'begin\n  trigger start entry ns::Foo::bar(double)\n  filter funclist ns::Foo::bar ns::twice<int> fend\nend\n' >g.conf
	kft record -c g.conf -o g -- ./cxx
	tree g >got
	expect got <<'E'
ns::Foo::bar
ns::twice<int>
E
	# as the source writes it, blanks and "const" included
	printf 'begin\n  trigger start entry ns::Foo::bar(double) const\n  filter funclist ns::Foo::bar ns::twice<int> fend\nend\n' >k.conf
	kft record -c k.conf -o k -- ./cxx
	tree k >got.k
	expect got.k <got
	printf 'begin\n  trigger start entry ns::Foo::baz\nend\n' >h.conf
	refused kft record -c h.conf -o h -- ./cxx 2>err
	check "an unknown C++ name is named" grep -q "h.conf:2: 'ns::Foo::baz': no function of that name" err
}

# --libcalls: the program's call of operator new; --libcalls=all: also
# operator new's own call of malloc, one library calling another
test_library_calls_between_libraries() {
	build_cxx newdelete
	kft record --libcalls -o own -- ./newdelete
	kft kd -c own | grep -A1 '^|  |  operator new$' >own.tree
	expect own.tree <<'E'
|  |  operator new
|  |  operator delete
E
	kft record --libcalls=all -o all -- ./newdelete
	kft kd -c all | grep -A1 '^|  |  operator new$' >all.tree
	expect all.tree <<'E'
|  |  operator new
|  |  |  malloc
E
	refused kft record --libcalls=some -o x -- ./newdelete 2>err
	check "an unknown word" grep -q "^kft: record: --libcalls=some: the only word it takes is all$" err
}

# exceptions through functions patched as they load (no instrumentation
# flag): the unwinder finds the return addresses kft took put back
each_plain_cxx_names_and_exceptions() { INSTR=$(plain_flags) TINSTR=plain test_cxx_names_and_exceptions; }

# a C++ library built without instrumentation, patched as it loads
# (--lib): an exception thrown through its functions, a destructor run as
# it unwinds, each call closed where it was
each_plain_library_exceptions() {
	local cxx=g++
	[ "$TCC" = clang ] && cxx=clang++
	"$cxx" -g "$TOPT" -Wall -Werror -fPIC -shared -o libcxxlib.so "$PROGS/cxxlib.cc"
	"$cxx" -g "$TOPT" -Wall -Werror -o cxxlib-main "$PROGS/cxxlib-main.cc" -L. -lcxxlib \
		-Wl,-rpath,'$ORIGIN'
	./cxxlib-main >alone
	kft record --lib libcxxlib.so -- ./cxxlib-main >out 2>err
	check "the output is the untraced run's" cmp alone out
	# (at -O0 the destructor is a function of its own, between them)
	tree | grep -v 'Guard::~Guard' | sed 's/^|  |  |  lib_cleanup$/|  |  lib_cleanup/' >got
	for _ in 1 2 3 4 5 6; do
		printf '|  lib_middle\n|  |  lib_thrower\n|  |  lib_cleanup\n'
	done | sed '1i main' >want
	check "the tree" diff want got
	check "nothing left open" test "$(kft log | grep -c -- ' -1 ')" = 0
}

# Rust's names, legacy and v0, demangled without their hash (as rustfilt
# shows them) in every view; --no-demangle as the symbol table has them
once_rust_names() {
	[ -x /usr/bin/rustc ] || { echo "no rustc (Debian's rustc package)"; return 77; }
	for scheme in legacy v0; do
		# (legacy: rustc's default, which it takes no flag for)
		/usr/bin/rustc -O -g $([ $scheme = v0 ] && echo -C symbol-mangling-version=v0) \
			-o rn-$scheme "$PROGS/rustnames.rs"
		kft record -o $scheme -- ./rn-$scheme >out 2>/dev/null
		expect out <<<"55 42 true"
		# (v0 names a generic's instance: twice::<u64>)
		kft kd -f Fc $scheme | awk '$1 ~ /^rustnames::/ { sub(/::<.*/, "", $1); print $1 }' |
			sort -u >names
		expect names <<'E'
rustnames::fails
rustnames::fib
rustnames::main
rustnames::twice
E
		kft kd $scheme >kd
		check "$scheme: no hash, no mangled name" sh -c "! grep -q -E '::h[0-9a-f]{16}|^_R|^_ZN' kd"
		kft ftrace $scheme >ft
		check "$scheme: ftrace too" grep -q 'rustnames::fib();' ft
	done
	kft kd --no-demangle -f F legacy >raw
	check "--no-demangle: legacy as it is" grep -q '^_ZN9rustnames3fib17h[0-9a-f]*E$' raw
}
