// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of the SBI core's pure logic: the dispatcher table, hart
 * set decoding and S-mode address validation.
 */
#include <stdio.h>
#include <string.h>
#include <tally/hartmask.h>
#include <tally/memregion.h>
#include <tally/sbi.h>
#include "check.h"

unsigned long test_fw_events;	/* stub/tally/fw_event.h */

/* The extensions, as stand-ins: only their EID ranges matter here. */
#define STUB_EXT(var, first, last) \
	const struct sbi_extension var = { .eid_first = first, .eid_last = last, .name = #var }
STUB_EXT(sbi_ext_legacy, 0x0, 0x8);
STUB_EXT(sbi_ext_base, SBI_EXT_BASE, SBI_EXT_BASE);
STUB_EXT(sbi_ext_time, SBI_EXT_TIME, SBI_EXT_TIME);
STUB_EXT(sbi_ext_ipi, SBI_EXT_IPI, SBI_EXT_IPI);
STUB_EXT(sbi_ext_rfence, SBI_EXT_RFENCE, SBI_EXT_RFENCE);
STUB_EXT(sbi_ext_hsm, SBI_EXT_HSM, SBI_EXT_HSM);
STUB_EXT(sbi_ext_srst, SBI_EXT_SRST, SBI_EXT_SRST);
STUB_EXT(sbi_ext_dbcn, SBI_EXT_DBCN, SBI_EXT_DBCN);
STUB_EXT(sbi_ext_pmu, SBI_EXT_PMU, SBI_EXT_PMU);

static void test_dispatch_table(void)
{
	static const struct { unsigned long eid; const struct sbi_extension *ext; } cases[] = {
		{ 0x0, &sbi_ext_legacy }, { 0x8, &sbi_ext_legacy }, { 0x9, NULL },
		{ 0xf, NULL }, { SBI_EXT_BASE, &sbi_ext_base }, { 0x11, NULL },
		{ SBI_EXT_TIME, &sbi_ext_time }, { SBI_EXT_IPI, &sbi_ext_ipi },
		{ SBI_EXT_RFENCE, &sbi_ext_rfence }, { SBI_EXT_HSM, &sbi_ext_hsm },
		{ SBI_EXT_SRST, &sbi_ext_srst }, { SBI_EXT_DBCN, &sbi_ext_dbcn },
		{ SBI_EXT_PMU, &sbi_ext_pmu }, { 0x12345678, NULL },
		{ (unsigned long)-1, NULL }, { SBI_EXT_TIME + 1, NULL },
	};

	for (unsigned long i = 1; i < sbi_extension_count; i++)
		CHECK(sbi_extensions[i - 1]->eid_last < sbi_extensions[i]->eid_first,
		      "dispatch table sorted and disjoint at %lu", i);
	CHECK(sbi_extension_count == 9, "nine extensions registered (got %lu)",
	      sbi_extension_count);
	for (unsigned long i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(sbi_ext_find(cases[i].eid) == cases[i].ext,
		      "EID 0x%lx finds %s", cases[i].eid,
		      cases[i].ext ? cases[i].ext->name : "nothing");
}

static struct hartmask harts_of(const unsigned long *ids, int n)
{
	struct hartmask m;

	hartmask_clear(&m);
	for (int i = 0; i < n; i++)
		hartmask_set(&m, ids[i]);
	return m;
}

static void test_hartmask(void)
{
	const unsigned long four[] = { 0, 1, 2, 3 }, sparse[] = { 1, 5 };
	struct hartmask valid = harts_of(four, 4), out;

	CHECK(hartmask_from_sbi(0x5, 0, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 0) && hartmask_test(&out, 2) && !hartmask_test(&out, 1),
	      "mask 0b101 base 0 names harts 0 and 2");
	CHECK(hartmask_from_sbi(0x3, 2, &valid, &out) == SBI_SUCCESS &&
	      hartmask_test(&out, 2) && hartmask_test(&out, 3) && !hartmask_test(&out, 0),
	      "mask 0b11 base 2 names harts 2 and 3");
	CHECK(hartmask_from_sbi(0, (unsigned long)-1, &valid, &out) == SBI_SUCCESS &&
	      memcmp(&out, &valid, sizeof(out)) == 0, "base -1 selects every valid hart");
	CHECK(hartmask_from_sbi(0, 0, &valid, &out) == SBI_SUCCESS && !hartmask_test(&out, 0),
	      "mask 0 names no hart and succeeds");
	CHECK(hartmask_from_sbi(0x1, 4, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "a hart beyond the machine is INVALID_PARAM");
	CHECK(hartmask_from_sbi(0x3, 3, &valid, &out) == SBI_ERR_INVALID_PARAM &&
	      !hartmask_test(&out, 3), "one bad hart fails the whole set, nothing named");
	CHECK(hartmask_from_sbi(0x1, 1000, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "base 1000 is INVALID_PARAM");
	CHECK(hartmask_from_sbi(0x2, (unsigned long)-2, &valid, &out) == SBI_ERR_INVALID_PARAM,
	      "base + bit wrapping to 0 is INVALID_PARAM, not hart 0");
	CHECK(hartmask_from_sbi(1UL << (BITS_PER_LONG - 1), 0, &valid, &out) ==
	      SBI_ERR_INVALID_PARAM, "the top mask bit names a hart beyond TALLY_MAX_HARTS");
	struct hartmask holes = harts_of(sparse, 2);
	CHECK(hartmask_from_sbi(0x2, 0, &holes, &out) == SBI_SUCCESS,
	      "sparse hart IDs: hart 1 valid");
	CHECK(hartmask_from_sbi(0x4, 0, &holes, &out) == SBI_ERR_INVALID_PARAM,
	      "sparse hart IDs: hart 2 (a hole) invalid");
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

int main(void)
{
	test_dispatch_table();
	test_hartmask();
	test_memregion();
	return check_failures ? 1 : 0;
}
