// SPDX-License-Identifier: GPL-2.0-only
/* The rows of kd's call trees (-c), as kd 1.1 printed them. */
#include <stdlib.h>
#include <string.h>

#include "kd-rows.h"

static const char kft_kd_root_marks[] = "|!@[#;($/{%]*)&:\\}";

char kft_kd_root_mark(unsigned int n)
{
	return kft_kd_root_marks[n % (sizeof(kft_kd_root_marks) - 1)];
}

void kft_kd_tree_header(struct tree_ctx *c)
{
	static const char *titles[] = { " Entry     ", " Duration  ", " Local     ", "  Pid   " };
	static const char *dashes[] = { "---------- ", "---------- ", "---------- ", "------- " };

	for (int pass = 0; pass < 2; pass++) {
		c->lb.len = 0;
		for (int i = 0; i < 4; i++)
			if (c->col[i])
				kft_lb_add(&c->lb, "%s", pass ? dashes[i] : titles[i]);
		kft_lb_add(&c->lb, "%s", pass ? "---------------------------------" : " Trace ");
		if (c->lb.s)
			kft_kd_put_line(c->out, c->lb.s);
	}
}

/* v right-aligned in 10 columns and a blank, at p (printf is most of the
 * time of a large tree); returns the end. */
static char *put_num(char *p, long long v)
{
	char digits[24];
	int n = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do
		digits[n++] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		digits[n++] = '-';
	for (int i = n; i < 10; i++)
		*p++ = ' ';
	while (n)
		*p++ = digits[--n];
	*p++ = ' ';
	return p;
}

static char *put_text(char *p, const char *s, int width)
{
	size_t n = strlen(s);

	for (int i = (int)n; i < width; i++)
		*p++ = ' ';
	memcpy(p, s, n);
	p += n;
	*p++ = ' ';
	return p;
}

/* The columns and the indentation of a row, in the line buffer. */
static bool row_start(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark,
		      size_t name_len)
{
	size_t need = 4 * 32 + strlen(n->pid) + 3 * (size_t)depth + name_len + 1;
	char *p;

	if (c->lb.cap < need) {
		char *bigger = realloc(c->lb.s, need * 2);

		if (!bigger)
			return false;
		c->lb.s = bigger;
		c->lb.cap = need * 2;
	}
	p = c->lb.s;
	if (c->col[0])
		p = put_num(p, kft_kd_us(n->entry_ns));
	if (c->col[1])
		p = put_num(p, n->dur_ns < 0 ? -1LL : kft_kd_us(n->dur_ns));
	if (c->col[2])
		p = n->local_ns < 0 && !c->o->classic ? put_text(p, "-", 10)
						      : put_num(p, kft_kd_us(n->local_ns));
	if (c->col[3])
		p = put_text(p, n->pid, 7);
	for (unsigned int d = 0; d < depth; d++) {
		p[0] = mark;
		p[1] = p[2] = ' ';
		p += 3;
	}
	c->lb.len = (size_t)(p - c->lb.s);
	c->lb.s[c->lb.len] = '\0';
	return true;
}

void kft_kd_tree_row(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark)
{
	const char *name = c->o->classic ? c->t->funcs[n->func].base_name : c->t->funcs[n->func].name;
	size_t len = strlen(name);

	if (!row_start(c, n, depth, mark, len))
		return;
	if (!n->args && len && name[len - 1] != ' ') {
		/* the common row: nothing to trim, no printf */
		memcpy(c->lb.s + c->lb.len, name, len);
		c->lb.s[c->lb.len + len] = '\n';
		fwrite_unlocked(c->lb.s, 1, c->lb.len + len + 1, c->out);
		return;
	}
	kft_lb_add(&c->lb, "%s", name);
	if (n->args) {
		long pad = 3L * ((long)c->o->max_depth - (long)depth) +
			   ((long)c->o->max_funclen - (long)strlen(name));

		kft_lb_add(&c->lb, "%*s%s", (int)(pad > 1 ? pad : 1), "", n->args);
	}
	if (c->lb.s)
		kft_kd_put_line(c->out, c->lb.s);
}

void kft_kd_tree_columns(struct tree_ctx *c)
{
	const char *cols = c->o->columns ? c->o->columns : "";

	for (int i = 0; i < 4; i++)
		c->col[i] = strchr(cols, KFT_KD_TREE_COLUMNS[i]) != NULL;
}
