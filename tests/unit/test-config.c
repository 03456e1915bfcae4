// SPDX-License-Identifier: GPL-2.0-only
/* The configuration language: every statement, every error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"

static struct kft_config cfg;
static struct kft_error err;

static int parse(const char *text)
{
	kft_config_release(&cfg);
	err.msg[0] = '\0';
	return kft_config_parse(&cfg, text, strlen(text), "t.conf", &err);
}

static void parses(const char *text)
{
	if (parse(text))
		fail_msg("'%s' did not parse: %s", text, err.msg);
}

/* The text fails, and the error is exactly msg. */
static void rejects(const char *text, const char *msg)
{
	if (!parse(text))
		fail_msg("'%s' parsed but should not", text);
	assert_string_equal(err.msg, msg);
}

static void test_minimal(void **state)
{
	parses("begin\nend\n");
	assert_false(cfg.has_new);
	assert_int_equal(cfg.start.type, KFT_TRIGGER_NONE);
	assert_int_equal(cfg.stop.type, KFT_TRIGGER_NONE);
	assert_int_equal(cfg.logentries, KFT_DEFAULT_LOGENTRIES);
	assert_false(cfg.logentries_set);
	parses("new begin end");
	assert_true(cfg.has_new);
}

static void test_comments_and_layout(void **state)
{
	parses("# a comment\nnew   # trailing\n\tbegin\n  # inside\nend # after\n");
	parses("new\r\nbegin\r\ntrigger start entry main\r\nend\r\n");
	assert_string_equal(cfg.start.func.name, "main");
}

static void test_triggers(void **state)
{
	parses("begin\ntrigger start entry do_fork\ntrigger stop exit 0xc0012345\nend");
	assert_int_equal(cfg.start.type, KFT_TRIGGER_ENTRY);
	assert_string_equal(cfg.start.func.name, "do_fork");
	assert_int_equal(cfg.start.func.line, 2);
	assert_int_equal(cfg.stop.type, KFT_TRIGGER_EXIT);
	assert_null(cfg.stop.func.name);
	assert_int_equal(cfg.stop.func.addr, 0xc0012345);

	parses("begin trigger start time 2000000 trigger stop time 500 end");
	assert_int_equal(cfg.start.type, KFT_TRIGGER_TIME);
	assert_int_equal(cfg.start.usecs, 2000000);
	assert_int_equal(cfg.stop.usecs, 500);

	parses("begin trigger start exit f trigger stop entry 0XFFFFFFFF81000000 end");
	assert_int_equal(cfg.start.type, KFT_TRIGGER_EXIT);
	assert_int_equal(cfg.stop.type, KFT_TRIGGER_ENTRY);
	assert_int_equal(cfg.stop.func.addr, 0xffffffff81000000ULL);
}

static void test_trigger_errors(void **state)
{
	rejects("begin\ntrigger begin entry f\nend",
		"t.conf:2: 'begin': expected 'start' or 'stop' after 'trigger'");
	rejects("begin\ntrigger start enter f\nend",
		"t.conf:2: 'enter': expected 'entry', 'exit' or 'time'");
	rejects("begin\ntrigger start time 12x\nend",
		"t.conf:2: '12x': expected a time in microseconds (a decimal number) after 'time'");
	rejects("begin\ntrigger start time -5\nend",
		"t.conf:2: '-5': expected a time in microseconds (a decimal number) after 'time'");
	rejects("begin\ntrigger start entry f\ntrigger start entry g\nend",
		"t.conf:3: 'start': this trigger is already set");
	rejects("begin\ntrigger start entry 0x\nend",
		"t.conf:2: '0x': expected a function name or a hex address");
	rejects("begin\ntrigger start entry 0xfg\nend",
		"t.conf:2: '0xfg': expected a function name or a hex address");
	rejects("begin\ntrigger start entry 0x0\nend",
		"t.conf:2: '0x0': function address 0 is not valid");
	rejects("begin\ntrigger start entry 0x12345678123456789\nend",
		"t.conf:2: '0x12345678123456789': expected a function name or a hex address");
	rejects("begin\ntrigger start entry 123\nend",
		"t.conf:2: '123': expected a function name or a hex address (0x...)");
	rejects("begin\ntrigger start entry f-g\nend",
		"t.conf:2: 'f-g': not a valid function name");
	rejects("begin\ntrigger start time 99999999999999999999\nend",
		"t.conf:2: '99999999999999999999': number too large (at most 18446744073709551)");
	rejects("begin\ntrigger",
		"t.conf:2: expected 'start' or 'stop' after 'trigger', found end of file");
	rejects("begin\ntrigger start",
		"t.conf:2: expected 'entry', 'exit' or 'time' after 'start', found end of file");
	rejects("begin\ntrigger start time",
		"t.conf:2: expected a time in microseconds after 'time', found end of file");
	rejects("begin\ntrigger stop exit",
		"t.conf:2: expected a function after 'exit', found end of file");
}

