// SPDX-License-Identifier: BSD-2-Clause
/*
 * The IMSIC's M-level interrupt files (RISC-V AIA): the firmware's IPIs.
 *
 * Each hart has an M-file: a page whose first word (seteipnum_le) any hart
 * may write an interrupt identity to, and registers only the hart itself
 * reaches, through miselect/mireg.  The firmware enables one identity,
 * IMSIC_IPI_ID, in every M-file: an IPI is that identity written to the
 * target's page, which raises the target's machine external interrupt;
 * the target claims it through mtopei.  S-mode's identities live in its
 * own S-files, so none of them is taken from it.
 *
 * Files are recorded by hart index at boot (lib/fdt/fdt_aia.c reads them
 * from the devicetree); the per-hart registers are set on every start.
 */
#include <stdint.h>
#include <tally/aia.h>
#include <tally/drivers.h>
#include <tally/riscv.h>

static volatile uint32_t *mfile[TALLY_MAX_HARTS];
static unsigned int nr_ids = IMSIC_MIN_IDS;	/* riscv,num-ids of the M-files */

void imsic_add_hart(unsigned long index, unsigned long file_addr)
{
	if (index < TALLY_MAX_HARTS)
		mfile[index] = (volatile uint32_t *)file_addr;
}

void imsic_set_num_ids(unsigned int num_ids)
{
	nr_ids = num_ids;
}

void imsic_ipi_send(unsigned long index)
{
	if (index < TALLY_MAX_HARTS && mfile[index])
		mfile[index][0] = IMSIC_IPI_ID;		/* seteipnum_le */
}

/*
 * Only the calling hart's own file can be cleared (its registers are CSRs):
 * claim the top identity, which is the IPI's, the only one enabled.
 */
void imsic_ipi_clear(unsigned long index)
{
	(void)index;
	csr_write(CSR_MTOPEI, 0);
}

static void mfile_write(unsigned long reg, unsigned long value)
{
	csr_write(CSR_MISELECT, reg);
	csr_write(CSR_MIREG, value);
}

/*
 * The calling hart's M-file, at boot and every HSM start: delivery off
 * while it is set up, no threshold, every identity disabled but the IPI's,
 * then delivery on.  eie registers hold XLEN identities each; on RV64
 * only the even-numbered ones exist.
 */
void imsic_hart_init(void)
{
	const unsigned int per_reg = __riscv_xlen, step = __riscv_xlen / 32;

	mfile_write(IMSIC_EIDELIVERY, 0);
	mfile_write(IMSIC_EITHRESHOLD, 0);
	for (unsigned int i = 0; i < (nr_ids + 1) / per_reg; i++)
		mfile_write(IMSIC_EIE0 + i * step, i ? 0 : 1UL << IMSIC_IPI_ID);
	mfile_write(IMSIC_EIDELIVERY, 1);
}
