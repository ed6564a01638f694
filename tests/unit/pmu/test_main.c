// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of lib/pmu over a simulated hart.  argv[1], if given, is
 * a prefix for every line (e.g. "asan+ubsan: ").  Exit status: 0 when
 * every check passed.
 */
#include <stdlib.h>
#include <string.h>
#include "fixture.h"

const char *check_prefix = "";
int check_failures;
int check_count;

struct pmu_map test_map, qemu_map, empty_map;

#define RAW56	0x00FFFFFFFFFFFFFFULL

static void must(int rc, const char *what)
{
	if (rc) {
		printf("%sFAIL: pmu: building the test map: %s: %s\n",
		       check_prefix, what, pmu_map_strerror(rc));
		check_failures++;
	}
}

static void build_maps(void)
{
	pmu_map_init(&test_map);
	must(pmu_map_add_range(&test_map, EV_CYCLES, EV_CYCLES, BIT(0) | 0xF8),
	     "cycles");
	must(pmu_map_add_range(&test_map, EV_INSTR, EV_INSTR, BIT(2) | 0xF8),
	     "instructions");
	must(pmu_map_add_range(&test_map, EV_BR_MISS, EV_BR_MISS, BIT(8)),
	     "branch misses");
	must(pmu_map_add_selector(&test_map, EV_BR_MISS, 0x1234),
	     "branch misses selector");
	must(pmu_map_add_range(&test_map, EV_L1D_RD, EV_L1D_RD + 5,
			       BIT(9) | BIT(10)), "L1D");
	must(pmu_map_add_range(&test_map, EV_DTLB_RD_MISS, EV_DTLB_RD_MISS,
			       0xF8), "dTLB read");
	must(pmu_map_add_range(&test_map, EV_DTLB_WR_MISS, EV_DTLB_WR_MISS,
			       0xF8), "dTLB write");
	must(pmu_map_add_range(&test_map, EV_ITLB_RD_MISS, EV_ITLB_RD_MISS,
			       0xF8), "iTLB read");
	must(pmu_map_add_raw(&test_map, 0x500, 0xF00, 0x38), "raw 0x5xx");
	must(pmu_map_add_raw(&test_map, 0xABCDEF, RAW56, BIT(6)), "raw abcdef");
	must(pmu_map_add_raw(&test_map, 0x1, RAW56, 0xF8), "raw cycles");
	pmu_map_freeze(&test_map);

	/* what QEMU 7.2's devicetree says (fx_setup adds its one-counter quirk) */
	pmu_map_init(&qemu_map);
	must(pmu_map_add_range(&qemu_map, EV_CYCLES, EV_CYCLES,
			       0xFFFFFFF9U), "qemu cycles");
	must(pmu_map_add_range(&qemu_map, EV_INSTR, EV_INSTR, 0xFFFFFFFCU),
	     "qemu instructions");
	must(pmu_map_add_range(&qemu_map, EV_DTLB_RD_MISS, EV_DTLB_RD_MISS,
			       0xFFFFFFF8U), "qemu dTLB read");
	must(pmu_map_add_range(&qemu_map, EV_DTLB_WR_MISS, EV_DTLB_WR_MISS,
			       0xFFFFFFF8U), "qemu dTLB write");
	must(pmu_map_add_range(&qemu_map, EV_ITLB_RD_MISS, EV_ITLB_RD_MISS,
			       0xFFFFFFF8U), "qemu iTLB read");
	pmu_map_freeze(&qemu_map);

	pmu_map_init(&empty_map);
	pmu_map_freeze(&empty_map);
}

static uint32_t hook_counters(void *ctx, unsigned long event_idx,
			      uint64_t event_data, uint64_t *selector)
{
	(void)ctx;
	if (event_idx == EV_STALL_BE) {
		*selector = 0x99 | (0xFFULL << 56);	/* high bits: stripped */
		return BIT(10);
	}
	if (event_idx == EV_RAW2 && event_data == 0xDEAD) {
		*selector = 0xDEAD;
		return BIT(4);
	}
	return 0;
}

