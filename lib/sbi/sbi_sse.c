// SPDX-License-Identifier: BSD-2-Clause
/*
 * Supervisor Software Events extension "SSE" (SBI 3.0).
 *
 * Events offered: the local and the global software-injected events, and
 * the local PMU overflow event on a hart with Sscofpmf (raised by a counter
 * overflow, and injectable like the software events: an injected one
 * comes with no overflow, scountovf as it is), and the local
 * platform-specific events a board declares (board->sse_events),
 * raised by its driver (sbi_sse_raise).  The standard
 * events this platform cannot raise (RAS, double trap) answer
 * NOT_SUPPORTED; every other id (reserved, or platform specific that this
 * platform does not define) is invalid.
 *
 * An event is delivered on the way back to S/U-mode: at the end of the
 * SSE call that made it deliverable on the calling hart (inject, enable,
 * hart_unmask, complete) or of any other trap (trap_handler), when the
 * hart's pending bits are set.  Another hart is told with an IPI (IPI_SSE):
 * the IPI trap's exit delivers.  The ecall path of every other extension
 * has no SSE test at all: an IPI_SSE that a wait inside an ecall consumes
 * (sbi_ipi_poll) is raised again, so the hart traps once back in S-mode.
 * Delivery and completion follow the spec's "Software Event Injection" and
 * "Software Event Completion" steps: the interrupted sepc, SPP/SPIE (and
 * hstatus SPV/SPVP with the H extension), a6 and a7 go into the event's
 * INTERRUPTED_* attributes; complete puts them back.
 *
 * A hart's local events are its own: only that hart reads or changes
 * their attributes and its stack of running events (sse_hart.top), so it
 * needs no lock for them.  Other harts only set its pending bits (inject,
 * the global event's hint), with atomic read-modify-writes, as every
 * change of them is.  The global events' state, and a remote inject
 * (whose test that the hart is not stopping must hold until the bit is
 * set: sbi_sse_hart_reset), are under one lock.  The pending bits are
 * read without it (a late one is caught by the IPI that follows it).
 */
#include <tally/board.h>
#include <tally/console.h>
#include <tally/hart.h>
#include <tally/hsm_state.h>
#include <tally/init.h>
#include <tally/ipi.h>
#include <tally/memregion.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/spinlock.h>
#include <tally/sbi_sse.h>
#include <tally/string.h>
#include <tally/trap.h>

struct sse_event {
	uint32_t id;
	bool global;
	bool injectable;
	unsigned int slot;		/* SSE_LOCAL_* or index of sse_globals[] */
	unsigned long bit;		/* in sse_hart.pending: 1 << its index here */
};

/*
 * The standard events; const, so that the compiler folds what it knows of
 * them on the hot paths.  The board's events (sse_board_events[]) take the
 * local slots SSE_LOCAL_BOARD.., their entries here stay unused.
 */
static const struct sse_event sse_events[SSE_NR_LOCAL + 1] = {
	/* injectable (STATUS.inject): kernel developers test their overflow handler so */
	[SSE_LOCAL_PMU] = { SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW, false, true, SSE_LOCAL_PMU,
			    1UL << SSE_LOCAL_PMU },
	[SSE_LOCAL_SOFTWARE] = { SBI_SSE_EVENT_LOCAL_SOFTWARE, false, true, SSE_LOCAL_SOFTWARE,
				 1UL << SSE_LOCAL_SOFTWARE },
	[SSE_NR_LOCAL] = { SBI_SSE_EVENT_GLOBAL_SOFTWARE, true, true, 0, SSE_PENDING_GLOBAL },
};
#define SSE_EV_GLOBAL_SOFTWARE	(&sse_events[SSE_NR_LOCAL])

/* The event of one bit of sse_hart.pending: a load, where a bit scan takes ten. */
static const struct sse_event *sse_event_of_bit[SSE_PENDING_GLOBAL + 1] = {
	[1UL << SSE_LOCAL_PMU] = &sse_events[SSE_LOCAL_PMU],
	[1UL << SSE_LOCAL_SOFTWARE] = &sse_events[SSE_LOCAL_SOFTWARE],
	[SSE_PENDING_GLOBAL] = SSE_EV_GLOBAL_SOFTWARE,
};

struct sse_global {
	struct sse_attrs a;
	unsigned long preferred_hart;
	unsigned long running_hart;	/* valid while RUNNING */
	bool pending;
};

/* One global event: SSE_PENDING_GLOBAL is its one bit in sse_hart.pending. */
#define SSE_NR_GLOBAL	1
static struct sse_global sse_globals[SSE_NR_GLOBAL];
static struct spinlock sse_lock;
static struct sse_event sse_board_events[SSE_NR_BOARD];	/* cold boot, then fixed */
static unsigned int sse_nr_board;	/* board events added */

/*
 * A board's event by its id.  Inline, and no call: sse_lookup's callers
 * on the hot path (inject, complete) stay leaf functions.
 */
