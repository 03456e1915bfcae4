// SPDX-License-Identifier: GPL-2.0-only
/* C++ names, and the symbols file a trace saves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/demangle.h"
#include "symbols/elf-symtab.h"
#include "symbols/saved-symbols.h"
#include "symbols/symbolizer.h"

static void test_demangle(void **state)
{
	char *d = kft_demangle("_ZNK2ns3Foo3barEi");

	(void)state;
	if (!d)
		skip();	/* no C++ runtime on this machine */
	assert_string_equal(d, "ns::Foo::bar(int) const");
	free(d);
	assert_null(kft_demangle("main"));
	assert_null(kft_demangle("_Znot_a_name"));
}

static void base(const char *demangled, const char *want)
{
	char out[256];

	kft_demangle_base(demangled, out, sizeof(out));
	assert_string_equal(out, want);
}

static void test_demangle_base(void **state)
{
	(void)state;
	base("ns::Foo::bar(int) const", "ns::Foo::bar");
	base("int ns::twice<int>(int)", "ns::twice<int>");	/* a template's return type */
	base("std::pair<int, int> f<std::pair<int, int> >(int)", "f<std::pair<int,int>>");
	base("ns::Foo::operator()(int)", "ns::Foo::operator()");
	base("ns::operator<<(std::ostream&, ns::Foo const&)", "ns::operator<<");
	base("ns::Foo::operator new(unsigned long)", "ns::Foo::operator new");
	base("(anonymous namespace)::helper(int)", "(anonymous namespace)::helper");
	base("ns::scale<unsigned int, 2>(unsigned int)", "ns::scale<unsigned int,2>");
	base("ns::Foo::Foo()", "ns::Foo::Foo");
}

static void test_demangled_matches(void **state)
{
	(void)state;
	assert_true(kft_demangled_matches("ns::Foo::bar(int) const", "ns::Foo::bar"));
	assert_true(kft_demangled_matches("ns::Foo::bar(int) const", "ns::Foo::bar(int)"));
	assert_true(kft_demangled_matches("ns::Foo::bar(int) const", "ns::Foo::bar(int)const"));
	assert_false(kft_demangled_matches("ns::Foo::bar(int) const", "ns::Foo::bar(double)"));
	assert_false(kft_demangled_matches("ns::Foo::bar(int) const", "ns::Foo::ba"));
	assert_true(kft_demangled_matches("ns::Foo::bar(double) const [clone .isra.0]",
					  "ns::Foo::bar(double)"));
	assert_true(kft_demangled_matches("int ns::twice<int>(int)", "ns::twice<int>"));
	/* one blank between two words is part of the name */
	assert_true(kft_demangled_matches("ns::Foo::operator new(unsigned long)",
					  "ns::Foo::operator new"));
	assert_true(kft_demangled_matches("ns::Foo::operator new(unsigned long)",
					  "ns::Foo::operator new(unsigned  long)"));
	assert_false(kft_demangled_matches("ns::Foo::operator new(unsigned long)",
					   "ns::Foo::operatornew"));
	assert_true(kft_is_cxx_name("ns::f"));
	assert_true(kft_is_cxx_name("f(int)"));
	assert_false(kft_is_cxx_name("main"));
	/* a global operator names itself, with nothing around it */
	assert_true(kft_is_cxx_name("operator new"));
	assert_true(kft_is_cxx_name("operator<<"));
	assert_true(kft_demangled_matches("operator new(unsigned long)", "operator new"));
	assert_true(kft_demangled_matches("operator delete(void*, unsigned long)",
					  "operator delete"));
	assert_false(kft_is_cxx_name("operators"));
	assert_false(kft_is_cxx_name("operator_table"));
}

