// SPDX-License-Identifier: BSD-2-Clause
/*
 * SBI PMU functions 0..6, the ecall decoder and the table of operations.
 *
 * Every call validates its whole request before it changes anything: a
 * call that returns INVALID_PARAM, NOT_SUPPORTED, NO_SHMEM or
 * ALREADY_STARTED has touched no counter.  ALREADY_STOPPED is different:
 * stopping is idempotent, so counter_stop stops (and with RESET releases)
 * every counter of a valid set and then reports that some were not
 * running.  Linux relies on that: it stops then resets the same counter,
 * stops all used counters in its overflow handler although some may be
 * stopped already, and at CPU online stops all counters with RESET, most
 * of them unconfigured.
 */
#include <limits.h>
#include "pmu_internal.h"

/* The FID functions stay out of line: see pmu_sbi_call(). */
#define PMU_SBI_FN	__attribute__((noinline))

static bool counter_valid(const struct pmu_hart *h, unsigned long idx)
{
	return idx < pmu_total(h) && (h->valid & BIT64(idx));
}

/*
 * The set named by (base, mask) as a bitmap of logical counters.  The
 * checks never compute base + bit before knowing it cannot wrap: base may
 * be anything up to ULONG_MAX and mask may name bits past the last counter.
 * An empty mask names no counter and is refused like an invalid one.
 */
static long counter_set(const struct pmu_hart *h, unsigned long base,
			unsigned long mask, uint64_t *set)
{
	unsigned long total = pmu_total(h);

	if (!mask || base >= total)
		return SBI_ERR_INVALID_PARAM;
	/*
	 * Bit i names counter base + i: every set bit must be below
	 * total - base (>= 1).  A shift tests that without finding the top
	 * bit; when total - base is a whole register or more, every bit fits.
	 */
	if (total - base < sizeof(mask) * CHAR_BIT && (mask >> (total - base)))
		return SBI_ERR_INVALID_PARAM;
	*set = (uint64_t)mask << base;		/* base + top < total <= 64 */
	if (*set & ~h->valid)
		return SBI_ERR_INVALID_PARAM;
	return SBI_SUCCESS;
}

/* ---- FID 0, 1 ----------------------------------------------------------- */

PMU_SBI_FN struct sbiret pmu_sbi_num_counters(struct pmu_hart *h)
{
	return sbi_ok(pmu_total(h));
}

PMU_SBI_FN struct sbiret pmu_sbi_counter_get_info(struct pmu_hart *h,
				       unsigned long counter_idx)
{
	unsigned long width;

	if (!counter_valid(h, counter_idx))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	/*
	 * Firmware counters are 64-bit.  The spec says to ignore csr/width
	 * of a firmware counter, but Linux uses the width as the mask of
	 * every delta: report 63 there too.
	 */
	if (counter_idx >= h->nr_hw)
		return sbi_ok(SBI_PMU_CTR_INFO_TYPE_FW |
			  (63UL << SBI_PMU_CTR_INFO_WIDTH_SHIFT));
	width = pmu_is_fixed((unsigned int)counter_idx) ? 63 :
		h->caps.hpm_bits - 1;
	return sbi_ok((PMU_CSR_HPMCOUNTER_BASE + counter_idx) |
		  (width << SBI_PMU_CTR_INFO_WIDTH_SHIFT));
}

/* ---- FID 2 -------------------------------------------------------------- */

/*
 * Counter allocation rule.  Any event: the lowest-numbered free candidate.
 * Cycles and instructions can use a fixed counter (0 / 2) or a
 * programmable one.  The fixed counters have no OF bit, so sampling on
 * them never interrupts; the caller does not say whether it will sample.
 * So on a Sscofpmf hart a programmable counter is preferred (sampling
 * works, and so do the mode filters), the fixed counter is the fallback
 * when none is free; so on a hart with a vendor overflow back end (T-Head,
 * Andes), whose programmable counters surely interrupt.  Without either
 * nothing can sample: the fixed counter is preferred and keeps the
 * programmable counters for the events only they can count.
 */
static unsigned int choose_counter(const struct pmu_hart *h, uint64_t cand)
{
	uint64_t fixed = cand & FIXED_COUNTERS;
	uint64_t other = cand & ~FIXED_COUNTERS;

	/* QEMU: a counter without an overflow leftover first (pmu_hw.c) */
	if (other & ~(uint64_t)h->swallow_armed)
		other &= ~(uint64_t)h->swallow_armed;

	if (fixed && other && !h->caps.sscofpmf && !h->vof)
		return (unsigned int)pmu_ctz64(fixed);
	if (other)
		return (unsigned int)pmu_ctz64(other);
	return (unsigned int)pmu_ctz64(cand);
}

