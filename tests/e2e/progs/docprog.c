/* SPDX-License-Identifier: GPL-2.0-only */
/* The "prog" of the man pages' examples (tests/e2e/docs.sh): a parser
 * with parse_* functions and a do_fork, as the KFT documents name. */
#include <stdio.h>
#include <string.h>

static volatile int sink;

__attribute__((noinline)) void parse_comment(const char *s) { sink += (int)strlen(s); }
__attribute__((noinline)) void parse_record(const char *s) { sink += s[0]; }

__attribute__((noinline)) void parse_line(const char *s)
{
	if (s[0] == '#')
		parse_comment(s);
	else
		parse_record(s);
}

__attribute__((noinline)) int do_fork(int n) { return n + 1; }

int main(void)
{
	static const char *const lines[] = { "# a comment", "a record", "another record" };

	for (int i = 0; i < 30; i++)
		parse_line(lines[i % 3]);
	printf("%d\n", do_fork(sink > 0));
	return 0;
}
