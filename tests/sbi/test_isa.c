// SPDX-License-Identifier: BSD-2-Clause
/*
 * The devicetree the firmware hands over tells the truth: every extension
 * its riscv,isa lists that needs M-mode's set-up (lib/sbi/hart_ext.c) is
 * usable from S-mode, tried with the instruction or CSR Linux uses first.
 * On QEMU 10 and 11 a firmware that never sets menvcfg.CBZE fails the
 * first row (Linux's clear_page: Debian 13's kernel panicked at 0.0 s).
 */
#include "console.h"
#include "fdt.h"
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

enum isa_try {
	TRY_CBO_ZERO, TRY_CBO_CLEAN, TRY_CBO_INVAL, TRY_SENVCFG, TRY_SSTATEEN0,
	TRY_SEED, TRY_STOPI, TRY_SISELECT, TRY_STIMECMP, TRY_SCOUNTOVF,
	TRY_SIREG_COUNTER, TRY_SCOUNTINHIBIT,
};

static const struct {
	const char *ext;
	enum isa_try how;
	const char *what;
} tries[] = {
	{ "zicboz", TRY_CBO_ZERO, "cbo.zero" },
	{ "zicbom", TRY_CBO_CLEAN, "cbo.clean and cbo.flush" },
	{ "zicbom", TRY_CBO_INVAL, "cbo.inval" },
	{ "zicboz", TRY_SENVCFG, "senvcfg (Linux writes it at every context switch)" },
	{ "smstateen", TRY_SSTATEEN0, "sstateen0" },
	{ "zkr", TRY_SEED, "the seed CSR (random_init_early)" },
	{ "ssaia", TRY_STOPI, "stopi" },
	{ "ssaia", TRY_SISELECT, "siselect (the IMSIC driver)" },
	{ "sscsrind", TRY_SISELECT, "siselect" },
	{ "sstc", TRY_STIMECMP, "stimecmp" },
	{ "sscofpmf", TRY_SCOUNTOVF, "scountovf and sie.LCOFIE" },
	{ "ssccfg", TRY_SIREG_COUNTER,
	  "sireg at siselect 0x43 (counter 3, delegated; it reads as hpmcounter3)" },
	{ "ssccfg", TRY_SCOUNTINHIBIT, "scountinhibit" },
};

static unsigned char line[256] __attribute__((aligned(256)));
/* TRY_SIREG_COUNTER: counter 3 through sireg, then hpmcounter3 just after */
static unsigned long sireg_counter, hpmcounter3;

/* Runs one try with the trap handler armed: scause, or 0. */
static unsigned long try_one(enum isa_try how)
{
	struct hart *h = this_hart();
	unsigned long v = 0, p = (unsigned long)line;

	if (how == TRY_SIREG_COUNTER)
		p = 0x43;	/* the siselect number of counter 3 */
	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	switch (how) {
	case TRY_CBO_ZERO:	/* .insn: not every assembler knows Zicbo* */
		__asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 4" :: "r"(p) : "memory");
		break;
	case TRY_CBO_CLEAN:
		__asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 1\n"
				     ".insn i 0x0f, 2, x0, %0, 2" :: "r"(p) : "memory");
		break;
	case TRY_CBO_INVAL:
		__asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 0" :: "r"(p) : "memory");
		break;
	case TRY_SENVCFG:
		__asm__ __volatile__("csrr %0, 0x10A" : "=r"(v) :: "memory");
		break;
	case TRY_SSTATEEN0:
		__asm__ __volatile__("csrr %0, 0x10C" : "=r"(v) :: "memory");
		break;
	case TRY_SEED:		/* csrrw: a plain read of seed is illegal */
		__asm__ __volatile__("csrrw %0, 0x015, x0" : "=r"(v) :: "memory");
		break;
	case TRY_STOPI:
		__asm__ __volatile__("csrr %0, 0xDB0" : "=r"(v) :: "memory");
		break;
	case TRY_SISELECT:
		__asm__ __volatile__("csrr %0, 0x150" : "=r"(v) :: "memory");
		break;
	case TRY_STIMECMP:
		__asm__ __volatile__("csrr %0, 0x14D" : "=r"(v) :: "memory");
		break;
	case TRY_SCOUNTOVF:
		__asm__ __volatile__("csrr %0, 0xDA0" : "=r"(v) :: "memory");
		break;
	case TRY_SIREG_COUNTER:	/* siselect 0x40 + i: counter i (Ssccfg) */
		__asm__ __volatile__("csrrw %0, 0x150, %1\n"
				     "csrr %0, 0x151\n"
				     "csrr %1, 0xC03\n"
				     "csrw 0x150, x0"
				     : "=&r"(v), "+r"(p) : : "memory");
		sireg_counter = v;
		hpmcounter3 = p;
		break;
	case TRY_SCOUNTINHIBIT:
		__asm__ __volatile__("csrr %0, 0x120" : "=r"(v) :: "memory");
		break;
	}
	mb();
	h->trap_armed = false;
	(void)v;
	return h->trap_cause;
}

/* sie.LCOFIE must stick where Sscofpmf is listed: perf's overflow interrupt. */
static bool lcofie_sticks(void)
{
	unsigned long was = csr_read(CSR_SIE), got;

	csr_write(CSR_SIE, was | (1UL << 13));
	got = csr_read(CSR_SIE);
	csr_write(CSR_SIE, was);
	return got >> 13 & 1;
}

