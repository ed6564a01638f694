/* CSR access and the few S-mode CSR bits the payload uses. */
#ifndef SBI_TEST_CSR_H
#define SBI_TEST_CSR_H

#define CSR_SSTATUS	0x100
#define CSR_SIE		0x104
#define CSR_STVEC	0x105
#define CSR_SSCRATCH	0x140
#define CSR_SEPC	0x141
#define CSR_SCAUSE	0x142
#define CSR_STVAL	0x143
#define CSR_SIP		0x144
#define CSR_SCOUNTINHIBIT 0x120	/* Ssccfg */
#define CSR_SISELECT	0x150	/* Sscsrind, AIA */
#define CSR_SIREG	0x151
#define CSR_SIREG2	0x152
#define CSR_SATP	0x180
#define CSR_SCOUNTOVF	0xda0
#define CSR_TIME	0xc01
#define CSR_MHARTID	0xf14

#define SSTATUS_SIE	(1UL << 1)
#define SSTATUS_SPIE	(1UL << 5)
#define SSTATUS_SPP	(1UL << 8)

#define IRQ_S_SOFT	1
#define IRQ_S_TIMER	5
#define IRQ_S_EXT	9
#define IRQ_LCOF	13	/* Sscofpmf local counter overflow */
#define SIP_SSIP	(1UL << IRQ_S_SOFT)
#define SIP_STIP	(1UL << IRQ_S_TIMER)
#define SIE_SSIE	SIP_SSIP
#define SIE_STIE	SIP_STIP
#define SIP_LCOFIP	(1UL << IRQ_LCOF)
#define SIE_LCOFIE	SIP_LCOFIP

/* Register width helpers: the payload builds for RV64 and RV32 (XLEN=32). */
#if __riscv_xlen == 32
#define REG_L		lw
#define REG_S		sw
#define SZREG		4
#else
#define REG_L		ld
#define REG_S		sd
#define SZREG		8
#endif
/*
 * HI32(x): x in bits 63:32 of a register, 0 on RV32 (no such bits).  The
 * binary-encoding checks "the upper register bits are ignored" use it, so
 * on RV32 they check the plain value.
 */
#define HI32(x)		((unsigned long)(x) << 16 << 16)
#define TOP_BIT		(1UL << (__riscv_xlen - 1))
#define STR_(x)		#x
#define XSTR(x)		STR_(x)

#define SCAUSE_INTERRUPT	TOP_BIT
#define EXC_INSN_ACCESS		1
#define EXC_ILLEGAL_INSN	2
#define EXC_LOAD_ACCESS		5
#define EXC_STORE_ACCESS	7

#ifndef __ASSEMBLER__

#define __csr_str(x) #x
#define csr_str(x) __csr_str(x)

#define csr_read(csr) ({						\
	unsigned long __v;						\
	__asm__ __volatile__("csrr %0, " csr_str(csr)			\
			     : "=r"(__v) : : "memory");			\
	__v; })

#define csr_write(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	__asm__ __volatile__("csrw " csr_str(csr) ", %0"		\
			     : : "rK"(__v) : "memory"); })

#define csr_set(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	__asm__ __volatile__("csrs " csr_str(csr) ", %0"		\
			     : : "rK"(__v) : "memory"); })

#define csr_clear(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	__asm__ __volatile__("csrc " csr_str(csr) ", %0"		\
			     : : "rK"(__v) : "memory"); })

#define csr_swap(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	__asm__ __volatile__("csrrw %0, " csr_str(csr) ", %1"		\
			     : "=r"(__v) : "rK"(__v) : "memory");	\
	__v; })

static inline unsigned long rdtime(void)
{
	return csr_read(CSR_TIME);
}

/* Full barrier: every flag shared between harts is written and read
 * between these, so plain volatile accesses are enough. */
static inline void mb(void)
{
	__asm__ __volatile__("fence rw, rw" : : : "memory");
}

static inline void local_irq_enable(void)
{
	csr_set(CSR_SSTATUS, SSTATUS_SIE);
}

static inline void local_irq_disable(void)
{
	csr_clear(CSR_SSTATUS, SSTATUS_SIE);
}

#endif /* __ASSEMBLER__ */
#endif