static inline __attribute__((always_inline)) long sse_lookup_board(uint32_t id,
								  const struct sse_event **out)
{
	for (unsigned int i = 0; i < SSE_NR_BOARD && i < sse_nr_board; i++) {
		if (sse_board_events[i].id == id) {
			*out = &sse_board_events[i];
			return SBI_SUCCESS;
		}
	}
	return SBI_ERR_INVALID_PARAM;
}

/* ---- events and their attributes ---------------------------------------- */

/*
 * The event named by the low 32 bits of event_id, or an SBI error.  A
 * switch, which GCC turns into a few compares; the standard events this
 * platform cannot raise answer NOT_SUPPORTED.
 */
static inline __attribute__((always_inline)) long sse_lookup(unsigned long event_id,
							   const struct sse_event **out)
{
	switch ((uint32_t)event_id) {
	case SBI_SSE_EVENT_LOCAL_SOFTWARE:
		*out = &sse_events[SSE_LOCAL_SOFTWARE];
		return SBI_SUCCESS;
	case SBI_SSE_EVENT_GLOBAL_SOFTWARE:
		*out = SSE_EV_GLOBAL_SOFTWARE;
		return SBI_SUCCESS;
	case SBI_SSE_EVENT_LOCAL_PMU_OVERFLOW:
		/* an overflow needs Sscofpmf and a counter that has an OF bit (3-31) */
		if (!hart_features.has_sscofpmf || !hart_features.hpm_mask)
			return SBI_ERR_NOT_SUPPORTED;
		*out = &sse_events[SSE_LOCAL_PMU];
		return SBI_SUCCESS;
	case SBI_SSE_EVENT_LOCAL_HIGH_PRIO_RAS:
	case SBI_SSE_EVENT_LOCAL_DOUBLE_TRAP:
	case SBI_SSE_EVENT_GLOBAL_HIGH_PRIO_RAS:
	case SBI_SSE_EVENT_LOCAL_LOW_PRIO_RAS:
	case SBI_SSE_EVENT_GLOBAL_LOW_PRIO_RAS:
		return SBI_ERR_NOT_SUPPORTED;
	default:
		return sse_lookup_board((uint32_t)event_id, out);
	}
}

/*
 * A board's own event (board->sse_events): a local, platform-specific id
 * not yet added, at most SSE_NR_BOARD of them (else INVALID_PARAM, or
 * NO_SHMEM when full).  Cold boot only (sse_add_board_events).
 */
static long sse_add_event(uint32_t event_id, bool injectable)
{
	const struct sse_event *old;
	unsigned int slot = SSE_LOCAL_BOARD + sse_nr_board;

	if (!(event_id & SBI_SSE_EVENT_PLATFORM_BIT) || (event_id & SBI_SSE_EVENT_GLOBAL_BIT) ||
	    sse_lookup_board(event_id, &old) == SBI_SUCCESS)
		return SBI_ERR_INVALID_PARAM;
	if (sse_nr_board >= SSE_NR_BOARD)
		return SBI_ERR_NO_SHMEM;
	sse_board_events[sse_nr_board] = (struct sse_event){ event_id, false, injectable, slot,
							     1UL << slot };
	sse_event_of_bit[1UL << slot] = &sse_board_events[sse_nr_board];
	sse_nr_board++;
	return SBI_SUCCESS;
}

/*
 * The SSE extension's available(): asked once, at the end of cold boot.
 * The board's events are added then, a refused one named at boot.
 */
static bool sse_add_board_events(void)
{
	const struct board_sse_event *e = board ? board->sse_events : NULL;
	long rc;

	for (; e && e->id; e++) {
		rc = sse_add_event(e->id, e->injectable);
		if (rc != SBI_SUCCESS)
			printf("Tally: WARNING: board %s: SSE event 0x%x not added (error %ld)\n",
			       board->name, (unsigned int)e->id, rc);
	}
	return true;
}

/* e's bit in sse_hart.pending. */
static unsigned long sse_bit(const struct sse_event *e)
{
	return e->bit;
}

/* Pending bits are set by other harts too: changed atomically only. */
static void sse_pending_set(struct hart_scratch *h, unsigned long bits)
{
	__atomic_fetch_or(&h->sse.pending, bits, __ATOMIC_SEQ_CST);
}

static void sse_pending_clear(struct hart_scratch *h, unsigned long bits)
{
	__atomic_fetch_and(&h->sse.pending, ~bits, __ATOMIC_SEQ_CST);
}

static struct sse_global *sse_global_of(const struct sse_event *e)
{
	return e->global ? &sse_globals[e->slot] : 0;
}

static struct sse_attrs *sse_attrs_of(const struct sse_event *e, struct hart_scratch *h)
{
	return e->global ? &sse_globals[e->slot].a : &h->sse.local[e->slot];
}

static bool sse_pending_on(const struct sse_event *e, struct hart_scratch *h)
{
	return e->global ? sse_globals[e->slot].pending : !!(h->sse.pending & sse_bit(e));
}

