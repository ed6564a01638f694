/* The boot hart's path through the tests. */
#include "hart.h"
#include "test.h"

static bool fw_base_reserved(void)
{
	unsigned int i;

	for (i = 0; i < machine.nresv; i++)
		if (machine.resv[i].base <= FW_BASE &&
		    FW_BASE - machine.resv[i].base < machine.resv[i].size)
			return true;
	return false;
}

static bool is_listed_hart(unsigned long hartid)
{
	unsigned int i;

	for (i = 0; i < machine.ncpus && i < FDT_MAX_CPUS; i++)
		if (machine.hartids[i] == hartid)
			return true;
	return false;
}

/* What the firmware handed over: a0 = hartid, a1 = FDT, S-mode, no
 * translation. */
void test_boot(unsigned long hartid, int fdt_err)
{
	unsigned int i;

	check(!fdt_err, "boot", "a1 points at a readable FDT",
	      sfmt("fdt_parse returned %d", fdt_err));
	check(machine.ncpus > 0, "fdt", sfmt("/cpus lists %u harts",
					    machine.ncpus), "none found");
	check(is_listed_hart(hartid), "boot",
	      sfmt("a0 = %lu names a hart in /cpus", hartid), "not listed");
	check(try_read_mhartid() == EXC_ILLEGAL_INSN, "boot",
	      "payload runs in S-mode (reading mhartid traps)",
	      sfmt("scause=%lx", this_hart()->trap_cause));
	check(csr_read(CSR_SATP) == 0, "boot", "satp is 0",
	      sfmt("satp=%lx", csr_read(CSR_SATP)));
	check(machine.mem.size != 0, "fdt",
	      sfmt("memory node: base %lx size %lx",
		   (unsigned long)machine.mem.base,
		   (unsigned long)machine.mem.size), "no /memory reg");
	for (i = 0; i < machine.nresv; i++)
		info("fdt", "reserved: base %lx size %lx",
		     (unsigned long)machine.resv[i].base,
		     (unsigned long)machine.resv[i].size);
	/* Without it an OS would use the firmware's memory. */
	check(fw_base_reserved(), "fdt",
	      sfmt("/reserved-memory covers the firmware at %lx", FW_BASE),
	      "no reserved range covers it");
	info("fdt", "timebase-frequency %lu, bootargs \"%s\", H in riscv,isa: %s",
	     (unsigned long)machine.timebase, machine.bootargs,
	     machine.cpu_has_h ? "yes" : "no");
}

const char *boot_arg(const char *args, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = args; *p; p++)
		if ((p == args || p[-1] == ' ') && !strncmp(p, word, n) &&
		    (word[n - 1] == '=' || p[n] == ' ' || p[n] == '\0'))
			return p + n;
	return NULL;
}

static void run_all(void)
{
	test_base();
	test_legacy();
	test_time();
	test_protect();
	test_aia(this_hartid());
	test_dbcn();
	test_ipi_self();
	test_hsm_before_start();
	test_hsm_start_all();
	test_ipi_all();
	test_rfence();
	test_hyp();
	test_hsm_suspend();
	test_hsm_stop_start();
	test_hsm_start_while_stopping();
	test_hsm_fences_across_restart();
	test_dbtr();
	test_srst_invalid();
	test_sse_basic();
	test_isa();
}

void __attribute__((noreturn)) boot_main(unsigned long hartid, void *fdt)
{
	int fdt_err;
	const char *mode;

	csr_write(CSR_SIE, 0);
	/* The console needs no FDT: DBCN if the firmware has it. */
	console_init(sbi_probe(SBI_EXT_DBCN) != 0);
	printf("\nINFO: sbi-test: boot hart %lu, FDT at %p, console: %s\n",
	       hartid, fdt, console_backend());
	fdt_err = fdt_parse(fdt, &machine);
	smp_init();
	mode = boot_arg(machine.bootargs, "srst=");
	if (mode)
		srst_mode(mode);
	/* "pmu" selects the PMU run, on a CPU model of run.sh's choice. */
	if (boot_arg(machine.bootargs, "pmu")) {
		check(!fdt_err, "boot", "a1 points at a readable FDT",
		      sfmt("fdt_parse returned %d", fdt_err));
		test_pmu();
		finish();
	}
	/* "hyp" selects the hypervisor run: VS-mode traps and the hfences,
	 * on a CPU with or without H (run.sh's choice). */
	if (boot_arg(machine.bootargs, "hyp")) {
		check(!fdt_err, "boot", "a1 points at a readable FDT",
		      sfmt("fdt_parse returned %d", fdt_err));
		start_all_secondaries();
		test_hyp();
		test_rfence();
		finish();
	}
	/* "dbtr" selects the DBTR run, with the secondaries up (run.sh). */
	if (boot_arg(machine.bootargs, "dbtr")) {
		start_all_secondaries();
		test_dbtr();
		finish();
	}
	/* "fwft-susp": the FWFT and SUSP checks (they end with every
	 * secondary stopped and the boot hart's FWFT state locked). */
	if (boot_arg(machine.bootargs, "fwft-susp")) {
		test_fwft();
		test_susp();
		finish();
	}
	/* "isa": the devicetree's extensions tried from S-mode (run.sh's CPU-model runs) */
	if (boot_arg(machine.bootargs, "isa")) {
		test_isa();
		finish();
	}
	/* "probe": probe_extension against the banner (run.sh's probe runs) */
	if (boot_arg(machine.bootargs, "probe")) {
		test_probe();
		finish();
	}
	/* "aia": the AIA checks alone (run.sh's setipnum quirk-off run) */
	if (boot_arg(machine.bootargs, "aia")) {
		test_aia(hartid);
		finish();
	}
	/* "sse": the SSE run (run.sh: Sscofpmf CPU, for the PMU overflow event) */
	if (boot_arg(machine.bootargs, "sse")) {
		test_sse();
		finish();
	}
	/* "devices": what the IPI and timer devices serve, with every hart
	 * up (run.sh's device-table runs, on trees QEMU never builds) */
	if (boot_arg(machine.bootargs, "devices")) {
		test_boot(hartid, fdt_err);
		test_time();
		test_ipi_self();
		test_hsm_start_all();
		test_ipi_all();
		test_rfence();
		test_hsm_stop_start();
		finish();
	}
	/* "hostile": stacks, isolation, storm (run.sh's hostile runs) */
	if (boot_arg(machine.bootargs, "hostile")) {
		check(!fdt_err, "boot", "a1 points at a readable FDT",
		      sfmt("fdt_parse returned %d", fdt_err));
		test_hostile();
		finish();
	}
	test_boot(hartid, fdt_err);
	run_all();
	finish();
}
