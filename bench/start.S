/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry of the benchmark payload.  Its very first instruction reads
 * instret: under QEMU's -icount that is the number of instructions the
 * machine executed since reset (reset vector and firmware boot).
 */
#define CSR_INSTRET	0xc02
#define CSR_STVEC	0x105
#define CSR_SIE		0x104
#define STACK_SIZE	16384

	.section .text.entry, "ax"
	.option norvc
	.globl	_start
_start:
	csrr	s2, CSR_INSTRET		/* must stay the first instruction */
	mv	s0, a0			/* hartid */
	mv	s1, a1			/* devicetree */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	la	sp, stack_top
	la	t0, trap_vector
	csrw	CSR_STVEC, t0
	csrw	CSR_SIE, zero
	mv	a0, s0
	mv	a1, s1
	mv	a2, s2
	call	bench_main
3:	wfi
	j	3b

	/* Any trap here is a failure of the run: report and stop. */
	.align	2
trap_vector:
	la	sp, stack_top
	csrr	a0, scause
	csrr	a1, sepc
	csrr	a2, stval
	call	bench_trap
4:	wfi
	j	4b

	.bss
	.align	4
	.space	STACK_SIZE
stack_top:
