// SPDX-License-Identifier: BSD-2-Clause
/*
 * Instructions the firmware emulates for S/U-mode: reads of the time CSR
 * (csrr rd, time; and timeh on RV32) on machines whose harts do not
 * implement it but have a memory-mapped mtime (QEMU sifive_u and spike,
 * like the FU540).  The trap entry puts every register in the frame for an
 * illegal instruction from S/U-mode (fw_base.S), so any rd can be written.
 */
#include <tally/hart.h>
#include <tally/platform.h>
#include <tally/trap.h>

#define INSN_OPCODE_SYSTEM	0x73
#define CSR_FUNCT3_RS		2	/* csrrs: with rs1 = x0, a plain read */
#define CSR_FUNCT3_RSI		6	/* csrrsi: with uimm = 0, a plain read */
#define CSR_NUM_TIME		0xc01
#define CSR_NUM_TIMEH		0xc81
#define COUNTEREN_TM		(1UL << 1)

static bool time_readable(const struct trap_frame *tf)
{
	unsigned long mpp = (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	/* U-mode reads it only if S-mode lets it (scounteren.TM) */
	return mpp != PRV_U || (csr_read(scounteren) & COUNTEREN_TM);
}

bool sbi_emulate_insn(struct trap_frame *tf, unsigned long insn)
{
	unsigned long funct3 = (insn >> 12) & 7, rd = (insn >> 7) & 31;
	unsigned long rs1 = (insn >> 15) & 31, csr = insn >> 20;
	unsigned long value;

	if ((insn & 0x7f) != INSN_OPCODE_SYSTEM || rs1 ||
	    (funct3 != CSR_FUNCT3_RS && funct3 != CSR_FUNCT3_RSI) ||
	    !platform.ops.timer_value || !time_readable(tf))
		return false;
	if (csr == CSR_NUM_TIME)
		value = platform.ops.timer_value();
#if __riscv_xlen == 32
	else if (csr == CSR_NUM_TIMEH)
		value = (unsigned long)((unsigned long long)platform.ops.timer_value() >> 32);
#endif
	else
		return false;
	if (rd)
		tf->regs[rd] = value;
	tf->mepc += 4;
	return true;
}
