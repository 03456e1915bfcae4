/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Built with no instrumentation flag, for kft record's entry patching:
 * recursion, a loop of calls, a function that begins with a short branch
 * and one that reads a global through a RIP-relative operand, a tail
 * call, a longjmp past traced frames, a call among the first
 * instructions (at -O2), and, written in assembly, a function shorter
 * than the jmp and two loops made of a jump back to the function's own
 * start (a long jump, which kft re-aims, and a short one, which it
 * cannot), with frame descriptions as compilers write them (a stripped
 * build's functions are found by them); the
 * callers keep values in registers across calls the compiler knows leave
 * them alone (gcc's -fipa-ra), which the patched entries and exits must
 * keep too. The program checks its own results.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *word = "patched";
static jmp_buf back;
static volatile int sink;

__attribute__((noinline)) static int leaf(int x) { return x * 3 + 1; }

__attribute__((noinline)) static int loop(int n)
{
	int s = 0;

	if (n <= 0)	/* a short branch first */
		return -1;
	for (int i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

__attribute__((noinline)) static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) static size_t rip(void) { return strlen(word); }

__attribute__((noinline)) static int tail(int n) { return leaf(n + sink); }

__attribute__((noinline)) static int callfirst(int x) { return leaf(x) * 2 + sink; }

/* tiny(x): x, in three bytes and the padding behind them; countdown(n):
 * n jumps back to its own start by a jmp rel32 (a tail call of itself,
 * n + 1 entries), then 7; spin8(n): the same with a jmp rel8, then 8 */
int tiny(int x);
int countdown(int n);
int spin8(int n);
__asm__(".text\n"
	".p2align 4\n"
	".globl tiny\n.hidden tiny\n.type tiny, @function\n"
	"tiny:\n"
	"	.cfi_startproc\n"
	"	mov %edi, %eax\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size tiny, . - tiny\n"
	".p2align 4\n"
	".globl countdown\n.hidden countdown\n.type countdown, @function\n"
	"countdown:\n"
	"	.cfi_startproc\n"
	"	test %edi, %edi\n"
	"	jle 1f\n"
	"	dec %edi\n"
	"	.byte 0xe9\n"
	"	.long countdown - . - 4\n"
	"1:	mov $7, %eax\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size countdown, . - countdown\n"
	".globl spin8\n.hidden spin8\n.type spin8, @function\n"
	"spin8:\n"
	".Lspin8:\n"
	"	.cfi_startproc\n"
	"	test %edi, %edi\n"
	"	jle 2f\n"
	"	dec %edi\n"
	"	.byte 0xeb, .Lspin8 - . - 1\n"
	"2:	mov $8, %eax\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size spin8, . - spin8\n");

__attribute__((noinline)) static void deep(int n)
{
	if (!n) {
		if (sink >= 0)
			longjmp(back, 1);
		return;
	}
	deep(n - 1);
	sink++;
}

__attribute__((noinline)) static int jumper(void)
{
	if (!setjmp(back)) {
		deep(3);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 6;
	int a = loop(n), b = loop(0), t = tail(n), j = jumper();
	long f = fib(n);
	size_t r = rip();
	int c = callfirst(n), z = tiny(n), d = countdown(5), e = spin8(3);

	printf("loop %d %d fib %ld rip %zu tail %d jump %d first %d tiny %d count %d spin %d\n",
	       a, b, f, r, t, j, c, z, d, e);
	return a == 51 && b == -1 && f == 8 && r == 7 && t == 19 && j == 1 && c == 38 && z == 6 &&
			       d == 7 && e == 8
		       ? 0
		       : 1;
}
