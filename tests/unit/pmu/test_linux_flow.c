// SPDX-License-Identifier: BSD-2-Clause
/*
 * The call sequences of Linux's SBI PMU driver (6.1 and newer), on a hart
 * like QEMU 7.2 with sscofpmf=true, pmu-num=16.
 */
#include <string.h>
#include "fixture.h"

#define PAGE	(SIM_SMEM + 0x8000)

static void test_linux_61(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	unsigned long n, cmask = 0, ctr_ovf;
	struct sbiret r;
	unsigned int cyc, tlb, fw;
	uint64_t prev, width_mask;

	o.map = &qemu_map;
	o.counters = 0x7FFFD;		/* 0, 2, 3..18 */
	o.quirks = PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET;
	o.qemu_bug = true;
	o.no_hooks = true;
	fx_setup(&f, &o);

	/* probe */
	n = pmu_sbi_num_counters(&f.h).value;
	for (unsigned long i = 0; i < n; i++) {
		r = pmu_sbi_counter_get_info(&f.h, i);
		if (!r.error)
			cmask |= 1UL << i;
	}
	CHECK(n == 19 + PMU_FW_COUNTERS && cmask == f.all,
	      "Linux probe: %lu counters, cmask 0x%lx", n, cmask);
	/* CPU starting: stop all with RESET, errors ignored */
	r = fx_stop(&f, 0, cmask, SBI_PMU_STOP_FLAG_RESET);
	CHECK(r.error == SBI_ERR_ALREADY_STOPPED && !inhibited(&f, 0) &&
	      !inhibited(&f, 2), "Linux CPU start: stop_all(RESET) is harmless, "
	      "cycle/instret keep running for rdcycle");

	/* perf record -e cycles: sampling on a programmable counter */
	r = fx_cfg(&f, 0, cmask, 0, EV_CYCLES, 0);
	cyc = (unsigned int)r.value;
	CHECK(r.error == 0 && cyc >= 3 && cyc < 19,
	      "Linux event add (cycles): a programmable counter (%u) that has OF",
	      cyc);
	width_mask = (1ULL << 48) - 1;
	r = fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
		     (-1000ULL) & width_mask);
	CHECK(r.error == 0, "Linux start: SET_INIT_VALUE = -period & width mask");
	/* perf stat -e dTLB-store-misses:u */
	r = fx_cfg(&f, 0, cmask, SBI_PMU_CFG_FLAG_SET_SINH, EV_DTLB_WR_MISS, 0);
	tlb = (unsigned int)r.value;
	CHECK(r.error == 0 && tlb != cyc, "Linux event add (dTLB-store-misses:u)");
	fx_start(&f, tlb, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0);
	/* perf stat -e r8000000000000006 (IPI_SENT) */
	r = fx_cfg(&f, 0, cmask, 0, EV_FW(SBI_PMU_FW_IPI_SENT), 0);
	fw = (unsigned int)r.value;
	CHECK(r.error == 0 && fw >= f.fw0, "Linux event add (firmware IPI_SENT)");
	fx_start(&f, fw, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0);
	/*
	 * cycles:u: QEMU 7.2 cannot filter it.  Counted in every mode on
	 * mcycle (QEMU counts cycles on one programmable counter only, and
	 * that one is busy), or refused by a strict build.
	 */
	r = fx_cfg(&f, 0, cmask, SBI_PMU_CFG_FLAG_SET_SINH, EV_CYCLES, 0);
	if (PMU_STRICT_FILTERS) {
		CHECK_ERR(r, SBI_ERR_NOT_SUPPORTED, "strict filters: Linux event "
			  "add (cycles:u): NOT_SUPPORTED on QEMU 7.2 (perf shows "
			  "<not supported>)");
	} else {
		CHECK_RET(r, 0, 0, "Linux event add (cycles:u): counted in every "
			  "mode on mcycle (QEMU 7.2 cannot filter cycles)");
		fx_stop(&f, 0, 1, SBI_PMU_STOP_FLAG_RESET);
	}

	sim_tick(&f.sim, SIM_U, 600);
	sim_tick(&f.sim, SIM_S, 600);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	CHECK(f.sim.lcofi == 1, "the cycles counter overflowed once: one LCOFI");
	/* overflow handler: stop used hw counters, read scountovf, restart */
	fx_stop(&f, 0, BIT(cyc) | BIT(tlb), 0);
	ctr_ovf = 0;
	for (unsigned int i = 3; i < 19; i++)
		if (f.sim.evt[i] & MHPMEVENT_OF)
			ctr_ovf |= 1UL << i;
	CHECK(ctr_ovf == BIT(cyc),
	      "scountovf (OF bits) names only the overflowed counter");
	CHECK_ERR(fx_start(&f, 0, (BIT(cyc) | BIT(tlb)) & ~ctr_ovf, 0, 0),
		  SBI_SUCCESS, "overflow handler: start the others in one shot");
	CHECK_ERR(fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
			   (-1000ULL) & width_mask), SBI_SUCCESS,
		  "overflow handler: restart the overflowed one");
	sim_tick(&f.sim, SIM_S, 1000);
	CHECK(f.sim.lcofi == 2, "the next period interrupts again");
	CHECK(f.sim.ctr[tlb] == 600, "dTLB-store-misses:u counted U-mode only");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, fw), 0, 1, "IPI_SENT counted once");
	/* event del: stop, read, stop RESET */
	fx_stop(&f, cyc, 1, 0);
	prev = f.sim.ctr[cyc];
	r = fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);
	CHECK(r.error == SBI_ERR_ALREADY_STOPPED && !(f.h.configured & BIT(cyc)) &&
	      f.sim.ctr[cyc] == prev, "Linux del: stop then stop(RESET) releases");
	r = fx_cfg(&f, 0, cmask, 0, EV_CYCLES, 0);
	CHECK(r.error == 0 && r.value == cyc,
	      "the released counter is found again (works twice, not once)");
	fx_teardown(&f, "Linux 6.1 flow");
}

