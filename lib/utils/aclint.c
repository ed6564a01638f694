// SPDX-License-Identifier: BSD-2-Clause
/*
 * ACLINT MSWI and MTIMER, which also cover the older SiFive CLINT (one
 * device holding both).  Per-hart register addresses are recorded at boot
 * from the devicetree, so sparse hart IDs cost nothing here.
 */
#include <stdint.h>
#include <tally/drivers.h>
#include <tally/hartmask.h>

static volatile uint32_t *msip[TALLY_MAX_HARTS];
static volatile uint64_t *mtimecmp[TALLY_MAX_HARTS];
static volatile uint64_t *mtime;

void mswi_add_hart(unsigned long hartid, unsigned long msip_addr)
{
	if (hartid < TALLY_MAX_HARTS)
		msip[hartid] = (volatile uint32_t *)msip_addr;
}

void mswi_send(unsigned long hartid)
{
	if (hartid < TALLY_MAX_HARTS && msip[hartid])
		*msip[hartid] = 1;
}

void mswi_clear(unsigned long hartid)
{
	if (hartid < TALLY_MAX_HARTS && msip[hartid])
		*msip[hartid] = 0;
}

void mtimer_set_mtime(unsigned long mtime_addr)
{
	mtime = (volatile uint64_t *)mtime_addr;
}

void mtimer_add_hart(unsigned long hartid, unsigned long mtimecmp_addr)
{
	if (hartid < TALLY_MAX_HARTS)
		mtimecmp[hartid] = (volatile uint64_t *)mtimecmp_addr;
}

unsigned long mtimer_value(void)
{
	return mtime ? *mtime : 0;
}

void mtimer_set(unsigned long hartid, unsigned long when)
{
	if (hartid < TALLY_MAX_HARTS && mtimecmp[hartid])
		*mtimecmp[hartid] = when;
}
