/* The SSE tests' assembly: the event entry trampoline, and a probe that
 * makes an inject call with every register set to a known pattern. */

#define SSE_EID		0x535345
#define SSE_COMPLETE	6
#define SSE_INJECT	7
#define NREGS		32
/* PAT(n): the value the probe puts in register xn */
#define PAT(n)		(0x5a5a000000000000 + (n) * 0x10101)

	.text
	.option	push
	.option	norvc

/* Saves x1, x3..x31 in the frame at sp (regs[n] = xn). */
	.macro	save_regs
	.irp	n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd	x\n, \n * 8(sp)
	.endr
	.endm

/* ENTRY_PC of every test event. The firmware enters with a6 = hartid,
 * a7 = ENTRY_ARG and every other register as interrupted; sp is the
 * interrupted stack (S-mode was interrupted on a stack of its own).
 * Saves x1..x31 in a frame (regs[n] = xn, regs[2] = the interrupted sp),
 * calls sse_handler(arg, hartid, regs), puts back everything but a6/a7,
 * sp from regs[2], and calls complete, which resumes the interrupted
 * context. */
	.align	2
	.globl	sse_entry
sse_entry:
	addi	sp, sp, -NREGS * 8
	save_regs
	addi	t0, sp, NREGS * 8
	sd	t0, 2 * 8(sp)
	j	sse_call

/* ENTRY_PC for an event that may interrupt a resume_addr (non-retentive
 * resume: sp and tp undefined there): a stack of its own, tp = hartid.
 * Every register but tp, a6, a7 as interrupted, sp too: the event may
 * as well interrupt a hart with a stack (a retentive suspend), which
 * must go on on it (it went on on this stack until the idle secondaries
 * slept in WFI and one read a slot of it: tests/sbi/smp.c). */
	.align	2
	.globl	sse_entry_own_stack
sse_entry_own_stack:
	mv	tp, a6
	mv	a6, sp
	la	sp, sse_own_stack_top - NREGS * 8
	sd	a6, 2 * 8(sp)
	mv	a6, tp
	save_regs

sse_call:
	mv	a0, a7
	mv	a1, a6
	mv	a2, sp
	call	sse_handler
	.irp	n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	x\n, \n * 8(sp)
	.endr
	ld	sp, 2 * 8(sp)
	li	a6, SSE_COMPLETE
	li	a7, SSE_EID
	ecall
	/* complete never comes back here */
1:	j	1b

/* void sse_regs_probe(unsigned long event, unsigned long hartid,
 *		       unsigned long *out): sbi_sse_inject(event, hartid) with
 * every register but sp, tp, a0 and a1 holding PAT(n); out[n] = xn as
 * the call returned (out[2] = sp). Uses sscratch to find out. */
	.align	2
	.globl	sse_regs_probe
sse_regs_probe:
	addi	sp, sp, -16 * 8
	sd	ra, 0(sp)
	sd	gp, 8(sp)
	sd	s0, 16(sp)
	sd	s1, 24(sp)
	sd	s2, 32(sp)
	sd	s3, 40(sp)
	sd	s4, 48(sp)
	sd	s5, 56(sp)
	sd	s6, 64(sp)
	sd	s7, 72(sp)
	sd	s8, 80(sp)
	sd	s9, 88(sp)
	sd	s10, 96(sp)
	sd	s11, 104(sp)
	csrw	sscratch, a2
	.irp	n, 1,3,5,6,7,8,9,12,13,14,15,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	li	x\n, PAT(\n)
	.endr
	li	a6, SSE_INJECT
	li	a7, SSE_EID
	ecall
	.globl	sse_probe_resume
sse_probe_resume:
	csrrw	t0, sscratch, t0
	.irp	n, 1,2,3,4,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd	x\n, \n * 8(t0)
	.endr
	csrr	t1, sscratch
	sd	t1, 5 * 8(t0)
	ld	ra, 0(sp)
	ld	gp, 8(sp)
	ld	s0, 16(sp)
	ld	s1, 24(sp)
	ld	s2, 32(sp)
	ld	s3, 40(sp)
	ld	s4, 48(sp)
	ld	s5, 56(sp)
	ld	s6, 64(sp)
	ld	s7, 72(sp)
	ld	s8, 80(sp)
	ld	s9, 88(sp)
	ld	s10, 96(sp)
	ld	s11, 104(sp)
	addi	sp, sp, 16 * 8
	ret

	.option	pop

	.bss
	.align	4
	.space	4096
sse_own_stack_top:
