// SPDX-License-Identifier: BSD-2-Clause
/* FID 5 and 6 and the firmware events: counting only while started. */
#include <limits.h>
#include <tally/fw_event.h>
#include "fixture.h"

_Static_assert(FW_EV_TALLY_ECALL == SBI_PMU_FW_TALLY_ECALL &&
	       FW_EV_TALLY_TRAP == SBI_PMU_FW_TALLY_TRAP,
	       "fw_event.h and sbi_pmu_spec.h agree on Tally's events");
_Static_assert(FW_EV_MISALIGNED_LOAD == SBI_PMU_FW_MISALIGNED_LOAD &&
	       FW_EV_SET_TIMER == SBI_PMU_FW_SET_TIMER &&
	       FW_EV_IPI_RECEIVED == SBI_PMU_FW_IPI_RECEIVED &&
	       FW_EV_HFENCE_VVMA_ASID_RECEIVED ==
	       SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED,
	       "fw_event.h and sbi_pmu_spec.h agree on the standard events");

static void test_fw_read(void)
{
	struct fx f;

	fx_setup(&f, NULL);
	for (unsigned int i = 0; i < f.nr_hw; i++)
		CHECK_ERR(pmu_sbi_counter_fw_read(&f.h, i), SBI_ERR_INVALID_PARAM,
			  "fw_read(%u): a hardware counter or hole: INVALID_PARAM", i);
	CHECK_ERR(pmu_sbi_counter_fw_read(&f.h, f.total), SBI_ERR_INVALID_PARAM,
		  "fw_read(num_counters): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_fw_read(&f.h, ULONG_MAX), SBI_ERR_INVALID_PARAM,
		  "fw_read(ULONG_MAX): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_fw_read_hi(&f.h, 3), SBI_ERR_INVALID_PARAM,
		  "fw_read_hi(3): a hardware counter: INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_fw_read_hi(&f.h, 1), SBI_ERR_INVALID_PARAM,
		  "fw_read_hi(1): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_fw_read_hi(&f.h, f.total), SBI_ERR_INVALID_PARAM,
		  "fw_read_hi(num_counters): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_fw_read_hi(&f.h, ULONG_MAX), SBI_ERR_INVALID_PARAM,
		  "fw_read_hi(ULONG_MAX): INVALID_PARAM");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, f.fw0), 0, 0,
		  "fw_read: an unconfigured firmware counter reads its count (0)");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, f.total - 1), 0, 0,
		  "fw_read: the last firmware counter");
	fx_cfg(&f, f.fw0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_FW(7), 0);
	fx_start(&f, f.fw0, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
		 0x1234567800000005ULL);
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, f.fw0), 0, 0x1234567800000005ULL,
		  "fw_read: SET_INIT_VALUE on a firmware counter (RV64: all 64 bits)");
	CHECK_RET(pmu_sbi_counter_fw_read_hi(&f.h, f.fw0), 0, 0,
		  "fw_read_hi: always 0 on RV64");
	fx_teardown(&f, "fw_read");
}