static void test_filters(void **state)
{
	parses("begin\nfilter mintime 500\nfilter maxtime 2000\nfilter noints\nend");
	assert_int_equal(cfg.mintime, 500);
	assert_int_equal(cfg.maxtime, 2000);
	assert_true(cfg.noints);
	assert_false(cfg.onlyints);
	parses("begin filter onlyints end");
	assert_true(cfg.onlyints);
	parses("begin filter mintime 0 end");
	assert_int_equal(cfg.mintime, 0);
}

static void test_filter_errors(void **state)
{
	rejects("begin\nfilter mintme 5\nend",
		"t.conf:2: 'mintme': unknown filter (expected mintime, maxtime, noints, "
		"onlyints, cpus, funclist, notrace, graph or depth)");
	rejects("begin\nfilter mintime\nend",
		"t.conf:3: 'end': expected a time in microseconds (a decimal number) after 'mintime'");
	/* the statement a number is missing from is named, not only the word found */
	rejects("begin\nwatch stack\nend",
		"t.conf:3: 'end': expected a stack size in bytes (a decimal number) after 'stack'");
	rejects("begin\nfilter noints\nfilter onlyints\nend",
		"t.conf: 'filter noints' and 'filter onlyints' together drop every call");
	rejects("begin\nfilter mintime 10\nfilter maxtime 5\nend",
		"t.conf: mintime 10 is above maxtime 5: every call would be dropped");
	rejects("begin\nfilter",
		"t.conf:2: expected a filter type after 'filter', found end of file");
}

