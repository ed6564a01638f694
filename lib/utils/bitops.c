// SPDX-License-Identifier: BSD-2-Clause
/*
 * The two libgcc helpers GCC calls for __builtin_ctzl() and __builtin_clzl() on a
 * RISC-V without Zbb.  The firmware links no libgcc (the toolchain's only
 * rv64 libgcc is built for a hard-float ABI), so they live here.  ctz (hart
 * set walks on every IPI and remote fence) is a de Bruijn multiply, as
 * lib/pmu's pmu_ctz64: x & -x keeps the lowest set bit, and the top 6 bits
 * of its product with the de Bruijn constant are unique for each bit
 * position.  clz is a binary search.
 */
int __ctzdi2(unsigned long x);
int __clzdi2(unsigned long x);

_Static_assert(sizeof(unsigned long) == 8, "RV64: di is unsigned long");

static const unsigned char debruijn_ctz[64] = {
	 0,  1, 48,  2, 57, 49, 28,  3, 61, 58, 50, 42, 38, 29, 17,  4,
	62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12,  5,
	63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
	46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19,  9, 13,  8,  7,  6,
};

int __ctzdi2(unsigned long x)	/* x != 0 */
{
	return debruijn_ctz[((x & -x) * 0x03F79D71B4CB0A89UL) >> 58];
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