static void test_linux_new(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	static const unsigned long events[] = {
		1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x10000, 0x10001, 0x10019,
		0x1001B, 0x10021, 0x10028,
	};
	unsigned int avail = 0, fc;
	unsigned long cmask;
	struct sbiret r;

	o.map = &qemu_map;
	o.counters = 0x7FFFD;
	o.no_hooks = true;
	fx_setup(&f, &o);
	cmask = f.all;
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, PAGE, 0, 0), SBI_SUCCESS,
		  "Linux >= 6.10: snapshot_set_shmem(per-CPU page)");
	/* boot probing of the standard events */
	for (unsigned int i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		r = fx_cfg(&f, 0, cmask, 0, events[i], 0);
		if (r.error != SBI_ERR_NOT_SUPPORTED)
			avail++;
		if (!r.error)
			fx_stop(&f, r.value, 1, SBI_PMU_STOP_FLAG_RESET);
	}
	CHECK(avail == 5 && f.h.configured == 0,
	      "event probing: the five QEMU events are available, all released "
	      "(%u, 0x%llx)", avail, (unsigned long long)f.h.configured);
	/* counting with snapshots */
	r = fx_cfg(&f, 0, cmask, 0, EV_ITLB_RD_MISS, 0);
	fc = (unsigned int)r.value;
	fx_start(&f, fc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 5);
	sim_tick(&f.sim, SIM_S, 10);
	CHECK_ERR(fx_stop(&f, 0, BIT(fc), SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "stop with TAKE_SNAPSHOT");
	CHECK(sim_mem_get64(&f.sim, PAGE + 8 + 8 * fc) == 15,
	      "the value lands at counter_values[idx - base]");
	sim_mem_put64(&f.sim, PAGE + 8 + 8 * fc, 100);
	CHECK_ERR(fx_start(&f, 0, BIT(fc), SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_SUCCESS, "restart with INIT_SNAPSHOT");
	CHECK(f.sim.ctr[fc] == 100, "... from the page");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ~0UL, ~0UL, 0), SBI_SUCCESS,
		  "CPU down: snapshot_set_shmem(-1, -1)");
	fx_teardown(&f, "Linux >= 6.10 flow");
}

/*
 * Linux 6.12 (Debian's 6.12.117) with the snapshot, as its driver calls:
 * every event carries VSINH | VUINH (perf's default exclude_guest), the
 * overflow handler stops with TAKE_SNAPSHOT and reads the page's overflow
 * bitmap, then restarts with counter_start(idx * 64, used, INIT_SNAPSHOT)
 * where idx is the loop variable left at 64 by for_each_set_bit: a base
 * of 4096.  CPU down sets the page to -1/-1; CPU up does not set it again.
 */
