// SPDX-License-Identifier: BSD-2-Clause
/* FID 8: event_get_info. */
#include <limits.h>
#include "fixture.h"
#include "../../../lib/pmu/pmu_internal.h"

#define INFO	(SIM_SMEM + 0x4000)

struct entry {
	uint32_t event_idx;
	uint64_t event_data;
	uint32_t expect;
	const char *what;
};

static void put_entry(struct fx *f, uint64_t at, uint32_t idx, uint64_t data,
		      uint32_t output)
{
	sim_mem_put32(&f->sim, at, idx);
	sim_mem_put32(&f->sim, at + 4, output);
	sim_mem_put64(&f->sim, at + 8, data);
}

static const struct entry entries[] = {
	{ EV_CYCLES, 0, 1, "cycles" },
	{ EV_INSTR, 0, 1, "instructions" },
	{ EV_CYCLES, 0xDEADBEEF, 1, "cycles, event_data ignored for type 0" },
	{ EV_CACHE_REF, 0, 0, "cache references (no counter)" },
	{ EV_BR_MISS, 0, 1, "branch misses (selector row)" },
	{ EV_STALL_BE, 0, 1, "stalled backend (board hook)" },
	{ 0x0, 0, 0, "event 0 (NO_EVENT)" },
	{ 0xB, 0, 0, "type 0 code 11" },
	{ EV_L1D_RD, 0, 1, "L1D read access (range row)" },
	{ EV_L1D_RD + 5, 0, 1, "L1D prefetch miss (end of the range row)" },
	{ EV_L1D_RD + 6, 0, 0, "L1I read access (no row)" },
	{ EV_DTLB_RD_MISS, 0, 1, "dTLB read misses" },
	{ EV_ITLB_RD_MISS, 0, 1, "iTLB read misses" },
	{ 0x40000, 0, 0, "type 4" },
	{ EV_RAW, 0x512, 1, "raw v1 0x512 (raw row)" },
	{ EV_RAW, 0x5FF, 1, "raw v1 0x5FF (same row, variant bits)" },
	{ EV_RAW, 0x612, 0, "raw v1 0x612 (no row)" },
	{ EV_RAW | 1, 0x512, 0, "raw v1 with code 1" },
	{ EV_RAW, 0x1000000000512ULL, 0, "raw v1 data beyond 48 bits" },
	{ EV_RAW2, 0xABCDEF, 1, "raw v2 0xABCDEF" },
	{ EV_RAW2, 0xDEAD, 1, "raw v2 0xDEAD (board hook)" },
	{ EV_RAW2, 0x100000000ABCDEFULL, 0, "raw v2 data beyond 56 bits" },
	{ EV_FW(0), 0, 1, "firmware MISALIGNED_LOAD" },
	{ EV_FW(5), 0, 1, "firmware SET_TIMER" },
	{ EV_FW(21), 0, 1, "firmware HFENCE_VVMA_ASID_RECEIVED" },
	{ EV_FW(21), 0x99, 1, "firmware event, event_data ignored" },
	{ EV_FW(22), 0, 0, "firmware 22 (reserved)" },
	{ EV_FW(255), 0, 0, "firmware 255 (reserved)" },
	{ EV_FW(256), 0, 1, "Tally firmware event 256 (ecalls)" },
	{ EV_FW(257), 0, 1, "Tally firmware event 257 (traps)" },
	{ EV_FW(258), 0, 0, "firmware 258" },
	{ EV_FW(0xFFFF), 0x42, 1, "SBI_PMU_FW_PLATFORM 0x42 (the board counts it)" },
	{ EV_FW(0xFFFF), 0x44, 0, "SBI_PMU_FW_PLATFORM 0x44 (it does not)" },
};
#define NENT	(sizeof(entries) / sizeof(entries[0]))

