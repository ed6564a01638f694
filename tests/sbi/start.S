/* Entry points and the trap vector of the S-mode test payload. */
#include "csr.h"
#include "hart.h"

#define FRAME_SIZE	(32 * SZREG)	/* slot 0 holds sepc, slot n holds xn */

/* sp = top of this hart's stack, tp = hartid, stvec = trap_vector.
 * Expects a0 = hartid, already checked to be below MAX_HARTS. */
.macro setup_hart
	mv	tp, a0
	addi	t0, a0, 1
	slli	t0, t0, STACK_SHIFT
	la	sp, stacks
	add	sp, sp, t0
	la	t0, trap_vector
	csrw	CSR_STVEC, t0
.endm

	.section .text.entry, "ax"
	.globl	_start
_start:
	/* Boot hart: a0 = hartid, a1 = FDT. Clear .bss before anything
	 * lands in it. */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	REG_S	zero, 0(t0)
	addi	t0, t0, SZREG
	j	1b
2:	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	la	t0, boot_hartid
	REG_S	a0, 0(t0)
	setup_hart
	tail	boot_main

	/* Secondary harts (hart_start) and resumes from non-retentive
	 * suspend: a0 = hartid, a1 = opaque. A hartid without a stack of
	 * its own, or the boot hart's (which is in use), parks the hart
	 * rather than trample memory; the boot hart then reports it. */
	.text
	.align	2
	.globl	secondary_entry
secondary_entry:
	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	la	t0, boot_hartid
	REG_L	t0, 0(t0)
	beq	a0, t0, park
	setup_hart
	tail	secondary_main

	/* Sleeps forever with interrupts masked. Needs no stack. */
	.align	2
	.globl	park
park:
	csrw	CSR_SIE, zero
	csrci	CSR_SSTATUS, SSTATUS_SIE
1:	wfi
	j	1b

	/* stvec while a hart might come back somewhere unexpected (a
	 * suspend): a trap there must not run C on an unknown stack. */
	.align	2
	.globl	park_vector
park_vector:
	j	park

	.align	2
	.globl	trap_vector
trap_vector:
	addi	sp, sp, -FRAME_SIZE
	REG_S	x1, 1*SZREG(sp)
	REG_S	x3, 3*SZREG(sp)
	REG_S	x4, 4*SZREG(sp)
	REG_S	x5, 5*SZREG(sp)
	REG_S	x6, 6*SZREG(sp)
	REG_S	x7, 7*SZREG(sp)
	REG_S	x8, 8*SZREG(sp)
	REG_S	x9, 9*SZREG(sp)
	REG_S	x10, 10*SZREG(sp)
	REG_S	x11, 11*SZREG(sp)
	REG_S	x12, 12*SZREG(sp)
	REG_S	x13, 13*SZREG(sp)
	REG_S	x14, 14*SZREG(sp)
	REG_S	x15, 15*SZREG(sp)
	REG_S	x16, 16*SZREG(sp)
	REG_S	x17, 17*SZREG(sp)
	REG_S	x18, 18*SZREG(sp)
	REG_S	x19, 19*SZREG(sp)
	REG_S	x20, 20*SZREG(sp)
	REG_S	x21, 21*SZREG(sp)
	REG_S	x22, 22*SZREG(sp)
	REG_S	x23, 23*SZREG(sp)
	REG_S	x24, 24*SZREG(sp)
	REG_S	x25, 25*SZREG(sp)
	REG_S	x26, 26*SZREG(sp)
	REG_S	x27, 27*SZREG(sp)
	REG_S	x28, 28*SZREG(sp)
	REG_S	x29, 29*SZREG(sp)
	REG_S	x30, 30*SZREG(sp)
	REG_S	x31, 31*SZREG(sp)
	addi	t0, sp, FRAME_SIZE
	REG_S	t0, 2*SZREG(sp)
	csrr	t0, CSR_SEPC
	REG_S	t0, 0(sp)

	mv	a0, sp
	call	trap_handler

	/* The handler may have moved sepc past a provoked fault. */
	REG_L	t0, 0(sp)
	csrw	CSR_SEPC, t0
	REG_L	x1, 1*SZREG(sp)
	REG_L	x3, 3*SZREG(sp)
	REG_L	x4, 4*SZREG(sp)
	REG_L	x5, 5*SZREG(sp)
	REG_L	x6, 6*SZREG(sp)
	REG_L	x7, 7*SZREG(sp)
	REG_L	x8, 8*SZREG(sp)
	REG_L	x9, 9*SZREG(sp)
	REG_L	x10, 10*SZREG(sp)
	REG_L	x11, 11*SZREG(sp)
	REG_L	x12, 12*SZREG(sp)
	REG_L	x13, 13*SZREG(sp)
	REG_L	x14, 14*SZREG(sp)
	REG_L	x15, 15*SZREG(sp)
	REG_L	x16, 16*SZREG(sp)
	REG_L	x17, 17*SZREG(sp)
	REG_L	x18, 18*SZREG(sp)
	REG_L	x19, 19*SZREG(sp)
	REG_L	x20, 20*SZREG(sp)
	REG_L	x21, 21*SZREG(sp)
	REG_L	x22, 22*SZREG(sp)
	REG_L	x23, 23*SZREG(sp)
	REG_L	x24, 24*SZREG(sp)
	REG_L	x25, 25*SZREG(sp)
	REG_L	x26, 26*SZREG(sp)
	REG_L	x27, 27*SZREG(sp)
	REG_L	x28, 28*SZREG(sp)
	REG_L	x29, 29*SZREG(sp)
	REG_L	x30, 30*SZREG(sp)
	REG_L	x31, 31*SZREG(sp)
	addi	sp, sp, FRAME_SIZE
	sret

	.bss
	.align	4
	.globl	stacks
stacks:
	.space	MAX_HARTS << STACK_SHIFT