static void test_fw_counting(void)
{
	struct fx f;
	unsigned int a, b, c, p1, p2, e, t;

	fx_setup(&f, NULL);
	a = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_IPI_SENT), 0).value;
	b = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_IPI_SENT), 0).value;
	c = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_IPI_RECEIVED), 0).value;
	p1 = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(0xFFFF), 0x42).value;
	p2 = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(0xFFFF), 0x43).value;
	e = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_TALLY_ECALL), 0).value;
	t = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_TALLY_TRAP), 0).value;
	CHECK(a == f.fw0 && b == a + 1 && c == a + 2 && p1 == a + 3 &&
	      p2 == a + 4 && e == a + 5 && t == a + 6,
	      "seven firmware counters configured");
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	pmu_fw_platform_event(&f.h, 0x42);
	pmu_fw_event(&f.h, SBI_PMU_FW_TALLY_ECALL);
	CHECK(pmu_sbi_counter_fw_read(&f.h, a).value == 0 &&
	      pmu_sbi_counter_fw_read(&f.h, p1).value == 0 &&
	      pmu_sbi_counter_fw_read(&f.h, e).value == 0,
	      "configured but not started: events are not counted");
	fx_start(&f, a, 0x7F, 0, 0);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_RECEIVED);
	pmu_fw_event(&f.h, SBI_PMU_FW_SET_TIMER);
	pmu_fw_platform_event(&f.h, 0x42);
	pmu_fw_platform_event(&f.h, 0x42);
	pmu_fw_platform_event(&f.h, 0x43);
	pmu_fw_platform_event(&f.h, 0x44);
	for (int i = 0; i < 5; i++)
		pmu_fw_event(&f.h, SBI_PMU_FW_TALLY_ECALL);
	pmu_fw_event(&f.h, SBI_PMU_FW_TALLY_TRAP);
	pmu_fw_event(&f.h, 22);			/* reserved: ignored */
	pmu_fw_event(&f.h, 300);		/* not Tally's: ignored */
	pmu_fw_event(&f.h, SBI_PMU_FW_PLATFORM);	/* needs its data */
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, a), 0, 2,
		  "started: IPI_SENT counted twice");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, b), 0, 2,
		  "two counters of the same event both count");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, c), 0, 1,
		  "IPI_RECEIVED counted once; SET_TIMER counted nowhere");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, p1), 0, 2,
		  "SBI_PMU_FW_PLATFORM 0x42 counts only its encoding");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, p2), 0, 1,
		  "SBI_PMU_FW_PLATFORM 0x43 counts only its encoding");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, e), 0, 5,
		  "Tally event 256: ecalls handled");
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, t), 0, 1,
		  "Tally event 257: M-mode traps taken");
	fx_stop(&f, a, 1, 0);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	CHECK(pmu_sbi_counter_fw_read(&f.h, a).value == 2 &&
	      pmu_sbi_counter_fw_read(&f.h, b).value == 3,
	      "stopped counter stops counting, the other one goes on");
	fx_start(&f, a, 1, 0, 0);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, a), 0, 3,
		  "restarted without a value: counts on from 2");
	fx_stop(&f, a, 0x7F, SBI_PMU_STOP_FLAG_RESET);
	for (unsigned int s = 0; s < PMU_FW_SLOT_COUNT; s++)
		if (f.h.fw_slot_ctrs[s])
			CHECK(0, "slot %u still has running counters", s);
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	pmu_fw_platform_event(&f.h, 0x42);
	CHECK(pmu_sbi_counter_fw_read(&f.h, a).value == 3 &&
	      pmu_sbi_counter_fw_read(&f.h, p1).value == 2,
	      "after stop RESET nothing counts; the last count stays readable");
	CHECK(f.sim.nlog == 0 || (sim_log_count(&f.sim, 'E') == 0 &&
	      sim_log_count(&f.sim, 'C') == 0),
	      "firmware counters never touch a counter CSR");
	fx_teardown(&f, "firmware counting");
}

/* Every standard firmware event counts on its own counter. */
static void test_fw_all_events(void)
{
	struct fx f;
	unsigned int codes[SBI_PMU_FW_STANDARD_COUNT + SBI_PMU_FW_TALLY_COUNT];
	unsigned int n = 0, done = 0;

	for (unsigned int c = 0; c < SBI_PMU_FW_STANDARD_COUNT; c++)
		codes[n++] = c;
	codes[n++] = SBI_PMU_FW_TALLY_ECALL;
	codes[n++] = SBI_PMU_FW_TALLY_TRAP;
	while (done < n) {
		unsigned int batch = n - done < PMU_FW_COUNTERS ?
				     n - done : PMU_FW_COUNTERS;
		bool ok = true;

		fx_setup(&f, NULL);
		for (unsigned int i = 0; i < batch; i++) {
			struct sbiret r = fx_cfg(&f, 0, f.all,
						 SBI_PMU_CFG_FLAG_AUTO_START,
						 EV_FW(codes[done + i]), 0);
			ok &= r.error == 0 && r.value == f.fw0 + i;
		}
		/* event code k happens k + 1 times */
		for (unsigned int i = 0; i < batch; i++)
			for (unsigned int k = 0; k <= i; k++)
				pmu_fw_event(&f.h, codes[done + i]);
		for (unsigned int i = 0; i < batch; i++)
			ok &= pmu_sbi_counter_fw_read(&f.h, f.fw0 + i).value ==
			      i + 1;
		CHECK(ok, "firmware events %u..%u (of %u) each count exactly their "
		      "own occurrences", codes[done], codes[done + batch - 1], n);
		fx_teardown(&f, "all firmware events");
		done += batch;
	}
}

void test_fw(void)
{
	struct pmu_hart zero = { 0 };

	pmu_fw_event(&zero, SBI_PMU_FW_IPI_SENT);
	pmu_fw_platform_event(&zero, 1);
	CHECK(1, "pmu_fw_event on a zeroed (not yet initialised) hart is harmless");
	test_fw_read();
	test_fw_counting();
	test_fw_all_events();
}
