// SPDX-License-Identifier: BSD-2-Clause
/*
 * The functions that use S-mode memory: snapshot_set_shmem (FID 7) with the
 * snapshot load/save of counter_start/counter_stop, and event_get_info
 * (FID 8).
 *
 * The embedder's shmem_map hook checks a whole range once (S-mode may read
 * and write all of it) and gives the address at which the library reads
 * and writes it; after that every field is one aligned load or store.  The
 * snapshot page is checked once, by snapshot_set_shmem; the event_get_info
 * array once per call.  The fields are little-endian (the spec's layout);
 * S-mode memory is accessed through volatile pointers, so each field is
 * read exactly once, where the code reads it, even if S-mode changes it
 * meanwhile on another hart.
 *
 * The snapshot memory is touched only by counter_stop with TAKE_SNAPSHOT
 * (write) and counter_start with INIT_SNAPSHOT (read), never by
 * snapshot_set_shmem itself.  The event_get_info memory only during the
 * call.
 */
#include <limits.h>
#include "pmu_internal.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define le32(v)	__builtin_bswap32(v)
#define le64(v)	__builtin_bswap64(v)
#else
#define le32(v)	(v)
#define le64(v)	(v)
#endif

/* One event_get_info entry, as the spec lays it out (16-byte aligned). */
struct event_info_entry {
	uint32_t event_idx;	/* RO */
	uint32_t output;	/* written */
	uint64_t event_data;	/* RO */
};
_Static_assert(sizeof(struct event_info_entry) == SBI_PMU_EVENT_INFO_SIZE &&
	       offsetof(struct event_info_entry, event_idx) ==
	       SBI_PMU_EVENT_INFO_IDX_OFFSET &&
	       offsetof(struct event_info_entry, output) ==
	       SBI_PMU_EVENT_INFO_OUTPUT_OFFSET &&
	       offsetof(struct event_info_entry, event_data) ==
	       SBI_PMU_EVENT_INFO_DATA_OFFSET, "the spec's entry layout");
_Static_assert(SBI_PMU_SNAPSHOT_OVERFLOW_OFFSET == 0 &&
	       SBI_PMU_SNAPSHOT_VALUES_OFFSET == 8,
	       "snapshot: overflow word, then counter_values[] (64-bit words)");

static bool shmem_supported(const struct pmu_hart *h)
{
	return h->ops->shmem_map != NULL;
}

/* The physical address made of (lo, hi): hi = upper XLEN bits. */
static long shmem_address(unsigned long lo, unsigned long hi, uint64_t *addr)
{
#if ULONG_MAX == 0xFFFFFFFFUL
	*addr = ((uint64_t)hi << 32) | lo;
#else
	if (hi)		/* at or above 2^64: no such memory */
		return SBI_ERR_INVALID_ADDRESS;
	*addr = lo;
#endif
	return SBI_SUCCESS;
}

/* ---- FID 7 and the snapshot --------------------------------------------- */

struct sbiret pmu_sbi_snapshot_set_shmem(struct pmu_hart *h,
					 unsigned long shmem_phys_lo,
					 unsigned long shmem_phys_hi,
					 unsigned long flags)
{
	void *page;
	uint64_t addr;
	long rc;

	if (!shmem_supported(h) || !PMU_SNAPSHOT)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	if (flags)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (shmem_phys_lo == SBI_PMU_SHMEM_DISABLE &&
	    shmem_phys_hi == SBI_PMU_SHMEM_DISABLE) {
		pmu_compat_shmem_disabled(h);
		h->shmem_enabled = false;
		h->shmem_addr = 0;
		h->shmem = NULL;
		return sbi_ok(0);
	}
	pmu_compat_shmem_set(h);	/* S-mode names a page: its word counts */
	if (shmem_phys_lo & (SBI_PMU_SNAPSHOT_ALIGN - 1))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	rc = shmem_address(shmem_phys_lo, shmem_phys_hi, &addr);
	if (rc)
		return sbi_err(rc);
	/* the page is checked here, once: save and load use it directly */
	page = h->ops->shmem_map(h->ops_ctx, addr, SBI_PMU_SNAPSHOT_SIZE);
	if (!page)
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	h->shmem_addr = addr;
	h->shmem = page;
	h->shmem_enabled = true;
	return sbi_ok(0);
}

