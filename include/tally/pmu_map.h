/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The PMU event map: which hardware counters can count which event, and
 * what to write into mhpmevent for it.
 *
 * It is built once at cold boot (from the riscv,pmu devicetree node, see
 * <tally/fdt_pmu.h>, or a board's static table) through the pmu_map_add_*()
 * builder calls, each of which validates its row and returns a specific
 * error, then frozen with pmu_map_freeze().  After that it is read-only and
 * shared by all harts.
 *
 * Storage is static: every table is an array sized by a compile-time limit
 * (the firmware has no allocator).  A board that needs more rows builds
 * with e.g. -DPMU_MAP_MAX_RAW=32768; sizeof(struct pmu_map) grows with it
 * (about 12 bytes per raw row).
 *
 * Lookups never scan all rows:
 *  - once frozen, the events of the spec's tables (hardware codes below
 *    PMU_MAP_DIRECT_HW, cache codes below PMU_MAP_DIRECT_CACHE) are one
 *    indexed load: pmu_map_freeze() answers each of them once, by the
 *    bisections below, into a direct table (the answers are the same);
 *  - selector and range rows are kept sorted by event_idx and searched by
 *    bisection (ranges may not overlap, so at most one range contains an
 *    event);
 *  - raw rows are grouped by variant mask (the mask is stored once per
 *    group) and sorted by invariant inside a group; a lookup bisects each
 *    group for (selector & mask).  Cost: O(masks * log rows), the number of
 *    distinct masks being bounded by PMU_MAP_MAX_RAW_MASKS.
 * Building costs O(log n) per row plus, for raw rows, a merge of a small
 * sorted staging buffer every PMU_MAP_RAW_STAGE rows, so even 10,000 raw
 * rows in random order load quickly and duplicates are still refused at
 * the row that repeats.  Raw rows that come in order (each after every row
 * before it, of the same, highest mask) are appended in O(1): no search,
 * no merge.
 *
 * Counter bitmaps use the devicetree's numbering: bit i = mhpmcounter i.
 */
#ifndef TALLY_PMU_MAP_H
#define TALLY_PMU_MAP_H

#include <stdbool.h>
#include <stdint.h>

#ifndef PMU_MAP_MAX_SELECTORS		/* riscv,event-to-mhpmevent rows */
#define PMU_MAP_MAX_SELECTORS		256
#endif
#ifndef PMU_MAP_MAX_RANGES		/* riscv,event-to-mhpmcounters rows */
#define PMU_MAP_MAX_RANGES		256
#endif
#ifndef PMU_MAP_MAX_RAW			/* riscv,raw-event-to-mhpmcounters rows */
#define PMU_MAP_MAX_RAW			10240
#endif
#ifndef PMU_MAP_MAX_RAW_MASKS		/* distinct variant masks among them */
#define PMU_MAP_MAX_RAW_MASKS		64
#endif
#ifndef PMU_MAP_RAW_STAGE		/* raw rows staged before a merge */
#define PMU_MAP_RAW_STAGE		128
#endif
/*
 * The direct table: type 0 codes 0..15 (the spec names 1..10) and type 1
 * codes 0..63 (cache id << 3 | op << 1 | result: ids 0..6, ops 0..2).
 */
#define PMU_MAP_DIRECT_HW		16
#define PMU_MAP_DIRECT_CACHE		64
#define PMU_MAP_DIRECT			(PMU_MAP_DIRECT_HW + PMU_MAP_DIRECT_CACHE)

/* Errors of the builder calls (negative), see pmu_map_strerror() */
enum pmu_map_error {
	PMU_MAP_OK = 0,
	PMU_MAP_ERR_FROZEN = -1,	/* the map is frozen: no more rows */
	PMU_MAP_ERR_FULL = -2,		/* the table's compile-time limit */
	PMU_MAP_ERR_EVENT_WIDTH = -3,	/* event_idx wider than 20 bits */
	PMU_MAP_ERR_EVENT_TYPE = -4,	/* not a type 0 or type 1 event */
	PMU_MAP_ERR_NO_EVENT = -5,	/* event 0x0 (SBI_PMU_HW_NO_EVENT) */
	PMU_MAP_ERR_RANGE_ORDER = -6,	/* first > last */
	PMU_MAP_ERR_RANGE_TYPES = -7,	/* first and last of different types */
	PMU_MAP_ERR_OVERLAP = -8,	/* range overlaps an earlier range */
	PMU_MAP_ERR_DUPLICATE = -9,	/* same event / raw row again */
	PMU_MAP_ERR_SELECTOR_ZERO = -10,
	PMU_MAP_ERR_SELECTOR_HIGH = -11,	/* selector sets bits 63:56 */
	PMU_MAP_ERR_NO_COUNTERS = -12,	/* selector for an uncountable event */
	PMU_MAP_ERR_COUNTERS_EMPTY = -13,
	PMU_MAP_ERR_COUNTER_TIME = -14,	/* bitmap names counter 1 */
	PMU_MAP_ERR_FIXED_COUNTER = -15,	/* 0 or 2 for another event */
	PMU_MAP_ERR_RAW_OUTSIDE_MASK = -16,	/* invariant & ~mask != 0 */
	PMU_MAP_ERR_RAW_HIGH = -17,	/* invariant sets bits 63:56 */
	PMU_MAP_ERR_TOO_MANY_MASKS = -18,
};

/* Rows as the builder takes them and the iterators hand them out. */
struct pmu_map_selector {		/* event -> mhpmevent value */
	uint32_t event_idx;
	uint64_t selector;
};