/*
 * A request with a host-mode filter (perf's :u and :k, KVM's guest
 * counters, the cycles:u probe perf record makes on CPU 0 before every
 * recording), and one counted in every mode because no counter can apply
 * its filter (pmu_filter_capable), takes the highest free programmable
 * counter on a Sscofpmf hart, so that the low counters, which plain
 * requests get, stay as they were.  That matters on QEMU (7.2 to 11.1): a
 * counting cycles/instret event (initial value near 2^63) leaves overflow
 * state on its counter (irq_overflow_left) that swallows that counter's
 * next sampling overflow; the probe on the lowest counter took the first
 * overflow of perf record -e cycles after it on that hart.  lib/pmu
 * flushes that state at a sampling start (pmu_hw.c), which costs the
 * start two QEMU timer expiries; kept apart, the probe and the recording
 * never meet (docs/pmu.md, Mode filtering).
 */
static unsigned int choose_counter_high(const struct pmu_hart *h,
					      uint64_t cand)
{
	uint64_t prog = cand & pmu_hw_mask(h) & ~FIXED_COUNTERS;

	if (!h->caps.sscofpmf || !prog)
		return choose_counter(h, cand);
	return pmu_fls64(prog);
}

/*
 * QEMU 7.2 binds an event (mhpmevent bits 19:0) to one counter only: a
 * second programmable counter with the same selector silently counts
 * nothing.  With the hart's quirk such counters are no candidates while
 * another programmable counter (other than 'except') holds the selector;
 * a fixed counter still is one.
 */
static uint64_t drop_bound_selectors(const struct pmu_hart *h, uint64_t cand,
				     uint64_t selector, uint64_t except)
{
	uint64_t prog = pmu_hw_mask(h) & ~FIXED_COUNTERS;
	uint64_t bits = h->configured & prog & ~except;
	uint64_t id = selector & MHPMEVENT_EVENT_ID_MASK;
	unsigned int idx;

	if (!(h->caps.quirks & PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT))
		return cand;
	for_each_bit(idx, bits) {
		if ((h->counter[idx].selector & MHPMEVENT_EVENT_ID_MASK) == id)
			return cand & ~prog;
	}
	return cand;
}

static void configure(struct pmu_hart *h, unsigned int idx,
		      const struct pmu_match *m, unsigned long event_idx,
		      uint64_t event_data, unsigned long flags)
{
	struct pmu_counter *c = &h->counter[idx];

	if (idx < h->nr_hw) {
		pmu_hw_configure(h, idx, m->selector, flags);
	} else {
		c->fw_slot = (uint8_t)m->fw_slot;
		c->event_data = m->fw_slot == PMU_FW_SLOT_PLATFORM ?
				event_data : 0;
	}
	c->event_idx = (uint32_t)event_idx;
	h->configured |= BIT64(idx);
	if (flags & SBI_PMU_CFG_FLAG_CLEAR_VALUE)
		pmu_counter_write(h, idx, 0);
	if (flags & SBI_PMU_CFG_FLAG_AUTO_START)
		pmu_counters_start(h, BIT64(idx));
}

PMU_SBI_FN struct sbiret pmu_sbi_counter_config_matching(struct pmu_hart *h,
					      unsigned long counter_idx_base,
					      unsigned long counter_idx_mask,
					      unsigned long config_flags,
					      unsigned long event_idx,
					      uint64_t event_data)
{
	struct pmu_match m;
	uint64_t set, cand;
	unsigned int idx;
	bool unapplied;
	long rc;

	if (config_flags & ~SBI_PMU_CFG_FLAGS_ALL)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	rc = counter_set(h, counter_idx_base, counter_idx_mask, &set);
	if (rc)
		return sbi_err(rc);
	if (!pmu_event_match(h, event_idx, event_data, &m))
		return sbi_err(SBI_ERR_NOT_SUPPORTED);

	cand = pmu_filter_capable(h, m.counters, m.selector, config_flags,
				  &unapplied) & set;
	if (config_flags & SBI_PMU_CFG_FLAG_SKIP_MATCH) {
		/*
		 * The first counter of the set, unconditionally: it must be
		 * able to count the event and not be started; a stopped,
		 * configured one is reconfigured.
		 */
		idx = (unsigned int)pmu_ctz64(set);
		cand = drop_bound_selectors(h, cand & BIT64(idx), m.selector,
					    BIT64(idx));
		if (!cand || (h->started & BIT64(idx)))
			return sbi_err(SBI_ERR_NOT_SUPPORTED);
	} else {
		cand &= ~h->configured;
		cand = drop_bound_selectors(h, cand, m.selector, 0);
		if (!cand)
			return sbi_err(SBI_ERR_NOT_SUPPORTED);
		idx = unapplied || (config_flags & PMU_INH_HOST) ?
		      choose_counter_high(h, cand) : choose_counter(h, cand);
	}
	configure(h, idx, &m, event_idx, event_data, config_flags);
	return sbi_ok(idx);
}