/* The snapshot's 64-bit words: [0] the overflow bitmap, [1 + i] value i. */
static volatile uint64_t *snapshot_words(const struct pmu_hart *h)
{
	return h->shmem;
}

/* INIT_SNAPSHOT: counter_values[idx - base] (base <= idx < base + 64). */
uint64_t pmu_snapshot_value(const struct pmu_hart *h, unsigned long base,
			    unsigned int idx)
{
	return le64(snapshot_words(h)[1 + (idx - base)]);
}

/*
 * One counter of TAKE_SNAPSHOT (stopped): its value into
 * counter_values[idx - base]; returns its bit of the overflow bitmap
 * (idx - base), 0 if its OF is clear or not real, and with only = true
 * also writes that as the whole bitmap (the set's only counter).
 */
static __attribute__((noinline)) uint64_t
save_fw_counter(const struct pmu_hart *h, unsigned long base, unsigned long idx,
		bool only)
{
	volatile uint64_t *snap = snapshot_words(h);

	snap[1 + (idx - base)] = le64(h->counter[idx].value);
	if (only)
		snap[0] = 0;		/* a firmware counter has no OF */
	return 0;
}

/*
 * The hardware counters call the hooks themselves, OF first and the
 * bitmap written before the counter read, so that little state lives
 * across the calls (the firmware counters are out of line for the same
 * reason).
 */
static __attribute__((noinline)) uint64_t
save_counter(const struct pmu_hart *h, unsigned long base, unsigned long idx,
	     bool only)
{
	uint64_t of = 0;

	if (idx >= h->nr_hw)
		return save_fw_counter(h, base, idx, only);
	if (pmu_hw_of(h, (unsigned int)idx))
		of = BIT64(idx - base);
	if (only)
		snapshot_words(h)[0] = le64(of);
	snapshot_words(h)[1 + (idx - base)] =
		le64(h->ops->counter_read(h->ops_ctx, idx));
	return of;
}

/*
 * save_one_hw() for the set (idx, mask 1), the way Linux stops one event
 * (twice per context switch): bit 0, counter_values[0].  Four values live
 * across the hook calls and nothing is shifted: TAKE_SNAPSHOT of (idx, 1)
 * takes 230 instructions, 237 through save_one_hw(h, 0, idx).
 */
static __attribute__((noinline)) void save_base_hw(const struct pmu_hart *h,
						   unsigned int idx)
{
	volatile uint64_t *words = snapshot_words(h);
	const struct pmu_hart_ops *ops = h->ops;
	void *ctx = h->ops_ctx;
	uint64_t of = pmu_hw_of(h, idx);

	words[0] = le64(of);
	words[1] = le64(ops->counter_read(ctx, idx));
}

/*
 * save_counter() for a set whose only configured counter is hardware
 * counter idx, not base: (0, used) in Linux's overflow handler.  The
 * bitmap is bit idx - base, the
 * value goes to counter_values[idx - base].  Only h, off and idx live
 * across the hook calls (the rest is loaded again), which keeps the stack
 * traffic of the hottest TAKE_SNAPSHOT small.
 */
static __attribute__((noinline)) void save_one_hw(const struct pmu_hart *h,
						  unsigned int off,
						  unsigned int idx)
{
	uint64_t of = pmu_hw_of(h, idx);

	snapshot_words(h)[0] = le64(of << off);
	snapshot_words(h)[1 + off] =
		le64(h->ops->counter_read(h->ops_ctx, idx));
}

/*
 * TAKE_SNAPSHOT, after the set was stopped: counter_values[idx - base] of
 * every configured counter of the set (the others' slots are not
 * written), and the whole overflow bitmap: bit idx - base for the
 * counters of the set whose OF is set (always 0 without Sscofpmf).
 * bits: the configured counters of the set, two or more.
 */
static __attribute__((noinline)) void
save_many(const struct pmu_hart *h, unsigned long base, uint64_t bits)
{
	uint64_t of = 0;
	unsigned int idx;

	for_each_bit(idx, bits)
		of |= save_counter(h, base, idx, false);
	snapshot_words(h)[0] = le64(of);
}