static void test_linux_612(void)
{
	const unsigned long guest = SBI_PMU_CFG_FLAG_SET_VSINH |
				    SBI_PMU_CFG_FLAG_SET_VUINH;
	struct fx f;
	struct fx_opts o = fx_default;
	unsigned int cyc, ins, tlb, fw;
	uint64_t used, width_mask = (1ULL << 48) - 1;
	unsigned long cmask;
	struct sbiret r;

	o.map = &qemu_map;
	o.counters = 0x7FFFD;
	o.quirks = PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET;
	o.qemu_bug = true;
	o.no_hooks = true;
	fx_setup(&f, &o);
	cmask = f.all;
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, PAGE, 0, 0), SBI_SUCCESS,
		  "Linux 6.12 probe: snapshot_set_shmem(page, 0, 0)");

	/* perf stat -e cycles,instructions / perf record -e cycles */
	r = fx_cfg(&f, 0, cmask, guest, EV_CYCLES, 0);
	cyc = (unsigned int)r.value;
	CHECK(r.error == 0 && cyc >= 3 && cyc < 19,
	      "Linux 6.12 cycles (VSINH|VUINH, QEMU ignores filters for cycles): "
	      "a programmable counter (error %ld, %u)", r.error, cyc);
	CHECK(r.error == 0 && !(f.sim.evt[cyc] & MHPMEVENT_MINH) &&
	      (f.sim.evt[cyc] & (MHPMEVENT_VSINH | MHPMEVENT_VUINH)) ==
	      (MHPMEVENT_VSINH | MHPMEVENT_VUINH),
	      "... VSINH|VUINH written, M-mode counted as on 6.1 (0x%llx)",
	      (unsigned long long)f.sim.evt[cyc]);
	r = fx_cfg(&f, 0, cmask, guest, EV_INSTR, 0);
	ins = (unsigned int)r.value;
	CHECK(r.error == 0, "Linux 6.12 instructions with VSINH|VUINH: counted "
	      "(error %ld)", r.error);
	r = fx_cfg(&f, 0, cmask, guest, EV_FW(SBI_PMU_FW_IPI_SENT), 0);
	fw = (unsigned int)r.value;
	CHECK(r.error == 0 && fw >= f.fw0, "Linux 6.12 firmware IPI_SENT with "
	      "VSINH|VUINH: a firmware counter (error %ld)", r.error);
	r = fx_cfg(&f, 0, cmask, guest | SBI_PMU_CFG_FLAG_SET_SINH, EV_CYCLES, 0);
	if (PMU_STRICT_FILTERS) {
		CHECK_ERR(r, SBI_ERR_NOT_SUPPORTED, "strict filters: Linux 6.12 "
			  "cycles:u (SINH|VSINH|VUINH): NOT_SUPPORTED on QEMU 7.2");
	} else {
		CHECK_RET(r, 0, 0, "Linux 6.12 cycles:u (SINH|VSINH|VUINH): "
			  "counted in every mode on mcycle (QEMU 7.2)");
		fx_stop(&f, 0, 1, SBI_PMU_STOP_FLAG_RESET);
	}
	r = fx_cfg(&f, 0, cmask, guest | SBI_PMU_CFG_FLAG_SET_SINH,
		   EV_DTLB_WR_MISS, 0);
	tlb = (unsigned int)r.value;
	CHECK(r.error == 0 && (f.sim.evt[tlb] & MHPMEVENT_MINH),
	      "Linux 6.12 dTLB-store-misses:u: SINH|VSINH|VUINH, M inhibited");
	CHECK_ERR(fx_stop(&f, ins, 1, SBI_PMU_STOP_FLAG_RESET |
			  SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_ALREADY_STOPPED, "Linux 6.12 del of a stopped counter");

	/* perf record -e cycles -c 1000 on the loop */
	fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
		 (-1000ULL) & width_mask);
	fx_start(&f, tlb, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0);
	fx_start(&f, fw, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0);
	sim_tick(&f.sim, SIM_U, 1200);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	CHECK(f.sim.lcofi == 1, "the cycles counter overflowed: one LCOFI");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, fw), 0, 1,
		  "the firmware counter with VSINH|VUINH counts");

	/* overflow handler: stop the used hw counters with TAKE_SNAPSHOT */
	used = BIT(cyc) | BIT(tlb);
	sim_mem_put64(&f.sim, PAGE, ~0ULL);
	CHECK_ERR(fx_stop(&f, 0, used, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "overflow handler: stop(0, used, TAKE_SNAPSHOT)");
	CHECK(sim_mem_get64(&f.sim, PAGE) == BIT(cyc),
	      "the page's overflow bitmap names the overflowed counter only "
	      "(0x%llx)", (unsigned long long)sim_mem_get64(&f.sim, PAGE));
	CHECK(sim_mem_get64(&f.sim, PAGE + 8 + 8 * cyc) == 200 &&
	      sim_mem_get64(&f.sim, PAGE + 8 + 8 * tlb) == 1200,
	      "counter_values[idx] hold the stopped counters");

#if PMU_LINUX_COMPAT
	/* the 6.12 restart: base 4096 means base 0 (pmu_linux_compat.c) */
	sim_mem_put64(&f.sim, PAGE + 8 + 8 * cyc, (-1000ULL) & width_mask);
	CHECK_ERR(fx_start(&f, 64 * 64, used, SBI_PMU_START_FLAG_INIT_SNAPSHOT,
			   0), SBI_SUCCESS,
		  "counter_start(4096, used, INIT_SNAPSHOT) (6.12's restart): "
		  "read as base 0 (Linux compatibility)");
	CHECK(f.sim.ctr[cyc] == ((-1000ULL) & width_mask) &&
	      f.sim.ctr[tlb] == 1200 && (f.h.started & used) == used,
	      "... values from the page, both running again");
#else
	/* strict spec: the 6.12 restart (base 4096): nothing may start or change */
	uint64_t before[64];

	for (unsigned int i = 0; i < 19; i++)
		before[i] = f.sim.ctr[i];
	sim_log_clear(&f.sim);
	sim_mem_put64(&f.sim, PAGE + 8 + 8 * cyc, (-1000ULL) & width_mask);
	CHECK_ERR(fx_start(&f, 64 * 64, used, SBI_PMU_START_FLAG_INIT_SNAPSHOT,
			   0), SBI_ERR_INVALID_PARAM,
		  "counter_start(4096, used, INIT_SNAPSHOT) (6.12's restart): "
		  "INVALID_PARAM");
	CHECK_ERR(fx_start(&f, 64, 1, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "counter_start(64, 1): INVALID_PARAM");
	CHECK_ERR(fx_start(&f, f.total, 1, 0, 0), SBI_ERR_INVALID_PARAM,
		  "counter_start(num_counters, 1): INVALID_PARAM");
	CHECK(!(f.h.started & used) && (f.h.started & BIT(fw)) &&
	      !memcmp(before, f.sim.ctr, sizeof(before[0]) * 19) &&
	      sim_log_count(&f.sim, 'C') == 0 && sim_log_count(&f.sim, 'E') == 0,
	      "... nothing started, no counter or event written, the firmware "
	      "counter still runs");
	CHECK_ERR(fx_start(&f, 0, used, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_SUCCESS, "restart with base 0 (fixed kernel): INIT_SNAPSHOT");
	CHECK(f.sim.ctr[cyc] == ((-1000ULL) & width_mask) &&
	      f.sim.ctr[tlb] == 1200, "... values from the page");
#endif

	/* CPU down: -1/-1; CPU up again does not set the page again */
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ~0UL, ~0UL, 0), SBI_SUCCESS,
		  "CPU down: snapshot_set_shmem(-1, -1)");
	CHECK_ERR(fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_NO_SHMEM, "stop with TAKE_SNAPSHOT, no page: NO_SHMEM");
	CHECK((f.h.started & used) == used, "... and the counter still runs");
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, PAGE, 0, 0), SBI_SUCCESS,
		  "CPU up (patched kernel): snapshot_set_shmem(page) again");
	CHECK_ERR(fx_stop(&f, 0, used | BIT(fw),
			  SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT | SBI_PMU_STOP_FLAG_RESET),
		  SBI_SUCCESS, "... and stop(TAKE_SNAPSHOT | RESET) works");
	fx_teardown(&f, "Linux 6.12 flow");
}

void test_linux_flow(void)
{
	test_linux_61();
	test_linux_new();
	test_linux_612();
}