/* ---- FID 3, 4 ----------------------------------------------------------- */

PMU_SBI_FN struct sbiret pmu_sbi_counter_start(struct pmu_hart *h,
				    unsigned long counter_idx_base,
				    unsigned long counter_idx_mask,
				    unsigned long start_flags,
				    uint64_t initial_value)
{
	const unsigned long both = SBI_PMU_START_FLAG_SET_INIT_VALUE |
				   SBI_PMU_START_FLAG_INIT_SNAPSHOT;
	bool from_snapshot = start_flags & SBI_PMU_START_FLAG_INIT_SNAPSHOT;
	uint64_t set, bits;
	unsigned int idx;
	long rc;

	/* the two ways to set the value are mutually exclusive */
	if ((start_flags & ~SBI_PMU_START_FLAGS_ALL) ||
	    (start_flags & both) == both)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	rc = counter_set(h, counter_idx_base, counter_idx_mask, &set);
	if (rc) {
		/* Linux 6.10+'s overflow restart: base 0, a set checked there */
		if (!pmu_compat_restart_base(h, &counter_idx_base,
					     counter_idx_mask, start_flags))
			return sbi_err(rc);
		set = counter_idx_mask;
	}
	if (set & ~h->configured)
		return sbi_err(SBI_ERR_INVALID_PARAM);	/* no event to count */
	if (from_snapshot && !h->shmem_enabled &&
	    !pmu_compat_snapshot_revive(h))
		return sbi_err(SBI_ERR_NO_SHMEM);
	if (set & h->started)
		return sbi_err(SBI_ERR_ALREADY_STARTED);

	/* the snapshot page was checked by set_shmem: its loads cannot fail */
	if (!(set & (set - 1))) {
		/* one counter, as Linux starts them: no loop, no scan if base */
		idx = set == BIT64(counter_idx_base) ?
		      (unsigned int)counter_idx_base : pmu_ctz64(set);
		if (from_snapshot)
			pmu_counter_write(h, idx, pmu_snapshot_value(
					  h, counter_idx_base, idx));
		else if (start_flags & SBI_PMU_START_FLAG_SET_INIT_VALUE)
			pmu_counter_write(h, idx, initial_value);
		pmu_counter_start(h, idx);
		if (start_flags & both)		/* QEMU 7.2: see pmu_hw.c */
			pmu_hw_rewrite_one(h, idx);
		else if (h->caps.quirks & PMU_HART_QUIRK_FAR_START_SWALLOWS)
			pmu_hw_rearm_started(h, BIT64(idx));
		return sbi_ok(0);
	}
	bits = set;
	for_each_bit(idx, bits) {
		if (from_snapshot)
			pmu_counter_write(h, idx, pmu_snapshot_value(
					  h, counter_idx_base, idx));
		else if (start_flags & SBI_PMU_START_FLAG_SET_INIT_VALUE)
			pmu_counter_write(h, idx, initial_value);
	}
	pmu_counters_start(h, set);
	if (start_flags & both)
		pmu_hw_rewrite_started(h, set);
	else if (h->caps.quirks & PMU_HART_QUIRK_FAR_START_SWALLOWS)
		pmu_hw_rearm_started(h, set);
	return sbi_ok(0);
}

PMU_SBI_FN struct sbiret pmu_sbi_counter_stop(struct pmu_hart *h,
				   unsigned long counter_idx_base,
				   unsigned long counter_idx_mask,
				   unsigned long stop_flags)
{
	uint64_t set, running;
	long rc;

	if (stop_flags & ~SBI_PMU_STOP_FLAGS_ALL)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	rc = counter_set(h, counter_idx_base, counter_idx_mask, &set);
	if (rc)
		return sbi_err(rc);
	if ((stop_flags & SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT) &&
	    !h->shmem_enabled && !pmu_compat_snapshot_revive(h))
		return sbi_err(SBI_ERR_NO_SHMEM);

	running = set & h->started;
	pmu_counters_stop(h, running);
	if (stop_flags & SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT)
		pmu_snapshot_save(h, counter_idx_base, set);
	if (stop_flags & SBI_PMU_STOP_FLAG_RESET)
		pmu_counters_release(h, counter_idx_base, set & h->configured);
	if (set != running)
		return sbi_err(SBI_ERR_ALREADY_STOPPED);
	return sbi_ok(0);
}