/* tracing_cpumask: a list of CPUs and ranges, or a hex mask. */
static void test_filter_cpus(void **state)
{
	char buf[KFT_CPUS_STR_MAX];

	(void)state;
	parses("begin\nfilter noints\nend");
	assert_false(cfg.cpus_set);
	assert_true(kft_config_cpu_in(&cfg, 5));	/* no list: every CPU */
	parses("begin\nfilter cpus 0,2-3, 70\nend");
	assert_true(cfg.cpus_set);
	assert_true(kft_config_cpu_in(&cfg, 0));
	assert_false(kft_config_cpu_in(&cfg, 1));
	assert_true(kft_config_cpu_in(&cfg, 3));
	assert_false(kft_config_cpu_in(&cfg, 4));
	assert_true(kft_config_cpu_in(&cfg, 70));
	assert_false(kft_config_cpu_in(&cfg, 5000));
	assert_string_equal(kft_config_cpus_str(&cfg, buf, sizeof(buf)), "0,2-3,70");
	parses("begin filter cpus 0xD end");
	assert_string_equal(kft_config_cpus_str(&cfg, buf, sizeof(buf)), "0,2-3");
	parses("begin filter cpus 0x10000000000000001 end");	/* past one word */
	assert_string_equal(kft_config_cpus_str(&cfg, buf, sizeof(buf)), "0,64");
	parses("begin filter cpus 1023 end");
	assert_string_equal(kft_config_cpus_str(&cfg, buf, sizeof(buf)), "1023");
	/* the longest list there is fits the buffer made for it */
	{
		char text[8192] = "begin filter cpus 0", *p = text + strlen(text);

		for (int c = 2; c < KFT_MAX_CPUS; c += 2)
			p += sprintf(p, ",%d", c);
		sprintf(p, " end");
		parses(text);
		assert_int_equal(strlen(kft_config_cpus_str(&cfg, buf, sizeof(buf))),
				 strlen(text) - strlen("begin filter cpus ") - strlen(" end"));
	}
	rejects("begin\nfilter cpus\nend",
		"t.conf:3: 'end': expected a CPU list (0,2-3) or a hex mask (0x...)");
	rejects("begin\nfilter cpus 3-1\nend",
		"t.conf:2: '3-1': expected a CPU list (0,2-3) or a hex mask (0x...)");
	rejects("begin\nfilter cpus 2,x\nend",
		"t.conf:2: 'x': expected a CPU list (0,2-3) or a hex mask (0x...)");
	rejects("begin\nfilter cpus 1024\nend", "t.conf:2: '1024': CPU numbers go up to 1023");
	rejects("begin\nfilter cpus 0x0\nend",
		"t.conf:2: '0x0': names no CPU: every call would be dropped");
	rejects("begin\nfilter cpus 0xfg\nend",
		"t.conf:2: '0xfg': expected a hex mask of CPUs (0x3: CPUs 0 and 1)");
	rejects("begin\nfilter cpus,\nend",
		"t.conf:3: 'end': expected a CPU list (0,2-3) or a hex mask (0x...)");
}

/* ftrace's selections: notrace, graph, depth, and globs in every list. */
static void test_selections(void **state)
{
	parses("begin\nset S s1 s2*\nfilter notrace foo* *bar [ab]? fend\n"
	       "filter graph main @S fend\nfilter depth 4\nend");
	assert_true(cfg.skip_list.set);
	assert_int_equal(cfg.skip_list.n, 3);
	assert_string_equal(cfg.skip_list.refs[0].name, "foo*");
	assert_string_equal(cfg.skip_list.refs[2].name, "[ab]?");
	assert_true(kft_is_glob(cfg.skip_list.refs[1].name));
	assert_true(cfg.graph.set);
	assert_int_equal(cfg.graph.n, 3);
	assert_string_equal(cfg.graph.refs[2].name, "s2*");
	assert_int_equal(cfg.max_depth, 4);
	assert_false(cfg.has_funclist);
	assert_false(kft_is_glob("main"));
	rejects("begin\nfilter depth 0\nend", "t.conf:2: '0': a depth of at least 1");
	rejects("begin\nfilter depth 70000\nend",
		"t.conf:2: '70000': number too large (at most 65535)");
	rejects("begin\nfilter graph fend\nend", "t.conf:2: 'graph': empty function list");
	rejects("begin\nfilter notrace a fend\nfilter notrace b fend\nend",
		"t.conf:3: 'notrace': that list is already set");
}

static void test_funclist_fend(void **state)
{
	parses("begin\nfilter funclist a b\n  0x1234 c fend\ntrigger start entry a\nend");
	assert_true(cfg.has_funclist);
	assert_int_equal(cfg.nfuncs, 4);
	assert_string_equal(cfg.funcs[0].name, "a");
	assert_string_equal(cfg.funcs[1].name, "b");
	assert_int_equal(cfg.funcs[2].addr, 0x1234);
	assert_int_equal(cfg.funcs[2].line, 3);
	assert_string_equal(cfg.funcs[3].name, "c");
	assert_int_equal(cfg.start.type, KFT_TRIGGER_ENTRY);
}

