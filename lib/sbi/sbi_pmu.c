// SPDX-License-Identifier: BSD-2-Clause
/*
 * PMU extension glue: the hart-access operations of lib/pmu implemented
 * with this hart's CSRs, the event map parsed from the devicetree at cold
 * boot, and the ecall entry.  Everything the extension does is in lib/pmu.
 */
#include <tally/board.h>
#include <tally/console.h>
#include <tally/fdt_pmu.h>
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/platform.h>
#include <tally/pmu.h>
#include <tally/sbi.h>
#include <tally/sbi_pmu.h>
#include <tally/string.h>

/*
 * CSR numbers are instruction immediates, so a run-time index becomes a
 * switch over the 32 possible counters.
 */
#define CASES(X) \
	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12)    \
	X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23)       \
	X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)

/*
 * The event selector of counter idx: mhpmevent3..31 are 0x323..0x33F; for
 * the fixed counters (Smcntrpmf only) mcyclecfg is 0x321 and minstretcfg
 * 0x322.  0x320 is mcountinhibit, so idx 0 must not follow the pattern,
 * and idx 1 (time) has no selector.
 */
#define EVENT_CASES(X) \
	X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13)        \
	X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24)      \
	X(25) X(26) X(27) X(28) X(29) X(30) X(31)

#if __riscv_xlen == 32
/*
 * RV32: every counter and selector is 64 bits split over two CSRs, the
 * upper half 0x80 above the counter (mcycleh 0xB80, minstreth 0xB82,
 * mhpmcounterNh 0xB80 + N) and 0x400 above the selector (mhpmeventNh
 * 0x720 + N with OF and the mode-inhibit bits, Sscofpmf only; mcyclecfgh
 * 0x721 and minstretcfgh 0x722, Smcntrpmf only).
 */
/*
 * A running counter may carry into the upper half between the two reads:
 * upper, lower, upper again until the upper half holds still.  A stopped
 * one cannot, and is read lower half first, once each: QEMU 7.2 answers
 * only the first read of a counter after it was inhibited with the count
 * (later reads give the value last written), so the lower half, which
 * moves, must be that read.  (QEMU's upper half then is the one last
 * written: a carry while the counter ran is lost there, not on hardware.)
 */
static uint64_t csr_counter_read(void *ctx, unsigned int idx)
{
	bool stopped = csr_read(CSR_MCOUNTINHIBIT) >> idx & 1;
	unsigned long hi, lo, again;

	(void)ctx;
	switch (idx) {
#define READ(n) case n:								\
		if (stopped) {							\
			lo = csr_read(CSR_MHPMCOUNTER_BASE + n);		\
			hi = csr_read(CSR_MHPMCOUNTERH_BASE + n);		\
			return (uint64_t)hi << 32 | lo;				\
		}								\
		do {								\
			hi = csr_read(CSR_MHPMCOUNTERH_BASE + n);		\
			lo = csr_read(CSR_MHPMCOUNTER_BASE + n);		\
			again = csr_read(CSR_MHPMCOUNTERH_BASE + n);		\
		} while (hi != again);						\
		return (uint64_t)hi << 32 | lo;
	CASES(READ)
#undef READ
	}
	return 0;
}

static void csr_counter_write(void *ctx, unsigned int idx, uint64_t value)
{
	(void)ctx;
	/* low half 0 first, so that no carry reaches the new upper half */
	switch (idx) {
#define WRITE(n) case n:							\
		csr_write(CSR_MHPMCOUNTER_BASE + n, 0);				\
		csr_write(CSR_MHPMCOUNTERH_BASE + n, value >> 32);		\
		csr_write(CSR_MHPMCOUNTER_BASE + n, value);			\
		break;
	CASES(WRITE)
#undef WRITE
	}
}

/* The upper halves exist with Sscofpmf (mhpmeventNh) or Smcntrpmf (cfgh). */
static bool event_has_upper_half(unsigned int idx)
{
	return idx == 0 || idx == 2 ? hart_features.has_smcntrpmf : hart_features.has_sscofpmf;
}

