// SPDX-License-Identifier: GPL-2.0-only
/* Words shared by the views: symbols and trigger reasons. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "../config/config.h"
#include "views.h"

const char *kft_view_fired(const struct kft_fired *f, bool is_stop, struct kft_symbolizer *sz,
			   char *buf, size_t size)
{
	char name[256];

	switch (f->how) {
	case KFT_TRIGGER_ENTRY:
		snprintf(buf, size, "entry to function %s",
			 kft_symbol_text(sz, kft_symbolizer_image(sz, f->session, f->mark_ns), f->func,
					 false, name, sizeof(name)));
		break;
	case KFT_TRIGGER_EXIT:
		snprintf(buf, size, "exit from function %s",
			 kft_symbol_text(sz, kft_symbolizer_image(sz, f->session, f->mark_ns), f->func,
					 false, name, sizeof(name)));
		break;
	case KFT_TRIGGER_TIME:
		snprintf(buf, size, "time at %" PRIu64 " usec from %s", f->usecs,
			 is_stop ? "start trigger" : "start");
		break;
	case KFT_TRIGGER_USER:
		snprintf(buf, size, "user action");
		break;
	case KFT_TRIGGER_LOG_FULL:
		snprintf(buf, size, "log full");
		break;
	default:
		snprintf(buf, size, "?");
		break;
	}
	return buf;
}

const char *kft_view_ending(const struct kft_trace *tr, char *buf, size_t size)
{
	int sig;

	if (!tr->ended_how)
		return NULL;
	if (sscanf(tr->ended_how, "killed by signal %d", &sig) == 1 && sigabbrev_np(sig))
		snprintf(buf, size, "%s (SIG%s)", tr->ended_how, sigabbrev_np(sig));
	else
		snprintf(buf, size, "%s", tr->ended_how);
	return buf;
}

bool kft_view_stopped(const struct kft_trace *tr, struct kft_symbolizer *sz, uint64_t *at_ns,
		      char *why, size_t size)
{
	const struct kft_control *ctl = &tr->ctl;
	char how[64];

	if (ctl->stop.how) {
		*at_ns = ctl->stop.mark_ns;
		kft_view_fired(&ctl->stop, true, sz, why, size);
		return true;
	}
	if (ctl->start.how && ctl->ended_ns) {
		*at_ns = ctl->ended_ns;
		if (tr->ended_how && strcmp(tr->ended_how, "exited 0"))
			snprintf(why, size, "the end of the program: %s",
				 kft_view_ending(tr, how, sizeof(how)));
		else
			snprintf(why, size, "the end of the program");
		return true;
	}
	return false;
}

char *kft_view_mark_text(char *p, const struct kft_mark *m)
{
	for (size_t i = 0; i < m->len && i < KFT_MARK_TEXT && m->text[i]; i++)
		*p++ = (unsigned char)m->text[i] < 0x20 || m->text[i] == 0x7f ? '?' : m->text[i];
	return p;
}

char kft_view_delay_mark(uint64_t ns)
{
	return ns > 100000 ? '!' : ns > 1000 ? '+' : ' ';
}
