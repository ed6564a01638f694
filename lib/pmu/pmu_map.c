// SPDX-License-Identifier: BSD-2-Clause
/*
 * The PMU event map: builder (validating every row), freeze, and the
 * bisection lookups described in <tally/pmu_map.h>.
 */
#include <tally/pmu_map.h>
#include <tally/sbi_pmu_spec.h>

#ifdef PMU_MAP_DEBUG_COUNTERS
unsigned long pmu_map_debug_comparisons;
#define COMPARED()	(pmu_map_debug_comparisons++)
#else
#define COMPARED()	((void)0)
#endif

#define BIT32(n)		(1U << (n))
#define EVENT_CYCLES		SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, \
						  SBI_PMU_HW_CPU_CYCLES)
#define EVENT_INSTRUCTIONS	SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, \
						  SBI_PMU_HW_INSTRUCTIONS)

void pmu_map_init(struct pmu_map *map)
{
	map->frozen = false;
	map->quirks = 0;
	map->nr_selectors = 0;
	map->nr_ranges = 0;
	map->nr_raw = 0;
	map->nr_masks = 0;
}

void pmu_map_set_quirks(struct pmu_map *map, uint32_t quirks)
{
	map->quirks = quirks;
}

/* ---- row validation ---------------------------------------------------- */

/* Only hardware (type 0) and cache (type 1) events belong in these rows. */
static int check_hw_event(uint32_t event_idx)
{
	unsigned long type = SBI_PMU_EVENT_TYPE(event_idx);

	if (event_idx & ~SBI_PMU_EVENT_IDX_MASK)
		return PMU_MAP_ERR_EVENT_WIDTH;
	if (type != SBI_PMU_EVENT_TYPE_HW && type != SBI_PMU_EVENT_TYPE_CACHE)
		return PMU_MAP_ERR_EVENT_TYPE;
	if (event_idx == SBI_PMU_HW_NO_EVENT)
		return PMU_MAP_ERR_NO_EVENT;
	return PMU_MAP_OK;
}

/*
 * Counter 1 is the time CSR, which counts no events; counters 0 and 2 are
 * mcycle and minstret, which count exactly one event each.
 */
static int check_counters(uint32_t counters, uint32_t first, uint32_t last)
{
	bool only_cycles = first == EVENT_CYCLES && last == EVENT_CYCLES;
	bool only_instret = first == EVENT_INSTRUCTIONS &&
			    last == EVENT_INSTRUCTIONS;

	if (!counters)
		return PMU_MAP_ERR_COUNTERS_EMPTY;
	if (counters & BIT32(PMU_COUNTER_TIME))
		return PMU_MAP_ERR_COUNTER_TIME;
	if ((counters & BIT32(PMU_COUNTER_CYCLE)) && !only_cycles)
		return PMU_MAP_ERR_FIXED_COUNTER;
	if ((counters & BIT32(PMU_COUNTER_INSTRET)) && !only_instret)
		return PMU_MAP_ERR_FIXED_COUNTER;
	return PMU_MAP_OK;
}

static int check_range(uint32_t first, uint32_t last, uint32_t counters)
{
	int err = check_hw_event(first);

	if (!err)
		err = check_hw_event(last);
	if (err)
		return err;
	if (SBI_PMU_EVENT_TYPE(first) != SBI_PMU_EVENT_TYPE(last))
		return PMU_MAP_ERR_RANGE_TYPES;
	if (first > last)
		return PMU_MAP_ERR_RANGE_ORDER;
	return check_counters(counters, first, last);
}

static int check_raw(uint64_t invariant, uint64_t mask, uint32_t counters)
{
	/* No event is both cycles and instructions: 0 and 2 are refused. */
	int err = check_counters(counters, 0, 0);

	if (err)
		return err;
	if (invariant & MHPMEVENT_PRIV_BITS)
		return PMU_MAP_ERR_RAW_HIGH;
	if (invariant & ~mask)
		return PMU_MAP_ERR_RAW_OUTSIDE_MASK;
	return PMU_MAP_OK;
}

/* ---- sorted tables ------------------------------------------------------ */