/* A symbols file read back; damage is an error naming the line. */
static void test_symbols_file(void **state)
{
	char dir[] = "/tmp/kft-test-symbols.XXXXXX", path[256];
	struct kft_saved_symbols ss;
	struct kft_error err;
	const struct kft_elf_sym *s;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/symbols", dir);
	f = fopen(path, "w");
	fputs("kft-symbols 1\nmodule /bin/prog\nbuild-id 0a0b\ndynamic 1\nload 0 0 1000\n"
	      "load 1000 1000 2d9\nf 1159 4b l leaf\tcalls.c\nf 125e 71 g main\n", f);
	fclose(f);
	assert_int_equal(kft_symbols_load(&ss, dir, &err), 0);
	assert_int_equal(ss.nmods, 1);
	assert_string_equal(ss.mods[0].path, "/bin/prog");
	assert_int_equal(ss.mods[0].elf.build_id_len, 2);
	assert_int_equal(ss.mods[0].elf.nloads, 2);
	s = kft_elf_lookup(&ss.mods[0].elf, 0x1160);
	assert_non_null(s);
	assert_string_equal(s->name, "leaf");
	assert_string_equal(s->file, "calls.c");
	assert_true(s->local);
	assert_string_equal(kft_elf_lookup(&ss.mods[0].elf, 0x1260)->name, "main");
	kft_symbols_free(&ss);

	f = fopen(path, "a");
	fputs("f 1000 zz g bad\n", f);	/* and out of order */
	fclose(f);
	assert_int_equal(kft_symbols_load(&ss, dir, &err), -1);
	assert_non_null(strstr(err.msg, "corrupt near line 9"));
	unlink(path);
	assert_int_equal(kft_symbols_load(&ss, dir, &err), 0);	/* none: fine */
	assert_int_equal(ss.nmods, 0);
	rmdir(dir);
}

/* Write dir/maps-1 from text. */
static void write_maps(const char *dir, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/maps-1", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A range that went from one file to another after a dlclose: a call is
 * named by the map of its epoch; without such a close, one epoch. */
static void test_map_epochs(void **state)
{
	char dir[] = "/tmp/kft-test-maps.XXXXXX", path[256];
	struct kft_symbolizer *sz;
	struct kft_symbol sym;
	struct kft_error err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_maps(dir, "# kft-maps 100\n"
			"7f0000001000-7f0000002000 r-xp 00001000 fe:00 1 /bin/sh\n"
			"# kft-maps 500 close\n"
			"7f0000001000-7f0000002000 r-xp 00001000 fe:00 1 /bin/sh\n"
			"# kft-maps 600\n"
			"7f0000001000-7f0000002000 r-xp 00001000 fe:00 2 /bin/ls\n");
	sz = kft_symbolizer_new_from_disk(dir, &err);
	assert_non_null(sz);
	assert_int_equal(kft_symbolizer_epochs(sz, 1), 2);
	assert_true(kft_symbolizer_image(sz, 1, 400) == KFT_IMAGE(1, 0));
	assert_true(kft_symbolizer_image(sz, 1, 700) == KFT_IMAGE(1, 1));
	kft_symbolize(sz, kft_symbolizer_image(sz, 1, 400), 0x7f0000001100, &sym);
	assert_string_equal(sym.module, "/bin/sh");
	kft_symbolize(sz, kft_symbolizer_image(sz, 1, 700), 0x7f0000001100, &sym);
	assert_string_equal(sym.module, "/bin/ls");
	kft_symbolizer_free(sz);

	/* closed and opened again in the same place: nothing reused */
	write_maps(dir, "# kft-maps 100\n"
			"7f0000001000-7f0000002000 r-xp 00001000 fe:00 1 /bin/sh\n"
			"# kft-maps 500 close\n"
			"7f0000001000-7f0000002000 r-xp 00001000 fe:00 1 /bin/sh\n"
			"# kft-maps 600\n"
			"7f0000001000-7f0000002000 r-xp 00001000 fe:00 1 /bin/sh\n");
	sz = kft_symbolizer_new_from_disk(dir, &err);
	assert_non_null(sz);
	assert_int_equal(kft_symbolizer_epochs(sz, 1), 1);
	assert_true(kft_symbolizer_image(sz, 1, 700) == 1);
	kft_symbolizer_free(sz);
	snprintf(path, sizeof(path), "%s/maps-1", dir);
	unlink(path);
	rmdir(dir);
}

/* This program's mappings, as /proc/self/maps gives them, into out. */
static void own_maps(char *out, size_t size, const char *exe)
{
	char line[4352];
	size_t len = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, exe) && len + strlen(line) < size)
			len += (size_t)sprintf(out + len, "%s", line);
	fclose(f);
	assert_true(len > 0);
}

