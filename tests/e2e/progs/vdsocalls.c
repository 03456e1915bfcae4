// SPDX-License-Identifier: GPL-2.0-only
/* Calls the C library binds to the kernel's vDSO (gettimeofday, time):
 * under --libcalls, they are named as any library's. */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

int main(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	printf("%d\n", time(NULL) >= tv.tv_sec);
	return 0;
}
