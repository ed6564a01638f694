// SPDX-License-Identifier: BSD-2-Clause
/*
 * ACLINT MSWI and MTIMER, which also cover the older SiFive CLINT (one
 * device holding both).  Per-hart register addresses are recorded at boot
 * from the devicetree, by hart index (dense: sparse hart ids cost nothing).
 */
#include <stdint.h>
#include <tally/drivers.h>
#include <tally/hartmask.h>

static volatile uint32_t *msip[TALLY_MAX_HARTS];
static volatile uint64_t *mtimecmp[TALLY_MAX_HARTS];
static volatile uint64_t *mtime;

void mswi_add_hart(unsigned long index, unsigned long msip_addr)
{
	if (index < TALLY_MAX_HARTS)
		msip[index] = (volatile uint32_t *)msip_addr;
}

void mswi_send(unsigned long index)
{
	if (index < TALLY_MAX_HARTS && msip[index])
		*msip[index] = 1;
}

void mswi_clear(unsigned long index)
{
	if (index < TALLY_MAX_HARTS && msip[index])
		*msip[index] = 0;
}

void mtimer_set_mtime(unsigned long mtime_addr)
{
	mtime = (volatile uint64_t *)mtime_addr;
}

void mtimer_add_hart(unsigned long index, unsigned long mtimecmp_addr)
{
	if (index < TALLY_MAX_HARTS)
		mtimecmp[index] = (volatile uint64_t *)mtimecmp_addr;
}

#if __riscv_xlen == 32
/* RV32: 64-bit registers as two 32-bit accesses, carry-safe. */
uint64_t mtimer_value(void)
{
	volatile uint32_t *t = (volatile uint32_t *)mtime;
	uint32_t hi, lo;

	if (!t)
		return 0;
	do {
		hi = t[1];
		lo = t[0];
	} while (hi != t[1]);
	return (uint64_t)hi << 32 | lo;
}

void mtimer_set(unsigned long index, uint64_t when)
{
	volatile uint32_t *cmp;

	if (index >= TALLY_MAX_HARTS || !mtimecmp[index])
		return;
	/* low word to its maximum first: no early interrupt in between */
	cmp = (volatile uint32_t *)mtimecmp[index];
	cmp[0] = 0xffffffffU;
	cmp[1] = (uint32_t)(when >> 32);
	cmp[0] = (uint32_t)when;
}
#else
uint64_t mtimer_value(void)
{
	return mtime ? *mtime : 0;
}

void mtimer_set(unsigned long index, uint64_t when)
{
	if (index < TALLY_MAX_HARTS && mtimecmp[index])
		*mtimecmp[index] = when;
}
#endif
