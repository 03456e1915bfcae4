// SPDX-License-Identifier: GPL-2.0-only
// Catches what cxxlib.cc's library throws.
#include <cstdio>
#include <stdexcept>

int lib_middle(int x);

int main()
{
	int caught = 0, sum = 0;

	for (int i = 0; i < 6; i++) {
		try {
			sum += lib_middle(i);
		} catch (const std::exception &) {
			caught++;
		}
	}
	std::printf("caught %d sum %d\n", caught, sum);
	return 0;
}
