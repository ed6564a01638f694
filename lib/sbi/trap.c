// SPDX-License-Identifier: BSD-2-Clause
/*
 * The C side of the trap path for every trap but an S-mode ecall (which
 * the trap entry hands straight to sbi_ecall_handle): machine
 * interrupts to the IPI and timer code, exceptions the firmware does not
 * handle are forwarded to S-mode as the privileged spec would have
 * delivered them, and an unexpected trap inside M-mode stops the machine
 * with a register dump.
 */
#include <tally/console.h>
#include <tally/fw_event.h>
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/sbi_time.h>
#include <tally/emulate.h>
#include <tally/trap.h>

static unsigned long trap_prev_mode(const struct trap_frame *tf)
{
	return (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;
}

/* Does this exception's tval hold a virtual address (GVA may be set)? */
static bool cause_tval_is_address(unsigned long cause)
{
	switch (cause) {
	case CAUSE_MISALIGNED_FETCH: case CAUSE_FETCH_ACCESS: case CAUSE_BREAKPOINT:
	case CAUSE_MISALIGNED_LOAD: case CAUSE_LOAD_ACCESS:
	case CAUSE_MISALIGNED_STORE: case CAUSE_STORE_ACCESS:
	case CAUSE_FETCH_PAGE_FAULT: case CAUSE_LOAD_PAGE_FAULT: case CAUSE_STORE_PAGE_FAULT:
	case CAUSE_FETCH_GUEST_PAGE_FAULT: case CAUSE_LOAD_GUEST_PAGE_FAULT:
	case CAUSE_STORE_GUEST_PAGE_FAULT:
		return true;
	default:
		return false;
	}
}

/*
 * A trap from VS/VU-mode that hedeleg gives to the guest: what the hart
 * does for a trap into VS-mode.  vsstatus, vsepc, vscause, vstval take the
 * trap; V stays 1 (mstatus.MPV) and the guest resumes at vstvec in VS-mode.
 */
static void redirect_to_vsmode(struct trap_frame *tf, unsigned long cause, unsigned long tval)
{
	unsigned long old = csr_read(CSR_VSSTATUS);
	unsigned long vs = old & ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE);
	unsigned long ms = tf->mstatus;

	csr_write(CSR_VSCAUSE, cause);
	csr_write(CSR_VSTVAL, tval);
	csr_write(CSR_VSEPC, tf->mepc);
	if (trap_prev_mode(tf) == PRV_S)
		vs |= MSTATUS_SPP;
	if (old & MSTATUS_SIE)
		vs |= MSTATUS_SPIE;
	csr_write(CSR_VSSTATUS, vs);
	ms = (ms & ~MSTATUS_MPP) | (PRV_S << MSTATUS_MPP_SHIFT);
	tf->mstatus = ms;
	csr_write(mstatus, ms);
	tf->mepc = csr_read(CSR_VSTVEC) & ~3UL;
}

/*
 * The H-extension half of a trap into HS-mode: hstatus.SPV = V at the
 * trap, SPVP = the guest's privilege if V was 1 (unchanged otherwise), GVA
 * whether stval is a guest virtual address; htval and htinst from mtval2
 * and mtinst, which the hart wrote for this trap.  mstatus.GVA is also
 * checked against the cause: only an address can be a guest virtual
 * address, and QEMU 7.2 sets mstatus.GVA for any nonzero mtval from V=1,
 * an illegal instruction's bits included.
 */
static void hs_trap_hstatus(const struct trap_frame *tf, unsigned long cause)
{
	unsigned long hs = csr_read(CSR_HSTATUS) & ~(HSTATUS_SPV | HSTATUS_GVA);

	if (tf->mstatus & MSTATUS_MPV) {
		hs |= HSTATUS_SPV;
		hs &= ~HSTATUS_SPVP;
		if (trap_prev_mode(tf) == PRV_S)
			hs |= HSTATUS_SPVP;
	}
	if ((tf->mstatus & MSTATUS_GVA) && cause_tval_is_address(cause))
		hs |= HSTATUS_GVA;
	csr_write(CSR_HSTATUS, hs);
	csr_write(CSR_HTVAL, csr_read(CSR_MTVAL2));
	csr_write(CSR_HTINST, csr_read(CSR_MTINST));
}

/*
 * Deliver an exception the firmware does not handle to S-mode, as the
 * hart would have had medeleg delegated it.  With the H extension and a
 * trap from VS/VU-mode (mstatus.MPV = 1) that is VS-mode if hedeleg
 * delegates the cause, else HS-mode with V cleared.  Called from
 * trap_handler only: mtval2 and mtinst still describe this trap.
 */
