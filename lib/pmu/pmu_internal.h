/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the files of lib/pmu; not part of the public API. */
#ifndef TALLY_PMU_INTERNAL_H
#define TALLY_PMU_INTERNAL_H

#include <tally/pmu.h>

_Static_assert(PMU_FW_COUNTERS >= 1 && PMU_FW_COUNTERS <= 32,
	       "firmware counters live in a uint32_t per slot");
_Static_assert(PMU_COUNTERS_MAX <= 64, "logical counters live in a uint64_t");
_Static_assert(PMU_COUNTERS_MAX <= SBI_PMU_SNAPSHOT_VALUES_MAX,
	       "every counter has a snapshot slot");
_Static_assert(PMU_FW_SLOT_COUNT < PMU_FW_SLOT_NONE, "slot numbering");

#define BIT64(n)		((uint64_t)1 << (n))
#define FIXED_COUNTERS		(BIT64(PMU_COUNTER_CYCLE) | \
				 BIT64(PMU_COUNTER_INSTRET))
/*
 * The SET_*INH flags split by the modes they name.  Host modes (U, S, M)
 * need a counter that can filter; the guest modes (VS, VU) are hints any
 * counter takes (see pmu_filter_capable).
 */
#define PMU_INH_HOST		(SBI_PMU_CFG_FLAG_SET_UINH | \
				 SBI_PMU_CFG_FLAG_SET_SINH | \
				 SBI_PMU_CFG_FLAG_SET_MINH)

/*
 * Bit scans.  On a RISC-V without Zbb GCC turns __builtin_ctzll/clzll into
 * calls to libgcc's __ctzdi2/__clzdi2: lib/pmu uses the inline scans of
 * <tally/bitops.h> instead (their one table is lib/utils/bitops.c, which
 * an embedder links with lib/pmu).  PMU_PORTABLE_BITOPS selects them on
 * the host too (the tests do).  They run in every loop over a set of
 * counters.
 */
#if (defined(__riscv) && !defined(__riscv_zbb)) || defined(PMU_PORTABLE_BITOPS)
#include <tally/bitops.h>

static inline unsigned int pmu_ctz64(uint64_t x)	/* x != 0 */
{
	return tally_ctz64(x);
}

static inline unsigned int pmu_fls64(uint64_t x)	/* highest set bit */
{
	return tally_fls64(x);
}
#else
static inline unsigned int pmu_ctz64(uint64_t x)
{
	return (unsigned int)__builtin_ctzll(x);
}

static inline unsigned int pmu_fls64(uint64_t x)
{
	return 63 - (unsigned int)__builtin_clzll(x);
}
#endif

/* Iterate over the set bits of an unsigned integer (which is consumed). */
#define for_each_bit(idx, bits)						\
	for (; (bits) && ((idx) = pmu_ctz64(bits), 1); (bits) &= (bits) - 1)

static inline unsigned int pmu_total(const struct pmu_hart *h)
{
	return h->nr_hw + PMU_FW_COUNTERS;
}

static inline uint64_t pmu_hw_mask(const struct pmu_hart *h)
{
	return h->hw_usable;
}

static inline uint64_t pmu_fw_mask(const struct pmu_hart *h)
{
	return h->valid & ~(uint64_t)h->hw_usable;
}

static inline bool pmu_is_fixed(unsigned int idx)
{
	return idx == PMU_COUNTER_CYCLE || idx == PMU_COUNTER_INSTRET;
}

/* What an event needs: the counters able to count it, and how. */
struct pmu_match {
	uint64_t counters;	/* logical indices on this hart */
	uint64_t selector;	/* hardware: base mhpmevent value */
	unsigned int fw_slot;	/* firmware: enum pmu_fw_slot */
};

/* pmu_event.c: the one matcher behind config_matching and event_get_info */
bool pmu_event_match(const struct pmu_hart *h, unsigned long event_idx,
		     uint64_t event_data, struct pmu_match *m);
void pmu_event_supported_init(struct pmu_hart *h);
bool pmu_event_supported_slow(const struct pmu_hart *h,
			      unsigned long event_idx, uint64_t event_data);

uint64_t pmu_filter_capable(const struct pmu_hart *h, uint64_t counters,
			    uint64_t selector, unsigned long cfg_flags,
			    bool *unapplied);

/* pmu_hw.c: hardware counter programming */
void pmu_hw_reset_all(struct pmu_hart *h);
void pmu_hw_configure(struct pmu_hart *h, unsigned int idx,
		      uint64_t selector, unsigned long cfg_flags);
