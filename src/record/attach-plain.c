// SPDX-License-Identifier: GPL-2.0-only
/*
 * A function's first instructions are replaced by a jmp that covers
 * more than one of them: a thread stopped between two of them would
 * resume inside the jmp. So, as a debugger sets its breakpoints, every
 * thread is held still (ptrace) while the runtime patches, and a
 * function some thread is inside the first instructions of is left as
 * it is. Leaving, kft writes back through /proc/PID/mem, with every
 * thread held again, the bytes the runtime changed (the entries' jmps,
 * the callers it re-aimed), from the program's file: a thread running in
 * a trampoline then comes back to code as it was. The trampolines stay,
 * as the runtime does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/patch-plan.h"
#include "../symbols/elf-symtab.h"
#include "attach-plain.h"
#include "target.h"

/* Runtime address - link-time address of the file elf (at path) in
 * process pid: false if it is not loaded there. */
static bool module_bias(pid_t pid, const char *path, const struct kft_elf *elf, uint64_t *bias)
{
	uint64_t start = kft_object_base(pid, path, NULL, 0), first = 0;

	if (!start)
		return false;
	for (size_t i = 0; i < elf->nloads; i++)
		if (!elf->loads[i].offset)
			first = elf->loads[i].vaddr & ~(uint64_t)0xfff;
	*bias = start - first;
	return true;
}

/* Leave out of plan, for the module loaded at bias, what a thread is
 * inside: the main one at main_pc, and those held. 0, or -1 with err. */
static int leave_out_running(struct kft_patch_plan *plan, uint64_t bias, uint64_t main_pc,
			     const struct kft_stopped *held, struct kft_error *err)
{
	uint64_t *at = calloc(held->n + 1, sizeof(*at));
	int ret;

	if (!at)
		return kft_error_set(err, "out of memory");
	at[0] = main_pc - bias;
	for (size_t i = 0; i < held->n; i++)
		at[i + 1] = held->v[i].pc - bias;
	ret = kft_patch_plan_leave_out(plan, at, held->n + 1,
				       "a thread was inside its first instructions as kft attached");
	free(at);
	return ret ? kft_error_set(err, "out of memory") : 0;
}

int kft_attach_plain_prepare(pid_t pid, uint64_t main_pc, struct kft_patch_plans *plans,
			     const char *dir, struct kft_stopped *held, struct kft_error *err)
{
	uint64_t *bias = calloc(plans->n, sizeof(*bias));
	int ret = 0;

	if (!bias)
		return kft_error_set(err, "out of memory");
	for (size_t i = 0; i < plans->n && !ret; i++) {
		struct kft_elf elf;

		if (kft_elf_open_headers(&elf, plans->v[i].path, err)) {
			ret = -1;
			break;
		}
		if (!module_bias(pid, plans->v[i].path, &elf, &bias[i]))
			ret = kft_error_set(err, "process %d: %s is not mapped in it (replaced "
					    "since it started?)", (int)pid, plans->v[i].path);
		kft_elf_close(&elf);
	}
	if (!ret)
		ret = kft_threads_stop(pid, pid, held, err);
	for (size_t i = 0; i < plans->n && !ret; i++)
		ret = leave_out_running(&plans->v[i], bias[i], main_pc, held, err);
	free(bias);
	return ret ? -1 : kft_patch_plan_write(plans->v, plans->n, dir, err);
}

/* Put back at addr (in the process, through mem) the file's bytes there
 * (vaddr of elf), where they differ; with opcode, only where the bytes
 * now begin with it (the runtime's jmp). */
static int put_back(int mem, uint64_t addr, const struct kft_elf *elf, uint64_t vaddr, size_t len,
		    int opcode)
{
	uint8_t now[KFT_PLAN_ORIG_MAX];
	uint64_t avail;
	const uint8_t *was = kft_elf_bytes_at(elf, vaddr, &avail);

	if (!was || avail < len || len > sizeof(now))
		return 0;	/* (not the file's code: the runtime did not write there) */
	if (pread(mem, now, len, (off_t)addr) != (ssize_t)len)
		return -1;
	if (!memcmp(now, was, len) || (opcode >= 0 && now[0] != opcode))
		return 0;
	return pwrite(mem, was, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}

/* Every byte the plan h had the runtime change. */
static int restore_module(pid_t pid, int mem, const struct kft_plan_hdr *h, struct kft_error *err)
{
	const struct kft_plan_func *f = kft_plan_funcs(h);
	const struct kft_plan_caller *c = kft_plan_callers(h);
	struct kft_elf elf;
	uint64_t bias;
	int ret = 0;

	if (kft_elf_open_headers(&elf, h->path, err))
		return -1;
	if (!module_bias(pid, h->path, &elf, &bias)) {
		kft_elf_close(&elf);
		return 0;	/* (not there: nothing was patched) */
	}
	for (uint32_t i = 0; i < h->nfuncs && !ret; i++)
		ret = put_back(mem, bias + f[i].patch, &elf, f[i].patch, 5, 0xe9);
	for (uint32_t i = 0; i < h->ncallers && !ret; i++)
		ret = put_back(mem, bias + c[i].rel32, &elf, c[i].rel32, 4, -1);
	kft_elf_close(&elf);
	if (ret)
		kft_error_set(err, "process %d: its code could not be written back: %s", (int)pid,
			      strerror(errno));
	return ret;
}

int kft_attach_plain_restore(pid_t pid, const char *dir, struct kft_error *err)
{
	char name[4096], mem_path[64];
	struct kft_stopped held;
	struct stat st;
	size_t at, size, block;
	int fd, mem, ret = 0;
	void *map;

	if (snprintf(name, sizeof(name), "%s/%s", dir, KFT_PLAN_FILE) >= (int)sizeof(name))
		return kft_error_set(err, "%s: name too long", dir);
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* a patchable program: the runtime gives its entries back */
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return 0;
	}
	size = (size_t)st.st_size;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return kft_error_set(err, "%s: %s", name, strerror(errno));
	snprintf(mem_path, sizeof(mem_path), "/proc/%d/mem", (int)pid);
	if (kft_threads_stop(pid, 0, &held, err)) {
		kft_threads_release(&held);
		munmap(map, size);
		return -1;
	}
	mem = open(mem_path, O_RDWR | O_CLOEXEC);
	if (mem < 0)
		ret = kft_error_set(err, "%s: %s", mem_path, strerror(errno));
	for (at = 0; !ret && at < size; at += block) {
		const struct kft_plan_hdr *h = (const void *)((const char *)map + at);

		block = kft_plan_block(h, size - at);
		if (!block)
			break;
		ret = restore_module(pid, mem, h, err);
	}
	if (mem >= 0)
		close(mem);
	kft_threads_release(&held);
	munmap(map, size);
	return ret;
}
