/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the firmware emulates for S/U-mode (lib/sbi/emulate.c), asked by
 * the trap handler (lib/sbi/trap.c).  A header of its own, so that the
 * trap handler calls down into the emulation and the emulation takes only
 * the trap frame's layout from trap.h.
 */
#ifndef TALLY_EMULATE_H
#define TALLY_EMULATE_H

#include <stdbool.h>
#include <tally/riscv.h>
#include <tally/trap.h>

/* An illegal instruction from S/U-mode the firmware emulates (the time
 * CSR): true if done (rd written, mepc stepped); false if the caller must
 * forward the exception *cause (left as is, or set to the virtual-
 * instruction exception a guest's read raises). lib/sbi/emulate.c */
bool sbi_emulate_insn(struct trap_frame *tf, unsigned long insn, unsigned long *cause);
/* A load or store access fault from S-mode at vaddr on a page the firmware
 * serves (platform.trap_page): true if done (the register read or
 * written, mepc stepped), false if S-mode is to get the fault.
 * lib/sbi/emulate.c */
bool sbi_emulate_trap_page(struct trap_frame *tf, bool store, unsigned long vaddr);

/*
 * What a read of the time CSR must do, by the privileged spec, from a mode
 * below M (prv: PRV_U or PRV_S; virt: V=1, i.e. VU/VS): mcounteren.TM
 * gates them all (illegal instruction); with V=1 hcounteren.TM gates VS
 * and VU and scounteren.TM VU too (virtual-instruction exception); with
 * V=0 scounteren.TM gates U (illegal instruction).  The firmware asks it
 * where it emulates the CSR (emulate.c); pure, for the unit test.
 */
enum time_csr_access { TIME_CSR_READ, TIME_CSR_ILLEGAL, TIME_CSR_VIRTUAL };

static inline enum time_csr_access time_csr_access(bool virt, unsigned long prv,
						   unsigned long mcounteren,
						   unsigned long hcounteren,
						   unsigned long scounteren)
{
	bool user = prv == PRV_U, s_tm = scounteren & COUNTEREN_TM;

	if (!(mcounteren & COUNTEREN_TM))
		return TIME_CSR_ILLEGAL;
	if (virt)
		return (hcounteren & COUNTEREN_TM) && (!user || s_tm) ?
		       TIME_CSR_READ : TIME_CSR_VIRTUAL;
	return !user || s_tm ? TIME_CSR_READ : TIME_CSR_ILLEGAL;
}

#endif