/* RUNNING on hart h (a global event runs on one hart at a time). */
static bool sse_running_on(const struct sse_event *e, struct hart_scratch *h)
{
	const struct sse_attrs *a = sse_attrs_of(e, h);

	if (a->state != SBI_SSE_STATE_RUNNING)
		return false;
	return !e->global || sse_globals[e->slot].running_hart == h->hartid;
}

/* Whether e outranks f: lower priority value, then lower event id. */
static bool sse_before(const struct sse_event *e, const struct sse_attrs *ea,
		       const struct sse_event *f, const struct sse_attrs *fa)
{
	if (ea->prio != fa->prio)
		return ea->prio < fa->prio;
	return e->id < f->id;
}

/* The SSE_PENDING_GLOBAL hints: on the preferred hart of each pending, enabled global event. */
static void sse_global_hints_update(void)
{
	for (unsigned long h = 0; h < TALLY_MAX_HARTS; h++)
		if (hart_scratch[h].sse.pending & SSE_PENDING_GLOBAL)
			sse_pending_clear(&hart_scratch[h], SSE_PENDING_GLOBAL);
	for (unsigned int i = 0; i < SSE_NR_GLOBAL; i++) {
		struct sse_global *g = &sse_globals[i];

		struct hart_scratch *to = hart_by_id(g->preferred_hart);

		if (g->pending && g->a.state == SBI_SSE_STATE_ENABLED && to)
			sse_pending_set(to, SSE_PENDING_GLOBAL);
	}
}

/* ---- PMU overflow: LCOFI kept in M-mode while the event is enabled ---------- */

static void sse_pmu_route(struct hart_scratch *me)
{
	uint32_t state = me->sse.local[SSE_LOCAL_PMU].state;
	bool in_m = state == SBI_SSE_STATE_ENABLED || state == SBI_SSE_STATE_RUNNING;
	bool delegated = csr_read(mideleg) & MIP_LCOFIP;

	if (!hart_features.has_sscofpmf || in_m != delegated)
		return;
	if (in_m) {
		/* S-mode's sie.LCOFIE is mie.LCOFIE while delegated: keep it for later */
		me->sse.lcofie_saved = csr_read(mie) & MIP_LCOFIP;
		csr_clear(mideleg, MIP_LCOFIP);
		csr_set(mie, MIP_LCOFIP);
	} else {
		if (!me->sse.lcofie_saved)
			csr_clear(mie, MIP_LCOFIP);
		csr_set(mideleg, MIP_LCOFIP);
	}
}

/*
 * LCOFI taken in M-mode: a counter overflowed while S-mode has the SSE
 * event enabled.  The OF bits stay as the hardware set them (S-mode reads
 * scountovf, the snapshot's overflow bitmap is built from them); only the
 * interrupt is cleared, and the event becomes pending for this hart.
 */
void sbi_sse_pmu_overflow(void)
{
	struct hart_scratch *me = this_hart();

	csr_clear(mip, MIP_LCOFIP);
	sse_pending_set(me, sse_bit(&sse_events[SSE_LOCAL_PMU]));
}

/* ---- entry and completion ---------------------------------------------------- */

