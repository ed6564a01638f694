// SPDX-License-Identifier: BSD-2-Clause
/*
 * The functions that use S-mode memory: snapshot_set_shmem (FID 7) with the
 * snapshot load/save of counter_start/counter_stop, and event_get_info
 * (FID 8).  All memory goes through the embedder's shmem hooks, which copy
 * bytes; the layouts are encoded here, little-endian.
 *
 * The snapshot memory is touched only by counter_stop with TAKE_SNAPSHOT
 * (read/write) and counter_start with INIT_SNAPSHOT (read), never by
 * snapshot_set_shmem itself.  The event_get_info memory only during the
 * call.
 */
#include <limits.h>
#include "pmu_internal.h"

static bool shmem_supported(const struct pmu_hart *h)
{
	return h->ops->shmem_check && h->ops->shmem_read &&
	       h->ops->shmem_write;
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

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static long mem_read(const struct pmu_hart *h, uint64_t addr, void *buf,
		     size_t size)
{
	if (h->ops->shmem_read(h->ops_ctx, addr, buf, size) != SBI_SUCCESS)
		return SBI_ERR_FAILED;
	return SBI_SUCCESS;
}

static long mem_write(const struct pmu_hart *h, uint64_t addr,
		      const void *buf, size_t size)
{
	if (h->ops->shmem_write(h->ops_ctx, addr, buf, size) != SBI_SUCCESS)
		return SBI_ERR_FAILED;
	return SBI_SUCCESS;
}

/* ---- FID 7 and the snapshot --------------------------------------------- */

struct sbiret pmu_sbi_snapshot_set_shmem(struct pmu_hart *h,
					 unsigned long shmem_phys_lo,
					 unsigned long shmem_phys_hi,
					 unsigned long flags)
{
	uint64_t addr;
	long rc;

	if (!shmem_supported(h))
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	if (flags)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (shmem_phys_lo == SBI_PMU_SHMEM_DISABLE &&
	    shmem_phys_hi == SBI_PMU_SHMEM_DISABLE) {
		h->shmem_enabled = false;
		h->shmem_addr = 0;
		return sbi_ok(0);
	}
	if (shmem_phys_lo & (SBI_PMU_SNAPSHOT_ALIGN - 1))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	rc = shmem_address(shmem_phys_lo, shmem_phys_hi, &addr);
	if (rc)
		return sbi_err(rc);
	if (h->ops->shmem_check(h->ops_ctx, addr, SBI_PMU_SNAPSHOT_SIZE))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	h->shmem_addr = addr;
	h->shmem_enabled = true;
	return sbi_ok(0);
}

static uint64_t value_addr(const struct pmu_hart *h, unsigned long base,
			   unsigned int idx)
{
	return h->shmem_addr + SBI_PMU_SNAPSHOT_VALUES_OFFSET +
	       8 * (uint64_t)(idx - base);
}

/*
 * INIT_SNAPSHOT: values[idx] = counter_values[idx - base] for every idx of
 * set (base <= idx < 64).  Reads only; nothing changes on failure.
 */
long pmu_snapshot_load(const struct pmu_hart *h, unsigned long base,
		       uint64_t set, uint64_t values[PMU_COUNTERS_MAX])
{
	uint8_t buf[8];
	unsigned int idx;
	long rc;

	for_each_bit(idx, set) {
		rc = mem_read(h, value_addr(h, base, idx), buf, sizeof(buf));
		if (rc)
			return rc;
		values[idx] = get_le64(buf);
	}
	return SBI_SUCCESS;
}

/*
 * TAKE_SNAPSHOT, after the set was stopped: counter_values[idx - base] of
 * every configured counter of the set (the others' slots are not
 * written), and the whole overflow bitmap: bit idx - base for the
 * counters of the set whose OF is set (always 0 without Sscofpmf).
 */
long pmu_snapshot_save(const struct pmu_hart *h, unsigned long base,
		       uint64_t set)
{
	uint64_t bits = set & h->configured;
	uint64_t overflow = 0;
	uint8_t buf[8];
	unsigned int idx;
	long rc;

	for_each_bit(idx, bits) {
		put_le64(buf, pmu_counter_read(h, idx));
		rc = mem_write(h, value_addr(h, base, idx), buf, sizeof(buf));
		if (rc)
			return rc;
		if (pmu_hw_overflowed(h, idx))
			overflow |= BIT64(idx - base);
	}
	put_le64(buf, overflow);
	return mem_write(h, h->shmem_addr + SBI_PMU_SNAPSHOT_OVERFLOW_OFFSET,
			 buf, sizeof(buf));
}

/* ---- FID 8 -------------------------------------------------------------- */

struct sbiret pmu_sbi_event_get_info(struct pmu_hart *h,
				     unsigned long shmem_phys_lo,
				     unsigned long shmem_phys_hi,
				     unsigned long num_entries,
				     unsigned long flags)
{
	uint8_t entry[SBI_PMU_EVENT_INFO_SIZE];
	uint64_t addr, size, i;
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
	if (h->ops->shmem_check(h->ops_ctx, addr, size))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);

	/* Refuse the whole request before writing anything. */
	for (i = 0; i < num_entries; i++) {
		rc = mem_read(h, addr + i * SBI_PMU_EVENT_INFO_SIZE, entry, 4);
		if (rc)
			return sbi_err(rc);
		if (get_le32(entry) & SBI_PMU_EVENT_INFO_IDX_RESERVED)
			return sbi_err(SBI_ERR_INVALID_PARAM);
	}

	for (i = 0; i < num_entries; i++) {
		uint64_t at = addr + i * SBI_PMU_EVENT_INFO_SIZE;
		uint32_t event_idx, output = 0;
		uint64_t event_data;
		struct pmu_match m;

		rc = mem_read(h, at, entry, sizeof(entry));
		if (rc)
			return sbi_err(rc);
		event_idx = get_le32(entry + SBI_PMU_EVENT_INFO_IDX_OFFSET);
		event_data = get_le64(entry + SBI_PMU_EVENT_INFO_DATA_OFFSET);
		/* reserved bits set since the first pass: not an event */
		if (!(event_idx & SBI_PMU_EVENT_INFO_IDX_RESERVED) &&
		    pmu_event_match(h, event_idx, event_data, &m))
			output = SBI_PMU_EVENT_INFO_SUPPORTED;
		put_le32(entry, output);
		rc = mem_write(h, at + SBI_PMU_EVENT_INFO_OUTPUT_OFFSET, entry,
			       4);
		if (rc)
			return sbi_err(rc);
	}
	return sbi_ok(0);
}
