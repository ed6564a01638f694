// SPDX-License-Identifier: BSD-2-Clause
/*
 * The harts themselves: their scratch areas and stacks, the probe of what
 * the hardware has (cold boot) and the per-hart CSR set-up that every start
 * runs (cold boot, warm boot, HSM start), which ends in every SBI
 * extension's hart_init hook (sbi_ext_hart_event).  Called by sbi_init.c
 * and sbi_hsm.c; calls neither (nor the IPI or HSM code): the bottom of
 * the boot path.
 */
#include <libfdt.h>
#include <tally/board.h>
#include <tally/console.h>
#include <tally/fdt_helpers.h>
#include <tally/fdt_validate.h>
#include <tally/hart.h>
#include <tally/hart_ext.h>
#include <tally/init.h>
#include <tally/platform.h>
#include <tally/sbi.h>
#include <tally/sbi_pmu.h>
#include <tally/trap.h>

struct hart_scratch hart_scratch[TALLY_MAX_HARTS];
static unsigned char hart_stacks[TALLY_MAX_HARTS][TALLY_STACK_SIZE]
	__attribute__((section(".stacks"), aligned(16), used));

/* hart_map itself is defined in lib/utils/hartmask.c, below the platform that reads it. */
unsigned char hart_boot_stack[HART_BOOT_STACK_SIZE]
	__attribute__((section(".stacks"), aligned(16)));
struct hart_scratch hart_boot_scratch __attribute__((section(".stacks")));
unsigned long boot_wait_poll __attribute__((section(".data")));

void hart_map_boot(unsigned long a0, unsigned long a1, unsigned long a2)
{
	const void *fdt;
	struct fw_next next;

	hart_boot_scratch.guard = 0;		/* a trap now is fatal, and says so */
	hart_boot_scratch.hartid = a0;
	fw_next_stage(a0, a1, a2, &next);
	fdt = (const void *)next.fdt;
	/*
	 * No usable tree: this hart alone, so that cold boot runs and says
	 * why it stops (a hart the tree leaves out waits in _start for ever).
	 */
	if (!fdt || fdt_check_header(fdt) || fdt_hart_map(fdt, &hart_map) < 0 ||
	    !hart_map.count) {
		hart_map_clear(&hart_map);
		hart_map_add(&hart_map, a0);
	} else {
		/* no MSWI to wake them: the other harts poll for the end of cold boot */
		boot_wait_poll = fdt_walkable(fdt, fdt_totalsize(fdt)) && !fdt_has_mswi(fdt);
	}
	__atomic_store_n(&hart_map_ready, 1, __ATOMIC_RELEASE);
}

long hart_boot_choice(unsigned long a0, unsigned long a1, unsigned long a2)
{
	long named = fw_boot_hart(a0, a1, a2);

	if (named != -1 && hart_map_index(&hart_map, (unsigned long)named) == HART_INDEX_NONE)
		return -1;	/* a hart that waits in _start for ever: the lottery instead */
	return named;
}

/* Called from _start before .bss is cleared: address arithmetic only. */
struct hart_scratch *hart_scratch_of(unsigned long index)
{
	return &hart_scratch[index];
}

/*
 * The one definition of where the stack of hart index i is: the top of
 * block i of hart_stacks.  _start calls it (before any stack exists:
 * address arithmetic only, no stack use) for the boot stack, which is also
 * the stack of the HSM wait of a stopped hart; cold_boot() uses it for the
 * frame of traps from S-mode at the top of the same block.  A hart's
 * M-mode code never runs on another hart's block.
 */
unsigned long hart_stack_top(unsigned long index)
{
	return (unsigned long)hart_stacks[index] + TALLY_STACK_SIZE;
}

/* Cold boot, before anything looks at a scratch: who each one is. */
void hart_scratch_init(void)
{
	for (unsigned long i = 0; i < TALLY_MAX_HARTS; i++) {
		hart_scratch[i].index = i;
		hart_scratch[i].hartid = i < hart_map.count ? hart_map.id[i] : HART_INDEX_NONE;
		hart_scratch[i].smode_frame = hart_stack_top(i) - TF_SIZE;
	}
}

static bool misa_has(char ext)
{
	return (csr_read(misa) >> (ext - 'a')) & 1;
}

