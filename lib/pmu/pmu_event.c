// SPDX-License-Identifier: BSD-2-Clause
/*
 * The event matcher: which counters of this hart can count an event, and
 * with which selector.  counter_config_matching and event_get_info both ask
 * it, so event_get_info answers "supported" exactly when some counter of
 * this hart could be configured for the event.
 *
 * event_data: types 0 and 1 and the firmware events other than
 * SBI_PMU_FW_PLATFORM do not use it (the spec reserves its non-zero values);
 * it is ignored for them, as event_get_info must (its entries carry
 * event_data only for types 2, 3 and 15).
 */
#include "pmu_internal.h"

/* Counters 0 and 2 count one architectural event each; 1 counts none. */
static uint32_t sanitize_hw(unsigned long event_idx, uint32_t counters)
{
	counters &= ~(1U << PMU_COUNTER_TIME);
	if (event_idx != EVENT_CYCLES)
		counters &= ~(1U << PMU_COUNTER_CYCLE);
	if (event_idx != EVENT_INSTRUCTIONS)
		counters &= ~(1U << PMU_COUNTER_INSTRET);
	return counters;
}

static uint32_t board_counters(const struct pmu_hart *h,
			       unsigned long event_idx, uint64_t event_data,
			       uint64_t *selector)
{
	uint32_t counters;

	if (!h->hooks || !h->hooks->hw_event_counters)
		return 0;
	counters = h->hooks->hw_event_counters(h->hooks_ctx, event_idx,
					       event_data, selector);
	*selector &= ~MHPMEVENT_PRIV_BITS;
	return counters;
}

/* Types 0 and 1. */
static uint32_t hw_event_counters(const struct pmu_hart *h,
				  unsigned long event_idx, uint64_t *selector)
{
	uint32_t counters = board_counters(h, event_idx, 0, selector);

	if (counters)
		return counters;
	return pmu_map_hw_counters(h->map, (uint32_t)event_idx, selector);
}

/* Types 2 and 3: code 0, event_data is the selector's low 48 / 56 bits. */
static uint32_t raw_event_counters(const struct pmu_hart *h,
				   unsigned long event_idx,
				   uint64_t event_data, uint64_t data_mask,
				   uint64_t *selector)
{
	uint32_t counters;

	if (SBI_PMU_EVENT_CODE(event_idx) || (event_data & ~data_mask))
		return 0;
	counters = board_counters(h, event_idx, event_data, selector);
	if (counters)
		return counters;
	*selector = event_data;
	return pmu_map_raw_counters(h->map, event_data);
}

static bool fw_event_match(const struct pmu_hart *h, unsigned long code,
			   uint64_t event_data, struct pmu_match *m)
{
	unsigned int slot = pmu_fw_slot_of(code);

	if (slot == PMU_FW_SLOT_NONE)
		return false;
	if (slot == PMU_FW_SLOT_PLATFORM &&
	    !(h->hooks && h->hooks->fw_platform_supported &&
	      h->hooks->fw_platform_supported(h->hooks_ctx, event_data)))
		return false;
	m->counters = pmu_fw_mask(h);
	m->selector = 0;
	m->fw_slot = slot;
	return m->counters != 0;
}

/*
 * Types 0 and 1 of the spec's tables, when no board hook answers them: the
 * map's direct table, one load (event_get_info asks it per entry).  False
 * if the event is not one of those; the full path then answers.
 */
static bool hw_event_direct(const struct pmu_hart *h, unsigned long event_idx,
			    struct pmu_match *m)
{
	const struct pmu_map_direct *d;

	if (h->hooks && h->hooks->hw_event_counters)
		return false;
	d = pmu_map_direct_entry(h->map, (uint32_t)event_idx);
	if (!d)
		return false;
	m->counters = sanitize_hw(event_idx, d->counters) & pmu_hw_mask(h);
	m->selector = d->selector;
	m->fw_slot = PMU_FW_SLOT_NONE;
	return true;
}

/* Every other event (noinline: the direct path above needs no frame). */
static __attribute__((noinline)) bool event_match(const struct pmu_hart *h,
						  unsigned long event_idx,
						  uint64_t event_data,
						  struct pmu_match *m)
{
	uint64_t selector = 0;
	uint32_t counters;

	if (event_idx & ~SBI_PMU_EVENT_IDX_MASK)
		return false;

	switch (SBI_PMU_EVENT_TYPE(event_idx)) {
	case SBI_PMU_EVENT_TYPE_HW:
		if (SBI_PMU_EVENT_CODE(event_idx) == SBI_PMU_HW_NO_EVENT)
			return false;
		counters = hw_event_counters(h, event_idx, &selector);
		break;
	case SBI_PMU_EVENT_TYPE_CACHE:
		counters = hw_event_counters(h, event_idx, &selector);
		break;
	case SBI_PMU_EVENT_TYPE_RAW:
		counters = raw_event_counters(h, event_idx, event_data,
					      SBI_PMU_RAW_DATA_MASK,
					      &selector);
		break;
	case SBI_PMU_EVENT_TYPE_RAW_V2:
		counters = raw_event_counters(h, event_idx, event_data,
					      SBI_PMU_RAW_V2_DATA_MASK,
					      &selector);
		break;
	case SBI_PMU_EVENT_TYPE_FW:
		return fw_event_match(h, SBI_PMU_EVENT_CODE(event_idx),
				      event_data, m);
	default:
		return false;
	}