void trap_redirect_to_smode(struct trap_frame *tf, unsigned long cause, unsigned long tval)
{
	unsigned long prev = trap_prev_mode(tf);
	unsigned long ms = tf->mstatus;
	bool virt = hart_features.has_h && (ms & MSTATUS_MPV);

	if (prev == PRV_M)
		trap_fatal(tf, "exception in M-mode");
	if (virt && cause < __riscv_xlen && ((csr_read(CSR_HEDELEG) >> cause) & 1)) {
		redirect_to_vsmode(tf, cause, tval);
		return;
	}
	if (hart_features.has_h)
		hs_trap_hstatus(tf, cause);
	csr_write(scause, cause);
	csr_write(stval, tval);
	csr_write(sepc, tf->mepc);
	/* what the hart does when it takes a trap into (H)S-mode */
	ms &= ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_MPP | MSTATUS_MPV);
	if (prev == PRV_S)
		ms |= MSTATUS_SPP;
	if (tf->mstatus & MSTATUS_SIE)
		ms |= MSTATUS_SPIE;
	ms |= PRV_S << MSTATUS_MPP_SHIFT;
	/* the trap exit restores mepc from the frame but leaves mstatus alone */
	tf->mstatus = ms;
	csr_write(mstatus, ms);
	tf->mepc = csr_read(stvec) & ~3UL;	/* exceptions use the base address */
}

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
	"a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/* Printed without the console lock: the dying hart may hold it. */
static void fatal_print(const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	console_puts(line);
}

void trap_fatal(struct trap_frame *tf, const char *why)
{
	fatal_print("\nTally: FATAL: %s on hart %lu\n", why, this_hartid());
	fatal_print("mcause 0x%016lx  mtval 0x%016lx\n", csr_read(mcause), csr_read(mtval));
	fatal_print("mepc   0x%016lx  mstatus 0x%016lx\n", tf->mepc, tf->mstatus);
	for (int i = 1; i < 32; i += 2)
		fatal_print("%4s 0x%016lx  %4s 0x%016lx\n", reg_names[i], tf->regs[i],
			    i + 1 < 32 ? reg_names[i + 1] : "", i + 1 < 32 ? tf->regs[i + 1] : 0);
	fatal_print("Tally: stopping the machine\n");
	if (platform.ops.system_reset)
		platform.ops.system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_SYSFAIL);
	for (;;)
		wfi();
}

static void trap_from_mmode(struct trap_frame *tf, unsigned long mcause)
{
	struct hart_scratch *me = this_hart();

	if (me->guard) {
		/* an expected fault of a probe: skip the (4-byte) instruction */
		me->guard_cause = mcause;
		me->guard_trapped = 1;
		tf->mepc += 4;
		return;
	}
	trap_fatal(tf, "unexpected trap in M-mode");
}

static void trap_interrupt(struct trap_frame *tf, unsigned long irq)
{
	switch (irq) {
	case IRQ_M_SOFT:	/* an MSWI's IPI */
	case IRQ_M_EXT:		/* an IMSIC M-file's (the only identity enabled) */
		sbi_ipi_process();
		break;
	case IRQ_M_TIMER:
		sbi_timer_process();
		break;
	case IRQ_LCOF:
		/* kept in M-mode only while S-mode has the SSE PMU overflow event on */
		sbi_sse_pmu_overflow();
		break;
	default:
		/* nothing else is enabled in mie; never loop on a stray one */
		csr_clear(mie, 1UL << irq);
		printf("Tally: hart %lu: unexpected interrupt %lu disabled (mepc 0x%lx)\n",
		       this_hartid(), irq, tf->mepc);
		break;
	}
}

static unsigned int fw_event_of_cause(unsigned long mcause)
{
	switch (mcause) {
	case CAUSE_MISALIGNED_LOAD:	return FW_EV_MISALIGNED_LOAD;
	case CAUSE_MISALIGNED_STORE:	return FW_EV_MISALIGNED_STORE;
	case CAUSE_LOAD_ACCESS:		return FW_EV_ACCESS_LOAD;
	case CAUSE_STORE_ACCESS:	return FW_EV_ACCESS_STORE;
	case CAUSE_ILLEGAL_INSTRUCTION:	return FW_EV_ILLEGAL_INSN;
	default:			return FW_EV_NONE;
	}
}

/*
 * An access S-mode made to a device page the firmware serves for a board
 * quirk (sbi_emulate_trap_page): done in M-mode, and no access fault for
 * anyone, so no firmware event of one either (event 257 counts the trap).
 */
static bool trap_page_access(struct trap_frame *tf, unsigned long mcause, unsigned long mtval)
{
	if ((mcause != CAUSE_LOAD_ACCESS && mcause != CAUSE_STORE_ACCESS) ||
	    !platform.nr_trap_pages)
		return false;
	return sbi_emulate_trap_page(tf, mcause == CAUSE_STORE_ACCESS, mtval);
}

void trap_handler(struct trap_frame *tf)
{
	unsigned long mcause = csr_read(mcause);

	hart_mdt_clear();	/* the trap is saved: another one is not a double trap */
	fw_event(FW_EV_TALLY_TRAP);	/* every trap but an ecall (256 counts those) */
	if (mcause & MCAUSE_IRQ_FLAG) {
		trap_interrupt(tf, mcause & ~MCAUSE_IRQ_FLAG);
	} else if (trap_prev_mode(tf) == PRV_M) {
		trap_from_mmode(tf, mcause);
		return;
	} else {
		unsigned long mtval = csr_read(mtval);

		if (!trap_page_access(tf, mcause, mtval)) {
			fw_event(fw_event_of_cause(mcause));
			if (mcause != CAUSE_ILLEGAL_INSTRUCTION ||
			    !sbi_emulate_insn(tf, mtval, &mcause))
				trap_redirect_to_smode(tf, mcause, mtval);
		}
	}
	/* SSE: an event pending for this hart is delivered on the way back */
	if (this_hart()->sse.pending)
		sbi_sse_trap_exit(tf);
}
