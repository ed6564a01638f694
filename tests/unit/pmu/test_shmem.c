// SPDX-License-Identifier: BSD-2-Clause
/* FID 7 and the snapshot of counter_start / counter_stop. */
#include <limits.h>
#include "fixture.h"

#define SNAP	(SIM_SMEM + 0x2000)	/* a page S-mode owns */
#define VAL(rel)	(SNAP + 8 + 8 * (uint64_t)(rel))

/* Whether every byte of S-mode's memory still holds the fill byte b. */
static bool mem_untouched(const struct fx *f, uint8_t b)
{
	for (uint64_t i = 0; i < SIM_RAM_SIZE; i++)
		if (f->sim.ram[i] != b)
			return false;
	return true;
}

static void test_set_shmem(void)
{
	struct fx f;
	struct fx_opts o = fx_default;

	o.no_shmem = true;
	fx_setup(&f, &o);
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "set_shmem: embedder without shared-memory hooks: NOT_SUPPORTED");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 1),
		  SBI_ERR_NOT_SUPPORTED, "set_shmem: NOT_SUPPORTED before any check");
	fx_teardown(&f, "no shmem hooks");

	fx_setup(&f, NULL);
	sim_mem_fill(&f.sim, 0x77);
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 1),
		  SBI_ERR_INVALID_PARAM, "set_shmem: flags 1: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 1UL << 63),
		  SBI_ERR_INVALID_PARAM, "set_shmem: flags bit 63: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP + 8, 0, 0),
		  SBI_ERR_INVALID_PARAM, "set_shmem: 8-byte aligned: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP + 0x800, 0, 0),
		  SBI_ERR_INVALID_PARAM, "set_shmem: 2 KiB aligned: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ULONG_MAX, 0, 0),
		  SBI_ERR_INVALID_PARAM,
		  "set_shmem: lo all-ones, hi 0 (not the disable pair): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 1, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "set_shmem: hi != 0 on RV64 (above 2^64): INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SIM_FW_BASE, 0, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "set_shmem: the firmware's memory: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SIM_SMEM - 0x1000, 0, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "set_shmem: last firmware page: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, 0x1000, 0, 0),
		  SBI_ERR_INVALID_ADDRESS, "set_shmem: not RAM: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SIM_RAM_BASE + SIM_RAM_SIZE,
					     0, 0), SBI_ERR_INVALID_ADDRESS,
		  "set_shmem: just past RAM: INVALID_ADDRESS");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ULONG_MAX & ~0xFFFUL, 0, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "set_shmem: the last page of the address space: INVALID_ADDRESS");
	CHECK(!f.h.shmem_enabled, "refused set_shmem calls leave it disabled");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SIM_RAM_BASE + SIM_RAM_SIZE -
					     0x1000, 0, 0), SBI_SUCCESS,
		  "set_shmem: the last S-mode page: SUCCESS");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0), SBI_SUCCESS,
		  "set_shmem: set again elsewhere: SUCCESS");
	CHECK(f.h.shmem_enabled && f.h.shmem_addr == SNAP, "... enabled at 0x%llx",
	      (unsigned long long)f.h.shmem_addr);
	CHECK(mem_untouched(&f, 0x77),
	      "set_shmem itself never touches the memory");
	f.sim.fail_map = true;
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP + 0x1000, 0, 0),
		  SBI_ERR_INVALID_ADDRESS,
		  "set_shmem: the embedder refuses the page: INVALID_ADDRESS");
	f.sim.fail_map = false;
	CHECK(f.h.shmem_enabled && f.h.shmem_addr == SNAP,
	      "... the old page stays enabled");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 2),
		  SBI_ERR_INVALID_PARAM, "set_shmem: flags != 0 while enabled");
	CHECK(f.h.shmem_enabled && f.h.shmem_addr == SNAP,
	      "... leaves the old memory enabled");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ULONG_MAX, ULONG_MAX, 0),
		  SBI_SUCCESS, "set_shmem(-1, -1): disabled");
	CHECK(!f.h.shmem_enabled, "... disabled");
	fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_NO_SHMEM, "after disabling: TAKE_SNAPSHOT -> NO_SHMEM");
	CHECK_ERR(fx_start(&f, 3, 1, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_NO_SHMEM, "after disabling: INIT_SNAPSHOT -> NO_SHMEM");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ULONG_MAX, ULONG_MAX, 0),
		  SBI_SUCCESS, "set_shmem(-1, -1) while disabled: SUCCESS");
	CHECK(mem_untouched(&f, 0x77) && f.h.shmem == NULL,
	      "no memory access so far; disabled means no page");
	fx_teardown(&f, "set_shmem");
}