static void test_entries(void)
{
	struct fx f, g;
	bool ok;

	fx_setup(&f, NULL);
	sim_mem_fill(&f.sim, 0x5A);
	for (unsigned int i = 0; i < NENT; i++)
		put_entry(&f, INFO + 16 * i, entries[i].event_idx,
			  entries[i].event_data, 0xFFFFFFFEu);
	/* every counter busy: "supported" does not depend on that */
	for (unsigned int i = 3; i <= 7; i++)
		fx_cfg(&f, i, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_WR_MISS, 0);
	f.sim.mem_maps = 0;
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, NENT, 0), SBI_SUCCESS,
		  "event_get_info: %u entries", (unsigned int)NENT);
	for (unsigned int i = 0; i < NENT; i++) {
		uint64_t at = INFO + 16 * i;

		CHECK(sim_mem_get32(&f.sim, at + 4) == entries[i].expect,
		      "event_get_info: %s -> %s (output word 0x%x)", entries[i].what,
		      entries[i].expect ? "supported" : "not supported",
		      sim_mem_get32(&f.sim, at + 4));
	}
	ok = true;
	for (unsigned int i = 0; i < NENT; i++)
		ok &= sim_mem_get32(&f.sim, INFO + 16 * i) == entries[i].event_idx &&
		      sim_mem_get64(&f.sim, INFO + 16 * i + 8) == entries[i].event_data;
	CHECK(ok, "event_get_info: event_idx and event_data words are not modified");
	CHECK(sim_mem_get64(&f.sim, INFO + 16 * NENT) == 0x5A5A5A5A5A5A5A5AULL &&
	      sim_mem_get64(&f.sim, INFO - 8) == 0x5A5A5A5A5A5A5A5AULL,
	      "event_get_info: nothing outside the entries is written");
	CHECK(f.sim.mem_maps == 1,
	      "event_get_info: the whole array is checked once (one shmem_map)");

	/* the same answers as config_matching on a fresh hart */
	ok = true;
	for (unsigned int i = 0; i < NENT; i++) {
		struct sbiret r;

		fx_setup(&g, NULL);
		r = fx_cfg(&g, 0, g.all, 0, entries[i].event_idx,
			   entries[i].event_data);
		ok &= (r.error == 0) == (entries[i].expect == 1);
		if ((r.error == 0) != (entries[i].expect == 1))
			printf("    mismatch: %s\n", entries[i].what);
		fx_teardown(&g, "matcher agreement");
	}
	CHECK(ok, "event_get_info says supported exactly when config_matching "
	      "finds a counter");
	fx_teardown(&f, "event_get_info entries");
}

static void test_errors(void)
{
	struct fx f;
	struct fx_opts o = fx_default;

	o.no_shmem = true;
	fx_setup(&f, &o);
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 1, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "event_get_info: embedder without memory hooks: NOT_SUPPORTED");
	fx_teardown(&f, "event_get_info no hooks");

	fx_setup(&f, NULL);
	for (unsigned int i = 0; i < 4; i++)
		put_entry(&f, INFO + 16 * i, EV_CYCLES, 0, 0xAAAAAAAAu);
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 4, 1),
		  SBI_ERR_INVALID_PARAM, "event_get_info: flags 1: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO + 8, 0, 4, 0),
		  SBI_ERR_INVALID_PARAM,
		  "event_get_info: 8-byte aligned: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO + 1, 0, 4, 0),
		  SBI_ERR_INVALID_PARAM,
		  "event_get_info: unaligned: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO + 16, 0, 3, 0), SBI_SUCCESS,
		  "event_get_info: 16-byte aligned (not page aligned) is fine");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 1, 4, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: hi != 0 on RV64: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, SIM_FW_BASE + 0x100, 0, 4, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: firmware memory: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, SIM_SMEM - 16, 0, 2, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: entries straddling into the firmware: "
		  "INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, SIM_RAM_BASE + SIM_RAM_SIZE - 16,
					 0, 2, 0), SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: entries running past RAM: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, ULONG_MAX, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: num_entries ULONG_MAX (size overflows): "
		  "INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, ULONG_MAX / 16 + 1, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: 16 * num_entries = 2^64: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 0, 0), SBI_SUCCESS,
		  "event_get_info: num_entries 0: SUCCESS, nothing to do");
	CHECK(sim_mem_get32(&f.sim, INFO + 4) == 0xAAAAAAAAu &&
	      sim_mem_get32(&f.sim, INFO + 20) == 1,
	      "refused calls wrote nothing (entry 0 untouched, entry 1 written "
	      "by the call that succeeded)");
	for (unsigned int i = 0; i < 4; i++)
		put_entry(&f, INFO + 16 * i, EV_CYCLES, 0, 0xAAAAAAAAu);
	put_entry(&f, INFO + 16 * 2, EV_CYCLES | 0x100000, 0, 0xAAAAAAAAu);
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 4, 0),
		  SBI_ERR_INVALID_PARAM,
		  "event_get_info: reserved bit 20 in entry 2: INVALID_PARAM");
	CHECK(sim_mem_get32(&f.sim, INFO + 4) == 0xAAAAAAAAu &&
	      sim_mem_get32(&f.sim, INFO + 20) == 0xAAAAAAAAu &&
	      sim_mem_get32(&f.sim, INFO + 36) == 0xAAAAAAAAu &&
	      sim_mem_get32(&f.sim, INFO + 52) == 0xAAAAAAAAu,
	      "... and no output word was written (not even entry 0's)");
	put_entry(&f, INFO + 16 * 2, EV_CYCLES | 0x80000000u, 0, 0xAAAAAAAAu);
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 4, 0),
		  SBI_ERR_INVALID_PARAM,
		  "event_get_info: reserved bit 31 in an entry: INVALID_PARAM");
	put_entry(&f, INFO + 16 * 2, EV_CYCLES, 0, 0xAAAAAAAAu);
	f.sim.fail_map = true;
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 4, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "event_get_info: the embedder refuses the range: INVALID_ADDRESS");
	CHECK(sim_mem_get32(&f.sim, INFO + 4) == 0xAAAAAAAAu,
	      "... and nothing was written");
	f.sim.fail_map = false;
	put_entry(&f, INFO + 16 * 3, EV_CYCLES, 0, 0xAAAAAAAAu);
	CHECK_ERR(pmu_sbi_event_get_info(&f.h, INFO, 0, 4, 0), SBI_SUCCESS,
		  "event_get_info: then it works");
	CHECK(sim_mem_get32(&f.sim, INFO + 4 + 16 * 3) == 1,
	      "... the whole output word is written (0xAAAAAAAA -> 1)");
	CHECK(f.h.configured == 0 && f.h.started == 0 &&
	      sim_log_count(&f.sim, 'E') + sim_log_count(&f.sim, 'C') +
	      sim_log_count(&f.sim, 'I') + sim_log_count(&f.sim, 'U') == 0,
	      "event_get_info configures no counter and touches no CSR");
	fx_teardown(&f, "event_get_info errors");

	/* a hart without programmable counters or hooks */
	o = fx_default;
	o.counters = BIT(0) | BIT(2);
	o.no_hooks = true;
	fx_setup(&f, &o);
	put_entry(&f, INFO, EV_CYCLES, 0, 7);
	put_entry(&f, INFO + 16, EV_DTLB_RD_MISS, 0, 7);
	put_entry(&f, INFO + 32, EV_FW(0xFFFF), 0x42, 7);
	put_entry(&f, INFO + 48, EV_FW(1), 0, 7);
	pmu_sbi_event_get_info(&f.h, INFO, 0, 4, 0);
	CHECK(sim_mem_get32(&f.sim, INFO + 4) == 1 &&
	      sim_mem_get32(&f.sim, INFO + 20) == 0 &&
	      sim_mem_get32(&f.sim, INFO + 36) == 0 &&
	      sim_mem_get32(&f.sim, INFO + 52) == 1,
	      "event_get_info answers for this hart: cycles yes, TLB no, "
	      "PLATFORM without hooks no, firmware yes");
	fx_teardown(&f, "event_get_info small hart");
}

