/* The C half of the trap vector. Interrupts the tests expect are
 * counted per hart; a fault a test provoked (trap_armed) is recorded and
 * stepped over; anything else is a FAIL. */
#include "hart.h"
#include "test.h"

struct trap_frame {
	unsigned long sepc;		/* slot 0 */
	unsigned long x[31];		/* x1..x31 */
};

/* Moves ipi_mail entries from SENT to SEEN: several IPIs may arrive as
 * one interrupt, so every pending sender is collected. */
void ipi_collect(struct hart *h)
{
	unsigned int src;

	for (src = 0; src < MAX_HARTS; src++)
		if (h->ipi_mail[src] == IPI_SENT)
			h->ipi_mail[src] = IPI_SEEN;
}

static void handle_irq(struct hart *h, unsigned long cause)
{
	unsigned long code = cause & ~SCAUSE_INTERRUPT;

	h->irq_cause = cause;
	h->irq_time = rdtime();
	switch (code) {
	case IRQ_S_TIMER:
		/* Mask it: the test clears the timer itself through the
		 * SBI, which is what it is testing. */
		csr_clear(CSR_SIE, SIE_STIE);
		h->timer_irqs++;
		break;
	case IRQ_S_SOFT:
		csr_clear(CSR_SIP, SIP_SSIP);
		mb();
		ipi_collect(h);
		h->soft_irqs++;
		break;
	case IRQ_LCOF:
		/* What an OS does first: note which counters overflowed, then
		 * clear the pending bit. The OF bits stay set, so no second
		 * interrupt comes until the firmware restarts the counter. */
		h->lcofi_scountovf = machine.cpu_has_sscofpmf ?
				     csr_read(CSR_SCOUNTOVF) : 0;
		csr_clear(CSR_SIP, SIP_LCOFIP);
		h->lcofi_irqs++;
		break;
	default:
		csr_clear(CSR_SIE, 1UL << code);
		failf("trap", "unexpected interrupt on hart %lu (scause=%lx, "
		      "masked it)", this_hartid(), cause);
	}
	mb();
}

static unsigned long insn_len(unsigned long pc)
{
	/* A 16-bit parcel with low bits 11 starts a 32-bit instruction. */
	return (*(volatile unsigned short *)pc & 3) == 3 ? 4 : 2;
}

static void __attribute__((noreturn))
unexpected_exception(struct trap_frame *f, unsigned long cause)
{
	struct hart *h = this_hart();

	failf("trap", "unexpected exception on hart %lu (scause=%lx "
	      "sepc=%lx stval=%lx)", this_hartid(), cause, f->sepc,
	      csr_read(CSR_STVAL));
	if (this_hartid() == boot_hartid)
		finish();
	/* A secondary stops; the boot hart sees it through its waits. */
	h->faulted = true;
	mb();
	sbi_hart_stop();
	park();
}

void trap_handler(struct trap_frame *f)
{
	unsigned long cause = csr_read(CSR_SCAUSE);
	struct hart *h = this_hart();

	if (cause & SCAUSE_INTERRUPT) {
		handle_irq(h, cause);
	} else if (h->trap_armed) {
		h->trap_cause = cause;
		h->trap_tval = csr_read(CSR_STVAL);
		h->trap_epc = f->sepc;
		h->trap_armed = false;
		/* a provoked fetch fault (fetch_at) has no instruction to
		 * step over: it goes back to its caller (ra) */
		if (cause == EXC_INSN_ACCESS)
			f->sepc = f->x[0];
		else
			f->sepc += insn_len(f->sepc);
	} else {
		unexpected_exception(f, cause);
	}
}