/* Number of ranges whose first event is <= event_idx. */
static unsigned int ranges_upto(const struct pmu_map *map, uint32_t event_idx)
{
	unsigned int lo = 0, hi = map->nr_ranges;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		COMPARED();
		if (map->range[mid].first <= event_idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t range_counters(const struct pmu_map *map, uint32_t event_idx)
{
	unsigned int n = ranges_upto(map, event_idx);

	if (n && map->range[n - 1].last >= event_idx)
		return map->range[n - 1].counters;
	return 0;
}

/* Index of the first selector row whose event is >= event_idx. */
static unsigned int selector_lower(const struct pmu_map *map,
				   uint32_t event_idx)
{
	unsigned int lo = 0, hi = map->nr_selectors;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		COMPARED();
		if (map->selector[mid].event_idx < event_idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool raw_before(const struct pmu_map_raw *row, uint64_t mask,
		       uint64_t invariant)
{
	if (row->mask != mask)
		return row->mask < mask;
	return row->invariant < invariant;
}

/* Index of the first raw row in [lo, hi) not ordered before (mask, inv). */
static unsigned int raw_lower(const struct pmu_map *map, unsigned int lo,
			      unsigned int hi, uint64_t mask,
			      uint64_t invariant)
{
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		COMPARED();
		if (raw_before(&map->raw[mid], mask, invariant))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Make room at index pos of an array of n elements of the given size. */
static void open_gap(void *array, unsigned int n, unsigned int pos,
		     unsigned long size)
{
	unsigned char *base = array;
	unsigned long from = (unsigned long)pos * size;
	unsigned long bytes = (unsigned long)(n - pos) * size;

	__builtin_memmove(base + from + size, base + from, bytes);
}

/* ---- builder ------------------------------------------------------------ */

int pmu_map_add_range(struct pmu_map *map, uint32_t first, uint32_t last,
		      uint32_t counters)
{
	unsigned int pos;
	int err;

	if (map->frozen)
		return PMU_MAP_ERR_FROZEN;
	if (map->nr_ranges == PMU_MAP_MAX_RANGES)
		return PMU_MAP_ERR_FULL;
	err = check_range(first, last, counters);
	if (err)
		return err;

	/* Rows never overlap, so only the two neighbours can collide. */
	pos = ranges_upto(map, first);
	if (pos && map->range[pos - 1].last >= first)
		return PMU_MAP_ERR_OVERLAP;
	if (pos < map->nr_ranges && map->range[pos].first <= last)
		return PMU_MAP_ERR_OVERLAP;

	open_gap(map->range, map->nr_ranges, pos, sizeof(map->range[0]));
	map->range[pos] = (struct pmu_map_range){ first, last, counters };
	map->nr_ranges++;
	return PMU_MAP_OK;
}

int pmu_map_add_selector(struct pmu_map *map, uint32_t event_idx,
			 uint64_t selector)
{
	unsigned int pos;
	int err;

	if (map->frozen)
		return PMU_MAP_ERR_FROZEN;
	if (map->nr_selectors == PMU_MAP_MAX_SELECTORS)
		return PMU_MAP_ERR_FULL;
	err = check_hw_event(event_idx);
	if (err)
		return err;
	if (!selector)
		return PMU_MAP_ERR_SELECTOR_ZERO;
	if (selector & MHPMEVENT_PRIV_BITS)
		return PMU_MAP_ERR_SELECTOR_HIGH;
	if (!pmu_map_hw_counters(map, event_idx, 0))
		return PMU_MAP_ERR_NO_COUNTERS;

	pos = selector_lower(map, event_idx);
	if (pos < map->nr_selectors && map->selector[pos].event_idx == event_idx)
		return PMU_MAP_ERR_DUPLICATE;

	open_gap(map->selector, map->nr_selectors, pos,
		 sizeof(map->selector[0]));
	map->selector[pos] = (struct pmu_map_selector){ event_idx, selector };
	map->nr_selectors++;
	return PMU_MAP_OK;
}

int pmu_map_add_raw(struct pmu_map *map, uint64_t invariant, uint64_t mask,
		    uint32_t counters)
{
	unsigned int pos;
	bool new_mask;
	int err;

	if (map->frozen)
		return PMU_MAP_ERR_FROZEN;
	if (map->nr_raw == PMU_MAP_MAX_RAW)
		return PMU_MAP_ERR_FULL;
	err = check_raw(invariant, mask, counters);
	if (err)
		return err;

	pos = raw_lower(map, 0, map->nr_raw, mask, invariant);
	if (pos < map->nr_raw && map->raw[pos].mask == mask &&
	    map->raw[pos].invariant == invariant)
		return PMU_MAP_ERR_DUPLICATE;
	/* Rows sharing a mask are adjacent: a neighbour tells if it is new. */
	new_mask = !(pos < map->nr_raw && map->raw[pos].mask == mask) &&
		   !(pos > 0 && map->raw[pos - 1].mask == mask);
	if (new_mask && map->nr_masks == PMU_MAP_MAX_RAW_MASKS)
		return PMU_MAP_ERR_TOO_MANY_MASKS;

	open_gap(map->raw, map->nr_raw, pos, sizeof(map->raw[0]));
	map->raw[pos] = (struct pmu_map_raw){ mask, invariant, counters };
	map->nr_raw++;
	map->nr_masks += new_mask;
	return PMU_MAP_OK;
}

/* Index the raw rows by variant mask; after this the map is read-only. */
void pmu_map_freeze(struct pmu_map *map)
{
	unsigned int i, g = 0;

	for (i = 0; i < map->nr_raw; i++) {
		if (i == 0 || map->raw[i].mask != map->raw[i - 1].mask) {
			map->group[g].mask = map->raw[i].mask;
			map->group[g].first = i;
			map->group[g].count = 0;
			g++;
		}
		map->group[g - 1].count++;
	}
	map->nr_masks = g;
	map->frozen = true;
}

/* ---- lookups ------------------------------------------------------------ */

uint32_t pmu_map_hw_counters(const struct pmu_map *map, uint32_t event_idx,
			     uint64_t *selector)
{
	uint32_t counters = range_counters(map, event_idx);

	if (event_idx == EVENT_CYCLES)
		counters |= BIT32(PMU_COUNTER_CYCLE);
	if (event_idx == EVENT_INSTRUCTIONS)
		counters |= BIT32(PMU_COUNTER_INSTRET);

	if (selector) {
		unsigned int pos = selector_lower(map, event_idx);

		/*
		 * Without a row, the SBI spec's suggestion: the zero-extended
		 * event_idx (what QEMU implements).
		 */
		if (pos < map->nr_selectors &&
		    map->selector[pos].event_idx == event_idx)
			*selector = map->selector[pos].selector;
		else
			*selector = event_idx;
	}
	return counters;
}

/* Union of the counters of every raw row matching the selector. */
uint32_t pmu_map_raw_counters(const struct pmu_map *map, uint64_t selector)
{
	uint32_t counters = 0;
	unsigned int g;

	if (!map->frozen)
		return 0;
	for (g = 0; g < map->nr_masks; g++) {
		const struct pmu_map_mask_group *grp = &map->group[g];
		uint64_t key = selector & grp->mask;
		unsigned int end = grp->first + grp->count;
		unsigned int pos = raw_lower(map, grp->first, end, grp->mask,
					     key);

		if (pos < end && map->raw[pos].invariant == key)
			counters |= map->raw[pos].counters;
	}
	return counters;
}

const char *pmu_map_strerror(int error)
{
	switch (error) {
	case PMU_MAP_OK:
		return "ok";
	case PMU_MAP_ERR_FROZEN:
		return "the event map is already frozen";
	case PMU_MAP_ERR_FULL:
		return "table full";
	case PMU_MAP_ERR_EVENT_WIDTH:
		return "event_idx is wider than 20 bits";
	case PMU_MAP_ERR_EVENT_TYPE:
		return "not a hardware (type 0) or cache (type 1) event";
	case PMU_MAP_ERR_NO_EVENT:
		return "event 0x0 is SBI_PMU_HW_NO_EVENT";
	case PMU_MAP_ERR_RANGE_ORDER:
		return "first event is above last event";
	case PMU_MAP_ERR_RANGE_TYPES:
		return "first and last event are of different types";
	case PMU_MAP_ERR_OVERLAP:
		return "range overlaps an earlier row";
	case PMU_MAP_ERR_DUPLICATE:
		return "duplicates an earlier row";
	case PMU_MAP_ERR_SELECTOR_ZERO:
		return "selector 0 counts nothing";
	case PMU_MAP_ERR_SELECTOR_HIGH:
		return "selector sets bits 63:56 (OF and mode inhibits belong to the firmware)";
	case PMU_MAP_ERR_NO_COUNTERS:
		return "no riscv,event-to-mhpmcounters row covers this event";
	case PMU_MAP_ERR_COUNTERS_EMPTY:
		return "counter bitmap is empty";
	case PMU_MAP_ERR_COUNTER_TIME:
		return "counter bitmap names counter 1 (time), which counts no event";
	case PMU_MAP_ERR_FIXED_COUNTER:
		return "counters 0 and 2 count only cycles (0x1) and instructions (0x2)";
	case PMU_MAP_ERR_RAW_OUTSIDE_MASK:
		return "invariant sets bits outside the variant mask (matches nothing)";
	case PMU_MAP_ERR_RAW_HIGH:
		return "invariant sets bits 63:56, which no raw event carries";
	case PMU_MAP_ERR_TOO_MANY_MASKS:
		return "too many distinct variant masks";
	default:
		return "unknown error";
	}
}
