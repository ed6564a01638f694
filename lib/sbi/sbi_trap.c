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
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/timer.h>
#include <tally/trap.h>

static unsigned long trap_prev_mode(const struct trap_frame *tf)
{
	return (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;
}

void trap_redirect_to_smode(struct trap_frame *tf, unsigned long cause, unsigned long tval)
{
	unsigned long prev = trap_prev_mode(tf);
	unsigned long ms = tf->mstatus;

	if (prev == PRV_M)
		trap_fatal(tf, "exception in M-mode");
	csr_write(scause, cause);
	csr_write(stval, tval);
	csr_write(sepc, tf->mepc);
	/* what the hart does when it takes a trap into S-mode */
	ms &= ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_MPP);
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
	case IRQ_M_SOFT:
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

void trap_handler(struct trap_frame *tf)
{
	unsigned long mcause = csr_read(mcause);

	fw_event(FW_EV_TALLY_TRAP);	/* every trap but an ecall (256 counts those) */
	if (mcause & MCAUSE_IRQ_FLAG) {
		trap_interrupt(tf, mcause & ~MCAUSE_IRQ_FLAG);
	} else if (trap_prev_mode(tf) == PRV_M) {
		trap_from_mmode(tf, mcause);
		return;
	} else {
		fw_event(fw_event_of_cause(mcause));
		trap_redirect_to_smode(tf, mcause, csr_read(mtval));
	}
	/* SSE: an event pending for this hart is delivered on the way back */
	if (this_hart()->sse.pending)
		sbi_sse_trap_exit(tf);
}
