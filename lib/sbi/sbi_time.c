// SPDX-License-Identifier: BSD-2-Clause
/*
 * Timer extension "TIME".  With Sstc the supervisor timer is stimecmp and
 * the hardware raises STIP itself; without it the machine timer is
 * programmed and its interrupt is turned into STIP here.
 */
#include <tally/fw_event.h>
#include <tally/hart.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/sbi_time.h>

void sbi_timer_set(uint64_t when)
{
	fw_event(FW_EV_SET_TIMER);
	if (platform.has_sstc) {
#if __riscv_xlen == 32
		csr_write(CSR_STIMECMP, ~0UL);	/* no early interrupt in between */
		csr_write(CSR_STIMECMPH, when >> 32);
#endif
		csr_write(CSR_STIMECMP, when);
		return;
	}
	platform.ops.timer_set(this_hart_index(), when);
	csr_clear(mip, MIP_STIP);
	csr_set(mie, MIP_MTIP);
}

void sbi_timer_process(void)
{
	csr_clear(mie, MIP_MTIP);
	csr_set(mip, MIP_STIP);
}

static void sbi_timer_hart_init(void)
{
	csr_clear(mie, MIP_MTIP);
	/*
	 * Disarm the machine timer even with Sstc: mtimecmp resets to 0, and
	 * a machine timer interrupt left pending forever makes wfi return at
	 * once (QEMU hung some 4-hart Linux boots that way).
	 */
	if (platform.ops.timer_set)
		platform.ops.timer_set(this_hart_index(), ~0ULL);
	if (platform.has_sstc) {
		csr_write(CSR_STIMECMP, ~0UL);
#if __riscv_xlen == 32
		csr_write(CSR_STIMECMPH, ~0UL);
#endif
	}
}

static struct sbiret time_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	if (fid != SBI_EXT_TIME_SET_TIMER)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	sbi_timer_set(sbi_arg_u64(args, 0));
	return sbi_ok(0);
}

static bool time_available(void)
{
	return platform.has_sstc || platform.ops.timer_set;
}

const struct sbi_extension sbi_ext_time = {
	.eid_first = SBI_EXT_TIME,
	.eid_last = SBI_EXT_TIME,
	.name = "TIME",
	.available = time_available,
	.handle = time_handle,
	.hart_init = sbi_timer_hart_init,
	.hart_stop = sbi_timer_hart_init,	/* no stale timer on the next start */
};
