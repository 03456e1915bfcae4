// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"

char *kft_file_read(const char *path, struct kft_error *err)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		kft_error_set(err, "%s: %s", path, fd < 0 ? strerror(errno) : "out of memory");
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			char *bigger = realloc(buf, cap *= 2);

			if (!bigger) {
				kft_error_set(err, "%s: out of memory", path);
				goto fail;
			}
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			kft_error_set(err, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
fail:
	close(fd);
	free(buf);
	return NULL;
}

int kft_fd_write(int fd, const char *text)
{
	size_t len = strlen(text), done = 0;

	/* ftrace's list files take one word per write(): go on where it stopped */
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return -1;
		}
		done += (size_t)n;
	}
	return 0;
}

int kft_file_write(const char *path, const char *text, bool append, struct kft_error *err)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));

	if (fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	if (kft_fd_write(fd, text)) {
		int e = errno;

		close(fd);
		return kft_error_set(err, "cannot write '%s' to %s: %s", text, path, strerror(e));
	}
	if (close(fd))
		return kft_error_set(err, "cannot write '%s' to %s: %s", text, path,
				     strerror(errno));
	return 0;
}

static void put_hex(FILE *f, const char *s)
{
	if (!*s)
		fputc('-', f);
	for (; *s; s++)
		fprintf(f, "%02x", (unsigned char)*s);
}

/* Decode hex in place; "-" is the empty string. */
static char *unhex(char *s)
{
	size_t n = 0;

	if (!strcmp(s, "-")) {
		*s = '\0';
		return s;
	}
	for (size_t i = 0; s[i] && s[i + 1]; i += 2) {
		unsigned int c;

		if (sscanf(s + i, "%2x", &c) != 1)
			break;
		s[n++] = (char)c;
	}
	s[n] = '\0';
	return s;
}

static int add(struct kft_journal *j, char kind, const char *file, const char *value,
	       struct kft_error *err)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	bool ok;

	if (!f)
		return kft_error_set(err, "out of memory");
	fprintf(f, "%c ", kind);
	put_hex(f, file);
	fputc(' ', f);
	put_hex(f, value);
	fputc('\n', f);
	fclose(f);
	ok = write(j->fd, line, len) == (ssize_t)len && !fdatasync(j->fd);
	free(line);
	return ok ? 0 : kft_error_set(err, "%s: %s", j->path, strerror(errno));
}

int kft_journal_begin(struct kft_journal *j, const char *path, pid_t owner_pid,
		      struct kft_error *err)
{
	char head[64];
	int n;

	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (j->fd < 0)
		return kft_error_set(err, "%s: %s", path, strerror(errno));
	j->path = strdup(path);
	n = snprintf(head, sizeof(head), "kft-journal %d\n", (int)owner_pid);
	if (!j->path || write(j->fd, head, (size_t)n) != n) {
		kft_journal_close(j);
		unlink(path);
		return kft_error_set(err, "%s: cannot write", path);
	}
	return 0;
}

void kft_journal_close(struct kft_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	free(j->path);
	j->path = NULL;
}

int kft_journal_owner(const char *path, pid_t *owner, struct kft_error *err)
{
	char *text;
	int pid = 0;

	if (access(path, F_OK))
		return 0;
	text = kft_file_read(path, err);
	if (!text)
		return -1;
	if (sscanf(text, "kft-journal %d", &pid) != 1)
		pid = 0;
	free(text);
	*owner = pid;
	return 1;
}

/* The value to write back: "[local] global" -> "local",
 * "7 (expanded: 1408)" -> "1408", else the text without its newline. */
static char *restorable_value(const char *text)
{
	const char *open = strchr(text, '['), *exp = strstr(text, "(expanded: ");
	size_t len;

	if (open && strchr(open, ']'))
		return strndup(open + 1, (size_t)(strchr(open, ']') - open - 1));
	if (exp)
		return strndup(exp + 11, strspn(exp + 11, "0123456789"));
	len = strlen(text);
	/* "0*": an event file's mark of a soft state, not part of the value */
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '*'))
		len--;
	return strndup(text, len);
}

