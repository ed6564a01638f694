/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hart sets, the hart map and the SBI (hart_mask, hart_mask_base) decoding.
 * Pure logic, unit-tested on the host.
 *
 * Inside the firmware a hart is known by its hart index: 0, 1, ... in the
 * devicetree order of the usable cpu nodes, at most TALLY_MAX_HARTS of
 * them.  Hart sets, the scratch areas, the stacks and the drivers' per-hart
 * tables are indexed by it.  Hart ids (any 64-bit values, sparse) appear
 * only where S-mode or the devicetree names a hart; the hart map turns one
 * into the other.
 */
#ifndef TALLY_HARTMASK_H
#define TALLY_HARTMASK_H

#include <tally/riscv.h>	/* REGBYTES */

/* the most harts the firmware serves (make TALLY_MAX_HARTS=...) */
#ifndef TALLY_MAX_HARTS
#define TALLY_MAX_HARTS		32
#endif

/* struct hart_map as firmware/fw_base.S reads it (checked below) */
#define HART_MAP_COUNT		0
#define HART_MAP_ID		(2 * REGBYTES)

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <limits.h>

#define BITS_PER_LONG		(sizeof(unsigned long) * CHAR_BIT)
#define HARTMASK_WORDS		((TALLY_MAX_HARTS + BITS_PER_LONG - 1) / BITS_PER_LONG)

struct hartmask {
	unsigned long bits[HARTMASK_WORDS];	/* bit i: hart index i */
};

#define HART_INDEX_NONE		((unsigned long)-1)

/*
 * Hart ids and indices.  id[] gives the id of each index; sorted_id[] the
 * ids in increasing order with their indices, for the id -> index look-up
 * (a binary search, unless identity: every id equals its index, the common
 * case, and the look-up is one compare).
 */
struct hart_map {
	unsigned long count;			/* HART_MAP_COUNT */
	unsigned long identity;			/* id[i] == i for every i < count */
	unsigned long id[TALLY_MAX_HARTS];	/* HART_MAP_ID: by index */
	unsigned long sorted_id[TALLY_MAX_HARTS];
	unsigned int sorted_index[TALLY_MAX_HARTS];
};

_Static_assert(__builtin_offsetof(struct hart_map, count) == HART_MAP_COUNT, "HART_MAP_COUNT");
_Static_assert(__builtin_offsetof(struct hart_map, id) == HART_MAP_ID, "HART_MAP_ID");

/*
 * The firmware's hart ids <-> indices, from the devicetree, before any
 * hart takes its scratch (lib/utils/hartmask.c; filled by lib/sbi's
 * hart_map_boot, read by the platform's device walk).
 */
extern struct hart_map hart_map;

void hart_map_clear(struct hart_map *m);
/* The next index gets hart id; false (nothing added) when full or already there. */
bool hart_map_add(struct hart_map *m, unsigned long id);

/* A binary search of sorted_id[] (the map is no identity). */
unsigned long hart_map_search(const struct hart_map *m, unsigned long id);

/* The index of hart id, or HART_INDEX_NONE: any id is safe. */
static inline unsigned long hart_map_index(const struct hart_map *m, unsigned long id)
{
	if (m->identity)
		return id < m->count ? id : HART_INDEX_NONE;
	return hart_map_search(m, id);
}

static inline void hartmask_clear(struct hartmask *m)
{
	for (unsigned long i = 0; i < HARTMASK_WORDS; i++)
		m->bits[i] = 0;
}

static inline void hartmask_set(struct hartmask *m, unsigned long hart)
{
	m->bits[hart / BITS_PER_LONG] |= 1UL << (hart % BITS_PER_LONG);
}

static inline void hartmask_unset(struct hartmask *m, unsigned long hart)
{
	m->bits[hart / BITS_PER_LONG] &= ~(1UL << (hart % BITS_PER_LONG));
}

static inline bool hartmask_test(const struct hartmask *m, unsigned long hart)
{
	if (hart >= TALLY_MAX_HARTS)
		return false;
	return (m->bits[hart / BITS_PER_LONG] >> (hart % BITS_PER_LONG)) & 1;
}

/*
 * Every hart in m, lowest first.  Only the set bits are visited: each word
 * is copied, and its lowest set bit found (ctz) and cleared (w &= w - 1),
 * so the cost grows with the number of harts named, not with
 * TALLY_MAX_HARTS.  'continue' works in the body; 'break' would only leave
 * the current word (no caller uses it).  Without Zbb GCC calls __ctzdi2
 * for __builtin_ctzl (lib/utils/bitops.c: about a dozen instructions).
 */
#define for_each_hart_in(h, m)							\
	for (unsigned long __hm_i = 0; __hm_i < HARTMASK_WORDS; __hm_i++)	\
		for (unsigned long __hm_w = (m)->bits[__hm_i];			\
		     __hm_w && ((h) = __hm_i * BITS_PER_LONG +			\
				      (unsigned long)__builtin_ctzl(__hm_w), 1);	\
		     __hm_w &= __hm_w - 1)

/*
 * Decode an SBI hart set into hart indices.  base == -1 selects every hart
 * in 'valid'; otherwise bit i of mask names hart id base + i.  Any named
 * hart that is not in the map or not in 'valid' (or whose id overflows)
 * makes the whole call SBI_ERR_INVALID_PARAM and leaves 'out' empty.
 * Returns an SBI error code.
 */
long hartmask_from_sbi(unsigned long mask, unsigned long base, const struct hart_map *map,
		       const struct hartmask *valid, struct hartmask *out);

#endif /* __ASSEMBLER__ */
#endif
