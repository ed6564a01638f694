// SPDX-License-Identifier: BSD-2-Clause
/* Hart lifecycle: init, HSM stop/start, non-retentive suspend. */
#include <string.h>
#include "fixture.h"

static void test_init(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	struct pmu_hart h;
	struct pmu_hart_config cfg;
	struct pmu_hart_ops ops;
	struct pmu_map unfrozen;

	o.smcntrpmf = true;
	fx_setup(&f, &o);
	CHECK((f.sim.inhibit & DEF_PROG) == DEF_PROG,
	      "init: programmable counters inhibited");
	CHECK(!inhibited(&f, 0) && !inhibited(&f, 2),
	      "init: mcycle and minstret run (rdcycle/rdinstret keep working)");
	bool zero = true;
	for (unsigned int i = 3; i < DEF_NR_HW; i++)
		zero &= f.sim.evt[i] == 0;
	CHECK(zero, "init: every mhpmevent 0 (no event, unmapped in QEMU)");
	CHECK(f.sim.evt[0] == 0 && f.sim.evt[2] == 0,
	      "init with Smcntrpmf: mcyclecfg = minstretcfg = 0");
	sim_tick(&f.sim, SIM_M, 9);
	CHECK(f.sim.ctr[0] == 9 && f.sim.ctr[2] == 2009 && f.sim.ctr[3] == 3000,
	      "init: cycle/instret count, programmable counters do not");
	CHECK(f.h.configured == 0 && f.h.started == 0 && !f.h.shmem_enabled,
	      "init: nothing configured, started, or shared");
	fx_teardown(&f, "init");

	fx_setup(&f, NULL);
	cfg = f.cfg;
	memset(&h, 0x55, sizeof(h));
	cfg.map = NULL;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM,
	      "init: no map: INVALID_PARAM");
	pmu_map_init(&unfrozen);
	cfg.map = &unfrozen;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM,
	      "init: map not frozen: INVALID_PARAM");
	cfg = f.cfg;
	ops = sim_ops;
	ops.inhibit_clear = NULL;
	cfg.ops = &ops;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM,
	      "init: a required hart hook missing: INVALID_PARAM");
	cfg.ops = NULL;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM,
	      "init: no hart ops: INVALID_PARAM");
	cfg = f.cfg;
	cfg.caps.hpm_bits = 0;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM,
	      "init: programmable counters of width 0: INVALID_PARAM");
	cfg.caps.hpm_bits = 65;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM,
	      "init: width 65: INVALID_PARAM");
	cfg.caps.counters = BIT(0) | BIT(2);
	CHECK(pmu_hart_init(&h, &cfg) == SBI_SUCCESS,
	      "init: width is irrelevant without programmable counters");
	CHECK(pmu_hart_init(NULL, &f.cfg) == SBI_ERR_INVALID_PARAM &&
	      pmu_hart_init(&h, NULL) == SBI_ERR_INVALID_PARAM,
	      "init: NULL hart or config: INVALID_PARAM");
	cfg = f.cfg;
	cfg.caps.counters |= BIT(1);
	CHECK(pmu_hart_init(&h, &cfg) == SBI_SUCCESS && h.nr_hw == DEF_NR_HW &&
	      pmu_sbi_counter_get_info(&h, 1).error == SBI_ERR_INVALID_PARAM,
	      "init: bit 1 (time) in the caps is ignored");
	fx_teardown(&f, "init errors");
}

static void test_hsm_stop(void)
{
	struct fx f;
	unsigned int fc;

	fx_setup(&f, NULL);
	pmu_sbi_snapshot_set_shmem(&f.h, SIM_SMEM, 0, 0);
	fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_AUTO_START, EV_DTLB_RD_MISS, 0);
	fx_cfg(&f, 0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH |
	       SBI_PMU_CFG_FLAG_AUTO_START, EV_CYCLES, 0);
	fx_cfg(&f, 0, f.all, 0, EV_ITLB_RD_MISS, 0);
	fc = (unsigned int)fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_AUTO_START,
				  EV_FW(SBI_PMU_FW_IPI_RECEIVED), 0).value;
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_RECEIVED);
	CHECK(f.h.configured == (BIT(0) | BIT(3) | BIT(4) | BIT(fc)) &&
	      pmu_sbi_counter_fw_read(&f.h, fc).value == 1,
	      "before HSM stop: four counters in use");

	pmu_hart_stop(&f.h);
	CHECK(f.h.configured == 0 && f.h.started == 0,
	      "HSM stop: every counter released");
	CHECK((f.sim.inhibit & DEF_PROG) == DEF_PROG && f.sim.evt[3] == 0 &&
	      f.sim.evt[4] == 0, "HSM stop: programmable counters inhibited, "
	      "events cleared");
	CHECK(!inhibited(&f, 0), "HSM stop: mcycle free-running again");
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_RECEIVED);
	CHECK(pmu_sbi_counter_fw_read(&f.h, fc).value == 0,
	      "HSM stop: firmware counters stopped and cleared");
	CHECK(!f.h.shmem_enabled, "HSM stop: snapshot memory forgotten");

	/* HSM start: the firmware calls pmu_hart_init again */
	f.sim.evt[5] = 0x777;		/* garbage left in a CSR */
	f.sim.inhibit = 0;
	CHECK(pmu_hart_init(&f.h, &f.cfg) == SBI_SUCCESS, "HSM start: re-init");
	CHECK(f.sim.evt[5] == 0 && (f.sim.inhibit & DEF_PROG) == DEF_PROG,
	      "HSM start: CSRs reinitialised");
	CHECK_ERR(fx_stop(&f, 0, f.all, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_NO_SHMEM, "HSM start: no snapshot memory until set again");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0), 0, 3,
		  "HSM start: counters usable again, from the lowest");
	fx_teardown(&f, "HSM stop/start");
}