/* The kftstatic.conf dialect: a trailing comma continues the list. */
static void test_funclist_commas(void **state)
{
	parses("begin\nfilter funclist a, b,\n  c\nlogentries 5\nend");
	assert_int_equal(cfg.nfuncs, 3);
	assert_string_equal(cfg.funcs[2].name, "c");
	assert_int_equal(cfg.logentries, 5);
	parses("begin\nfilter funclist only\nend");
	assert_int_equal(cfg.nfuncs, 1);
	/* without fend, the line's end closes the list */
	parses("begin\nfilter funclist a b\nend");
	assert_int_equal(cfg.nfuncs, 2);
}

/* C++ names as the source writes them: parameters with their commas and
 * blanks, "operator new", are one word each. */
static void test_cxx_names(void **state)
{
	parses("begin\ntrigger start entry ns::Foo::operator new\n"
	       "filter funclist ns::f(int, char *) operator delete, main fend\nend");
	assert_string_equal(cfg.start.func.name, "ns::Foo::operator new");
	assert_int_equal(cfg.nfuncs, 3);
	assert_string_equal(cfg.funcs[0].name, "ns::f(int, char *)");
	assert_string_equal(cfg.funcs[1].name, "operator delete");
	assert_string_equal(cfg.funcs[2].name, "main");
	parses("begin\ntrigger start entry ns::Foo::bar(int) const\nend");
	assert_string_equal(cfg.start.func.name, "ns::Foo::bar(int) const");
	parses("begin\nfilter funclist f(int) constant fend\nend");
	assert_int_equal(cfg.nfuncs, 2);
	/* "operator" at a line's end waits for nothing */
	rejects("begin\ntrigger start entry ns::operator\nnew\nend",
		"t.conf:3: 'new': unexpected inside a begin ... end block");
}

static void test_funclist_errors(void **state)
{
	rejects("begin\nfilter funclist a fend\nfilter funclist b fend\nend",
		"t.conf:3: 'funclist': the function list is already set");
	rejects("begin\nfilter funclist fend\nend", "t.conf:2: 'funclist': empty function list");
	rejects("begin\nfilter funclist a b end",
		"t.conf:2: 'end': function list needs 'fend' before 'end'");
	rejects("begin\nfilter funclist a, 7\nend",
		"t.conf:2: '7': expected a function name or a hex address (0x...)");
	/* found by fuzzing: a C function called operator, then fend */
	parses("begin\nfilter funclist operator fend\nend");
	assert_int_equal(cfg.nfuncs, 1);
	assert_string_equal(cfg.funcs[0].name, "operator");
	/* found by fuzzing: the name took fend and the rest of the line */
	rejects("begin\nfilter funclist f( g fend\nend",
		"t.conf:2: 'f( g fend': a '(' without its ')'");
}

static void test_funclist_limit(void **state)
{
	size_t n = KFT_MAX_FUNCLIST + 1, len = 0;
	char *text = malloc(n * 12 + 64);

	assert_non_null(text);
	len += (size_t)sprintf(text + len, "begin filter funclist");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, " f%zu", i);
	sprintf(text + len, " fend end");
	rejects(text, "t.conf:1: 'f4096': too many functions in one list (4096 at most)");
	free(text);
}

static void test_watch(void **state)
{
	parses("begin watch stack 8192 end");
	assert_int_equal(cfg.watch, KFT_WATCH_STACK);
	assert_int_equal(cfg.watch_bytes, 8192);
	parses("begin watch worst-stack 0 end");
	assert_int_equal(cfg.watch, KFT_WATCH_WORST_STACK);
	rejects("begin\nwatch heap 5\nend", "t.conf:2: 'heap': expected 'stack' or 'worst-stack'");
	rejects("begin\nwatch stack 4294967296\nend",
		"t.conf:2: '4294967296': number too large (at most 4294967295)");
}