static uint64_t hook_value(void *ctx, unsigned int idx, uint64_t value,
			   unsigned long cfg_flags)
{
	(void)ctx;
	(void)cfg_flags;
	if (idx == 7)	/* a vendor bit, and an OF the library must ignore */
		return value | (1ULL << 50) | MHPMEVENT_OF;
	return value;
}

static bool hook_platform(void *ctx, uint64_t event_data)
{
	(void)ctx;
	return event_data == 0x42 || event_data == 0x43;
}

const struct pmu_board_hooks test_hooks = {
	.hw_event_counters = hook_counters,
	.hw_event_value = hook_value,
	.fw_platform_supported = hook_platform,
};

const struct fx_opts fx_default = {
	.counters = DEF_COUNTERS,
	.hpm_bits = DEF_HPM_BITS,
	.sscofpmf = true,
};

void fx_setup(struct fx *f, const struct fx_opts *o)
{
	long rc;

	if (!o)
		o = &fx_default;
	memset(f, 0, sizeof(*f));
	sim_init(&f->sim, o->counters, o->hpm_bits, o->sscofpmf, o->smcntrpmf);
	f->sim.qemu_filter_bug = o->qemu_bug;
	if (o->vendor != SIM_VENDOR_NONE)
		sim_set_vendor(&f->sim, o->vendor);
	f->cfg = (struct pmu_hart_config){
		.map = o->map ? o->map : &test_map,
		.ops = o->no_shmem ? &sim_ops_noshmem : &sim_ops,
		.ops_ctx = &f->sim,
		.hooks = o->no_hooks ? NULL : &test_hooks,
		.overflow = o->vendor_csrs_only ? NULL :
			    o->vendor == SIM_VENDOR_THEAD ? &sim_thead_overflow :
			    o->vendor == SIM_VENDOR_ANDES ? &sim_andes_overflow :
			    NULL,
		.caps = {
			.hartid = 0,
			.counters = o->counters,
			.hpm_bits = o->hpm_bits,
			.sscofpmf = o->sscofpmf,
			.smcntrpmf = o->smcntrpmf,
			/* QEMU's map comes with QEMU's counters */
			.quirks = o->quirks | (o->map == &qemu_map ?
				  PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT : 0),
		},
	};
	rc = pmu_hart_init(&f->h, &f->cfg);
	if (rc) {
		printf("%sFAIL: pmu: fixture: pmu_hart_init returned %ld\n",
		       check_prefix, rc);
		check_failures++;
	}
	f->nr_hw = f->h.nr_hw;
	f->total = f->nr_hw + PMU_FW_COUNTERS;
	f->all = (unsigned long)f->h.valid;
	f->fw0 = f->nr_hw;
	sim_log_clear(&f->sim);
}

void fx_teardown(struct fx *f, const char *what)
{
	CHECK(f->sim.illegal == 0 && f->sim.priv_without_sscofpmf == 0,
	      "%s: no access to a missing counter, counter 1, mNcfg without "
	      "Smcntrpmf, OF/xINH without Sscofpmf or memory outside S-mode "
	      "(illegal %lu, priv bits %lu)", what, f->sim.illegal,
	      f->sim.priv_without_sscofpmf);
	sim_free(&f->sim);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		check_prefix = argv[1];
	build_maps();
	test_map_builder();
	test_map_direct();
	test_map_raw_in_order();
	test_basic();
	test_config();
	test_startstop();
	test_fw();
	test_shmem();
	test_event_info();
	test_lifecycle();
	test_probe();
	test_linux_flow();
	test_linux_compat();
	test_vendor();
	printf("%s%d checks, %d failed (PMU_FW_COUNTERS=%d)\n", check_prefix,
	       check_count, check_failures, PMU_FW_COUNTERS);
	return check_failures ? 1 : 0;
}
