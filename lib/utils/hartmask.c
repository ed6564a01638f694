// SPDX-License-Identifier: BSD-2-Clause
#include <tally/hartmask.h>
#include <tally/sbi_spec.h>

/*
 * The firmware's one hart map (declared in tally/hart.h).  It is filled
 * before .bss is cleared, and read after: it lives in .data.  The hart
 * that fills it runs on a stack and a scratch of its own (fw_base.S),
 * outside .bss too, which no other hart ever uses.  It is defined here,
 * below lib/sbi, because the generic platform reads it too.
 */
struct hart_map hart_map __attribute__((section(".data")));

void hart_map_clear(struct hart_map *m)
{
	m->count = 0;
	m->identity = 1;
}

unsigned long hart_map_search(const struct hart_map *m, unsigned long id)
{
	unsigned long lo = 0, hi = m->count;

	while (lo < hi) {			/* sorted_id[lo..hi) may hold id */
		unsigned long mid = lo + (hi - lo) / 2;

		if (m->sorted_id[mid] == id)
			return m->sorted_index[mid];
		if (m->sorted_id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return HART_INDEX_NONE;
}

/* Boot only: an insertion into sorted_id[], and identity kept up to date. */
bool hart_map_add(struct hart_map *m, unsigned long id)
{
	unsigned long i, index = m->count;

	if (index >= TALLY_MAX_HARTS || hart_map_index(m, id) != HART_INDEX_NONE)
		return false;
	for (i = index; i > 0 && m->sorted_id[i - 1] > id; i--) {
		m->sorted_id[i] = m->sorted_id[i - 1];
		m->sorted_index[i] = m->sorted_index[i - 1];
	}
	m->sorted_id[i] = id;
	m->sorted_index[i] = (unsigned int)index;
	m->id[index] = id;
	m->count = index + 1;
	m->identity = m->identity && id == index;
	return true;
}

/*
 * Hart ids that are their indices: a whole-word shift rather than a loop
 * over the mask's bits: bit i of mask is hart base + i, so the set is
 * mask << base, spread over at most two words of the hart mask.
 */
static long hartmask_from_ids(unsigned long mask, unsigned long base,
			      const struct hartmask *valid, struct hartmask *out)
{
	unsigned long word, shift;

	/*
	 * Every named hart must be below TALLY_MAX_HARTS: base itself, and the
	 * mask's highest bit must fit in the TALLY_MAX_HARTS - base harts from
	 * base on.  With base < TALLY_MAX_HARTS, base + bit cannot wrap.
	 */
	if (base >= TALLY_MAX_HARTS ||
	    (TALLY_MAX_HARTS - base < BITS_PER_LONG && mask >> (TALLY_MAX_HARTS - base)))
		return SBI_ERR_INVALID_PARAM;
	word = base / BITS_PER_LONG;
	shift = base % BITS_PER_LONG;
	out->bits[word] = mask << shift;
	/* the bits shifted out of this word, if the mask has a next word */
	if (shift && word + 1 < HARTMASK_WORDS)
		out->bits[word + 1] = mask >> (BITS_PER_LONG - shift);
	/* every named hart must be valid (in the devicetree) */
	for (unsigned long i = 0; i < HARTMASK_WORDS; i++) {
		if (out->bits[i] & ~valid->bits[i]) {
			hartmask_clear(out);
			return SBI_ERR_INVALID_PARAM;
		}
	}
	return SBI_SUCCESS;
}

/*
 * Any other map: each named id looked up (at most BITS_PER_LONG of them).
 * Not inlined: the identity path stays a leaf that saves no registers.
 */
static __attribute__((noinline)) long hartmask_from_map(unsigned long mask, unsigned long base,
			      const struct hart_map *map, const struct hartmask *valid,
			      struct hartmask *out)
{
	for (; mask; mask &= mask - 1) {
		unsigned long id = base + (unsigned long)__builtin_ctzl(mask);
		unsigned long index = hart_map_index(map, id);

		if (id < base || index == HART_INDEX_NONE || !hartmask_test(valid, index)) {
			hartmask_clear(out);
			return SBI_ERR_INVALID_PARAM;	/* wrapped, unknown or not valid */
		}
		hartmask_set(out, index);
	}
	return SBI_SUCCESS;
}

long hartmask_from_sbi(unsigned long mask, unsigned long base, const struct hart_map *map,
		       const struct hartmask *valid, struct hartmask *out)
{
	hartmask_clear(out);
	if (base == (unsigned long)-1) {
		*out = *valid;
		return SBI_SUCCESS;
	}
	if (!mask)
		return SBI_SUCCESS;
	if (map->identity)
		return hartmask_from_ids(mask, base, valid, out);
	return hartmask_from_map(mask, base, map, valid, out);
}
