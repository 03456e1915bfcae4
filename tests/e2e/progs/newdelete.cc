// SPDX-License-Identifier: GPL-2.0-only
// A call into libstdc++ (operator new) that calls on into libc (malloc):
// kft record --libcalls=all sees the second call too.
int *volatile kept;

__attribute__((noinline)) int work()
{
	kept = new int(3);
	int v = *kept;
	delete kept;
	return v;
}

int main()
{
	return work() == 3 ? 0 : 1;
}
