/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The SBI PMU library: a freestanding implementation of every function of
 * the SBI PMU extension v3.0 (FID 0..8) over per-hart state that the
 * embedder allocates.  It reaches the hart only through struct
 * pmu_hart_ops, so the same code runs in the firmware (real CSRs) and in
 * host tests (a simulated hart).  No globals, no locks, no allocation: the
 * only shared data is the frozen, read-only event map.  docs/pmu.md
 * describes the behaviour of every function and flag.
 *
 * Logical counter indices (counter_idx of the SBI calls):
 *   0 .. nr_hw - 1        hardware: index i is mhpmcounter i (S-mode CSR
 *                         0xC00 + i); 0 = cycle, 2 = instret, 3.. the
 *                         programmable ones.  Index 1 (time) and counters
 *                         the hart lacks are holes: every call refuses them
 *                         with SBI_ERR_INVALID_PARAM.  nr_hw is the highest
 *                         implemented counter + 1.
 *   nr_hw .. nr_hw + PMU_FW_COUNTERS - 1   firmware counters.
 *
 * What the firmware calls:
 *   cold boot     pmu_map_init, pmu_map_add_*(), pmu_map_freeze()
 *                 (or the DT parser), once;
 *   every hart    pmu_hart_init() at boot and at each HSM start,
 *                 pmu_hart_stop() at HSM stop,
 *                 pmu_hart_suspend() / pmu_hart_resume_nonretentive()
 *                 around a non-retentive HSM suspend;
 *   ecall         pmu_sbi_call(hart, fid, a0..a5) for EID 0x504D55, or
 *                 the nine pmu_sbi_*() functions (also as the table
 *                 pmu_sbi_ops) from another dispatcher;
 *   event sites   pmu_fw_event(hart, SBI_PMU_FW_*) and
 *                 pmu_fw_platform_event(hart, event_data), inline in
 *                 <tally/pmu_fw.h> (which lib/pmu itself never includes).
 * Every function works on the calling hart's own struct pmu_hart only.
 */
#ifndef TALLY_PMU_H
#define TALLY_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tally/pmu_map.h>
#include <tally/sbiret.h>
#include <tally/sbi_pmu_spec.h>

#ifndef PMU_FW_COUNTERS
#define PMU_FW_COUNTERS		16	/* firmware counters per hart, 1..32 */
#endif
/*
 * Mode filters no counter of the hart can apply to an event (QEMU 7.2's
 * cycles/instructions): 0 counts the event in every mode (the spec's
 * filter flags are hints), 1 refuses it with SBI_ERR_NOT_SUPPORTED.
 * docs/pmu.md, Mode filtering.
 */
#ifndef PMU_STRICT_FILTERS
#define PMU_STRICT_FILTERS	0
#endif
#define PMU_HW_COUNTERS_MAX	32	/* mhpmcounter0..31 */
#define PMU_COUNTERS_MAX	(PMU_HW_COUNTERS_MAX + PMU_FW_COUNTERS)

/*
 * Hart access, implemented by the embedder (the six counter hooks are
 * required).  idx is a counter number 0..31, never 1, and always one listed
 * in pmu_hart_caps.counters.
 *   counter_read/write   mhpmcounter idx: CSR 0xB00 + idx (mcycle 0xB00,
 *                        minstret 0xB02).
 *   event_read/write     idx >= 3: mhpmevent idx, CSR 0x320 + idx.
 *                        idx 0: mcyclecfg, CSR 0x321 (NOT 0x320 + 0, which
 *                        is mcountinhibit);  idx 2: minstretcfg, CSR 0x322.
 *                        0 and 2 are used only when the caps say Smcntrpmf.
 *                        event_read is only used on Sscofpmf harts (OF).
 *   inhibit_set/clear    mcountinhibit (0x320) |= mask / &= ~mask (bit i =
 *                        counter i); the library never names bit 1.
 * All values are 64-bit: on RV32 the embedder splits them over the ...h
 * CSRs.
 *
 * The shared-memory hook is optional (NULL: FIDs 7 and 8 answer
 * SBI_ERR_NOT_SUPPORTED).  addr is an S-mode physical address.
 * shmem_map returns NULL unless S-mode may read and write all of
 * [addr, addr + size) (and the range does not wrap); else the address at
 * which the library reads and writes that range directly, which must stay
 * valid while the hart runs (the firmware: addr itself, M-mode sees
 * physical memory).  The library checks a range once and then makes plain
 * aligned loads and stores: the snapshot page at snapshot_set_shmem, the
 * event_get_info array at each call.  Multi-byte fields in the shared
 * memory are little-endian; the library encodes them itself.
 */
