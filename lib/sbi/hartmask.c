// SPDX-License-Identifier: BSD-2-Clause
#include <tally/hartmask.h>
#include <tally/sbi_spec.h>

long hartmask_from_sbi(unsigned long mask, unsigned long base,
		       const struct hartmask *valid, struct hartmask *out)
{
	hartmask_clear(out);
	if (base == (unsigned long)-1) {
		*out = *valid;
		return SBI_SUCCESS;
	}
	for (unsigned long bit = 0; mask; bit++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		/* base + bit must not wrap and must name a valid hart */
		if (base > (unsigned long)-1 - bit ||
		    !hartmask_test(valid, base + bit)) {
			hartmask_clear(out);
			return SBI_ERR_INVALID_PARAM;
		}
		hartmask_set(out, base + bit);
	}
	return SBI_SUCCESS;
}
