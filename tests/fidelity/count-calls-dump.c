// SPDX-License-Identifier: GPL-2.0-only
/* Print count-calls.c's table: "0xADDRESS COUNT" a line, for kft addr2sym,
 * or "NAME COUNT" for a library's function. */
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct { uint64_t key, count; char name[48]; } slot;
	FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;

	if (!f) {
		fprintf(stderr, "usage: count-calls-dump FILE\n");
		return 1;
	}
	while (fread(&slot, sizeof(slot), 1, f) == 1)
		if (slot.key && slot.name[0])
			printf("%.47s %llu\n", slot.name, (unsigned long long)slot.count);
		else if (slot.key)
			printf("0x%016llx %llu\n", (unsigned long long)(slot.key - 1),
			       (unsigned long long)slot.count);
	fclose(f);
	return 0;
}
