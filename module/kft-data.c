// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kft_data: the run's log in KFT's layout (kft-spec §3), in entry
 * order, so kft addr2sym, kft kd and every script keyed on the header read
 * it. Opening takes a copy of the log and of the calls still open (Delta
 * -1), so a reader sees one moment and the run goes on meanwhile. Fixed
 * from KFT: a mark not yet set says so, counters count calls.
 */
#include <linux/mm.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/sort.h>

#include "kft-module.h"

struct snapshot {
	char *head;		/* the header, printed as the first item */
	size_t nrecs, cap;
	struct kft_mod_call *recs;
	u64 base_ns;		/* the first start: Entry is relative to it */
	u64 open_left_out;	/* open calls beyond KFT_OPEN_MAX */
};

#define KFT_OPEN_MAX 65536

static void add_open(const struct kft_mod_frame *f, void *arg)
{
	struct snapshot *s = arg;

	if (s->nrecs == s->cap) {
		s->open_left_out++;
		return;
	}
	s->recs[s->nrecs] = (struct kft_mod_call){ .entry_ns = f->entry_ns, .dur_ns = -1,
						   .func = f->func, .site = f->ret, .pid = f->pid,
						   .cpu = 0xffff, .ready = 1, .saved = f->saved };
	memcpy(s->recs[s->nrecs++].saved_args, f->saved_args, sizeof(f->saved_args));
}

/* entry order; a call before the calls it made, when the clock ties */
static int by_entry(const void *a, const void *b)
{
	const struct kft_mod_call *x = a, *y = b;
	u64 dx = x->dur_ns < 0 ? U64_MAX : x->dur_ns, dy = y->dur_ns < 0 ? U64_MAX : y->dur_ns;

	if (x->entry_ns != y->entry_ns)
		return x->entry_ns < y->entry_ns ? -1 : 1;
	return dx > dy ? -1 : dx < dy;
}

static char *header(const struct kft_run *run, const struct snapshot *snap)
{
	const char *counters_fmt = "Filter Counters:\n%s%s%s%s"
				   "Total entries filtered = %llu\nEntries not found = %llu\n%s";
	u64 t = atomic64_read(&run->time_filtered), ni = atomic64_read(&run->noints_filtered),
	    oi = atomic64_read(&run->onlyints_filtered), cf = atomic64_read(&run->cpus_filtered);
	char time_line[80] = "", noints[80] = "", onlyints[80] = "", cpus[80] = "", lost[320] = "";
	char started[160], stopped[160], why[96];
	u64 full = atomic64_read(&run->log_full), deep = atomic64_read(&run->too_deep),
	    nostack = atomic64_read(&run->no_stack);
	char *counters, *head;
	size_t l = 0;

	if (run->start.how)
		snprintf(started, sizeof(started), "Logging started at %llu usec by %s\n",
			 run->first_start_ns / 1000, kft_fired_str(&run->start, false, why, sizeof(why)));
	else
		snprintf(started, sizeof(started), "Logging not yet started\n");
	if (run->stop.how)
		snprintf(stopped, sizeof(stopped), "Logging stopped at %llu usec by %s\n",
			 run->stop.mark_ns / 1000, kft_fired_str(&run->stop, true, why, sizeof(why)));
	else
		snprintf(stopped, sizeof(stopped), "Logging not yet stopped\n");
	if (run->min_ns || run->max_ns)
		snprintf(time_line, sizeof(time_line), "\nExecution time filter count = %llu\n", t);
	if (run->noints)
		snprintf(noints, sizeof(noints), "No Interrupt functions filter count = %llu\n", ni);
	if (run->onlyints)
		snprintf(onlyints, sizeof(onlyints), "Only Interrupt functions filter count = %llu\n",
			 oi);
	if (run->cfg.cpus_set)
		snprintf(cpus, sizeof(cpus), "CPU mask filter count = %llu\n", cf);
	if (full)
		l += scnprintf(lost + l, sizeof(lost) - l,
			       "Calls not logged because the log was full = %llu\n", full);
	if (deep)
		l += scnprintf(lost + l, sizeof(lost) - l,
			       "Calls deeper than the shadow stack = %llu\n", deep);
	if (nostack)
		l += scnprintf(lost + l, sizeof(lost) - l,
			       "Calls of tasks beyond the module's tasks= parameter = %llu\n", nostack);
	if (snap->open_left_out)
		scnprintf(lost + l, sizeof(lost) - l, "Open calls not shown (over %d) = %llu\n",
			  KFT_OPEN_MAX, snap->open_left_out);
	counters = kasprintf(GFP_KERNEL, counters_fmt, time_line, noints, onlyints, cpus,
			     t + ni + oi + cf,
			     (u64)atomic64_read(&run->not_found), lost);
	if (!counters)
		return NULL;
	/* CONFIG_KFT_SAVE_ARGS's columns, when the args statement asks */
	head = kasprintf(GFP_KERNEL,
			 "\nKernel Instrumentation Run ID %u\n\n%s%s\n%s\n"
			 "Number of entries after filters = %llu\n\n\n"
			 " Entry    Delta     PID        Function                        Caller%s\n"
			 "-------- -------- -------- ----------------                 ------------\n",
			 run->id, started, stopped, counters, (u64)snap->nrecs,
			 run->nargs_fns ? "               Frame ptr        Arg 1            Arg 2"
					  "            Arg 3" : "");
	kfree(counters);
	return head;
}

