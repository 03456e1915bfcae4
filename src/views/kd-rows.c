// SPDX-License-Identifier: GPL-2.0-only
/* The rows of kd's call trees (-c), as kd 1.1 printed them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "kd-rows.h"
#include "views.h"

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

/* The columns and the indentation of a row, in the line buffer; a note's
 * (note) leaves Duration and Local blank. */
static bool row_start(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark,
		      size_t name_len, bool note)
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
		p = note	   ? put_text(p, "", 10)
		    : n->inherited ? put_text(p, "-", 10)
				   : put_num(p, n->dur_ns < 0 ? -1LL : kft_kd_us(n->dur_ns));
	if (c->col[2])
		p = note ? put_text(p, "", 10)
		: n->local_ns < 0 && !c->o->classic ? put_text(p, "-", 10)
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

/* A note's row: the text as a C comment where a call's name would be. */
static void note_row(struct tree_ctx *c, const struct kft_kd_note *note, unsigned int depth,
		     char mark)
{
	struct kft_node n = { .entry_ns = note->ns };
	char text[KFT_MARK_TEXT + 64], *p = text;

	snprintf(n.pid, sizeof(n.pid), "%u", note->tid);
	if (note->off_ns < 0) {
		p += sprintf(p, "/* ");
		p = kft_view_mark_text(p, &c->o->notes->marks[note->mark]);
		strcpy(p, " */");
	} else {
		snprintf(text, sizeof(text), "/* off the CPU %lld us: %s */", kft_kd_us(note->off_ns),
			 note->preempted ? "preempted" : "slept");
	}
	if (!row_start(c, &n, depth, mark, strlen(text), true))
		return;
	kft_lb_add(&c->lb, "%s", text);
	if (c->lb.s)
		kft_kd_put_line(c->out, c->lb.s);
}

/* The current thread's notes made before ns, each inside the calls open
 * then (those that ended before it are closed first); off-CPU spans only
 * if spans. */
static void notes_until(struct tree_ctx *c, int64_t ns, char mark, bool spans)
{
	const struct kft_kd_note *notes = c->o->notes->notes;
	struct kft_kd_note_thread *nt = c->nt;

	while (nt && nt->next < nt->first + nt->n && notes[nt->next].ns < ns) {
		const struct kft_kd_note *note = &notes[nt->next++];

		if (!spans && note->off_ns >= 0)
			continue;
		while (c->nopen && c->open_end[c->nopen - 1] <= note->ns)
			c->nopen--;
		note_row(c, note, (unsigned int)c->nopen, mark);
	}
}

static int64_t end_of(const struct kft_node *n)
{
	return n->dur_ns < 0 ? INT64_MAX : n->entry_ns + n->dur_ns;
}

/* The first of thread nt's notes made at ns or later. */
static size_t first_note_from(const struct kft_kd_notes *kn, const struct kft_kd_note_thread *nt,
			      int64_t ns)
{
	size_t lo = nt->first, hi = nt->first + nt->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kn->notes[mid].ns < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void kft_kd_tree_root_done(struct tree_ctx *c)
{
	if (c->o->notes && c->nt)
		notes_until(c, c->root_end, c->root_mark, true);
	c->nt = NULL;
	c->nopen = 0;
}

/* Before node n's row: the notes its thread made before n began; a new
 * root first ends the one before (its notes up to its end). */
static void notes_before(struct tree_ctx *c, const struct kft_node *n, unsigned int depth,
			 char mark)
{
	if (!depth) {
		kft_kd_tree_root_done(c);
		c->nt = kft_kd_notes_thread(c->o->notes, (uint32_t)n->tid);
		if (c->nt)
			c->nt->has_calls = true;
		if (c->nt && c->notes_within_roots)
			c->nt->next = first_note_from(c->o->notes, c->nt, n->entry_ns);
		c->root_end = end_of(n);
		c->root_mark = mark;
	}
	notes_until(c, n->entry_ns, mark, true);
	if (kft_grow((void **)&c->open_end, depth, &c->opencap, sizeof(*c->open_end), 64)) {
		c->nt = NULL;	/* out of memory: no more notes in this root */
		return;
	}
	/* its callers stay open; a caller that seemed to end before it (a
	 * clock step) is taken as open until it ends */
	while (c->nopen < depth)
		c->open_end[c->nopen++] = end_of(n);
	c->nopen = depth;
	c->open_end[c->nopen++] = end_of(n);
}

void kft_kd_tree_end(struct tree_ctx *c)
{
	struct kft_kd_notes *kn = c->o->notes;

	if (kn) {
		kft_kd_tree_root_done(c);
		/* what threads noted after their last call; where a thread
		 * none of whose calls was traced (kft's own helper) slept is
		 * left out */
		for (size_t i = 0; i < kn->nthreads && !c->notes_within_roots; i++) {
			c->nt = &kn->threads[i];
			c->nopen = 0;
			notes_until(c, INT64_MAX, '|', c->nt->has_calls);
		}
	}
	free(c->open_end);
	c->open_end = NULL;
	c->nopen = c->opencap = 0;
}

void kft_kd_tree_row(struct tree_ctx *c, const struct kft_node *n, unsigned int depth, char mark)
{
	const char *name = c->o->classic ? c->t->funcs[n->func].base_name : c->t->funcs[n->func].name;
	size_t len = strlen(name);

	if (c->o->notes)
		notes_before(c, n, depth, mark);
	if (!row_start(c, n, depth, mark, len, false))
		return;
	if (!n->args && !n->inherited && len && name[len - 1] != ' ') {
		/* the common row: nothing to trim, no printf */
		memcpy(c->lb.s + c->lb.len, name, len);
		c->lb.s[c->lb.len + len] = '\n';
		fwrite_unlocked(c->lb.s, 1, c->lb.len + len + 1, c->out);
		return;
	}
	kft_lb_add(&c->lb, "%s", name);
	if (n->inherited)
		kft_lb_add(&c->lb, " " KFT_KD_INHERITED);
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
