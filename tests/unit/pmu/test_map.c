// SPDX-License-Identifier: BSD-2-Clause
/* The event map the matcher relies on: builder errors, lookups, no scans. */
#include "fixture.h"

static struct pmu_map m;

void test_map_builder(void)
{
	uint64_t sel = 0;
	unsigned long before;
	int rc;

	pmu_map_init(&m);
	CHECK(pmu_map_add_range(&m, 0x10, 0x20, 0xF8) == PMU_MAP_OK,
	      "map: add range 0x10..0x20");
	CHECK(pmu_map_add_range(&m, 0x20, 0x30, 0xF8) == PMU_MAP_ERR_OVERLAP,
	      "map: overlapping range refused");
	CHECK(pmu_map_add_range(&m, 0x8, 0x10, 0xF8) == PMU_MAP_ERR_OVERLAP,
	      "map: range overlapping from below refused");
	CHECK(pmu_map_add_range(&m, 0x30, 0x21, 0xF8) == PMU_MAP_ERR_RANGE_ORDER,
	      "map: first > last refused");
	CHECK(pmu_map_add_range(&m, 0x5, 0x10005, 0xF8) == PMU_MAP_ERR_RANGE_TYPES,
	      "map: range across types refused");
	CHECK(pmu_map_add_range(&m, 0x20000, 0x20000, 0xF8) == PMU_MAP_ERR_EVENT_TYPE,
	      "map: type 2 in a range refused");
	CHECK(pmu_map_add_range(&m, 0x100000, 0x100000, 0xF8) ==
	      PMU_MAP_ERR_EVENT_WIDTH, "map: event wider than 20 bits refused");
	CHECK(pmu_map_add_range(&m, 0x0, 0x0, 0xF8) == PMU_MAP_ERR_NO_EVENT,
	      "map: event 0 refused");
	CHECK(pmu_map_add_range(&m, 0x40, 0x40, 0x2) == PMU_MAP_ERR_COUNTER_TIME,
	      "map: counter 1 refused");
	CHECK(pmu_map_add_range(&m, 0x40, 0x40, 0x1) == PMU_MAP_ERR_FIXED_COUNTER,
	      "map: counter 0 for another event than cycles refused");
	CHECK(pmu_map_add_range(&m, 0x40, 0x40, 0) == PMU_MAP_ERR_COUNTERS_EMPTY,
	      "map: empty bitmap refused");
	CHECK(pmu_map_add_selector(&m, 0x50, 0x99) == PMU_MAP_ERR_NO_COUNTERS,
	      "map: selector for an event without counters refused");
	CHECK(pmu_map_add_selector(&m, 0x15, 0) == PMU_MAP_ERR_SELECTOR_ZERO,
	      "map: selector 0 refused");
	CHECK(pmu_map_add_selector(&m, 0x15, MHPMEVENT_OF | 1) ==
	      PMU_MAP_ERR_SELECTOR_HIGH, "map: selector with bits 63:56 refused");
	CHECK(pmu_map_add_selector(&m, 0x15, 0x77) == PMU_MAP_OK,
	      "map: selector for 0x15");
	CHECK(pmu_map_add_selector(&m, 0x15, 0x78) == PMU_MAP_ERR_DUPLICATE,
	      "map: duplicate selector refused");
	CHECK(pmu_map_add_raw(&m, 0x1F0, 0xF0, 0x8) == PMU_MAP_ERR_RAW_OUTSIDE_MASK,
	      "map: raw invariant outside its mask refused");
	CHECK(pmu_map_add_raw(&m, 1ULL << 60, ~0ULL, 0x8) == PMU_MAP_ERR_RAW_HIGH,
	      "map: raw invariant with bits 63:56 refused");
	CHECK(pmu_map_add_raw(&m, 0x10, 0xF0, 0x8) == PMU_MAP_OK &&
	      pmu_map_add_raw(&m, 0x20, 0xF0, 0x10) == PMU_MAP_OK &&
	      pmu_map_add_raw(&m, 0x2, 0xF, 0x20) == PMU_MAP_OK,
	      "map: three raw rows, two masks");
	CHECK(pmu_map_add_raw(&m, 0x10, 0xF0, 0x8) == PMU_MAP_ERR_DUPLICATE,
	      "map: duplicate raw row refused");
	pmu_map_freeze(&m);
	CHECK(pmu_map_add_range(&m, 0x60, 0x60, 0x8) == PMU_MAP_ERR_FROZEN,
	      "map: frozen map takes no rows");
	CHECK(pmu_map_hw_counters(&m, 0x15, &sel) == 0xF8 && sel == 0x77,
	      "map: lookup in a range with a selector row");
	CHECK(pmu_map_hw_counters(&m, 0x18, &sel) == 0xF8 && sel == 0x18,
	      "map: lookup without a selector row: zero-extended event_idx");
	CHECK(pmu_map_hw_counters(&m, 0x21, &sel) == 0, "map: lookup past a range");
	CHECK(pmu_map_hw_counters(&m, 0x1, &sel) == 0x1 && sel == 0x1,
	      "map: cycles can always use counter 0");
	CHECK(pmu_map_hw_counters(&m, 0x2, NULL) == 0x4,
	      "map: instructions can always use counter 2");
	CHECK(pmu_map_raw_counters(&m, 0x12) == 0x28,
	      "map: raw 0x12 matches two rows of different masks (union)");
	CHECK(pmu_map_raw_counters(&m, 0x25) == 0x10,
	      "map: raw 0x25 matches one row");
	CHECK(pmu_map_raw_counters(&m, 0x35) == 0, "map: raw 0x35 matches none");
	CHECK(*pmu_map_strerror(PMU_MAP_ERR_TOO_MANY_MASKS) &&
	      *pmu_map_strerror(12345), "map: strerror always has a text");

	/* a full table is searched by bisection, not scanned */
	pmu_map_init(&m);
	rc = 0;
	for (unsigned int i = 0; i < PMU_MAP_MAX_RANGES; i++)
		rc |= pmu_map_add_range(&m, 0x10000 + 2 * i, 0x10000 + 2 * i, 0x8);
	for (unsigned int i = 0; i < PMU_MAP_MAX_RAW && !rc; i++)
		rc |= pmu_map_add_raw(&m, i, 0xFFFF, 0x8);
	CHECK(rc == 0, "map: %d ranges and %d raw rows", PMU_MAP_MAX_RANGES,
	      PMU_MAP_MAX_RAW);
	CHECK(pmu_map_add_range(&m, 0x11000, 0x11000, 0x8) == PMU_MAP_ERR_FULL,
	      "map: range table full");
	pmu_map_freeze(&m);
	before = pmu_map_debug_comparisons;
	CHECK(pmu_map_hw_counters(&m, 0x10000 + 2 * 100, NULL) == 0x8 &&
	      pmu_map_hw_counters(&m, 0x10001, NULL) == 0 &&
	      pmu_map_raw_counters(&m, 300) == 0x8,
	      "map: lookups in the full map");
	CHECK(pmu_map_debug_comparisons - before <= 3 * 11,
	      "map: three lookups took %lu comparisons (bisection, no scan)",
	      pmu_map_debug_comparisons - before);
}
