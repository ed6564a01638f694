/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hart sets and the SBI (hart_mask, hart_mask_base) decoding.  Pure logic,
 * unit-tested on the host.
 */
#ifndef TALLY_HARTMASK_H
#define TALLY_HARTMASK_H

/* the most harts the firmware serves (make TALLY_MAX_HARTS=...) */
#ifndef TALLY_MAX_HARTS
#define TALLY_MAX_HARTS		32
#endif

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <limits.h>

#define BITS_PER_LONG		(sizeof(unsigned long) * CHAR_BIT)
#define HARTMASK_WORDS		((TALLY_MAX_HARTS + BITS_PER_LONG - 1) / BITS_PER_LONG)

struct hartmask {
	unsigned long bits[HARTMASK_WORDS];
};

static inline void hartmask_clear(struct hartmask *m)
{
	for (unsigned long i = 0; i < HARTMASK_WORDS; i++)
		m->bits[i] = 0;
}

static inline void hartmask_set(struct hartmask *m, unsigned long hart)
{
	m->bits[hart / BITS_PER_LONG] |= 1UL << (hart % BITS_PER_LONG);
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
 * Decode an SBI hart set.  base == -1 selects every hart in 'valid'; otherwise
 * bit i of mask names hart base + i.  Any named hart that is not in 'valid'
 * (or whose number overflows) makes the whole call SBI_ERR_INVALID_PARAM and
 * leaves 'out' empty.  Returns an SBI error code.
 */
long hartmask_from_sbi(unsigned long mask, unsigned long base,
		       const struct hartmask *valid, struct hartmask *out);

#endif /* __ASSEMBLER__ */
#endif