static void test_flags_and_logentries(void **state)
{
	parses("begin\nlogentries 20000\nautorepeat\noverwrite\nprime\nend");
	assert_int_equal(cfg.logentries, 20000);
	assert_true(cfg.logentries_set);
	assert_true(cfg.autorepeat);
	assert_true(cfg.overwrite);
	assert_true(cfg.prime);
	rejects("begin\nlogentries 0\nend", "t.conf:2: '0': logentries must be at least 1");
	rejects("begin\nlogentries 4294967297\nend",
		"t.conf:2: '4294967297': number too large (at most 4294967296)");
	rejects("begin\nuntimed\nend", "t.conf:2: 'untimed': not supported: kft always times calls");
	parses("begin\nlibcalls\nend");
	assert_true(cfg.libcalls);
	assert_false(cfg.libcalls_all);
	parses("begin\nlibcalls all\nprime\nend");
	assert_true(cfg.libcalls);
	assert_true(cfg.libcalls_all);
	assert_true(cfg.prime);
	rejects("begin\nlibcalls some\nend",
		"t.conf:2: 'some': expected 'all' or the end of the line after 'libcalls'");
}

/* Keywords match whole words: the original matched prefixes. */
static void test_exact_keywords(void **state)
{
	rejects("begin\ntrig start entry f\nend",
		"t.conf:2: 'trig': unknown statement (expected trigger, filter, watch, set, args, "
		"logentries, autorepeat, overwrite, prime, libcalls or end)");
	rejects("begin\ntrigger starting entry f\nend",
		"t.conf:2: 'starting': expected 'start' or 'stop' after 'trigger'");
	rejects("begin\nautorepeats\nend",
		"t.conf:2: 'autorepeats': unknown statement (expected trigger, filter, watch, "
		"set, args, logentries, autorepeat, overwrite, prime, libcalls or end)");
	rejects("begin\nTrigger start entry f\nend",
		"t.conf:2: 'Trigger': unknown statement (expected trigger, filter, watch, "
		"set, args, logentries, autorepeat, overwrite, prime, libcalls or end)");
}

static void test_block_errors(void **state)
{
	rejects("", "t.conf:1: empty config: expected 'begin'");
	rejects("# only a comment\n", "t.conf:1: empty config: expected 'begin'");
	rejects("new\n", "t.conf:1: empty config: expected 'begin'");
	rejects("trigger start entry f", "t.conf:1: 'trigger': expected 'begin'");
	rejects("begin\nfilter noints\n", "t.conf:2: missing 'end'");
	rejects("begin\nend\nbegin\nend", "t.conf:3: 'begin': unexpected after 'end' (one begin "
		"... end block per config)");
	rejects("begin\nnew\nend", "t.conf:2: 'new': unexpected inside a begin ... end block");
	rejects("begin\nbegin\nend", "t.conf:2: 'begin': unexpected inside a begin ... end block");
}

static void test_nul_byte(void **state)
{
	static const char text[] = "begin\n\0end\n";

	kft_config_release(&cfg);
	assert_int_equal(kft_config_parse(&cfg, text, sizeof(text) - 1, "t.conf", &err), -1);
	assert_string_equal(err.msg, "t.conf:2: NUL byte in config");
}

/* Whatever kft prints back parses to the same config. */
/* KPTrace's symbol groups: set NAME F1 F2 ..., one line; @NAME in a
 * funclist stands for its functions. */