static void probe_counters(void)
{
	unsigned long present = 0;
	bool ok;

	for (unsigned int i = 3; i < 32; i++) {
		switch (i) {
#define PROBE(n) case n: csr_read_guarded(CSR_MHPMCOUNTER3 + n - 3, &ok); break;
		PROBE(3) PROBE(4) PROBE(5) PROBE(6) PROBE(7) PROBE(8) PROBE(9)
		PROBE(10) PROBE(11) PROBE(12) PROBE(13) PROBE(14) PROBE(15) PROBE(16)
		PROBE(17) PROBE(18) PROBE(19) PROBE(20) PROBE(21) PROBE(22) PROBE(23)
		PROBE(24) PROBE(25) PROBE(26) PROBE(27) PROBE(28) PROBE(29) PROBE(30)
		PROBE(31)
#undef PROBE
		}
		if (ok)
			present |= 1UL << i;
	}
	/*
	 * A counter that does not trap may still be hardwired to zero: only
	 * those that hold a written value are offered (write/read-back, with
	 * the counter inhibited, which needs mcountinhibit; without it the
	 * PMU extension is off anyway).
	 */
	hart_features.hpm_mask = 0;
	hart_features.hpm_bits = 0;
	if (present && hart_features.has_mcountinhibit)
		hart_features.hpm_mask = sbi_pmu_probe_counters(present,
								&hart_features.hpm_bits);
}

/*
 * Does the mhpmevent mode filter work for instructions?  Count retired
 * instructions on mhpmcounter3 with every mode inhibited while M-mode runs
 * a short loop: a working filter leaves the counter still.  QEMU 7.2 lets
 * it run (its cycle/instret counters ignore the filter bits): a
 * mode-filtered cycles or instructions request then counts every mode, and
 * the banner and docs/pmu.md say so (the PMU_STRICT_FILTERS build refuses
 * it instead).  Done before the PMU owns the counters.
 */
static bool probe_instret_filter_ignored(void)
{
	const unsigned long long all_modes_inhibited = MHPMEVENT_MINH | MHPMEVENT_SINH |
						       MHPMEVENT_UINH | 0x2;	/* QEMU's instret event */
	unsigned long before, after;

	if (!(hart_features.hpm_mask & (1UL << 3)) || !hart_features.has_sscofpmf)
		return false;
	csr_set(CSR_MCOUNTINHIBIT, 1UL << 3);
#if __riscv_xlen == 32
	csr_write(CSR_MHPMEVENTH_BASE + 3, all_modes_inhibited >> 32);	/* Sscofpmf */
#endif
	csr_write(CSR_MHPMEVENT3, all_modes_inhibited);
	csr_write(CSR_MHPMCOUNTER3, 0);
	before = csr_read(CSR_MHPMCOUNTER3);
	csr_clear(CSR_MCOUNTINHIBIT, 1UL << 3);
	for (volatile int i = 0; i < 64; i++)
		;
	csr_set(CSR_MCOUNTINHIBIT, 1UL << 3);
	after = csr_read(CSR_MHPMCOUNTER3);
#if __riscv_xlen == 32
	csr_write(CSR_MHPMEVENTH_BASE + 3, 0);
#endif
	csr_write(CSR_MHPMEVENT3, 0);		/* QEMU: unmaps the event */
	csr_write(CSR_MHPMCOUNTER3, 0);
	return after - before > 32;
}

void hart_probe_features(void)
{
	bool ok;

	csr_read_guarded(CSR_STIMECMP, &ok);
	hart_features.has_sstc = ok;
	csr_read_guarded(CSR_SCOUNTOVF, &ok);
	hart_features.has_sscofpmf = ok;
	csr_read_guarded(CSR_MENVCFG, &ok);
	hart_features.has_menvcfg = ok;
	csr_read_guarded(CSR_MCOUNTINHIBIT, &ok);
	hart_features.has_mcountinhibit = ok;
	csr_read_guarded(CSR_MCYCLECFG, &ok);
	hart_features.has_smcntrpmf = ok;
	/* misa may read 0: the H extension is there if hstatus is */
	csr_read_guarded(CSR_HSTATUS, &ok);
	/* RV32 keeps mstatus.MPV/GVA in mstatush, which the trap path does not
	 * handle: the H extension is not used there (riscv.h) */
	hart_features.has_h = ok && __riscv_xlen == 64;
	hart_features.has_fp = misa_has('f') || misa_has('d');
	/* AIA: M-mode's and S-mode's IMSIC/interrupt CSRs; Smstateen's gate */
	csr_read_guarded(CSR_MTOPI, &ok);
	hart_features.has_smaia = ok;
	csr_read_guarded(CSR_SISELECT, &ok);
	hart_features.has_ssaia = ok;
	csr_read_guarded(CSR_MSTATEEN0, &ok);
	hart_features.has_smstateen = ok;
	probe_counters();
	hart_features.instret_filter_ignored = probe_instret_filter_ignored();
	hart_features.pmp_count = pmp_probe_count();
	platform.has_sstc = hart_features.has_sstc;
}