/* ---- counter delegation (Smcdeleg, Ssccfg) --------------------------- */

/* siselect 0x40 + i: counter i; sireg its value, sireg2 its event */
#define SISELECT_COUNTER(i)	(0x40 + (i))
#define DELEG_COUNTER		3
#define DELEG_PAGES		32

/*
 * Counter i's event (sireg2) and value (sireg), written from S-mode. The
 * high halves on RV32 are sireg5 and sireg4; event ids here fit the low.
 */
static void deleg_program(unsigned long i, unsigned long event, unsigned long value)
{
	csr_write(CSR_SISELECT, SISELECT_COUNTER(i));
	csr_write(CSR_SIREG2, event);
	csr_write(CSR_SIREG, value);
	csr_write(CSR_SISELECT, 0);
}

static void deleg_inhibit(unsigned long i, bool on)
{
	unsigned long bits = csr_read(CSR_SCOUNTINHIBIT);

	csr_write(CSR_SCOUNTINHIBIT, on ? bits | 1UL << i : bits & ~(1UL << i));
}

/*
 * Where the tree lists Ssccfg every counter is delegated (menvcfg.CDE,
 * mcounteren all ones; docs/pmu.md "Counter delegation"): S-mode
 * programs counter 3 itself, event through sireg2, value through sireg,
 * start and stop through scountinhibit, and it counts dTLB read misses
 * exactly; then the SBI PMU configures, counts and releases the same
 * counter as if S-mode had never touched it (a kernel that does not
 * delegate, after one that did).
 */
static void test_counter_delegation(void)
{
	unsigned long c = DELEG_COUNTER, stopped;
	struct tlb_count n, after;
	struct sbiret r;

	pmu_paging_on();
	deleg_inhibit(c, true);
	deleg_program(c, EV_DTLB_READ_MISS, 0);
	deleg_inhibit(c, false);
	n = pmu_tlb_probe(pmu_tlb_buf(), DELEG_PAGES, 0, c);
	deleg_inhibit(c, true);
	stopped = pmu_csr_read(c);
	after = pmu_tlb_probe(pmu_tlb_buf(), 8, 0, c);
	deleg_program(c, 0, 0);
	check(n.delta == DELEG_PAGES && after.delta == 0 && after.value == stopped,
	      "isa", sfmt("ssccfg listed: counter %lu programmed from S-mode "
			  "(sireg2, sireg, scountinhibit) counts %d fresh pages' "
			  "dTLB read misses exactly, and stops", c, DELEG_PAGES),
	      sfmt("counted %lu, then %lu while inhibited", n.delta, after.delta));

	r = pmu_config(c, 1, CFG_CLEAR_VALUE, EV_DTLB_READ_MISS, 0);
	if (!r.error && r.value == c)
		r = pmu_start(c, 1, START_SET_INIT_VALUE, 0);
	n = pmu_tlb_probe(pmu_tlb_buf(), 8, 0, c);
	pmu_release(c);
	pmu_paging_off();
	check(!r.error && n.delta == 8, "isa",
	      sfmt("ssccfg listed: after that, the SBI PMU configures counter %lu "
		   "for dTLB read misses and it counts 8 fresh pages exactly", c),
	      sfmt("%s, counted %lu", ret_str(r), n.delta));
}

void test_isa(void)
{
	const char *isa = machine.cpu_isa;

	/* U-Boot's booti grows the tree in place: a packed one broke it */
	check(machine.free_at_end >= 4096, "isa",
	      "the tree leaves the next stage at least 4 KiB free at its end",
	      sfmt("%u bytes free", (unsigned int)machine.free_at_end));
	if (!isa) {
		skip("isa", "listed extensions usable from S-mode", "no riscv,isa in the tree");
		return;
	}
	info("isa", "riscv,isa %s", isa);
	/* whole words, where the line above may be cut short */
	for (unsigned int i = 0; i < sizeof(tries) / sizeof(tries[0]); i++)
		if (!i || strcmp(tries[i].ext, tries[i - 1].ext))
			info("isa", "%s %s", tries[i].ext,
			     isa_has_multi(isa, tries[i].ext) ? "listed" : "not listed");
	for (unsigned int i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		unsigned long cause;
		bool ok;

		if (!isa_has_multi(isa, tries[i].ext))
			continue;
		cause = try_one(tries[i].how);
		ok = !cause && (tries[i].how != TRY_SCOUNTOVF || lcofie_sticks());
		/* counter 3 runs or not: the CSR read after sireg's is not smaller */
		if (!cause && tries[i].how == TRY_SIREG_COUNTER)
			ok = hpmcounter3 >= sireg_counter &&
			     hpmcounter3 - sireg_counter < 1000000;
		check(ok, "isa", sfmt("%s listed: %s works from S-mode", tries[i].ext,
				      tries[i].what),
		      cause ? sfmt("scause %lu", cause) :
		      tries[i].how == TRY_SIREG_COUNTER ?
		      sfmt("sireg 0x%lx, hpmcounter3 0x%lx", sireg_counter, hpmcounter3) :
		      "sie.LCOFIE does not stick");
	}
	if (isa_has_multi(isa, "ssccfg") && isa_has_multi(isa, "sscofpmf"))
		test_counter_delegation();
}
