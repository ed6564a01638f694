// SPDX-License-Identifier: BSD-2-Clause
/*
 * The vendor overflow back ends of lib/pmu (struct pmu_overflow_ops) on
 * harts without Sscofpmf whose vendor PMU Linux's riscv_pmu_sbi driver
 * serves (docs/pmu.md, Vendor overflow back ends).  The board picks one
 * (struct board_pmu.overflow, matched by the harts' cpu compatible); the
 * cold-boot hart checks that its CSRs exist with a guarded access, so a
 * model without them (QEMU's thead-c906) counts without overflow
 * interrupts instead of trapping.
 *
 * CSR numbers and bits: OpenSBI's platform/generic/include/thead/
 * c9xx_encoding.h and include/andes/andes.h, Linux 6.12's
 * arch/riscv/include/asm/errata_list.h (T-Head: IRQ 17, scounterof 0x5c5)
 * and include/linux/soc/andes/irq.h (Andes: local IRQ 18, scounterof
 * 0x9d4).
 */
#include <libfdt.h>
#include <tally/board.h>
#include <tally/console.h>
#include <tally/fdt_isa.h>
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/pmu.h>
#include <tally/riscv.h>
#include <tally/sbi_pmu.h>

/* T-Head C9xx (C906, C908, C910, C920) */
#define CSR_THEAD_MCOUNTERWEN		0x7c9	/* S-mode counter writes; scounterof reads */
#define CSR_THEAD_MCOUNTERINTEN		0x7ca	/* overflow interrupt enable, per counter */
#define CSR_THEAD_MCOUNTEROF		0x7cb	/* overflow flags (S-mode: scounterof 0x5c5) */
#define THEAD_IRQ_PMU			17	/* mip/mie/mideleg bit */

/* Andes (AX45MP, A45: the XAndesPMU of Linux) */
#define CSR_ANDES_MCOUNTERWEN		0x7ce
#define CSR_ANDES_MCOUNTERINTEN		0x7cf
#define CSR_ANDES_MCOUNTERMASK_M	0x7d1	/* set: no counting in M-mode */
#define CSR_ANDES_MCOUNTERMASK_S	0x7d2
#define CSR_ANDES_MCOUNTERMASK_U	0x7d3
#define CSR_ANDES_MCOUNTEROVF		0x7d4	/* overflow flags (S-mode: scounterof 0x9d4) */
#define CSR_ANDES_MSLIDELEG		0x7d5	/* "slide" local interrupt delegation */
#define CSR_ANDES_MMSC_CFG		0xfc2
#define ANDES_MMSC_CFG_PMNDS		(1UL << 15)	/* the Andes PMU is there */
#define ANDES_IRQ_PMOVI			18	/* mip / mslideleg bit */

/* ---- T-Head ---------------------------------------------------------------- */

/*
 * counter_start: the flags are cleared only while IRQ 17 is not pending
 * (else S-mode, which has not handled it yet, would find no overflowed
 * counter: OpenSBI's first C9xx back end, and its Andes one, do the
 * same); mcounterwen too, without which S-mode's scounterof reads 0.
 */
static void thead_arm(void *ctx, uint32_t mask)
{
	(void)ctx;
	if (!(csr_read(mip) & (1UL << THEAD_IRQ_PMU)))
		csr_clear(CSR_THEAD_MCOUNTEROF, mask);
	csr_set(CSR_THEAD_MCOUNTERWEN, mask);
	csr_set(CSR_THEAD_MCOUNTERINTEN, mask);
}

static void thead_disarm(void *ctx, uint32_t mask)
{
	(void)ctx;
	csr_clear(CSR_THEAD_MCOUNTERINTEN, mask);
}

static uint32_t thead_flags(void *ctx)
{
	(void)ctx;
	return (uint32_t)csr_read(CSR_THEAD_MCOUNTEROF);
}

/* No filter: the T-Head mhpmevent has no mode bits (no Sscofpmf). */
static const struct pmu_overflow_ops thead_overflow = {
	.arm = thead_arm,
	.disarm = thead_disarm,
	.flags = thead_flags,
};

/* ---- Andes ----------------------------------------------------------------- */

static void andes_arm(void *ctx, uint32_t mask)
{
	(void)ctx;
	if (!(csr_read(mip) & (1UL << ANDES_IRQ_PMOVI)))
		csr_clear(CSR_ANDES_MCOUNTEROVF, mask);
	csr_set(CSR_ANDES_MCOUNTERINTEN, mask);
}

static void andes_disarm(void *ctx, uint32_t mask)
{
	(void)ctx;
	csr_clear(CSR_ANDES_MCOUNTERINTEN, mask);
}

static uint32_t andes_flags(void *ctx)
{
	(void)ctx;
	return (uint32_t)csr_read(CSR_ANDES_MCOUNTEROVF);
}

