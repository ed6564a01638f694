/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_SBI_HSM_H
#define TALLY_SBI_HSM_H

#include <stdbool.h>
#include <tally/hart.h>
#include <tally/sbi.h>

/* Cold boot: the harts of platform.harts STOPPED, but the boot hart (an index). */
void hsm_init(unsigned long boot_index);
/* The next stage starts on the hart of this index (a boot hart without S-mode hands over). */
void hsm_init_handover(unsigned long index, unsigned long addr, unsigned long arg);

/*
 * The state queries are inline: the IPI, RFENCE and SSE code ask them on
 * every target, and they only read the state word of the hart's scratch
 * (so those files need no call into sbi_hsm.c, which calls them).
 */
static inline unsigned long hsm_state(const struct hart_scratch *h)
{
	return __atomic_load_n(&h->hsm_state, __ATOMIC_ACQUIRE);
}

/* The hart (an index) is in STOPPED (SUSP: every other hart must be). */
static inline bool hsm_hart_stopped(unsigned long index)
{
	return hsm_state(&hart_scratch[index]) == SBI_HSM_STATE_STOPPED;
}

/*
 * Not stopped (nor starting, stopping): the hart (an index) has an S-mode that an
 * IPI, a remote fence or an SSE event can reach.  SUSPEND_PENDING and
 * RESUME_PENDING count: the hart is on its way into (or out of) its wait,
 * which takes the request (a request dropped there would be lost).
 */
static inline bool hsm_hart_interruptible(unsigned long index)
{
	unsigned long s = hsm_state(&hart_scratch[index]);

	return s != SBI_HSM_STATE_STOPPED && s != SBI_HSM_STATE_STOP_PENDING &&
	       s != SBI_HSM_STATE_START_PENDING;
}
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
