// SPDX-License-Identifier: BSD-2-Clause
/*
 * The one bit-scan table (include/tally/bitops.h), and the two libgcc
 * helpers GCC calls for __builtin_ctzl() and __builtin_clzl() on a RISC-V
 * without Zbb.  The firmware links no libgcc (the toolchain's only rv64
 * libgcc is built for a hard-float ABI), so they live here.  ctz runs in
 * hart set walks on every IPI and remote fence.
 */
#include <tally/bitops.h>

int __ctzdi2(unsigned long x);
int __clzdi2(unsigned long x);

_Static_assert(sizeof(unsigned long) == 8, "RV64: di is unsigned long");

const uint8_t tally_debruijn_ctz64[64] = {
	 0,  1, 48,  2, 57, 49, 28,  3, 61, 58, 50, 42, 38, 29, 17,  4,
	62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12,  5,
	63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
	46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19,  9, 13,  8,  7,  6,
};

int __ctzdi2(unsigned long x)	/* x != 0 */
{
	return (int)tally_ctz64(x);
}

int __clzdi2(unsigned long x)
{
	return 63 - (int)tally_fls64(x);
}
