// SPDX-License-Identifier: BSD-2-Clause
/*
 * The SBI extension registry and the ecall dispatcher.  The registry is
 * include/tally/sbi_ext_list.h, one line per extension; each extension
 * declares itself (EID range, handler, probes, per-hart hooks) in its own
 * file.  An ecall from S-mode comes straight here from the trap entry
 * (firmware/fw_base.S), which has already stepped mepc past the ecall; an
 * open-addressed hash table of the available extensions' EIDs, filled at
 * boot, finds the handler.
 */
#include <stdint.h>
#include <tally/console.h>
#include <tally/fw_event.h>
#include <tally/sbi.h>
#include <tally/trap.h>

#define SBI_EXT(name) extern const struct sbi_extension sbi_ext_##name;
#include <tally/sbi_ext_list.h>
#undef SBI_EXT

/* Every extension Tally has, sorted by EID (the banner lists them so). */
const struct sbi_extension *const sbi_extensions[] = {
#define SBI_EXT(name) &sbi_ext_##name,
#include <tally/sbi_ext_list.h>
#undef SBI_EXT
};
#define EXT_COUNT	(sizeof(sbi_extensions) / sizeof(sbi_extensions[0]))
const unsigned long sbi_extension_count = EXT_COUNT;

/* The cold questions (tests): a search of the registry. */
const struct sbi_extension *sbi_ext_find(unsigned long eid)
{
	for (unsigned long i = 0; i < EXT_COUNT; i++)
		if (eid >= sbi_extensions[i]->eid_first && eid <= sbi_extensions[i]->eid_last)
			return sbi_extensions[i];
	return 0;
}

/*
 * The per-hart hooks, on the calling hart.  Not a hot path: a hart runs
 * them when it starts, stops, or suspends without retention.
 */
void sbi_ext_hart_event(enum sbi_hart_event ev)
{
	for (unsigned long i = 0; i < EXT_COUNT; i++) {
		const struct sbi_extension *ext = sbi_extensions[i];
		void (*hook)(void) = ev == SBI_HART_INIT ? ext->hart_init :
				     ev == SBI_HART_STOP ? ext->hart_stop :
				     ev == SBI_HART_SUSPEND ? ext->hart_suspend :
				     ext->hart_resume;

		if (hook)
			hook();
	}
}

/*
 * The ecall path's lookup: an open-addressed hash table of every EID of
 * the live extensions (the legacy range EID by EID), filled once by
 * sbi_ecall_init().  ecall_hash() multiplies the EID's low 32 bits by a
 * constant chosen so that every EID Tally has today lands in a slot of its
 * own (the unit test checks it); a later EID that collides still works,
 * one slot further (linear probing; the table is never more than half
 * full).  A hit costs one multiply, two loads and a compare; an unknown
 * EID ends at the empty slot it hashes to.  It holds only the extensions
 * whose available() said yes at boot (what available() looks at, the
 * platform's devices and the PMU's set-up, is fixed once the cold-boot
 * hart has run sbi_ecall_init(), before any S-mode code runs), so it also
 * answers the banner and probe_extension.
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

		if (ext->available && !ext->available())
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
	return ecall_lookup(eid) != 0;
}

bool sbi_ext_probe(unsigned long eid)
{
	const struct sbi_extension *ext = ecall_lookup(eid);

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
