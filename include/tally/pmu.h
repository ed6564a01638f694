/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The SBI PMU library: a freestanding implementation of every function of
 * the SBI PMU extension (FID 0..8) over per-hart state that the embedder
 * allocates.  It reaches the hart only through struct pmu_hart_ops, so the
 * same code runs in the firmware (real CSRs) and in host tests (a simulated
 * hart).  No globals: the shared, read-only part is the frozen event map.
 *
 * Logical counter indices (counter_idx of the SBI calls):
 *   0 .. nr_hw - 1        hardware: index i is mhpmcounter i (CSR 0xC00 + i);
 *                         0 = cycle, 2 = instret, 3.. programmable.  Index 1
 *                         (time) and counters the hart lacks are holes:
 *                         counter_get_info() refuses them.  nr_hw is the
 *                         highest implemented counter + 1.
 *   nr_hw .. + PMU_FW_COUNTERS - 1   firmware counters.
 *
 * What the firmware calls:
 *   cold boot     pmu_map_init/add_*/freeze (or fdt_pmu_parse), once;
 *   every hart    pmu_hart_init() at boot and at each HSM start,
 *                 pmu_hart_stop() at HSM stop,
 *                 pmu_hart_suspend() / pmu_hart_resume_nonretentive()
 *                 around a non-retentive HSM suspend;
 *   ecall         pmu_sbi_call(hart, fid, a0..a5) for EID 0x504D55, or the
 *                 nine pmu_sbi_*() functions directly;
 *   event sites   pmu_fw_event(hart, SBI_PMU_FW_*) and
 *                 pmu_fw_platform_event(hart, event_data).
 */
#ifndef TALLY_PMU_H
#define TALLY_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tally/pmu_map.h>
#include <tally/sbi.h>
#include <tally/sbi_pmu_spec.h>

#ifndef PMU_FW_COUNTERS
#define PMU_FW_COUNTERS		16	/* firmware counters per hart */
#endif
#define PMU_HW_COUNTERS_MAX	32	/* mhpmcounter0..31 */
#define PMU_COUNTERS_MAX	(PMU_HW_COUNTERS_MAX + PMU_FW_COUNTERS)

/*
 * Hart access, implemented by the embedder.  idx is the counter number
 * 0..31 (never 1); the library only touches counters listed in
 * pmu_hart_caps.counters.  event_read/event_write address mhpmevent idx for
 * idx >= 3, and mcyclecfg (idx 0) / minstretcfg (idx 2), which are only
 * used when Smcntrpmf is present.  All values are 64-bit: on RV32 the
 * embedder splits them over the ...h CSRs.
 *
 * The shared-memory hooks are optional (NULL: FIDs 7 and 8 answer
 * NOT_SUPPORTED).  addr is an S-mode physical address.  shmem_check
 * returns SBI_SUCCESS if S-mode may read and write [addr, addr + size), or
 * SBI_ERR_INVALID_ADDRESS; read/write copy and return SBI_SUCCESS or an SBI
 * error.  Multi-byte fields in the shared memory are little-endian.
 */
struct pmu_hart_ops {
	uint64_t (*counter_read)(void *ctx, unsigned int idx);
	void (*counter_write)(void *ctx, unsigned int idx, uint64_t value);
	uint64_t (*event_read)(void *ctx, unsigned int idx);
	void (*event_write)(void *ctx, unsigned int idx, uint64_t value);
	void (*inhibit_set)(void *ctx, uint32_t mask);	/* mcountinhibit |= */
	void (*inhibit_clear)(void *ctx, uint32_t mask); /* mcountinhibit &= ~ */
	long (*shmem_check)(void *ctx, uint64_t addr, uint64_t size);
	long (*shmem_read)(void *ctx, uint64_t addr, void *buf, size_t size);
	long (*shmem_write)(void *ctx, uint64_t addr, const void *buf,
			    size_t size);
};

