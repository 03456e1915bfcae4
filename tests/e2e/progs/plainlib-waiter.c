/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls into plainlib.c's library until ./end appears (kft record -p
 * --lib): it writes its pid to ./pid, and says at the end whether every
 * sum came out right. */
#include <stdio.h>
#include <unistd.h>

int lib_sum(int n);

int main(void)
{
	int right = 1;
	FILE *f = fopen("pid.tmp", "w");

	if (!f)
		return 1;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	rename("pid.tmp", "pid");
	while (access("end", F_OK)) {
		right &= lib_sum(3) == 9;
		usleep(1000);
	}
	printf("calls %s\n", right ? "made, each sum right" : "wrong");
	return 0;
}
