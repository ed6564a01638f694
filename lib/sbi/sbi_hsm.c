// SPDX-License-Identifier: BSD-2-Clause
/*
 * Hart state management extension "HSM".  Each hart's state lives in its
 * scratch.  A hart changes its own state by compare-and-swap; hart_start
 * takes the target's lock, so two callers can never both start it.
 */
#include <tally/hart.h>
#include <tally/hart_ext.h>
#include <tally/sbi_hsm.h>
#include <tally/init.h>
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/sbi_sse.h>
#include <tally/sbi_time.h>
#include <tally/trap.h>

static void hsm_set(struct hart_scratch *h, unsigned long state)
{
	__atomic_store_n(&h->hsm_state, state, __ATOMIC_RELEASE);
}

static bool hsm_move(struct hart_scratch *h, unsigned long from, unsigned long to)
{
	return __atomic_compare_exchange_n(&h->hsm_state, &from, to, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void hsm_init(unsigned long boot_index)
{
	unsigned long h;

	for_each_hart_in(h, &platform.harts) {
		hart_scratch[h].present = true;
		hsm_set(&hart_scratch[h], h == boot_index ? SBI_HSM_STATE_STARTED
							  : SBI_HSM_STATE_STOPPED);
	}
}

/*
 * A cold boot on a hart S-mode may not use (the FU540's E51, which has no
 * S-mode): the next stage starts on the hart of 'index' instead, as if
 * S-mode had called hart_start on it, and every other hart waits STOPPED.
 * Called before any other hart leaves its boot wait.
 */
void hsm_init_handover(unsigned long index, unsigned long addr, unsigned long arg)
{
	hsm_init(index);
	hart_scratch[index].start_addr = addr;
	hart_scratch[index].start_arg = arg;
	hsm_set(&hart_scratch[index], SBI_HSM_STATE_START_PENDING);
}

/*
 * A hart that is STOPPED, STOP_PENDING or START_PENDING is no target of
 * remote fences (sbi_rfence_many skips it): it owes S-mode every fence it
 * missed, of every kind, and does them all here on its way into S-mode.
 * After its STARTED is visible (the fence rw, rw): a caller that found it
 * not yet started had written what it fences before it looked, and any
 * later caller reaches it by IPI.  satp = 0 first, so that no walk of the
 * stale root from before the stop can refill the TLB behind the flush.
 * hfence.gvma x0, x0 fences the G-stage (and combined) translations of
 * every VMID, hfence.vvma x0, x0 the VS-stage of hgatp's VMID; fence.i
 * the instruction fetches (Linux 6.1 does none when a CPU comes online).
 * Kept out of line: tests/sbi/check-start-fences.sh reads its instructions.
 */
static __attribute__((noinline)) void hsm_start_fences(void)
{
	csr_write(satp, 0);
	mb();
	sfence_vma_all();
	if (hart_features.has_h) {
		__asm__ __volatile__(INSN_HFENCE_GVMA "x0, x0" ::: "memory");
		__asm__ __volatile__(INSN_HFENCE_VVMA "x0, x0" ::: "memory");
	}
	fence_i();
}

void hsm_wait_for_start(void)
{
	struct hart_scratch *me = this_hart();

	csr_write(mie, platform.ipi_mip);	/* only a start request may wake us */
	while (hsm_state(me) != SBI_HSM_STATE_START_PENDING) {
		wfi();
		sbi_ipi_poll();
	}
	hart_init_local();
	/*
	 * hart_init_local cleared msip: serve what was asked behind it.  A
	 * caller that saw this hart STARTED before its stop may have raised
	 * a request since (waiting for the hart's mailbox meanwhile), or this
	 * hart left the loop above on START_PENDING before polling it; that
	 * caller waits for the answer, and no other IPI may come.
	 */
	sbi_ipi_process();
	hsm_set(me, SBI_HSM_STATE_STARTED);
	hsm_start_fences();
	hart_enter_smode(me->start_addr, me->hartid, me->start_arg, PRV_S);
}

bool hsm_smode_entry_ok(unsigned long addr)
{
	return !(addr & 1) && memmap_smode_entry_ok(&platform.mem, addr);
}

static struct sbiret hsm_hart_start(unsigned long hartid, unsigned long addr,
				    unsigned long arg)
{
	struct hart_scratch *target = hart_by_id(hartid);

	if (!target)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (!hsm_smode_entry_ok(addr))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	/*
	 * A hart in STOP_PENDING is on a short firmware-only path to STOPPED
	 * (hsm_hart_stop): wait for it instead of refusing.  Linux onlines a
	 * CPU right after the dying one said so, and looks at its state only
	 * once ("CPU3 may not have stopped", then "failed to start").
	 */
	while (hsm_state(target) == SBI_HSM_STATE_STOP_PENDING)
		sbi_ipi_poll();
	/* the lock makes "still stopped? then set its entry point" one step */
	spin_lock(&target->hsm_lock);
	if (hsm_state(target) != SBI_HSM_STATE_STOPPED) {
		spin_unlock(&target->hsm_lock);
		return sbi_err(SBI_ERR_ALREADY_AVAILABLE);
	}
	target->start_addr = addr;
	target->start_arg = arg;
	hsm_set(target, SBI_HSM_STATE_START_PENDING);
	spin_unlock(&target->hsm_lock);
	sbi_ipi_raise(target->index, IPI_WAKE);
	return sbi_ok(0);
}

static struct sbiret hsm_hart_stop(void)
{
	struct hart_scratch *me = this_hart();

	if (!hsm_move(me, SBI_HSM_STATE_STARTED, SBI_HSM_STATE_STOP_PENDING))
		return sbi_err(SBI_ERR_FAILED);
	sbi_ext_hart_event(SBI_HART_STOP);	/* no stale timer, counters, SSE events */
	csr_clear(mip, MIP_SSIP);
	hsm_set(me, SBI_HSM_STATE_STOPPED);
	hsm_wait_for_start();
}

/*
 * Sleep in M-mode until an S-mode interrupt S-mode enabled is pending, or
 * an SSE event is deliverable to the hart (an inject from another hart,
 * a global event routed here: the IPI that says so wakes the wfi).
 */
static void hsm_wait_for_interrupt(void)
{
	for (;;) {
		unsigned long pending = csr_read(mip);

		if (pending & platform.ipi_mip)
			sbi_ipi_process();
		if (sbi_sse_wakes())
			return;
		if ((pending & MIP_MTIP) && (csr_read(mie) & MIP_MTIP))
			sbi_timer_process();
		if (csr_read(mip) & csr_read(mie) & MIP_S_ALL)
			return;
		wfi();
	}
}

/*
 * The spec's table: INVALID_PARAM for a reserved type and for a
 * platform-specific one the platform does not implement (Tally has none);
 * NOT_SUPPORTED is only for an implemented type missing a dependency.
 */
static long suspend_type_check(unsigned long type)
{
	if (type == SBI_HSM_SUSPEND_RET_DEFAULT || type == SBI_HSM_SUSPEND_NON_RET_DEFAULT)
		return SBI_SUCCESS;
	return SBI_ERR_INVALID_PARAM;
}

struct sbiret hsm_suspend_self(bool non_retentive, unsigned long resume_addr,
			       unsigned long arg)
{
	struct hart_scratch *me = this_hart();

	if (!hsm_move(me, SBI_HSM_STATE_STARTED, SBI_HSM_STATE_SUSPEND_PENDING))
		return sbi_err(SBI_ERR_FAILED);
	if (non_retentive)
		sbi_ext_hart_event(SBI_HART_SUSPEND);
	hsm_set(me, SBI_HSM_STATE_SUSPENDED);
	hsm_wait_for_interrupt();
	hsm_set(me, SBI_HSM_STATE_RESUME_PENDING);
	if (non_retentive) {
		hart_ext_apply();		/* ... and the CSRs the extensions need */
		hart_irq_init();		/* a real power-down loses the IMSIC file */
		sbi_ext_hart_event(SBI_HART_RESUME);	/* FWFT features, triggers, counters */
	}
	hsm_set(me, SBI_HSM_STATE_STARTED);
	sbi_sse_kick_self();			/* an event that woke us, or came meanwhile */
	if (non_retentive)
		hart_enter_smode(resume_addr, me->hartid, arg, PRV_S);
	return sbi_ok(0);
}

static struct sbiret hsm_hart_suspend(unsigned long type, unsigned long resume_addr,
				      unsigned long arg)
{
	bool non_retentive = type == SBI_HSM_SUSPEND_NON_RET_DEFAULT;
	long err = suspend_type_check(type);

	if (err)
		return sbi_err(err);
	if (non_retentive && !hsm_smode_entry_ok(resume_addr))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	return hsm_suspend_self(non_retentive, resume_addr, arg);
}

static struct sbiret hsm_get_status(unsigned long hartid)
{
	struct hart_scratch *h = hart_by_id(hartid);

	if (!h)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	return sbi_ok(hsm_state(h));
}

static struct sbiret hsm_handle(unsigned long fid, const unsigned long *args,
				struct trap_frame *tf)
{
	(void)tf;
	switch (fid) {
	case SBI_EXT_HSM_HART_START:
		return hsm_hart_start(args[0], args[1], args[2]);
	case SBI_EXT_HSM_HART_STOP:
		return hsm_hart_stop();
	case SBI_EXT_HSM_HART_GET_STATUS:
		return hsm_get_status(args[0]);
	case SBI_EXT_HSM_HART_SUSPEND:
		/* suspend_type is a uint32_t: its low 32 bits only */
		return hsm_hart_suspend(sbi_arg_u32(args[0]), args[1], args[2]);
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

const struct sbi_extension sbi_ext_hsm = {
	.eid_first = SBI_EXT_HSM,
	.eid_last = SBI_EXT_HSM,
	.name = "HSM",
	.handle = hsm_handle,
};