static void test_sets(void **state)
{
	const struct kft_set *s;
	char *text;

	parses("begin\n set io sys_read sys_write vfs_*\n set mm kfree\n"
	       " filter funclist main @io fend\nend\n");
	assert_int_equal(cfg.nsets, 2);
	s = kft_config_set(&cfg, "io");
	assert_non_null(s);
	assert_int_equal(s->nmembers, 3);
	assert_string_equal(s->members[2], "vfs_*");
	assert_null(kft_config_set(&cfg, "net"));
	assert_int_equal(cfg.nfuncs, 4);
	assert_string_equal(cfg.funcs[0].name, "main");
	assert_string_equal(cfg.funcs[1].name, "sys_read");
	assert_string_equal(cfg.funcs[3].name, "vfs_*");
	assert_int_equal(cfg.funcs[3].line, 4);
	/* printed back, the sets stay and the list is spelt out */
	text = kft_config_format(&cfg);
	assert_non_null(strstr(text, "\tset io sys_read sys_write vfs_*\n\tset mm kfree\n"));
	assert_non_null(strstr(text, "filter funclist main sys_read sys_write vfs_* fend"));
	free(text);
	rejects("begin\n filter funclist @io fend\n set io a\nend\n",
		"t.conf:2: '@io': no such set (a set is defined before the funclist that names it)");
	rejects("begin\n set io a\n set io b\nend\n", "t.conf:3: 'io': this set is already defined");
	rejects("begin\n set io\n filter noints\nend\n",
		"t.conf:2: 'io': an empty set");
	rejects("begin\n set\n io a\nend\n",
		"t.conf:2: 'set': a set needs a name and its functions on its line");
	rejects("begin\n set 9io a\nend\n", "t.conf:2: '9io': a set's name starts with a letter or '_'");
}

/* An args statement naming word alone is refused with the spec error. */
static void rejects_spec(const char *word, const char *bad)
{
	char text[128], want[512];

	snprintf(text, sizeof(text), "begin\nargs %s fend\nend", word);
	snprintf(want, sizeof(want), "t.conf:2: '%s': %s", word, bad);
	rejects(text, want);
}

