// SPDX-License-Identifier: BSD-2-Clause
/* FID 2: counter_config_matching, every flag and every error row. */
#include <limits.h>
#include "fixture.h"

static void test_errors(void)
{
	struct fx f;

	fx_setup(&f, NULL);
	/* Table 9: INVALID_PARAM for a reserved flag bit */
	for (unsigned int b = 8; b < 64; b += 11)
		CHECK_ERR(fx_cfg(&f, 0, f.all, 1UL << b, EV_CYCLES, 0),
			  SBI_ERR_INVALID_PARAM,
			  "config_matching: reserved flag bit %u: INVALID_PARAM", b);
	CHECK_ERR(fx_cfg(&f, 0, f.all, 1UL << 63, EV_CYCLES, 0),
		  SBI_ERR_INVALID_PARAM,
		  "config_matching: reserved flag bit 63: INVALID_PARAM");
	CHECK_ERR(fx_cfg(&f, 0, f.all, ULONG_MAX, EV_CYCLES, 0),
		  SBI_ERR_INVALID_PARAM,
		  "config_matching: all flag bits: INVALID_PARAM");
	CHECK_ERR(fx_cfg(&f, 0, f.all, 1UL << 8, 0xFFFFFFUL, 0),
		  SBI_ERR_INVALID_PARAM,
		  "config_matching: INVALID_PARAM (flags) wins over an unknown event");
	CHECK_ERR(fx_cfg(&f, 0, BIT(1), 0, 0xFFFFFFUL, 0),
		  SBI_ERR_INVALID_PARAM,
		  "config_matching: INVALID_PARAM (set) wins over an unknown event");
	/* Table 9: NOT_SUPPORTED when no counter of the set can count it */
	static const struct {
		unsigned long ev;
		uint64_t data;
		const char *what;
	} nope[] = {
		{ 0x0, 0, "event 0x0 (SBI_PMU_HW_NO_EVENT)" },
		{ EV_CACHE_REF, 0, "a type 0 event in no map row" },
		{ 0xB, 0, "type 0 code 11 (undefined)" },
		{ 0x10001 + 0x100, 0, "a cache event in no map row" },
		{ 0x40000, 0, "type 4 (reserved)" },
		{ 0xE0001, 0, "type 14 (reserved)" },
		{ 0x100001, 0, "event_idx wider than 20 bits" },
		{ ULONG_MAX, 0, "event_idx ULONG_MAX" },
		{ EV_RAW | 1, 0x512, "raw event with code != 0" },
		{ EV_RAW, 0x1000000000512ULL, "raw event data beyond 48 bits" },
		{ EV_RAW, 0x600, "raw event in no raw row" },
		{ EV_RAW2 | 5, 0xABCDEF, "raw v2 event with code != 0" },
		{ EV_RAW2, 0x100000000ABCDEFULL, "raw v2 data beyond 56 bits" },
		{ EV_FW(22), 0, "firmware code 22 (reserved)" },
		{ EV_FW(255), 0, "firmware code 255 (reserved)" },
		{ EV_FW(258), 0, "firmware code 258 (no such Tally event)" },
		{ EV_FW(65534), 0, "firmware code 65534" },
		{ EV_FW(0xFFFF), 0x7, "SBI_PMU_FW_PLATFORM the board does not count" },
	};
	for (unsigned int i = 0; i < sizeof(nope) / sizeof(nope[0]); i++)
		CHECK_ERR(fx_cfg(&f, 0, f.all, 0, nope[i].ev, nope[i].data),
			  SBI_ERR_NOT_SUPPORTED, "config_matching: %s: NOT_SUPPORTED",
			  nope[i].what);
	CHECK_ERR(fx_cfg(&f, 0, BIT(0) | BIT(2), 0, EV_DTLB_RD_MISS, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "config_matching: set of counters that cannot count it: NOT_SUPPORTED");
	CHECK_ERR(fx_cfg(&f, 0, DEF_PROG, 0, EV_FW(3), 0), SBI_ERR_NOT_SUPPORTED,
		  "config_matching: firmware event, hardware counters only: NOT_SUPPORTED");
	CHECK_ERR(fx_cfg(&f, f.fw0, 1, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED,
		  "config_matching: cycles on a firmware counter: NOT_SUPPORTED");
	CHECK(f.h.configured == 0 && f.sim.nlog == 0,
	      "refused config_matching calls changed nothing");
	/* every candidate busy */
	for (unsigned int i = 3; i <= 7; i++)
		CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_DTLB_WR_MISS, 0), 0, i,
			  "config_matching: dTLB write misses #%u -> counter %u",
			  i - 2, i);
	CHECK_ERR(fx_cfg(&f, 0, f.all, 0, EV_DTLB_WR_MISS, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "config_matching: all five candidates configured: NOT_SUPPORTED");
	fx_teardown(&f, "config errors");

	struct fx_opts o = fx_default;
	o.no_hooks = true;
	fx_setup(&f, &o);
	CHECK_ERR(fx_cfg(&f, 0, f.all, 0, EV_FW(0xFFFF), 0x42),
		  SBI_ERR_NOT_SUPPORTED,
		  "config_matching: SBI_PMU_FW_PLATFORM without board hooks: "
		  "NOT_SUPPORTED");
	CHECK_ERR(fx_cfg(&f, 0, f.all, 0, EV_STALL_BE, 0), SBI_ERR_NOT_SUPPORTED,
		  "config_matching: the board's event without board hooks: "
		  "NOT_SUPPORTED");
	fx_teardown(&f, "no hooks");
}

static void test_events(void)
{
	struct fx f;
	struct sbiret r;

	fx_setup(&f, NULL);
	r = fx_cfg(&f, 0, f.all, 0, EV_L1D_RD + 3, 0);
	CHECK_RET(r, 0, 9, "config_matching: cache event in a range row -> 9");
	CHECK(f.sim.evt[9] == ((EV_L1D_RD + 3) | MHPMEVENT_OF),
	      "... mhpmevent = zero-extended event_idx | OF (0x%llx)",
	      (unsigned long long)f.sim.evt[9]);
	CHECK(inhibited(&f, 9) && (f.h.configured & BIT(9)) &&
	      !(f.h.started & BIT(9)), "... configured, inhibited, not started");
	r = fx_cfg(&f, 0, f.all, 0, EV_BR_MISS, 0);
	CHECK_RET(r, 0, 8, "config_matching: event with a selector row -> 8");
	CHECK(f.sim.evt[8] == (0x1234 | MHPMEVENT_OF),
	      "... mhpmevent = the selector row's value | OF");
	r = fx_cfg(&f, 0, f.all, 0, EV_RAW, 0x512);
	CHECK_RET(r, 0, 3, "config_matching: raw (type 2) event 0x512 -> 3");
	CHECK(f.sim.evt[3] == (0x512 | MHPMEVENT_OF),
	      "... mhpmevent = event_data, bits 63:48 from the firmware");
	r = fx_cfg(&f, 0, f.all, 0, EV_RAW2, 0xABCDEF);
	CHECK_RET(r, 0, 6, "config_matching: raw v2 (type 3) event -> 6");
	r = fx_cfg(&f, 0, f.all, 0, EV_RAW2, 0xDEAD);
	CHECK_RET(r, 0, 4, "config_matching: raw v2 event from the board hook -> 4");
	CHECK(f.sim.evt[4] == (0xDEAD | MHPMEVENT_OF), "... with its selector");
	r = fx_cfg(&f, 0, f.all, 0, EV_STALL_BE, 0);
	CHECK_RET(r, 0, 10, "config_matching: type 0 event from the board hook -> 10");
	CHECK(f.sim.evt[10] == (0x99 | MHPMEVENT_OF),
	      "... the hook's bits 63:56 are dropped, OF set (0x%llx)",
	      (unsigned long long)f.sim.evt[10]);
	r = fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0);
	CHECK_RET(r, 0, 5, "config_matching: dTLB read misses -> lowest free, 5");
	r = fx_cfg(&f, 0, f.all, 0, EV_ITLB_RD_MISS, 0);
	CHECK_RET(r, 0, 7, "config_matching: iTLB read misses -> 7");
	CHECK(f.sim.evt[7] == (EV_ITLB_RD_MISS | (1ULL << 50) | MHPMEVENT_OF),
	      "... hw_event_value hook adds its vendor bit; the library keeps OF");
	CHECK(f.h.counter[7].evsel == (EV_ITLB_RD_MISS | (1ULL << 50)),
	      "... and the saved value has no OF");
	for (unsigned int code = 0; code < SBI_PMU_FW_STANDARD_COUNT &&
	     code < PMU_FW_COUNTERS; code++)
		CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_FW(code), 0), 0, f.fw0 + code,
			  "config_matching: standard firmware event %u -> %u", code,
			  f.fw0 + code);
	fx_teardown(&f, "events");

	fx_setup(&f, NULL);
	for (unsigned int code = 16; code < SBI_PMU_FW_STANDARD_COUNT; code++)
		CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_FW(code), 0), 0,
			  f.fw0 + code - 16,
			  "config_matching: standard firmware event %u", code);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_TALLY_ECALL), 0), 0,
		  f.fw0 + 6, "config_matching: Tally event 256 (ecalls)");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_TALLY_TRAP), 0), 0,
		  f.fw0 + 7, "config_matching: Tally event 257 (M-mode traps)");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_FW(0xFFFF), 0x42), 0, f.fw0 + 8,
		  "config_matching: SBI_PMU_FW_PLATFORM with a board encoding");
	CHECK(f.h.counter[f.fw0 + 8].event_data == 0x42 &&
	      f.h.counter[f.fw0 + 7].event_data == 0,
	      "... keeps event_data for PLATFORM only");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_FW(5), 0xFFFF), 0, f.fw0 + 9,
		  "config_matching: firmware event: event_data is ignored");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0x77), 0, 3,
		  "config_matching: cache event: event_data is ignored");
	CHECK(f.sim.nlog > 0 && sim_log_count(&f.sim, 'R') == 0 &&
	      sim_log_count(&f.sim, 'W') == 0, "config_matching never touches memory");
	fx_teardown(&f, "firmware events");
}

