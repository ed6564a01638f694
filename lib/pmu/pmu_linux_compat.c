// SPDX-License-Identifier: BSD-2-Clause
/*
 * Linux compatibility: the known bugs of Linux's SBI PMU driver
 * (drivers/perf/riscv_pmu_sbi.c) that the firmware absorbs, every one of
 * them in this file.  Users boot the kernel their distribution ships; a
 * firmware that answers its buggy calls as the spec says leaves them with
 * a perf that samples badly or reads garbage, while they can do nothing
 * about it.  docs/perf.md ("Linux compatibility") has the table: affected
 * kernels, symptom, exact call, upstream fix (contrib/linux/ has the fixes
 * as patches).
 *
 * The rules every accommodation here follows:
 *  - It is recognised by the narrowest signature the affected kernels
 *    send, and only on the path where the spec would refuse the call
 *    (INVALID_PARAM, NO_SHMEM): a call the spec accepts never reaches this
 *    file, so a correct caller sees the spec's behaviour and pays nothing.
 *  - It never widens what a caller can do: the amended call is one a
 *    correct caller could have made (its counters, its own snapshot page,
 *    checked again as every S-mode address is).
 *  - A wrong call that is not the signature keeps the spec's error.
 *  - The boot banner names each one (pmu_linux_compat[]); building with
 *    PMU_LINUX_COMPAT=0 (make LINUX_COMPAT=0) removes them all and gives
 *    the strict spec behaviour.
 */
#include <limits.h>
#include "pmu_internal.h"

#if PMU_LINUX_COMPAT

const struct pmu_linux_compat_info pmu_linux_compat[] = {
	{ "overflow restart at counter_idx_base XLEN*XLEN read as base 0",
	  "Linux 6.10+" },
	{ "snapshot page kept across CPU hotplug (disabled, then HSM stop)",
	  "Linux 6.10+" },
};
const unsigned int pmu_linux_compat_count =
	sizeof(pmu_linux_compat) / sizeof(pmu_linux_compat[0]);

/*
 * 1. The overflow restart base.
 *
 * With the snapshot, Linux's overflow handler (pmu_sbi_start_ovf_ctrs_snapshot)
 * restarts the counters it stopped with
 *	counter_start(idx * BITS_PER_LONG, used_hw_ctrs[i], INIT_SNAPSHOT)
 * where idx is what for_each_set_bit() left behind: BITS_PER_LONG.  The
 * base is XLEN * XLEN (4096 on RV64, 1024 on RV32), which names no
 * counter; the values the kernel wrote are at counter_values[idx], the
 * slots of base 0.  It means base 0: on RV64 the loop has one word (i = 0);
 * on RV32 the second word (i = 1) names counters 32..63, which are never
 * hardware counters (at most 32), so its mask is empty or refused anyway.
 *
 * Signature: base exactly XLEN * XLEN, flags exactly INIT_SNAPSHOT, and
 * the mask read from base 0 names configured, stopped hardware counters
 * only (what used_hw_ctrs is after the handler's stop).  Anything else
 * keeps INVALID_PARAM.  On true *base is 0 and the mask, as a set from
 * base 0, is a valid one (every bit a hardware counter): counter_start
 * need not check it again.
 */
#define LINUX_RESTART_BASE	((unsigned long)(sizeof(long) * CHAR_BIT) * \
				 (sizeof(long) * CHAR_BIT))

bool pmu_compat_restart_base(const struct pmu_hart *h, unsigned long *base,
			     unsigned long mask, unsigned long flags)
{
	uint64_t set = mask;

	if (*base != LINUX_RESTART_BASE ||
	    flags != SBI_PMU_START_FLAG_INIT_SNAPSHOT || !mask)
		return false;
	/* base 0: bit i is counter i; every one a configured, stopped hw counter */
	if ((set & ~(uint64_t)pmu_hw_mask(h)) || (set & ~h->configured) ||
	    (set & h->started))
		return false;
	*base = 0;
	return true;
}

/*
 * 2. The snapshot page across CPU hotplug.
 *
 * When a CPU goes offline Linux disables its page (pmu_sbi_dying_cpu:
 * snapshot_set_shmem(-1, -1, 0)) and the hart stops (HSM hart_stop).  When
 * the CPU comes back, pmu_sbi_snapshot_setup() skips the call because
 * snapshot_set_done is still true: the kernel goes on using the page it
 * set at boot, asking for TAKE_SNAPSHOT on every stop and INIT_SNAPSHOT on
 * every overflow restart, which the spec answers with NO_SHMEM (the
 * counter keeps running; perf reads stale page values, dmesg fills with
 * "Stopping counter idx N failed with error -524").
 *
 * Signature: a page was enabled; S-mode disabled it and the hart then
 * stopped (HSM), with no snapshot_set_shmem call since; the hart came
 * back and a TAKE_SNAPSHOT or INIT_SNAPSHOT call finds no page.  Only
 * then the page of before the stop is taken again, after the same check
 * snapshot_set_shmem makes (shmem_map): it is the page this kernel gave
 * for this purpose and still believes set.  The disable is what remembers
 * the page; naming a page (snapshot_set_shmem with an address, even a
 * refused one) forgets it, and so does a disable with nothing enabled or
 * parked; a disable that is not followed by an HSM stop (the driver
 * giving up the snapshot) never brings it back.  docs/security.md
 * ("PMU snapshot page after CPU hotplug") argues why a hostile S-mode
 * gains nothing from it.
 */
enum {
	COMPAT_PAGE_NONE,	/* nothing to bring back */
	COMPAT_PAGE_DISABLED,	/* S-mode disabled its page ... */
	COMPAT_PAGE_PARKED,	/* ... and the hart stopped after that */
};

/*
 * snapshot_set_shmem(-1, -1): the page being disabled, or, on a hart that
 * came back without setting one, the parked page the kernel still believes
 * set (a second offline before any perf use of the CPU).
 */
void pmu_compat_shmem_disabled(struct pmu_hart *h)
{
	if (h->shmem_enabled) {
		h->compat_page = h->shmem_addr;
		h->compat_page_state = COMPAT_PAGE_DISABLED;
	} else if (h->compat_page_state == COMPAT_PAGE_PARKED) {
		h->compat_page_state = COMPAT_PAGE_DISABLED;
	} else {
		h->compat_page_state = COMPAT_PAGE_NONE;
	}
}

void pmu_compat_shmem_set(struct pmu_hart *h)
{
	h->compat_page_state = COMPAT_PAGE_NONE;
}

void pmu_compat_hart_stop(struct pmu_hart *h)
{
	if (h->compat_page_state == COMPAT_PAGE_DISABLED)
		h->compat_page_state = COMPAT_PAGE_PARKED;
	else
		h->compat_page_state = COMPAT_PAGE_NONE;
}

bool pmu_compat_snapshot_revive(struct pmu_hart *h)
{
	void *page;

	if (h->compat_page_state != COMPAT_PAGE_PARKED)
		return false;
	h->compat_page_state = COMPAT_PAGE_NONE;	/* once */
	page = h->ops->shmem_map ?
	       h->ops->shmem_map(h->ops_ctx, h->compat_page,
				 SBI_PMU_SNAPSHOT_SIZE) : NULL;
	if (!page)
		return false;
	h->shmem_addr = h->compat_page;
	h->shmem = page;
	h->shmem_enabled = true;
	return true;
}

#else	/* PMU_LINUX_COMPAT == 0: the strict spec, nothing here */

const struct pmu_linux_compat_info pmu_linux_compat[1];	/* none */
const unsigned int pmu_linux_compat_count;

#endif