static uint64_t csr_event_read(void *ctx, unsigned int idx)
{
	unsigned long hi = 0;

	(void)ctx;
	switch (idx) {
	case 0:
		if (event_has_upper_half(0))
			hi = csr_read(CSR_MCYCLECFGH);
		return (uint64_t)hi << 32 | csr_read(CSR_MCYCLECFG);
#define READ(n) case n:								\
		if (event_has_upper_half(n))					\
			hi = csr_read(CSR_MHPMEVENTH_BASE + n);			\
		return (uint64_t)hi << 32 | csr_read(CSR_MHPMEVENT_BASE + n);
	EVENT_CASES(READ)
#undef READ
	}
	return 0;
}

static void csr_event_write(void *ctx, unsigned int idx, uint64_t value)
{
	(void)ctx;
	/* upper half (OF, inhibits) first: the selector write then sees both */
	switch (idx) {
	case 0:
		if (event_has_upper_half(0))
			csr_write(CSR_MCYCLECFGH, value >> 32);
		csr_write(CSR_MCYCLECFG, value);
		break;
#define WRITE(n) case n:							\
		if (event_has_upper_half(n))					\
			csr_write(CSR_MHPMEVENTH_BASE + n, value >> 32);	\
		csr_write(CSR_MHPMEVENT_BASE + n, value);			\
		break;
	EVENT_CASES(WRITE)
#undef WRITE
	}
}
#else
static uint64_t csr_counter_read(void *ctx, unsigned int idx)
{
	(void)ctx;
	switch (idx) {
#define READ(n) case n: return csr_read(CSR_MHPMCOUNTER_BASE + n);
	CASES(READ)
#undef READ
	}
	return 0;
}

static void csr_counter_write(void *ctx, unsigned int idx, uint64_t value)
{
	(void)ctx;
	switch (idx) {
#define WRITE(n) case n: csr_write(CSR_MHPMCOUNTER_BASE + n, value); break;
	CASES(WRITE)
#undef WRITE
	}
}

static uint64_t csr_event_read(void *ctx, unsigned int idx)
{
	(void)ctx;
	switch (idx) {
	case 0: return csr_read(CSR_MCYCLECFG);
#define READ(n) case n: return csr_read(CSR_MHPMEVENT_BASE + n);
	EVENT_CASES(READ)
#undef READ
	}
	return 0;
}

static void csr_event_write(void *ctx, unsigned int idx, uint64_t value)
{
	(void)ctx;
	switch (idx) {
	case 0: csr_write(CSR_MCYCLECFG, value); break;
#define WRITE(n) case n: csr_write(CSR_MHPMEVENT_BASE + n, value); break;
	EVENT_CASES(WRITE)
#undef WRITE
	}
}
#endif

static void csr_inhibit_set(void *ctx, uint32_t mask)
{
	(void)ctx;
	csr_set(CSR_MCOUNTINHIBIT, mask);
}

static void csr_inhibit_clear(void *ctx, uint32_t mask)
{
	(void)ctx;
	csr_clear(CSR_MCOUNTINHIBIT, mask);
}

/*
 * A hart without mcountinhibit (privileged spec 1.10: the FU540) cannot
 * stop its counters: it has only mcycle and minstret (no programmable
 * counter can be probed without inhibiting it), which then run all the
 * time, and "start" and "stop" leave them running: what S-mode counts is
 * the difference of two reads, as OpenSBI does on such harts.
 */
static void no_inhibit(void *ctx, uint32_t mask)
{
	(void)ctx;
	(void)mask;
}

/*
 * S-mode's shared memory: RAM outside the firmware, checked once per range
 * (the library then loads and stores directly).  M-mode runs with
 * translation off, so the S-mode physical address is the address to use.
 * On RV32 an address or size of 4 GiB or more is no memory we have.
 */
static void *smode_shmem_map(void *ctx, uint64_t addr, uint64_t size)
{
	(void)ctx;
	if (addr > ~0UL || size > ~0UL ||
	    !memmap_smode_range_ok(&platform.mem, (unsigned long)addr, 0, (unsigned long)size))
		return NULL;
	return (void *)(unsigned long)addr;
}

/* The overflow interrupt around a QEMU leftover flush (pmu_hw.c). */
static void csr_lcofi_write(void *ctx, bool pending)
{
	(void)ctx;
	if (pending)
		csr_set(mip, MIP_LCOFIP);
	else
		csr_clear(mip, MIP_LCOFIP);
}