/*
 * With the H extension, the traps a guest's hypervisor handles go to
 * HS-mode directly: ecalls from VS-mode (never SBI calls: a guest asks its
 * hypervisor), guest-page faults and virtual-instruction exceptions.
 */
static unsigned long medeleg_hypervisor(void)
{
	return (1UL << CAUSE_VIRTUAL_SUPERVISOR_ECALL) | (1UL << CAUSE_FETCH_GUEST_PAGE_FAULT) |
	       (1UL << CAUSE_LOAD_GUEST_PAGE_FAULT) | (1UL << CAUSE_VIRTUAL_INSTRUCTION) |
	       (1UL << CAUSE_STORE_GUEST_PAGE_FAULT);
}

/*
 * Smaia/Ssaia: M-mode injects no virtual interrupt into S-mode (mvien,
 * mvip: S-mode's sip.SEIP is its IMSIC S-file's alone).  S-mode's access
 * to its AIA CSRs (Smstateen) is a rule of hart_ext.c.
 */
void hart_irq_init(void)
{
	if (hart_features.has_smaia) {
		csr_write_guarded(CSR_MVIEN, 0);
		csr_write_guarded(CSR_MVIP, 0);
	}
	if (platform.ops.irq_hart_init)
		platform.ops.irq_hart_init();
}

void hart_init_local(void)
{
	struct hart_scratch *me = this_hart();

	csr_write(mie, platform.ipi_mip);
	csr_clear(mip, MIP_SSIP | MIP_STIP);
	/* S-mode handles its own timer, software, external and counter-overflow irqs */
	csr_write(mideleg, MIP_SSIP | MIP_STIP | MIP_SEIP |
			   (hart_features.has_sscofpmf ? MIP_LCOFIP : 0));
	/* misaligned, access and illegal-instruction traps stay here: they are
	 * firmware events of the PMU, and are forwarded after counting (S-mode
	 * may take misaligned load/store itself: FWFT MISALIGNED_EXC_DELEG) */
	csr_write(medeleg, (1UL << CAUSE_MISALIGNED_FETCH) | (1UL << CAUSE_BREAKPOINT) |
			   (1UL << CAUSE_USER_ECALL) | (1UL << CAUSE_FETCH_PAGE_FAULT) |
			   (1UL << CAUSE_LOAD_PAGE_FAULT) | (1UL << CAUSE_STORE_PAGE_FAULT) |
			   (hart_features.has_h ? medeleg_hypervisor() : 0));
	if (hart_features.has_h)
		csr_clear(mstatus, MSTATUS_MPV);	/* the next mret enters HS-mode */
	csr_write(mcounteren, COUNTEREN_ALL);
	/* programmable counters stop until the PMU starts them; cycle and instret run */
	if (hart_features.has_mcountinhibit)
		csr_write(CSR_MCOUNTINHIBIT,
			  COUNTEREN_ALL & ~(COUNTEREN_CY | COUNTEREN_TM | COUNTEREN_IR));
	/* what the hart's extensions need of M-mode (hart_ext.c), before FWFT's hart_init */
	if (!hart_ext_apply())
		printf("Tally: WARNING: hart %lu: an extension's CSR bits do not stick "
		       "(its devicetree entry stays: the boot hart's did)\n", me->hartid);
	if (hart_features.has_fp) {
		csr_clear(mstatus, MSTATUS_FS);
		csr_set(mstatus, MSTATUS_FS_INITIAL);
		csr_write(CSR_FCSR, 0);
	}
	pmp_protect();
	hart_irq_init();
	sbi_ext_hart_event(SBI_HART_INIT);	/* each extension's hart_init */
	if (platform.ops.ipi_clear)
		platform.ops.ipi_clear(me->index);
	if (board->hart_init)
		board->hart_init(me->hartid);
}
