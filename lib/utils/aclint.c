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

unsigned long mtimer_value(void)
{
	return mtime ? *mtime : 0;
}

void mtimer_set(unsigned long index, unsigned long when)
{
	if (index < TALLY_MAX_HARTS && mtimecmp[index])
		*mtimecmp[index] = when;
}
