/* The hypervisor test's HS-mode side (enter VS-mode, take the trap back)
 * and its guest code. */
#include "csr.h"
#include "hyp.h"

	.text
/* void hyp_run_guest(struct hyp_run *run): keeps the callee-saved state,
 * points stvec at hyp_hs_vector and sscratch at run (HS-mode's mark: the
 * guest's vsscratch is 0), then srets into VS-mode at run->entry. */
	.align	2
	.globl	hyp_run_guest
hyp_run_guest:
	sd	ra, RUN_CTX(0)(a0)
	sd	sp, RUN_CTX(1)(a0)
	sd	gp, RUN_CTX(2)(a0)
	sd	tp, RUN_CTX(3)(a0)
	sd	s0, RUN_CTX(4)(a0)
	sd	s1, RUN_CTX(5)(a0)
	sd	s2, RUN_CTX(6)(a0)
	sd	s3, RUN_CTX(7)(a0)
	sd	s4, RUN_CTX(8)(a0)
	sd	s5, RUN_CTX(9)(a0)
	sd	s6, RUN_CTX(10)(a0)
	sd	s7, RUN_CTX(11)(a0)
	sd	s8, RUN_CTX(12)(a0)
	sd	s9, RUN_CTX(13)(a0)
	sd	s10, RUN_CTX(14)(a0)
	sd	s11, RUN_CTX(15)(a0)
	csrr	t0, CSR_STVEC
	sd	t0, RUN_STVEC(a0)
	csrr	t0, CSR_SSCRATCH
	sd	t0, RUN_SSCRATCH(a0)
	la	t0, hyp_hs_vector
	csrw	CSR_STVEC, t0
	csrw	CSR_SSCRATCH, a0
	csrw	CSR_VSSCRATCH, zero
	ld	t0, RUN_ENTRY(a0)
	csrw	CSR_SEPC, t0
	li	t0, SSTATUS_SPP			/* sret to (V)S-mode ... */
	csrs	CSR_SSTATUS, t0
	li	t0, HSTATUS_SPV | HSTATUS_SPVP	/* ... with V = 1 */
	csrs	CSR_HSTATUS, t0
	ld	a0, RUN_GUEST_A0(a0)
	sret

/* HS-mode's vector while a guest runs.  sscratch is run in HS-mode; a
 * trap wrongly delivered to VS-mode finds vsscratch = 0 instead and waits
 * there for the HS timer interrupt the caller armed, which lands here
 * again, in HS-mode. */
	.align	2
hyp_hs_vector:
	csrrw	sp, CSR_SSCRATCH, sp
	beqz	sp, .Lstuck_in_vs
	sd	a0, RUN_GA(0)(sp)
	sd	a1, RUN_GA(1)(sp)
	sd	a2, RUN_GA(2)(sp)
	sd	a3, RUN_GA(3)(sp)
	sd	a4, RUN_GA(4)(sp)
	sd	a5, RUN_GA(5)(sp)
	sd	a6, RUN_GA(6)(sp)
	sd	a7, RUN_GA(7)(sp)
	csrr	t0, CSR_SCAUSE
	sd	t0, RUN_SCAUSE(sp)
	csrr	t0, CSR_SEPC
	sd	t0, RUN_SEPC(sp)
	csrr	t0, CSR_STVAL
	sd	t0, RUN_STVAL(sp)
	csrr	t0, CSR_HTVAL
	sd	t0, RUN_HTVAL(sp)
	csrr	t0, CSR_HTINST
	sd	t0, RUN_HTINST(sp)
	csrr	t0, CSR_HSTATUS
	sd	t0, RUN_HSTATUS(sp)
	csrr	t0, CSR_SSTATUS
	sd	t0, RUN_SSTATUS(sp)
	mv	a0, sp
	ld	t0, RUN_STVEC(a0)
	csrw	CSR_STVEC, t0
	ld	t0, RUN_SSCRATCH(a0)
	csrw	CSR_SSCRATCH, t0
	ld	ra, RUN_CTX(0)(a0)
	ld	sp, RUN_CTX(1)(a0)
	ld	gp, RUN_CTX(2)(a0)
	ld	tp, RUN_CTX(3)(a0)
	ld	s0, RUN_CTX(4)(a0)
	ld	s1, RUN_CTX(5)(a0)
	ld	s2, RUN_CTX(6)(a0)
	ld	s3, RUN_CTX(7)(a0)
	ld	s4, RUN_CTX(8)(a0)
	ld	s5, RUN_CTX(9)(a0)
	ld	s6, RUN_CTX(10)(a0)
	ld	s7, RUN_CTX(11)(a0)
	ld	s8, RUN_CTX(12)(a0)
	ld	s9, RUN_CTX(13)(a0)
	ld	s10, RUN_CTX(14)(a0)
	ld	s11, RUN_CTX(15)(a0)
	ret
