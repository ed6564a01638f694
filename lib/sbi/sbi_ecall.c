// SPDX-License-Identifier: BSD-2-Clause
/* The ecall dispatcher: one lookup from EID to extension, then its handler. */
#include <tally/fw_event.h>
#include <tally/sbi.h>
#include <tally/trap.h>

/* Sorted by EID so that lookup is a binary search (checked by a unit test). */
const struct sbi_extension *const sbi_extensions[] = {
	&sbi_ext_legacy,	/* 0x00 - 0x08 */
	&sbi_ext_base,		/* 0x10 */
	&sbi_ext_hsm,		/* 0x48534d */
	&sbi_ext_pmu,		/* 0x504d55 */
	&sbi_ext_ipi,		/* 0x735049 */
	&sbi_ext_dbcn,		/* 0x4442434e */
	&sbi_ext_rfence,	/* 0x52464e43 */
	&sbi_ext_srst,		/* 0x53525354 */
	&sbi_ext_time,		/* 0x54494d45 */
};
const unsigned long sbi_extension_count =
	sizeof(sbi_extensions) / sizeof(sbi_extensions[0]);

const struct sbi_extension *sbi_ext_find(unsigned long eid)
{
	unsigned long lo = 0, hi = sbi_extension_count;

	while (lo < hi) {
		unsigned long mid = lo + (hi - lo) / 2;
		const struct sbi_extension *ext = sbi_extensions[mid];

		if (eid < ext->eid_first)
			hi = mid;
		else if (eid > ext->eid_last)
			lo = mid + 1;
		else
			return ext;
	}
	return 0;
}

bool sbi_ext_available(unsigned long eid)
{
	const struct sbi_extension *ext = sbi_ext_find(eid);

	return ext && (!ext->available || ext->available());
}

void sbi_ecall_handle(struct trap_frame *tf)
{
	unsigned long eid = tf->regs[REG_A7];
	const struct sbi_extension *ext = sbi_ext_find(eid);
	struct sbiret ret;

	fw_event(FW_EV_TALLY_ECALL);
	tf->mepc += 4;		/* return past the ecall, also for calls that jump */
	if (!ext || (ext->available && !ext->available()))
		ret = sbi_err(SBI_ERR_NOT_SUPPORTED);
	else
		ret = ext->handle(tf->regs[REG_A6], &tf->regs[REG_A0], tf);
	tf->regs[REG_A0] = (unsigned long)ret.error;
	/* legacy (v0.1) calls return their value in a0 alone */
	if (eid > sbi_ext_legacy.eid_last)
		tf->regs[REG_A1] = ret.value;
}
