// SPDX-License-Identifier: GPL-2.0-only
// C++ names (a namespace, a class with overloads, a template) and
// exceptions through traced frames: caught, cleaned up after by a
// destructor, rethrown.
static volatile int sink;

namespace ns {
struct Foo {
	__attribute__((noinline)) int bar(int x) const { return x + 1; }
	__attribute__((noinline)) int bar(double x) const { return (int)x + 2; }
};
static volatile int twiced;
/* (not four bytes at the end of the code, which a plain build could not
 * patch) */
template <typename T> __attribute__((noinline)) T twice(T v)
{
	twiced++;
	return v + v;
}
}

__attribute__((noinline)) void cleanup() { sink = sink + 1; }

struct Guard {
	__attribute__((noinline)) ~Guard() { cleanup(); }
};

__attribute__((noinline)) int thrower(int x)
{
	if (x > 2)
		throw x;
	return x;
}

__attribute__((noinline)) int middle(int x) { return thrower(x) + 1; }

__attribute__((noinline)) int catcher(int x)
{
	try {
		return middle(x);
	} catch (int e) {
		return -e;
	}
}

__attribute__((noinline)) int guarded(int x)
{
	Guard g;

	return middle(x);
}

__attribute__((noinline)) int rethrower(int x)
{
	try {
		return guarded(x);
	} catch (...) {
		throw;
	}
}

__attribute__((noinline)) int outer(int x)
{
	try {
		return rethrower(x);
	} catch (int e) {
		return e;
	}
}

int main(int argc, char **argv)
{
	ns::Foo f;
	int s = 0;

	(void)argv;
	s += f.bar(1);
	s += f.bar(2.0);
	s += ns::twice(argc + 2);	/* (not a constant: no build folds the call) */
	s += catcher(argc + 5);
	s += catcher(1);
	s += outer(argc + 5);
	return s == 0;
}