/* Cycles and instructions: fixed or programmable counter. */
static void test_fixed_choice(void)
{
	struct fx f;
	struct fx_opts o = fx_default;

	fx_setup(&f, NULL);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 3,
		  "Sscofpmf: cycles get a programmable counter (OF for sampling)");
	CHECK(f.sim.evt[3] == (EV_CYCLES | MHPMEVENT_OF),
	      "... programmed with the cycles selector");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_INSTR, 0), 0, 4,
		  "Sscofpmf: instructions get a programmable counter");
	CHECK_RET(fx_cfg(&f, 0, BIT(0) | BIT(2), 0, EV_CYCLES, 0), 0, 0,
		  "Sscofpmf: cycles with only counter 0 in the set -> 0");
	CHECK(inhibited(&f, 0), "... counter 0 is inhibited while configured");
	CHECK_RET(fx_cfg(&f, 0, BIT(2), 0, EV_INSTR, 0), 0, 2,
		  "Sscofpmf: instructions with only counter 2 in the set -> 2");
	CHECK_ERR(fx_cfg(&f, 0, BIT(0), 0, EV_INSTR, 0), SBI_ERR_NOT_SUPPORTED,
		  "counter 0 never counts instructions");
	CHECK_ERR(fx_cfg(&f, 0, BIT(2), 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED,
		  "counter 2 never counts cycles");
	fx_teardown(&f, "fixed choice with Sscofpmf");

	fx_setup(&f, NULL);
	for (unsigned int i = 3; i <= 7; i++)
		fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 0,
		  "Sscofpmf: no programmable counter free: cycles fall back to 0");
	fx_teardown(&f, "fallback");

	o.sscofpmf = false;
	fx_setup(&f, &o);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 0,
		  "no Sscofpmf: cycles get fixed counter 0");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_INSTR, 0), 0, 2,
		  "no Sscofpmf: instructions get fixed counter 2");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 3,
		  "no Sscofpmf: a second cycles event gets a programmable counter");
	CHECK(f.sim.evt[3] == EV_CYCLES,
	      "... without OF (no Sscofpmf: bits 63:58 untouched)");
	fx_teardown(&f, "fixed choice without Sscofpmf");

	o = fx_default;
	o.counters = DEF_COUNTERS & ~(uint32_t)BIT(0);
	fx_setup(&f, &o);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 3,
		  "a hart without mcycle: cycles on a programmable counter");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, 0), SBI_ERR_INVALID_PARAM,
		  "... and counter 0 is a hole");
	fx_teardown(&f, "no mcycle");
}

