/* SPDX-License-Identifier: BSD-2-Clause */
/* The per-hart hooks of the firmware features extension (lib/sbi/sbi_fwft.c). */
#ifndef TALLY_FWFT_H
#define TALLY_FWFT_H

/* Hart reset (boot, HSM start): every feature to its reset value, unlocked. */
void sbi_fwft_hart_init(void);
/* After a non-retentive suspend: the CSRs get the features' values back. */
void sbi_fwft_hart_resume(void);
/* The banner line of the features the harts have (none: no line). */
void sbi_fwft_print_banner(void);

#endif
