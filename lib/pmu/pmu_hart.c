// SPDX-License-Identifier: BSD-2-Clause
/* Hart lifecycle: boot / HSM start, HSM stop, non-retentive suspend. */
#include "pmu_internal.h"

static bool ops_complete(const struct pmu_hart_ops *ops)
{
	return ops && ops->counter_read && ops->counter_write &&
	       ops->event_read && ops->event_write && ops->inhibit_set &&
	       ops->inhibit_clear;
}

/* A vendor overflow back end needs its three hooks (filter is optional). */
static bool overflow_complete(const struct pmu_overflow_ops *of)
{
	return !of || (of->arm && of->disarm && of->flags);
}

static unsigned int highest_bit_plus_one(uint32_t bits)
{
	return bits ? pmu_fls64(bits) + 1 : 0;
}

/*
 * A hart whose PMU could not be set up: no state, no hart access.  Every
 * SBI call on it answers SBI_ERR_NOT_SUPPORTED and the lifecycle calls do
 * nothing, so nothing ever reaches a missing ops table.
 */
static long disable(struct pmu_hart *h)
{
	if (h) {
		pmu_state_reset(h);
		h->ops = NULL;
		h->valid = 0;
		h->nr_hw = 0;
		h->hw_usable = 0;
	}
	return SBI_ERR_INVALID_PARAM;
}

/*
 * Boot and every HSM start: forget everything (configuration, counts,
 * snapshot memory) and put the counters into a known state: programmable
 * ones inhibited with no event, cycle/instret running freely without a
 * mode filter.  SBI_ERR_INVALID_PARAM if the configuration is unusable;
 * h is then disabled (pmu_hart_ready() false).
 */
long pmu_hart_init(struct pmu_hart *h, const struct pmu_hart_config *cfg)
{
	uint32_t usable;

	if (!h || !cfg || !cfg->map || !cfg->map->frozen ||
	    !ops_complete(cfg->ops) || !overflow_complete(cfg->overflow))
		return disable(h);
	usable = cfg->caps.counters & ~(1U << PMU_COUNTER_TIME);
	if ((usable & ~(uint32_t)FIXED_COUNTERS) &&
	    (cfg->caps.hpm_bits < 1 || cfg->caps.hpm_bits > 64))
		return disable(h);

	h->map = cfg->map;
	h->ops = cfg->ops;
	h->ops_ctx = cfg->ops_ctx;
	h->hooks = cfg->hooks;
	h->hooks_ctx = cfg->hooks_ctx;
	h->caps = cfg->caps;
	/* Sscofpmf's own OF bit and LCOFI win over a vendor back end */
	h->vof = cfg->caps.sscofpmf ? NULL : cfg->overflow;
	h->hw_usable = usable;
	h->nr_hw = highest_bit_plus_one(usable);
	h->valid = (uint64_t)usable |
		   ((((uint64_t)1 << PMU_FW_COUNTERS) - 1) << h->nr_hw);
	pmu_state_reset(h);
	pmu_hw_reset_all(h);
	pmu_event_supported_init(h);
	return SBI_SUCCESS;
}

/*
 * HSM stop: release every counter and the snapshot memory; CSRs back to
 * the unconfigured state.  The hart comes back through pmu_hart_init().
 */
void pmu_hart_stop(struct pmu_hart *h)
{
	if (!pmu_hart_ready(h))
		return;
	pmu_compat_hart_stop(h);
	pmu_state_reset(h);
	pmu_hw_reset_all(h);
}

/*
 * Before a non-retentive suspend: save the values of the configured
 * hardware counters and of cycle/instret, and the OF bits of started
 * programmable counters.  Firmware counters live in memory and need
 * nothing.  The counters keep running until the hart stops.
 */
void pmu_hart_suspend(struct pmu_hart *h)
{
	if (!pmu_hart_ready(h))
		return;
	uint64_t bits = (h->configured | FIXED_COUNTERS) & pmu_hw_mask(h);
	uint64_t of_bits = h->started & h->configured & pmu_hw_mask(h) &
			   ~FIXED_COUNTERS;
	unsigned int idx;

	h->saved = (uint32_t)bits;
	for_each_bit(idx, bits)
		h->counter[idx].value = h->ops->counter_read(h->ops_ctx, idx);
	h->saved_of = 0;
	if (h->vof) {
		/* the vendor flags of cycle/instret are real too */
		h->saved_of = (uint32_t)(h->started & h->configured) &
			      h->vof_armed & h->vof->flags(h->ops_ctx);
		return;
	}
	of_bits &= pmu_hw_of_armed(h);
	for_each_bit(idx, of_bits)
		if (pmu_hw_overflowed(h, idx))
			h->saved_of |= (uint32_t)BIT64(idx);
}

/* After it: the CSRs were lost, rebuild them from the state. */
void pmu_hart_resume_nonretentive(struct pmu_hart *h)
{
	if (!pmu_hart_ready(h))
		return;
	pmu_hw_reprogram(h);
}

/*
 * Which of the candidate programmable counters (bits 3..31) really hold a
 * value: each is inhibited, written with all-ones and read back, then
 * restored.  The privileged spec allows an mhpmcounter that reads zero
 * whatever is written (no trap), so an access that does not trap proves
 * nothing.  *bits gets the narrowest width found (0 if none counts).  The
 * probed counters are left inhibited.
 */
uint32_t pmu_probe_counters(const struct pmu_hart_ops *ops, void *ctx,
			    uint32_t candidates, unsigned int *bits)
{
	uint32_t found = 0;
	unsigned int width = 64;

	candidates &= ~(uint32_t)(FIXED_COUNTERS | BIT64(PMU_COUNTER_TIME));
	for (unsigned int idx = 3; idx < 32; idx++) {
		uint64_t saved, ones;
		unsigned int w = 0;

		if (!(candidates & BIT64(idx)))
			continue;
		ops->inhibit_set(ctx, (uint32_t)BIT64(idx));
		saved = ops->counter_read(ctx, idx);
		ops->counter_write(ctx, idx, ~0ULL);
		ones = ops->counter_read(ctx, idx);
		ops->counter_write(ctx, idx, saved);
		while (w < 64 && (ones >> w) & 1)
			w++;
		if (!w)
			continue;	/* hardwired (or not writable): not offered */
		found |= (uint32_t)BIT64(idx);
		if (w < width)
			width = w;
	}
	*bits = found ? width : 0;
	return found;
}
