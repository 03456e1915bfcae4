// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stripped program's functions, from its .eh_frame: every function a
 * compiler emits for x86-64 has a frame description (FDE) saying where
 * it starts, for unwinders, and .eh_frame_hdr lists those starts sorted
 * for a binary search. kft reads that list (its usual encoding; another
 * gives nothing): a function runs to the next one's start (its padding
 * with it), or to the end of its section. Those no symbol names are named
 * func_ADDR. A cold part of a function has an FDE of its own too: its
 * first instruction runs inside the frame its function set up, which
 * the FDE says (kft_frame_cfi_inside, through libdw).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../format/patch-plan.h"
#include "frame-funcs.h"

#define PE_SDATA4 0x0b		/* DW_EH_PE_sdata4 */
#define PE_UDATA4 0x03		/* DW_EH_PE_udata4 */
#define PE_PCREL 0x10		/* DW_EH_PE_pcrel */
#define PE_DATAREL 0x30		/* DW_EH_PE_datarel */

static int32_t s32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#define CODE_SECTIONS 32	/* .init, .plt*, .text, .fini: a few */

/* What of the file's sections the functions are found from, in one walk
 * of them: .eh_frame_hdr's bytes, and where code lies (a PLT's stubs are
 * the libraries' functions, not the file's: not taken). */
struct frame_sections {
	const uint8_t *hdr;	/* .eh_frame_hdr's bytes, or NULL */
	uint64_t hdr_addr;
	size_t hdr_len;
	struct {
		uint64_t lo, hi;
	} code[CODE_SECTIONS];
	size_t ncode;
};

static void read_sections(struct kft_elf *elf, struct frame_sections *fs)
{
	Elf_Scn *scn = NULL;
	size_t names;

	memset(fs, 0, sizeof(*fs));
	if (elf_getshdrstrndx(elf->handle, &names))
		return;
	while ((scn = elf_nextscn(elf->handle, scn))) {
		const char *name;
		Elf_Data *d;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf->handle, names, sh.sh_name)))
			continue;
		if ((sh.sh_flags & SHF_EXECINSTR) && strncmp(name, ".plt", 4) &&
		    fs->ncode < CODE_SECTIONS) {
			fs->code[fs->ncode].lo = sh.sh_addr;
			fs->code[fs->ncode++].hi = sh.sh_addr + sh.sh_size;
		} else if (sh.sh_type == SHT_PROGBITS && !strcmp(name, ".eh_frame_hdr") &&
			   (d = elf_getdata(scn, NULL)) && d->d_buf) {
			fs->hdr = d->d_buf;
			fs->hdr_addr = sh.sh_addr;
			fs->hdr_len = d->d_size;
		}
	}
}

/* Where the code section holding addr ends; addr if none does. */
static uint64_t section_end(const struct frame_sections *fs, uint64_t addr)
{
	for (size_t i = 0; i < fs->ncode; i++)
		if (addr >= fs->code[i].lo && addr < fs->code[i].hi)
			return fs->code[i].hi;
	return addr;
}

/* The start of the i-th function the sorted table lists. */
static uint64_t fde_start(const struct frame_sections *fs, size_t i)
{
	return fs->hdr_addr + (uint64_t)(int64_t)s32(fs->hdr + 12 + 8 * i);
}

