// SPDX-License-Identifier: BSD-2-Clause
/*
 * An M-level APLIC interrupt domain (RISC-V AIA).  The firmware keeps no
 * device interrupt for itself: it hands every source the devicetree
 * delegates (riscv,delegation) to the child domain named there, usually
 * S-mode's, and leaves every other source inactive.  In MSI mode it also
 * writes where MSIs go (mmsiaddrcfg for the domain itself, smsiaddrcfg for
 * its S-level children, which cannot write those registers themselves).
 * Once at cold boot: the domain is shared by all harts and keeps its state.
 */
#include <stdint.h>
#include <tally/aia.h>
#include <tally/drivers.h>
#include <tally/trap_page.h>

#define APLIC_DOMAINCFG		0x0000
#define APLIC_DOMAINCFG_DM	(1U << 2)	/* MSI delivery mode */
#define APLIC_SOURCECFG(s)	(0x0004 + 4 * ((s) - 1))	/* sources 1..1023 */
#define APLIC_SOURCECFG_D	(1U << 10)	/* delegated; bits 9:0: child index */
#define APLIC_MMSIADDRCFG	0x1BC0
#define APLIC_MMSIADDRCFGH	0x1BC4
#define APLIC_SMSIADDRCFG	0x1BC8
#define APLIC_SMSIADDRCFGH	0x1BCC
#define MSIADDRCFGH_LHXW_SHIFT	12
#define MSIADDRCFGH_HHXW_SHIFT	16
#define MSIADDRCFGH_LHXS_SHIFT	20
#define MSIADDRCFGH_HHXS_SHIFT	24
#define MSIADDRCFGH_PPN_MASK	0xFFFU
#define APLIC_IDC_IDELIVERY(i)	(0x4000 + 32 * (i))
#define APLIC_IN_CLRIP(s)	(0x1D00 + 4 * ((s) / 32))	/* bit s % 32 */
#define APLIC_SETIP(s)		(0x1C00 + 4 * ((s) / 32))	/* bit s % 32 */
#define APLIC_CLRIPNUM		0x1DDC
/* the registers of the page at APLIC_SETIPNUM_PAGE, by offset in it */
#define PAGE_SETIPNUM_LE	0x0
#define PAGE_SETIPNUM_BE	0x4
#define APLIC_SOURCECFG_SM	0x7U
#define APLIC_SM_LEVEL_HIGH	6
#define APLIC_SM_LEVEL_LOW	7

static void aplic_write(unsigned long base, unsigned long reg, uint32_t value)
{
	*(volatile uint32_t *)(base + reg) = value;
}

static uint32_t aplic_read(unsigned long base, unsigned long reg)
{
	return *(volatile uint32_t *)(base + reg);
}

static void msicfg_write(unsigned long base, unsigned long reg, const struct aplic_msicfg *c)
{
	uint64_t ppn = c->base_ppn;

	aplic_write(base, reg, (uint32_t)ppn);
	aplic_write(base, reg + 4, ((uint32_t)(ppn >> 32) & MSIADDRCFGH_PPN_MASK) |
				   c->lhxw << MSIADDRCFGH_LHXW_SHIFT |
				   c->hhxw << MSIADDRCFGH_HHXW_SHIFT |
				   c->lhxs << MSIADDRCFGH_LHXS_SHIFT |
				   c->hhxs << MSIADDRCFGH_HHXS_SHIFT);
}

void aplic_init_mlevel(const struct aplic_desc *d)
{
	unsigned long base = d->base;

	aplic_write(base, APLIC_DOMAINCFG, 0);		/* nothing delivered meanwhile */
	for (unsigned int s = 1; s <= d->num_sources; s++)
		aplic_write(base, APLIC_SOURCECFG(s), 0);	/* inactive */
	for (unsigned int i = 0; i < d->nr_delegations; i++)
		for (uint32_t s = d->deleg[i].first; s <= d->deleg[i].last; s++)
			aplic_write(base, APLIC_SOURCECFG(s), APLIC_SOURCECFG_D | d->deleg[i].child);
	if (d->has_mmsi)
		msicfg_write(base, APLIC_MMSIADDRCFG, &d->mmsi);
	if (d->has_smsi)
		msicfg_write(base, APLIC_SMSIADDRCFG, &d->smsi);
	for (unsigned int i = 0; i < d->nr_idcs && APLIC_IDC_IDELIVERY(i + 1) <= d->size; i++)
		aplic_write(base, APLIC_IDC_IDELIVERY(i), 0);	/* no M-level interrupt */
	/* IE stays clear: no source is active at M-level */
	aplic_write(base, APLIC_DOMAINCFG, d->msi_mode ? APLIC_DOMAINCFG_DM : 0);
}

