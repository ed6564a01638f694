/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_SBI_HSM_H
#define TALLY_SBI_HSM_H

#include <stdbool.h>
#include <tally/hsm_state.h>
#include <tally/sbi.h>

/* Cold boot: the harts of platform.harts STOPPED, but the boot hart (an index). */
void hsm_init(unsigned long boot_index);
/* The next stage starts on the hart of this index (a boot hart without S-mode hands over). */
void hsm_init_handover(unsigned long index, unsigned long addr, unsigned long arg);

/*
 * An S-mode entry point (hart_start, resume_addr): RAM S-mode may run, and
 * even (an mret cannot reach an odd address: mepc bit 0 is always zero).
 */
bool hsm_smode_entry_ok(unsigned long addr);
/*
 * Suspend the calling hart, which is STARTED: sleep in M-mode until an
 * interrupt S-mode enabled is pending.  Retentive: returns 0.
 * Non-retentive: the PMU, FWFT and DBTR state come back, and S-mode resumes at
 * resume_addr (already checked) with a0 = hartid, a1 = arg.  Used by
 * hart_suspend and by SUSP's system suspend.
 */
struct sbiret hsm_suspend_self(bool non_retentive, unsigned long resume_addr,
			       unsigned long arg);
/* Park a hart in STOPPED until hart_start; enters S-mode then. */
void __attribute__((noreturn)) hsm_wait_for_start(void);

#endif
