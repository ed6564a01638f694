// SPDX-License-Identifier: BSD-2-Clause
/*
 * The ecall dispatcher.  An ecall from S-mode comes straight here from the
 * trap entry (firmware/fw_base.S), which has already stepped mepc past the
 * ecall; a switch on the EID picks the extension, whose handler was looked
 * up at boot if the extension is available on this machine.
 */
#include <stdint.h>
#include <tally/console.h>
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

/*
 * The ecall path's lookup: an open-addressed hash table of every EID of
 * the live extensions (the legacy range EID by EID), filled once by
 * sbi_ecall_init().  ecall_hash() multiplies the EID's low 32 bits by a
 * constant chosen so that every EID Tally has today lands in a slot of its
 * own (the unit test checks it); a later EID that collides still works,
 * one slot further (linear probing; the table is never more than half
 * full).  A hit costs one multiply, two loads and a compare; an unknown
 * EID ends at the empty slot it hashes to.  The switch above answers the
 * cold questions (banner, probe_extension).
 */
#define ECALL_SLOT_BITS		6
#define ECALL_SLOTS		(1U << ECALL_SLOT_BITS)
#ifndef ECALL_HASH_MUL		/* a unit-test build sets 1: every EID collides */
#define ECALL_HASH_MUL		0x06839EB9U
#endif
#define ECALL_RANGE_MAX		16	/* EIDs one extension may put in */

struct ecall_slot {
	unsigned long eid;
	const struct sbi_extension *ext;	/* NULL: empty */
};

static struct ecall_slot ecall_slots[ECALL_SLOTS];
static unsigned int ecall_slots_used;

static unsigned int ecall_hash(unsigned long eid)
{
	return ((uint32_t)eid * ECALL_HASH_MUL) >> (32 - ECALL_SLOT_BITS);
}

/* A collision: the slots after the EID's own, up to an empty one. */
static __attribute__((noinline)) const struct sbi_extension *
ecall_probe(unsigned long eid, unsigned int i)
{
	for (;; i = (i + 1) % ECALL_SLOTS) {
		const struct ecall_slot *s = &ecall_slots[i];

		if (!s->ext || s->eid == eid)
			return s->ext;
	}
}

static inline const struct sbi_extension *ecall_lookup(unsigned long eid)
{
	unsigned int i = ecall_hash(eid);
	const struct ecall_slot *s = &ecall_slots[i];

	if (__builtin_expect(!s->ext || s->eid == eid, 1))
		return s->ext;
	return ecall_probe(eid, (i + 1) % ECALL_SLOTS);
}

/* false if the table has no room left (never with today's extensions) */
static bool ecall_insert(unsigned long eid, const struct sbi_extension *ext)
{
	unsigned int i = ecall_hash(eid);

	if (ecall_slots_used >= ECALL_SLOTS / 2)
		return false;
	ecall_slots_used++;
	while (ecall_slots[i].ext)
		i = (i + 1) % ECALL_SLOTS;
	ecall_slots[i].eid = eid;
	ecall_slots[i].ext = ext;
	return true;
}

/* How many slots the lookup of eid reads (1: the EID's own); for tests. */
unsigned int sbi_ecall_lookup_slots(unsigned long eid)
{
	unsigned int i = ecall_hash(eid), n = 1;

	while (ecall_slots[i].ext && ecall_slots[i].eid != eid) {
		i = (i + 1) % ECALL_SLOTS;
		n++;
	}
	return n;
}

void sbi_ecall_init(void)
{
	for (unsigned int i = 0; i < ECALL_SLOTS; i++)
		ecall_slots[i].ext = 0;
	ecall_slots_used = 0;
	for (unsigned long i = 0; i < EXT_COUNT; i++) {
		const struct sbi_extension *ext = sbi_extensions[i];

		sbi_ext_live[i] = !ext->available || ext->available() ? ext : 0;
		if (!sbi_ext_live[i])
			continue;
		if (ext->eid_last - ext->eid_first >= ECALL_RANGE_MAX) {
			printf("Tally: %s: EID range too wide for the ecall table\n",
			       ext->name);
			continue;
		}
		for (unsigned long eid = ext->eid_first; eid <= ext->eid_last; eid++)
			if (!ecall_insert(eid, ext))
				printf("Tally: ecall table full at EID 0x%lx\n", eid);
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

/* A counter of the ecall firmware event runs: count, then dispatch. */
static __attribute__((noinline)) struct sbiret
ecall_counted(struct trap_frame *tf, const struct sbi_extension *ext)
{
	fw_event(FW_EV_TALLY_ECALL);
	if (!ext)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	return ext->handle(tf->regs[REG_A6], &tf->regs[REG_A0], tf);
}

/*
 * Without a running ecall counter the common path calls nothing but the
 * handler, as a tail call: it needs no stack frame.
 */
struct sbiret sbi_ecall_handle(struct trap_frame *tf)
{
	const struct sbi_extension *ext = ecall_lookup(tf->regs[REG_A7]);

	if (__builtin_expect(fw_event_pending(FW_EV_TALLY_ECALL), 0))
		return ecall_counted(tf, ext);
	if (!ext)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	return ext->handle(tf->regs[REG_A6], &tf->regs[REG_A0], tf);
}