/*
 * event_get_info answers the spec's hardware and cache events from bits
 * taken at hart init and most firmware events without the matcher: for
 * every type 0, 1 and 15 code (with and without board hooks, with and
 * without programmable or firmware-usable counters), its answer must be
 * the matcher's.
 */
static unsigned int agreement(const struct fx_opts *o, const char *what)
{
	static const uint32_t types[] = { 0x0, 0x1, 0xF };
	struct fx f;
	unsigned int wrong = 0, yes = 0, n = 0;

	fx_setup(&f, o);
	for (unsigned int t = 0; t < 3; t++) {
		for (uint32_t code = 0; code <= 0xFFFF; code++) {
			uint32_t idx = types[t] << 16 | code;
			struct pmu_match m;
			bool expect = pmu_event_match(&f.h, idx, 0x42, &m);

			put_entry(&f, INFO, idx, 0x42, 7);
			pmu_sbi_event_get_info(&f.h, INFO, 0, 1, 0);
			wrong += sim_mem_get32(&f.sim, INFO + 4) != expect;
			yes += expect;
			n++;
		}
	}
	CHECK(wrong == 0 && yes > 0,
	      "event_get_info agrees with the matcher on all %u type 0, 1 "
	      "and 15 events (%u supported), %s", n, yes, what);
	fx_teardown(&f, what);
	return wrong;
}

static void test_agreement(void)
{
	struct fx_opts o = fx_default;

	agreement(&o, "default hart with board hooks");
	o.no_hooks = true;
	agreement(&o, "no board hooks");
	o.counters = BIT(0) | BIT(2);
	agreement(&o, "cycle and instret only");
	o = fx_default;
	o.map = &qemu_map;
	o.counters = 0xFFFFFFFDU;
	agreement(&o, "QEMU's map, 31 counters");
}

void test_event_info(void)
{
	test_entries();
	test_errors();
	test_agreement();
}