static void test_suspend(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	unsigned int fc;

	o.smcntrpmf = true;
	fx_setup(&f, &o);
	/* 3: running with SINH; 4: configured, stopped; 5: running, overflowed;
	   2: instructions with UINH (minstretcfg), running; firmware: running */
	fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH | SBI_PMU_CFG_FLAG_SET_SINH,
	       EV_DTLB_RD_MISS, 0);
	fx_cfg(&f, 4, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_WR_MISS, 0);
	fx_cfg(&f, 5, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_ITLB_RD_MISS, 0);
	fx_cfg(&f, 2, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH | SBI_PMU_CFG_FLAG_SET_UINH,
	       EV_INSTR, 0);
	fc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_SET_TIMER),
				  0).value;
	fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 1000);
	fx_start(&f, 4, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 2000);
	fx_stop(&f, 4, 1, 0);
	fx_start(&f, 5, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0xFFFFFFFFFFFFULL);
	fx_start(&f, 2, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 100);
	fx_start(&f, fc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 10);
	sim_tick(&f.sim, SIM_U, 2);	/* 5 overflows; 3 counts U */
	f.sim.ctr[0] = 5555;
	pmu_fw_event(&f.h, SBI_PMU_FW_SET_TIMER);
	CHECK(f.sim.ctr[3] == 1002 && f.sim.ctr[5] == 1 &&
	      (f.sim.evt[5] & MHPMEVENT_OF) && f.sim.ctr[2] == 100,
	      "before suspend: 3 at 1002, 5 overflowed, 2 filtered U-mode");

	pmu_hart_suspend(&f.h);
	sim_power_loss(&f.sim);
	pmu_hart_resume_nonretentive(&f.h);

	CHECK(f.sim.evt[3] == (EV_DTLB_RD_MISS | MHPMEVENT_SINH | MHPMEVENT_MINH),
	      "resume: running counter 3 has its event and filter back, OF clear");
	CHECK(f.sim.evt[4] == (EV_DTLB_WR_MISS | MHPMEVENT_OF),
	      "resume: stopped counter 4 has its event back, OF set");
	CHECK(f.sim.evt[5] == (EV_ITLB_RD_MISS | MHPMEVENT_OF),
	      "resume: overflowed counter 5 keeps OF (no second interrupt)");
	CHECK(f.sim.evt[2] == (MHPMEVENT_UINH | MHPMEVENT_MINH) && f.sim.evt[0] == 0,
	      "resume: minstretcfg filter restored, mcyclecfg 0");
	CHECK(f.sim.ctr[3] == 1002 && f.sim.ctr[4] == 2000 && f.sim.ctr[5] == 1 &&
	      f.sim.ctr[2] == 100 && f.sim.ctr[0] == 5555,
	      "resume: counter values restored (mcycle too)");
	CHECK(!inhibited(&f, 3) && inhibited(&f, 4) && !inhibited(&f, 5) &&
	      !inhibited(&f, 2) && !inhibited(&f, 0) &&
	      (f.sim.inhibit & (DEF_PROG & ~0x38ULL)) == (DEF_PROG & ~0x38ULL),
	      "resume: running counters run, stopped and unconfigured ones are "
	      "inhibited, mcycle runs");
	CHECK(f.h.configured == (BIT(2) | BIT(3) | BIT(4) | BIT(5) | BIT(fc)) &&
	      f.h.started == (BIT(2) | BIT(3) | BIT(5) | BIT(fc)),
	      "resume: the SBI state is unchanged");
	pmu_fw_event(&f.h, SBI_PMU_FW_SET_TIMER);
	CHECK(pmu_sbi_counter_fw_read(&f.h, fc).value == 12,
	      "resume: the firmware counter kept its count and counts on");
	sim_tick(&f.sim, SIM_S, 4);
	sim_tick(&f.sim, SIM_U, 1);
	CHECK(f.sim.ctr[3] == 1003 && f.sim.ctr[4] == 2000,
	      "resume: the filter works again (S not counted), stopped one stays");
	/* Linux after CPU_PM_EXIT: start with SET_INIT_VALUE, no new config */
	CHECK_ERR(fx_start(&f, 4, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 7),
		  SBI_SUCCESS, "resume: Linux restarts counter 4 without "
		  "config_matching");
	sim_tick(&f.sim, SIM_S, 3);
	CHECK(f.sim.ctr[4] == 10 && !(f.sim.evt[4] & MHPMEVENT_OF),
	      "... and it counts its event");
	fx_teardown(&f, "suspend");
}

void test_lifecycle(void)
{
	test_init();
	test_hsm_stop();
	test_suspend();
}
