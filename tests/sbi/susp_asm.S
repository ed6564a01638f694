/* SUSP: the call that may come back through resume_addr, setjmp-style. */
#include "csr.h"

/* struct susp_ctx in test_susp.c: keep in step */
#define CTX_RA		(0 * SZREG)
#define CTX_SP		(1 * SZREG)
#define CTX_GP		(2 * SZREG)
#define CTX_TP		(3 * SZREG)
#define CTX_S(n)	((4 + (n)) * SZREG)
#define CTX_STVEC	(16 * SZREG)
#define CTX_A0		(17 * SZREG)
#define CTX_A1		(18 * SZREG)
#define CTX_SATP	(19 * SZREG)
#define CTX_SSTATUS	(20 * SZREG)

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
	REG_S	ra, CTX_RA(t0)
	REG_S	sp, CTX_SP(t0)
	REG_S	gp, CTX_GP(t0)
	REG_S	tp, CTX_TP(t0)
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11
	REG_S	s\n, CTX_S(\n)(t0)
	.endr
	csrr	t1, CSR_STVEC
	REG_S	t1, CTX_STVEC(t0)
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
	REG_S	a0, CTX_A0(t0)
	REG_S	a1, CTX_A1(t0)
	csrr	t1, CSR_SATP
	REG_S	t1, CTX_SATP(t0)
	csrr	t1, CSR_SSTATUS
	REG_S	t1, CTX_SSTATUS(t0)
	REG_L	t1, CTX_STVEC(t0)
	csrw	CSR_STVEC, t1
	REG_L	ra, CTX_RA(t0)
	REG_L	sp, CTX_SP(t0)
	REG_L	gp, CTX_GP(t0)
	REG_L	tp, CTX_TP(t0)
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11
	REG_L	s\n, CTX_S(\n)(t0)
	.endr
	li	a0, 1
	ret
