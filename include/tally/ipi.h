/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Inter-processor requests.  A sender sets request bits in the target's
 * scratch and raises its machine software interrupt; the target handles
 * every pending bit in sbi_ipi_process().
 */
#ifndef TALLY_IPI_H
#define TALLY_IPI_H

#define IPI_SMODE	(1UL << 0)	/* deliver a supervisor software interrupt */
#define IPI_RFENCE	(1UL << 1)	/* run the request in scratch->rfence */
#define IPI_WAKE	(1UL << 2)	/* only wake the hart (HSM start) */

/* SSE: an event became pending; delivered on the way out of the trap */
#define IPI_SSE		(1UL << 3)

void sbi_ipi_raise(unsigned long hartid, unsigned long what);
void sbi_ipi_process(void);
/* Handle our own pending requests while spinning on another hart. */
void sbi_ipi_poll(void);
void sbi_rfence_process(void);

#endif
