/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Supervisor Software Events (SBI "SSE", lib/sbi/sbi_sse.c): the per-hart
 * state kept in the hart's scratch, and the hooks of the trap path.
 */
#ifndef TALLY_SSE_H
#define TALLY_SSE_H

#include <stdbool.h>
#include <stdint.h>

/* Local events: one slot each in every hart's struct sse_hart. */
#define SSE_LOCAL_PMU		0	/* 0x00010000 local PMU overflow */
#define SSE_LOCAL_SOFTWARE	1	/* 0xffff0000 software injected */
#define SSE_LOCAL_BOARD		2	/* the first of the board's own (board->sse_events) */
#define SSE_NR_BOARD		2	/* local events a board may add */
#define SSE_NR_LOCAL		(SSE_LOCAL_BOARD + SSE_NR_BOARD)
/*
 * sse_hart.pending: bit SSE_LOCAL_* plus this one for the global event.
 * Bit i is the event sse_events[i] of lib/sbi/sbi_sse.c names.
 */
#define SSE_PENDING_GLOBAL	(1UL << SSE_NR_LOCAL)

struct sse_event;

/* An event's attributes (one copy per hart for a local event). */
struct sse_attrs {
	uint32_t state;			/* SBI_SSE_STATE_* */
	uint32_t prio;
	unsigned long config;
	unsigned long entry_pc, entry_arg;
	unsigned long sepc, flags, a6, a7;	/* INTERRUPTED_* */
	/* while RUNNING: the event that ran on the hart when this one was entered */
	const struct sse_event *below;
};

struct sse_hart {
	/*
	 * Non-zero when an event may be deliverable to this hart: the trap
	 * exit and the SSE calls test it (one load) before looking further.
	 * Other harts set bits in it (inject, the global event's hint): it
	 * is only changed by atomic read-modify-writes.
	 */
	volatile unsigned long pending;
	/*
	 * The event running on this hart that ranks first, or NULL.  An
	 * event is entered only if it outranks the one running, so the
	 * running events form a stack: top, then its attrs' below, ...
	 * Only this hart reads or writes it.
	 */
	const struct sse_event *top;
	bool unmasked;			/* hart_unmask called (masked at start) */
	bool lcofie_saved;		/* S-mode's sie.LCOFIE while LCOFI is kept in M */
	struct sse_attrs local[SSE_NR_LOCAL];
};

struct trap_frame;

/* Delivery on the way back to S/U-mode after a trap other than an ecall. */
void sbi_sse_trap_exit(struct trap_frame *tf);
/* M-mode LCOFI while the PMU overflow event is enabled on this hart. */
void sbi_sse_pmu_overflow(void);
/*
 * The board's driver raises its event on the hart of that index (pending
 * there; another hart is told by IPI, this one delivers on the way out of
 * the trap).  INVALID_PARAM: no such board event or hart; FAILED: the hart
 * is stopped.
 */
long sbi_sse_raise(uint32_t event_id, unsigned long hart_index);
/* HSM suspend: an event deliverable now ends the wait ... */
bool sbi_sse_wakes(void);
/* ... and is delivered by a self-IPI once the hart is back in S-mode. */
void sbi_sse_kick_self(void);

#endif
