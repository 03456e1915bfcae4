// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/kft: a config or a command written (kft-spec §2.1), the run's
 * status read (§2.2). A write is one whole config (up to 64 KiB; KFT took
 * 2 KiB), or one of prime, start, stop. Unlike KFT, an unknown command is
 * an error, and errors say why in the kernel log.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kft-module.h"

#define KFT_MAX_WRITE (64 << 10)

static ssize_t ctl_write(struct file *file, const char __user *ubuf, size_t len, loff_t *off)
{
	static const char *const commands[] = { "prime", "start", "stop" };
	char *buf, *word;
	size_t i, n;
	int ret = -EINVAL;

	if (len > KFT_MAX_WRITE) {
		pr_err("kft: /proc/kft: %zu bytes written at once; a config is 64 KiB at most\n",
		       len);
		return -EINVAL;
	}
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	word = skip_spaces(buf);
	n = strcspn(word, " \t\r\n");
	mutex_lock(&kft_lock);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (n == strlen(commands[i]) && !strncmp(word, commands[i], n))
			break;
	if (i < ARRAY_SIZE(commands)) {
		word[n] = '\0';
		ret = kft_run_command(word);
	} else if (*word) {
		ret = kft_run_install(buf, len);
	} else {
		pr_err("kft: /proc/kft: write a config, prime, start or stop\n");
	}
	mutex_unlock(&kft_lock);
	kfree(buf);
	return ret ? ret : (ssize_t)len;
}

static void show_trigger(struct seq_file *m, const char *which, const struct kft_trigger *t)
{
	char buf[256];

	if (t->type == KFT_TRIGGER_ENTRY || t->type == KFT_TRIGGER_EXIT)
		seq_printf(m, "  trigger %s %s %s\n", which,
			   t->type == KFT_TRIGGER_ENTRY ? "entry" : "exit",
			   kft_func_ref_str(&t->func, buf, sizeof(buf)));
	else if (t->type == KFT_TRIGGER_TIME)
		seq_printf(m, "  trigger %s at time %llu\n", which, t->usecs);
	else
		seq_printf(m, "  trigger %s not set\n", which);
}

static void show_list(struct seq_file *m, const char *word, const struct kft_func_ref *refs,
		      size_t n)
{
	char buf[256];

	seq_printf(m, "  filter %s", word);
	for (size_t i = 0; i < n; i++)
		seq_printf(m, " %s", kft_func_ref_str(&refs[i], buf, sizeof(buf)));
	seq_puts(m, " fend\n");
}

const char *kft_fired_str(const struct kft_mtrigger *t, bool stop, char *buf, size_t size)
{
	if (t->how == KFT_TRIGGER_ENTRY || t->how == KFT_TRIGGER_EXIT)
		snprintf(buf, size, "%s function 0x%016lx",
			 t->how == KFT_TRIGGER_ENTRY ? "entry to" : "exit from", t->addr);
	else if (t->how == KFT_TRIGGER_TIME)
		snprintf(buf, size, "time at %llu usec from %s", t->usecs,
			 stop ? "start trigger" : "boot");
	else
		snprintf(buf, size, "%s", t->how == KFT_TRIGGER_USER ? "user action" :
					  t->how == KFT_TRIGGER_LOG_FULL ? "log full" : "?");
	return buf;
}

static int status_show(struct seq_file *m, void *v)
{
	struct kft_run *run;
	unsigned long st;
	char why[96];
	u64 timed = 0;
	int cpu;

	mutex_lock(&kft_lock);
	kft_run_tidy();
	run = rcu_dereference_protected(kft_live, lockdep_is_held(&kft_lock));
	if (!run) {
		seq_puts(m, "No logging run registered\n");
		goto out;
	}
	st = READ_ONCE(run->state);
	seq_printf(m, "status: run id %u, %sprimed, %striggered, %scomplete\n\n", run->id,
		   st & KFT_PRIMED ? "" : "not ", st & KFT_TRIGGERED ? "" : "not ",
		   st & KFT_COMPLETE ? "" : "not ");
	seq_puts(m, "config:\n");
	seq_printf(m, "  mode %d\n", 1 | (run->autorepeat ? 2 : 0));
	show_trigger(m, "start", &run->cfg.start);
	show_trigger(m, "stop", &run->cfg.stop);
	seq_printf(m, "  filter mintime %llu\n", run->cfg.mintime);
	seq_printf(m, "  filter maxtime %llu\n", run->cfg.maxtime);
	if (run->noints)
		seq_puts(m, "  filter noints\n");
	if (run->onlyints)
		seq_puts(m, "  filter onlyints\n");
	if (run->cfg.cpus_set) {
		char *cpus = kmalloc(KFT_CPUS_STR_MAX, GFP_KERNEL);

		if (cpus)
			seq_printf(m, "  filter cpus %s\n",
				   kft_config_cpus_str(&run->cfg, cpus, KFT_CPUS_STR_MAX));
		kfree(cpus);
	}
	if (run->cfg.has_funclist)
		show_list(m, "funclist", run->cfg.funcs, run->cfg.nfuncs);
	if (run->cfg.skip_list.set)
		show_list(m, "notrace", run->cfg.skip_list.refs, run->cfg.skip_list.n);
	seq_printf(m, "  logentries %llu\n", run->cap);
	seq_puts(m, "\nrun:\n");
	seq_puts(m, "  backend kft.ko (ftrace_ops entries, kft's own return hook)\n");
	if (run->start.how)
		seq_printf(m, "  started at %llu usec by %s\n", run->start.mark_ns / 1000,
			   kft_fired_str(&run->start, false, why, sizeof(why)));
	if (run->stop.how)
		seq_printf(m, "  stopped at %llu usec by %s\n", run->stop.mark_ns / 1000,
			   kft_fired_str(&run->stop, true, why, sizeof(why)));
	seq_printf(m, "  stops %u\n", run->cycle + !!(st & KFT_COMPLETE));
	for_each_possible_cpu(cpu)
		timed += *per_cpu_ptr(run->timed, cpu);
	seq_printf(m, "  entries %llu\n", (u64)min_t(s64, atomic64_read(&run->next), run->cap));
	seq_printf(m, "  calls timed %llu (the filters kept the entries of them)\n", timed);
out:
	mutex_unlock(&kft_lock);
	return 0;
}

static int status_open(struct inode *inode, struct file *file)
{
	return single_open(file, status_show, NULL);
}

static const struct proc_ops ctl_ops = {
	.proc_open = status_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = ctl_write,
};

int kft_proc_init(void)
{
	if (!proc_create("kft", 0600, NULL, &ctl_ops))
		return -ENOMEM;
	if (!proc_create("kft_data", 0400, NULL, &kft_data_ops)) {
		remove_proc_entry("kft", NULL);
		return -ENOMEM;
	}
	return 0;
}

void kft_proc_exit(void)
{
	remove_proc_entry("kft_data", NULL);
	remove_proc_entry("kft", NULL);
}
