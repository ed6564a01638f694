/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The PMU library's firmware-event entry points, for the places where a
 * firmware event happens (the firmware's fw_event(), a board's platform
 * events, the unit tests).  Inline, so that an event nobody counts costs
 * one load and a not-taken branch; the counting itself is pmu_fw_count()
 * in lib/pmu/pmu_counter.c.  A header of its own: lib/pmu never includes
 * it, so the library's files and headers depend on each other one way.
 */
#ifndef TALLY_PMU_FW_H
#define TALLY_PMU_FW_H

#include <tally/pmu.h>

/*
 * A firmware event happened on this hart (code: SBI_PMU_FW_* including
 * SBI_PMU_FW_TALLY_*, not SBI_PMU_FW_PLATFORM).  With a constant code this
 * is one load and a not-taken branch unless a counter of that event runs;
 * then each running counter of the event is incremented (no scan).
 */
static inline void pmu_fw_event(struct pmu_hart *h, unsigned int code)
{
	unsigned int slot = pmu_fw_slot_of(code);
	uint32_t ctrs;

	if (slot >= PMU_FW_SLOT_PLATFORM)
		return;
	ctrs = h->fw_slot_ctrs[slot];
	if (__builtin_expect(ctrs != 0, 0))
		pmu_fw_count(h, ctrs);
}

/* Whether pmu_fw_event(h, code) would count (a counter of it runs). */
static inline bool pmu_fw_event_pending(const struct pmu_hart *h,
					unsigned int code)
{
	unsigned int slot = pmu_fw_slot_of(code);

	return slot < PMU_FW_SLOT_PLATFORM && h->fw_slot_ctrs[slot] != 0;
}

/* A board's SBI_PMU_FW_PLATFORM event with this encoding happened. */
static inline void pmu_fw_platform_event(struct pmu_hart *h,
					 uint64_t event_data)
{
	uint32_t ctrs = h->fw_slot_ctrs[PMU_FW_SLOT_PLATFORM];

	if (__builtin_expect(ctrs != 0, 0))
		pmu_fw_count_platform(h, ctrs, event_data);
}

#endif