/* The spec's "Software Event Injection" steps; mepc is the CSR. */
static void sse_enter(struct hart_scratch *me, struct sse_attrs *a, struct trap_frame *tf)
{
	unsigned long ms = csr_read(mstatus), flags = 0, nms;

	if (ms & MSTATUS_SPP)
		flags |= SBI_SSE_FLAGS_SSTATUS_SPP;
	if (ms & MSTATUS_SPIE)
		flags |= SBI_SSE_FLAGS_SSTATUS_SPIE;
	a->sepc = csr_read(sepc);
	a->a6 = tf->regs[REG_A6];
	a->a7 = tf->regs[REG_A7];

	tf->regs[REG_A6] = me->hartid;
	tf->regs[REG_A7] = a->entry_arg;
	csr_write(sepc, csr_read(mepc));
	nms = ms & ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_MPP);
	if (((ms & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == PRV_S)
		nms |= MSTATUS_SPP;
	if (ms & MSTATUS_SIE)
		nms |= MSTATUS_SPIE;
	nms |= PRV_S << MSTATUS_MPP_SHIFT;
	if (hart_features.has_h) {
		unsigned long hs = csr_read(CSR_HSTATUS);

		if (hs & HSTATUS_SPV)
			flags |= SBI_SSE_FLAGS_HSTATUS_SPV;
		if (hs & HSTATUS_SPVP)
			flags |= SBI_SSE_FLAGS_HSTATUS_SPVP;
		hs &= ~HSTATUS_SPV;
		if (ms & MSTATUS_MPV) {
			hs |= HSTATUS_SPV;
			hs = (nms & MSTATUS_SPP) ? hs | HSTATUS_SPVP : hs & ~HSTATUS_SPVP;
		}
		csr_write(CSR_HSTATUS, hs);
		nms &= ~MSTATUS_MPV;
	}
	a->flags = flags;
	csr_write(mstatus, nms);
	csr_write(mepc, a->entry_pc);
}

/* The spec's "Software Event Completion" steps; mepc is the CSR. */
static void sse_resume(const struct sse_attrs *a, struct trap_frame *tf)
{
	unsigned long ms = csr_read(mstatus);

	csr_write(mepc, csr_read(sepc));
	ms &= ~MSTATUS_MPP;
	ms |= ((ms & MSTATUS_SPP) ? PRV_S : PRV_U) << MSTATUS_MPP_SHIFT;
	if (hart_features.has_h) {
		unsigned long hs = csr_read(CSR_HSTATUS);

		ms = (hs & HSTATUS_SPV) ? ms | MSTATUS_MPV : ms & ~MSTATUS_MPV;
		hs &= ~(HSTATUS_SPV | HSTATUS_SPVP);
		if (a->flags & SBI_SSE_FLAGS_HSTATUS_SPV)
			hs |= HSTATUS_SPV;
		if (a->flags & SBI_SSE_FLAGS_HSTATUS_SPVP)
			hs |= HSTATUS_SPVP;
		csr_write(CSR_HSTATUS, hs);
	}
	ms = (ms & MSTATUS_SPIE) ? ms | MSTATUS_SIE : ms & ~MSTATUS_SIE;
	ms = (a->flags & SBI_SSE_FLAGS_SSTATUS_SPIE) ? ms | MSTATUS_SPIE : ms & ~MSTATUS_SPIE;
	ms = (a->flags & SBI_SSE_FLAGS_SSTATUS_SPP) ? ms | MSTATUS_SPP : ms & ~MSTATUS_SPP;
	csr_write(mstatus, ms);
	tf->regs[REG_A7] = a->a7;
	tf->regs[REG_A6] = a->a6;
	csr_write(sepc, a->sepc);
}

/*
 * e, pending on me, may be entered now but for its rank: it is enabled
 * (and a global one pending, with me as its preferred hart).  Under the
 * lock for a global one.
 */
static bool sse_ready(const struct sse_event *e, const struct sse_attrs *a,
		      const struct hart_scratch *me)
{
	if (a->state != SBI_SSE_STATE_ENABLED)
		return false;
	return !e->global || (sse_globals[e->slot].pending &&
			      sse_globals[e->slot].preferred_hart == me->hartid);
}

/* Of the events whose bits are set in pending (two or more), the ready one ranking first. */
static __attribute__((noinline)) const struct sse_event *sse_rank(struct hart_scratch *me,
								   unsigned long pending)
{
	const struct sse_event *next = 0;
	const struct sse_attrs *na = 0;

	for (; pending; pending &= pending - 1) {
		const struct sse_event *e = sse_event_of_bit[pending & -pending];
		const struct sse_attrs *a = sse_attrs_of(e, me);

		if (sse_ready(e, a, me) && (!next || sse_before(e, a, next, na))) {
			next = e;
			na = a;
		}
	}
	return next;
}

/*
 * The event to deliver to me now, or NULL: of the events whose bits are
 * set in pending, the ready one ranking first, if the hart is unmasked
 * and it outranks the event running on me.  Only the pending events are
 * looked at.  Under the lock if pending has SSE_PENDING_GLOBAL (the
 * global event's state is shared).
 */
static inline __attribute__((always_inline)) const struct sse_event *
sse_next(struct hart_scratch *me, unsigned long pending)	/* inline: sse_deliver's */
{
	const struct sse_event *e, *top = me->sse.top;

	if (!me->sse.unmasked || !pending)
		return 0;
	if (pending & (pending - 1)) {
		e = sse_rank(me, pending);
	} else {
		/* one event pending, the usual case: nothing to rank */
		e = sse_event_of_bit[pending];
		if (!sse_ready(e, sse_attrs_of(e, me), me))
			return 0;
	}
	if (e && top && !sse_before(e, sse_attrs_of(e, me), top, sse_attrs_of(top, me)))
		return 0;
	return e;
}

/* sse_next for the paths under the lock: one copy of it out of line. */
static __attribute__((noinline)) const struct sse_event *sse_next_locked(struct hart_scratch *me)
{
	return sse_next(me, me->sse.pending);
}

/* e, no longer pending, becomes RUNNING on me, the top of its stack, and is entered. */
static void sse_start(struct hart_scratch *me, const struct sse_event *e,
		      struct trap_frame *tf)
{
	struct sse_attrs *a = sse_attrs_of(e, me);

	a->state = SBI_SSE_STATE_RUNNING;
	a->below = me->sse.top;
	me->sse.top = e;
	sse_enter(me, a, tf);
}

static __attribute__((noinline)) void sse_deliver_locked(struct hart_scratch *me,
							  struct trap_frame *tf)
{
	const struct sse_event *e;

	spin_lock(&sse_lock);
	e = sse_next_locked(me);
	if (e && e->global) {
		sse_globals[e->slot].pending = false;
		sse_globals[e->slot].running_hart = me->hartid;
		sse_global_hints_update();
	} else if (e) {
		sse_pending_clear(me, sse_bit(e));
	}
	if (e)
		sse_start(me, e, tf);
	spin_unlock(&sse_lock);
}

/*
 * Delivers the best deliverable event, if any, into the context being
 * returned to.  Local events only: nothing but this hart's own state, no
 * lock; the global event's hint set: under the lock.
 */
static void sse_deliver(struct hart_scratch *me, struct trap_frame *tf)
{
	unsigned long pending = me->sse.pending;
	const struct sse_event *e;

	if (pending & SSE_PENDING_GLOBAL) {
		sse_deliver_locked(me, tf);
		return;
	}
	e = sse_next(me, pending);
	if (e) {
		sse_pending_clear(me, sse_bit(e));
		sse_start(me, e, tf);
	}
}

/*
 * The end of every SSE call: an event the call made due on this hart (or
 * one that already was) is entered as the ecall returns: mepc is the CSR
 * (stepped past the ecall), a6/a7 the frame's; a0/a1 become the call's
 * result, which the handler sees as the interrupted a0/a1.
 */
static struct sbiret sse_ret(struct hart_scratch *me, struct trap_frame *tf, struct sbiret ret)
{
	if (me->sse.pending)
		sse_deliver(me, tf);
	return ret;
}

void sbi_sse_trap_exit(struct trap_frame *tf)
{
	if (((tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT) == PRV_M)
		return;		/* only when going back to S or U */
	csr_write(mepc, tf->mepc);
	sse_deliver(this_hart(), tf);
	tf->mepc = csr_read(mepc);
}

/* ---- attribute reads and writes ----------------------------------------------- */

static unsigned long sse_attr_read(const struct sse_event *e, struct hart_scratch *me,
				   unsigned int id)
{
	const struct sse_attrs *a = sse_attrs_of(e, me);

	switch (id) {
	case SBI_SSE_ATTR_STATUS:
		return a->state | (sse_pending_on(e, me) ? SBI_SSE_STATUS_PENDING : 0) |
		       (e->injectable ? SBI_SSE_STATUS_INJECT : 0);
	case SBI_SSE_ATTR_PRIORITY:		return a->prio;
	case SBI_SSE_ATTR_CONFIG:		return a->config;
	case SBI_SSE_ATTR_PREFERRED_HART:
		return e->global ? sse_globals[e->slot].preferred_hart : me->hartid;
	case SBI_SSE_ATTR_ENTRY_PC:		return a->entry_pc;
	case SBI_SSE_ATTR_ENTRY_ARG:		return a->entry_arg;
	case SBI_SSE_ATTR_INTERRUPTED_SEPC:	return a->sepc;
	case SBI_SSE_ATTR_INTERRUPTED_FLAGS:	return a->flags;
	case SBI_SSE_ATTR_INTERRUPTED_A6:	return a->a6;
	default:				return a->a7;
	}
}

/* The error writing v to attribute id would give, or SBI_SUCCESS. */
static long sse_attr_check(const struct sse_event *e, struct hart_scratch *me,
			   unsigned int id, unsigned long v)
{
	const struct sse_attrs *a = sse_attrs_of(e, me);
	bool setup = a->state == SBI_SSE_STATE_UNUSED || a->state == SBI_SSE_STATE_REGISTERED;

	switch (id) {
	case SBI_SSE_ATTR_STATUS:
	case SBI_SSE_ATTR_ENTRY_PC:
	case SBI_SSE_ATTR_ENTRY_ARG:
		return SBI_ERR_DENIED;
	case SBI_SSE_ATTR_PREFERRED_HART:
		if (!e->global)
			return SBI_ERR_DENIED;
		if (!setup)
			return SBI_ERR_INVALID_STATE;
		return hart_by_id(v) ? SBI_SUCCESS : SBI_ERR_INVALID_PARAM;
	case SBI_SSE_ATTR_PRIORITY:
		if (!setup)
			return SBI_ERR_INVALID_STATE;
		return v > 0xffffffffUL ? SBI_ERR_INVALID_PARAM : SBI_SUCCESS;
	case SBI_SSE_ATTR_CONFIG:
		if (!setup)
			return SBI_ERR_INVALID_STATE;
		return v & ~SBI_SSE_CONFIG_ONESHOT ? SBI_ERR_INVALID_PARAM : SBI_SUCCESS;
	default:	/* INTERRUPTED_*: only by the hart running the handler */
		if (!sse_running_on(e, me))
			return SBI_ERR_INVALID_STATE;
		if (id == SBI_SSE_ATTR_INTERRUPTED_FLAGS && (v & ~SBI_SSE_FLAGS_ALL))
			return SBI_ERR_INVALID_PARAM;
		return SBI_SUCCESS;
	}
}

static void sse_attr_write(const struct sse_event *e, struct hart_scratch *me,
			   unsigned int id, unsigned long v)
{
	struct sse_attrs *a = sse_attrs_of(e, me);

	switch (id) {
	case SBI_SSE_ATTR_PREFERRED_HART:	sse_globals[e->slot].preferred_hart = v; break;
	case SBI_SSE_ATTR_PRIORITY:		a->prio = (uint32_t)v; break;
	case SBI_SSE_ATTR_CONFIG:		a->config = v; break;
	case SBI_SSE_ATTR_INTERRUPTED_SEPC:	a->sepc = v; break;
	case SBI_SSE_ATTR_INTERRUPTED_FLAGS:	a->flags = v; break;
	case SBI_SSE_ATTR_INTERRUPTED_A6:	a->a6 = v; break;
	case SBI_SSE_ATTR_INTERRUPTED_A7:	a->a7 = v; break;
	default:				break;
	}
}

/*
 * Checks shared by read_attrs and write_attrs, in the order of the spec's
 * tables.  The buffer holds attr_count values, the first one for
 * base_attr_id (as Linux and the SBI test suites use it).
 */
static long sse_attrs_args(const unsigned long *args, const struct sse_event **e,
			   unsigned int *base, unsigned int *count)
{
	long err = sse_lookup(args[0], e);
	uint64_t first = (uint32_t)args[1], n = (uint32_t)args[2];

	if (err)
		return err;
	if (n == 0)
		return SBI_ERR_INVALID_PARAM;
	if (first > SBI_SSE_ATTR_MAX || first + n - 1 > SBI_SSE_ATTR_MAX)
		return SBI_ERR_BAD_RANGE;	/* no overflow: both below 2^32 */
	if ((args[3] & (sizeof(unsigned long) - 1)) ||
	    !memmap_smode_range_ok(&platform.mem, args[3], args[4], n * sizeof(unsigned long)))
		return SBI_ERR_INVALID_ADDRESS;
	*base = first;
	*count = n;
	return SBI_SUCCESS;
}

static struct sbiret sse_read_attrs(const unsigned long *args)
{
	struct hart_scratch *me = this_hart();
	unsigned long vals[SBI_SSE_ATTR_MAX + 1];
	const struct sse_event *e;
	unsigned int base, count;
	long err = sse_attrs_args(args, &e, &base, &count);

	if (err)
		return sbi_err(err);
	spin_lock(&sse_lock);
	for (unsigned int i = 0; i < count; i++)
		vals[i] = sse_attr_read(e, me, base + i);
	spin_unlock(&sse_lock);
	memcpy((void *)args[3], vals, count * sizeof(vals[0]));
	return sbi_ok(0);
}

static struct sbiret sse_write_attrs(const unsigned long *args)
{
	struct hart_scratch *me = this_hart();
	unsigned long vals[SBI_SSE_ATTR_MAX + 1];
	const struct sse_event *e;
	unsigned int base, count;
	long err = sse_attrs_args(args, &e, &base, &count);

	if (err)
		return sbi_err(err);
	/* one copy of S-mode's values: what is checked is what is written */
	memcpy(vals, (const void *)args[3], count * sizeof(vals[0]));
	spin_lock(&sse_lock);
	for (unsigned int i = 0; i < count && !err; i++)
		err = sse_attr_check(e, me, base + i, vals[i]);
	if (!err) {
		for (unsigned int i = 0; i < count; i++)
			sse_attr_write(e, me, base + i, vals[i]);
		if (e->global)
			sse_global_hints_update();
	}
	spin_unlock(&sse_lock);
	return sbi_err(err);
}

/* ---- state changes --------------------------------------------------------------- */

static bool sse_entry_ok(unsigned long pc)
{
	if (pc & 1)
		return false;
	/* with translation off the entry is physical: it must be RAM S-mode may run */
	if ((csr_read(satp) >> SATP_MODE_SHIFT) == 0)
		return memmap_smode_entry_ok(&platform.mem, pc);
	return true;
}

/* register, unregister, enable, disable: one state to another. */
static struct sbiret sse_move(unsigned long fid, const unsigned long *args)
{
	static const uint32_t from[] = {
		[SBI_EXT_SSE_REGISTER] = SBI_SSE_STATE_UNUSED,
		[SBI_EXT_SSE_UNREGISTER] = SBI_SSE_STATE_REGISTERED,
		[SBI_EXT_SSE_ENABLE] = SBI_SSE_STATE_REGISTERED,
		[SBI_EXT_SSE_DISABLE] = SBI_SSE_STATE_ENABLED,
	};
	static const uint32_t to[] = {
		[SBI_EXT_SSE_REGISTER] = SBI_SSE_STATE_REGISTERED,
		[SBI_EXT_SSE_UNREGISTER] = SBI_SSE_STATE_UNUSED,
		[SBI_EXT_SSE_ENABLE] = SBI_SSE_STATE_ENABLED,
		[SBI_EXT_SSE_DISABLE] = SBI_SSE_STATE_REGISTERED,
	};
	struct hart_scratch *me = this_hart();
	const struct sse_event *e;
	struct sse_attrs *a;
	struct hart_scratch *kick = 0;
	long err = sse_lookup(args[0], &e);

	if (err)
		return sbi_err(err);
	if (fid == SBI_EXT_SSE_REGISTER && !sse_entry_ok(args[1]))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	spin_lock(&sse_lock);
	a = sse_attrs_of(e, me);
	if (a->state != from[fid]) {
		spin_unlock(&sse_lock);
		return sbi_err(SBI_ERR_INVALID_STATE);
	}
	a->state = to[fid];
	if (fid == SBI_EXT_SSE_REGISTER) {
		a->entry_pc = args[1];
		a->entry_arg = args[2];
		/* the reset PREFERRED_HART (0) may name no hart: the registering one then */
		if (e->global && !hart_by_id(sse_globals[e->slot].preferred_hart))
			sse_globals[e->slot].preferred_hart = me->hartid;
	}
	if (fid == SBI_EXT_SSE_UNREGISTER) {
		if (e->global)
			sse_globals[e->slot].pending = false;
		else
			sse_pending_clear(me, sse_bit(e));
	}
	if (e->global) {
		struct sse_global *g = sse_global_of(e);

		sse_global_hints_update();
		if (fid == SBI_EXT_SSE_ENABLE && g->pending && g->preferred_hart != me->hartid)
			kick = hart_by_id(g->preferred_hart);
	}
	if (e->slot == SSE_LOCAL_PMU && !e->global)
		sse_pmu_route(me);
	spin_unlock(&sse_lock);
	if (kick)
		sbi_ipi_raise(kick->index, IPI_SSE);
	return sbi_ok(0);
}

/*
 * complete: the highest-priority event running on this hart goes back to
 * ENABLED (REGISTERED if one-shot) and the interrupted context resumes,
 * a0 and a1 included: the handler put them back before this ecall, so
 * the "result" of the call is what the frame holds.
 */
static __attribute__((noinline)) struct sbiret sse_complete(struct trap_frame *tf)
{
	struct hart_scratch *me = this_hart();
	const struct sse_event *e = me->sse.top;
	struct sse_attrs *a;

	if (!e)
		return sse_ret(me, tf, sbi_ok(0));
	a = sse_attrs_of(e, me);
	if (e->global)
		spin_lock(&sse_lock);
	a->state = (a->config & SBI_SSE_CONFIG_ONESHOT) ? SBI_SSE_STATE_REGISTERED :
							   SBI_SSE_STATE_ENABLED;
	me->sse.top = a->below;
	if (e->global)
		sse_global_hints_update();	/* pending again meanwhile? */
	else if (e->slot == SSE_LOCAL_PMU)
		sse_pmu_route(me);
	/* a global event ENABLED again may be entered by another hart, which overwrites a */
	sse_resume(a, tf);
	if (e->global)
		spin_unlock(&sse_lock);
	return sse_ret(me, tf, (struct sbiret){ (long)tf->regs[REG_A0], tf->regs[REG_A1] });
}

/* inject of the global event: pending, its preferred hart told. */
static __attribute__((noinline)) void sse_inject_global(struct hart_scratch *me,
							 const struct sse_event *e)
{
	struct sse_global *g = sse_global_of(e);
	struct hart_scratch *target;

	spin_lock(&sse_lock);
	g->pending = true;
	sse_global_hints_update();
	target = hart_by_id(g->preferred_hart);
	spin_unlock(&sse_lock);
	/* this hart: delivered as the ecall returns; no such hart: none to tell */
	if (target && target != me)
		sbi_ipi_raise(target->index, IPI_SSE);
}

/*
 * inject of a local event into another hart: under the lock, so that
 * sbi_sse_hart_reset (on a hart stopping, after its HSM state changed)
 * clears the bit or this finds the hart stopping.
 */
static __attribute__((noinline)) long sse_inject_remote(struct hart_scratch *target,
							 const struct sse_event *e)
{
	bool ok;

	spin_lock(&sse_lock);
	/* a stopped hart has no S-mode to take it (and starts afresh) */
	ok = hsm_hart_interruptible(target->index);
	if (ok)
		sse_pending_set(target, sse_bit(e));
	spin_unlock(&sse_lock);
	if (!ok)
		return SBI_ERR_FAILED;
	sbi_ipi_raise(target->index, IPI_SSE);
	return SBI_SUCCESS;
}

static __attribute__((noinline)) struct sbiret sse_inject(const unsigned long *args,
							   struct trap_frame *tf)
{
	struct hart_scratch *me = this_hart(), *target;
	const struct sse_event *e;
	long err = sse_lookup(args[0], &e);

	if (err)
		return sse_ret(me, tf, sbi_err(err));
	if (!e->injectable)
		return sse_ret(me, tf, sbi_err(SBI_ERR_INVALID_PARAM));
	if (e->global) {
		sse_inject_global(me, e);
		return sse_ret(me, tf, sbi_ok(0));
	}
	/* the calling hart, the usual target, needs no look-up in the hart map */
	target = args[1] == me->hartid ? me : hart_by_id(args[1]);
	if (!target)
		return sse_ret(me, tf, sbi_err(SBI_ERR_INVALID_PARAM));
	if (target != me)
		return sse_ret(me, tf, sbi_err(sse_inject_remote(target, e)));
	/* this hart runs S-mode (it called): it cannot be stopping */
	sse_pending_set(me, sse_bit(e));
	return sse_ret(me, tf, sbi_ok(0));	/* entered as the ecall returns */
}

static struct sbiret sse_hart_mask(bool mask)
{
	struct hart_scratch *me = this_hart();

	if (me->sse.unmasked != mask)
		return sbi_err(mask ? SBI_ERR_ALREADY_STOPPED : SBI_ERR_ALREADY_STARTED);
	me->sse.unmasked = !mask;
	return sbi_ok(0);
}

/*
 * HSM suspend (and SUSP): an event that is deliverable to this hart now
 * (pending, enabled, the hart unmasked, outranking what runs) wakes it,
 * as an interrupt S-mode enabled does.  It is delivered once the hart is
 * back in S/U-mode: at the ecall's return (retentive) or at resume_addr
 * (non-retentive), by the trap of a self-IPI (sbi_sse_kick_self).
 */
bool sbi_sse_wakes(void)
{
	struct hart_scratch *me = this_hart();
	bool due;

	if (!me->sse.pending)
		return false;
	spin_lock(&sse_lock);
	due = sse_next_locked(me) != 0;
	spin_unlock(&sse_lock);
	return due;
}

void sbi_sse_kick_self(void)
{
	if (this_hart()->sse.pending)
		platform.ops.ipi_send(this_hart_index());
}

/* Per-hart hook, HSM stop: the hart's events back to UNUSED, masked. */
static void sbi_sse_hart_reset(void)
{
	struct hart_scratch *me = this_hart();

	spin_lock(&sse_lock);
	memset(me->sse.local, 0, sizeof(me->sse.local));
	sse_pending_clear(me, ~SSE_PENDING_GLOBAL);
	me->sse.top = 0;
	me->sse.unmasked = false;
	for (unsigned int i = 0; i < SSE_NR_GLOBAL; i++) {
		struct sse_global *g = &sse_globals[i];

		/* a global handler cut short by the stop ends here */
		if (g->a.state == SBI_SSE_STATE_RUNNING && g->running_hart == me->hartid)
			g->a.state = SBI_SSE_STATE_ENABLED;
	}
	sse_pmu_route(me);
	spin_unlock(&sse_lock);
}

/* The calls but the round trip's two (inject, complete): their stack frames stay here. */
static __attribute__((noinline)) struct sbiret sse_call(unsigned long fid,
							const unsigned long *args,
							struct trap_frame *tf)
{
	struct sbiret ret;

	switch (fid) {
	case SBI_EXT_SSE_READ_ATTRS:	ret = sse_read_attrs(args); break;
	case SBI_EXT_SSE_WRITE_ATTRS:	ret = sse_write_attrs(args); break;
	case SBI_EXT_SSE_REGISTER:
	case SBI_EXT_SSE_UNREGISTER:
	case SBI_EXT_SSE_ENABLE:
	case SBI_EXT_SSE_DISABLE:	ret = sse_move(fid, args); break;
	case SBI_EXT_SSE_HART_UNMASK:	ret = sse_hart_mask(false); break;
	case SBI_EXT_SSE_HART_MASK:	ret = sse_hart_mask(true); break;
	default:			ret = sbi_err(SBI_ERR_NOT_SUPPORTED); break;
	}
	return sse_ret(this_hart(), tf, ret);
}

/* Every call ends in sse_ret(): the event it made due, if any, is entered. */
static struct sbiret sse_handle(unsigned long fid, const unsigned long *args,
				struct trap_frame *tf)
{
	if (fid == SBI_EXT_SSE_INJECT)
		return sse_inject(args, tf);
	if (fid == SBI_EXT_SSE_COMPLETE)
		return sse_complete(tf);
	return sse_call(fid, args, tf);
}

long sbi_sse_raise(uint32_t event_id, unsigned long hart_index)
{
	const struct sse_event *e;
	struct hart_scratch *target;

	if (sse_lookup_board(event_id, &e) ||
	    hart_index >= TALLY_MAX_HARTS || !hart_scratch[hart_index].present)
		return SBI_ERR_INVALID_PARAM;
	target = &hart_scratch[hart_index];
	if (target != this_hart())
		return sse_inject_remote(target, e);
	sse_pending_set(target, sse_bit(e));	/* delivered as the trap returns */
	return SBI_SUCCESS;
}

const struct sbi_extension sbi_ext_sse = {
	.eid_first = SBI_EXT_SSE,
	.eid_last = SBI_EXT_SSE,
	.name = "SSE",
	.available = sse_add_board_events,
	.handle = sse_handle,
	.hart_stop = sbi_sse_hart_reset,
};