struct pmu_hart_ops {
	uint64_t (*counter_read)(void *ctx, unsigned int idx);
	void (*counter_write)(void *ctx, unsigned int idx, uint64_t value);
	uint64_t (*event_read)(void *ctx, unsigned int idx);
	void (*event_write)(void *ctx, unsigned int idx, uint64_t value);
	void (*inhibit_set)(void *ctx, uint32_t mask);
	void (*inhibit_clear)(void *ctx, uint32_t mask);
	void *(*shmem_map)(void *ctx, uint64_t addr, uint64_t size);
	/* optional, for PMU_HART_QUIRK_FAR_START_SWALLOWS: mip.LCOFIP */
	void (*lcofi_write)(void *ctx, bool pending);
};

/*
 * Hart quirks (pmu_hart_caps.quirks): every quirk of the counters, in one
 * place.  The board says which its harts have (struct board_pmu, see
 * include/tally/board.h); the firmware may add what it probes.
 * NO_FILTER_CYCLES_INSTRET: the mhpmevent mode-inhibit bits have no effect
 *   on a programmable counter whose selector (low 20 bits) is 0x1 or 0x2,
 *   i.e. counts cycles or instructions (QEMU 7.2).  Mode-filtered requests
 *   for such a selector are then counted in every mode (or, with
 *   PMU_STRICT_FILTERS, refused with SBI_ERR_NOT_SUPPORTED).
 * ONE_COUNTER_PER_EVENT: an event (mhpmevent bits 19:0) counts on one
 *   programmable counter only; a second one with the same selector counts
 *   nothing (QEMU 7.2).  Such a counter is then no candidate.
 * FAR_START_SWALLOWS: a cycles/instret counter written with a value far
 *   from overflow (perf's counting starts, 2^63 + 1) keeps a leftover
 *   deadline that swallows its next overflow: the next sampling start on
 *   that counter loses its first overflow and then waits for as long as
 *   the machine has run (QEMU 7.2 to 11.1's irq_overflow_left).  lib/pmu
 *   flushes it, once, at the next start that samples cycles or instret on
 *   that counter (pmu_hw.c, needs ops->lcofi_write).
 */
#define PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET	(1U << 0)
#define PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT	(1U << 1)
#define PMU_HART_QUIRK_FAR_START_SWALLOWS	(1U << 2)

/* What the embedder probed on this hart (by trapping CSR accesses). */
struct pmu_hart_caps {
	unsigned long hartid;
	uint32_t counters;	/* bit i: mhpmcounter i exists (bit 1 ignored) */
	unsigned int hpm_bits;	/* width of mhpmcounter3..31, 1..64 */
	bool sscofpmf;		/* OF bit, mhpmevent mode filters, LCOFI */
	bool smcntrpmf;		/* mcyclecfg / minstretcfg mode filters */
	uint32_t quirks;	/* PMU_HART_QUIRK_* */
};

/*
 * A vendor overflow back end: the counter-overflow interrupt of a hart
 * without Sscofpmf whose vendor gives every counter an interrupt-enable
 * bit and an overflow flag in M-mode CSRs of its own (T-Head C9xx:
 * mcounterinten / mcounterof, IRQ 17; Andes: mcounterinten /
 * mcounterovf, local interrupt 18).  Implemented by the embedder, used
 * by the library only on a hart whose caps say no Sscofpmf (Sscofpmf's
 * OF bit wins).  mask: bit i = counter i, only counters the caps list.
 *   arm       counter_start, before the counters run: clear their
 *             overflow flags (unless the overflow interrupt is pending, so
 *             that S-mode does not lose it) and enable their interrupt.
 *   disarm    counter_stop, release, hart init/stop: disable it.
 *   flags     the overflow flags, bit i = counter i (the library only
 *             believes those of counters armed since they were configured).
 *   filter    optional: mode filtering by counter (Andes mcountermask_u/
 *             s/m): inh is SBI_PMU_CFG_FLAG_SET_{U,S,M}INH, set = do not
 *             count in that mode; 0 counts every mode.  Programmable
 *             counters only.  NULL: the hart has no mode filter.
 */
struct pmu_overflow_ops {
	void (*arm)(void *ctx, uint32_t mask);
	void (*disarm)(void *ctx, uint32_t mask);
	uint32_t (*flags)(void *ctx);
	void (*filter)(void *ctx, unsigned int idx, unsigned long inh);
};