static void test_snapshot(void)
{
	struct fx f, g;
	unsigned long base;

	fx_setup(&f, NULL);
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0), SBI_SUCCESS,
		  "snapshot: set_shmem");
	for (unsigned int i = 3; i <= 6; i++)
		fx_cfg(&f, i, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0);
	fx_cfg(&f, f.fw0 + 1, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_FW(6), 0);
	/* start {3, 5} and the firmware counter with values from memory */
	sim_mem_fill(&f.sim, 0xEE);
	base = 3;
	sim_mem_put64(&f.sim, VAL(0), 0x300);		/* counter 3 */
	sim_mem_put64(&f.sim, VAL(2), 0x500);		/* counter 5 */
	sim_mem_put64(&f.sim, VAL(f.fw0 + 1 - base), 0xF1);
	f.sim.mem_maps = 0;
	CHECK_ERR(fx_start(&f, base, BIT(0) | BIT(2) | BIT(f.fw0 + 1 - base),
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0), SBI_SUCCESS,
		  "INIT_SNAPSHOT: start 3, 5 and a firmware counter (base 3)");
	CHECK(f.sim.ctr[3] == 0x300 && f.sim.ctr[5] == 0x500 &&
	      pmu_sbi_counter_fw_read(&f.h, f.fw0 + 1).value == 0xF1,
	      "... values read from counter_values[idx - base]");
	CHECK(f.sim.ctr[4] != 0x300 &&
	      sim_mem_get64(&f.sim, SNAP) == 0xEEEEEEEEEEEEEEEEULL &&
	      sim_mem_get64(&f.sim, VAL(0)) == 0x300 &&
	      sim_mem_get64(&f.sim, VAL(1)) == 0xEEEEEEEEEEEEEEEEULL,
	      "... other counters untouched; start only reads the memory");
	CHECK(f.sim.mem_maps == 0,
	      "... the page checked by set_shmem is not checked again");
	/* stop {3, 4, 5} with TAKE_SNAPSHOT, base 2: slots 1, 2, 3 */
	sim_tick(&f.sim, SIM_S, 0x10);
	fx_start(&f, 4, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0xFFFFFFFFFFFFULL);
	sim_tick(&f.sim, SIM_S, 2);		/* counter 4 overflows */
	sim_mem_fill(&f.sim, 0xEE);
	base = 2;
	CHECK_ERR(fx_stop(&f, base, 0xE, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "TAKE_SNAPSHOT: stop 3, 4, 5 with base 2");
	CHECK(sim_mem_get64(&f.sim, VAL(1)) == 0x312 &&
	      sim_mem_get64(&f.sim, VAL(2)) == 1 &&
	      sim_mem_get64(&f.sim, VAL(3)) == 0x512,
	      "... counter_values[idx - 2] hold the stopped values (0x%llx 0x%llx 0x%llx)",
	      (unsigned long long)sim_mem_get64(&f.sim, VAL(1)),
	      (unsigned long long)sim_mem_get64(&f.sim, VAL(2)),
	      (unsigned long long)sim_mem_get64(&f.sim, VAL(3)));
	CHECK(sim_mem_get64(&f.sim, VAL(0)) == 0xEEEEEEEEEEEEEEEEULL &&
	      sim_mem_get64(&f.sim, VAL(4)) == 0xEEEEEEEEEEEEEEEEULL &&
	      sim_mem_get64(&f.sim, VAL(63)) == 0xEEEEEEEEEEEEEEEEULL,
	      "... the other counters' slots are not modified");
	CHECK(sim_mem_get64(&f.sim, SNAP) == BIT(4 - base),
	      "... overflow bitmap relative to base: counter 4 -> bit 2 (0x%llx)",
	      (unsigned long long)sim_mem_get64(&f.sim, SNAP));
	CHECK(sim_mem_get64(&f.sim, SNAP + 0x208) == 0xEEEEEEEEEEEEEEEEULL &&
	      sim_mem_get64(&f.sim, SNAP + 0xFF8) == 0xEEEEEEEEEEEEEEEEULL,
	      "... the reserved part (0x208..0xFFF) is not touched");
	CHECK_ERR(fx_stop(&f, f.fw0 + 1, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "TAKE_SNAPSHOT: a firmware counter, base = its index");
	CHECK(sim_mem_get64(&f.sim, VAL(0)) == 0xF1 &&
	      sim_mem_get64(&f.sim, SNAP) == 0,
	      "... its value at counter_values[0], overflow bitmap rewritten (0)");
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT |
			  SBI_PMU_STOP_FLAG_RESET), SBI_ERR_ALREADY_STOPPED,
		  "TAKE_SNAPSHOT | RESET on a stopped counter: ALREADY_STOPPED");
	CHECK(sim_mem_get64(&f.sim, VAL(0)) == 0x312 &&
	      !(f.h.configured & BIT(3)),
	      "... the value is saved, then the counter released");
	CHECK_ERR(fx_start(&f, 4, 1, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_SUCCESS, "INIT_SNAPSHOT restart of the overflowed counter");
	CHECK(f.sim.ctr[4] == 0x312 && !(f.sim.evt[4] & MHPMEVENT_OF),
	      "... value from counter_values[0], OF cleared");
	fx_stop(&f, 4, 1, 0);
	CHECK_ERR(fx_stop(&f, 0, BIT(4), SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_ALREADY_STOPPED, "TAKE_SNAPSHOT on an already stopped counter");
	CHECK(sim_mem_get64(&f.sim, VAL(4)) == 0x312 &&
	      sim_mem_get64(&f.sim, SNAP) == 0,
	      "... still saves its value; no overflow since its start");
	CHECK(f.sim.mem_maps == 0,
	      "snapshot loads and saves never map the page again");
	/* a set with no configured counter: only the bitmap is written (0) */
	fx_stop(&f, 6, 1, SBI_PMU_STOP_FLAG_RESET);
	sim_mem_fill(&f.sim, 0xEE);
	CHECK_ERR(fx_stop(&f, 6, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_ALREADY_STOPPED,
		  "TAKE_SNAPSHOT on an unconfigured counter: ALREADY_STOPPED");
	CHECK(!(f.h.configured & BIT(6)) && sim_mem_get64(&f.sim, SNAP) == 0 &&
	      sim_mem_get64(&f.sim, VAL(0)) == 0xEEEEEEEEEEEEEEEEULL,
	      "... the overflow bitmap written as 0, no value slot written");

	/* the memory is per hart */
	fx_setup(&g, NULL);
	fx_cfg(&g, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH | SBI_PMU_CFG_FLAG_AUTO_START,
	       EV_DTLB_RD_MISS, 0);
	CHECK_ERR(fx_stop(&g, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_NO_SHMEM,
		  "another hart without its own shared memory: NO_SHMEM");
	fx_teardown(&g, "second hart");
	fx_teardown(&f, "snapshot");

	/* Without Sscofpmf the overflow bitmap stays zero */
	struct fx_opts o = fx_default;
	o.sscofpmf = false;
	fx_setup(&f, &o);
	pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0);
	fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0);
	fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0xFFFFFFFFFFFFULL);
	sim_tick(&f.sim, SIM_S, 5);
	sim_mem_fill(&f.sim, 0xEE);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT), SBI_SUCCESS,
		  "no Sscofpmf: TAKE_SNAPSHOT after a wrap");
	CHECK(sim_mem_get64(&f.sim, SNAP) == 0 && sim_mem_get64(&f.sim, VAL(0)) == 4,
	      "... overflow bitmap written as 0, value saved");
	fx_teardown(&f, "snapshot without Sscofpmf");

	/*
	 * RESET leaves the counter's of_armed bit (pmu_hw_release skips it):
	 * once configured again (mhpmevent written with OF set, as a stopped
	 * counter) and never started, TAKE_SNAPSHOT must not report the old
	 * overflow, nor may a suspend save one.
	 */
	fx_setup(&f, NULL);
	pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0);
	fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0);
	fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0xFFFFFFFFFFFFULL);
	sim_tick(&f.sim, SIM_S, 5);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_RESET), SBI_SUCCESS,
		  "an overflowed counter stopped with RESET");
	fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0);
	sim_mem_fill(&f.sim, 0xEE);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_ALREADY_STOPPED,
		  "configured again, never started: TAKE_SNAPSHOT");
	CHECK(sim_mem_get64(&f.sim, SNAP) == 0,
	      "... no overflow reported from before the RESET");
	pmu_hart_suspend(&f.h);
	CHECK(f.h.saved_of == 0, "... nor saved by a suspend");
	fx_teardown(&f, "snapshot after RESET and reconfigure");

	/* 64-bit bitmap edge: base 0 and the highest counter */
	o = fx_default;
	o.counters = 0xFFFFFFFDU;
	o.map = &qemu_map;
	fx_setup(&f, &o);
	pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0);
	fx_cfg(&f, 31, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0);
	fx_cfg(&f, f.total - 1, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_FW(3), 0);
	fx_start(&f, 31, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0xFFFFFFFFFFFFULL);
	fx_start(&f, f.total - 1, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0xAB);
	sim_tick(&f.sim, SIM_S, 1);
	sim_mem_fill(&f.sim, 0xEE);
	CHECK_ERR(fx_stop(&f, 0, f.all, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_ALREADY_STOPPED, "TAKE_SNAPSHOT over all counters, base 0");
	CHECK(sim_mem_get64(&f.sim, SNAP) == BIT(31) &&
	      sim_mem_get64(&f.sim, VAL(31)) == 0 &&
	      sim_mem_get64(&f.sim, VAL(f.total - 1)) == 0xAB,
	      "... bit 31 overflowed, slot %u holds the last firmware counter",
	      f.total - 1);
	fx_teardown(&f, "snapshot edges");
}

void test_shmem(void)
{
	test_set_shmem();
	test_snapshot();
}