/* args: FUNC@SPEC words, commas inside a spec, the default spec, errors */
static void test_args(void **state)
{
	static const char bad[] = "expected FUNC@SPEC, SPEC as arg1,arg2/x,retval/d32: arg1 to "
				  "arg6, fparg1 to fparg8 and retval, each once, /d, /u, /x, /b "
				  "(with a size: 8, 16, 32, 64), /s, /e:ENUM, or /f (fparg, retval; "
				  "32 or 64)";
	const struct kft_argitem *it;
	char buf[128];

	parses("begin\nargs open@arg1/s,arg2/x read@retval/d32 f* 0x40 fend\nend");
	assert_true(cfg.args.set);
	assert_int_equal(cfg.args.n, 4);
	assert_string_equal(cfg.args.refs[0].name, "open");
	assert_int_equal(cfg.argspecs[0].n, 2);
	assert_int_equal(kft_argspec_find(&cfg.argspecs[0], 0)->fmt, KFT_ARG_STR);
	assert_int_equal(kft_argspec_find(&cfg.argspecs[0], 1)->fmt, KFT_ARG_HEX);
	assert_null(kft_argspec_find(&cfg.argspecs[0], 2));
	assert_null(kft_argspec_find(&cfg.argspecs[0], KFT_ARGSLOT_RETVAL));
	assert_string_equal(cfg.args.refs[1].name, "read");
	it = kft_argspec_find(&cfg.argspecs[1], KFT_ARGSLOT_RETVAL);
	assert_non_null(it);
	assert_int_equal(it->fmt, KFT_ARG_INT);
	assert_int_equal(it->bits, 32);
	assert_int_equal(cfg.argspecs[1].n, 1);	/* the return value only */
	/* no spec: the first three, as KFT saved them */
	assert_string_equal(cfg.args.refs[2].name, "f*");
	assert_string_equal(kft_argspec_str(&cfg.argspecs[2], buf, sizeof(buf)), "arg1,arg2,arg3");
	assert_int_equal(cfg.args.refs[3].addr, 0x40);
	assert_string_equal(kft_argspec_str(&cfg.argspecs[0], buf, sizeof(buf)), "arg1/s,arg2/x");
	assert_string_equal(kft_argspec_str(&cfg.argspecs[1], buf, sizeof(buf)), "retval/d32");
	/* floating point, bool, the order kept as written (a function's
	 * parameters': int, double, int, float) */
	parses("begin\nargs g@arg1/d32,fparg1,arg2/b,fparg2/f32,retval/f fend\nend");
	assert_string_equal(kft_argspec_str(&cfg.argspecs[0], buf, sizeof(buf)),
			    "arg1/d32,fparg1,arg2/b,fparg2/f32,retval/f");
	assert_int_equal(cfg.argspecs[0].item[1].slot, KFT_ARGSLOT_FP0);
	assert_int_equal(cfg.argspecs[0].item[3].bits, 32);
	assert_int_equal(kft_argspec_find(&cfg.argspecs[0], KFT_ARGSLOT_RETVAL)->fmt,
			 KFT_ARG_FLOAT);
	/* a struct's place: in registers or on the stack, nothing saved */
	parses("begin\nargs g@arg1/S,arg3/d32,stack1/S,fparg1/S fend\nend");
	assert_string_equal(kft_argspec_str(&cfg.argspecs[0], buf, sizeof(buf)),
			    "arg1/S,arg3/d32,stack1/S,fparg1/S");
	assert_int_equal(cfg.argspecs[0].item[2].slot, KFT_ARGSLOT_STACK0);
	/* words passed on the stack, shown as any value is */
	parses("begin\nargs h@arg6,stack1,stack2/x,stack3/s,stack4/f32,stack8/e:color fend\nend");
	assert_string_equal(kft_argspec_str(&cfg.argspecs[0], buf, sizeof(buf)),
			    "arg6,stack1/d,stack2/x,stack3/s,stack4/f32,stack8/e:color");
	assert_int_equal(cfg.argspecs[0].item[1].slot, KFT_ARGSLOT_STACK0);
	assert_int_equal(cfg.argspecs[0].item[1].fmt, KFT_ARG_INT);
	assert_int_equal(cfg.argspecs[0].item[4].fmt, KFT_ARG_FLOAT);
	rejects_spec("f@stack9", bad);
	rejects_spec("f@stack0", bad);
	rejects_spec("f@retval/S", bad);
	/* an enum's names, by its type's */
	parses("begin\nargs paint@arg1/e:color,retval/e:ns::mode fend\nend");
	assert_string_equal(kft_argspec_str(&cfg.argspecs[0], buf, sizeof(buf)),
			    "arg1/e:color,retval/e:ns::mode");
	assert_int_equal(cfg.argspecs[0].item[0].fmt, KFT_ARG_ENUM);
	assert_string_equal(cfg.argspecs[0].item[1].enum_type, "ns::mode");
	rejects_spec("f@arg1/e:", bad);
	rejects_spec("f@fparg1/e:color", bad);
	/* the static dialect: commas between functions still separate them */
	parses("begin\nargs a@arg1, b@retval,\n c\nend");
	assert_int_equal(cfg.args.n, 3);
	assert_string_equal(cfg.args.refs[1].name, "b");
	assert_int_equal(kft_argspec_find(&cfg.argspecs[1], KFT_ARGSLOT_RETVAL)->fmt, KFT_ARG_INT);
	/* a symbol version is a name, not a spec */
	parses("begin\nargs memcpy@GLIBC_2.14@arg2/u8 fend\nend");
	assert_string_equal(cfg.args.refs[0].name, "memcpy@GLIBC_2.14");
	assert_int_equal(kft_argspec_find(&cfg.argspecs[0], 1)->fmt, KFT_ARG_UINT);
	assert_int_equal(kft_argspec_find(&cfg.argspecs[0], 1)->bits, 8);
	rejects_spec("f@arg7", bad);
	rejects_spec("f@arg1,arg1", bad);
	rejects_spec("f@retval/s32", bad);
	/* a float in an integer register, an integer in a vector one */
	rejects_spec("f@arg1/f", bad);
	rejects_spec("f@fparg1/d", bad);
	rejects_spec("f@fparg9", bad);
	rejects_spec("f@fparg1/f16", bad);
	rejects("begin\nargs fend\nend", "t.conf:2: 'args': empty function list");
}

