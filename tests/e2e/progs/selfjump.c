// SPDX-License-Identifier: GPL-2.0-only
/*
 * A function that jumps to its own entry: a tail call of itself, as a
 * compiler leaves it (jmp <self> after its epilogue). Written here as a
 * compiler would, since gcc and clang make most such recursions loops;
 * in a patchable build it has the NOPs and the section entry gcc gives a
 * function (-DPATCHABLE). It counts its own entries, the truth its
 * trace must hold.
 */
#include <stdio.h>
#include <stdlib.h>

long entries;
int countdown(int n);

#ifdef PATCHABLE
#define PAD "\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n"
#define ENTRY_SECTION \
	"\t.section __patchable_function_entries,\"awo\",@progbits,countdown\n" \
	"\t.align 8\n\t.quad countdown\n\t.text\n"
#else
#define PAD ""
#define ENTRY_SECTION ""
#endif

__asm__("\t.text\n\t.globl countdown\n\t.type countdown, @function\n"
	"countdown:\n" PAD
	"\tincq entries(%rip)\n"
	"\tpush %rbx\n"
	"\tmov %edi, %ebx\n"
	"\ttest %edi, %edi\n"
	"\tje 1f\n"
	"\tlea -1(%rdi), %edi\n"
	"\tpop %rbx\n"
	"\tjmp countdown\n"
	"1:\txor %eax, %eax\n"
	"\tpop %rbx\n"
	"\tret\n"
	"\t.size countdown, .-countdown\n"
	ENTRY_SECTION);

__attribute__((noinline)) int start(int n)
{
	return countdown(n) + 1;
}

int main(int argc, char **argv)
{
	int r = start(argc > 1 ? atoi(argv[1]) : 394);

	printf("entries %ld\n", entries);
	return r == 1 ? 0 : 1;
}
