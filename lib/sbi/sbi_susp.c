// SPDX-License-Identifier: BSD-2-Clause
/*
 * System suspend extension "SUSP": SUSPEND_TO_RAM, the one sleep type of
 * SBI 3.0.  The call is refused unless every other hart is STOPPED.
 *
 * QEMU virt has no suspend hardware (no power controller to cut the
 * harts' power while RAM keeps its contents), so on it "suspend to RAM"
 * is what a non-retentive hart suspend of the last running hart is:
 * the hart saves its PMU state, sleeps in M-mode (wfi) until an
 * interrupt S-mode enabled before the call is pending (its timer, an
 * IPI, an external interrupt) or an SSE event is deliverable to it,
 * restores the PMU, FWFT and debug-trigger state and
 * resumes S-mode at resume_addr with a0 = hartid, a1 = opaque, satp = 0
 * and sstatus.SIE = 0.  The devices keep running meanwhile.  A board
 * with real suspend hardware would power down there instead (docs/sbi.md).
 */
#include <tally/hart.h>
#include <tally/sbi_hsm.h>
#include <tally/platform.h>
#include <tally/sbi.h>

static bool other_harts_stopped(unsigned long self)
{
	unsigned long h;

	for_each_hart_in(h, &platform.harts)
		if (h != self && !hsm_hart_stopped(h))
			return false;
	return true;
}

static struct sbiret susp_system_suspend(unsigned long sleep_type,
					 unsigned long resume_addr,
					 unsigned long opaque)
{
	/* reserved (1-0x7fffffff) or platform-specific: Tally defines none */
	if (sleep_type != SBI_SUSP_SLEEP_TYPE_SUSPEND_TO_RAM)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (!hsm_smode_entry_ok(resume_addr))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	if (!other_harts_stopped(this_hart_index()))
		return sbi_err(SBI_ERR_DENIED);
	/* nobody else runs S-mode, so no hart can be started meanwhile */
	return hsm_suspend_self(true, resume_addr, opaque);
}

static struct sbiret susp_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	if (fid != SBI_EXT_SUSP_SYSTEM_SUSPEND)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	/* sleep_type is a uint32_t: its low 32 bits only */
	return susp_system_suspend(sbi_arg_u32(args[0]), args[1], args[2]);
}

const struct sbi_extension sbi_ext_susp = {
	.eid_first = SBI_EXT_SUSP,
	.eid_last = SBI_EXT_SUSP,
	.name = "SUSP",
	.handle = susp_handle,
};