int kft_elf_add_frame_functions(struct kft_elf *elf, struct kft_error *err)
{
	uint64_t *addr = NULL, *size = NULL;
	struct frame_sections fs;
	size_t count, n = 0;
	const uint8_t *h;
	int ret = 0;

	if (elf->has_symtab)
		return 0;
	read_sections(elf, &fs);
	h = fs.hdr;
	if (!h || fs.hdr_len < 12 || h[0] != 1 || h[1] != (PE_PCREL | PE_SDATA4) ||
	    h[2] != PE_UDATA4 || h[3] != (PE_DATAREL | PE_SDATA4))
		return 0;
	count = (uint32_t)s32(h + 8);
	if (count > (fs.hdr_len - 12) / 8)
		return 0;
	addr = malloc((count ? count : 1) * sizeof(*addr));
	size = malloc((count ? count : 1) * sizeof(*size));
	if (!addr || !size) {
		ret = kft_error_set(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		uint64_t start = fde_start(&fs, i), end = section_end(&fs, start), next;
		const struct kft_elf_sym *s = kft_elf_lookup(elf, start);

		if (i + 1 < count && (next = fde_start(&fs, i + 1)) > start && next < end)
			end = next;
		if (end <= start || (s && (s->addr == start || start < s->addr + s->size)))
			continue;	/* no code, named, or inside one named */
		addr[n] = start;
		size[n++] = end - start;
	}
	if (kft_elf_add_made(elf, addr, size, n))
		ret = kft_error_set(err, "out of memory");
out:
	free(addr);
	free(size);
	return ret;
}

struct kft_frame_cfi {
	Dwarf_CFI *cfi;
};

struct kft_frame_cfi *kft_frame_cfi_open(const struct kft_elf *elf)
{
	struct kft_frame_cfi *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	c->cfi = dwarf_getcfi_elf(elf->handle);
	if (!c->cfi) {
		free(c);
		return NULL;
	}
	return c;
}

void kft_frame_cfi_close(struct kft_frame_cfi *c)
{
	if (!c)
		return;
	dwarf_cfi_end(c->cfi);
	free(c);
}

/* x86-64's DWARF register numbers: rsp, and those a callee saves */
#define DW_RSP 7
static const int callee_saved[] = { 3, 6, 12, 13, 14, 15 };	/* rbx rbp r12-r15 */

int kft_frame_cfi_inside(struct kft_frame_cfi *c, uint64_t addr)
{
	Dwarf_Op mem[3], *ops;
	Dwarf_Frame *frame;
	size_t nops;
	int inside = -1;

	if (!c || dwarf_cfi_addrframe(c->cfi, addr, &frame))
		return -1;
	/* the CFA: rsp + 8 at a function's first instruction (only the
	 * return address pushed) */
	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		goto out;
	if (!((ops[0].atom == DW_OP_breg0 + DW_RSP && ops[0].number == 8) ||
	      (ops[0].atom == DW_OP_bregx && ops[0].number == DW_RSP && ops[0].number2 == 8))) {
		inside = 1;	/* rsp+16 or more, or rbp's: a frame set up */
		goto out;
	}
	inside = 0;
	for (size_t i = 0; i < sizeof(callee_saved) / sizeof(callee_saved[0]); i++)
		if (!dwarf_frame_register(frame, callee_saved[i], mem, &ops, &nops) && nops)
			inside = 1;	/* saved already */
out:
	free(frame);
	return inside;
}

int kft_elf_each_relative(const struct kft_elf *elf, int (*fn)(void *ctx, uint64_t addr), void *ctx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf->handle, scn))) {
		Elf_Data *d;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			int ret;

			if (gelf_getrela(d, (int)i, &r) && GELF_R_TYPE(r.r_info) == R_X86_64_RELATIVE &&
			    (ret = fn(ctx, (uint64_t)r.r_addend)))
				return ret;
		}
	}
	return 0;
}

/* Whether dir's patch plan is for the file at path (one of its modules). */
static bool planned(const char *dir, const char *path)
{
	struct kft_plan_hdr h;
	char name[4096];
	bool same = false;
	struct stat st;
	size_t block;
	off_t at = 0;
	int fd;

	if (snprintf(name, sizeof(name), "%s/%s", dir, KFT_PLAN_FILE) >= (int)sizeof(name) ||
	    (fd = open(name, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	/* (each block's header read, its size checked against the file's) */
	while (!same && !fstat(fd, &st) && pread(fd, &h, sizeof(h), at) == (ssize_t)sizeof(h) &&
	       (block = kft_plan_block(&h, (size_t)(st.st_size - at)))) {
		same = !strcmp(h.path, path);
		at += (off_t)block;
	}
	close(fd);
	return same;
}

void kft_elf_add_planned_functions(struct kft_elf *elf, const char *dir, const char *path)
{
	/* (out of memory: the functions stay unnamed, as without a plan) */
	if (!elf->has_symtab && planned(dir, path))
		kft_elf_add_frame_functions(elf, NULL);
}
