// SPDX-License-Identifier: BSD-2-Clause
/*
 * The hart set-up that follows from the hart's ISA extensions: for each
 * extension M-mode must enable or configure before S-mode may use it, the
 * CSR and bits.  A hart has an extension when its devicetree cpu node lists
 * it (what Linux reads) or M-mode's own probe found the CSR (smstateen,
 * ssaia, sstc); a rule applies when its extension is there, with and
 * without the ones it names.  Pure data and logic: hart_ext_setup.c writes
 * the CSRs, and the host tests (tests/dt/test_fdt_isa.c) check the plans.
 *
 * Specs: "priv" is the RISC-V privileged ISA (20250508), "CMO" the
 * Zicbom/Zicboz spec 1.0.1, "AIA" the Advanced Interrupt Architecture
 * 1.0, "scalar crypto" Zk 1.0.1, "binding" Linux's
 * Documentation/devicetree/bindings/riscv/extensions.yaml.
 */
#include <stddef.h>
#include <tally/hart_ext.h>
#include <tally/riscv.h>

#define STATEEN0(ext, with, bits, why) \
	{ ext, with, NULL, EXT_MSTATEEN0, false, false, bits, bits, why }

const struct hart_ext_rule hart_ext_rules[] = {
	/* menvcfg: what S-mode and U-mode may do */
	{ "zicboz", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_CBZE, MENVCFG_CBZE,
	  "cbo.zero (Linux's clear_page); CMO 2.5, priv 3.1.18" },
	{ "zicbom", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_CBCFE | MENVCFG_CBIE,
	  MENVCFG_CBCFE | MENVCFG_CBIE,
	  "cbo.clean/flush/inval (non-coherent DMA); CMO 2.5, priv 3.1.18" },
	{ "svpbmt", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_PBMTE, MENVCFG_PBMTE,
	  "PBMT bits of ioremap/fixmap PTEs; priv 3.1.18, Svpbmt" },
	{ "sstc", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_STCE, MENVCFG_STCE,
	  "stimecmp; priv 3.1.18, Sstc" },
	/* Svadu: on from boot when Svade is not listed (the binding's third
	 * case); with both, off until FWFT PTE_AD_HW_UPDATING turns it on */
	{ "svadu", NULL, "svade", EXT_MENVCFG, false, false, MENVCFG_ADUE, MENVCFG_ADUE,
	  "hardware A/D updates, on (no Svade); priv 3.1.18, binding svade" },
	{ "svadu", "svade", NULL, EXT_MENVCFG, false, false, MENVCFG_ADUE, 0,
	  "hardware A/D updates, off until FWFT; SBI 3.0 FWFT" },
	/* the FWFT features: off at every hart start, S-mode turns them on */
	{ "zicfilp", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_LPE, 0,
	  "landing pads, FWFT LANDING_PAD; priv 3.1.18, Zicfilp" },
	{ "zicfiss", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_SSE, 0,
	  "shadow stack, FWFT SHADOW_STACK; priv 3.1.18, Zicfiss" },
	{ "ssdbltrp", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_DTE, 0,
	  "S-mode double trap, FWFT DOUBLE_TRAP; priv 3.1.18, Ssdbltrp" },
	/* not probed here: PMLEN 7 alone is Ssnpm too (FWFT probes each) */
	{ "ssnpm", NULL, NULL, EXT_MENVCFG, true, false, MENVCFG_PMM, 0,
	  "pointer masking, FWFT POINTER_MASKING_PMLEN; Ssnpm" },
	/* mstateen0-3 (Smstateen): the state S-mode and its guests may touch */
	STATEEN0("smstateen", NULL, MSTATEEN_SE | MSTATEEN0_ENVCFG,
		 "sstateen0/hstateen0 (KVM), senvcfg/henvcfg (every context switch); "
		 "priv 19.2, Smstateen"),
	STATEEN0("ssaia", "smstateen", MSTATEEN0_AIA | MSTATEEN0_IMSIC | MSTATEEN0_CSRIND,
		 "stopi, stopei, siselect/sireg (the IMSIC driver); AIA 2.5, priv 19.2"),
	STATEEN0("sscsrind", "smstateen", MSTATEEN0_CSRIND,
		 "siselect/sireg*; Sscsrind, priv 19.2"),
	/* scontext/hcontext are optional in Sdtrig: where CONTEXT does not stick
	 * there is nothing behind it, and Sdtrig itself is M-mode's (SBI DBTR) */
	{ "sdtrig", "smstateen", NULL, EXT_MSTATEEN0, true, false, MSTATEEN0_CONTEXT,
	  MSTATEEN0_CONTEXT, "scontext, hcontext where they exist; priv 19.2" },
	STATEEN0("ssqosid", "smstateen", MSTATEEN0_SRMCFG, "srmcfg; Ssqosid, priv 19.2"),
	STATEEN0("zfinx", "smstateen", MSTATEEN0_FCSR, "fcsr without F; priv 19.2"),
	STATEEN0("zcmt", "smstateen", MSTATEEN0_JVT, "jvt; priv 19.2"),
	{ "smstateen", NULL, NULL, EXT_MSTATEEN1, false, false, MSTATEEN_SE, MSTATEEN_SE,
	  "sstateen1/hstateen1; priv 19.2" },
	{ "smstateen", NULL, NULL, EXT_MSTATEEN2, false, false, MSTATEEN_SE, MSTATEEN_SE,
	  "sstateen2/hstateen2; priv 19.2" },
	{ "smstateen", NULL, NULL, EXT_MSTATEEN3, false, false, MSTATEEN_SE, MSTATEEN_SE,
	  "sstateen3/hstateen3; priv 19.2" },
	/*
	 * Smcdeleg/Ssccfg: S-mode programs the counters mcounteren delegates
	 * (every one: COUNTEREN_ALL) itself, through siselect 0x40-0x5f with
	 * sireg (value) and sireg2 (event) (Sscsrind), and scountinhibit; the
	 * SBI PMU goes on serving a kernel that does not (docs/pmu.md, Counter
	 * delegation).
	 * Two rows, so that a CDE that does not stick takes both names out.
	 */
	{ "smcdeleg", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_CDE, MENVCFG_CDE,
	  "counter delegation to S-mode; priv 3.1.18 (menvcfg.CDE), Smcdeleg" },
	{ "ssccfg", NULL, NULL, EXT_MENVCFG, false, false, MENVCFG_CDE, MENVCFG_CDE,
	  "siselect 0x40-0x5f, scountinhibit (S-mode's counters); priv, Ssccfg" },
	/* Zkr: S-mode reads the seed CSR (Linux's random_init_early), U-mode not */
	{ "zkr", NULL, NULL, EXT_MSECCFG, false, false, MSECCFG_SSEED | MSECCFG_USEED, MSECCFG_SSEED,
	  "seed CSR from S-mode, not from U-mode; scalar crypto 4.1, priv 3.1.19" },
	/*
	 * Sscofpmf's overflow interrupt: S-mode enables it in sie (mie's
	 * alias); QEMU 10.0.11-10.0.13 made mie.LCOFIE read-only zero, so no
	 * overflow ever interrupts (docs/perf.md).  Such a hart has no
	 * Sscofpmf: the tree loses it and perf says it cannot sample.
	 */
	{ "sscofpmf", NULL, NULL, EXT_MIE, false, true, MIP_LCOFIP, MIP_LCOFIP,
	  "the counter-overflow interrupt (perf record); Sscofpmf, priv 3.1.9" },
	/* M-mode's own: cleared and set in _start before any probe traps */
	{ "smdbltrp", NULL, NULL, EXT_MSTATUS, true, false, MSTATUS64_MDT, 0,
	  "M-mode traps (probes, MPRV loads) are not double traps; priv 3.1.6.1, Smdbltrp" },
	{ "smrnmi", NULL, NULL, EXT_MNSTATUS, false, false, MNSTATUS_NMIE, MNSTATUS_NMIE,
	  "M-mode exceptions go to mtvec, not the RNMI handler; priv 3.5, Smrnmi" },
};
const unsigned int hart_ext_count = sizeof(hart_ext_rules) / sizeof(hart_ext_rules[0]);
_Static_assert(sizeof(hart_ext_rules) / sizeof(hart_ext_rules[0]) <= 32,
	       "a plan is one unsigned int");

/*
 * Extensions the firmware takes out of the tree whatever the hardware
 * has: none today (Smcdeleg/Ssccfg were, until counter delegation came,
 * above).  One placeholder row: C has no empty arrays.
 */
const struct hart_ext_withheld hart_ext_withheld[] = {
	{ "", "" },
};
const unsigned int hart_ext_withheld_count = 0;

unsigned int hart_ext_plan(hart_ext_has_fn has, const void *ctx)
{
	unsigned int plan = 0;

	for (unsigned int i = 0; i < hart_ext_count; i++) {
		const struct hart_ext_rule *r = &hart_ext_rules[i];

		if (has(ctx, r->ext) && (!r->with || has(ctx, r->with)) &&
		    (!r->without || !has(ctx, r->without)))
			plan |= 1U << i;
	}
	return plan;
}

/*
 * A rule that writes bits checks they stick; one that writes 0 (a feature
 * S-mode turns on later) checks that the whole field could be set.
 */
unsigned long long hart_ext_probe_bits(const struct hart_ext_rule *r)
{
	return r->value ? r->value : r->field;
}
