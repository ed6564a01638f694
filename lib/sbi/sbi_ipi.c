// SPDX-License-Identifier: BSD-2-Clause
/* IPI extension "sPI", and the machine-level request mechanism under it. */
#include <tally/fw_event.h>
#include <tally/hart.h>
#include <tally/hsm.h>
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/sbi.h>

/*
 * Ordering between the request word (normal memory) and the msip register
 * (I/O).  RVWMO orders memory accesses among themselves only: .rl on the
 * AMO orders what came before it, not the MMIO store after it, and the
 * receiver's MMIO clear is not ordered before its AMO either.  Without the
 * fences a hart could see msip before the request bit (and find nothing),
 * or clear an msip raised for a request its exchange has already missed:
 * an IPI, and a remote fence waiting on it, would be lost.
 */
void sbi_ipi_raise(unsigned long hartid, unsigned long what)
{
	__atomic_fetch_or(&hart_scratch[hartid].ipi_pending, what, __ATOMIC_RELEASE);
	__asm__ __volatile__("fence rw, o" ::: "memory");	/* request, then msip */
	platform.ops.ipi_send(hartid);
}

void sbi_ipi_process(void)
{
	struct hart_scratch *me = this_hart();
	unsigned long pending;

	/* clear first: a request set after the exchange below raises it again */
	platform.ops.ipi_clear(me->hartid);
	__asm__ __volatile__("fence o, rw" ::: "memory");	/* msip clear, then exchange */
	pending = __atomic_exchange_n(&me->ipi_pending, 0, __ATOMIC_ACQUIRE);
	if (pending & IPI_SMODE) {
		fw_event(FW_EV_IPI_RECEIVED);
		csr_set(mip, MIP_SSIP);
	}
	if (pending & IPI_RFENCE)
		sbi_rfence_process();
}

void sbi_ipi_poll(void)
{
	if (!(csr_read(mip) & MIP_MSIP))
		return;
	sbi_ipi_process();
	/*
	 * SSE: an event another hart made due here is delivered on the way
	 * out of a trap; inside this ecall there is none, so trap again
	 * once back in S-mode (a stopped hart waiting for its start has no
	 * S-mode to go back to).
	 */
	if (this_hart()->sse.pending && hsm_hart_interruptible(this_hartid()))
		platform.ops.ipi_send(this_hartid());
}

static struct sbiret ipi_send(unsigned long mask, unsigned long base)
{
	unsigned long self = this_hartid(), h;
	struct hartmask targets;
	long err = hartmask_from_sbi(mask, base, &platform.harts, &targets);

	if (err)
		return sbi_err(err);
	for_each_hart_in(h, &targets) {
		if (!hsm_hart_interruptible(h))
			continue;	/* a stopped hart has no S-mode to interrupt */
		/* the firmware events count IPIs to and from other harts */
		if (h == self) {
			csr_set(mip, MIP_SSIP);
		} else {
			fw_event(FW_EV_IPI_SENT);
			sbi_ipi_raise(h, IPI_SMODE);
		}
	}
	return sbi_ok(0);
}

static struct sbiret ipi_handle(unsigned long fid, const unsigned long *args,
				struct trap_frame *tf)
{
	(void)tf;
	if (fid != SBI_EXT_IPI_SEND_IPI)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	return ipi_send(args[0], args[1]);
}

/* The legacy v0.1 send_ipi shares the same path. */
struct sbiret sbi_ipi_send_many(unsigned long mask, unsigned long base)
{
	return ipi_send(mask, base);
}

const struct sbi_extension sbi_ext_ipi = {
	.eid_first = SBI_EXT_IPI,
	.eid_last = SBI_EXT_IPI,
	.name = "IPI",
	.handle = ipi_handle,
};
