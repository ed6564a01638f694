// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of the SBI core's pure logic: the dispatcher table, hart
 * set decoding, S-mode address validation and the time CSR's access rules.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <tally/hartmask.h>
#include <tally/memregion.h>
#include <tally/sbi.h>
#include <tally/emulate.h>
#include <tally/trap.h>
#include "check.h"

unsigned long test_fw_events;	/* stub/tally/fw_event.h */
bool test_fw_counting = true;

/*
 * The extensions, as stand-ins: their EID ranges, a handler that records
 * what it was called with, a per-hart hook that logs which extension's
 * hook ran, and for TIME and PMU an available() the test controls.
 */
static const struct sbi_extension *called_ext;
static unsigned long called_fid;
static const unsigned long *called_args;
static bool time_ok = true, pmu_ok;
static const struct sbi_extension *hook_log[32];
static unsigned int hook_count;

#define STUB_EXT(var, first, last, avail)					\
	extern const struct sbi_extension var;					\
	static struct sbiret var##_handle(unsigned long fid, const unsigned long *args, \
					  struct trap_frame *tf)		\
	{									\
		(void)tf;							\
		called_ext = &var;						\
		called_fid = fid;						\
		called_args = args;						\
		return sbi_ok(first);						\
	}									\
	static void var##_hook(void)						\
	{									\
		if (hook_count < sizeof(hook_log) / sizeof(hook_log[0]))	\
			hook_log[hook_count] = &var;				\
		hook_count++;							\
	}									\
	const struct sbi_extension var = { .eid_first = first, .eid_last = last, \
					   .name = #var, .available = avail,	\
					   .handle = var##_handle,		\
					   .hart_init = var##_hook,		\
					   .hart_stop = var##_hook,		\
					   .hart_suspend = var##_hook,		\
					   .hart_resume = var##_hook }
static bool stub_time_available(void) { return time_ok; }
static bool stub_pmu_available(void) { return pmu_ok; }
STUB_EXT(sbi_ext_legacy, 0x0, 0x8, NULL);
STUB_EXT(sbi_ext_base, SBI_EXT_BASE, SBI_EXT_BASE, NULL);
STUB_EXT(sbi_ext_time, SBI_EXT_TIME, SBI_EXT_TIME, stub_time_available);
STUB_EXT(sbi_ext_ipi, SBI_EXT_IPI, SBI_EXT_IPI, NULL);
STUB_EXT(sbi_ext_rfence, SBI_EXT_RFENCE, SBI_EXT_RFENCE, NULL);
STUB_EXT(sbi_ext_hsm, SBI_EXT_HSM, SBI_EXT_HSM, NULL);
STUB_EXT(sbi_ext_srst, SBI_EXT_SRST, SBI_EXT_SRST, NULL);
STUB_EXT(sbi_ext_dbcn, SBI_EXT_DBCN, SBI_EXT_DBCN, NULL);
STUB_EXT(sbi_ext_dbtr, SBI_EXT_DBTR, SBI_EXT_DBTR, NULL);
STUB_EXT(sbi_ext_pmu, SBI_EXT_PMU, SBI_EXT_PMU, stub_pmu_available);
STUB_EXT(sbi_ext_fwft, SBI_EXT_FWFT, SBI_EXT_FWFT, NULL);
STUB_EXT(sbi_ext_susp, SBI_EXT_SUSP, SBI_EXT_SUSP, NULL);
STUB_EXT(sbi_ext_sse, SBI_EXT_SSE, SBI_EXT_SSE, NULL);

/* What the dispatcher must find: the table's EID ranges, searched one by one. */
static const struct sbi_extension *reference_find(unsigned long eid)
{
	for (unsigned long i = 0; i < sbi_extension_count; i++)
		if (eid >= sbi_extensions[i]->eid_first && eid <= sbi_extensions[i]->eid_last)
			return sbi_extensions[i];
	return NULL;
}

static void test_dispatch_table(void)
{
	static const struct { unsigned long eid; const struct sbi_extension *ext; } cases[] = {
		{ 0x0, &sbi_ext_legacy }, { 0x8, &sbi_ext_legacy }, { 0x9, NULL },
		{ 0xf, NULL }, { SBI_EXT_BASE, &sbi_ext_base }, { 0x11, NULL },
		{ SBI_EXT_TIME, &sbi_ext_time }, { SBI_EXT_IPI, &sbi_ext_ipi },
		{ SBI_EXT_RFENCE, &sbi_ext_rfence }, { SBI_EXT_HSM, &sbi_ext_hsm },
		{ SBI_EXT_SRST, &sbi_ext_srst }, { SBI_EXT_DBCN, &sbi_ext_dbcn },
		{ SBI_EXT_DBTR, &sbi_ext_dbtr },
		{ SBI_EXT_PMU, &sbi_ext_pmu }, { SBI_EXT_FWFT, &sbi_ext_fwft },
		{ SBI_EXT_SUSP, &sbi_ext_susp }, { SBI_EXT_SSE, &sbi_ext_sse },
		{ 0x12345678, NULL },
		{ (unsigned long)-1, NULL }, { SBI_EXT_TIME + 1, NULL },
		{ SBI_EXT_TIME + (1UL << 32), NULL }, { 0x10 + (1UL << 32), NULL },
	};
	bool once = true;

	for (unsigned long i = 1; i < sbi_extension_count; i++)
		CHECK(sbi_extensions[i - 1]->eid_last < sbi_extensions[i]->eid_first,
		      "dispatch table sorted and disjoint at %lu", i);
	CHECK(sbi_extension_count == 13, "thirteen extensions registered (got %lu)",
	      sbi_extension_count);
	for (unsigned long i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(sbi_ext_find(cases[i].eid) == cases[i].ext,
		      "EID 0x%lx finds %s", cases[i].eid,
		      cases[i].ext ? cases[i].ext->name : "nothing");
	/* the switch and the table agree at both ends of every range and beside them */
	for (unsigned long i = 0; i < sbi_extension_count; i++) {
		const struct sbi_extension *ext = sbi_extensions[i];
		unsigned long probes[] = { ext->eid_first - 1, ext->eid_first,
					   ext->eid_last, ext->eid_last + 1 };
		bool ok = true;

		for (unsigned long j = 0; j < 4; j++)
			ok &= sbi_ext_find(probes[j]) == reference_find(probes[j]);
		CHECK(ok, "the switch agrees with the table around %s", ext->name);
		for (unsigned long j = 0; j < i; j++)
			once &= sbi_extensions[j] != ext;
	}
	CHECK(once, "every extension is listed once");
}

static void test_dispatch_calls(void)
{
	struct trap_frame tf = { .regs = { 0 } };
	struct sbiret ret;
	unsigned long events;

	/* availability is asked once, at boot: later changes do not count */
	time_ok = true;
	pmu_ok = false;
	sbi_ecall_init();
	pmu_ok = true;
	CHECK(sbi_ext_available(SBI_EXT_TIME) && sbi_ext_available(SBI_EXT_BASE) &&
	      sbi_ext_available(0x3), "TIME, BASE and legacy available");
	CHECK(!sbi_ext_available(SBI_EXT_PMU), "PMU unavailable as at boot");
	CHECK(!sbi_ext_available(0x9) && !sbi_ext_available(0x12345678),
	      "an unknown EID is unavailable");

	tf.regs[REG_A7] = SBI_EXT_TIME;
	tf.regs[REG_A6] = 7;
	events = test_fw_events;
	called_ext = NULL;
	ret = sbi_ecall_handle(&tf);
	CHECK(called_ext == &sbi_ext_time && called_fid == 7 && called_args == &tf.regs[REG_A0] &&
	      ret.error == SBI_SUCCESS && ret.value == SBI_EXT_TIME,
	      "an ecall reaches its extension with a6 as FID and a0.. as arguments");
	CHECK(test_fw_events == events + 1, "an ecall counts one firmware event");

	tf.regs[REG_A7] = SBI_EXT_PMU;
	called_ext = NULL;
	ret = sbi_ecall_handle(&tf);
	CHECK(!called_ext && ret.error == SBI_ERR_NOT_SUPPORTED,
	      "an unavailable extension answers NOT_SUPPORTED");
	tf.regs[REG_A7] = 0x0F000000;
	ret = sbi_ecall_handle(&tf);
	CHECK(!called_ext && ret.error == SBI_ERR_NOT_SUPPORTED && ret.value == 0,
	      "an unknown EID answers NOT_SUPPORTED");
	CHECK(test_fw_events == events + 3, "every ecall counts, answered or not");

	/* without a running ecall counter: the path that counts nothing */
	test_fw_counting = false;
	events = test_fw_events;
	tf.regs[REG_A7] = SBI_EXT_TIME;
	ret = sbi_ecall_handle(&tf);
	CHECK(called_ext == &sbi_ext_time && ret.value == SBI_EXT_TIME,
	      "no ecall counter running: the call still reaches its extension");
	tf.regs[REG_A7] = 0x0F000000;
	called_ext = NULL;
	ret = sbi_ecall_handle(&tf);
	CHECK(!called_ext && ret.error == SBI_ERR_NOT_SUPPORTED &&
	      test_fw_events == events,
	      "... an unknown EID NOT_SUPPORTED; nothing counted");
	test_fw_counting = true;

	pmu_ok = false;
	sbi_ecall_init();	/* leave the table as the other tests expect */
}

/*
 * The ecall path's hash table against the reference: every EID at and
 * beside every range, EIDs with upper bits (RV64), and pseudo-random ones;
 * with and without a running ecall counter.  Built once with the real
 * multiplier (every EID Tally has in a slot of its own) and once with
 * ECALL_HASH_MUL=1 (all of them collide: the probing path).
 */
static void test_dispatch_hash(void)
{
	struct trap_frame tf = { .regs = { 0 } };
	unsigned long eids[4096], n = 0, x = 0x9E3779B97F4A7C15UL;
	unsigned int wrong = 0, own = 0, all = 0, max_slots = 0;

	time_ok = true;
	pmu_ok = true;
	sbi_ecall_init();
	for (unsigned long i = 0; i < sbi_extension_count; i++) {
		const struct sbi_extension *ext = sbi_extensions[i];

		for (unsigned long e = ext->eid_first - 1; e <= ext->eid_last + 1; e++) {
			eids[n++] = e;
#if ULONG_MAX > 0xFFFFFFFFUL
			eids[n++] = e + (1UL << 32);	/* same low 32 bits */
#endif
		}
		for (unsigned long e = ext->eid_first; e <= ext->eid_last; e++) {
			unsigned int slots = sbi_ecall_lookup_slots(e);

			own += slots == 1;
			all++;
			if (slots > max_slots)
				max_slots = slots;
		}
	}
	while (n < sizeof(eids) / sizeof(eids[0])) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		eids[n] = n & 1 ? x : (x & 0xFFFFFFFFUL);
		n++;
	}
	for (int counting = 0; counting <= 1; counting++) {
		test_fw_counting = counting;
		for (unsigned long i = 0; i < n; i++) {
			const struct sbi_extension *want = reference_find(eids[i]);
			struct sbiret ret;

			tf.regs[REG_A7] = eids[i];
			called_ext = NULL;
			ret = sbi_ecall_handle(&tf);
			if (want ? called_ext != want || ret.value != want->eid_first :
				   called_ext || ret.error != SBI_ERR_NOT_SUPPORTED)
				wrong++;
		}
	}
	test_fw_counting = true;
	CHECK(wrong == 0, "the ecall hash table finds what the table says for %lu EIDs "
	      "(%u wrong)", 2 * n, wrong);
#ifdef ECALL_HASH_MUL
	CHECK(max_slots > 1, "with ECALL_HASH_MUL=%u the EIDs collide (up to %u slots "
	      "read): the probing path was taken", (unsigned int)ECALL_HASH_MUL, max_slots);
#else
	CHECK(own == all, "each of the %u EIDs Tally answers is in a slot of its own "
	      "(%u are)", all, own);
#endif
	pmu_ok = false;
	sbi_ecall_init();
}

/*
 * The per-hart hooks: each event runs the hook of every registered
 * extension once, in registry (EID) order, available or not (PMU is not,
 * here).
 */
static void test_hart_hooks(void)
{
	static const char *const names[] = { "init", "stop", "suspend", "resume" };

	pmu_ok = false;
	sbi_ecall_init();
	for (int ev = SBI_HART_INIT; ev <= SBI_HART_RESUME; ev++) {
		bool in_order = true;

		hook_count = 0;
		sbi_ext_hart_event(ev);
		for (unsigned long i = 0; i < sbi_extension_count && i < hook_count; i++)
			in_order &= hook_log[i] == sbi_extensions[i];
		CHECK(hook_count == sbi_extension_count && in_order,
		      "hart %s runs the hook of each of the %lu extensions once, in EID order "
		      "(%u ran)", names[ev], sbi_extension_count, hook_count);
	}
}

static struct hartmask harts_of(const unsigned long *ids, int n)
{
	struct hartmask m;

	hartmask_clear(&m);
	for (int i = 0; i < n; i++)
		hartmask_set(&m, ids[i]);
	return m;
}

/* Hart ids 0..TALLY_MAX_HARTS-1 in order: every id is its index. */
static struct hart_map ident;

static void make_ident(void)
{
	hart_map_clear(&ident);
	for (unsigned long i = 0; i < TALLY_MAX_HARTS; i++)
		hart_map_add(&ident, i);
}

static void test_hartmask(void)
{
	const unsigned long four[] = { 0, 1, 2, 3 }, sparse[] = { 1, 5 };
	struct hartmask valid = harts_of(four, 4), out;

	CHECK(hartmask_from_sbi(0x5, 0, &ident, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 0) && hartmask_test(&out, 2) && !hartmask_test(&out, 1),
	      "mask 0b101 base 0 names harts 0 and 2");
	CHECK(hartmask_from_sbi(0x3, 2, &ident, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 2) && hartmask_test(&out, 3) && !hartmask_test(&out, 0),
	      "mask 0b11 base 2 names harts 2 and 3");
	CHECK(hartmask_from_sbi(0, (unsigned long)-1, &ident, &valid, &out) == SBI_SUCCESS &&
	      memcmp(&out, &valid, sizeof(out)) == 0, "base -1 selects every valid hart");
	CHECK(hartmask_from_sbi(0, 0, &ident, &valid, &out) == SBI_SUCCESS && !hartmask_test(&out, 0),
	      "mask 0 names no hart and succeeds");
	CHECK(hartmask_from_sbi(0x1, 4, &ident, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "a hart beyond the machine is INVALID_PARAM");
	CHECK(hartmask_from_sbi(0x3, 3, &ident, &valid, &out) == SBI_ERR_INVALID_PARAM &&
	      !hartmask_test(&out, 3), "one bad hart fails the whole set, nothing named");
	CHECK(hartmask_from_sbi(0x1, 1000, &ident, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "base 1000 is INVALID_PARAM");
	CHECK(hartmask_from_sbi(0x2, (unsigned long)-2, &ident, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "base + bit wrapping to 0 is INVALID_PARAM, not hart 0");
	CHECK(hartmask_from_sbi(1UL << (BITS_PER_LONG - 1), 0, &ident, &valid, &out) ==
	      SBI_ERR_INVALID_PARAM, "the top mask bit names a hart beyond TALLY_MAX_HARTS");
	struct hartmask holes = harts_of(sparse, 2);
	CHECK(hartmask_from_sbi(0x2, 0, &ident, &holes, &out) == SBI_SUCCESS,
	      "sparse hart IDs: hart 1 valid");
	CHECK(hartmask_from_sbi(0x4, 0, &ident, &holes, &out) == SBI_ERR_INVALID_PARAM,
	      "sparse hart IDs: hart 2 (a hole) invalid");
}

/* hartmask_from_sbi as it was first written, one bit at a time: the reference. */
static long reference_from_sbi(unsigned long mask, unsigned long base,
			       const struct hartmask *valid, struct hartmask *out)
{
	hartmask_clear(out);
	if (base == (unsigned long)-1) {
		*out = *valid;
		return SBI_SUCCESS;
	}
	for (unsigned long bit = 0; mask; bit++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		if (base > (unsigned long)-1 - bit || !hartmask_test(valid, base + bit)) {
			hartmask_clear(out);
			return SBI_ERR_INVALID_PARAM;
		}
		hartmask_set(out, base + bit);
	}
	return SBI_SUCCESS;
}

static unsigned long rng_state = 0x54414c59;

static unsigned long rng(void)
{
	/* xorshift64: repeatable */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void test_hartmask_walk(void)
{
	unsigned long bad_decode = 0, bad_walk = 0, decodes = 0;

	for (int round = 0; round < 20000; round++) {
		struct hartmask valid, out, ref, seen;
		unsigned long mask, base, h, last = 0;
		bool first = true, ordered = true;

		hartmask_clear(&valid);
		for (unsigned long i = 0; i < TALLY_MAX_HARTS; i++)
			if (rng() % 8 != 0 || round % 3 == 0)
				hartmask_set(&valid, i);
		/* masks: few bits, dense, or anything; bases near and beyond the end */
		switch (round % 4) {
		case 0:	mask = 1UL << (rng() % BITS_PER_LONG); break;
		case 1:	mask = rng() & rng() & rng(); break;
		case 2:	mask = rng(); break;
		default: mask = rng() >> (rng() % BITS_PER_LONG); break;
		}
		switch (round % 5) {
		case 0:	base = rng() % (TALLY_MAX_HARTS + 2); break;
		case 1:	base = (unsigned long)-1 - rng() % 4; break;
		case 2:	base = rng(); break;
		default: base = rng() % 8; break;
		}
		long err = hartmask_from_sbi(mask, base, &ident, &valid, &out);
		long rerr = reference_from_sbi(mask, base, &valid, &ref);
		decodes++;
		if (err != rerr || memcmp(&out, &ref, sizeof(out)) != 0)
			bad_decode++;
		/* the walk visits exactly the set harts, in increasing order */
		hartmask_clear(&seen);
		for_each_hart_in(h, &valid) {
			if (!first && h <= last)
				ordered = false;
			first = false;
			last = h;
			hartmask_set(&seen, h);
		}
		if (!ordered || memcmp(&seen, &valid, sizeof(seen)) != 0)
			bad_walk++;
	}
	CHECK(!bad_decode, "hartmask_from_sbi agrees with the bit-by-bit reference "
	      "(%lu of %lu differ, %d harts)", bad_decode, decodes, TALLY_MAX_HARTS);
	CHECK(!bad_walk, "for_each_hart_in visits every set hart once, in order (%lu bad)",
	      bad_walk);
}

/* lib/utils/bitops.c: the firmware's __builtin_ctzl/clzl without Zbb */
int __ctzdi2(unsigned long x);
int __clzdi2(unsigned long x);

/* The index of id by a walk over the map's ids: the reference. */
static unsigned long reference_index(const struct hart_map *m, unsigned long id)
{
	for (unsigned long i = 0; i < m->count; i++)
		if (m->id[i] == id)
			return i;
	return HART_INDEX_NONE;
}

static long reference_from_map(unsigned long mask, unsigned long base, const struct hart_map *m,
			       const struct hartmask *valid, struct hartmask *out)
{
	hartmask_clear(out);
	if (base == (unsigned long)-1) {
		*out = *valid;
		return SBI_SUCCESS;
	}
	for (unsigned long bit = 0; mask; bit++, mask >>= 1) {
		unsigned long index;

		if (!(mask & 1))
			continue;
		index = base > (unsigned long)-1 - bit ? HART_INDEX_NONE
						       : reference_index(m, base + bit);
		if (index == HART_INDEX_NONE || !hartmask_test(valid, index)) {
			hartmask_clear(out);
			return SBI_ERR_INVALID_PARAM;
		}
		hartmask_set(out, index);
	}
	return SBI_SUCCESS;
}

static struct hartmask all_indices(const struct hart_map *m)
{
	struct hartmask v;

	hartmask_clear(&v);
	for (unsigned long i = 0; i < m->count; i++)
		hartmask_set(&v, i);
	return v;
}

static void test_hart_map(void)
{
	/* devicetree order, not sorted; ids far above TALLY_MAX_HARTS */
	const unsigned long ids[] = { 1000, 0, 7, 4095, (unsigned long)-2 };
	struct hart_map m;
	struct hartmask valid, out;
	bool ok = true;

	hart_map_clear(&m);
	for (unsigned long i = 0; i < 5; i++)
		ok &= hart_map_add(&m, ids[i]);
	CHECK(ok && m.count == 5 && !m.identity, "hart map: 5 sparse ids get indices 0..4");
	for (unsigned long i = 0; i < 5; i++)
		ok &= hart_map_index(&m, ids[i]) == i && m.id[i] == ids[i];
	CHECK(ok, "hart map: each id finds its index (devicetree order), and back");
	CHECK(hart_map_index(&m, 1) == HART_INDEX_NONE && hart_map_index(&m, 8) == HART_INDEX_NONE &&
	      hart_map_index(&m, 4096) == HART_INDEX_NONE &&
	      hart_map_index(&m, (unsigned long)-1) == HART_INDEX_NONE &&
	      hart_map_index(&m, 999) == HART_INDEX_NONE,
	      "hart map: ids it does not have, ~0UL included, have no index");
	CHECK(!hart_map_add(&m, 7) && m.count == 5, "hart map: an id twice is refused");
	valid = all_indices(&m);
	CHECK(hartmask_from_sbi(1, 4095, &m, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 3) && !hartmask_test(&out, 0),
	      "hart_mask 1, base 4095 names index 3");
	CHECK(hartmask_from_sbi(0x81, 0, &m, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 1) && hartmask_test(&out, 2) && !hartmask_test(&out, 0),
	      "hart_mask 0x81, base 0 names ids 0 and 7: indices 1 and 2");
	CHECK(hartmask_from_sbi(0x3, 0, &m, &valid, &out) == SBI_ERR_INVALID_PARAM &&
	      !hartmask_test(&out, 1), "hart id 1 (a hole) fails the whole set, nothing named");
	CHECK(hartmask_from_sbi(1, (unsigned long)-2, &m, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 4), "hart id ~0UL - 1 is a hart like any other");
	CHECK(hartmask_from_sbi(0x3, (unsigned long)-2, &m, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "hart_mask_base ~0UL - 1 with 2 bits: id ~0UL is no hart");
	CHECK(hartmask_from_sbi(0x5, (unsigned long)-2, &m, &valid, &out) ==
	      SBI_ERR_INVALID_PARAM && !hartmask_test(&out, 1),
	      "hart_mask_base + bit wrapping to id 0 is INVALID_PARAM, not hart 0");
	CHECK(hartmask_from_sbi(1UL << (BITS_PER_LONG - 1), 4095 - (BITS_PER_LONG - 1), &m,
				&valid, &out) == SBI_SUCCESS && hartmask_test(&out, 3),
	      "the top mask bit reaches id 4095");
	CHECK(hartmask_from_sbi(0, (unsigned long)-1, &m, &valid, &out) == SBI_SUCCESS &&
	      memcmp(&out, &valid, sizeof(out)) == 0, "base -1 selects every valid index");
	hartmask_clear(&valid);
	hartmask_set(&valid, 1);
	CHECK(hartmask_from_sbi(1, 1000, &m, &valid, &out) == SBI_ERR_INVALID_PARAM &&
	      hartmask_from_sbi(1, 0, &m, &valid, &out) == SBI_SUCCESS,
	      "a mapped hart outside 'valid' (not offered to S-mode) is INVALID_PARAM");

	/* full: TALLY_MAX_HARTS harts at most, whatever their ids */
	hart_map_clear(&m);
	ok = true;
	for (unsigned long i = 0; i < TALLY_MAX_HARTS; i++)
		ok &= hart_map_add(&m, 0x10000000UL + 3 * (TALLY_MAX_HARTS - i));
	CHECK(ok && !hart_map_add(&m, 5) && m.count == TALLY_MAX_HARTS &&
	      hart_map_index(&m, 5) == HART_INDEX_NONE &&
	      hart_map_index(&m, 0x10000000UL + 3) == TALLY_MAX_HARTS - 1,
	      "hart map: TALLY_MAX_HARTS (%d) harts with large ids; one more is refused",
	      TALLY_MAX_HARTS);

	/* identity only while every id is its index */
	hart_map_clear(&m);
	hart_map_add(&m, 0);
	hart_map_add(&m, 1);
	ok = m.identity;
	hart_map_add(&m, 3);
	CHECK(ok && !m.identity && hart_map_index(&m, 3) == 2 && hart_map_index(&m, 2) ==
	      HART_INDEX_NONE, "hart map: ids 0, 1, 3 are no identity (3 is index 2)");

	/* random sparse maps against the reference */
	unsigned long bad = 0, runs = 0;
	for (int round = 0; round < 5000; round++) {
		struct hartmask ref;
		unsigned long n = 1 + rng() % TALLY_MAX_HARTS, mask, base, spread;

		spread = round % 3 == 0 ? 2 : round % 3 == 1 ? 70 : (unsigned long)-1;
		hart_map_clear(&m);
		while (m.count < n)
			hart_map_add(&m, round % 7 == 0 ? (unsigned long)-1 - rng() % 1000
							: rng() % (spread * TALLY_MAX_HARTS));
		hartmask_clear(&valid);
		for (unsigned long i = 0; i < m.count; i++)
			if (rng() % 8)
				hartmask_set(&valid, i);
		mask = round % 2 ? rng() : 1UL << (rng() % BITS_PER_LONG);
		switch (round % 4) {
		case 0:	base = m.id[rng() % m.count] - rng() % 8; break;
		case 1:	base = (unsigned long)-1 - rng() % 70; break;
		case 2:	base = rng(); break;
		default: base = rng() % 8; break;
		}
		for (unsigned long i = 0; i < m.count; i++)
			bad += hart_map_index(&m, m.id[i]) != i;
		bad += hart_map_index(&m, base) != reference_index(&m, base);
		bad += hartmask_from_sbi(mask, base, &m, &valid, &out) !=
		       reference_from_map(mask, base, &m, &valid, &ref) ||
		       memcmp(&out, &ref, sizeof(out)) != 0;
		runs++;
	}
	CHECK(!bad, "random sparse hart maps: look-ups and decodes agree with a walk "
	      "(%lu of %lu rounds differ)", bad, runs);
}

static void test_bitops(void)
{
	bool ok = true;

	for (unsigned long i = 0; i < 64; i++) {
		unsigned long one = 1UL << i;

		ok &= __ctzdi2(one) == (int)i && __ctzdi2(one | ~(one - 1)) == (int)i &&
		      __clzdi2(one) == (int)(63 - i) && __clzdi2(one | (one - 1)) == (int)(63 - i);
	}
	for (int round = 0; round < 10000; round++) {
		unsigned long x = rng() >> (round % 64);

		if (x)
			ok &= __ctzdi2(x) == __builtin_ctzl(x) && __clzdi2(x) == __builtin_clzl(x);
	}
	CHECK(ok, "__ctzdi2 and __clzdi2 agree with the compiler's builtins");
}

/* lib/utils/string.c's copies, built as tally_* (see the Makefile) */
void *tally_memcpy(void *dst, const void *src, size_t n);
void *tally_memmove(void *dst, const void *src, size_t n);

static void test_copies(void)
{
	unsigned char buf[352], ref[352];
	bool cpy_ok = true, move_ok = true, ret_ok = true;

	/*
	 * every alignment of both ends and every length up to 40, with
	 * overlap; and 250..300, across the bulk copies' threshold (256)
	 */
	for (size_t d = 0; d < 24; d++) {
		for (size_t s = 0; s < 24; s++) {
			for (size_t n = 0; n <= 300; n = n == 40 ? 250 : n + 1) {
				for (size_t i = 0; i < sizeof(buf); i++)
					buf[i] = ref[i] = (unsigned char)(i * 7 + 1);
				memmove(ref + d, ref + s, n);
				ret_ok &= tally_memmove(buf + d, buf + s, n) == buf + d;
				move_ok &= memcmp(buf, ref, sizeof(buf)) == 0;
				if (d + n <= s || s + n <= d) {
					unsigned char out[352] = { 0 }, want[352] = { 0 };

					memcpy(want + d, buf + s, n);
					ret_ok &= tally_memcpy(out + d, buf + s, n) == out + d;
					cpy_ok &= memcmp(out, want, sizeof(out)) == 0;
				}
			}
		}
	}
	CHECK(cpy_ok, "memcpy copies every alignment and length, touching nothing else");
	CHECK(move_ok, "memmove handles overlap both ways at every alignment");
	CHECK(ret_ok, "memcpy and memmove return dst");
}

static void test_memregion(void)
{
	struct memmap m = { .fw_base = 0x80000000, .fw_size = 0x80000 };

	CHECK(memmap_add_ram(&m, 0x80000000, 0x10000000), "RAM range added");
	CHECK(!memmap_add_ram(&m, 0xfffffffffffff000UL, 0x2000), "wrapping RAM range refused");
	CHECK(memmap_smode_range_ok(&m, 0x80200000, 0, 0x1000), "RAM after the firmware ok");
	CHECK(!memmap_smode_range_ok(&m, 0x80000000, 0, 1), "firmware start refused");
	CHECK(!memmap_smode_range_ok(&m, 0x8007ffff, 0, 1), "firmware last byte refused");
	CHECK(memmap_smode_range_ok(&m, 0x80080000, 0, 1), "first byte after firmware ok");
	CHECK(!memmap_smode_range_ok(&m, 0x7ffff000, 0, 0x2000), "range into the firmware refused");
	CHECK(!memmap_smode_range_ok(&m, 0x8fffff00, 0, 0x200), "range past the end of RAM refused");
	CHECK(memmap_smode_range_ok(&m, 0x8fffff00, 0, 0x100), "range ending at end of RAM ok");
	CHECK(!memmap_smode_range_ok(&m, 0xfffffffffffff000UL, 0, 0x2000), "wrap-around refused");
	CHECK(!memmap_smode_range_ok(&m, 0x80200000, 1, 0x10), "addr_hi != 0 refused");
	CHECK(!memmap_smode_range_ok(&m, 0x1000, 0, 0x10), "non-RAM refused");
	CHECK(!memmap_smode_range_ok(&m, 0x80200000, 0, (unsigned long)-1), "huge length refused");
	CHECK(memmap_smode_range_ok(&m, 0x80000000, 0, 0), "zero length accesses nothing: ok");
	CHECK(memmap_smode_entry_ok(&m, 0x80200000), "entry point in RAM ok");
	CHECK(!memmap_smode_entry_ok(&m, 0x80000000), "entry point in firmware refused");
	CHECK(!memmap_smode_entry_ok(&m, 0x0), "entry point outside RAM refused");
	CHECK(!memmap_smode_entry_ok(&m, 0x8ffffffe), "entry point straddling end of RAM refused");
}

/*
 * The time CSR read the firmware emulates (emulate.c): every mode and
 * every combination of the three TM bits against the privileged spec's
 * table.  QEMU checks hcounteren itself before its read traps, so only
 * this test reaches the VIRTUAL answers for VS.
 */
static void test_time_csr_access(void)
{
	static const char *const names[] = { "read", "illegal", "virtual" };
	static const struct {
		bool virt;
		unsigned long prv;
		const char *mode;
	} modes[] = {
		{ false, PRV_S, "HS" }, { false, PRV_U, "U" },
		{ true, PRV_S, "VS" }, { true, PRV_U, "VU" },
	};
	unsigned int bad = 0, m, bits;

	for (m = 0; m < 4; m++) {
		for (bits = 0; bits < 8; bits++) {
			bool mtm = bits & 1, htm = bits & 2, stm = bits & 4;
			bool user = modes[m].prv == PRV_U;
			enum time_csr_access want, got;

			if (!mtm)
				want = TIME_CSR_ILLEGAL;
			else if (modes[m].virt)
				want = htm && (!user || stm) ? TIME_CSR_READ : TIME_CSR_VIRTUAL;
			else
				want = !user || stm ? TIME_CSR_READ : TIME_CSR_ILLEGAL;
			got = time_csr_access(modes[m].virt, modes[m].prv,
					      mtm ? COUNTEREN_TM : 0,
					      htm ? ~0UL : ~COUNTEREN_TM, stm ? COUNTEREN_TM : 0);
			if (got != want) {
				bad++;
				printf("    %s, m/h/scounteren.TM %d%d%d: %s, expected %s\n",
				       modes[m].mode, mtm, htm, stm, names[got], names[want]);
			}
		}
	}
	CHECK(bad == 0, "time CSR emulation: HS, U, VS, VU x the 8 TM bit combinations "
	      "as the privileged spec says (%u wrong)", bad);
	CHECK(time_csr_access(true, PRV_S, ~0UL, 0, ~0UL) == TIME_CSR_VIRTUAL &&
	      time_csr_access(true, PRV_U, ~0UL, ~0UL, 0) == TIME_CSR_VIRTUAL &&
	      time_csr_access(false, PRV_U, ~0UL, 0, 0) == TIME_CSR_ILLEGAL &&
	      time_csr_access(false, PRV_S, ~0UL, 0, 0) == TIME_CSR_READ,
	      "time CSR emulation: VS without hcounteren.TM and VU without scounteren.TM "
	      "take a virtual-instruction exception, U without scounteren.TM an illegal "
	      "instruction; HS needs neither");
}

int main(void)
{
	test_dispatch_table();
	test_dispatch_calls();
	make_ident();
	test_dispatch_hash();
	test_hart_hooks();
	test_hartmask();
	test_hartmask_walk();
	test_hart_map();
	test_bitops();
	test_copies();
	test_memregion();
	test_time_csr_access();
	return check_failures ? 1 : 0;
}
