/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry of every Tally firmware image, and the trap entry/exit.
 *
 * Every hart enters _start with a0 = hartid, a1 = devicetree and (for
 * fw_dynamic) a2 = struct fw_dynamic_info.  The first hart to arrive reads
 * the devicetree's harts into hart_map (hart id -> hart index), on a stack
 * of its own; the others wait, touching nothing but the flag that says it
 * is done.  Then each hart finds its index, and takes the stack and scratch
 * of that index (a hart the map does not have parks); one hart (chosen by
 * the flavour, else the first to arrive) clears .bss and runs cold_boot();
 * the others sleep until it is done and run warm_boot().
 */
#include <tally/riscv.h>
#include <tally/hart.h>
#include <tally/trap.h>

	.section .entry, "ax", %progbits
	.option norvc
	.globl _start
_start:
	csrw	mie, zero
	/*
	 * Before anything may trap (hart_setup.c's probes), the reset state of
	 * two extensions of M-mode's own (hart_ext.c): Smdbltrp's mstatus.MDT
	 * resets to 1 (a trap would be a double trap), and Smrnmi's
	 * mnstatus.NMIE to 0 (an exception would go to the RNMI handler).  A
	 * hart without them traps on mnstatus (and on RV32 perhaps mstatush):
	 * .Lskip steps over the instruction and says so in t1.
	 */
	la	t0, .Lskip
	csrw	mtvec, t0
#if __riscv_xlen == 32
	li	t1, 0
	li	t0, 1 << 10		/* MDT: bit 42 of mstatus, bit 10 of mstatush */
	csrc	CSR_MSTATUSH, t0
	seqz	t1, t1
	la	t0, hart_has_mstatush
	sw	t1, 0(t0)		/* every hart the same: a plain store */
#else
	li	t0, 1
	slli	t0, t0, 42		/* MSTATUS64_MDT */
	csrc	mstatus, t0
#endif
	li	t0, MNSTATUS_NMIE
	csrs	CSR_MNSTATUS, t0
	la	t0, _trap_entry
	csrw	mtvec, t0
	mv	s0, a0
	mv	s1, a1
	mv	s2, a2

	/* the first hart to arrive fills hart_map (hart_map_boot sets hart_map_ready) */
	la	t0, hart_map_lottery
	li	t1, 1
	amoadd.w t1, t1, (t0)
	bnez	t1, .Lmap_wait
	la	sp, hart_boot_stack
	li	t0, HART_BOOT_STACK_SIZE
	add	sp, sp, t0
	la	t0, hart_boot_scratch
	csrw	mscratch, t0
	call	hart_map_boot		/* a0-a2 as at entry */
.Lmap_wait:
	la	t0, hart_map_ready
	REG_L	t0, 0(t0)
	beqz	t0, .Lmap_wait
	fence	r, rw

	/* this hart's index: its id's place in hart_map.id[] (boot only) */
	la	t0, hart_map
	REG_L	t1, HART_MAP_COUNT(t0)
	addi	t2, t0, HART_MAP_ID
	li	s3, 0
5:	bgeu	s3, t1, .Lpark		/* not in the devicetree, or no room: keep it out */
	REG_L	t3, 0(t2)
	beq	t3, s0, 6f
	addi	t2, t2, REGBYTES
	addi	s3, s3, 1
	j	5b

	/*
	 * This hart's stack: hart_stack_top() is the one definition of where
	 * it is, shared with the trap frame the C code sets up (block s3 of
	 * hart_stacks, outside .bss, so usable before it is cleared).
	 */
6:	mv	a0, s3
	call	hart_stack_top		/* address arithmetic only: no stack yet */
	mv	sp, a0
	mv	a0, s3
	call	hart_scratch_of		/* address arithmetic only */
	csrw	mscratch, a0

	/* does the image name a boot hart (fw_dynamic), or is it a race? */
	mv	a0, s0
	mv	a1, s1
	mv	a2, s2
	call	hart_boot_choice	/* fw_boot_hart, if that hart is in hart_map */
	li	t0, -1
	beq	a0, t0, .Llottery
	bne	a0, s0, .Lwarm
	j	.Lcold
.Llottery:
	la	t0, boot_lottery
	li	t1, 1
	amoadd.w t1, t1, (t0)
	bnez	t1, .Lwarm

.Lcold:
	la	t0, _bss_start
	la	t1, _bss_end
1:	bgeu	t0, t1, 2f
	REG_S	zero, 0(t0)
	addi	t0, t0, REGBYTES
	j	1b
2:	fence	rw, rw
	mv	a0, s0
	mv	a1, s1
	mv	a2, s2
	call	cold_boot		/* does not return */
	j	.Lpark