static void test_format_round_trip(void **state)
{
	static const char *texts[] = {
		"new begin trigger start entry f trigger stop time 77 filter mintime 3 "
		"filter maxtime 9 filter noints filter funclist a 0xabc fend "
		"watch worst-stack 100 logentries 42 autorepeat overwrite prime end",
		"begin trigger start time 5 trigger stop exit 0x10 filter onlyints end",
		"begin filter cpus 0,2-3,9 filter noints end",
		("begin filter funclist do_* [a-c]? fend filter notrace b* fend "
		 "filter graph main 0x40 fend filter depth 3 end"),
		"begin end",
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *once, *twice;

		parses(texts[i]);
		once = kft_config_format(&cfg);
		assert_non_null(once);
		parses(once);
		twice = kft_config_format(&cfg);
		assert_non_null(twice);
		assert_string_equal(once, twice);
		free(once);
		free(twice);
	}
}

static void test_load_file(void **state)
{
	char path[] = "/tmp/kft-test-config-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("new\nbegin\n  trigger start entry main\n  logentries oops\nend\n", f);
	fclose(f);
	kft_config_release(&cfg);
	assert_int_equal(kft_config_load(&cfg, path, &err), -1);
	{
		char want[256];

		snprintf(want, sizeof(want), "%s:4: 'oops': expected a number of entries (a decimal "
			 "number) after 'logentries'", path);
		assert_string_equal(err.msg, want);
	}
	unlink(path);
	assert_int_equal(kft_config_load(&cfg, path, &err), -1);
	assert_non_null(strstr(err.msg, "No such file"));
}

static int teardown(void **state)
{
	kft_config_release(&cfg);
	return 0;
}

/* What one config says of its function lists, depth and CPUs added to
 * another's (kft record's options to its config): lists appended, with
 * no line of the first's; depth and CPUs replaced where given; the second
 * emptied. */
static void test_merge(void **state)
{
	static const char text[] = "begin\nfilter funclist b c fend\nfilter notrace d fend\n"
				   "args e@arg1/d fend\nfilter cpus 1\nend\n";
	struct kft_config more;

	(void)state;
	parses("begin\nfilter funclist a fend\nfilter depth 3\nend\n");
	kft_config_init(&more);
	assert_int_equal(kft_config_parse(&more, text, strlen(text), "o", &err), 0);
	assert_int_equal(kft_config_merge(&cfg, &more), 0);
	assert_int_equal(cfg.nfuncs, 3);
	assert_string_equal(cfg.funcs[1].name, "b");
	assert_int_equal(cfg.funcs[2].line, 0);
	assert_int_equal(cfg.funcs[0].line, 2);
	assert_true(cfg.skip_list.set);
	assert_string_equal(cfg.skip_list.refs[0].name, "d");
	assert_int_equal(cfg.args.n, 1);
	assert_string_equal(cfg.args.refs[0].name, "e");
	assert_int_equal(cfg.max_depth, 3);
	assert_true(cfg.cpus_set && kft_config_cpu_in(&cfg, 1) && !kft_config_cpu_in(&cfg, 0));
	assert_int_equal(more.nfuncs, 0);
	assert_false(more.has_funclist);
	assert_int_equal(more.args.n, 0);
	kft_config_release(&more);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_filter_cpus),
		cmocka_unit_test(test_selections),
		cmocka_unit_test(test_comments_and_layout),
		cmocka_unit_test(test_triggers),
		cmocka_unit_test(test_trigger_errors),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_filter_errors),
		cmocka_unit_test(test_funclist_fend),
		cmocka_unit_test(test_funclist_commas),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_funclist_errors),
		cmocka_unit_test(test_funclist_limit),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_flags_and_logentries),
		cmocka_unit_test(test_exact_keywords),
		cmocka_unit_test(test_block_errors),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_merge),
	};

	kft_config_init(&cfg);
	return cmocka_run_group_tests_name("config", tests, NULL, teardown);
}
