/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The PMU event map: which hardware counters can count which event, and
 * what to write into mhpmevent for it.
 *
 * It is built once at cold boot (from the riscv,pmu devicetree node or a
 * board's static table) through the pmu_map_add_*() builder calls, each of
 * which validates its row and returns a specific error, then frozen with
 * pmu_map_freeze().  After that it is read-only and shared by all harts.
 *
 * Storage is static: every table is an array sized by a compile-time limit
 * (the firmware has no allocator).  A board that needs more rows builds
 * with e.g. -DPMU_MAP_MAX_RAW=4096; sizeof(struct pmu_map) grows with it.
 *
 * Lookups never scan all rows:
 *  - selector and range rows are kept sorted by event_idx and searched by
 *    bisection (ranges may not overlap, so at most one range contains an
 *    event);
 *  - raw rows are kept sorted by (variant mask, invariant); the frozen map
 *    has one group per distinct mask, and a lookup bisects each group for
 *    (selector & mask).  Cost: O(masks * log rows); the number of distinct
 *    masks is bounded by PMU_MAP_MAX_RAW_MASKS.
 *
 * Counter bitmaps use the devicetree's numbering: bit i = mhpmcounter i.
 */
#ifndef TALLY_PMU_MAP_H
#define TALLY_PMU_MAP_H

#include <stdbool.h>
#include <stdint.h>

#ifndef PMU_MAP_MAX_SELECTORS		/* riscv,event-to-mhpmevent rows */
#define PMU_MAP_MAX_SELECTORS		128
#endif
#ifndef PMU_MAP_MAX_RANGES		/* riscv,event-to-mhpmcounters rows */
#define PMU_MAP_MAX_RANGES		128
#endif
#ifndef PMU_MAP_MAX_RAW			/* riscv,raw-event-to-mhpmcounters rows */
#define PMU_MAP_MAX_RAW			512
#endif
#ifndef PMU_MAP_MAX_RAW_MASKS		/* distinct variant masks among them */
#define PMU_MAP_MAX_RAW_MASKS		32
#endif

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

/* Quirks of the hart implementation the allocator must respect */
#define PMU_MAP_QUIRK_ONE_COUNTER_PER_EVENT	(1U << 0)	/* QEMU 7.2 */

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

struct pmu_map_mask_group {		/* raw rows [first, first + count) */
	uint64_t mask;
	uint32_t first;
	uint32_t count;
};

struct pmu_map {
	bool frozen;
	uint32_t quirks;
	unsigned int nr_selectors;
	unsigned int nr_ranges;
	unsigned int nr_raw;
	unsigned int nr_masks;
	struct pmu_map_selector selector[PMU_MAP_MAX_SELECTORS];
	struct pmu_map_range range[PMU_MAP_MAX_RANGES];
	struct pmu_map_raw raw[PMU_MAP_MAX_RAW];
	struct pmu_map_mask_group group[PMU_MAP_MAX_RAW_MASKS];
};

/* Builder (cold boot, one hart) */
void pmu_map_init(struct pmu_map *map);
void pmu_map_set_quirks(struct pmu_map *map, uint32_t quirks);
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
 * Lookups (frozen map).  Both return the bitmap of counters the platform
 * says can count the event; the caller intersects it with the counters a
 * hart really has.  Cycles (0x1) and instructions (0x2) can always use the
 * fixed counters 0 and 2, with or without any row.
 */
uint32_t pmu_map_hw_counters(const struct pmu_map *map, uint32_t event_idx,
			     uint64_t *selector);
uint32_t pmu_map_raw_counters(const struct pmu_map *map, uint64_t selector);

#ifdef PMU_MAP_DEBUG_COUNTERS
/* Test builds: comparisons made by lookups, to prove there is no scan. */
extern unsigned long pmu_map_debug_comparisons;
#endif

#endif
