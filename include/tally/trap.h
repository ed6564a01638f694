/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The trap frame the entry code (firmware/fw_base.S) saves on the M-mode
 * stack.  Registers are indexed by their number so that decoders can use
 * the instruction's rd/rs fields directly.  What each path saves:
 *   ecall from S-mode       ra, sp, tp, t0-t2, a0-a7: what C may clobber
 *                           (C never touches t3-t6, FIXED_REGS; s0-s11 are
 *                           callee-saved; nothing writes gp); no mepc or
 *                           mstatus: sbi_ecall_handle() and the extensions
 *                           use a0-a7 only
 *   interrupt from S/U-mode those, plus gp, t3-t6, mepc and mstatus
 *   exception from S/U-mode every register, mepc and mstatus (the firmware
 *                           may emulate the instruction: any register)
 *   any trap from M-mode    every register, mepc and mstatus (register dump)
 */
#ifndef TALLY_TRAP_H
#define TALLY_TRAP_H

#include <tally/riscv.h>

#define TF_REG(n)	((n) * REGBYTES)
#define TF_MEPC		(32 * REGBYTES)
#define TF_MSTATUS	(33 * REGBYTES)
/* 34 registers' worth, rounded up to keep the stack 16-byte aligned on RV32 */
#define TF_SIZE		((34 * REGBYTES + 15) & ~15)

#define REG_RA	1
#define REG_SP	2
#define REG_GP	3
#define REG_TP	4
#define REG_A0	10
#define REG_A1	11
#define REG_A2	12
#define REG_A3	13
#define REG_A4	14
#define REG_A5	15
#define REG_A6	16
#define REG_A7	17

#ifndef __ASSEMBLER__
#include <stddef.h>

struct trap_frame {
	unsigned long regs[32];
	unsigned long mepc;	/* restored on return (not on the ecall path) */
	unsigned long mstatus;	/* as at the trap; not restored on return */
#if __riscv_xlen == 32
	unsigned long pad[2];	/* 16-byte stack alignment */
#endif
};

/* The assembly's view of struct trap_frame (firmware/fw_base.S), checked. */
_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "trap frame layout");
_Static_assert(offsetof(struct trap_frame, regs) == TF_REG(0) &&
	       sizeof(((struct trap_frame *)0)->regs[0]) == TF_REG(1), "TF_REG(n)");
_Static_assert(offsetof(struct trap_frame, mepc) == TF_MEPC, "TF_MEPC");
_Static_assert(offsetof(struct trap_frame, mstatus) == TF_MSTATUS, "TF_MSTATUS");
_Static_assert(TF_SIZE % 16 == 0, "trap frame keeps the stack 16-byte aligned");

void trap_handler(struct trap_frame *tf);
void trap_redirect_to_smode(struct trap_frame *tf, unsigned long cause, unsigned long tval);
void __attribute__((noreturn)) trap_fatal(struct trap_frame *tf, const char *why);

/* Leave M-mode for S-mode at addr with a0, a1 set, satp = 0, interrupts off. */
void __attribute__((noreturn)) hart_enter_smode(unsigned long addr, unsigned long a0,
						unsigned long a1, unsigned long mode);
/*
 * A load through S-mode's translation, from an ecall with the scratch
 * guard set: a fault comes back as guard_trapped (fw_base.S).
 */
unsigned long smode_load_ulong(unsigned long vaddr);
/* The same for a 16-bit instruction parcel, with MXR, from trap_handler. */
unsigned long smode_load_parcel(unsigned long vaddr);
#endif
#endif
