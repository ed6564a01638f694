// SPDX-License-Identifier: BSD-2-Clause
#include <tally/hartmask.h>
#include <tally/sbi_spec.h>

/*
 * A whole-word shift rather than a loop over the mask's bits: bit i of mask
 * is hart base + i, so the set is mask << base, spread over at most two
 * words of the hart mask.
 */
long hartmask_from_sbi(unsigned long mask, unsigned long base,
		       const struct hartmask *valid, struct hartmask *out)
{
	unsigned long word, shift;

	hartmask_clear(out);
	if (base == (unsigned long)-1) {
		*out = *valid;
		return SBI_SUCCESS;
	}
	if (!mask)
		return SBI_SUCCESS;
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
