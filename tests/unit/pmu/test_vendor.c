// SPDX-License-Identifier: BSD-2-Clause
/*
 * The vendor overflow back ends (struct pmu_overflow_ops) on a simulated
 * hart without Sscofpmf: T-Head C9xx (mcounterinten / mcounterof, IRQ 17)
 * and Andes (mcounterinten / mcounterovf, IRQ 18, mcountermask_*), with
 * the semantics sim.h describes.  Every flow runs on both back ends.
 */
#include "fixture.h"

#define SNAP	(SIM_SMEM + 0x3000)
#define TOP48	((1ULL << 48) - 1)

static const char *const vname[] = {
	[SIM_VENDOR_NONE] = "none", [SIM_VENDOR_THEAD] = "T-Head",
	[SIM_VENDOR_ANDES] = "Andes",
};

static void setup(struct fx *f, enum sim_vendor v)
{
	struct fx_opts o = fx_default;

	o.sscofpmf = false;
	o.vendor = v;
	fx_setup(f, &o);
}

static uint64_t snap_of(const struct fx *f)
{
	return sim_mem_get64(&f->sim, SNAP);
}

/* Boot: no interrupt enabled whatever the reset state, no filter left. */
static void test_init(enum sim_vendor v)
{
	struct fx f;
	const char *n = vname[v];

	setup(&f, v);
	CHECK(f.sim.v_inten == 0, "%s: hart init disables every counter's "
	      "overflow interrupt (reset state: all enabled)", n);
	if (v == SIM_VENDOR_ANDES)
		CHECK((f.sim.v_mask[0] | f.sim.v_mask[1] | f.sim.v_mask[2]) &
		      DEF_PROG ? false : true,
		      "%s: hart init clears mcountermask_u/s/m of the "
		      "programmable counters", n);
	CHECK(f.h.vof != NULL, "%s: the back end is in use (no Sscofpmf)", n);
	fx_teardown(&f, n);
}

/* counter_start arms before the counter runs, stop disarms after it stopped. */
static void test_start_stop(enum sim_vendor v)
{
	struct fx f;
	const char *n = vname[v];
	struct sbiret r;
	int a, u, i, d;

	setup(&f, v);
	r = fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0);
	CHECK(r.error == 0 && r.value == 3, "%s: cycles take programmable "
	      "counter 3 (it can interrupt), not mcycle (got %ld/%lu)", n,
	      r.error, r.value);
	f.sim.v_of = BIT(3);		/* stale flag of an earlier use */
	sim_log_clear(&f.sim);
	CHECK_ERR(fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
			   TOP48 - 9), SBI_SUCCESS, "%s: start counter 3 ten "
		  "events before overflow", n);
	a = sim_log_find(&f.sim, 0, 'A', 3);
	u = sim_log_find(&f.sim, 0, 'U', 3);
	CHECK(a >= 0 && u > a && f.sim.log[a].value == BIT(3),
	      "%s: start arms counter 3 (alone) before un-inhibiting it", n);
	CHECK(!(f.sim.v_of & BIT(3)) && (f.sim.v_inten & BIT(3)),
	      "%s: start cleared its flag and enabled its interrupt", n);
	if (v == SIM_VENDOR_THEAD)
		CHECK(f.sim.v_wen & BIT(3), "%s: start set mcounterwen bit 3 "
		      "(else scounterof reads 0)", n);
	sim_tick(&f.sim, SIM_S, 5);
	CHECK(f.sim.v_irqs == 0 && !f.sim.v_pending,
	      "%s: no interrupt before the overflow", n);
	sim_tick(&f.sim, SIM_S, 10);
	CHECK(f.sim.v_irqs == 1 && f.sim.v_pending &&
	      (sim_vendor_scounterof(&f.sim) & BIT(3)),
	      "%s: the overflow raises the interrupt, S-mode sees the flag", n);

	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0), SBI_SUCCESS,
		  "%s: snapshot page", n);
	sim_log_clear(&f.sim);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "%s: stop with TAKE_SNAPSHOT", n);
	i = sim_log_find(&f.sim, 0, 'I', 3);
	d = sim_log_find(&f.sim, 0, 'D', 3);
	CHECK(i >= 0 && d > i && !(f.sim.v_inten & BIT(3)),
	      "%s: stop inhibits, then disables the interrupt", n);
	CHECK(snap_of(&f) == 1, "%s: the snapshot's overflow bitmap has the "
	      "vendor flag (got 0x%llx)", n, (unsigned long long)snap_of(&f));
	CHECK(sim_mem_get64(&f.sim, SNAP + 8) == 5,
	      "%s: and the value after the wrap", n);

	/* S-mode's handler has not cleared the pending bit yet */
	CHECK_ERR(fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
			   TOP48 - 9), SBI_SUCCESS, "%s: restart while the "
		  "interrupt is pending", n);
	CHECK((f.sim.v_of & BIT(3)) && f.sim.v_clear_while_pending == 1,
	      "%s: ... keeps the flag (the pending interrupt is not lost)", n);
	CHECK_ERR(fx_stop(&f, 3, 1, 0), SBI_SUCCESS, "%s: stop", n);
	sim_vendor_ack(&f.sim);
	CHECK_ERR(fx_start(&f, 3, 1, 0, 0), SBI_SUCCESS,
		  "%s: restart after S-mode cleared the pending bit", n);
	CHECK(!(f.sim.v_of & BIT(3)), "%s: ... clears the flag", n);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "%s: stop, no overflow since the start", n);
	CHECK(snap_of(&f) == 0, "%s: overflow bitmap 0", n);
	fx_teardown(&f, n);
}

