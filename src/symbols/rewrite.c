// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rewrite.h"

/* The symbol holding addr, and addr where the map has it. */
static const struct kft_mapsym *lookup(struct kft_addr2sym *a, uint64_t *addr)
{
	const struct kft_mapsym *s;

	if (!a->map->pie || !a->nbases)
		return kft_symmap_lookup(a->map, *addr);
	for (size_t i = 0; i < a->nbases; i++)
		if (*addr >= a->bases[i] && (s = kft_symmap_lookup(a->map, *addr - a->bases[i]))) {
			*addr -= a->bases[i];
			return s;
		}
	return NULL;
}

void kft_addr2sym_line(FILE *out, struct kft_addr2sym *a, const char *line)
{
	const char *p = line;

	while (*p) {
		const char *hex = p;
		size_t digits, blanks, width;
		const struct kft_mapsym *s;
		char name[600];
		uint64_t addr;
		int len;

		/* the next "0x" that starts a word */
		while (*hex && !((hex == line || !isalnum((unsigned char)hex[-1])) && hex[0] == '0' &&
				 (hex[1] == 'x' || hex[1] == 'X') && isxdigit((unsigned char)hex[2])))
			hex++;
		fwrite(p, 1, (size_t)(hex - p), out);
		if (!*hex)
			return;
		digits = strspn(hex + 2, "0123456789abcdefABCDEF");
		width = 2 + digits;
		if (digits > 16 || isalnum((unsigned char)hex[width]) || hex[width] == '_') {
			fwrite(hex, 1, width, out);	/* not an address */
			p = hex + width;
			continue;
		}
		addr = strtoull(hex + 2, NULL, 16);
		s = lookup(a, &addr);
		if (!s) {
			a->missed++;
			fwrite(hex, 1, width, out);
			p = hex + width;
			continue;
		}
		if (addr == s->addr)
			len = snprintf(name, sizeof(name), "%s", s->name);
		else
			len = snprintf(name, sizeof(name), "%s+0x%" PRIx64, s->name, addr - s->addr);
		blanks = strspn(hex + width, " \t");
		fputs(name, out);
		p = hex + width + blanks;
		if (!*p || *p == '\n' || *p == '\r')
			continue;	/* no trailing blanks at the end of a line */
		if (memchr(hex + width, '\t', blanks)) {
			fwrite(hex + width, 1, blanks, out);	/* tabs keep their stops */
			continue;
		}
		/* keep the next column where it was, with at least one space */
		{
			long pad = (long)(width + blanks) - len;

			fprintf(out, "%*s", (int)(pad > 1 ? pad : 1), "");
		}
	}
}

/* Whether a "Load base of" line's file is the map's: the same file, or,
 * where it is not here (a log from elsewhere), of the same name. */
static bool same_file(const char *logged, const char *map)
{
	const char *x = strrchr(logged, '/'), *y = strrchr(map, '/');
	struct stat a, b;

	if (!stat(logged, &a) && !stat(map, &b))
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return !strcmp(x ? x + 1 : logged, y ? y + 1 : map);
}

/* Whether line is a "Load base of FILE: 0x..." line; its base is taken
 * if FILE is the map's. */
static bool take_base(struct kft_addr2sym *a, char *line)
{
	size_t n = strlen("Load base of ");
	char *colon = strrchr(line, ':');
	uint64_t base;

	if (strncmp(line, "Load base of ", n) || !colon ||
	    sscanf(colon + 1, " 0x%" SCNx64, &base) != 1)
		return false;
	*colon = '\0';
	if (a->map->pie && a->nbases < KFT_ADDR2SYM_BASES && same_file(line + n, a->map->path))
		a->bases[a->nbases++] = base;
	*colon = ':';
	return true;
}

int kft_addr2sym_stream(FILE *out, struct kft_addr2sym *a, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, in) > 0) {
		if (!a->map) {
			fputs(line, out);
			continue;
		}
		if (take_base(a, line))
			fputs(line, out);
		else
			kft_addr2sym_line(out, a, line);
	}
	free(line);
	return ferror(in) ? -1 : 0;
}

static bool is_keyword(const char *w)
{
	static const char *const words[] = {
		"new", "begin", "end", "trigger", "start", "stop", "entry", "exit", "time",
		"filter", "mintime", "maxtime", "noints", "onlyints", "funclist", "fend", "watch",
		"stack", "worst-stack", "logentries", "autorepeat", "overwrite", "prime", "untimed",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

void kft_sym2addr_line(FILE *out, FILE *warn, const struct kft_symmap *m,
		       struct kft_sym2addr_state *st, const char *line)
{
	const char *p = line;

	st->lineno++;
	while (*p) {
		size_t blank = strspn(p, " \t\r\n,"), len;
		const struct kft_mapsym *hits[64];
		char word[512];
		size_t n;

		fwrite(p, 1, blank, out);
		p += blank;
		if (!*p)
			break;
		if (*p == '#') {	/* comments stay as they are */
			fputs(p, out);
			break;
		}
		len = strcspn(p, " \t\r\n,#");
		snprintf(word, sizeof(word), "%.*s", (int)(len < sizeof(word) ? len : sizeof(word) - 1), p);
		p += len;
		if (!strcmp(word, "funclist"))
			st->in_funclist = true;
		else if (!strcmp(word, "fend") || !strcmp(word, "end"))
			st->in_funclist = false;
		if (is_keyword(word) || isdigit((unsigned char)word[0]) ||
		    !(n = kft_symmap_find(m, word, hits, 64))) {
			if (!is_keyword(word) && !isdigit((unsigned char)word[0]) && warn)
				fprintf(warn, "%s:%u: '%s': no such function in the map; kept\n",
					st->origin, st->lineno, word);
			fputs(word, out);
			continue;
		}
		for (size_t i = 0; i < (st->in_funclist ? (n < 64 ? n : 64) : 1); i++)
			fprintf(out, "%s0x%0*" PRIx64, i ? " " : "", m->addr_digits, hits[i]->addr);
		if (n > 1 && !st->in_funclist && warn) {
			fprintf(warn, "%s:%u: '%s' is at %zu addresses; used 0x%0*" PRIx64 " (also",
				st->origin, st->lineno, word, n, m->addr_digits, hits[0]->addr);
			for (size_t i = 1; i < n && i < 64; i++)
				fprintf(warn, " 0x%0*" PRIx64, m->addr_digits, hits[i]->addr);
			fprintf(warn, ")\n");
		}
	}
}
