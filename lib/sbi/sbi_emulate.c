// SPDX-License-Identifier: BSD-2-Clause
/*
 * Instructions the firmware emulates for S/U-mode: reads of the time CSR
 * (csrr rd, time; and timeh on RV32) on machines whose harts do not
 * implement it but have a memory-mapped mtime (QEMU sifive_u and spike,
 * like the FU540).  The trap entry puts every register in the frame for an
 * illegal instruction from S/U-mode (fw_base.S), so any rd can be written.
 *
 * A read from a guest (VS/VU-mode, on a hart with the H extension) is the
 * guest's time, time + htimedelta, and is subject to hcounteren as well as
 * mcounteren and scounteren: what the privileged spec says the hart would
 * do (time_csr_access, trap.h).
 *
 * QEMU 7.2 also makes writes to htimedelta illegal on a hart without a
 * time CSR (spike, sifive_u with h=true), so a hypervisor could not set
 * its guests' time: such a write from HS-mode traps here and its value is
 * kept per hart (as OpenSBI does), and so are reads, which trap too.
 */
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/platform.h>
#include <tally/trap.h>

/* htimedelta of the harts that trap it (emulate_htimedelta), by hart index. */
static unsigned long htimedelta_kept[TALLY_MAX_HARTS];

/*
 * The hart's htimedelta where it has a working one, else the kept value.
 * A trapping read is a trap in M-mode, whose mret leaves mstatus.MPP = U
 * and MPV = 0: mstatus is put back as it was at the guest's trap, or the
 * guest would resume in U-mode.
 */
static unsigned long guest_time_offset(const struct trap_frame *tf)
{
	bool ok;
	unsigned long delta = csr_read_guarded(CSR_HTIMEDELTA, &ok);

	if (ok)
		return delta;
	csr_write(mstatus, tf->mstatus);
	return htimedelta_kept[this_hart_index()];
}

static enum time_csr_access time_access(const struct trap_frame *tf, bool virt)
{
	unsigned long prv = (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	return time_csr_access(virt, prv, csr_read(mcounteren),
			       virt ? csr_read(CSR_HCOUNTEREN) : 0,
			       prv == PRV_U ? csr_read(scounteren) : 0);
}

/* csrr rd, time (timeh on RV32): csrrs/csrrsi with rs1/uimm 0, no write */
static bool is_time_read(unsigned long insn)
{
	unsigned long funct3 = (insn >> 12) & 7, rs1 = (insn >> 15) & 31;
	unsigned long csr = insn >> 20;

	if ((insn & 0x7f) != INSN_OPCODE_SYSTEM || rs1 ||
	    (funct3 != INSN_FUNCT3_CSRRS && funct3 != INSN_FUNCT3_CSRRSI))
		return false;
#if __riscv_xlen == 32
	if (csr == CSR_TIMEH)
		return true;
#endif
	return csr == CSR_TIME;
}

/*
 * csrrw/csrrs/csrrc (and the immediate forms) on htimedelta from HS-mode,
 * on a hart that traps them: the kept value is read and written.
 */
static bool emulate_htimedelta(struct trap_frame *tf, unsigned long insn)
{
	unsigned long funct3 = (insn >> 12) & 7, rd = (insn >> 7) & 31;
	unsigned long rs1 = (insn >> 15) & 31;
	unsigned long *kept = &htimedelta_kept[this_hart_index()];
	unsigned long old = *kept, src = (funct3 & 4) || !rs1 ? rs1 : tf->regs[rs1];
	bool virt = tf->mstatus & MSTATUS_MPV;
	unsigned long prv = (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	if ((insn & 0x7f) != INSN_OPCODE_SYSTEM || (insn >> 20) != CSR_HTIMEDELTA ||
	    !(funct3 & 3) || virt || prv != PRV_S)
		return false;
	if ((funct3 & 3) == INSN_FUNCT3_CSRRW)
		*kept = src;
	else if (rs1 && (funct3 & 3) == INSN_FUNCT3_CSRRS)
		*kept = old | src;
	else if (rs1)
		*kept = old & ~src;
	if (rd)
		tf->regs[rd] = old;
	tf->mepc += 4;
	return true;
}

bool sbi_emulate_insn(struct trap_frame *tf, unsigned long insn, unsigned long *cause)
{
	unsigned long rd = (insn >> 7) & 31;
	bool virt = hart_features.has_h && (tf->mstatus & MSTATUS_MPV);
	unsigned long long now;

	if (!platform.ops.timer_value)
		return false;
	if (hart_features.has_h && emulate_htimedelta(tf, insn))
		return true;
	if (!is_time_read(insn))
		return false;
	switch (time_access(tf, virt)) {
	case TIME_CSR_ILLEGAL:
		return false;		/* forwarded as the illegal instruction */
	case TIME_CSR_VIRTUAL:
		*cause = CAUSE_VIRTUAL_INSTRUCTION;
		return false;
	case TIME_CSR_READ:
		break;
	}
	now = platform.ops.timer_value();
	if (virt)	/* wraps, as the hart's sum */
		now += guest_time_offset(tf);
	if (rd)
		tf->regs[rd] = (insn >> 20) == CSR_TIME ? (unsigned long)now :
			       (unsigned long)(now >> 32);
	tf->mepc += 4;
	return true;
}
