/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tests/trace/tool.sh: a counted loop of 100 halfwords a turn (48 NOPs,
 * C.ADDI, C.NOP, BNEZ), then a call and its return, then a jump to itself.
 * N turns (-DTURNS=N) are a known executed sequence of 2 + 51 N + 4
 * instructions; with the reference encoder's repeated history the whole
 * loop is one I-CNT, wider than 22 bits from 41,944 turns on.
 */
#ifndef TURNS
#define TURNS 45000
#endif
	.option norvc
	.globl _start
_start:
	lui	t0, %hi(TURNS)		/* two instructions whatever TURNS */
	addi	t0, t0, %lo(TURNS)
loop:
	.rept 48
	nop
	.endr
	.option rvc
	c.addi	t0, -1
	c.nop
	.option norvc
	bnez	t0, loop
	call	leaf
	nop
end:
	j	end
leaf:
	ret