/* ---- FID 5, 6 ----------------------------------------------------------- */

static bool is_fw_counter(const struct pmu_hart *h, unsigned long idx)
{
	return idx >= h->nr_hw && idx < pmu_total(h);
}

/* Any firmware counter, configured or not, reads its current count. */
PMU_SBI_FN struct sbiret pmu_sbi_counter_fw_read(struct pmu_hart *h,
				      unsigned long counter_idx)
{
	if (!is_fw_counter(h, counter_idx))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	/* On RV32 this keeps the low 32 bits, as the spec asks. */
	return sbi_ok((unsigned long)h->counter[counter_idx].value);
}

PMU_SBI_FN struct sbiret pmu_sbi_counter_fw_read_hi(struct pmu_hart *h,
					 unsigned long counter_idx)
{
	if (!is_fw_counter(h, counter_idx))
		return sbi_err(SBI_ERR_INVALID_PARAM);
#if ULONG_MAX == 0xFFFFFFFFUL
	return sbi_ok((unsigned long)(h->counter[counter_idx].value >> 32));
#else
	return sbi_ok(0);
#endif
}

/* ---- the ecall decoder and the table ------------------------------------ */

/* A 64-bit argument: one register on RV64, lo/hi pair on RV32. */
static uint64_t arg64(const unsigned long *args, unsigned int i)
{
#if ULONG_MAX == 0xFFFFFFFFUL
	return (uint64_t)args[i] | ((uint64_t)args[i + 1] << 32);
#else
	return args[i];
#endif
}

/*
 * Each case is a tail call to its function, which returns in a0/a1 (kept
 * out of line by PMU_SBI_FN): with any of them inlined here GCC builds the
 * struct sbiret in a stack slot for every case and this decoder needs a
 * frame, 8 instructions more for each call.
 */
struct sbiret pmu_sbi_call(struct pmu_hart *h, unsigned long fid,
			   const unsigned long *a)
{
	if (!pmu_hart_ready(h))		/* its set-up failed: no PMU here */
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	switch (fid) {
	case SBI_EXT_PMU_NUM_COUNTERS:
		return pmu_sbi_num_counters(h);
	case SBI_EXT_PMU_COUNTER_GET_INFO:
		return pmu_sbi_counter_get_info(h, a[0]);
	case SBI_EXT_PMU_COUNTER_CFG_MATCH:
		return pmu_sbi_counter_config_matching(h, a[0], a[1], a[2],
						       a[3], arg64(a, 4));
	case SBI_EXT_PMU_COUNTER_START:
		return pmu_sbi_counter_start(h, a[0], a[1], a[2], arg64(a, 3));
	case SBI_EXT_PMU_COUNTER_STOP:
		return pmu_sbi_counter_stop(h, a[0], a[1], a[2]);
	case SBI_EXT_PMU_COUNTER_FW_READ:
		return pmu_sbi_counter_fw_read(h, a[0]);
	case SBI_EXT_PMU_COUNTER_FW_READ_HI:
		return pmu_sbi_counter_fw_read_hi(h, a[0]);
	case SBI_EXT_PMU_SNAPSHOT_SET_SHMEM:
		return pmu_sbi_snapshot_set_shmem(h, a[0], a[1], a[2]);
	case SBI_EXT_PMU_EVENT_GET_INFO:
		return pmu_sbi_event_get_info(h, a[0], a[1], a[2], a[3]);
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

const struct pmu_sbi_ops pmu_sbi_ops = {
	.num_counters = pmu_sbi_num_counters,
	.counter_get_info = pmu_sbi_counter_get_info,
	.counter_config_matching = pmu_sbi_counter_config_matching,
	.counter_start = pmu_sbi_counter_start,
	.counter_stop = pmu_sbi_counter_stop,
	.counter_fw_read = pmu_sbi_counter_fw_read,
	.counter_fw_read_hi = pmu_sbi_counter_fw_read_hi,
	.snapshot_set_shmem = pmu_sbi_snapshot_set_shmem,
	.event_get_info = pmu_sbi_event_get_info,
};
