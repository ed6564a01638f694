/* The PMU run: bootargs "pmu". The groups run in this order; a group
 * leaves every counter of every hart released. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

static void start_secondaries(void)
{
	unsigned int up = start_all_secondaries();

	check(up == nr_secondaries, "pmu",
	      sfmt("%u secondary harts started for the PMU checks", up),
	      sfmt("%u of %u arrived", up, nr_secondaries));
}

/* A firmware may strip the event map from the DT it passes on (OpenSBI
 * does). QEMU virt's map is fixed: cycles on 0 or a programmable
 * counter, instructions on 2 or one, the three TLB events on any
 * programmable counter 3..2+pmu-num (run.sh passes "pmu-num=N"). */
static void qemu_rows(void)
{
	const char *arg = boot_arg(machine.bootargs, "pmu-num=");
	unsigned long n = 16;
	uint32_t prog;

	if (arg)
		for (n = 0; *arg >= '0' && *arg <= '9'; arg++)
			n = n * 10 + (unsigned long)(*arg - '0');
	prog = (uint32_t)(((1UL << n) - 1) << 3);
	machine.pmu_rows[0] = (struct pmu_row){ 1, 1, prog | 1 };
	machine.pmu_rows[1] = (struct pmu_row){ 2, 2, prog | 4 };
	machine.pmu_rows[2] = (struct pmu_row){ EV_DTLB_READ_MISS,
						EV_DTLB_READ_MISS, prog };
	machine.pmu_rows[3] = (struct pmu_row){ EV_DTLB_WRITE_MISS,
						EV_DTLB_WRITE_MISS, prog };
	machine.pmu_rows[4] = (struct pmu_row){ EV_ITLB_READ_MISS,
						EV_ITLB_READ_MISS, prog };
	machine.npmu_rows = 5;
	info("pmu", "no event map in the DT: using QEMU virt's for pmu-num=%lu",
	     n);
}

void test_pmu(void)
{
	struct sbiret r;
	long probe = sbi_probe(SBI_EXT_PMU);

	pmu.sscofpmf = machine.cpu_has_sscofpmf;
	pmu.strict = boot_arg(machine.bootargs, "strict") != NULL;
	pmu.strict_filters = boot_arg(machine.bootargs, "strict-filters") != NULL;
	info("pmu", "Sscofpmf in riscv,isa: %s; DT event map rows: %u",
	     pmu.sscofpmf ? "yes" : "no", machine.npmu_rows);
	if (!machine.npmu_rows)
		qemu_rows();
	if (!probe) {
		skip("pmu", "extension absent", "probe_extension(0x504D55) = 0");
		return;
	}
	pmu.present = true;
	r = sbi_call0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);
	pmu.spec = r.value;
	r = sbi_call0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	pmu.tally = !r.error && r.value == IMPL_ID_TALLY;
	info("pmu", "SBI %lu.%lu, impl id %lx%s", pmu.spec >> 24 & 0x7f,
	     pmu.spec & 0xffffff, r.value,
	     pmu.tally ? " (Tally: optional parts required)" : "");

	test_pmu_discovery();
	if (!pmu.num)
		return;
	pmu_release_all();
	test_pmu_args();
	test_pmu_lifecycle();
	start_secondaries();
	test_pmu_fw_events();
	test_pmu_hsm();
	test_pmu_tlb();
	test_pmu_filter();
	test_pmu_overflow();
	test_pmu_snapshot();
	test_pmu_event_info();
	pmu_release_all();
}
