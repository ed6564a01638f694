/* Entry points and the trap vector of the S-mode test payload. */
#include "csr.h"
#include "hart.h"

#define FRAME_SIZE	(32 * 8)	/* slot 0 holds sepc, slot n holds xn */

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
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	li	t0, MAX_HARTS
	bgeu	a0, t0, park
	la	t0, boot_hartid
	sd	a0, 0(t0)
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
	ld	t0, 0(t0)
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
	sd	x1, 1*8(sp)
	sd	x3, 3*8(sp)
	sd	x4, 4*8(sp)
	sd	x5, 5*8(sp)
	sd	x6, 6*8(sp)
	sd	x7, 7*8(sp)
	sd	x8, 8*8(sp)
	sd	x9, 9*8(sp)
	sd	x10, 10*8(sp)
	sd	x11, 11*8(sp)
	sd	x12, 12*8(sp)
	sd	x13, 13*8(sp)
	sd	x14, 14*8(sp)
	sd	x15, 15*8(sp)
	sd	x16, 16*8(sp)
	sd	x17, 17*8(sp)
	sd	x18, 18*8(sp)
	sd	x19, 19*8(sp)
	sd	x20, 20*8(sp)
	sd	x21, 21*8(sp)
	sd	x22, 22*8(sp)
	sd	x23, 23*8(sp)
	sd	x24, 24*8(sp)
	sd	x25, 25*8(sp)
	sd	x26, 26*8(sp)
	sd	x27, 27*8(sp)
	sd	x28, 28*8(sp)
	sd	x29, 29*8(sp)
	sd	x30, 30*8(sp)
	sd	x31, 31*8(sp)
	addi	t0, sp, FRAME_SIZE
	sd	t0, 2*8(sp)
	csrr	t0, CSR_SEPC
	sd	t0, 0(sp)

	mv	a0, sp
	call	trap_handler

	/* The handler may have moved sepc past a provoked fault. */
	ld	t0, 0(sp)
	csrw	CSR_SEPC, t0
	ld	x1, 1*8(sp)
	ld	x3, 3*8(sp)
	ld	x4, 4*8(sp)
	ld	x5, 5*8(sp)
	ld	x6, 6*8(sp)
	ld	x7, 7*8(sp)
	ld	x8, 8*8(sp)
	ld	x9, 9*8(sp)
	ld	x10, 10*8(sp)
	ld	x11, 11*8(sp)
	ld	x12, 12*8(sp)
	ld	x13, 13*8(sp)
	ld	x14, 14*8(sp)
	ld	x15, 15*8(sp)
	ld	x16, 16*8(sp)
	ld	x17, 17*8(sp)
	ld	x18, 18*8(sp)
	ld	x19, 19*8(sp)
	ld	x20, 20*8(sp)
	ld	x21, 21*8(sp)
	ld	x22, 22*8(sp)
	ld	x23, 23*8(sp)
	ld	x24, 24*8(sp)
	ld	x25, 25*8(sp)
	ld	x26, 26*8(sp)
	ld	x27, 27*8(sp)
	ld	x28, 28*8(sp)
	ld	x29, 29*8(sp)
	ld	x30, 30*8(sp)
	ld	x31, 31*8(sp)
	addi	sp, sp, FRAME_SIZE
	sret

	.bss
	.align	4
	.globl	stacks
stacks:
	.space	MAX_HARTS << STACK_SHIFT
