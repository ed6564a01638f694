// SPDX-License-Identifier: BSD-2-Clause
/*
 * The libgcc helpers GCC calls for __builtin_ctzl() and __builtin_clzl() on a
 * RISC-V without Zbb: __ctzdi2/__clzdi2 on RV64 (unsigned long is "di"),
 * __ctzsi2/__clzsi2 on RV32 ("si").  The firmware links no libgcc (the
 * toolchain's only rv64 libgcc is built for a hard-float ABI), so they live
 * here.  ctz (hart set walks on every IPI and remote fence) is a de Bruijn
 * multiply, as lib/pmu's pmu_ctz64: x & -x keeps the lowest set bit, and the
 * top bits of its product with the de Bruijn constant are unique for each
 * bit position.  clz is a binary search.
 */
#if __riscv_xlen == 64
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
#else
int __ctzsi2(unsigned int x);
int __clzsi2(unsigned int x);

_Static_assert(sizeof(unsigned long) == 4, "RV32: si is unsigned long");

static const unsigned char debruijn_ctz[32] = {
	 0,  1, 28,  2, 29, 14, 24,  3, 30, 22, 20, 15, 25, 17,  4,  8,
	31, 27, 13, 23, 21, 19, 16,  7, 26, 12, 18,  6, 11,  5, 10,  9,
};

int __ctzsi2(unsigned int x)	/* x != 0 */
{
	return debruijn_ctz[((x & -x) * 0x077CB531U) >> 27];
}

int __clzsi2(unsigned int x)
{
	int n = 0;

	if (!(x >> 16)) { n += 16; x <<= 16; }
	if (!(x >> 24)) { n += 8; x <<= 8; }
	if (!(x >> 28)) { n += 4; x <<= 4; }
	if (!(x >> 30)) { n += 2; x <<= 2; }
	if (!(x >> 31)) { n += 1; }
	return n;
}
#endif
