/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware features extension (lib/sbi/sbi_fwft.c): its banner line. */
#ifndef TALLY_FWFT_H
#define TALLY_FWFT_H

#define FWFT_FEATURES		6	/* the features of SBI 3.0: ids 0-5 */

/*
 * A hart's features (struct hart_scratch's fwft).  Bytes: every value a
 * feature takes is 0, 1, 7 or 16, and the seven bytes fill the padding
 * after hart_scratch.present: they cost the scratch nothing.
 */
struct fwft_hart {
	unsigned char value[FWFT_FEATURES];
	unsigned char locked;		/* bit f: feature f locked until hart reset */
};

/* The banner line of the features the harts have (none: no line). */
void sbi_fwft_print_banner(void);

#endif