/*
 * A flag left from a released counter is not the new event's overflow:
 * configured again and never started, the snapshot says 0.
 */
static void test_stale_flag(enum sim_vendor v)
{
	struct fx f;
	const char *n = vname[v];

	setup(&f, v);
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0), SBI_SUCCESS,
		  "%s: snapshot page", n);
	CHECK_RET(fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH |
			 SBI_PMU_CFG_FLAG_AUTO_START, EV_CYCLES, 0), 0, 3,
		  "%s: cycles on 3, auto-started", n);
	f.sim.ctr[3] = TOP48;
	sim_tick(&f.sim, SIM_U, 1);
	CHECK(f.sim.v_of & BIT(3), "%s: counter 3 overflowed", n);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_RESET), SBI_SUCCESS,
		  "%s: stop and release it", n);
	CHECK_RET(fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_INSTR, 0),
		  0, 3, "%s: instructions configured on 3", n);
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_ERR_ALREADY_STOPPED, "%s: snapshot of the stopped counter",
		  n);
	CHECK(snap_of(&f) == 0, "%s: the released counter's flag is not "
	      "reported for the new event", n);
	fx_teardown(&f, n);
}

/*
 * Linux's overflow handler (riscv_pmu_sbi, T-Head/Andes errata): read
 * scounterof, stop the used counters (0, used) with a snapshot, clear the
 * pending bit, restart the overflowed ones from the snapshot.
 */
