/* The PMU tests' assembly: reading a counter CSR by number, and the
 * TLB-miss probe, which must make no memory access of its own between
 * its sfence.vma and its last counter read. */
#include "csr.h"

	.text
	.option	push
	.option	norvc		/* every table entry is 8 bytes */

/* unsigned long pmu_csr_read(unsigned long n): reads CSR 0xC00 + n
 * (n < 32). A counter S-mode may not read traps at the csrr; the trap
 * handler (with trap_armed set) steps over it and the ret runs. */
	.align	3
	.globl	pmu_csr_read
pmu_csr_read:
	andi	a0, a0, 31
	la	t0, csr_table
	slli	a0, a0, 3
	add	t0, t0, a0
	jr	t0

	.align	3
csr_table:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	csrr	a0, 0xc00 + \n
	ret
	.endr

#if __riscv_xlen == 32
/* unsigned long pmu_csr_read_hi(unsigned long n): RV32, the upper half,
 * CSR 0xC80 + n (cycleh, instreth, hpmcounterNh), as pmu_csr_read. */
	.align	3
	.globl	pmu_csr_read_hi
pmu_csr_read_hi:
	andi	a0, a0, 31
	la	t0, csr_table_hi
	slli	a0, a0, 3
	add	t0, t0, a0
	jr	t0

	.align	3
csr_table_hi:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	csrr	a0, 0xc80 + \n
	ret
	.endr
#endif

/* struct tlb_count pmu_tlb_probe(unsigned long base, unsigned long pages,
 *				 unsigned long store, unsigned long n):
 * reads counter CSR 0xC00 + n, flushes the TLB, touches `pages` pages
 * from base (a load, or a store if store != 0, at each page's first
 * word), reads the counter again and returns the difference (a0) and
 * the value read (a1). Only instruction fetches and the touches happen
 * in between. */
	.align	2
	.globl	pmu_tlb_probe
pmu_tlb_probe:
	mv	t3, ra
	mv	t4, a0
	mv	t5, a3
	mv	a0, t5
	jal	pmu_csr_read
	mv	t6, a0
	li	t1, 4096
	sfence.vma
1:	beqz	a1, 3f
	bnez	a2, 2f
	REG_L	t2, 0(t4)
	j	4f
2:	REG_S	zero, 0(t4)
4:	add	t4, t4, t1
	addi	a1, a1, -1
	j	1b
3:	mv	a0, t5
	jal	pmu_csr_read
	mv	a1, a0
	sub	a0, a0, t6
	mv	ra, t3
	ret

/* struct sbiret pmu_tlb_touch_stop(unsigned long base, unsigned long pages,
 *				     unsigned long store, unsigned long idx):
 * the same touches after an sfence.vma, then counter_stop(idx, 1, 0)
 * straight away: what the firmware counts on the way in is included. */
	.align	2
	.globl	pmu_tlb_touch_stop
pmu_tlb_touch_stop:
	li	t1, 4096
	sfence.vma
1:	beqz	a1, 3f
	bnez	a2, 2f
	REG_L	t2, 0(a0)
	j	4f
2:	REG_S	zero, 0(a0)
4:	add	a0, a0, t1
	addi	a1, a1, -1
	j	1b
3:	mv	a0, a3
	li	a1, 1
	li	a2, 0
	li	a6, 4
	li	a7, 0x504d55
	ecall
	ret

	.option	pop
