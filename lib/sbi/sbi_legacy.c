// SPDX-License-Identifier: BSD-2-Clause
/*
 * Legacy extensions (SBI v0.1, EIDs 0x00-0x08), still used by Linux's
 * earlycon=sbi and hvc console.  Return values go in a0 alone.  The
 * hart-mask arguments are S-mode virtual addresses, read through S-mode's
 * translation with a guarded load.
 */
#include <tally/console.h>
#include <tally/hart.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/sbi_time.h>
#include <tally/trap.h>

/* A NULL mask pointer means every hart. */
static bool legacy_read_mask(unsigned long vaddr, unsigned long *mask, unsigned long *base)
{
	struct hart_scratch *me = this_hart();

	*base = 0;
	if (!vaddr) {
		*base = (unsigned long)-1;
		*mask = 0;
		return true;
	}
	hart_guard_begin(me);
	*mask = smode_load_ulong(vaddr);
	me->guard = 0;
	return !me->guard_trapped;
}

static struct sbiret legacy_remote(unsigned long eid, const unsigned long *args)
{
	unsigned long mask, base;

	if (!legacy_read_mask(args[0], &mask, &base))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	if (eid == SBI_EXT_0_1_SEND_IPI)
		return sbi_ipi_send_many(mask, base);

	struct rfence_request r = { .start = args[1], .size = args[2], .asid = args[3] };
	if (eid == SBI_EXT_0_1_REMOTE_FENCE_I)
		r.type = SBI_EXT_RFENCE_REMOTE_FENCE_I;
	else if (eid == SBI_EXT_0_1_REMOTE_SFENCE_VMA)
		r.type = SBI_EXT_RFENCE_REMOTE_SFENCE_VMA;
	else
		r.type = SBI_EXT_RFENCE_REMOTE_SFENCE_VMA_ASID;
	return sbi_rfence_many(mask, base, &r);
}

static struct sbiret legacy_call(unsigned long eid, const unsigned long *args)
{
	switch (eid) {
	case SBI_EXT_0_1_SET_TIMER:
		sbi_timer_set(sbi_arg_u64(args, 0));
		return sbi_ok(0);
	case SBI_EXT_0_1_CONSOLE_PUTCHAR:
		console_putc((char)args[0]);
		return sbi_ok(0);
	case SBI_EXT_0_1_CONSOLE_GETCHAR:
		return sbi_err(console_getc());		/* the character, or -1 */
	case SBI_EXT_0_1_CLEAR_IPI:
		csr_clear(mip, MIP_SSIP);
		return sbi_ok(0);
	case SBI_EXT_0_1_SEND_IPI:
	case SBI_EXT_0_1_REMOTE_FENCE_I:
	case SBI_EXT_0_1_REMOTE_SFENCE_VMA:
	case SBI_EXT_0_1_REMOTE_SFENCE_VMA_ASID:
		return legacy_remote(eid, args);
	case SBI_EXT_0_1_SHUTDOWN:
		return sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_NONE);
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

static struct sbiret legacy_handle(unsigned long fid, const unsigned long *args,
				   struct trap_frame *tf)
{
	struct sbiret ret = legacy_call(tf->regs[REG_A7], args);

	(void)fid;
	/* v0.1 calls return their value in a0 alone: a1 goes back unchanged */
	return (struct sbiret){ ret.error, args[1] };
}

const struct sbi_extension sbi_ext_legacy = {
	.eid_first = SBI_EXT_0_1_SET_TIMER,
	.eid_last = SBI_EXT_0_1_SHUTDOWN,
	.name = "legacy",
	.handle = legacy_handle,
};
