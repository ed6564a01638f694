/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The timed region: nothing but "csrr instret; ecall; csrr instret".
 * The SBI calling convention preserves every register but a0/a1, so the
 * call block pointer (t6) and the first reading (t0) survive the ecall.
 *
 * struct bench_call { unsigned long arg[6], fid, eid; long error;
 *                     unsigned long value; }
 */
#define CSR_INSTRET	0xc02

	.text
	.option norvc

	/* unsigned long bench_ecall(struct bench_call *c): instructions
	 * counted between the two reads; fills c->error and c->value. */
	.globl	bench_ecall
	.align	3
bench_ecall:
	mv	t6, a0
	ld	a1, 8(t6)
	ld	a2, 16(t6)
	ld	a3, 24(t6)
	ld	a4, 32(t6)
	ld	a5, 40(t6)
	ld	a6, 48(t6)
	ld	a7, 56(t6)
	ld	a0, 0(t6)
	csrr	t0, CSR_INSTRET
	ecall
	csrr	t1, CSR_INSTRET
	sd	a0, 64(t6)
	sd	a1, 72(t6)
	sub	a0, t1, t0
	ret

	/* ENTRY_PC of the SSE event the benchmark injects: completes at
	 * once. a6/a7 come back from the event's INTERRUPTED_A6/A7, a0/a1
	 * and every other register are left as the inject call returned. */
	.globl	bench_sse_entry
	.align	3
bench_sse_entry:
	li	a6, 6		/* sbi_sse_complete */
	li	a7, 0x535345
	ecall
1:	j	1b

	/* unsigned long bench_empty(void): the same two reads with nothing
	 * between them; subtracted from every bench_ecall reading. */
	.globl	bench_empty
	.align	3
bench_empty:
	csrr	t0, CSR_INSTRET
	csrr	t1, CSR_INSTRET
	sub	a0, t1, t0
	ret

	/* void bench_mark(unsigned long k): runs the nop slide from its k-th
	 * nop; the first address executed there names k in a trace.
	 * k < BENCH_MARKS (64, bench.h). */
	.globl	bench_mark
	.globl	bench_marks
	.align	3
bench_mark:
	andi	a0, a0, 63
	slli	a0, a0, 2
	la	t0, bench_marks
	add	t0, t0, a0
	jr	t0
bench_marks:
	.rept	64
	nop
	.endr
	ret
