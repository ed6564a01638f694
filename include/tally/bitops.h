/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bit scans for a RISC-V without Zbb, shared by the firmware's libgcc
 * helpers (lib/utils/bitops.c) and lib/pmu.  ctz is a de Bruijn multiply:
 * x & -x keeps the lowest set bit, and the top 6 bits of its product with
 * the de Bruijn constant are unique for each bit position (about 10
 * instructions, against 20 for a binary search).  fls is a binary search.
 */
#ifndef TALLY_BITOPS_H
#define TALLY_BITOPS_H

#include <stdint.h>

#define TALLY_DEBRUIJN64	0x03F79D71B4CB0A89ULL
/* bit k set alone -> index (2^k * TALLY_DEBRUIJN64) >> 58 (lib/utils/bitops.c) */
extern const uint8_t tally_debruijn_ctz64[64];

static inline unsigned int tally_ctz64(uint64_t x)	/* x != 0 */
{
	return tally_debruijn_ctz64[((x & -x) * TALLY_DEBRUIJN64) >> 58];
}

static inline unsigned int tally_fls64(uint64_t x)	/* highest set bit; 0 for 0 */
{
	unsigned int n = 63;

	if (!(x >> 32)) { n -= 32; x <<= 32; }
	if (!(x >> 48)) { n -= 16; x <<= 16; }
	if (!(x >> 56)) { n -= 8; x <<= 8; }
	if (!(x >> 60)) { n -= 4; x <<= 4; }
	if (!(x >> 62)) { n -= 2; x <<= 2; }
	if (!(x >> 63)) { n -= 1; }
	return n;
}

#endif
