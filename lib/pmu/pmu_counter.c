// SPDX-License-Identifier: BSD-2-Clause
/*
 * Logical counters: the state every SBI call shares (configured, started,
 * firmware counts) and the firmware-event slow path.  Nothing here scans
 * all counters or takes a lock: a hart only ever touches its own state.
 */
#include "pmu_internal.h"

static bool is_hw(const struct pmu_hart *h, unsigned long idx)
{
	return idx < h->nr_hw;
}

/*
 * A hardware counter's value is kept as well: counter_start writes it a
 * second time once the counter runs (pmu_hw_rewrite_started).
 */
void pmu_counter_write(struct pmu_hart *h, unsigned int idx, uint64_t value)
{
	h->counter[idx].value = value;
	if (is_hw(h, idx))
		h->ops->counter_write(h->ops_ctx, idx, value);
}

/*
 * Start configured, stopped counters: one CSR write for all hardware ones.
 * The hardware comes last so that the call to it is a tail call (no stack
 * frame on the path of every counter_start).
 */
void pmu_counters_start(struct pmu_hart *h, uint64_t set)
{
	uint64_t fw = set & pmu_fw_mask(h);
	unsigned int idx;

	for_each_bit(idx, fw)
		h->fw_slot_ctrs[h->counter[idx].fw_slot] |=
			1U << (idx - h->nr_hw);
	h->started |= set;
	pmu_hw_start(h, set & pmu_hw_mask(h));
}

/*
 * pmu_counters_start() of one counter: Linux starts its counters one by
 * one, (idx, mask 1), and restarts one after an overflow; no bit scan.
 */
void pmu_counter_start(struct pmu_hart *h, unsigned int idx)
{
	h->started |= BIT64(idx);
	if (is_hw(h, idx))
		pmu_hw_start_one(h, idx);
	else
		h->fw_slot_ctrs[h->counter[idx].fw_slot] |=
			1U << (idx - h->nr_hw);
}

/* Stop started counters (the hardware last, as above). */
void pmu_counters_stop(struct pmu_hart *h, uint64_t set)
{
	uint64_t fw = set & pmu_fw_mask(h);
	unsigned int idx;

	for_each_bit(idx, fw)
		h->fw_slot_ctrs[h->counter[idx].fw_slot] &=
			~(1U << (idx - h->nr_hw));
	h->started &= ~set;
	pmu_hw_stop(h, set & pmu_hw_mask(h));
}

/*
 * SBI_PMU_STOP_FLAG_RESET: forget the event of a configured, stopped
 * counter (a firmware counter keeps its count).
 */
void pmu_counter_release(struct pmu_hart *h, unsigned long idx)
{
	struct pmu_counter *c = &h->counter[idx];

	c->event_idx = 0;
	c->event_data = 0;
	c->selector = 0;
	c->evsel = 0;
	c->fw_slot = PMU_FW_SLOT_NONE;
	h->configured &= ~BIT64(idx);
	if (is_hw(h, idx))
		pmu_hw_release(h, idx);
}

static __attribute__((noinline)) void release_many(struct pmu_hart *h,
						   uint64_t set)
{
	unsigned int idx;

	for_each_bit(idx, set)
		pmu_counter_release(h, idx);
}

/*
 * counter_stop with RESET: release every counter of set (configured,
 * stopped; base is the call's counter_idx_base).  Linux resets its
 * counters one by one, as (idx, mask 1): that case is a tail call with no
 * bit scan (the counter is base) and no loop state kept in saved registers.
 */
void pmu_counters_release(struct pmu_hart *h, unsigned long base, uint64_t set)
{
	if (set == BIT64(base))
		pmu_counter_release(h, base);
	else if (set & (set - 1))
		release_many(h, set);
	else if (set)
		pmu_counter_release(h, pmu_ctz64(set));
}

/* Nothing configured, nothing started, no shared memory. */
void pmu_state_reset(struct pmu_hart *h)
{
	unsigned int idx;

	for (idx = 0; idx < PMU_COUNTERS_MAX; idx++)
		h->counter[idx] = (struct pmu_counter){
			.fw_slot = PMU_FW_SLOT_NONE,
		};
	for (idx = 0; idx < PMU_FW_SLOT_COUNT; idx++)
		h->fw_slot_ctrs[idx] = 0;
	h->configured = 0;
	h->started = 0;
	h->of_armed = 0;
	h->vof_armed = 0;
	h->saved = 0;
	h->saved_of = 0;
	h->shmem_enabled = false;
	h->shmem_addr = 0;
	h->shmem = NULL;
}

/*
 * Reached only when a firmware counter of the event runs: ctrs is the set
 * of such counters (bit j = logical counter nr_hw + j), usually one.
 */
void pmu_fw_count(struct pmu_hart *h, uint32_t ctrs)
{
	unsigned int j;

	for_each_bit(j, ctrs)
		h->counter[h->nr_hw + j].value++;
}

/* SBI_PMU_FW_PLATFORM: only the counters of this encoding count. */
void pmu_fw_count_platform(struct pmu_hart *h, uint32_t ctrs,
			   uint64_t event_data)
{
	unsigned int j;

	for_each_bit(j, ctrs) {
		struct pmu_counter *c = &h->counter[h->nr_hw + j];

		if (c->event_data == event_data)
			c->value++;
	}
}
