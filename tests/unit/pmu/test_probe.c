// SPDX-License-Identifier: BSD-2-Clause
/*
 * A hart whose counters do not all count (issue 10, defect 4): a
 * hardwired-zero mhpmcounter (no trap, reads 0) is not offered, and a hart
 * whose PMU set-up fails answers NOT_SUPPORTED to every call instead of
 * reaching a missing ops table.
 */
#include <string.h>
#include "fixture.h"

static void test_probe_hardwired(void)
{
	struct sim_hart s;
	unsigned int bits = 99;
	uint32_t found;

	sim_init(&s, BIT(0) | BIT(2) | 0x78, 48, true, false);	/* 3..6 */
	s.hardwired_zero = BIT(4);
	s.ctr[3] = 1234;
	s.ctr[5] = 77;
	found = pmu_probe_counters(&sim_ops, &s, s.exists, &bits);
	CHECK(found == (BIT(3) | BIT(5) | BIT(6)),
	      "probe: hardwired-zero mhpmcounter4 not offered, 3, 5, 6 are");
	CHECK(bits == 48, "probe: width 48 read back");
	CHECK(s.ctr[3] == 1234 && s.ctr[5] == 77 && s.illegal == 0,
	      "probe: values restored, no access to a counter the hart lacks");
	CHECK((s.inhibit & 0x78) == 0x78, "probe: probed counters left inhibited");
	sim_free(&s);

	sim_init(&s, BIT(0) | BIT(2) | 0x78, 64, true, false);
	s.hardwired_zero = 0x78;
	found = pmu_probe_counters(&sim_ops, &s, s.exists, &bits);
	CHECK(found == 0 && bits == 0,
	      "probe: every programmable counter hardwired: none offered, width 0");
	sim_free(&s);
}

static void test_failed_hart(void)
{
	struct fx f;
	struct pmu_hart_config cfg;
	unsigned long args[6] = { SIM_SMEM, 0, 0, 0, 0, 0 };
	unsigned long fid;
	bool all = true;

	fx_setup(&f, NULL);
	cfg = f.cfg;
	cfg.caps.hpm_bits = 0;	/* what a hardwired-zero probe once gave */
	CHECK(pmu_hart_init(&f.h, &cfg) == SBI_ERR_INVALID_PARAM && !pmu_hart_ready(&f.h),
	      "failed set-up: INVALID_PARAM, hart not ready");
	for (fid = 0; fid <= 10; fid++)
		all &= pmu_sbi_call(&f.h, fid, args).error == SBI_ERR_NOT_SUPPORTED;
	CHECK(all, "failed set-up: FIDs 0-10 (snapshot 7, event_get_info 8 included) "
	      "answer NOT_SUPPORTED");
	pmu_fw_event(&f.h, SBI_PMU_FW_SET_TIMER);
	pmu_hart_suspend(&f.h);
	pmu_hart_resume_nonretentive(&f.h);
	pmu_hart_stop(&f.h);
	CHECK(true, "failed set-up: firmware events, suspend, resume, stop do nothing");
	CHECK(pmu_hart_init(&f.h, &f.cfg) == SBI_SUCCESS && pmu_hart_ready(&f.h) &&
	      pmu_sbi_call(&f.h, 0, args).value == f.total,
	      "a later successful set-up (HSM start) brings the PMU back");
	fx_teardown(&f, "failed set-up");
}

void test_probe(void)
{
	test_probe_hardwired();
	test_failed_hart();
}