/*
 * Linux stops its counters one by one, as (idx, mask 1), and in its
 * overflow handler as (0, used), mostly one counter: a set of one
 * configured counter has no loop, and no bit scan when it is base.
 */
void pmu_snapshot_save(const struct pmu_hart *h, unsigned long base,
		       uint64_t set)
{
	uint64_t bits = set & h->configured;
	unsigned int idx;

	if (bits == BIT64(base) && base < h->nr_hw) {
		save_base_hw(h, (unsigned int)base);	/* (idx, mask 1) */
		return;
	}
	if (!bits) {
		snapshot_words(h)[0] = 0;	/* nothing overflowed */
		return;
	}
	if (bits & (bits - 1)) {
		save_many(h, base, bits);
		return;
	}
	idx = bits == BIT64(base) ? (unsigned int)base : pmu_ctz64(bits);
	if (idx < h->nr_hw)
		save_one_hw(h, idx - (unsigned int)base, idx);
	else
		save_fw_counter(h, base, idx, true);
}

/* ---- FID 8 -------------------------------------------------------------- */

/*
 * event_get_info's question, per entry: does pmu_event_match find a
 * counter of this hart for the event?  The spec's hardware and cache
 * events: one bit of the answers pmu_hart_init took.  Firmware events
 * but SBI_PMU_FW_PLATFORM: any firmware counter, as fw_event_match
 * answers.  Others (raw, PLATFORM, unknown): the matcher.  event_idx
 * has no bit above the 20 of the spec (event_get_info refused those).
 */
static bool event_supported(const struct pmu_hart *h, uint32_t event_idx,
			    uint64_t event_data)
{
	unsigned int slot = pmu_map_direct_slot(event_idx);

	if (slot < PMU_MAP_DIRECT)
		return (h->direct_supported[slot / 64] >> (slot % 64)) & 1;
	if (SBI_PMU_EVENT_TYPE(event_idx) == SBI_PMU_EVENT_TYPE_FW &&
	    pmu_fw_slot_of(SBI_PMU_EVENT_CODE(event_idx)) <
	    PMU_FW_SLOT_PLATFORM)
		return pmu_fw_mask(h) != 0;
	return pmu_event_supported_slow(h, event_idx, event_data);
}

struct sbiret pmu_sbi_event_get_info(struct pmu_hart *h,
				     unsigned long shmem_phys_lo,
				     unsigned long shmem_phys_hi,
				     unsigned long num_entries,
				     unsigned long flags)
{
	volatile struct event_info_entry *entry;
	uint64_t addr, size;
	unsigned long i;
	long rc;

	if (!shmem_supported(h))
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	if (flags || (shmem_phys_lo & (SBI_PMU_EVENT_INFO_ALIGN - 1)))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	rc = shmem_address(shmem_phys_lo, shmem_phys_hi, &addr);
	if (rc)
		return sbi_err(rc);
	if (!num_entries)
		return sbi_ok(0);		/* nothing to read or write */
#if ULONG_MAX > 0xFFFFFFFFUL	/* 16 * num_entries cannot wrap on RV32 */
	if ((uint64_t)num_entries > UINT64_MAX / SBI_PMU_EVENT_INFO_SIZE)
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
#endif
	size = (uint64_t)num_entries * SBI_PMU_EVENT_INFO_SIZE;
	/* the whole array, checked once: each entry is then inside it */
	entry = h->ops->shmem_map(h->ops_ctx, addr, size);
	if (!entry)
		return sbi_err(SBI_ERR_INVALID_ADDRESS);

	/* Refuse the whole request before writing anything. */
	for (i = 0; i < num_entries; i++)
		if (le32(entry[i].event_idx) & SBI_PMU_EVENT_INFO_IDX_RESERVED)
			return sbi_err(SBI_ERR_INVALID_PARAM);

	for (i = 0; i < num_entries; i++) {
		uint32_t event_idx = le32(entry[i].event_idx);
		bool supported;

		/* reserved bits set since the first pass: not an event */
		supported = !(event_idx & SBI_PMU_EVENT_INFO_IDX_RESERVED) &&
			    event_supported(h, event_idx,
						le64(entry[i].event_data));
		entry[i].output = le32(supported ? SBI_PMU_EVENT_INFO_SUPPORTED
						 : 0U);
	}
	return sbi_ok(0);
}