struct pmu_map_range {			/* events first..last -> counters */
	uint32_t first;
	uint32_t last;
	uint32_t counters;
};

struct pmu_map_raw {			/* (sel & mask) == invariant -> counters */
	uint64_t mask;
	uint64_t invariant;
	uint32_t counters;
};

struct pmu_map_direct {			/* a frozen lookup's answer */
	uint64_t selector;
	uint32_t counters;
};

struct pmu_map_mask_group {		/* raw rows [first, first + count) */
	uint64_t mask;
	uint32_t first;
	uint32_t count;
};

/*
 * Treat the fields as private: use the builder, the lookups and the
 * iterators below.  frozen may be read.
 */
struct pmu_map {
	bool frozen;
	unsigned int nr_selectors;
	unsigned int nr_ranges;
	unsigned int nr_raw;		/* merged raw rows */
	unsigned int nr_staged;		/* raw rows waiting in stage[] */
	unsigned int nr_masks;		/* groups, sorted by mask */
	struct pmu_map_selector selector[PMU_MAP_MAX_SELECTORS];
	struct pmu_map_range range[PMU_MAP_MAX_RANGES];
	struct pmu_map_direct direct[PMU_MAP_DIRECT];	/* filled at freeze */
	struct pmu_map_mask_group group[PMU_MAP_MAX_RAW_MASKS];
	struct pmu_map_raw stage[PMU_MAP_RAW_STAGE];	/* sorted (mask, inv) */
	/* merged raw rows, group by group: 12 bytes a row */
	uint64_t raw_invariant[PMU_MAP_MAX_RAW];
	uint32_t raw_counters[PMU_MAP_MAX_RAW];
};

/* Builder (cold boot, one hart) */
void pmu_map_init(struct pmu_map *map);
int pmu_map_add_range(struct pmu_map *map, uint32_t first, uint32_t last,
		      uint32_t counters);
/* Add ranges first: a selector is refused for an event no range covers. */
int pmu_map_add_selector(struct pmu_map *map, uint32_t event_idx,
			 uint64_t selector);
int pmu_map_add_raw(struct pmu_map *map, uint64_t invariant, uint64_t mask,
		    uint32_t counters);
void pmu_map_freeze(struct pmu_map *map);
const char *pmu_map_strerror(int error);
/*
 * The checks of one row that do not depend on the rows already added (not
 * overlap, duplicate, limits): the error pmu_map_add_range/raw() would
 * return first, or PMU_MAP_OK.
 */
int pmu_map_check_range(uint32_t first, uint32_t last, uint32_t counters);
int pmu_map_check_raw(uint64_t invariant, uint64_t mask, uint32_t counters);

/*
 * Lookups (frozen map).  Both return the bitmap of counters the platform
 * says can count the event; the caller intersects it with the counters a
 * hart really has.  Cycles (0x1) and instructions (0x2) can always use the
 * fixed counters 0 and 2, with or without any row.
 * pmu_map_hw_counters() also answers during the build (ranges are sorted
 * as they are added); pmu_map_raw_counters() returns 0 until the freeze.
 */
uint32_t pmu_map_hw_counters(const struct pmu_map *map, uint32_t event_idx,
			     uint64_t *selector);
uint32_t pmu_map_raw_counters(const struct pmu_map *map, uint64_t selector);

/*
 * The frozen map's answer for an event of the direct table (type 0 code
 * below PMU_MAP_DIRECT_HW, type 1 code below PMU_MAP_DIRECT_CACHE), the
 * same pmu_map_hw_counters() gives; NULL before the freeze and for any
 * other event (ask pmu_map_hw_counters()).  Inline: it is the per-entry
 * cost of event_get_info.
 */
/* The slot of the direct table for an event, PMU_MAP_DIRECT if none. */
static inline unsigned int pmu_map_direct_slot(uint32_t event_idx)
{
	uint32_t type = event_idx >> 16, code = event_idx & 0xFFFF;

	if (type == 0 && code < PMU_MAP_DIRECT_HW)		/* hardware */
		return code;
	if (type == 1 && code < PMU_MAP_DIRECT_CACHE)		/* cache */
		return PMU_MAP_DIRECT_HW + code;
	return PMU_MAP_DIRECT;
}

static inline const struct pmu_map_direct *
pmu_map_direct_entry(const struct pmu_map *map, uint32_t event_idx)
{
	unsigned int slot = pmu_map_direct_slot(event_idx);

	if (!map->frozen || slot >= PMU_MAP_DIRECT)
		return 0;
	return &map->direct[slot];
}

/*
 * Iterators for tools and tests: the i-th row in lookup order (ranges and
 * selectors by event, raw rows by mask then invariant); false past the end.
 * Raw rows are only listed once the map is frozen.
 */
unsigned int pmu_map_nr_ranges(const struct pmu_map *map);
unsigned int pmu_map_nr_selectors(const struct pmu_map *map);
unsigned int pmu_map_nr_raw(const struct pmu_map *map);
unsigned int pmu_map_nr_raw_masks(const struct pmu_map *map);
bool pmu_map_range_at(const struct pmu_map *map, unsigned int i,
		      struct pmu_map_range *row);
bool pmu_map_selector_at(const struct pmu_map *map, unsigned int i,
			 struct pmu_map_selector *row);
bool pmu_map_raw_at(const struct pmu_map *map, unsigned int i,
		    struct pmu_map_raw *row);

#ifdef PMU_MAP_DEBUG_COUNTERS
/* Test builds: comparisons made by lookups, to prove there is no scan. */
extern unsigned long pmu_map_debug_comparisons;
#endif

#endif
