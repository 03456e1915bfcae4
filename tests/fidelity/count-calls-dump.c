// SPDX-License-Identifier: GPL-2.0-only
/* Print a count table (count-table.h): "0xADDRESS COUNT" a line, for kft
 * addr2sym, or "NAME COUNT" for a slot with a name. */
#include <stdio.h>

#include "count-table.h"

int main(int argc, char **argv)
{
	struct count_slot slot;
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