static const struct pmu_hart_ops csr_pmu_ops = {
	.counter_read = csr_counter_read,
	.counter_write = csr_counter_write,
	.event_read = csr_event_read,
	.event_write = csr_event_write,
	.inhibit_set = csr_inhibit_set,
	.inhibit_clear = csr_inhibit_clear,
	.shmem_map = smode_shmem_map,
	.lcofi_write = csr_lcofi_write,
};

static const struct pmu_hart_ops csr_pmu_ops_no_inhibit = {
	.counter_read = csr_counter_read,
	.counter_write = csr_counter_write,
	.event_read = csr_event_read,
	.event_write = csr_event_write,
	.inhibit_set = no_inhibit,
	.inhibit_clear = no_inhibit,
	.shmem_map = smode_shmem_map,
};

/* The event map: built once by the cold-boot hart, read-only afterwards. */
static struct pmu_map pmu_event_map;
static struct fdt_pmu_stats pmu_dt_stats;
static bool pmu_ready;

static void pmu_warn(void *ctx, const char *msg)
{
	(void)ctx;
	printf("Tally: %s\n", msg);
}

void sbi_pmu_cold_init(const void *fdt)
{
	if (!hart_features.has_mcountinhibit)
		printf("Tally: PMU: no mcountinhibit CSR: mcycle and minstret only, never stopped\n");
	fdt_pmu_parse_stats(fdt, &pmu_event_map, sbi_pmu_hart_counters(), pmu_warn, 0,
			    &pmu_dt_stats);
	sbi_pmu_vendor_cold_init();
	pmu_ready = true;
}

/*
 * Where the U/S/M mode filters (perf's :u/:k, KVM's exclude_host) are
 * applied, and what happens to the requests no counter can filter: counted
 * in every mode, or refused by a PMU_STRICT_FILTERS build (lib/pmu,
 * pmu_filter_capable; docs/pmu.md, Mode filtering).
 */
static void print_filter_banner(void)
{
	bool prog = hart_features.has_sscofpmf || sbi_pmu_vendor_filters();
	bool fixed = hart_features.has_smcntrpmf;
	bool quirk = prog && hart_features.instret_filter_ignored;
	const char *outcome = PMU_STRICT_FILTERS ? "refused (strict build)" :
			      "every mode counted";

	if (!prog && !fixed) {
		printf("PMU mode filters : none (no Sscofpmf, no Smcntrpmf); "
		       "filtered requests: %s\n", outcome);
		return;
	}
	printf("PMU mode filters : on %s%s%s; %s: %s\n",
	       prog ? "programmable counters" : "mcycle/minstret",
	       prog && fixed ? " and mcycle/minstret" : "",
	       quirk ? ", not for cycles/instret (the hart ignores them)" : "",
	       !prog ? "other events" : quirk && !fixed ?
	       "cycles, instret, firmware events" : "firmware events", outcome);
}

/* The known Linux driver bugs lib/pmu absorbs (docs/perf.md), or none. */
static void print_linux_compat(void)
{
	if (!pmu_linux_compat_count)
		printf("PMU Linux compat : none, strict SBI spec (built with LINUX_COMPAT=0)\n");
	for (unsigned int i = 0; i < pmu_linux_compat_count; i++)
		printf("PMU Linux compat : %s (%s bug, docs/perf.md)\n",
		       pmu_linux_compat[i].what, pmu_linux_compat[i].kernels);
}

/* The banner's account of the event map (after the hardware inventory). */
void sbi_pmu_print_banner(void)
{
	const struct fdt_pmu_stats *st = &pmu_dt_stats;

	if (!pmu_ready) {
		printf("PMU events       : none (PMU extension disabled)\n");
		return;
	}
	if (st->node < 0)
		printf("PMU events       : no riscv,pmu node: cycles and instructions only\n");
	else
		printf("PMU events       : devicetree rows: %u counters, %u selectors, %u raw%s%s%s\n",
		       st->loaded[FDT_PMU_PROP_COUNTERS], st->loaded[FDT_PMU_PROP_EVENTS],
		       st->loaded[FDT_PMU_PROP_RAW],
		       st->warnings ? " (with warnings, see above)" : "",
		       board_pmu_quirks() & PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT ?
		       ", one counter per event" : "",
		       board_pmu_quirks() & PMU_HART_QUIRK_FAR_START_SWALLOWS ?
		       ", QEMU's overflow leftovers flushed" : "");
	printf("PMU firmware     : %u counters per hart, events 0-21, 256-257\n",
	       PMU_FW_COUNTERS);
	if (sbi_pmu_vendor_name())
		printf("PMU overflow     : %s\n", sbi_pmu_vendor_name());
	print_filter_banner();
	print_linux_compat();
}

