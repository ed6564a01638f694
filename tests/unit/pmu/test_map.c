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

/*
 * The frozen map answers the events of the spec's tables (hardware codes
 * below PMU_MAP_DIRECT_HW, cache codes below PMU_MAP_DIRECT_CACHE) from its
 * direct table: one load, no comparison, and the same counters and
 * selector as the bisections of the map before the freeze.
 */
void test_map_direct(void)
{
	static struct pmu_map building;
	uint32_t types[] = { SBI_PMU_EVENT_TYPE_HW, SBI_PMU_EVENT_TYPE_CACHE };
	unsigned int same = 0, total = 0, direct = 0, t, code;
	unsigned long before, searched = 0;

	/* the same rows twice: one map frozen, one left open (bisection) */
	for (t = 0; t < 2; t++) {
		struct pmu_map *x = t ? &building : &m;

		pmu_map_init(x);
		pmu_map_add_range(x, 0x1, 0x1, 0x1 | 0xF8);
		pmu_map_add_range(x, 0x3, 0x6, 0x30);
		pmu_map_add_range(x, 0xA, 0x20, 0x100);	/* across the edge */
		pmu_map_add_range(x, 0x10000, 0x10003, 0x8);
		pmu_map_add_range(x, 0x10019, 0x10019, 0x7FFF8);
		pmu_map_add_range(x, 0x1003E, 0x10042, 0x40);	/* across */
		pmu_map_add_selector(x, 0x4, 0x1234);
		pmu_map_add_selector(x, 0x10019, 0xABCD);
		pmu_map_add_selector(x, 0x10040, 0x77);
	}
	pmu_map_freeze(&m);

	for (t = 0; t < 2; t++) {
		for (code = 0; code < 0x100; code++) {
			uint32_t ev = SBI_PMU_EVENT_IDX(types[t], code);
			uint64_t s1 = 1, s2 = 2;
			uint32_t c1, c2;

			before = pmu_map_debug_comparisons;
			c1 = pmu_map_hw_counters(&m, ev, &s1);
			if (pmu_map_debug_comparisons == before)
				direct++;
			else
				searched++;
			c2 = pmu_map_hw_counters(&building, ev, &s2);
			total++;
			same += c1 == c2 && s1 == s2 &&
				pmu_map_hw_counters(&m, ev, NULL) == c2;
		}
	}
	CHECK(same == total,
	      "map: frozen lookups (direct table) answer as the bisections: %u of %u events",
	      same, total);
	CHECK(direct == PMU_MAP_DIRECT,
	      "map: %u events (hardware codes < %u, cache codes < %u) answered with no comparison (expected %u)",
	      direct, PMU_MAP_DIRECT_HW, PMU_MAP_DIRECT_CACHE, PMU_MAP_DIRECT);
	CHECK(pmu_map_hw_counters(&m, 0x10019, NULL) == 0x7FFF8 &&
	      pmu_map_hw_counters(&m, 0x2, NULL) == 0x4 &&
	      pmu_map_hw_counters(&m, 0x0, NULL) == 0,
	      "map: direct table: DTLB read miss, instructions (fixed counter), event 0");
}

/*
 * Raw rows in order are appended with no search; rows out of order, and
 * repeats, still go through the checks: every row is found after the
 * freeze, in order, and every repeat is refused.
 */
void test_map_raw_in_order(void)
{
	const uint64_t all = 0x00FFFFFFFFFFFFFFULL;
	unsigned long before;
	unsigned int i, found = 0, ordered = 1, n = 2000;
	struct pmu_map_raw row, prev = { 0, 0, 0 };
	int rc = 0;

	pmu_map_init(&m);
	before = pmu_map_debug_comparisons;
	for (i = 0; i < n; i++)
		rc |= pmu_map_add_raw(&m, 0x100000 + 2 * i, all, 0x8);
	CHECK(rc == 0 && pmu_map_debug_comparisons - before < 2 * PMU_MAP_RAW_STAGE * 12,
	      "map: %u raw rows in order added with %lu comparisons (appended, no search per row)",
	      n, pmu_map_debug_comparisons - before);
	CHECK(pmu_map_add_raw(&m, 0x100000 + 2 * (n - 1), all, 0x10) == PMU_MAP_ERR_DUPLICATE &&
	      pmu_map_add_raw(&m, 0x100000 + 2 * 7, all, 0x10) == PMU_MAP_ERR_DUPLICATE,
	      "map: in-order rows: a repeat of the last row and of an earlier row refused");
	/* out of order: staged; then in-order rows go through the stage too */
	CHECK(pmu_map_add_raw(&m, 0x100001, all, 0x10) == PMU_MAP_OK &&
	      pmu_map_add_raw(&m, 0x100000 + 2 * n, all, 0x20) == PMU_MAP_OK &&
	      pmu_map_add_raw(&m, 0x100000 + 2 * n, all, 0x20) == PMU_MAP_ERR_DUPLICATE &&
	      pmu_map_add_raw(&m, 0x100001, all, 0x10) == PMU_MAP_ERR_DUPLICATE,
	      "map: a row out of order and one after it added, their repeats refused");
	/* another mask after the in-order group, then the first group again */
	CHECK(pmu_map_add_raw(&m, 0x5, 0xFF, 0x40) == PMU_MAP_OK &&
	      pmu_map_add_raw(&m, 0x100000 + 2 * n + 2, all, 0x80) == PMU_MAP_OK,
	      "map: rows of a second mask, and of the first after it");
	pmu_map_freeze(&m);
	for (i = 0; pmu_map_raw_at(&m, i, &row); i++) {
		if (i && (row.mask < prev.mask ||
			  (row.mask == prev.mask && row.invariant <= prev.invariant)))
			ordered = 0;
		prev = row;
	}
	for (i = 0; i < n; i++)
		found += pmu_map_raw_counters(&m, 0x100000 + 2 * i) == 0x8;
	CHECK(i == n && found == n && ordered && pmu_map_nr_raw(&m) == n + 4,
	      "map: after the freeze %u of %u in-order rows found, %u rows in lookup order",
	      found, n, pmu_map_nr_raw(&m));
	CHECK(pmu_map_raw_counters(&m, 0x100001) == 0x10 &&
	      pmu_map_raw_counters(&m, 0x100000 + 2 * n) == 0x20 &&
	      pmu_map_raw_counters(&m, 0x100000 + 2 * n + 2) == 0x80 &&
	      pmu_map_raw_counters(&m, 0x105) == 0x40 &&
	      pmu_map_raw_counters(&m, 0x100003) == 0,
	      "map: the rows out of order and of the second mask found, a missing one not");
}