/* Mode filtering by counter: a set mask bit keeps it from counting there. */
static void andes_filter(void *ctx, unsigned int idx, unsigned long inh)
{
	unsigned long bit = 1UL << idx;

	(void)ctx;
	if (inh & SBI_PMU_CFG_FLAG_SET_UINH)
		csr_set(CSR_ANDES_MCOUNTERMASK_U, bit);
	else
		csr_clear(CSR_ANDES_MCOUNTERMASK_U, bit);
	if (inh & SBI_PMU_CFG_FLAG_SET_SINH)
		csr_set(CSR_ANDES_MCOUNTERMASK_S, bit);
	else
		csr_clear(CSR_ANDES_MCOUNTERMASK_S, bit);
	if (inh & SBI_PMU_CFG_FLAG_SET_MINH)
		csr_set(CSR_ANDES_MCOUNTERMASK_M, bit);
	else
		csr_clear(CSR_ANDES_MCOUNTERMASK_M, bit);
}

static const struct pmu_overflow_ops andes_overflow = {
	.arm = andes_arm,
	.disarm = andes_disarm,
	.flags = andes_flags,
	.filter = andes_filter,
};

/* ---- selection ------------------------------------------------------------- */

/* The back end the cold-boot hart found (harts are taken to be alike). */
static const struct pmu_overflow_ops *vendor_ops;
static enum board_pmu_overflow vendor_kind;

/*
 * Cold boot, after the feature probe: the board's back end, if this hart
 * has its CSRs and no Sscofpmf (which wins, as in Linux).
 */
void sbi_pmu_vendor_cold_init(void)
{
	enum board_pmu_overflow kind = board_pmu_overflow();
	unsigned long cfg;
	bool ok = false;

	vendor_ops = NULL;
	vendor_kind = BOARD_PMU_OVERFLOW_NONE;
	if (kind == BOARD_PMU_OVERFLOW_NONE || hart_features.has_sscofpmf)
		return;
	if (kind == BOARD_PMU_OVERFLOW_THEAD) {
		(void)csr_read_guarded(CSR_THEAD_MCOUNTERINTEN, &ok);
		if (ok)
			vendor_ops = &thead_overflow;
	} else if (kind == BOARD_PMU_OVERFLOW_ANDES) {
		cfg = csr_read_guarded(CSR_ANDES_MMSC_CFG, &ok);
		if (ok && (cfg & ANDES_MMSC_CFG_PMNDS))
			vendor_ops = &andes_overflow;
	}
	if (vendor_ops)
		vendor_kind = kind;
	else
		printf("Tally: PMU: the board's %s overflow CSRs are missing: "
		       "counting only, no overflow interrupt\n",
		       kind == BOARD_PMU_OVERFLOW_THEAD ? "T-Head" : "Andes");
}

/*
 * Linux 6.12 takes the Andes PMU from "xandespmu" in a cpu node's ISA
 * properties alone (CONFIG_ANDES_CUSTOM_PMU, when the hart has no
 * Sscofpmf): a hart whose overflow CSRs the probe did not find must not
 * list it, or perf record waits for a local interrupt 18 that never
 * comes.  So the tree handed on loses it, as the hart set-up's unusable
 * extensions do (docs/pmu.md, Vendor overflow back ends).
 */
void sbi_pmu_vendor_fdt_fixup(void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), node, n = 0;

	if (board_pmu_overflow() != BOARD_PMU_OVERFLOW_ANDES || vendor_ops ||
	    hart_features.has_sscofpmf || cpus < 0)
		return;
	fdt_for_each_subnode(node, fdt, cpus)
		if (fdt_isa_has(fdt, node, "xandespmu") &&
		    !fdt_isa_remove(fdt, node, "xandespmu"))
			n++;
	if (n)
		printf("Tally: PMU: xandespmu taken out of the devicetree "
		       "(%d cpu nodes): no Andes overflow CSRs\n", n);
}

/*
 * Every hart (boot, HSM start): the back end for pmu_hart_init, with the
 * overflow interrupt delegated to S-mode.
 */
const struct pmu_overflow_ops *sbi_pmu_vendor_hart_init(void)
{
	if (!vendor_ops || hart_features.has_sscofpmf)
		return NULL;
	if (vendor_kind == BOARD_PMU_OVERFLOW_THEAD)
		csr_set(mideleg, 1UL << THEAD_IRQ_PMU);
	else
		csr_set(CSR_ANDES_MSLIDELEG, 1UL << ANDES_IRQ_PMOVI);
	return vendor_ops;
}

/* For the banner. */
const char *sbi_pmu_vendor_name(void)
{
	switch (vendor_kind) {
	case BOARD_PMU_OVERFLOW_THEAD:
		return "T-Head C9xx: mcounterinten/mcounterof, IRQ 17 delegated (mideleg)";
	case BOARD_PMU_OVERFLOW_ANDES:
		return "Andes: mcounterinten/mcounterovf, IRQ 18 delegated (mslideleg), "
		       "mode filters by mcountermask_m/s/u";
	default:
		return NULL;
	}
}

bool sbi_pmu_vendor_filters(void)
{
	return vendor_ops && vendor_ops->filter;
}
