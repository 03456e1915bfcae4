# SPDX-License-Identifier: GPL-2.0-only
# Static runs (kft embed, as KFT's kftstatic.conf): a program linked with
# the C kft embed writes traces itself, with no kft record.

embed_build() {
	printf 'begin\n  filter funclist early work fend\nend\n' >self.conf
	kft embed self.conf -o kft-static.c -d self.data
	build selftrace "$PWD/kft-static.c" -I"$ROOT/include" -L"$KFT_BUILD/lib" \
		-Wl,-rpath,"$KFT_BUILD/lib" -lkft
}

test_static_run() {
	embed_build
	./selftrace >out
	check "its own output" grep -q "^sink 7$" out
	rows self.data >rows
	expect rows <<'E'
early <- setup
work <- main
work <- main
work <- main
E
	kft status self.data >st
	check "the run is complete when the program has ended" \
		grep -q "^status: run id 1, primed, triggered, complete$" st
	check "and says when it ended" grep -q "^  program ended at [0-9]* usec$" st
	check "the config as embedded" grep -q "^  filter funclist early work fend$" st
	# a second run leaves the first alone
	./selftrace >/dev/null
	check "a second run: a new directory" test -d self.data.1
	check "... the first one as it was" test "$(rows self.data | wc -l)" = 4
	check "... the second one whole" test "$(rows self.data.1 | wc -l)" = 4
	# KFT_DIR names it
	KFT_DIR=$PWD/mine ./selftrace >/dev/null
	check "KFT_DIR: there" test "$(rows mine | grep -c '^work <- main$')" = 3
	# under kft record, kft record's trace and config win
	kft record -o rec -- ./selftrace >/dev/null
	check "under kft record: every call, into its trace" test "$(calls_of rec main)" = 1
	check "... and no static directory" test ! -e self.data.2
	kft compress self.data
	check "kft compress finishes a static trace" test "$(rows self.data | wc -l)" = 4
}

once_embed_errors() {
	printf 'begin\n  filter mintme 5\nend\n' >bad.conf
	refused kft embed bad.conf 2>err
	check "a bad config: file, line and word" \
		grep -q "^kft: bad.conf:2: 'mintme': unknown filter" err
	refused kft embed 2>err
	check "no config: said" grep -q "^kft: embed: one CONFIG file" err
	printf 'begin\nend\n' >ok.conf
	kft embed ok.conf -d 'we"ird\dir' >c.c
	check "the C compiles, a quote and a backslash in the name escaped" \
		"$TCC" -c -Wall -Werror -o c.o c.c
}
