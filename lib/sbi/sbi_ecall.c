// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ecall dispatcher.  An ecall from S-mode comes straight here from the
 * trap entry (firmware/fw_base.S), which has already stepped mepc past the
 * ecall; a switch on the EID picks the extension, whose handler was looked
 * up at boot if the extension is available on this machine.
 */
#include <tally/fw_event.h>
#include <tally/sbi.h>
#include <tally/trap.h>

/* Indices of sbi_extensions[], in EID order. */
enum {
	EXT_LEGACY,	/* 0x00 - 0x08 */
	EXT_BASE,	/* 0x10 */
	EXT_HSM,	/* 0x48534d */
	EXT_PMU,	/* 0x504d55 */
	EXT_SSE,	/* 0x535345 */
	EXT_IPI,	/* 0x735049 */
	EXT_DBCN,	/* 0x4442434e */
	EXT_DBTR,	/* 0x44425452 */
	EXT_FWFT,	/* 0x46574654 */
	EXT_RFENCE,	/* 0x52464e43 */
	EXT_SRST,	/* 0x53525354 */
	EXT_SUSP,	/* 0x53555350 */
	EXT_TIME,	/* 0x54494d45 */
	EXT_COUNT
};

/* Every extension Tally has, sorted by EID (the banner lists them so). */
const struct sbi_extension *const sbi_extensions[EXT_COUNT] = {
	[EXT_LEGACY] = &sbi_ext_legacy,
	[EXT_BASE] = &sbi_ext_base,
	[EXT_HSM] = &sbi_ext_hsm,
	[EXT_PMU] = &sbi_ext_pmu,
	[EXT_SSE] = &sbi_ext_sse,
	[EXT_IPI] = &sbi_ext_ipi,
	[EXT_DBCN] = &sbi_ext_dbcn,
	[EXT_DBTR] = &sbi_ext_dbtr,
	[EXT_FWFT] = &sbi_ext_fwft,
	[EXT_RFENCE] = &sbi_ext_rfence,
	[EXT_SRST] = &sbi_ext_srst,
	[EXT_SUSP] = &sbi_ext_susp,
	[EXT_TIME] = &sbi_ext_time,
};
const unsigned long sbi_extension_count = EXT_COUNT;

/*
 * The extensions this machine has: sbi_extensions[i] if its available()
 * said yes at boot, else NULL.  What available() looks at (the platform's
 * devices, the PMU's set-up) is fixed once the cold-boot hart has run
 * sbi_ecall_init(), before any S-mode code runs, so it is asked once
 * instead of on every call.
 */
static const struct sbi_extension *sbi_ext_live[EXT_COUNT];

/*
 * The index of the extension that answers eid, or -1.  A switch rather
 * than a search of the table: GCC turns it into a handful of compares.
 * The unit test checks it against the table's EID ranges.
 */
static long sbi_ext_index(unsigned long eid)
{
	switch (eid) {
	case SBI_EXT_0_1_SET_TIMER ... SBI_EXT_0_1_SHUTDOWN:
		return EXT_LEGACY;
	case SBI_EXT_BASE:	return EXT_BASE;
	case SBI_EXT_HSM:	return EXT_HSM;
	case SBI_EXT_PMU:	return EXT_PMU;
	case SBI_EXT_SSE:	return EXT_SSE;
	case SBI_EXT_IPI:	return EXT_IPI;
	case SBI_EXT_DBCN:	return EXT_DBCN;
	case SBI_EXT_DBTR:	return EXT_DBTR;
	case SBI_EXT_FWFT:	return EXT_FWFT;
	case SBI_EXT_RFENCE:	return EXT_RFENCE;
	case SBI_EXT_SRST:	return EXT_SRST;
	case SBI_EXT_SUSP:	return EXT_SUSP;
	case SBI_EXT_TIME:	return EXT_TIME;
	default:		return -1;
	}
}

const struct sbi_extension *sbi_ext_find(unsigned long eid)
{
	long i = sbi_ext_index(eid);

	return i < 0 ? 0 : sbi_extensions[i];
}

void sbi_ecall_init(void)
{
	for (unsigned long i = 0; i < EXT_COUNT; i++) {
		const struct sbi_extension *ext = sbi_extensions[i];

		sbi_ext_live[i] = !ext->available || ext->available() ? ext : 0;
	}
}

bool sbi_ext_available(unsigned long eid)
{
	long i = sbi_ext_index(eid);

	return i >= 0 && sbi_ext_live[i];
}

bool sbi_ext_probe(unsigned long eid)
{
	long i = sbi_ext_index(eid);
	const struct sbi_extension *ext = i < 0 ? 0 : sbi_ext_live[i];

	return ext && (!ext->hart_available || ext->hart_available());
}

struct sbiret sbi_ecall_handle(struct trap_frame *tf)
{
	unsigned long eid = tf->regs[REG_A7];
	long i = sbi_ext_index(eid);
	const struct sbi_extension *ext = i < 0 ? 0 : sbi_ext_live[i];

	fw_event(FW_EV_TALLY_ECALL);
	if (!ext)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	return ext->handle(tf->regs[REG_A6], &tf->regs[REG_A0], tf);
}
