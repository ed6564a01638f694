// SPDX-License-Identifier: BSD-2-Clause
/*
 * lib/pmu/pmu_linux_compat.c: each accommodation of a known Linux driver
 * bug, in both builds.  With PMU_LINUX_COMPAT (the default) the exact
 * call of the affected kernels does what the kernel meant; without it
 * (test_pmu_strict) the same call gets the spec's error.  In both, every
 * call that is not the signature keeps the spec's error.
 */
#include <string.h>
#include "fixture.h"

#define PAGE		(SIM_SMEM + 0x8000)
#define PAGE2		(SIM_SMEM + 0x9000)
#define LONG_BITS	(sizeof(long) * 8)
#define RESTART_BASE	(LONG_BITS * LONG_BITS)	/* 6.12's overflow restart */

static const char *mode = PMU_LINUX_COMPAT ? "compat" : "strict";

/* A QEMU-like hart with the snapshot set and two counters configured. */
static void setup(struct fx *f, unsigned int *cyc, unsigned int *tlb)
{
	struct fx_opts o = fx_default;

	o.map = &qemu_map;
	o.counters = 0x7FFFD;
	o.quirks = PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET;
	o.qemu_bug = true;
	o.no_hooks = true;
	fx_setup(f, &o);
	pmu_sbi_snapshot_set_shmem(&f->h, PAGE, 0, 0);
	*cyc = (unsigned int)fx_cfg(f, 0, f->all, 0, EV_CYCLES, 0).value;
	*tlb = (unsigned int)fx_cfg(f, 0, f->all, 0, EV_DTLB_WR_MISS, 0).value;
}

