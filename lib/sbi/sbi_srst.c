// SPDX-License-Identifier: BSD-2-Clause
/* System reset extension "SRST". */
#include <tally/console.h>
#include <tally/platform.h>
#include <tally/sbi.h>

/*
 * A reset device acts after the write that asks for it: QEMU 11's
 * shutdown request is served by its main loop while the hart runs on, and
 * on a fast CPU model (tt-ascalon) the call came back before it.  Wait up
 * to a second of the platform's time (or a long spin without a timer)
 * before saying the device did not act.
 */
static void wait_for_reset(void)
{
	if (platform.ops.timer_value && platform.timebase_hz) {
		uint64_t end = platform.ops.timer_value() + platform.timebase_hz;

		while (platform.ops.timer_value() < end)
			;
	} else {
		for (volatile unsigned long i = 0; i < 100000000UL; i++)
			;
	}
}

static const char *const reset_type_names[] = { "shutdown", "cold reboot", "warm reboot" };

struct sbiret sbi_system_reset(unsigned long type, unsigned long reason)
{
	if (type > SBI_SRST_TYPE_WARM_REBOOT &&
	    !(type >= SBI_SRST_TYPE_VENDOR_FIRST && type <= SBI_SRST_TYPE_VENDOR_LAST))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (reason > SBI_SRST_REASON_SYSFAIL &&
	    !(reason >= SBI_SRST_REASON_IMPL_FIRST && reason <= SBI_SRST_REASON_IMPL_LAST))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (type > SBI_SRST_TYPE_WARM_REBOOT || !platform.ops.system_reset ||
	    !(platform.reset_types & SRST_TYPE_BIT(type)))
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	printf("\nTally: system reset: %s%s\n", reset_type_names[type],
	       reason == SBI_SRST_REASON_SYSFAIL ? " (system failure)" : "");
	platform.ops.system_reset(type, reason);
	wait_for_reset();
	return sbi_err(SBI_ERR_FAILED);		/* the device did not act */
}

static struct sbiret srst_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	if (fid != SBI_EXT_SRST_RESET)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	/* reset_type and reset_reason are uint32_t: their low 32 bits only */
	return sbi_system_reset(sbi_arg_u32(args[0]), sbi_arg_u32(args[1]));
}

static bool srst_available(void)
{
	return platform.ops.system_reset && platform.reset_types;
}

const struct sbi_extension sbi_ext_srst = {
	.eid_first = SBI_EXT_SRST,
	.eid_last = SBI_EXT_SRST,
	.name = "SRST",
	.available = srst_available,
	.handle = srst_handle,
};