static void test_linux_handler(enum sim_vendor v)
{
	struct fx f;
	const char *n = vname[v];
	uint64_t used = BIT(3) | BIT(4);
	uint32_t ovf;

	setup(&f, v);
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, SNAP, 0, 0), SBI_SUCCESS,
		  "%s: snapshot page", n);
	CHECK_RET(fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_CYCLES, 0),
		  0, 3, "%s: cycles on 3", n);
	CHECK_RET(fx_cfg(&f, 4, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_INSTR, 0),
		  0, 4, "%s: instructions on 4", n);
	CHECK_ERR(fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
			   TOP48 - 99), SBI_SUCCESS, "%s: sample every 100", n);
	CHECK_ERR(fx_start(&f, 4, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0),
		  SBI_SUCCESS, "%s: count instructions", n);
	sim_tick(&f.sim, SIM_U, 150);
	ovf = sim_vendor_scounterof(&f.sim);
	CHECK(f.sim.v_pending && ovf == BIT(3), "%s: IRQ pending, scounterof "
	      "0x%x", n, ovf);
	CHECK_ERR(fx_stop(&f, 0, used, SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT),
		  SBI_SUCCESS, "%s: handler stops (0, used)", n);
	CHECK(snap_of(&f) == BIT(3) && sim_mem_get64(&f.sim, SNAP + 8 * 4) == 50,
	      "%s: snapshot: bitmap 0x%llx, counter 3 = 50", n,
	      (unsigned long long)snap_of(&f));
	CHECK(!(f.sim.v_inten & used), "%s: both interrupts disabled", n);
	sim_vendor_ack(&f.sim);
	sim_mem_put64(&f.sim, SNAP + 8 * 4, TOP48 - 99);
	CHECK_ERR(fx_start(&f, 0, used, SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_SUCCESS, "%s: restart from the snapshot", n);
	CHECK(!(f.sim.v_of & used) && (f.sim.v_inten & used) == used,
	      "%s: flags clear, interrupts enabled again", n);
	sim_tick(&f.sim, SIM_U, 100);
	CHECK(f.sim.v_irqs == 2, "%s: the next period interrupts again", n);
	fx_teardown(&f, n);
}

/* Mode filters: T-Head has none; Andes filters by counter. */
static void test_filters(enum sim_vendor v)
{
	struct fx f;
	const char *n = vname[v];
	struct sbiret r;

	setup(&f, v);
	r = fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH |
		   SBI_PMU_CFG_FLAG_SET_SINH | SBI_PMU_CFG_FLAG_AUTO_START,
		   EV_CYCLES, 0);
	if (v == SIM_VENDOR_THEAD && PMU_STRICT_FILTERS) {
		CHECK_ERR(r, SBI_ERR_NOT_SUPPORTED, "%s: cycles:u refused "
			  "(strict filters: T-Head has no mode filter)", n);
		fx_teardown(&f, n);
		return;
	}
	CHECK(r.error == 0 && r.value == 3, "%s: cycles:u (SINH) on 3", n);
	f.sim.ctr[3] = 0;
	sim_tick(&f.sim, SIM_U, 7);
	sim_tick(&f.sim, SIM_S, 11);
	sim_tick(&f.sim, SIM_M, 13);
	if (v == SIM_VENDOR_ANDES) {
		CHECK(f.sim.v_mask[1] & f.sim.v_mask[2] & BIT(3) &&
		      !(f.sim.v_mask[0] & BIT(3)), "%s: mcountermask_s and _m "
		      "set for counter 3, _u clear", n);
		CHECK(f.sim.ctr[3] == 7, "%s: only U-mode counted (%llu)", n,
		      (unsigned long long)f.sim.ctr[3]);
	} else {
		CHECK(f.sim.ctr[3] == 31, "%s: no filter: every mode counted "
		      "(%llu)", n, (unsigned long long)f.sim.ctr[3]);
	}
	CHECK(f.sim.priv_without_sscofpmf == 0, "%s: no mhpmevent bits 63:58 "
	      "written", n);
	/* reconfigured without filter: the masks go */
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_RESET), SBI_SUCCESS,
		  "%s: release", n);
	CHECK_RET(fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH, EV_CYCLES, 0),
		  0, 3, "%s: cycles, no filter", n);
	if (v == SIM_VENDOR_ANDES)
		CHECK(!((f.sim.v_mask[0] | f.sim.v_mask[1] | f.sim.v_mask[2]) &
			BIT(3)), "%s: masks of counter 3 cleared", n);
	fx_teardown(&f, n);
}