/*
 * Optional board hooks (the struct and any member may be NULL).
 *  hw_event_counters: counters (bit i = mhpmcounter i) that can count a
 *      type 0/1/2/3 event, and in *selector the mhpmevent value for it
 *      (bits 63:56 clear); return 0 to let the event map answer instead.
 *      event_data is 0 for types 0 and 1.
 *  hw_event_value: adjust the final mhpmevent value of programmable
 *      counter idx (vendor bits; e.g. bits 55:48 of a type 2 raw event).
 *      cfg_flags are the caller's config_flags.  The library keeps OF
 *      itself: bit 63 of the result is ignored.
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
	/* vendor overflow back end (ctx: ops_ctx); NULL, or ignored with Sscofpmf */
	const struct pmu_overflow_ops *overflow;
	struct pmu_hart_caps caps;
};

/*
 * Firmware event slots: the standard codes 0..21 keep their number, Tally's
 * own events (256..) and SBI_PMU_FW_PLATFORM follow.
 */
enum pmu_fw_slot {
	PMU_FW_SLOT_TALLY_FIRST = SBI_PMU_FW_STANDARD_COUNT,
	PMU_FW_SLOT_PLATFORM = PMU_FW_SLOT_TALLY_FIRST + SBI_PMU_FW_TALLY_COUNT,
	PMU_FW_SLOT_COUNT,
	PMU_FW_SLOT_NONE = 0xFF,	/* not a countable firmware event */
};

/* One logical counter's configuration (library-private). */
struct pmu_counter {
	uint32_t event_idx;	/* valid while configured */
	uint8_t fw_slot;	/* firmware counters: enum pmu_fw_slot */
	uint8_t vinh;		/* hardware: the vendor filter's inh bits */
	uint64_t event_data;	/* firmware: SBI_PMU_FW_PLATFORM encoding */
	uint64_t selector;	/* hardware: the event's mhpmevent selector */
	uint64_t evsel;		/* hardware: mhpmevent / mNcfg value, no OF */
	uint64_t value;		/* firmware: the count; hardware: the last value start wrote, or suspend saved */
};

/*
 * Per-hart state: allocated by the embedder, owned by the library.  A
 * zero-filled struct is safe for pmu_fw_event() (nothing counts) before
 * pmu_hart_init().
 */
struct pmu_hart {
	const struct pmu_map *map;
	const struct pmu_hart_ops *ops;
	void *ops_ctx;
	const struct pmu_board_hooks *hooks;
	void *hooks_ctx;
	struct pmu_hart_caps caps;
	unsigned int nr_hw;	/* hardware logical indices 0..nr_hw-1 */
	uint32_t hw_usable;	/* implemented counters, minus time */
	uint64_t valid;		/* every valid logical counter */
	uint64_t configured;	/* logical counters with an event */
	uint64_t started;	/* logical counters counting */
	uint32_t of_armed;	/* programmable counters started since configured
				   on a Sscofpmf hart: their OF is real.  Read
				   only with configured: a released counter's
				   bit is stale until configure clears it */
	/* the vendor overflow back end (NULL: none, or Sscofpmf) */
	const struct pmu_overflow_ops *vof;
	uint32_t vof_armed;	/* as of_armed, for the vendor back end: hw
				   counters started since configured */
	uint32_t swallow_armed;	/* FAR_START_SWALLOWS: counters written far
				   from overflow since their last flush */
	uint32_t saved;		/* hw values saved by pmu_hart_suspend */
	uint32_t saved_of;	/* hw OF bits saved by pmu_hart_suspend */
	/* started firmware counters per slot, bit j = counter nr_hw + j */
	uint32_t fw_slot_ctrs[PMU_FW_SLOT_COUNT];
	/*
	 * Bit s: the event of slot s of the map's direct table (the spec's
	 * hardware and cache events) matches a counter of this hart, as
	 * pmu_event_match answers; set by pmu_hart_init (event_get_info).
	 */
	uint64_t direct_supported[(PMU_MAP_DIRECT + 63) / 64];
	bool shmem_enabled;
	uint64_t shmem_addr;	/* the snapshot page, as S-mode gave it */
	void *shmem;		/* ... and as shmem_map gave it */
	/*
	 * Linux compatibility (pmu_linux_compat.c): the snapshot page S-mode
	 * disabled on its way to an HSM stop.  Kept across HSM stop/start.
	 */
	uint64_t compat_page;
	uint8_t compat_page_state;
	struct pmu_counter counter[PMU_COUNTERS_MAX];
};

/*
 * Linux compatibility (lib/pmu/pmu_linux_compat.c): the known bugs of
 * Linux's SBI PMU driver that the library absorbs, each recognised by the
 * exact call the affected kernels make and only where the spec would
 * refuse it.  On unless built with PMU_LINUX_COMPAT=0 (the strict spec).
 * pmu_linux_compat[] names them for the boot banner.
 */
