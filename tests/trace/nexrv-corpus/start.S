/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bare-metal start for the N-Trace corpus programs (QEMU virt, -bios none,
 * M-mode at 0x80000000): stack, .bss cleared, main(), then power off
 * through the virt machine's test device.  No trap is taken on the way.
 */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, _stack_top
	la	t0, _bss_start
	la	t1, _bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	call	main
	li	t0, 0x100000		/* sifive_test: FINISHER_PASS */
	li	t1, 0x5555
	sw	t1, 0(t0)
3:	j	3b
