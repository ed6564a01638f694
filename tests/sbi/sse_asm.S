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

/* ENTRY_PC of every test event. The firmware enters with a6 = hartid,
 * a7 = ENTRY_ARG and every other register as interrupted; sp is the
 * interrupted stack (S-mode was interrupted on a stack of its own).
 * Saves x1..x31 in a frame (regs[n] = xn, regs[2] = the interrupted sp),
 * calls sse_handler(arg, hartid, regs), puts back everything but a6/a7
 * and calls complete, which resumes the interrupted context. */
	.align	2
	.globl	sse_entry
sse_entry:
	addi	sp, sp, -NREGS * 8
	.irp	n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd	x\n, \n * 8(sp)
	.endr
	addi	t0, sp, NREGS * 8
	sd	t0, 2 * 8(sp)
	mv	a0, a7
	mv	a1, a6
	mv	a2, sp
	call	sse_handler
	.irp	n, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	x\n, \n * 8(sp)
	.endr
	addi	sp, sp, NREGS * 8
	li	a6, SSE_COMPLETE
	li	a7, SSE_EID
	ecall
	/* complete never comes back here */
1:	j	1b

/* ENTRY_PC for an event that may interrupt a resume_addr (non-retentive
 * resume: sp and tp undefined there): a stack of its own, tp = hartid,
 * then sse_entry. Every register but sp, tp, a6, a7 as interrupted. */
	.align	2
	.globl	sse_entry_own_stack
sse_entry_own_stack:
	la	sp, sse_own_stack_top
	mv	tp, a6
	j	sse_entry

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