/* A file closed, rebuilt and opened again at its place: the snapshots'
 * build-ids make two epochs of it, and a call into the build that is not
 * the file's now gets no name from the file (with a warning), where one
 * into the file's own build does. */
static void test_other_build(void **state)
{
	char dir[] = "/tmp/kft-test-maps.XXXXXX", path[256], exe[4096], maps[16384];
	char text[65536], real[129] = "", line[256];
	uint64_t func = (uintptr_t)test_map_epochs;
	struct kft_symbolizer *sz;
	struct kft_symbol sym;
	struct kft_elf elf;
	struct kft_error err;
	char *const *warnings;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	assert_int_equal(kft_elf_open_headers(&elf, exe, &err), 0);
	if (!elf.build_id_len) {
		kft_elf_close(&elf);
		skip();	/* built without a build-id */
	}
	for (size_t i = 0; i < elf.build_id_len; i++)
		sprintf(real + 2 * i, "%02x", elf.build_id[i]);
	kft_elf_close(&elf);
	own_maps(maps, sizeof(maps), exe);
	assert_non_null(mkdtemp(dir));
	/* (the notes are where the code is, as far as the reader cares) */
	snprintf(line, sizeof(line), "# build-id %" PRIx64 " ", func);
	snprintf(text, sizeof(text), "# kft-maps 100\n%s%s0123456789abcdef\n# kft-maps 500 close\n"
		 "%s%s0123456789abcdef\n# kft-maps 600\n%s%s%s\n", maps, line, maps, line, maps,
		 line, real);
	write_maps(dir, text);
	sz = kft_symbolizer_new_from_disk(dir, &err);
	assert_non_null(sz);
	assert_int_equal(kft_symbolizer_epochs(sz, 1), 2);
	assert_false(kft_symbolize(sz, kft_symbolizer_image(sz, 1, 400), func, &sym));
	assert_string_equal(sym.module, exe);
	assert_int_equal(kft_symbolizer_take_warnings(sz, &warnings), 1);
	assert_non_null(strstr(warnings[0], "rebuilt or replaced while the program ran"));
	assert_true(kft_symbolize(sz, kft_symbolizer_image(sz, 1, 700), func, &sym));
	assert_string_equal(sym.name, "test_map_epochs");
	kft_symbolizer_free(sz);
	snprintf(path, sizeof(path), "%s/maps-1", dir);
	unlink(path);
	rmdir(dir);
}

/* The name index finds what the pass over every function finds: each
 * function of this test program, by name, the same addresses in the same
 * order; a name it lacks, none. */
static void test_name_index(void **state)
{
	struct kft_elf plain, indexed;
	struct kft_error err;
	uint64_t a[8], b[8];

	(void)state;
	assert_int_equal(kft_elf_open(&plain, "/proc/self/exe", &err), 0);
	assert_int_equal(kft_elf_open(&indexed, "/proc/self/exe", &err), 0);
	kft_elf_index_names(&indexed);
	assert_non_null(indexed.by_name);
	assert_true(plain.nsyms > 10);
	for (size_t i = 0; i < plain.nsyms; i++) {
		const char *name = plain.syms[i].name;
		size_t n = kft_elf_find(&plain, name, a, 8);

		assert_int_equal(kft_elf_find(&indexed, name, b, 8), n);
		assert_memory_equal(a, b, (n < 8 ? n : 8) * sizeof(a[0]));
	}
	assert_int_equal(kft_elf_find(&indexed, "no_such_function_here", b, 8), 0);
	assert_int_equal(kft_elf_find(&indexed, "test_name_index", b, 1), 1);
	kft_elf_close(&plain);
	kft_elf_close(&indexed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_demangle_base),
		cmocka_unit_test(test_demangled_matches),
		cmocka_unit_test(test_symbols_file),
		cmocka_unit_test(test_map_epochs),
		cmocka_unit_test(test_other_build),
		cmocka_unit_test(test_name_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