.Lwarm:
	/*
	 * sleep until the cold-boot hart has set up the platform; it wakes us
	 * through the MSWI.  A tree without one (an IMSIC's M-files need each
	 * hart's own set-up first): poll the flag instead (boot_wait_poll).
	 */
	la	t0, boot_wait_poll
	REG_L	t0, 0(t0)
	bnez	t0, 7f
	li	t0, MIP_MSIP
	csrw	mie, t0
3:	la	t0, cold_boot_done
	REG_L	t0, 0(t0)
	bnez	t0, 4f
	wfi
	j	3b
7:	la	t0, cold_boot_done
	REG_L	t0, 0(t0)
	beqz	t0, 7b
4:	fence	r, rw
	mv	a0, s0
	call	warm_boot		/* does not return */
.Lpark:
	wfi
	j	.Lpark

	/* _start's trap handler: the next instruction, t1 = 1 (4-byte encodings only) */
	.align	2
.Lskip:
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	li	t1, 1
	mret

	.section .data
	.align	3
#if __riscv_xlen == 32
	.globl	hart_has_mstatush
hart_has_mstatush:
	.word	0
	.align	3
#endif
	.globl	cold_boot_done
cold_boot_done:
	.dword	0
	.globl	hart_map_ready
hart_map_ready:
	.dword	0
boot_lottery:
	.word	0
hart_map_lottery:
	.word	0

/*
 * Trap entry.  mscratch always holds this hart's scratch pointer while the
 * hart runs M-mode code, so nested traps (CSR probes) work.
 *
 * An ecall from S-mode (mcause 9, which no trap from M-mode can have) takes
 * the short path: a frame at the top of the hart's stack with only what
 * the C code may clobber (ra, t0-t2, a0-a7) plus sp and tp, mepc stepped
 * past the ecall in place, and sbi_ecall_handle() called directly; its
 * struct sbiret comes back in a0/a1, which is what S-mode gets.  s0-s11 and
 * gp are preserved by the C code (nothing in the firmware writes gp), and
 * so are t3-t6: the Makefile compiles every C file with -ffixed-t3..t6
 * (FIXED_REGS), so no C code uses them.  Assembly called from C must not
 * use them either (this file's own code only uses t0-t2).
 * mstatus is neither saved nor restored: nothing the firmware does while
 * serving an ecall changes it (smode_load_ulong, the one M-mode trap that
 * can happen meanwhile, puts back the mstatus and mepc it overwrites), so
 * mret finds MPP = S and MPIE as the ecall left them.
 *
 * Every other trap saves a larger frame (mepc, mstatus, gp and t3-t6
 * too, for the register dump) and goes to trap_handler().  Traps from
 * S/U-mode get a fresh frame at the top of the hart's stack, and an
 * exception from S/U-mode also saves s0-s11 (.Lexception: emulation reads
 * and writes any register through the frame); traps from M-mode push a
 * frame on the current stack and also save s0-s11, for the register dump.
 * mepc comes back from the frame (trap_handler may move it); mstatus does
 * not (trap_redirect_to_smode writes the CSR itself).
 */
/*
 * What every trap path saves: the registers C code may clobber (ra, t0-t2,
 * a0-a7) and the interrupted tp, into the frame at sp.  On entry t0 is in
 * the scratch's tmp0 and tp holds the scratch (swapped with mscratch).
 */
.macro SAVE_CLOBBERED
	REG_S	ra, TF_REG(1)(sp)
	REG_S	t1, TF_REG(6)(sp)
	REG_S	t2, TF_REG(7)(sp)
	REG_S	a0, TF_REG(10)(sp)
	REG_S	a1, TF_REG(11)(sp)
	REG_S	a2, TF_REG(12)(sp)
	REG_S	a3, TF_REG(13)(sp)
	REG_S	a4, TF_REG(14)(sp)
	REG_S	a5, TF_REG(15)(sp)
	REG_S	a6, TF_REG(16)(sp)
	REG_S	a7, TF_REG(17)(sp)
	REG_L	t0, SCRATCH_TMP0(tp)
	REG_S	t0, TF_REG(5)(sp)
	csrrw	t0, mscratch, tp	/* mscratch = scratch again; t0 = old tp */
	REG_S	t0, TF_REG(4)(sp)
.endm