static void test_flags(void)
{
	struct fx f;
	struct sbiret r;

	fx_setup(&f, NULL);
	/* CLEAR_VALUE */
	f.sim.ctr[3] = 1234;
	r = fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0);
	CHECK(r.value == 3 && f.sim.ctr[3] == 1234,
	      "without CLEAR_VALUE the counter keeps its value");
	f.sim.ctr[4] = 1234;
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_CLEAR_VALUE, EV_DTLB_RD_MISS, 0);
	CHECK(r.value == 4 && f.sim.ctr[4] == 0, "CLEAR_VALUE zeroes the counter");
	CHECK(sim_log_find(&f.sim, 0, 'E', 4) < sim_log_find(&f.sim, 0, 'C', 4),
	      "... written after its mhpmevent");
	/* AUTO_START */
	f.sim.ctr[5] = 100;
	sim_log_clear(&f.sim);
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_AUTO_START, EV_DTLB_RD_MISS, 0);
	CHECK(r.value == 5 && (f.h.started & BIT(5)) && !inhibited(&f, 5),
	      "AUTO_START starts the counter");
	CHECK(f.sim.ctr[5] == 100 && sim_log_count(&f.sim, 'C') == 0,
	      "AUTO_START leaves the value alone");
	CHECK(!(f.sim.evt[5] & MHPMEVENT_OF), "AUTO_START clears OF");
	sim_tick(&f.sim, SIM_S, 10);
	CHECK(f.sim.ctr[5] == 110 && f.sim.ctr[3] == 1234,
	      "the auto-started counter counts, the configured one does not");
	/* CLEAR_VALUE | AUTO_START */
	f.sim.ctr[6] = 55;
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_CLEAR_VALUE |
		   SBI_PMU_CFG_FLAG_AUTO_START, EV_DTLB_RD_MISS, 0);
	sim_tick(&f.sim, SIM_U, 3);
	CHECK(r.value == 6 && f.sim.ctr[6] == 3,
	      "CLEAR_VALUE | AUTO_START: counts from 0");
	/* firmware counters */
	f.h.counter[f.fw0].value = 99;
	r = fx_cfg(&f, 0, f.all, 0, EV_FW(SBI_PMU_FW_SET_TIMER), 0);
	CHECK(r.value == f.fw0 && pmu_sbi_counter_fw_read(&f.h, f.fw0).value == 99,
	      "firmware counter without CLEAR_VALUE keeps its count");
	f.h.counter[f.fw0 + 1].value = 99;
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_CLEAR_VALUE |
		   SBI_PMU_CFG_FLAG_AUTO_START, EV_FW(SBI_PMU_FW_SET_TIMER), 0);
	pmu_fw_event(&f.h, SBI_PMU_FW_SET_TIMER);
	CHECK(r.value == f.fw0 + 1 &&
	      pmu_sbi_counter_fw_read(&f.h, f.fw0 + 1).value == 1 &&
	      pmu_sbi_counter_fw_read(&f.h, f.fw0).value == 99,
	      "firmware counter with CLEAR_VALUE | AUTO_START counts from 0; "
	      "the configured-only one does not count");
	fx_teardown(&f, "flags");
}

