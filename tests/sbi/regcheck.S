/*
 * regcheck_ecall(struct regcheck *rc): an ecall made with every register
 * x1..x31 holding a value of rc->in[] (a0..a7 are the call's arguments),
 * every register as it came back stored in rc->out[]. The SBI calling
 * convention preserves everything but a0/a1: the caller compares.
 *
 * sp, gp and tp hold test values across the ecall too, so the function
 * keeps its own state in rc->saved[] and finds rc again through sscratch
 * (the payload's trap vector does not use sscratch). Interrupts must be
 * off (sstatus.SIE = 0): no S-mode trap can run with these registers.
 */
#define IN(n)		((n) * 8)
#define OUT(n)		((32 + (n)) * 8)
#define SAVED(n)	((64 + (n)) * 8)

	.text
	.align	2
	.globl	regcheck_ecall
regcheck_ecall:
	sd	x1, SAVED(1)(a0)
	sd	x2, SAVED(2)(a0)
	sd	x3, SAVED(3)(a0)
	sd	x4, SAVED(4)(a0)
	sd	x8, SAVED(8)(a0)
	sd	x9, SAVED(9)(a0)
	sd	x18, SAVED(18)(a0)
	sd	x19, SAVED(19)(a0)
	sd	x20, SAVED(20)(a0)
	sd	x21, SAVED(21)(a0)
	sd	x22, SAVED(22)(a0)
	sd	x23, SAVED(23)(a0)
	sd	x24, SAVED(24)(a0)
	sd	x25, SAVED(25)(a0)
	sd	x26, SAVED(26)(a0)
	sd	x27, SAVED(27)(a0)
	csrw	sscratch, a0
	ld	x1, IN(1)(a0)
	ld	x2, IN(2)(a0)
	ld	x3, IN(3)(a0)
	ld	x4, IN(4)(a0)
	ld	x5, IN(5)(a0)
	ld	x6, IN(6)(a0)
	ld	x7, IN(7)(a0)
	ld	x8, IN(8)(a0)
	ld	x9, IN(9)(a0)
	ld	x11, IN(11)(a0)
	ld	x12, IN(12)(a0)
	ld	x13, IN(13)(a0)
	ld	x14, IN(14)(a0)
	ld	x15, IN(15)(a0)
	ld	x16, IN(16)(a0)
	ld	x17, IN(17)(a0)
	ld	x18, IN(18)(a0)
	ld	x19, IN(19)(a0)
	ld	x20, IN(20)(a0)
	ld	x21, IN(21)(a0)
	ld	x22, IN(22)(a0)
	ld	x23, IN(23)(a0)
	ld	x24, IN(24)(a0)
	ld	x25, IN(25)(a0)
	ld	x26, IN(26)(a0)
	ld	x27, IN(27)(a0)
	ld	x28, IN(28)(a0)
	ld	x29, IN(29)(a0)
	ld	x30, IN(30)(a0)
	ld	x31, IN(31)(a0)
	ld	x10, IN(10)(a0)
	ecall
	csrrw	x5, sscratch, x5	/* x5 = rc; sscratch = x5 as it came back */
	sd	x1, OUT(1)(x5)
	sd	x2, OUT(2)(x5)
	sd	x3, OUT(3)(x5)
	sd	x4, OUT(4)(x5)
	sd	x6, OUT(6)(x5)
	sd	x7, OUT(7)(x5)
	sd	x8, OUT(8)(x5)
	sd	x9, OUT(9)(x5)
	sd	x10, OUT(10)(x5)
	sd	x11, OUT(11)(x5)
	sd	x12, OUT(12)(x5)
	sd	x13, OUT(13)(x5)
	sd	x14, OUT(14)(x5)
	sd	x15, OUT(15)(x5)
	sd	x16, OUT(16)(x5)
	sd	x17, OUT(17)(x5)
	sd	x18, OUT(18)(x5)
	sd	x19, OUT(19)(x5)
	sd	x20, OUT(20)(x5)
	sd	x21, OUT(21)(x5)
	sd	x22, OUT(22)(x5)
	sd	x23, OUT(23)(x5)
	sd	x24, OUT(24)(x5)
	sd	x25, OUT(25)(x5)
	sd	x26, OUT(26)(x5)
	sd	x27, OUT(27)(x5)
	sd	x28, OUT(28)(x5)
	sd	x29, OUT(29)(x5)
	sd	x30, OUT(30)(x5)
	sd	x31, OUT(31)(x5)
	csrr	x6, sscratch
	sd	x6, OUT(5)(x5)
	mv	a0, x5
	ld	x1, SAVED(1)(a0)
	ld	x2, SAVED(2)(a0)
	ld	x3, SAVED(3)(a0)
	ld	x4, SAVED(4)(a0)
	ld	x8, SAVED(8)(a0)
	ld	x9, SAVED(9)(a0)
	ld	x18, SAVED(18)(a0)
	ld	x19, SAVED(19)(a0)
	ld	x20, SAVED(20)(a0)
	ld	x21, SAVED(21)(a0)
	ld	x22, SAVED(22)(a0)
	ld	x23, SAVED(23)(a0)
	ld	x24, SAVED(24)(a0)
	ld	x25, SAVED(25)(a0)
	ld	x26, SAVED(26)(a0)
	ld	x27, SAVED(27)(a0)
	ret

/*
 * unsigned long try_fetch(unsigned long addr): jumps to addr with the
 * trap handler told to expect a fault (h->trap_armed); an instruction
 * access fault resumes at ra, here. Returns what the handler recorded
 * (test.c's try_fetch sets it up).
 */
	.globl	fetch_at
fetch_at:
	jr	a0

/*
 * stvec during the storm: a trap there means the firmware handed S-mode a
 * trap while its registers held random values. No stack is usable: record
 * the first such trap in storm_trap_info and park the hart.
 */
	.align	2
	.globl	storm_trap
storm_trap:
	la	t0, storm_trap_info
	ld	t1, 0(t0)
	bnez	t1, 1f
	csrr	t1, scause
	ori	t1, t1, 0	/* scause 0 is a real cause: mark taken below */
	sd	t1, 8(t0)
	csrr	t1, sepc
	sd	t1, 16(t0)
	csrr	t1, stval
	sd	t1, 24(t0)
	li	t1, 1
	sd	t1, 0(t0)
1:	j	park

	.data
	.align	3
	.globl	storm_trap_info
storm_trap_info:
	.dword	0, 0, 0, 0	/* taken, scause, sepc, stval */
