// SPDX-License-Identifier: BSD-2-Clause
/*
 * The machine-level request mechanism under the IPI, RFENCE, HSM and SSE
 * code (include/tally/ipi.h).  It calls none of them by name: each request
 * bit runs the handler registered for it, found by its bit number.
 */
#include <tally/hart.h>
#include <tally/hsm_state.h>
#include <tally/ipi.h>
#include <tally/platform.h>

static void ipi_nothing(void)
{
}

/* Indexed by request bit number; a bit nobody registered only wakes. */
static ipi_handler_fn ipi_handlers[IPI_COUNT] = {
	[0 ... IPI_COUNT - 1] = ipi_nothing,
};

void sbi_ipi_register(unsigned long what, ipi_handler_fn handler)
{
	for (unsigned int bit = 0; bit < IPI_COUNT; bit++)
		if (what == 1UL << bit)
			ipi_handlers[bit] = handler ? handler : ipi_nothing;
}

/*
 * Ordering between the request word (normal memory) and the IPI device's
 * register (I/O: an MSWI's msip, or an IMSIC M-file's seteipnum).  RVWMO orders memory accesses among themselves only: .rl on the
 * AMO orders what came before it, not the MMIO store after it, and the
 * receiver's MMIO clear is not ordered before its AMO either.  Without the
 * fences a hart could see msip before the request bit (and find nothing),
 * or clear an msip raised for a request its exchange has already missed:
 * an IPI, and a remote fence waiting on it, would be lost.  An IMSIC's
 * clear is a claim through mtopei, a CSR write, which FENCE counts as
 * device output: the same "fence o, rw" orders it before the exchange.
 */
void sbi_ipi_raise(unsigned long index, unsigned long what)
{
	__atomic_fetch_or(&hart_scratch[index].ipi_pending, what, __ATOMIC_RELEASE);
	__asm__ __volatile__("fence rw, o" ::: "memory");	/* request, then msip */
	platform.ops.ipi_send(index);
}

void sbi_ipi_process(void)
{
	struct hart_scratch *me = this_hart();
	unsigned long pending;

	/* clear first: a request set after the exchange below raises it again */
	platform.ops.ipi_clear(me->index);
	__asm__ __volatile__("fence o, rw" ::: "memory");	/* msip clear, then exchange */
	pending = __atomic_exchange_n(&me->ipi_pending, 0, __ATOMIC_ACQUIRE);
	pending &= (1UL << IPI_COUNT) - 1;
	/* at most IPI_COUNT steps, one table look-up per pending bit */
	for (unsigned int bit = 0; pending; bit++, pending >>= 1)
		if (pending & 1)
			ipi_handlers[bit]();
}

void sbi_ipi_poll(void)
{
	if (!(csr_read(mip) & platform.ipi_mip))
		return;
	sbi_ipi_process();
	/*
	 * SSE: an event another hart made due here is delivered on the way
	 * out of a trap; inside this ecall there is none, so trap again
	 * once back in S-mode (a stopped hart waiting for its start has no
	 * S-mode to go back to).
	 */
	if (this_hart()->sse.pending && hsm_hart_interruptible(this_hart_index()))
		platform.ops.ipi_send(this_hart_index());
}