/* Their way back, except a0/a1 (an ecall's results) and sp (restored last). */
.macro RESTORE_CLOBBERED_BUT_A0_A1
	REG_L	ra, TF_REG(1)(sp)
	REG_L	tp, TF_REG(4)(sp)
	REG_L	t0, TF_REG(5)(sp)
	REG_L	t1, TF_REG(6)(sp)
	REG_L	t2, TF_REG(7)(sp)
	REG_L	a2, TF_REG(12)(sp)
	REG_L	a3, TF_REG(13)(sp)
	REG_L	a4, TF_REG(14)(sp)
	REG_L	a5, TF_REG(15)(sp)
	REG_L	a6, TF_REG(16)(sp)
	REG_L	a7, TF_REG(17)(sp)
.endm

/*
 * The callee-saved registers, which only an exception from S/U-mode
 * (emulation) and a trap from M-mode (the register dump) put in the frame:
 * saved into the frame at t0, restored from the frame at sp.
 */
.macro SAVE_S0_S11 base
	REG_S	s0, TF_REG(8)(\base)
	REG_S	s1, TF_REG(9)(\base)
	REG_S	s2, TF_REG(18)(\base)
	REG_S	s3, TF_REG(19)(\base)
	REG_S	s4, TF_REG(20)(\base)
	REG_S	s5, TF_REG(21)(\base)
	REG_S	s6, TF_REG(22)(\base)
	REG_S	s7, TF_REG(23)(\base)
	REG_S	s8, TF_REG(24)(\base)
	REG_S	s9, TF_REG(25)(\base)
	REG_S	s10, TF_REG(26)(\base)
	REG_S	s11, TF_REG(27)(\base)
.endm

.macro RESTORE_S0_S11
	REG_L	s0, TF_REG(8)(sp)
	REG_L	s1, TF_REG(9)(sp)
	REG_L	s2, TF_REG(18)(sp)
	REG_L	s3, TF_REG(19)(sp)
	REG_L	s4, TF_REG(20)(sp)
	REG_L	s5, TF_REG(21)(sp)
	REG_L	s6, TF_REG(22)(sp)
	REG_L	s7, TF_REG(23)(sp)
	REG_L	s8, TF_REG(24)(sp)
	REG_L	s9, TF_REG(25)(sp)
	REG_L	s10, TF_REG(26)(sp)
	REG_L	s11, TF_REG(27)(sp)
.endm

/*
 * Every trap but an S-mode ecall: the frame at t0 becomes sp and gets sp,
 * gp, t3-t6, the clobbered registers, mepc and mstatus; trap_handler()
 * runs; mepc, gp and t3-t6 come back (trap_handler may move mepc, an
 * emulated instruction may write any of them).  The caller restores the
 * rest.
 */
.macro TRAP_HANDLER_CALL
	REG_S	sp, TF_REG(2)(t0)
	mv	sp, t0
	REG_S	gp, TF_REG(3)(sp)
	REG_S	t3, TF_REG(28)(sp)	/* C keeps them (FIXED_REGS): for the frame */
	REG_S	t4, TF_REG(29)(sp)
	REG_S	t5, TF_REG(30)(sp)
	REG_S	t6, TF_REG(31)(sp)
	SAVE_CLOBBERED
	csrr	t0, mepc
	REG_S	t0, TF_MEPC(sp)
	csrr	t0, mstatus
	REG_S	t0, TF_MSTATUS(sp)

	mv	a0, sp
	call	trap_handler

	REG_L	t0, TF_MEPC(sp)
	csrw	mepc, t0
	REG_L	gp, TF_REG(3)(sp)
	REG_L	t3, TF_REG(28)(sp)
	REG_L	t4, TF_REG(29)(sp)
	REG_L	t5, TF_REG(30)(sp)
	REG_L	t6, TF_REG(31)(sp)
.endm

	.section .text
	.align	4
	.globl	_trap_entry
_trap_entry:
	csrrw	tp, mscratch, tp
	REG_S	t0, SCRATCH_TMP0(tp)
	csrr	t0, mcause
	xori	t0, t0, CAUSE_SUPERVISOR_ECALL	/* 0 for an ecall; keeps the IRQ bit */
	bnez	t0, .Lnot_ecall

	/* an ecall from S-mode */
	REG_L	t0, SCRATCH_SMODE_FRAME(tp)
	REG_S	sp, TF_REG(2)(t0)
	mv	sp, t0
	SAVE_CLOBBERED
	csrr	t0, mepc
	addi	t0, t0, 4		/* return past the ecall (4 bytes: no compressed ecall) */
	csrw	mepc, t0

	mv	a0, sp
	call	sbi_ecall_handle	/* a0 = error, a1 = value */

	RESTORE_CLOBBERED_BUT_A0_A1
	REG_L	sp, TF_REG(2)(sp)
	mret

