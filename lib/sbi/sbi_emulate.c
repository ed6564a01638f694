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
	    (funct3 != INSN_FUNCT3_CSRRS && funct3 != INSN_FUNCT3_CSRRSI) ||
	    !platform.ops.timer_value || !time_readable(tf))
		return false;
	if (csr == CSR_TIME)
		value = platform.ops.timer_value();
#if __riscv_xlen == 32
	else if (csr == CSR_TIMEH)
		value = (unsigned long)((unsigned long long)platform.ops.timer_value() >> 32);
#endif
	else
		return false;
	if (rd)
		tf->regs[rd] = value;
	tf->mepc += 4;
	return true;
}