static int take(struct snapshot *s)
{
	struct kft_run *run;
	u64 n, i;
	int ret = -ENOMEM;

	mutex_lock(&kft_lock);
	kft_run_tidy();
	run = rcu_dereference_protected(kft_live, lockdep_is_held(&kft_lock));
	if (!run) {
		s->head = kstrdup("No logging run registered\n", GFP_KERNEL);
		ret = s->head ? 0 : -ENOMEM;
		goto out;
	}
	n = min_t(u64, atomic64_read(&run->next), run->cap);
	/* room for the open calls too (more are left out, counted) */
	s->cap = n + KFT_OPEN_MAX;
	s->recs = kvmalloc_array(s->cap, sizeof(*s->recs), GFP_KERNEL);
	if (!s->recs)
		goto out;
	for (i = 0; i < n; i++)
		if (smp_load_acquire(&run->log[i].ready))
			s->recs[s->nrecs++] = run->log[i];
	if (run->start.how)
		kft_tasks_each_open(run->id, add_open, s);
	sort(s->recs, s->nrecs, sizeof(*s->recs), by_entry, NULL);
	s->base_ns = run->first_start_ns;
	s->head = header(run, s);
	ret = s->head ? 0 : -ENOMEM;
out:
	mutex_unlock(&kft_lock);
	return ret;
}

static void *data_start(struct seq_file *m, loff_t *pos)
{
	struct snapshot *s = m->private;

	return *pos <= (loff_t)s->nrecs ? pos : NULL;
}

static void *data_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return data_start(m, pos);
}

static void data_stop(struct seq_file *m, void *v)
{
}

static int data_show(struct seq_file *m, void *v)
{
	struct snapshot *s = m->private;
	loff_t i = *(loff_t *)v;
	const struct kft_mod_call *r;
	s64 entry;

	if (i == 0) {
		seq_puts(m, s->head);
		return 0;
	}
	r = &s->recs[i - 1];
	entry = r->entry_ns >= s->base_ns ? (s64)((r->entry_ns - s->base_ns) / 1000) :
					    -(s64)((s->base_ns - r->entry_ns) / 1000);
	/* the cpu where it returned; an open call has none yet (.0, as KFT) */
	seq_printf(m, "%8lld %8lld %7d.%u 0x%016lx               0x%016lx", entry,
		   r->dur_ns < 0 ? -1LL : r->dur_ns / 1000, r->pid,
		   r->cpu == 0xffff ? 0 : r->cpu, r->func, r->site);
	if (r->saved)
		seq_printf(m, "   %016lx %016lx %016lx %016lx", r->saved_args[0],
			   r->saved_args[1], r->saved_args[2], r->saved_args[3]);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations data_seq = {
	.start = data_start,
	.next = data_next,
	.stop = data_stop,
	.show = data_show,
};

static int data_open(struct inode *inode, struct file *file)
{
	struct snapshot *s = __seq_open_private(file, &data_seq, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	ret = take(s);
	if (ret) {
		kvfree(s->recs);
		kfree(s->head);
		seq_release_private(inode, file);
	}
	return ret;
}

static int data_release(struct inode *inode, struct file *file)
{
	struct snapshot *s = ((struct seq_file *)file->private_data)->private;

	kvfree(s->recs);
	kfree(s->head);
	return seq_release_private(inode, file);
}

const struct proc_ops kft_data_ops = {
	.proc_open = data_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = data_release,
};