void pmu_hw_release(struct pmu_hart *h, unsigned int idx);
void pmu_hw_start(struct pmu_hart *h, uint64_t hw_set);
void pmu_hw_start_one(struct pmu_hart *h, unsigned int idx);
void pmu_hw_stop(struct pmu_hart *h, uint64_t hw_set);
void pmu_hw_rewrite_started(struct pmu_hart *h, uint64_t set);
void pmu_hw_rewrite_counter(struct pmu_hart *h, unsigned int idx);
void pmu_hw_rearm_started(struct pmu_hart *h, uint64_t set);

/*
 * pmu_hw_rewrite_started() of the one counter a start wrote, its value
 * tested inline first: a start near overflow (sampling) pays for the
 * second write, any other start (perf stat's first, value 0) a shift and a
 * branch.
 */
/* Does the counter count cycles or instret, which QEMU raises by a timer? */
static inline bool pmu_selector_timed(const struct pmu_hart *h, unsigned int idx)
{
	uint64_t id = h->counter[idx].selector & MHPMEVENT_EVENT_ID_MASK;

	return id == SBI_PMU_HW_CPU_CYCLES || id == SBI_PMU_HW_INSTRUCTIONS;
}

static inline void pmu_hw_rewrite_one(struct pmu_hart *h, unsigned int idx)
{
	if (((h->counter[idx].value >> (h->caps.hpm_bits - 1)) & 1) ||
	    ((h->caps.quirks & PMU_HART_QUIRK_FAR_START_SWALLOWS) &&
	     pmu_selector_timed(h, idx)))
		pmu_hw_rewrite_counter(h, idx);
}
bool pmu_hw_overflowed(const struct pmu_hart *h, unsigned int idx);
bool pmu_hw_vendor_overflowed(const struct pmu_hart *h, unsigned int idx);

/*
 * The counters with a real OF bit: started programmable counters on a
 * Sscofpmf hart (pmu_hw_start arms them; configure and release disarm).
 * Ask pmu_hw_overflowed() only about these.
 */
static inline uint64_t pmu_hw_of_armed(const struct pmu_hart *h)
{
	return h->of_armed;
}
void pmu_hw_reprogram(struct pmu_hart *h);

/*
 * The overflow bit of hardware counter idx for the snapshot: OF of an
 * armed counter of a Sscofpmf hart (read first: that path is as it was),
 * else the vendor flag of a counter the vendor back end armed.
 */
static inline bool pmu_hw_of(const struct pmu_hart *h, unsigned int idx)
{
	if (__builtin_expect((pmu_hw_of_armed(h) & BIT64(idx)) != 0, 1))
		return (h->ops->event_read(h->ops_ctx, idx) &
			MHPMEVENT_OF) != 0;
	return (h->vof_armed & BIT64(idx)) && pmu_hw_vendor_overflowed(h, idx);
}

/* pmu_counter.c: logical counter state shared by the calls */
void pmu_counter_write(struct pmu_hart *h, unsigned int idx, uint64_t value);
void pmu_counters_start(struct pmu_hart *h, uint64_t set);
void pmu_counter_start(struct pmu_hart *h, unsigned int idx);
void pmu_counters_stop(struct pmu_hart *h, uint64_t set);
void pmu_counter_release(struct pmu_hart *h, unsigned long idx);
void pmu_counters_release(struct pmu_hart *h, unsigned long base, uint64_t set);
void pmu_state_reset(struct pmu_hart *h);

/* pmu_shmem.c: snapshot shared memory (the caller checked shmem_enabled) */
uint64_t pmu_snapshot_value(const struct pmu_hart *h, unsigned long base,
			    unsigned int idx);
void pmu_snapshot_save(const struct pmu_hart *h, unsigned long base,
		       uint64_t set);

/* pmu_linux_compat.c: known Linux driver bugs, on the spec's error paths */
#if PMU_LINUX_COMPAT
bool pmu_compat_restart_base(const struct pmu_hart *h, unsigned long *base,
			     unsigned long mask, unsigned long flags);
bool pmu_compat_snapshot_revive(struct pmu_hart *h);
void pmu_compat_shmem_disabled(struct pmu_hart *h);
void pmu_compat_shmem_set(struct pmu_hart *h);
void pmu_compat_hart_stop(struct pmu_hart *h);
#else
static inline bool pmu_compat_restart_base(const struct pmu_hart *h,
					   unsigned long *base,
					   unsigned long mask,
					   unsigned long flags)
{
	(void)h, (void)base, (void)mask, (void)flags;
	return false;
}
static inline bool pmu_compat_snapshot_revive(struct pmu_hart *h)
{
	(void)h;
	return false;
}
static inline void pmu_compat_shmem_disabled(struct pmu_hart *h) { (void)h; }
static inline void pmu_compat_shmem_set(struct pmu_hart *h) { (void)h; }
static inline void pmu_compat_hart_stop(struct pmu_hart *h) { (void)h; }
#endif

#endif