.Lnot_ecall:
	bgez	t0, .Lexception		/* mcause ^ 9 is negative for an interrupt */
.Linterrupt_or_mmode:		/* interrupts, and every trap from M-mode */
	csrr	t0, mstatus
	srli	t0, t0, MSTATUS_MPP_SHIFT
	andi	t0, t0, 3
	addi	t0, t0, -3
	beqz	t0, .Lfrom_m
	REG_L	t0, SCRATCH_SMODE_FRAME(tp)
	j	.Lsave
.Lfrom_m:
	addi	t0, sp, -TF_SIZE
	SAVE_S0_S11 t0
.Lsave:
	TRAP_HANDLER_CALL
	REG_L	a0, TF_REG(10)(sp)
	REG_L	a1, TF_REG(11)(sp)
	RESTORE_CLOBBERED_BUT_A0_A1
	REG_L	sp, TF_REG(2)(sp)
	mret

/*
 * An exception from S/U-mode may be an instruction the firmware emulates,
 * which reads or writes any register: an illegal instruction (a read of
 * the time CSR on a machine without it: QEMU sifive_u and spike), an
 * access fault on a page the firmware emulates for a device quirk
 * (lib/sbi/emulate.c).  The frame gets every register and every
 * register comes back from it.  Every exception takes this path, so that
 * an interrupt is told apart with one branch (bgez above); the others
 * are forwarded, a path that is not hot.  From M-mode (the CSR probes)
 * it is an ordinary trap.
 */
.Lexception:
	csrr	t0, mstatus
	srli	t0, t0, MSTATUS_MPP_SHIFT
	andi	t0, t0, 3
	addi	t0, t0, -3
	beqz	t0, .Linterrupt_or_mmode
	REG_L	t0, SCRATCH_SMODE_FRAME(tp)
	SAVE_S0_S11 t0
	TRAP_HANDLER_CALL
	RESTORE_S0_S11
	REG_L	a0, TF_REG(10)(sp)
	REG_L	a1, TF_REG(11)(sp)
	RESTORE_CLOBBERED_BUT_A0_A1
	REG_L	sp, TF_REG(2)(sp)
	mret

/* void hart_enter_smode(addr, a0, a1, mode): leave M-mode for good. */
	.globl	hart_enter_smode
hart_enter_smode:
	csrw	mepc, a0
	csrr	t0, mstatus
	li	t1, MSTATUS_MPP | MSTATUS_MPIE | MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_MPRV
	not	t1, t1
	and	t0, t0, t1
	slli	t1, a3, MSTATUS_MPP_SHIFT
	or	t0, t0, t1
	csrw	mstatus, t0
	csrw	satp, zero
	mv	a0, a1
	mv	a1, a2
	li	a2, 0
	li	a3, 0
	mret

/*
 * unsigned long smode_load_ulong(unsigned long vaddr): a load through
 * S-mode translation (mstatus.MPRV with MPP = S, as the S-mode ecall being
 * served left it), called with the scratch guard set so that a fault comes
 * back as guard_trapped.  4-byte encoding.  A fault is a trap from M-mode:
 * the hardware overwrites mepc and mstatus.MPP/MPIE, which the ecall's own
 * return needs (the ecall path keeps neither), so both are put back here.
 */
	.globl	smode_load_ulong
smode_load_ulong:
	csrr	a1, mepc
	csrr	a2, mstatus
	li	t1, MSTATUS_MPRV
	csrs	mstatus, t1
	li	t0, 0
	REG_L	t0, 0(a0)
	csrw	mstatus, a2		/* MPRV off again; MPP, MPIE as before */
	csrw	mepc, a1
	mv	a0, t0
	ret

/*
 * unsigned long smode_load_parcel(unsigned long vaddr): the 16-bit
 * instruction parcel at an S-mode virtual address, read through S-mode's
 * translation (MPRV with MPP = S, as the trap from S-mode left it) with
 * MXR, so that an execute-only page reads too; called with the scratch
 * guard set.  The same discipline as smode_load_ulong: 4-byte encoding,
 * mepc and mstatus put back (a fault here is a trap from M-mode, which
 * overwrites them, and trap_handler's return needs both).
 */
	.globl	smode_load_parcel
smode_load_parcel:
	csrr	a1, mepc
	csrr	a2, mstatus
	li	t1, MSTATUS_MPRV | MSTATUS_MXR
	csrs	mstatus, t1
	li	t0, 0
	lhu	t0, 0(a0)
	csrw	mstatus, a2		/* MPRV, MXR off again; MPP, MPIE as before */
	csrw	mepc, a1
	mv	a0, t0
	ret