/* Non-retentive suspend: the vendor CSRs are lost and rebuilt. */
static void test_suspend(enum sim_vendor v)
{
	struct fx f;
	const char *n = vname[v];

	setup(&f, v);
	/* a filter only where the hart has one (strict builds refuse it) */
	CHECK_RET(fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH |
			 (v == SIM_VENDOR_ANDES ? SBI_PMU_CFG_FLAG_SET_UINH : 0),
			 EV_CYCLES, 0), 0, 3, "%s: cycles%s on 3", n,
		  v == SIM_VENDOR_ANDES ? ":k" : "");
	CHECK_ERR(fx_start(&f, 3, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
			   TOP48 - 99), SBI_SUCCESS, "%s: started", n);
	pmu_hart_suspend(&f.h);
	sim_power_loss(&f.sim);
	pmu_hart_resume_nonretentive(&f.h);
	CHECK((f.sim.v_inten & ~(uint32_t)BIT(3)) == 0 &&
	      (f.sim.v_inten & BIT(3)), "%s: after resume only counter 3's "
	      "interrupt is enabled", n);
	if (v == SIM_VENDOR_ANDES)
		CHECK((f.sim.v_mask[0] & DEF_PROG) == BIT(3) &&
		      !(f.sim.v_mask[1] & DEF_PROG),
		      "%s: counter 3's filter back, the others' cleared", n);
	f.sim.ctr[3] = TOP48 - 1;	/* power loss garbled it: set it near */
	sim_tick(&f.sim, SIM_S, 5);
	CHECK(f.sim.v_irqs == 1, "%s: the resumed counter interrupts", n);
	pmu_hart_stop(&f.h);
	CHECK(f.sim.v_inten == 0, "%s: HSM stop disables every interrupt", n);
	fx_teardown(&f, n);
}

/* Everything else. */
static void test_misc(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	struct pmu_overflow_ops half = { .arm = sim_thead_overflow.arm };
	struct pmu_hart h;
	struct pmu_hart_config cfg;

	/* Sscofpmf wins: the vendor hooks are never called */
	o.vendor = SIM_VENDOR_THEAD;
	fx_setup(&f, &o);
	f.sim.vendor = SIM_VENDOR_NONE;	/* any vendor call is illegal now */
	CHECK(f.h.vof == NULL, "Sscofpmf hart: vendor back end not used");
	CHECK_RET(fx_cfg(&f, 3, 1, SBI_PMU_CFG_FLAG_SKIP_MATCH |
			 SBI_PMU_CFG_FLAG_AUTO_START, EV_CYCLES, 0), 0, 3,
		  "Sscofpmf hart: cycles started");
	CHECK_ERR(fx_stop(&f, 3, 1, SBI_PMU_STOP_FLAG_RESET), SBI_SUCCESS,
		  "Sscofpmf hart: stopped");
	fx_teardown(&f, "Sscofpmf hart with a vendor back end configured");

	/* QEMU's thead-c906: no vendor CSRs, so no back end: counting only */
	o = fx_default;
	o.sscofpmf = false;
	fx_setup(&f, &o);
	CHECK_RET(fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0), 0, 0,
		  "no back end, no Sscofpmf: cycles on mcycle (nothing can "
		  "sample, programmable counters kept)");
	fx_teardown(&f, "no back end");

	/* an incomplete back end is a configuration error */
	o.vendor = SIM_VENDOR_THEAD;
	fx_setup(&f, &o);
	cfg = f.cfg;
	cfg.overflow = &half;
	CHECK(pmu_hart_init(&h, &cfg) == SBI_ERR_INVALID_PARAM &&
	      !pmu_hart_ready(&h), "a back end without disarm/flags: "
	      "pmu_hart_init refuses it");
	fx_teardown(&f, "incomplete back end");
}

void test_vendor(void)
{
	for (enum sim_vendor v = SIM_VENDOR_THEAD; v <= SIM_VENDOR_ANDES; v++) {
		test_init(v);
		test_start_stop(v);
		test_stale_flag(v);
		test_linux_handler(v);
		test_filters(v);
		test_suspend(v);
	}
	test_misc();
}