/* What the embedder probed on this hart (by trapping CSR accesses). */
struct pmu_hart_caps {
	unsigned long hartid;
	uint32_t counters;	/* bit i: mhpmcounter i exists (bit 1 ignored) */
	unsigned int hpm_bits;	/* width of mhpmcounter3..31, 1..64 */
	bool sscofpmf;		/* OF bit, mode filters, LCOFI */
	bool smcntrpmf;		/* mcyclecfg / minstretcfg mode filters */
};

/*
 * Optional board hooks (any may be NULL) for PMUs the event map cannot
 * describe and for SBI_PMU_FW_PLATFORM.
 *  hw_event_counters: counters (bit i = mhpmcounter i) that can count a
 *      type 0/1/2/3 event and the mhpmevent value for it; return 0 to let
 *      the event map answer instead.
 *  hw_event_value: adjust the final mhpmevent value of counter idx (e.g.
 *      vendor mode-filter bits on a PMU without Sscofpmf).  cfg_flags are
 *      the caller's SBI_PMU_CFG_FLAG_SET_*INH bits.
 *  fw_platform_supported: whether this board counts SBI_PMU_FW_PLATFORM
 *      events with this event_data; the board then reports them with
 *      pmu_fw_platform_event().
 */
struct pmu_board_hooks {
	uint32_t (*hw_event_counters)(void *ctx, unsigned long event_idx,
				      uint64_t event_data, uint64_t *selector);
	uint64_t (*hw_event_value)(void *ctx, unsigned int idx,
				   uint64_t value, unsigned long cfg_flags);
	bool (*fw_platform_supported)(void *ctx, uint64_t event_data);
};

struct pmu_hart_config {
	const struct pmu_map *map;		/* frozen */
	const struct pmu_hart_ops *ops;
	void *ops_ctx;
	const struct pmu_board_hooks *hooks;	/* may be NULL */
	void *hooks_ctx;
	struct pmu_hart_caps caps;
};

/*
 * Firmware event slots: the standard codes 0..21 keep their number, Tally's
 * own events (256..) and SBI_PMU_FW_PLATFORM follow.  A slot is a bit in
 * pmu_hart.fw_running.
 */
enum pmu_fw_slot {
	PMU_FW_SLOT_TALLY_FIRST = SBI_PMU_FW_STANDARD_COUNT,
	PMU_FW_SLOT_PLATFORM = PMU_FW_SLOT_TALLY_FIRST + SBI_PMU_FW_TALLY_COUNT,
	PMU_FW_SLOT_COUNT,
	PMU_FW_SLOT_NONE = 31,		/* never running */
};

/* One logical counter's configuration. */
struct pmu_counter {
	uint32_t event_idx;	/* valid while configured */
	uint8_t fw_slot;	/* firmware counters */
	uint64_t event_data;	/* firmware counters: SBI_PMU_FW_PLATFORM data */
	uint64_t selector;	/* hardware: the event's base mhpmevent value */
	uint64_t evsel;		/* hardware: mhpmevent / mNcfg value, no OF */
	uint64_t value;		/* firmware: the count; hardware: saved */
};

/* Per-hart state: allocated by the embedder, owned by the library. */
struct pmu_hart {
	const struct pmu_map *map;
	const struct pmu_hart_ops *ops;
	void *ops_ctx;
	const struct pmu_board_hooks *hooks;
	void *hooks_ctx;
	struct pmu_hart_caps caps;
	unsigned int nr_hw;	/* hardware logical indices 0..nr_hw-1 */
	uint32_t hw_usable;	/* implemented counters, minus time */
	uint64_t configured;	/* logical counters with an event */
	uint64_t started;	/* logical counters counting */
	uint32_t of_armed;	/* started since configured: OF is meaningful */
	uint32_t fw_running;	/* enum pmu_fw_slot bits of started fw ctrs */
	uint32_t saved;		/* hardware values saved by pmu_hart_suspend */
	bool shmem_enabled;
	uint64_t shmem_addr;
	struct pmu_counter counter[PMU_COUNTERS_MAX];
};

