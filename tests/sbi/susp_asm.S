/* SUSP: the call that may come back through resume_addr, setjmp-style. */
#include "csr.h"

/* struct susp_ctx in test_susp.c: keep in step */
#define CTX_RA		0
#define CTX_SP		8
#define CTX_GP		16
#define CTX_TP		24
#define CTX_S(n)	(32 + 8 * (n))
#define CTX_STVEC	128
#define CTX_A0		136
#define CTX_A1		144
#define CTX_SATP	152
#define CTX_SSTATUS	160

/* long susp_call(unsigned long sleep_type, unsigned long resume_addr,
 *                unsigned long opaque)
 * Saves what the C caller keeps (ra, sp, gp, tp, s0-s11, stvec) in
 * susp_ctx and makes system_suspend.  A call that returns gives its
 * error; a suspend that resumes at susp_resume returns 1 from here. */
	.text
	.align	2
	.globl	susp_call
susp_call:
	la	t0, susp_ctx
	sd	ra, CTX_RA(t0)
	sd	sp, CTX_SP(t0)
	sd	gp, CTX_GP(t0)
	sd	tp, CTX_TP(t0)
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11
	sd	s\n, CTX_S(\n)(t0)
	.endr
	csrr	t1, CSR_STVEC
	sd	t1, CTX_STVEC(t0)
	li	a7, 0x53555350		/* SUSP */
	li	a6, 0			/* system_suspend */
	ecall
	ret

/* resume_addr: a0 = hartid, a1 = opaque, MMU off.  Records what the
 * hart found, then returns from susp_call with 1. */
	.align	2
	.globl	susp_resume
susp_resume:
	la	t0, susp_ctx
	sd	a0, CTX_A0(t0)
	sd	a1, CTX_A1(t0)
	csrr	t1, CSR_SATP
	sd	t1, CTX_SATP(t0)
	csrr	t1, CSR_SSTATUS
	sd	t1, CTX_SSTATUS(t0)
	ld	t1, CTX_STVEC(t0)
	csrw	CSR_STVEC, t1
	ld	ra, CTX_RA(t0)
	ld	sp, CTX_SP(t0)
	ld	gp, CTX_GP(t0)
	ld	tp, CTX_TP(t0)
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11
	ld	s\n, CTX_S(\n)(t0)
	.endr
	li	a0, 1
	ret
