/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Inter-processor requests (lib/sbi/ipi.c).  A sender sets request bits in
 * the target's scratch and raises its machine software interrupt; the
 * target runs, for every pending bit, the handler registered for it at
 * cold boot.  The IPI code knows no request by name: the users whose bit
 * asks for work register its handler (the IPI extension: IPI_SMODE,
 * sbi_ipi.c; RFENCE: IPI_RFENCE, sbi_rfence.c); HSM's IPI_WAKE and SSE's
 * IPI_SSE have none, the wake-up itself (or the trap's exit) is the work.
 */
#ifndef TALLY_IPI_H
#define TALLY_IPI_H

#define IPI_SMODE	(1UL << 0)	/* deliver a supervisor software interrupt */
#define IPI_RFENCE	(1UL << 1)	/* run the request in scratch->rfence */
#define IPI_WAKE	(1UL << 2)	/* only wake the hart (HSM start) */
/* SSE: an event became pending; delivered on the way out of the trap */
#define IPI_SSE		(1UL << 3)
#define IPI_COUNT	4		/* request bits 0..IPI_COUNT-1 */

#ifndef __ASSEMBLER__
/*
 * What the target does for one request bit; runs in M-mode on the target,
 * in the IPI trap or in a wait that polls (sbi_ipi_poll).  A bit without
 * a handler only wakes the hart (IPI_WAKE), or leaves the work to the trap
 * exit (IPI_SSE).
 */
typedef void (*ipi_handler_fn)(void);

/* Cold boot, before any IPI: the handler of request bit `what` (one bit). */
void sbi_ipi_register(unsigned long what, ipi_handler_fn handler);
/* Request `what` of the hart of that index. */
void sbi_ipi_raise(unsigned long index, unsigned long what);
void sbi_ipi_process(void);
/* Handle our own pending requests while spinning on another hart. */
void sbi_ipi_poll(void);

/* The registrations, at cold boot (sbi_init.c): IPI_SMODE, IPI_RFENCE. */
void sbi_ipi_init(void);		/* sbi_ipi.c */
void sbi_rfence_init(void);		/* sbi_rfence.c */
#endif

#endif