/* The overflow restart: counter_start(XLEN * XLEN, used, INIT_SNAPSHOT). */
static void test_restart_base(void)
{
	struct fx f;
	unsigned int cyc, tlb, fw;
	uint64_t used, value;

	setup(&f, &cyc, &tlb);
	used = BIT(cyc) | BIT(tlb);
	sim_mem_put64(&f.sim, PAGE + 8 + 8 * cyc, 0x1234);
	sim_mem_put64(&f.sim, PAGE + 8 + 8 * tlb, 0x5678);
	CHECK_ERR(fx_start(&f, RESTART_BASE, used,
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  PMU_LINUX_COMPAT ? SBI_SUCCESS : SBI_ERR_INVALID_PARAM,
		  "%s: counter_start(%lu, used, INIT_SNAPSHOT), Linux 6.10+'s "
		  "overflow restart: %s", mode, (unsigned long)RESTART_BASE,
		  PMU_LINUX_COMPAT ? "read as base 0" : "INVALID_PARAM (spec)");
	if (PMU_LINUX_COMPAT)
		CHECK((f.h.started & used) == used &&
		      f.sim.ctr[cyc] == 0x1234 && f.sim.ctr[tlb] == 0x5678,
		      "%s: ... both started from counter_values[idx] (base 0)",
		      mode);
	else
		CHECK(!(f.h.started & used), "%s: ... nothing started", mode);
	fx_stop(&f, 0, used, 0);

	/* not the signature: the spec's error in both builds */
	CHECK_ERR(fx_start(&f, RESTART_BASE, used,
			   SBI_PMU_START_FLAG_SET_INIT_VALUE, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu with SET_INIT_VALUE: "
		  "INVALID_PARAM", mode, (unsigned long)RESTART_BASE);
	CHECK_ERR(fx_start(&f, RESTART_BASE, used, 0, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu without INIT_SNAPSHOT: "
		  "INVALID_PARAM", mode, (unsigned long)RESTART_BASE);
	CHECK_ERR(fx_start(&f, RESTART_BASE - 1, used,
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu with INIT_SNAPSHOT: "
		  "INVALID_PARAM", mode, (unsigned long)RESTART_BASE - 1);
	CHECK_ERR(fx_start(&f, RESTART_BASE * 2, used,
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu with INIT_SNAPSHOT: "
		  "INVALID_PARAM", mode, (unsigned long)RESTART_BASE * 2);
	CHECK_ERR(fx_start(&f, RESTART_BASE, 0,
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu, empty mask (RV32's "
		  "second word): INVALID_PARAM", mode,
		  (unsigned long)RESTART_BASE);
	CHECK_ERR(fx_start(&f, RESTART_BASE, used | BIT(5),
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu naming an unconfigured "
		  "counter: INVALID_PARAM", mode, (unsigned long)RESTART_BASE);
	CHECK_ERR(fx_start(&f, RESTART_BASE, BIT(1),
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu naming counter 1 (time): "
		  "INVALID_PARAM", mode, (unsigned long)RESTART_BASE);
	fx_start(&f, cyc, 1, 0, 0);
	value = f.sim.ctr[tlb];
	CHECK_ERR(fx_start(&f, RESTART_BASE, used,
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  SBI_ERR_INVALID_PARAM, "%s: base %lu naming a started "
		  "counter: INVALID_PARAM", mode, (unsigned long)RESTART_BASE);
	CHECK(f.sim.ctr[tlb] == value && !(f.h.started & BIT(tlb)),
	      "%s: ... and the other counter was not touched", mode);
	fx_stop(&f, cyc, 1, 0);
	fw = (unsigned int)fx_cfg(&f, 0, f.all, 0,
				  EV_FW(SBI_PMU_FW_IPI_SENT), 0).value;
	if (fw < LONG_BITS)
		CHECK_ERR(fx_start(&f, RESTART_BASE, BIT(fw),
				   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
			  SBI_ERR_INVALID_PARAM, "%s: base %lu naming a firmware "
			  "counter: INVALID_PARAM", mode,
			  (unsigned long)RESTART_BASE);
	pmu_sbi_snapshot_set_shmem(&f.h, ~0UL, ~0UL, 0);
	CHECK_ERR(fx_start(&f, RESTART_BASE, used,
			   SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  PMU_LINUX_COMPAT ? SBI_ERR_NO_SHMEM : SBI_ERR_INVALID_PARAM,
		  "%s: the restart without a page: %s", mode,
		  PMU_LINUX_COMPAT ? "NO_SHMEM (as base 0 would)" :
		  "INVALID_PARAM (base)");
	fx_teardown(&f, "Linux compat: restart base");
}

/* CPU offline: disable the page, HSM stop; online: no set, TAKE_SNAPSHOT. */
static void hotplug(struct fx *f)
{
	pmu_sbi_snapshot_set_shmem(&f->h, ~0UL, ~0UL, 0);
	pmu_hart_stop(&f->h);
	pmu_hart_init(&f->h, &f->cfg);
	fx_stop(f, 0, f->all, SBI_PMU_STOP_FLAG_RESET);	/* CPU starting */
}

static void test_hotplug_page(void)
{
	struct fx f;
	unsigned int cyc, tlb, n;
	const unsigned long take = SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT;

	setup(&f, &cyc, &tlb);
	fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 0);
	hotplug(&f);
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 77);
	sim_mem_put64(&f.sim, PAGE + 8, ~0ULL);
	CHECK_ERR(fx_stop(&f, cyc, 1, take),
		  PMU_LINUX_COMPAT ? SBI_SUCCESS : SBI_ERR_NO_SHMEM,
		  "%s: after CPU offline/online (page disabled, HSM stop and "
		  "start, no new page): stop with TAKE_SNAPSHOT %s", mode,
		  PMU_LINUX_COMPAT ? "uses the page of before" :
		  "is NO_SHMEM (spec)");
	if (PMU_LINUX_COMPAT)
		CHECK(sim_mem_get64(&f.sim, PAGE + 8) == 77 &&
		      !(f.h.started & BIT(cyc)),
		      "%s: ... the value is in counter_values[0] of that page "
		      "and the counter stopped", mode);
	else
		CHECK(f.h.started & BIT(cyc), "%s: ... the counter still runs",
		      mode);
	fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);

	/* two offline/online cycles with no perf use between them */
	hotplug(&f);
	hotplug(&f);
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 99);
	CHECK_ERR(fx_stop(&f, cyc, 1, take),
		  PMU_LINUX_COMPAT ? SBI_SUCCESS : SBI_ERR_NO_SHMEM,
		  "%s: two offline/online cycles in a row: TAKE_SNAPSHOT %s",
		  mode, PMU_LINUX_COMPAT ? "still uses the page" : "NO_SHMEM");
	fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);

	/* INIT_SNAPSHOT after a hotplug (the overflow restart comes first) */
	hotplug(&f);
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	sim_mem_put64(&f.sim, PAGE + 8 + 8 * cyc, 4242);
	CHECK_ERR(fx_start(&f, 0, BIT(cyc), SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0),
		  PMU_LINUX_COMPAT ? SBI_SUCCESS : SBI_ERR_NO_SHMEM,
		  "%s: after a hotplug, start with INIT_SNAPSHOT %s", mode,
		  PMU_LINUX_COMPAT ? "reads the page of before" : "is NO_SHMEM");
	if (PMU_LINUX_COMPAT)
		CHECK(f.sim.ctr[cyc] == 4242, "%s: ... value 4242 from the page",
		      mode);
	fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);
	fx_teardown(&f, "Linux compat: hotplug page");

	/* not the signature: NO_SHMEM in both builds */
	setup(&f, &cyc, &tlb);
	pmu_sbi_snapshot_set_shmem(&f.h, ~0UL, ~0UL, 0);
	fx_start(&f, cyc, 1, 0, 0);
	CHECK_ERR(fx_stop(&f, cyc, 1, take), SBI_ERR_NO_SHMEM,
		  "%s: page disabled, no HSM stop (the driver gave the snapshot "
		  "up): NO_SHMEM", mode);
	fx_stop(&f, cyc, 1, 0);
	pmu_hart_stop(&f.h);
	pmu_hart_init(&f.h, &f.cfg);
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	fx_start(&f, cyc, 1, 0, 0);
	n = f.sim.mem_maps;
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, ~0UL, ~0UL, 0), SBI_SUCCESS,
		  "%s: a new disable after the restart", mode);
	CHECK_ERR(fx_stop(&f, cyc, 1, take), SBI_ERR_NO_SHMEM,
		  "%s: disabled after the hart came back: NO_SHMEM", mode);
	CHECK(f.sim.mem_maps == n, "%s: ... no page was looked at", mode);
	fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);
	fx_teardown(&f, "Linux compat: not the hotplug signature");

	setup(&f, &cyc, &tlb);
	hotplug(&f);
	CHECK_ERR(pmu_sbi_snapshot_set_shmem(&f.h, PAGE2, 0, 0), SBI_SUCCESS,
		  "%s: a kernel that sets a new page at online", mode);
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	fx_start(&f, cyc, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 55);
	sim_mem_put64(&f.sim, PAGE + 8, 1);
	CHECK(fx_stop(&f, cyc, 1, take).error == 0 &&
	      sim_mem_get64(&f.sim, PAGE2 + 8) == 55 &&
	      sim_mem_get64(&f.sim, PAGE + 8) == 1,
	      "%s: ... gets its new page, the old one is not written", mode);
	pmu_sbi_snapshot_set_shmem(&f.h, ~0UL, ~0UL, 0);
	pmu_sbi_snapshot_set_shmem(&f.h, 0x123, 0, 0);	/* refused: misaligned */
	pmu_hart_stop(&f.h);
	pmu_hart_init(&f.h, &f.cfg);
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	fx_start(&f, cyc, 1, 0, 0);
	CHECK_ERR(fx_stop(&f, cyc, 1, take), SBI_ERR_NO_SHMEM,
		  "%s: a refused snapshot_set_shmem after the disable also "
		  "forgets the page: NO_SHMEM", mode);
	fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);
	fx_teardown(&f, "Linux compat: new page");

	/* the page is checked again: memory S-mode may no longer use */
	setup(&f, &cyc, &tlb);
	hotplug(&f);
	f.sim.fail_map = true;
	cyc = (unsigned int)fx_cfg(&f, 0, f.all, 0, EV_CYCLES, 0).value;
	fx_start(&f, cyc, 1, 0, 0);
	CHECK_ERR(fx_stop(&f, cyc, 1, take), SBI_ERR_NO_SHMEM,
		  "%s: after a hotplug, a page shmem_map now refuses: NO_SHMEM, "
		  "nothing written", mode);
	CHECK(!f.h.shmem_enabled && (f.h.started & BIT(cyc)),
	      "%s: ... no page, the counter still runs", mode);
	f.sim.fail_map = false;
	fx_stop(&f, cyc, 1, SBI_PMU_STOP_FLAG_RESET);
	fx_teardown(&f, "Linux compat: page checked again");
}

static void test_banner_list(void)
{
	CHECK(pmu_linux_compat_count == (PMU_LINUX_COMPAT ? 2U : 0U),
	      "%s: pmu_linux_compat[] lists %u accommodations for the banner",
	      mode, pmu_linux_compat_count);
}

void test_linux_compat(void)
{
	test_restart_base();
	test_hotplug_page();
	test_banner_list();
}
