// SPDX-License-Identifier: BSD-2-Clause
/* IPI extension "sPI"; the request mechanism under it is lib/sbi/ipi.c. */
#include <tally/fw_event.h>
#include <tally/hart.h>
#include <tally/hsm_state.h>
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/sbi.h>

/* The target's side of IPI_SMODE (registered by sbi_ipi_init). */
static void ipi_smode_receive(void)
{
	fw_event(FW_EV_IPI_RECEIVED);
	csr_set(mip, MIP_SSIP);
}

void sbi_ipi_init(void)
{
	sbi_ipi_register(IPI_SMODE, ipi_smode_receive);
}

static struct sbiret ipi_send(unsigned long mask, unsigned long base)
{
	unsigned long self = this_hart_index(), h;	/* hart indices */
	struct hartmask targets;
	long err = hartmask_from_sbi(mask, base, &hart_map, &platform.harts, &targets);

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
