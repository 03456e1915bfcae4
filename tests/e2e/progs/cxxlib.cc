// SPDX-License-Identifier: GPL-2.0-only
// A C++ library built without instrumentation (kft record --lib): an
// exception thrown through its functions, a destructor run as it unwinds.
#include <stdexcept>

volatile int cxxlib_cleaned;

__attribute__((noinline)) void lib_cleanup() { cxxlib_cleaned = cxxlib_cleaned + 1; }

struct Guard {
	~Guard() { lib_cleanup(); }
};

__attribute__((noinline)) int lib_thrower(int x)
{
	if (x % 3 == 0)
		throw std::runtime_error("three");
	return x;
}

__attribute__((noinline)) int lib_middle(int x)
{
	Guard g;

	return lib_thrower(x) + 1;
}