static void test_skip_match(void)
{
	struct fx f;

	fx_setup(&f, NULL);
	CHECK_RET(fx_cfg(&f, 5, 0x3, SBI_PMU_CFG_FLAG_SKIP_MATCH,
			 EV_DTLB_RD_MISS, 0), 0, 5,
		  "SKIP_MATCH: the first counter of the set (5), not the lowest free");
	CHECK_RET(fx_cfg(&f, 0, BIT(4) | BIT(6), SBI_PMU_CFG_FLAG_SKIP_MATCH,
			 EV_DTLB_RD_MISS, 0), 0, 4,
		  "SKIP_MATCH: first set bit of the mask (4)");
	CHECK_ERR(fx_cfg(&f, 8, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "SKIP_MATCH: first counter cannot count the event: NOT_SUPPORTED");
	CHECK_ERR(fx_cfg(&f, 8, 3, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_L1D_RD, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "SKIP_MATCH: no fallback to the second counter of the set");
	CHECK_RET(fx_cfg(&f, 0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_CYCLES, 0), 0, 0,
		  "SKIP_MATCH: cycles on counter 0 (Linux's legacy mode)");
	CHECK_ERR(fx_start(&f, 5, 1, 0, 0), SBI_SUCCESS, "start counter 5");
	CHECK_ERR(fx_cfg(&f, 5, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_WR_MISS, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "SKIP_MATCH: a started counter cannot be configured: NOT_SUPPORTED");
	CHECK(f.h.counter[5].event_idx == EV_DTLB_RD_MISS && !inhibited(&f, 5),
	      "... and it keeps running its event");
	CHECK_RET(fx_cfg(&f, 4, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_ITLB_RD_MISS, 0),
		  0, 4, "SKIP_MATCH: a configured, stopped counter is reconfigured");
	CHECK(f.h.counter[4].event_idx == EV_ITLB_RD_MISS &&
	      f.sim.evt[4] == (EV_ITLB_RD_MISS | MHPMEVENT_OF),
	      "... with the new event");
	CHECK_RET(fx_cfg(&f, f.fw0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_FW(7), 0),
		  0, f.fw0, "SKIP_MATCH: a firmware counter");
	CHECK_RET(fx_cfg(&f, f.fw0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_FW(8), 0),
		  0, f.fw0, "SKIP_MATCH: a firmware counter reconfigured");
	CHECK(f.h.counter[f.fw0].fw_slot == 8, "... counts the new event");
	fx_teardown(&f, "skip match");
}

static void test_filters_unhonoured(void);

/* SET_*INH: Sscofpmf mhpmevent bits, Smcntrpmf mNcfg, or NOT_SUPPORTED. */
static void test_filters(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	struct sbiret r;
	static const struct {
		unsigned long flag;
		uint64_t bits;
		const char *name;
	} inh[] = {
		{ SBI_PMU_CFG_FLAG_SET_VUINH, MHPMEVENT_VUINH, "VUINH" },
		{ SBI_PMU_CFG_FLAG_SET_VSINH, MHPMEVENT_VSINH, "VSINH" },
		{ SBI_PMU_CFG_FLAG_SET_UINH, MHPMEVENT_UINH, "UINH" },
		{ SBI_PMU_CFG_FLAG_SET_SINH, MHPMEVENT_SINH, "SINH" },
		{ SBI_PMU_CFG_FLAG_SET_MINH, MHPMEVENT_MINH, "MINH" },
	};

	fx_setup(&f, NULL);
	for (unsigned int i = 0; i < 5; i++) {
		r = fx_cfg(&f, 0, DEF_PROG, inh[i].flag, EV_DTLB_RD_MISS, 0);
		bool host = i >= 2;	/* U, S, M also inhibit M */

		CHECK(r.error == 0 && f.sim.evt[r.value] == (EV_DTLB_RD_MISS |
		      inh[i].bits | (host ? MHPMEVENT_MINH : 0) | MHPMEVENT_OF |
		      (r.value == 7 ? 1ULL << 50 : 0)),
		      "Sscofpmf: SET_%s -> mhpmevent %s bit (plus %sOF)",
		      inh[i].name, inh[i].name, host ? "MINH, " : "");
	}
	fx_teardown(&f, "filter bits");

	fx_setup(&f, NULL);
	r = fx_cfg(&f, 0, DEF_PROG, SBI_PMU_CFG_FLAG_SET_SINH |
		   SBI_PMU_CFG_FLAG_AUTO_START | SBI_PMU_CFG_FLAG_CLEAR_VALUE,
		   EV_DTLB_RD_MISS, 0);
	sim_tick(&f.sim, SIM_U, 5);
	sim_tick(&f.sim, SIM_S, 7);
	sim_tick(&f.sim, SIM_M, 11);
	CHECK(r.error == 0 && f.sim.ctr[r.value] == 5,
	      "Sscofpmf, SINH (Linux exclude_kernel): counts U only, not S or M");
	r = fx_cfg(&f, 0, DEF_PROG, SBI_PMU_CFG_FLAG_SET_UINH |
		   SBI_PMU_CFG_FLAG_AUTO_START | SBI_PMU_CFG_FLAG_CLEAR_VALUE,
		   EV_DTLB_RD_MISS, 0);
	sim_tick(&f.sim, SIM_U, 5);
	sim_tick(&f.sim, SIM_S, 7);
	sim_tick(&f.sim, SIM_M, 11);
	CHECK(r.error == 0 && f.sim.ctr[r.value] == 7,
	      "Sscofpmf, UINH (Linux exclude_user): counts S only");
	r = fx_cfg(&f, 0, DEF_PROG, SBI_PMU_CFG_FLAG_AUTO_START |
		   SBI_PMU_CFG_FLAG_CLEAR_VALUE, EV_DTLB_RD_MISS, 0);
	sim_tick(&f.sim, SIM_U, 5);
	sim_tick(&f.sim, SIM_S, 7);
	sim_tick(&f.sim, SIM_M, 11);
	CHECK(r.error == 0 && f.sim.ctr[r.value] == 23 &&
	      !(f.sim.evt[r.value] & MHPMEVENT_INH_MASK),
	      "no filter flag: counts every mode");
	r = fx_cfg(&f, 0, DEF_PROG, SBI_PMU_CFG_FLAG_SET_VSINH |
		   SBI_PMU_CFG_FLAG_SET_VUINH | SBI_PMU_CFG_FLAG_AUTO_START |
		   SBI_PMU_CFG_FLAG_CLEAR_VALUE, EV_DTLB_RD_MISS, 0);
	sim_tick(&f.sim, SIM_VU, 2);
	sim_tick(&f.sim, SIM_VS, 3);
	sim_tick(&f.sim, SIM_U, 5);
	CHECK(r.error == 0 && f.sim.ctr[r.value] == 5,
	      "VSINH | VUINH: counts no guest mode");
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH, EV_CYCLES, 0);
	CHECK_RET(r, 0, 5, "cycles with SINH, no Smcntrpmf: a programmable counter "
		  "(counter 0 cannot filter), the highest free one (filtered requests "
		  "go high: 7 and 6 are taken)");
	fx_teardown(&f, "filter counting");

	/* a counter that cannot filter is never taken while another can */
	fx_setup(&f, NULL);
	CHECK_ERR(fx_cfg(&f, 0, BIT(0), SBI_PMU_CFG_FLAG_SET_UINH, EV_CYCLES, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "cycles with UINH on counter 0 without Smcntrpmf: NOT_SUPPORTED "
		  "(programmable counters could filter it)");
	CHECK_ERR(fx_cfg(&f, 0, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH |
			 SBI_PMU_CFG_FLAG_SET_MINH, EV_CYCLES, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "SKIP_MATCH onto counter 0 with MINH, no Smcntrpmf: NOT_SUPPORTED");
	CHECK(f.h.configured == 0, "... nothing configured");
	fx_teardown(&f, "filter refusals");

	/* Smcntrpmf: cycle/instret filter through mcyclecfg/minstretcfg */
	o = fx_default;
	o.sscofpmf = false;
	o.smcntrpmf = true;
	fx_setup(&f, &o);
	CHECK(f.sim.evt[0] == 0 && f.sim.evt[2] == 0,
	      "Smcntrpmf: init cleared mcyclecfg and minstretcfg");
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH |
		   SBI_PMU_CFG_FLAG_AUTO_START | SBI_PMU_CFG_FLAG_CLEAR_VALUE,
		   EV_CYCLES, 0);
	CHECK_RET(r, 0, 0, "Smcntrpmf: cycles with SINH -> counter 0");
	CHECK(f.sim.evt[0] == (MHPMEVENT_SINH | MHPMEVENT_MINH),
	      "... mcyclecfg = SINH | MINH, no OF (0x%llx)",
	      (unsigned long long)f.sim.evt[0]);
	sim_tick(&f.sim, SIM_U, 5);
	sim_tick(&f.sim, SIM_S, 7);
	sim_tick(&f.sim, SIM_M, 11);
	CHECK(f.sim.ctr[0] == 5, "... counts U-mode cycles only");
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_UINH, EV_INSTR, 0);
	CHECK(r.error == 0 && r.value == 2 &&
	      f.sim.evt[2] == (MHPMEVENT_UINH | MHPMEVENT_MINH),
	      "Smcntrpmf: instructions with UINH -> counter 2, minstretcfg UINH|MINH");
	CHECK_ERR(fx_stop(&f, 0, 1, SBI_PMU_STOP_FLAG_RESET), SBI_SUCCESS,
		  "Smcntrpmf: stop counter 0 with RESET");
	CHECK(f.sim.evt[0] == 0 && !inhibited(&f, 0),
	      "... mcyclecfg back to 0, mcycle runs freely again");
	fx_teardown(&f, "Smcntrpmf");

	test_filters_unhonoured();
}

/*
 * A host-mode filter no counter of the hart can apply: counted in every
 * mode (the flags are hints), or refused by a PMU_STRICT_FILTERS build.
 * want: the counter it must get.  True if it got one.
 */
static bool check_unhonoured(struct sbiret r, unsigned long want,
			     const char *what)
{
	if (PMU_STRICT_FILTERS) {
		CHECK_ERR(r, SBI_ERR_NOT_SUPPORTED, "strict filters: %s: "
			  "NOT_SUPPORTED", what);
		return false;
	}
	CHECK_RET(r, 0, want, "%s: counted in every mode, on counter %lu",
		  what, want);
	return r.error == 0;
}

/* Counts U 5, S 7, M 11, VU 2, VS 3 (28 in all) on every counting counter. */
static void tick_every_mode(struct fx *f)
{
	sim_tick(&f->sim, SIM_U, 5);
	sim_tick(&f->sim, SIM_S, 7);
	sim_tick(&f->sim, SIM_M, 11);
	sim_tick(&f->sim, SIM_VU, 2);
	sim_tick(&f->sim, SIM_VS, 3);
}

static void test_filters_unhonoured(void)
{
	const unsigned long host = SBI_PMU_CFG_FLAG_SET_SINH |
				   SBI_PMU_CFG_FLAG_SET_UINH;
	const unsigned long run = SBI_PMU_CFG_FLAG_AUTO_START |
				  SBI_PMU_CFG_FLAG_CLEAR_VALUE;
	struct fx f;
	struct fx_opts o = fx_default;
	struct sbiret r;

	/* firmware counters never filter */
	fx_setup(&f, NULL);
	check_unhonoured(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_UINH,
				EV_FW(5), 0), f.fw0,
			 "firmware event with UINH (firmware counters cannot filter)");
	fx_teardown(&f, "filters: firmware counters");

	/* no Sscofpmf, no Smcntrpmf: nothing filters */
	o.sscofpmf = false;
	fx_setup(&f, &o);
	if (check_unhonoured(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH | run,
				    EV_DTLB_RD_MISS, 0), 3,
			     "no Sscofpmf: dTLB with SINH")) {
		tick_every_mode(&f);
		CHECK(f.sim.evt[3] == EV_DTLB_RD_MISS && f.sim.ctr[3] == 28,
		      "... no filter bits written, U, S, M, VU, VS all counted "
		      "(%llu)", (unsigned long long)f.sim.ctr[3]);
	}
	CHECK_RET(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_VUINH,
			 EV_DTLB_WR_MISS, 0), 0, PMU_STRICT_FILTERS ? 3 : 4,
		  "no Sscofpmf: VUINH alone is a hint: the event is counted");
	check_unhonoured(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH,
				EV_CYCLES, 0), 0,
			 "no Sscofpmf, no Smcntrpmf: cycles with SINH (mcycle "
			 "preferred: nothing samples)");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_ITLB_RD_MISS, 0), 0,
		  PMU_STRICT_FILTERS ? 4 : 5,
		  "no Sscofpmf: unfiltered event is fine");
	fx_teardown(&f, "filters: no Sscofpmf");

	/* QEMU 7.2: mhpmevent filters do not work for cycles/instructions */
	o = fx_default;
	o.quirks = PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET;
	o.qemu_bug = true;
	o.map = &qemu_map;
	o.counters = 0xFFFFFFFDU;
	fx_setup(&f, &o);
	/* unfilterable requests take the highest free programmable counter */
	if (check_unhonoured(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH | run,
				    EV_CYCLES, 0), 31,
			     "QEMU 7.2 quirk: cycles:u (SINH), the highest counter")) {
		tick_every_mode(&f);
		CHECK(f.sim.ctr[31] == 28, "... U, S, M and the guest modes "
		      "counted (%llu)", (unsigned long long)f.sim.ctr[31]);
	}
	check_unhonoured(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_UINH,
				EV_INSTR, 0), PMU_STRICT_FILTERS ? 0 : 30,
			 "QEMU 7.2 quirk: instructions:k (UINH), the highest free counter");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_ITLB_RD_MISS, 0), 0, 3,
		  "QEMU 7.2 quirk: plain requests still get the lowest counter");
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH | run,
		   EV_DTLB_RD_MISS, 0);
	sim_tick(&f.sim, SIM_U, 5);
	sim_tick(&f.sim, SIM_S, 7);
	CHECK(r.error == 0 && f.sim.ctr[r.value] == 5,
	      "QEMU 7.2 quirk: TLB events still filter (dTLB-load-misses:u)");
	fx_stop(&f, 0, f.all, SBI_PMU_STOP_FLAG_RESET);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 3,
		  "QEMU 7.2 quirk: unfiltered cycles are fine");
	fx_stop(&f, 0, f.all, SBI_PMU_STOP_FLAG_RESET);
	/* KVM: a guest's counter is a host event with exclude_host */
	if (check_unhonoured(fx_cfg(&f, 0, f.all, host | run, EV_INSTR, 0), 31,
			     "QEMU 7.2 quirk: KVM guest's instructions (host "
			     "event with exclude_host: SINH|UINH)")) {
		sim_tick(&f.sim, SIM_VS, 3);
		sim_tick(&f.sim, SIM_VU, 2);
		CHECK(f.sim.ctr[31] == 5, "... the guest's VS and VU instructions "
		      "are counted (%llu)", (unsigned long long)f.sim.ctr[31]);
	}
	fx_teardown(&f, "filters: QEMU filter quirk");

	/* the quirk and Smcntrpmf: mcycle filters, so it is the only choice */
	o.smcntrpmf = true;
	fx_setup(&f, &o);
	r = fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH | run, EV_CYCLES, 0);
	CHECK_RET(r, 0, 0, "quirk + Smcntrpmf: cycles:u -> mcycle, which filters");
	tick_every_mode(&f);
	CHECK(f.sim.ctr[0] == 5 + 2 + 3, "... U and guest modes only (%llu)",
	      (unsigned long long)f.sim.ctr[0]);
	CHECK_ERR(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH, EV_CYCLES, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "quirk + Smcntrpmf: a second cycles:u with mcycle busy: "
		  "NOT_SUPPORTED, never an unfiltered programmable counter");
	fx_teardown(&f, "filters: quirk with Smcntrpmf");

	o = fx_default;
	o.quirks = PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET;
	fx_setup(&f, &o);
	check_unhonoured(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH, EV_RAW,
				0x1), 7,
			 "filter quirk: a raw event with selector 0x1 (cycles), the "
			 "highest of its counters");
	CHECK_RET(fx_cfg(&f, 0, f.all, SBI_PMU_CFG_FLAG_SET_SINH, EV_RAW, 0x512),
		  0, 5, "filter quirk: other raw events filter (the highest of "
		  "their counters 3-5)");
	CHECK(f.sim.evt[5] & MHPMEVENT_SINH, "... with SINH written");
	fx_teardown(&f, "filters: quirk raw");
}

