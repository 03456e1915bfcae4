// SPDX-License-Identifier: GPL-2.0-only
/* addr2sym and sym2addr, line by line, and the maps they read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "symbols/rewrite.h"

static struct kft_symmap map;
static char path[] = "/tmp/kft-test-map-XXXXXX";

static int load(const char *text)
{
	struct kft_error err;
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	kft_symmap_free(&map);
	return kft_symmap_load(&map, path, &err);
}

static const char system_map[] =
	"c0100000 T _stext\n"
	"c0100208 T start_kernel\n"
	"c0100300 t L6\n"		/* a label: no type T/t... it is t here */
	"c0100400 D some_data\n"
	"c0100500 t create_dir\n"
	"c0100600 t create_dir\n"
	"c0100700 W weak_fn\n"
	"         U undefined_in_nm\n";

static char *a2s(const char *line)
{
	static char out[512];
	FILE *f = fmemopen(out, sizeof(out), "w");
	struct kft_addr2sym a = { .map = &map };

	kft_addr2sym_line(f, &a, line);
	fclose(f);
	return out;
}

static void test_addr2sym_columns(void **state)
{
	assert_int_equal(load(system_map), 0);
	/* exact: the bare name; inside: name+0xoff; the caller keeps its column */
	assert_string_equal(a2s("       0    20428      33  0xc0100208                       0xc0100224\n"),
			    "       0    20428      33  start_kernel                     start_kernel+0x1c\n");
	/* upper case, and every address of the line */
	assert_string_equal(a2s("0XC0100208 0xC0100504 0xc0100604 end\n"),
			    "start_kernel create_dir+0x4 create_dir+0x4 end\n");
	/* outside the map, or not an address: as it was */
	assert_string_equal(a2s("0xbf000000 0xc0800000 0x12g x0xc0100208\n"),
			    "0xbf000000 0xc0800000 0x12g x0xc0100208\n");
	/* a name longer than the column still gets one space */
	assert_string_equal(a2s("0xc0100208 x\n"), "start_kernel x\n");
	/* data symbols never name code: 0xc0100404 is in L6 */
	assert_string_equal(a2s("0xc0100404\n"), "L6+0x104\n");
	/* the header lines of a raw log */
	assert_string_equal(a2s("Logging started at 5 usec by entry to function 0xc0100208\n"),
			    "Logging started at 5 usec by entry to function start_kernel\n");
}

/* A PIE's map: its addresses taken back by the load base the text's
 * "Load base of" line gives for the map's file (by name: the file of the
 * line is not on this machine), other files' lines passed over. */
static void test_addr2sym_load_base(void **state)
{
	char text[512], out[1024];
	const char *name = strrchr(path, '/') + 1;
	struct kft_addr2sym a = { .map = &map };
	FILE *in, *f;

	(void)state;
	assert_int_equal(load(system_map), 0);
	map.pie = true;
	snprintf(text, sizeof(text),
		 "Load base of /elsewhere/%s: 0x0000555500000000\n"
		 "Load base of /elsewhere/other: 0x0000777700000000\n"
		 "0x00005555c0100208 0x00005555c0100210 0x00007777c0100208\n", name);
	in = fmemopen(text, strlen(text), "r");
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(kft_addr2sym_stream(f, &a, in), 0);
	fclose(f);
	fclose(in);
	assert_int_equal(a.nbases, 1);
	assert_true(a.bases[0] == 0x555500000000ULL);
	/* the two base lines as they were, then the addresses */
	assert_string_equal(strchr(strchr(out, '\n') + 1, '\n') + 1,
			    "start_kernel       start_kernel+0x8   0x00007777c0100208\n");
	assert_int_equal(a.missed, 1);
	map.pie = false;
}

static void test_kallsyms(void **state)
{
	assert_int_equal(load("ffffffff81000000 T _text\n"
			      "ffffffff810a1b20 T do_fork\n"
			      "ffffffffc0a01000 t mod_fn\t[mymod]\n"), 0);
	assert_int_equal(map.addr_digits, 16);
	assert_string_equal(a2s("0xffffffffc0a01010\n"), "mod_fn+0x10\n");
	{
		const struct kft_mapsym *s = kft_symmap_lookup(&map, 0xffffffffc0a01010ULL);

		assert_non_null(s);
		assert_string_equal(s->module, "mymod");
	}
}

static void test_bad_map(void **state)
{
	struct kft_error err;
	FILE *f = fopen(path, "w");

	fputs("c0100000 T ok\nthis is not a map line at all\n", f);
	fclose(f);
	kft_symmap_free(&map);
	assert_int_equal(kft_symmap_load(&map, path, &err), -1);
	assert_non_null(strstr(err.msg, ":2: not a symbol map line"));
	f = fopen(path, "w");
	fputs("c0100000 D only_data\n", f);
	fclose(f);
	assert_int_equal(kft_symmap_load(&map, path, &err), -1);
	assert_non_null(strstr(err.msg, "no function symbols"));
}

static void test_sym2addr(void **state)
{
	char out[1024], warn[1024];
	FILE *o, *w;
	struct kft_sym2addr_state st = { .origin = "c.conf" };
	static const char *conf[] = {
		"new # a comment with start_kernel\n",
		"begin\n",
		"  trigger start entry start_kernel\n",
		"  trigger stop exit create_dir\n",
		"  filter funclist weak_fn, create_dir,\n",
		"    no_such_fn fend\n",
		"  filter mintime 500\n",
		"end\n",
	};

	assert_int_equal(load(system_map), 0);
	o = fmemopen(out, sizeof(out), "w");
	w = fmemopen(warn, sizeof(warn), "w");
	for (size_t i = 0; i < sizeof(conf) / sizeof(conf[0]); i++)
		kft_sym2addr_line(o, w, &map, &st, conf[i]);
	fclose(o);
	fclose(w);
	assert_string_equal(out,
		"new # a comment with start_kernel\n"
		"begin\n"
		"  trigger start entry 0xc0100208\n"
		"  trigger stop exit 0xc0100500\n"
		"  filter funclist 0xc0100700, 0xc0100500 0xc0100600,\n"
		"    no_such_fn fend\n"
		"  filter mintime 500\n"
		"end\n");
	assert_string_equal(warn,
		"c.conf:4: 'create_dir' is at 2 addresses; used 0xc0100500 (also 0xc0100600)\n"
		"c.conf:6: 'no_such_fn': no such function in the map; kept\n");
}

static int teardown(void **state)
{
	kft_symmap_free(&map);
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr2sym_columns),
		cmocka_unit_test(test_addr2sym_load_base),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_bad_map),
		cmocka_unit_test(test_sym2addr),
	};
	int fd = mkstemp(path);

	close(fd);
	return cmocka_run_group_tests_name("rewrite", tests, NULL, teardown);
}
