// SPDX-License-Identifier: BSD-2-Clause
/*
 * The PMU event map: builder (validating every row), freeze, and the
 * bisection lookups described in <tally/pmu_map.h>.
 */
#include <tally/pmu_map.h>
#include <tally/sbi_pmu_spec.h>
#include <tally/string.h>

#ifdef PMU_MAP_DEBUG_COUNTERS
unsigned long pmu_map_debug_comparisons;
#define COMPARED()	(pmu_map_debug_comparisons++)
#else
#define COMPARED()	((void)0)
#endif

#define BIT32(n)		(1U << (n))

void pmu_map_init(struct pmu_map *map)
{
	map->frozen = false;
	map->quirks = 0;
	map->nr_selectors = 0;
	map->nr_ranges = 0;
	map->nr_raw = 0;
	map->nr_staged = 0;
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

int pmu_map_check_range(uint32_t first, uint32_t last, uint32_t counters)
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

/* Inlined into pmu_map_add_raw(): a leaf function needs no stack frame. */
static inline __attribute__((always_inline)) int check_raw(uint64_t invariant,
							   uint64_t mask,
							   uint32_t counters)
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

int pmu_map_check_raw(uint64_t invariant, uint64_t mask, uint32_t counters)
{
	return check_raw(invariant, mask, counters);
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

/* Index of the first staged row not ordered before (mask, invariant). */
static unsigned int stage_lower(const struct pmu_map *map, uint64_t mask,
				uint64_t invariant)
{
	unsigned int lo = 0, hi = map->nr_staged;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		COMPARED();
		if (raw_before(&map->stage[mid], mask, invariant))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the first group whose mask is >= mask. */
static unsigned int group_lower(const struct pmu_map *map, uint64_t mask)
{
	unsigned int lo = 0, hi = map->nr_masks;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		COMPARED();
		if (map->group[mid].mask < mask)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the first merged row of a group whose invariant is >= inv. */
static unsigned int raw_lower(const struct pmu_map *map,
			      const struct pmu_map_mask_group *grp,
			      uint64_t invariant)
{
	unsigned int lo = grp->first, hi = grp->first + grp->count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		COMPARED();
		if (map->raw_invariant[mid] < invariant)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool group_has(const struct pmu_map *map,
		      const struct pmu_map_mask_group *grp, uint64_t invariant,
		      unsigned int *pos)
{
	unsigned int i = raw_lower(map, grp, invariant);

	*pos = i;
	return i < grp->first + grp->count && map->raw_invariant[i] == invariant;
}

/* Make room at index pos of an array of n elements of the given size. */
static void open_gap(void *array, unsigned int n, unsigned int pos,
		     unsigned long size)
{
	unsigned char *base = array;
	unsigned long from = (unsigned long)pos * size;
	unsigned long bytes = (unsigned long)(n - pos) * size;

	memmove(base + from + size, base + from, bytes);
}

/*
 * Merge the staged rows into the grouped arrays, in place and from the
 * back: group g's rows end up shifted by the number of staged rows of the
 * groups before it, and both inputs are sorted, so a backward merge never
 * overwrites a row it still has to read.  Every staged mask already has
 * its group (pmu_map_add_raw() creates it), and groups and staged rows are
 * both ordered by mask.  Cost: the rows after the first group touched.
 */
static void merge_stage(struct pmu_map *map)
{
	unsigned int p = map->nr_staged;	/* staged rows still to place */
	unsigned int dst = map->nr_raw + map->nr_staged;
	unsigned int g = map->nr_masks;

	while (p && g--) {
		struct pmu_map_mask_group *grp = &map->group[g];
		unsigned int src_begin = grp->first;
		unsigned int i = grp->first + grp->count, j = p, q = p, k;

		while (q && map->stage[q - 1].mask == grp->mask)
			q--;
		/* dst == old end of this group + p, so k ends at i + q */
		k = dst;
		while (j > q) {
			k--;
			if (i > src_begin &&
			    map->raw_invariant[i - 1] > map->stage[j - 1].invariant) {
				i--;
				map->raw_invariant[k] = map->raw_invariant[i];
				map->raw_counters[k] = map->raw_counters[i];
			} else {
				j--;
				map->raw_invariant[k] = map->stage[j].invariant;
				map->raw_counters[k] = map->stage[j].counters;
			}
		}
		/* the rest of the group only shifts up by q */
		while (q && i > src_begin) {
			i--;
			k--;
			map->raw_invariant[k] = map->raw_invariant[i];
			map->raw_counters[k] = map->raw_counters[i];
		}
		grp->count += p - q;
		grp->first = dst - grp->count;
		dst = grp->first;
		p = q;
	}
	map->nr_raw += map->nr_staged;
	map->nr_staged = 0;
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
	err = pmu_map_check_range(first, last, counters);
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

/*
 * A row that sorts after every row already added, of the last group, with
 * nothing staged (a devicetree listing its raw rows in order, as
 * generators do): it cannot repeat a row, and its place is the end of the
 * merged rows, so it goes there at once, with no search and no merge.
 */
static bool append_in_order(struct pmu_map *map, uint64_t invariant,
			    uint64_t mask, uint32_t counters)
{
	struct pmu_map_mask_group *last;

	if (map->nr_staged || !map->nr_masks)
		return false;
	last = &map->group[map->nr_masks - 1];
	if (last->mask != mask || !last->count ||
	    map->raw_invariant[map->nr_raw - 1] >= invariant)
		return false;
	map->raw_invariant[map->nr_raw] = invariant;
	map->raw_counters[map->nr_raw] = counters;
	map->nr_raw++;
	last->count++;
	return true;
}

/* A checked row that does not come in order: searched, then staged. */
static __attribute__((noinline)) int add_raw_searched(struct pmu_map *map,
						      uint64_t invariant,
						      uint64_t mask,
						      uint32_t counters)
{
	unsigned int g, pos, spos;
	bool new_mask;

	g = group_lower(map, mask);
	new_mask = !(g < map->nr_masks && map->group[g].mask == mask);
	if (!new_mask && group_has(map, &map->group[g], invariant, &pos))
		return PMU_MAP_ERR_DUPLICATE;
	spos = stage_lower(map, mask, invariant);
	if (spos < map->nr_staged && map->stage[spos].mask == mask &&
	    map->stage[spos].invariant == invariant)
		return PMU_MAP_ERR_DUPLICATE;
	if (new_mask) {
		if (map->nr_masks == PMU_MAP_MAX_RAW_MASKS)
			return PMU_MAP_ERR_TOO_MANY_MASKS;
		/* an empty group where its rows will go once merged */
		pos = g ? map->group[g - 1].first + map->group[g - 1].count : 0;
		open_gap(map->group, map->nr_masks, g, sizeof(map->group[0]));
		map->group[g] = (struct pmu_map_mask_group){ mask, pos, 0 };
		map->nr_masks++;
	}

	open_gap(map->stage, map->nr_staged, spos, sizeof(map->stage[0]));
	map->stage[spos] = (struct pmu_map_raw){ mask, invariant, counters };
	if (++map->nr_staged == PMU_MAP_RAW_STAGE)
		merge_stage(map);
	return PMU_MAP_OK;
}

/*
 * The in-order case stays out of add_raw_searched(), whose stack frame
 * would cost it as much again as the append.
 */
int pmu_map_add_raw(struct pmu_map *map, uint64_t invariant, uint64_t mask,
		    uint32_t counters)
{
	int err;

	if (map->frozen)
		return PMU_MAP_ERR_FROZEN;
	if (map->nr_raw + map->nr_staged == PMU_MAP_MAX_RAW)
		return PMU_MAP_ERR_FULL;
	err = check_raw(invariant, mask, counters);
	if (err)
		return err;
	if (append_in_order(map, invariant, mask, counters))
		return PMU_MAP_OK;
	return add_raw_searched(map, invariant, mask, counters);
}

/* ---- the direct table ---------------------------------------------------- */

static uint32_t slot_event(unsigned int slot)
{
	if (slot < PMU_MAP_DIRECT_HW)
		return SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, slot);
	return SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_CACHE,
				 slot - PMU_MAP_DIRECT_HW);
}

static uint32_t searched_counters(const struct pmu_map *map,
				  uint32_t event_idx, uint64_t *selector);

/* Each slot's answer, by the same bisections as an unfrozen lookup. */
static void fill_direct(struct pmu_map *map)
{
	unsigned int slot;

	for (slot = 0; slot < PMU_MAP_DIRECT; slot++) {
		struct pmu_map_direct *d = &map->direct[slot];

		d->counters = searched_counters(map, slot_event(slot),
						&d->selector);
	}
}

/* After this the map is read-only. */
void pmu_map_freeze(struct pmu_map *map)
{
	if (map->frozen)
		return;
	merge_stage(map);
	fill_direct(map);
	map->frozen = true;
}

/* ---- lookups ------------------------------------------------------------ */

uint32_t pmu_map_hw_counters(const struct pmu_map *map, uint32_t event_idx,
			     uint64_t *selector)
{
	const struct pmu_map_direct *d = pmu_map_direct_entry(map, event_idx);
	uint64_t unused;

	if (d) {
		if (selector)
			*selector = d->selector;
		return d->counters;
	}
	return searched_counters(map, event_idx, selector ? selector : &unused);
}

/* The lookup by bisection: during the build, and outside the table. */
static uint32_t searched_counters(const struct pmu_map *map,
				  uint32_t event_idx, uint64_t *selector)
{
	uint32_t counters = range_counters(map, event_idx);

	if (event_idx == EVENT_CYCLES)
		counters |= BIT32(PMU_COUNTER_CYCLE);
	if (event_idx == EVENT_INSTRUCTIONS)
		counters |= BIT32(PMU_COUNTER_INSTRET);

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
	return counters;
}

/* Union of the counters of every raw row matching the selector. */
uint32_t pmu_map_raw_counters(const struct pmu_map *map, uint64_t selector)
{
	uint32_t counters = 0;
	unsigned int g, pos;

	if (!map->frozen)
		return 0;
	for (g = 0; g < map->nr_masks; g++) {
		const struct pmu_map_mask_group *grp = &map->group[g];

		if (group_has(map, grp, selector & grp->mask, &pos))
			counters |= map->raw_counters[pos];
	}
	return counters;
}

/* ---- iterators ---------------------------------------------------------- */

unsigned int pmu_map_nr_ranges(const struct pmu_map *map)
{
	return map->nr_ranges;
}

unsigned int pmu_map_nr_selectors(const struct pmu_map *map)
{
	return map->nr_selectors;
}

unsigned int pmu_map_nr_raw(const struct pmu_map *map)
{
	return map->frozen ? map->nr_raw : 0;
}

unsigned int pmu_map_nr_raw_masks(const struct pmu_map *map)
{
	return map->frozen ? map->nr_masks : 0;
}

bool pmu_map_range_at(const struct pmu_map *map, unsigned int i,
		      struct pmu_map_range *row)
{
	if (i >= map->nr_ranges)
		return false;
	*row = map->range[i];
	return true;
}

bool pmu_map_selector_at(const struct pmu_map *map, unsigned int i,
			 struct pmu_map_selector *row)
{
	if (i >= map->nr_selectors)
		return false;
	*row = map->selector[i];
	return true;
}

bool pmu_map_raw_at(const struct pmu_map *map, unsigned int i,
		    struct pmu_map_raw *row)
{
	unsigned int lo = 0, hi;

	if (!map->frozen || i >= map->nr_raw)
		return false;
	/* the last group whose first row is <= i (groups are never empty) */
	hi = map->nr_masks;
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (map->group[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	row->mask = map->group[lo].mask;
	row->invariant = map->raw_invariant[i];
	row->counters = map->raw_counters[i];
	return true;
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