/* A list file's entries, one per line, without comments, "no pid" or
 * function triggers (those are undone one by one). "f [mod]" -> "f". */
static char *restorable_list(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;

	if (!out)
		return NULL;
	for (const char *p = text; *p;) {
		const char *end = strchrnul(p, '\n');
		size_t n = strcspn(p, " \t\n");

		if (n && *p != '#' && strncmp(p, "no pid", 6) && !memchr(p, ':', n)) {
			memcpy(o, p, n);
			o += n;
			*o++ = '\n';
		}
		p = *end ? end + 1 : end;
	}
	*o = '\0';
	return out;
}

static int save_and_write(struct kft_journal *j, char kind, const char *file, const char *value,
			  struct kft_error *err)
{
	char *old = kft_file_read(file, err), *keep;
	int ret;

	if (!old)
		return -1;
	keep = kind == 'V' ? restorable_value(old) : restorable_list(old);
	free(old);
	if (!keep)
		return kft_error_set(err, "out of memory");
	ret = add(j, kind, file, keep, err);
	free(keep);
	return ret ? ret : kft_file_write(file, value, false, err);
}

int kft_journal_set(struct kft_journal *j, const char *file, const char *value,
		    struct kft_error *err)
{
	return save_and_write(j, 'V', file, value, err);
}

int kft_journal_set_list(struct kft_journal *j, const char *file, const char *value,
			 struct kft_error *err)
{
	return save_and_write(j, 'L', file, value, err);
}

int kft_journal_note(struct kft_journal *j, const char *file, const char *undo,
		     struct kft_error *err)
{
	return add(j, 'U', file, undo, err);
}

int kft_journal_append(struct kft_journal *j, const char *file, const char *text,
		       const char *undo, struct kft_error *err)
{
	/* written first: if the append half-works, the undo still runs */
	return add(j, 'U', file, undo, err) ? -1 : kft_file_write(file, text, true, err);
}

static int undo_one(char kind, const char *file, const char *value, struct kft_error *err)
{
	switch (kind) {
	case 'V':
		return kft_file_write(file, value, false, err);
	case 'L':
		/* O_TRUNC empties the list; one write puts the old one back */
		if (kft_file_write(file, "", false, err))
			return -1;
		return *value ? kft_file_write(file, value, true, err) : 0;
	case 'U': {
		struct kft_error ignored;

		/* an undo may find its thing already gone (a counted trigger
		 * spent, an event removed with its probe): not an error */
		kft_file_write(file, value, true, &ignored);
		return 0;
	}
	}
	return kft_error_set(err, "corrupt journal entry '%c'", kind);
}

int kft_journal_restore(const char *path, struct kft_error *err)
{
	char *text = kft_file_read(path, err), **lines = NULL;
	size_t n = 0;
	int ret = 0;

	if (!text)
		return -1;
	for (char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
		char **bigger = realloc(lines, (n + 1) * sizeof(*lines));

		if (!bigger) {
			ret = kft_error_set(err, "out of memory");
			goto out;
		}
		lines = bigger;
		lines[n++] = p + 1;
	}
	/* a last line without its newline was cut short: never acted on */
	if (n && !strchr(lines[n - 1], '\n'))
		n--;
	for (char *p = text; (p = strchr(p, '\n')); p++)
		*p = '\0';
	while (n--) {
		char *file = strchr(lines[n], ' '), *value = file ? strchr(file + 1, ' ') : NULL;
		struct kft_error e;

		if (!value || file != lines[n] + 1)
			continue;	/* a line cut short by a crash: never acted on */
		*file++ = '\0';
		*value++ = '\0';
		if (undo_one(lines[n][0], unhex(file), unhex(value), &e) && !ret)
			ret = kft_error_set(err, "%s", e.msg);
	}
	if (unlink(path) && !ret)
		ret = kft_error_set(err, "%s: %s", path, strerror(errno));
out:
	free(lines);
	free(text);
	return ret;
}