/* QEMU 7.2: one counter per event. */
static void test_one_counter_quirk(void)
{
	struct fx f;
	struct fx_opts o = fx_default;

	o.map = &qemu_map;
	o.counters = 0xFFFFFFFDU;
	fx_setup(&f, &o);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 3,
		  "QEMU map: cycles -> programmable 3");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 0,
		  "QEMU map: second cycles event -> 0 (QEMU counts an event on "
		  "one programmable counter only)");
	CHECK_ERR(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), SBI_ERR_NOT_SUPPORTED,
		  "QEMU map: third cycles event -> NOT_SUPPORTED");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0), 0, 4,
		  "QEMU map: dTLB read misses -> 4");
	CHECK_ERR(fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0), SBI_ERR_NOT_SUPPORTED,
		  "QEMU map: dTLB read misses twice -> NOT_SUPPORTED");
	CHECK_ERR(fx_cfg(&f, 5, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0),
		  SBI_ERR_NOT_SUPPORTED,
		  "QEMU map: SKIP_MATCH onto a second counter of the event -> NOT_SUPPORTED");
	CHECK_RET(fx_cfg(&f, 4, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_DTLB_RD_MISS, 0),
		  0, 4, "QEMU map: SKIP_MATCH onto the counter holding the event is fine");
	CHECK_ERR(fx_stop(&f, 4, 1, SBI_PMU_STOP_FLAG_RESET),
		  SBI_ERR_ALREADY_STOPPED, "QEMU map: release it");
	CHECK(f.sim.evt[4] == 0, "... mhpmevent 0 unmaps the event in QEMU");
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_DTLB_RD_MISS, 0), 0, 4,
		  "QEMU map: after RESET the event can be configured again");
	fx_teardown(&f, "one counter per event");
}

void test_config(void)
{
	test_errors();
	test_events();
	test_fixed_choice();
	test_flags();
	test_skip_match();
	test_filters();
	test_one_counter_quirk();
}
