/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A hart's HSM state, read from its scratch: the queries the IPI, RFENCE
 * and SSE code ask of every target.  Inline, and in a header of their own
 * (sbi_hsm.h includes it): they only read the state word that sbi_hsm.c
 * writes, so those files need nothing of sbi_hsm.c, which calls them.
 */
#ifndef TALLY_HSM_STATE_H
#define TALLY_HSM_STATE_H

#include <stdbool.h>
#include <tally/hart.h>
#include <tally/sbi.h>

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

#endif
