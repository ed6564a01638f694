// SPDX-License-Identifier: BSD-2-Clause
/*
 * The two libgcc helpers GCC calls for __builtin_ctzl() and __builtin_clzl() on a
 * RISC-V without Zbb.  The firmware links no libgcc (the toolchain's only
 * rv64 libgcc is built for a hard-float ABI), so they live here: a
 * branch-light binary search, a handful of instructions per call.
 */
int __ctzdi2(unsigned long x);
int __clzdi2(unsigned long x);

_Static_assert(sizeof(unsigned long) == 8, "RV64: di is unsigned long");

int __ctzdi2(unsigned long x)
{
	int n = 0;

	if (!(x & 0xffffffffUL)) { n += 32; x >>= 32; }
	if (!(x & 0xffffUL)) { n += 16; x >>= 16; }
	if (!(x & 0xffUL)) { n += 8; x >>= 8; }
	if (!(x & 0xfUL)) { n += 4; x >>= 4; }
	if (!(x & 0x3UL)) { n += 2; x >>= 2; }
	if (!(x & 0x1UL)) { n += 1; }
	return n;
}

int __clzdi2(unsigned long x)
{
	int n = 0;

	if (!(x >> 32)) { n += 32; x <<= 32; }
	if (!(x >> 48)) { n += 16; x <<= 16; }
	if (!(x >> 56)) { n += 8; x <<= 8; }
	if (!(x >> 60)) { n += 4; x <<= 4; }
	if (!(x >> 62)) { n += 2; x <<= 2; }
	if (!(x >> 63)) { n += 1; }
	return n;
}