.Lstuck_in_vs:
	j	.Lstuck_in_vs

/* Guest code.  Each piece traps; none needs a stack. */
	.align	2
	.globl	guest_ecall, guest_ecall_insn
guest_ecall:
	li	a7, 0x10		/* BASE get_spec_version, if M-mode took it */
	li	a6, 0
guest_ecall_insn:
	ecall
	j	guest_ecall_insn

	.globl	guest_illegal
guest_illegal:
	csrr	a1, CSR_MHARTID		/* M-level CSR: illegal from VS/VU */
	j	guest_illegal

	.globl	guest_csr_hstatus
guest_csr_hstatus:
	csrr	a1, CSR_HSTATUS		/* H CSR from VS: virtual instruction */
	j	guest_csr_hstatus

	.globl	guest_wfi
guest_wfi:
	wfi				/* with hstatus.VTW: virtual instruction */
	j	guest_wfi

	.globl	guest_load
guest_load:
	ld	a1, 0(a0)
	j	guest_load

	.globl	guest_store
guest_store:
	sd	zero, 0(a0)
	j	guest_store

	.globl	guest_wait
guest_wait:
	j	guest_wait		/* until an interrupt */

	.globl	guest_ebreak
guest_ebreak:
	ebreak
	j	guest_ebreak

/* VS-mode drops to VU-mode (vsstatus.SPP = 0) at guest_vu_illegal. */
	.globl	guest_to_vu, guest_vu_illegal
guest_to_vu:
	la	t0, guest_vu_illegal
	csrw	CSR_SEPC, t0		/* vsepc */
	li	t0, SSTATUS_SPP
	csrc	CSR_SSTATUS, t0		/* vsstatus */
	sret
guest_vu_illegal:
	csrr	a1, CSR_MHARTID
	j	guest_vu_illegal

/* The guest's time: its value in a1, back to HS-mode by an ecall (from
 * VS: cause 10; from VU: cause 8). */
	.globl	guest_time
guest_time:
	csrr	a1, CSR_TIME
	ecall
	j	guest_time

	.globl	guest_to_vu_time, guest_vu_time
guest_to_vu_time:
	la	t0, guest_vu_time
	csrw	CSR_SEPC, t0		/* vsepc */
	li	t0, SSTATUS_SPP
	csrc	CSR_SSTATUS, t0		/* vsstatus */
	sret
guest_vu_time:
	csrr	a1, CSR_TIME
	ecall
	j	guest_vu_time

/* The guest's own vector (vstvec): what VS-mode saw, to HS-mode in
 * a1-a4 through an ecall. */
	.align	2
	.globl	guest_vs_vector
guest_vs_vector:
	csrr	a1, CSR_SCAUSE		/* vscause */
	csrr	a2, CSR_SEPC		/* vsepc */
	csrr	a3, CSR_STVAL		/* vstval */
	csrr	a4, CSR_SSTATUS		/* vsstatus */
	ecall
	j	guest_vs_vector

/* hfence.gvma zero, zero, for the HS side after writing hgatp. */
	.globl	hyp_sfence_gvma
hyp_sfence_gvma:
	.insn	r 0x73, 0, 0x31, zero, zero, zero
	ret