	m->counters = sanitize_hw(event_idx, counters) & pmu_hw_mask(h);
	m->selector = selector;
	m->fw_slot = PMU_FW_SLOT_NONE;
	return m->counters != 0;
}

bool pmu_event_match(const struct pmu_hart *h, unsigned long event_idx,
		     uint64_t event_data, struct pmu_match *m)
{
	/* types 0 and 1 are the event_idx below type 2's first */
	bool hw_or_cache = event_idx < SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_RAW, 0);

	if (hw_or_cache && event_idx != SBI_PMU_HW_NO_EVENT &&
	    hw_event_direct(h, event_idx, m))
		return m->counters != 0;
	return event_match(h, event_idx, event_data, m);
}

/*
 * The direct table's events (type 0 codes below PMU_MAP_DIRECT_HW, type 1
 * below PMU_MAP_DIRECT_CACHE), asked once per hart init: their answer
 * depends only on the frozen map, the board hook and the hart's counters,
 * none of which changes until the next init.  event_data is 0: types 0
 * and 1 ignore it.
 */
void pmu_event_supported_init(struct pmu_hart *h)
{
	struct pmu_match m;
	unsigned int slot;

	for (slot = 0; slot < PMU_MAP_DIRECT; slot++) {
		uint32_t event_idx = slot < PMU_MAP_DIRECT_HW ?
			SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, slot) :
			SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_CACHE,
					  slot - PMU_MAP_DIRECT_HW);
		uint64_t bit = BIT64(slot % 64);

		if (pmu_event_match(h, event_idx, 0, &m))
			h->direct_supported[slot / 64] |= bit;
		else
			h->direct_supported[slot / 64] &= ~bit;
	}
}

/* Every other event: the matcher itself. */
bool pmu_event_supported_slow(const struct pmu_hart *h,
			      unsigned long event_idx, uint64_t event_data)
{
	struct pmu_match m;

	return pmu_event_match(h, event_idx, event_data, &m);
}

/* Does this programmable counter ignore its mode filter for the selector? */
static bool filter_ignored(const struct pmu_hart *h, uint64_t selector)
{
	uint64_t id = selector & MHPMEVENT_EVENT_ID_MASK;

	return (h->caps.quirks & PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET) &&
	       (id == SBI_PMU_HW_CPU_CYCLES || id == SBI_PMU_HW_INSTRUCTIONS);
}

/*
 * Mode-filter policy: the counters that may take a request with the
 * SET_*INH flags of cfg_flags, among 'counters' (every counter of this hart
 * that counts the event).  A host-mode flag (UINH, SINH, MINH) needs a
 * counter that filters: mcycle/minstret only with Smcntrpmf, programmable
 * counters only with Sscofpmf (minus the quirk), firmware counters never.
 * Those are the answer whenever there is one: a busy filtering counter is
 * never traded for one that would count the wrong modes.
 *
 * When no counter of the hart can apply the filter to this event (QEMU
 * 7.2's cycles and instructions, every event of a hart without Sscofpmf,
 * firmware events), the flags are taken as the hints the spec calls them:
 * the event is counted in every mode.  Refusing it would leave a KVM
 * guest's counters at 0 (KVM backs them with host events that exclude the
 * host: SINH | UINH) and perf's cycles:u <not counted>.  The boot banner
 * says where filters are not applied (docs/pmu.md, Mode filtering).  A
 * firmware built with PMU_STRICT_FILTERS refuses instead (NOT_SUPPORTED).
 *
 * *unapplied says so (config_matching then places it: pmu_sbi.c).
 *
 * VSINH/VUINH alone are taken by every counter: perf sets exclude_guest on
 * every event by default and Linux 6.12 turns it into VSINH | VUINH.
 * Counters that can filter get the bits written (pmu_hw_configure).
 */
uint64_t pmu_filter_capable(const struct pmu_hart *h, uint64_t counters,
			    uint64_t selector, unsigned long cfg_flags,
			    bool *unapplied)
{
	uint64_t ok = 0, capable;

	*unapplied = false;
	if (!(cfg_flags & PMU_INH_HOST))
		return counters;
	if (h->caps.smcntrpmf)
		ok |= FIXED_COUNTERS;
	if (h->caps.sscofpmf && !filter_ignored(h, selector))
		ok |= pmu_hw_mask(h) & ~FIXED_COUNTERS;
	if (h->vof && h->vof->filter)	/* a vendor filter (Andes) */
		ok |= pmu_hw_mask(h) & ~FIXED_COUNTERS;
	capable = counters & ok & pmu_hw_mask(h);
	if (capable || PMU_STRICT_FILTERS)
		return capable;
	*unapplied = true;
	return counters;
}
