// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "irq-events.h"

/* The bottom of the kernel's half: direct-mapped memory, never text */
#define IRQ_ADDR(n) (0xffff800000000000ULL + (uint64_t)(n) * 16)
#define SOFTIRQ_ADDR(v) (0xffff800000100000ULL + (uint64_t)(v) * 16)
#define LOCAL_TIMER_ADDR 0xffff800000200000ULL

static const char *const softirq_names[] = { "HI",	"TIMER",    "NET_TX",  "NET_RX",
					     "BLOCK",	"IRQ_POLL", "TASKLET", "SCHED",
					     "HRTIMER", "RCU" };

void kft_irq_init(struct kft_irq_state *s, struct tep_handle *tep)
{
	struct tep_event *entry = tep_find_event_by_name(tep, "irq", "irq_handler_entry");
	struct tep_event *exit_ = tep_find_event_by_name(tep, "irq", "irq_handler_exit");
	struct tep_event *soft = tep_find_event_by_name(tep, "irq", "softirq_entry");
	struct tep_event *soft_exit = tep_find_event_by_name(tep, "irq", "softirq_exit");
	struct tep_event *timer = tep_find_event_by_name(tep, "irq_vectors", "local_timer_entry");
	struct tep_event *timer_exit = tep_find_event_by_name(tep, "irq_vectors",
								"local_timer_exit");

	memset(s, 0, sizeof(*s));
	s->entry_id = entry ? entry->id : -1;
	s->exit_id = exit_ ? exit_->id : -1;
	s->soft_entry_id = soft ? soft->id : -1;
	s->soft_exit_id = soft_exit ? soft_exit->id : -1;
	s->timer_entry_id = timer ? timer->id : -1;
	s->timer_exit_id = timer_exit ? timer_exit->id : -1;
	s->entry_irq = entry ? tep_find_field(entry, "irq") : NULL;
	s->entry_name = entry ? tep_find_field(entry, "name") : NULL;
	s->exit_irq = exit_ ? tep_find_field(exit_, "irq") : NULL;
	s->soft_vec = soft ? tep_find_field(soft, "vec") : NULL;
	s->soft_exit_vec = soft_exit ? tep_find_field(soft_exit, "vec") : NULL;
}

/* addr's name, given once: the first an interrupt line is met with. */
static void name(struct kft_irq_state *s, uint64_t addr, const char *text)
{
	for (size_t i = 0; i < s->nnames; i++)
		if (s->names[i].addr == addr)
			return;
	if (kft_grow((void **)&s->names, s->nnames, &s->capnames, sizeof(*s->names), 32)) {
		s->oom = true;
		return;
	}
	s->names[s->nnames].addr = addr;
	snprintf(s->names[s->nnames].name, sizeof(s->names[s->nnames].name), "%s", text);
	/* a kallsyms name is one word */
	for (char *p = s->names[s->nnames].name; *p; p++)
		if (*p == ' ' || *p == '\t')
			*p = '_';
	s->nnames++;
}

static struct kft_irq_cpu *cpu_of(struct kft_irq_state *s, int cpu)
{
	if (cpu < 0 || cpu > 4095)
		return NULL;
	if (cpu >= s->ncpus) {
		struct kft_irq_cpu *bigger = realloc(s->cpus, (size_t)(cpu + 1) * sizeof(*bigger));

		if (!bigger) {
			s->oom = true;
			return NULL;
		}
		memset(bigger + s->ncpus, 0, (size_t)(cpu + 1 - s->ncpus) * sizeof(*bigger));
		s->cpus = bigger;
		s->ncpus = cpu + 1;
	}
	return &s->cpus[cpu];
}

static uint64_t number(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

bool kft_irq_event(struct kft_irq_state *s, struct tep_event *event, struct tep_record *rec,
		   int cpu, struct kft_kev *e)
{
	bool timer = event->id == s->timer_entry_id || event->id == s->timer_exit_id;
	bool entry = event->id == s->entry_id || event->id == s->soft_entry_id ||
		     event->id == s->timer_entry_id;
	bool soft = event->id == s->soft_entry_id || event->id == s->soft_exit_id;
	struct kft_irq_cpu *c;
	char text[48];
	uint64_t n = 0;

	if (event->id < 0 || (!entry && event->id != s->exit_id && event->id != s->soft_exit_id &&
			      event->id != s->timer_exit_id))
		return false;
	c = cpu_of(s, cpu);
	if (!c)
		return false;
	if (!timer)
		n = number(soft ? (entry ? s->soft_vec : s->soft_exit_vec)
				: (entry ? s->entry_irq : s->exit_irq), rec);
	e->func = timer ? LOCAL_TIMER_ADDR : soft ? SOFTIRQ_ADDR(n) : IRQ_ADDR(n);
	e->pid = KFT_IRQ_TASK_BASE + cpu;
	e->irq = 1;
	e->ts = rec->ts;
	if (entry) {
		if (timer) {
			snprintf(text, sizeof(text), "irq:local_timer");
		} else if (soft) {
			snprintf(text, sizeof(text), "softirq:%s",
				 n < sizeof(softirq_names) / sizeof(softirq_names[0])
					 ? softirq_names[n] : "?");
		} else {
			int len = 0;
			const char *what = s->entry_name ? tep_get_field_raw(NULL, event, "name", rec,
									   &len, 0)
							 : NULL;

			snprintf(text, sizeof(text), "irq%" PRIu64 ":%.*s", n,
				 what ? (int)strnlen(what, (size_t)(len > 0 ? len : 0)) : 0,
				 what ? what : "");
		}
		name(s, e->func, text);
		e->type = KFT_KEV_ENTRY;
		e->depth = c->depth;
		if (c->depth < KFT_IRQ_MAX_NEST)
			c->entry_ts[c->depth] = rec->ts;
		c->depth++;
		return !s->oom;
	}
	if (!c->depth)
		return false;	/* it began before the trace did */
	e->type = KFT_KEV_EXIT;
	c->depth--;
	e->depth = c->depth;
	e->extra = c->depth < KFT_IRQ_MAX_NEST && c->entry_ts[c->depth] &&
			   rec->ts > c->entry_ts[c->depth]
		   ? rec->ts - c->entry_ts[c->depth]
		   : 0;
	if (c->depth < KFT_IRQ_MAX_NEST)
		c->entry_ts[c->depth] = 0;
	return true;
}

void kft_irq_put_names(const struct kft_irq_state *s, FILE *out)
{
	for (size_t i = 0; i < s->nnames; i++)
		fprintf(out, "%016" PRIx64 " t %s\n", s->names[i].addr, s->names[i].name);
}

void kft_irq_free(struct kft_irq_state *s)
{
	free(s->cpus);
	free(s->names);
	memset(s, 0, sizeof(*s));
}
