/* SPDX-License-Identifier: GPL-2.0-only */
/* Calls the C library's libm N times over (kft record --lib libm.so.6). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100;
	double s = 0;

	for (int i = 0; i < n; i++)
		s += exp(i * 1e-3) + pow(1.001, i);
	printf("%.3f\n", s);
	return 0;
}
