/* The hypervisor test's run record, shared by test_hyp.c and hyp_asm.S.
 * hyp_run_guest() enters VS-mode at entry with a0 = guest_a0 and comes
 * back when the next trap reaches HS-mode, with what HS-mode saw. */
#ifndef SBI_TEST_HYP_H
#define SBI_TEST_HYP_H

#define CSR_VSSTATUS	0x200
#define CSR_VSIE	0x204
#define CSR_VSTVEC	0x205
#define CSR_VSSCRATCH	0x240
#define CSR_VSEPC	0x241
#define CSR_VSCAUSE	0x242
#define CSR_VSTVAL	0x243
#define CSR_VSATP	0x280
#define CSR_HSTATUS	0x600
#define CSR_HEDELEG	0x602
#define CSR_HIDELEG	0x603
#define CSR_HTIMEDELTA	0x605
#define CSR_HVIEN	0x608
#define CSR_HCOUNTEREN	0x606
#define CSR_SCOUNTEREN	0x106
#define COUNTEREN_TM	(1UL << 1)
#define CSR_HTVAL	0x643
#define CSR_HVIP	0x645
#define CSR_HTINST	0x64a
#define CSR_HGATP	0x680

#define HSTATUS_GVA	(1 << 6)
#define HSTATUS_SPV	(1 << 7)
#define HSTATUS_SPVP	(1 << 8)
#define HSTATUS_VTW	(1 << 21)

/* struct hyp_run offsets */
#define RUN_ENTRY	(0 * 8)
#define RUN_GUEST_A0	(1 * 8)
#define RUN_SCAUSE	(2 * 8)
#define RUN_SEPC	(3 * 8)
#define RUN_STVAL	(4 * 8)
#define RUN_HTVAL	(5 * 8)
#define RUN_HTINST	(6 * 8)
#define RUN_HSTATUS	(7 * 8)
#define RUN_SSTATUS	(8 * 8)
#define RUN_GA(n)	((9 + (n)) * 8)		/* guest a0..a7 at the trap */
#define RUN_STVEC	(17 * 8)
#define RUN_SSCRATCH	(18 * 8)
#define RUN_CTX(n)	((19 + (n)) * 8)	/* ra, sp, gp, tp, s0-s11 */
#define RUN_SIZE	(35 * 8)

#ifndef __ASSEMBLER__
struct hyp_run {
	unsigned long entry, guest_a0;
	unsigned long scause, sepc, stval, htval, htinst, hstatus, sstatus;
	unsigned long ga[8];
	unsigned long stvec, sscratch;
	unsigned long ctx[16];
};
_Static_assert(sizeof(struct hyp_run) == RUN_SIZE, "hyp_run layout");

void hyp_run_guest(struct hyp_run *run);

/* Guest code (hyp_asm.S), run in VS-mode with guest memory = host memory. */
extern char guest_ecall[], guest_ecall_insn[];
extern char guest_illegal[];
extern char guest_csr_hstatus[];
extern char guest_wfi[];
extern char guest_load[], guest_store[];
extern char guest_ebreak[], guest_wait[];
extern char guest_to_vu[], guest_vu_illegal[];
extern char guest_vs_vector[];
extern char guest_time[], guest_to_vu_time[], guest_vu_time[];
void hyp_sfence_gvma(void);
#endif
#endif