/* Hart lifecycle */
long pmu_hart_init(struct pmu_hart *h, const struct pmu_hart_config *cfg);
void pmu_hart_stop(struct pmu_hart *h);
void pmu_hart_suspend(struct pmu_hart *h);
void pmu_hart_resume_nonretentive(struct pmu_hart *h);

/* The SBI PMU extension, one function per FID */
struct sbiret pmu_sbi_num_counters(struct pmu_hart *h);
struct sbiret pmu_sbi_counter_get_info(struct pmu_hart *h,
				       unsigned long counter_idx);
struct sbiret pmu_sbi_counter_config_matching(struct pmu_hart *h,
					      unsigned long counter_idx_base,
					      unsigned long counter_idx_mask,
					      unsigned long config_flags,
					      unsigned long event_idx,
					      uint64_t event_data);
struct sbiret pmu_sbi_counter_start(struct pmu_hart *h,
				    unsigned long counter_idx_base,
				    unsigned long counter_idx_mask,
				    unsigned long start_flags,
				    uint64_t initial_value);
struct sbiret pmu_sbi_counter_stop(struct pmu_hart *h,
				   unsigned long counter_idx_base,
				   unsigned long counter_idx_mask,
				   unsigned long stop_flags);
struct sbiret pmu_sbi_counter_fw_read(struct pmu_hart *h,
				      unsigned long counter_idx);
struct sbiret pmu_sbi_counter_fw_read_hi(struct pmu_hart *h,
					 unsigned long counter_idx);
struct sbiret pmu_sbi_snapshot_set_shmem(struct pmu_hart *h,
					 unsigned long shmem_phys_lo,
					 unsigned long shmem_phys_hi,
					 unsigned long flags);
struct sbiret pmu_sbi_event_get_info(struct pmu_hart *h,
				     unsigned long shmem_phys_lo,
				     unsigned long shmem_phys_hi,
				     unsigned long num_entries,
				     unsigned long flags);

/* Decode a0..a5 of an ecall to EID 0x504D55 (joins 64-bit args on RV32). */
struct sbiret pmu_sbi_call(struct pmu_hart *h, unsigned long fid,
			   const unsigned long *args);

/* ---- firmware events ---------------------------------------------------- */

void pmu_fw_count_slow(struct pmu_hart *h, unsigned int slot,
		       uint64_t event_data);

static inline unsigned int pmu_fw_slot_of(unsigned int code)
{
	if (code < SBI_PMU_FW_STANDARD_COUNT)
		return code;
	if (code >= SBI_PMU_FW_IMPL_FIRST &&
	    code < SBI_PMU_FW_IMPL_FIRST + SBI_PMU_FW_TALLY_COUNT)
		return PMU_FW_SLOT_TALLY_FIRST + (code - SBI_PMU_FW_IMPL_FIRST);
	if (code == SBI_PMU_FW_PLATFORM)
		return PMU_FW_SLOT_PLATFORM;
	return PMU_FW_SLOT_NONE;
}

/*
 * A firmware event happened on this hart (code: SBI_PMU_FW_*, including
 * SBI_PMU_FW_TALLY_*).  With a constant code this is one load, one test
 * and a not-taken branch unless a counter of that event is running.
 */
static inline void pmu_fw_event(struct pmu_hart *h, unsigned int code)
{
	unsigned int slot = pmu_fw_slot_of(code);

	if (__builtin_expect((h->fw_running >> slot) & 1, 0))
		pmu_fw_count_slow(h, slot, 0);
}

/* A board's SBI_PMU_FW_PLATFORM event with this encoding happened. */
static inline void pmu_fw_platform_event(struct pmu_hart *h,
					 uint64_t event_data)
{
	if (__builtin_expect((h->fw_running >> PMU_FW_SLOT_PLATFORM) & 1, 0))
		pmu_fw_count_slow(h, PMU_FW_SLOT_PLATFORM, event_data);
}

#endif