uint32_t sbi_pmu_hart_counters(void)
{
	/* mcycle and minstret are mandatory; time (1) is not a PMU counter */
	return (uint32_t)(hart_features.hpm_mask | COUNTEREN_CY | COUNTEREN_IR);
}

/* A hart's PMU set-up failure is told once, not at every HSM start. */
static unsigned int pmu_failure_told[TALLY_MAX_HARTS];

/* Per-hart hooks: boot and HSM start, HSM stop, around a non-retentive suspend. */
static void sbi_pmu_hart_init(void)
{
	struct pmu_hart_config cfg = {
		.map = &pmu_event_map,
		.ops = hart_features.has_mcountinhibit ? &csr_pmu_ops : &csr_pmu_ops_no_inhibit,
		.caps = {
			.hartid = this_hartid(),
			.counters = sbi_pmu_hart_counters(),
			.hpm_bits = hart_features.hpm_bits,
			.sscofpmf = hart_features.has_sscofpmf,
			.smcntrpmf = hart_features.has_smcntrpmf,
			.quirks = hart_features.instret_filter_ignored ?
				  PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET : 0,
		},
	};

	if (!pmu_ready)
		return;
	board_pmu_config(&cfg);		/* the board's hooks and counter quirks */
	cfg.overflow = sbi_pmu_vendor_hart_init();	/* T-Head, Andes: or NULL */
#ifdef TALLY_TEST_PMU_FAIL_HART
	/* test builds only: this hart's counters read as hardwired zero */
	if (this_hartid() == TALLY_TEST_PMU_FAIL_HART)
		cfg.caps.hpm_bits = 0;
#endif
	/* on failure the hart's PMU is disabled: its calls answer NOT_SUPPORTED */
	if (pmu_hart_init(&this_hart()->pmu, &cfg) != SBI_SUCCESS &&
	    !__atomic_exchange_n(&pmu_failure_told[this_hart_index()], 1, __ATOMIC_RELAXED))
		printf("Tally: hart %lu: PMU initialisation failed: no PMU on this hart\n",
		       this_hartid());
}

/* The programmable counters among present (no trap) that hold a value. */
unsigned long sbi_pmu_probe_counters(unsigned long present, unsigned int *bits)
{
	return pmu_probe_counters(&csr_pmu_ops, 0, (uint32_t)present, bits);
}

static void sbi_pmu_hart_stop(void)
{
	if (pmu_ready)
		pmu_hart_stop(&this_hart()->pmu);
}

static void sbi_pmu_hart_suspend(void)
{
	if (pmu_ready)
		pmu_hart_suspend(&this_hart()->pmu);
}

static void sbi_pmu_hart_resume_nonretentive(void)
{
	if (pmu_ready)
		pmu_hart_resume_nonretentive(&this_hart()->pmu);
}

static bool pmu_available(void)
{
	return pmu_ready;
}

/* probe_extension asks per hart: a hart whose set-up failed has no PMU. */
static bool pmu_hart_available(void)
{
	return pmu_hart_ready(&this_hart()->pmu);
}

static struct sbiret pmu_handle(unsigned long fid, const unsigned long *args,
				struct trap_frame *tf)
{
	(void)tf;
	return pmu_sbi_call(&this_hart()->pmu, fid, args);
}

const struct sbi_extension sbi_ext_pmu = {
	.eid_first = SBI_EXT_PMU,
	.eid_last = SBI_EXT_PMU,
	.name = "PMU",
	.available = pmu_available,
	.hart_available = pmu_hart_available,
	.handle = pmu_handle,
	.hart_init = sbi_pmu_hart_init,
	.hart_stop = sbi_pmu_hart_stop,
	.hart_suspend = sbi_pmu_hart_suspend,
	.hart_resume = sbi_pmu_hart_resume_nonretentive,
};