/* PMU_SNAPSHOT=0: no snapshot (FID 7 answers NOT_SUPPORTED), for comparisons. */
#ifndef PMU_SNAPSHOT
#define PMU_SNAPSHOT		1
#endif
#ifndef PMU_LINUX_COMPAT
#define PMU_LINUX_COMPAT	1
#endif
struct pmu_linux_compat_info {
	const char *what;	/* what the firmware accepts */
	const char *kernels;	/* the kernels that need it */
};
extern const struct pmu_linux_compat_info pmu_linux_compat[];
extern const unsigned int pmu_linux_compat_count;

/* Hart lifecycle */
long pmu_hart_init(struct pmu_hart *h, const struct pmu_hart_config *cfg);
void pmu_hart_stop(struct pmu_hart *h);
void pmu_hart_suspend(struct pmu_hart *h);
void pmu_hart_resume_nonretentive(struct pmu_hart *h);
/* Whether pmu_hart_init() set this hart up (a zero-filled one: no). */
static inline bool pmu_hart_ready(const struct pmu_hart *h)
{
	return h && h->ops;
}
/* Counters among candidates that hold a written value; see pmu_hart.c. */
uint32_t pmu_probe_counters(const struct pmu_hart_ops *ops, void *ctx,
			    uint32_t candidates, unsigned int *bits);

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

/*
 * The same nine functions as a table of operations (in the spirit of the
 * RustSBI Pmu trait), for a dispatcher that wants to call through one.
 */
struct pmu_sbi_ops {
	struct sbiret (*num_counters)(struct pmu_hart *h);
	struct sbiret (*counter_get_info)(struct pmu_hart *h,
					  unsigned long counter_idx);
	struct sbiret (*counter_config_matching)(struct pmu_hart *h,
						 unsigned long counter_idx_base,
						 unsigned long counter_idx_mask,
						 unsigned long config_flags,
						 unsigned long event_idx,
						 uint64_t event_data);
	struct sbiret (*counter_start)(struct pmu_hart *h,
				       unsigned long counter_idx_base,
				       unsigned long counter_idx_mask,
				       unsigned long start_flags,
				       uint64_t initial_value);
	struct sbiret (*counter_stop)(struct pmu_hart *h,
				      unsigned long counter_idx_base,
				      unsigned long counter_idx_mask,
				      unsigned long stop_flags);
	struct sbiret (*counter_fw_read)(struct pmu_hart *h,
					 unsigned long counter_idx);
	struct sbiret (*counter_fw_read_hi)(struct pmu_hart *h,
					    unsigned long counter_idx);
	struct sbiret (*snapshot_set_shmem)(struct pmu_hart *h,
					    unsigned long shmem_phys_lo,
					    unsigned long shmem_phys_hi,
					    unsigned long flags);
	struct sbiret (*event_get_info)(struct pmu_hart *h,
					unsigned long shmem_phys_lo,
					unsigned long shmem_phys_hi,
					unsigned long num_entries,
					unsigned long flags);
};
extern const struct pmu_sbi_ops pmu_sbi_ops;

/*
 * Decode a0..a5 (args[0..5]) of an ecall to EID 0x504D55 and call the
 * function of FID fid; joins the 64-bit arguments (event_data,
 * initial_value) from two registers on RV32.  Unknown FID: NOT_SUPPORTED.
 */
struct sbiret pmu_sbi_call(struct pmu_hart *h, unsigned long fid,
			   const unsigned long *args);

/* ---- firmware events (the event sites' calls: <tally/pmu_fw.h>) -------- */

void pmu_fw_count(struct pmu_hart *h, uint32_t ctrs);
void pmu_fw_count_platform(struct pmu_hart *h, uint32_t ctrs,
			   uint64_t event_data);

/* The slot of a firmware event code, PMU_FW_SLOT_NONE if not countable. */
static inline unsigned int pmu_fw_slot_of(unsigned long code)
{
	if (code < SBI_PMU_FW_STANDARD_COUNT)
		return (unsigned int)code;
	if (code >= SBI_PMU_FW_IMPL_FIRST &&
	    code < SBI_PMU_FW_IMPL_FIRST + SBI_PMU_FW_TALLY_COUNT)
		return PMU_FW_SLOT_TALLY_FIRST +
		       (unsigned int)(code - SBI_PMU_FW_IMPL_FIRST);
	if (code == SBI_PMU_FW_PLATFORM)
		return PMU_FW_SLOT_PLATFORM;
	return PMU_FW_SLOT_NONE;
}

#endif