/* ---- the setipnum quirk (BOARD_QUIRK_APLIC_SETIPNUM) ----------------------- */

static uint32_t swap32(uint32_t v)	/* no __builtin_bswap32: it may call libgcc */
{
	return v >> 24 | (v >> 8 & 0xFF00U) | (v << 8 & 0xFF0000U) | v << 24;
}

/* Source s is active and level-sensitive in the domain (not delegated on). */
static bool source_is_level(unsigned long base, uint32_t s)
{
	uint32_t cfg = aplic_read(base, APLIC_SOURCECFG(s));

	if (cfg & APLIC_SOURCECFG_D)
		return false;
	cfg &= APLIC_SOURCECFG_SM;
	return cfg == APLIC_SM_LEVEL_HIGH || cfg == APLIC_SM_LEVEL_LOW;
}

/*
 * Does this S-level MSI-mode domain have QEMU 7.2's setipnum quirk?  Asked
 * of the hardware at boot, before S-mode owns the domain: its last source
 * (delegated to it by the M-level domain, wired to nothing on QEMU virt:
 * sources 1-95 carry devices, 96 none) is made level-high with its input
 * low, in MSI mode with interrupts disabled, and setipnum_le is written
 * with its number.  The AIA spec sets nothing pending then; QEMU 7.2 does
 * (QEMU 9.0 and later do not).  Everything is put back: the pending bit
 * cleared, the source's configuration and domaincfg restored.  A source
 * whose input is high, or that is not this domain's, proves nothing:
 * then the quirk is assumed, as before the probe.
 */
bool aplic_setipnum_quirk(const struct aplic_slevel *d)
{
	unsigned long base = d->base;
	uint32_t s = d->num_sources, bit = 1U << (s % 32), cfg, dcfg;
	bool pending;

	if (s < 1 || s > APLIC_MAX_SOURCES)
		return true;
	dcfg = aplic_read(base, APLIC_DOMAINCFG);
	cfg = aplic_read(base, APLIC_SOURCECFG(s));
	aplic_write(base, APLIC_DOMAINCFG, APLIC_DOMAINCFG_DM);	/* IE clear */
	aplic_write(base, APLIC_SOURCECFG(s), APLIC_SM_LEVEL_HIGH);
	if (aplic_read(base, APLIC_SOURCECFG(s)) != APLIC_SM_LEVEL_HIGH ||
	    (aplic_read(base, APLIC_IN_CLRIP(s)) & bit)) {
		pending = true;		/* not ours, or asserted: no answer */
	} else {
		aplic_write(base, APLIC_CLRIPNUM, s);
		aplic_write(base, APLIC_SETIPNUM_PAGE + PAGE_SETIPNUM_LE, s);
		pending = aplic_read(base, APLIC_SETIP(s)) & bit;
	}
	aplic_write(base, APLIC_CLRIPNUM, s);
	aplic_write(base, APLIC_SOURCECFG(s), cfg);
	aplic_write(base, APLIC_DOMAINCFG, dcfg);
	return pending;
}

/*
 * A store S-mode made to the page of an S-level MSI-mode domain that
 * holds setipnum_le (offset 0) and setipnum_be (4): what the AIA spec
 * says the write does.  For a level-sensitive source (Level1, Level0) it
 * sets the pending bit only while the rectified input (in_clrip) is high;
 * every other write (edge-sensitive or detached source, a number that is
 * no active source) goes to the register as it is: QEMU 7.2 does those
 * right.  The pending bit of a source that asserts again after the read
 * is set by the APLIC itself (a rising input), so nothing is lost between
 * the read and the decision.  Any other offset is refused.
 */
bool aplic_setipnum_store(const struct platform_trap_page *pg, unsigned long offset,
			  uint32_t value)
{
	const struct aplic_slevel *d = pg->ctx;
	uint32_t s;

	if (offset != PAGE_SETIPNUM_LE && offset != PAGE_SETIPNUM_BE)
		return false;
	s = offset == PAGE_SETIPNUM_BE ? swap32(value) : value;
	if (s >= 1 && s <= d->num_sources &&
	    !(aplic_read(d->base, APLIC_IN_CLRIP(s)) & (1U << (s % 32))) &&
	    source_is_level(d->base, s))
		return true;		/* not asserted: the write sets nothing */
	aplic_write(pg->base, offset, value);
	return true;
}
