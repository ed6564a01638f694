/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V privileged architecture: CSR numbers, bits and access helpers. */
#ifndef TALLY_RISCV_H
#define TALLY_RISCV_H

#if __riscv_xlen == 64 || !defined(__riscv_xlen)
#define REG_L		ld
#define REG_S		sd
#define REGBYTES	8
#define LOG_REGBYTES	3
#else
#define REG_L		lw
#define REG_S		sw
#define REGBYTES	4
#define LOG_REGBYTES	2
#endif

#define PRV_U		0UL
#define PRV_S		1UL
#define PRV_M		3UL

/* mstatus */
#define MSTATUS_SIE	(1UL << 1)
#define MSTATUS_MIE	(1UL << 3)
#define MSTATUS_SPIE	(1UL << 5)
#define MSTATUS_MPIE	(1UL << 7)
#define MSTATUS_SPP	(1UL << 8)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP	(3UL << MSTATUS_MPP_SHIFT)
#define MSTATUS_FS	(3UL << 13)
#define MSTATUS_FS_INITIAL (1UL << 13)
#define MSTATUS_MPRV	(1UL << 17)
#define MSTATUS_SUM	(1UL << 18)
#define MSTATUS_MXR	(1UL << 19)
#if __riscv_xlen == 32
/*
 * On RV32 these two live in mstatush, which the trap frame does not hold;
 * the H extension is not offered on RV32 (hart_features.has_h stays false)
 * and they read as no bits.
 */
#define MSTATUS_GVA	0UL
#define MSTATUS_MPV	0UL
#else
#define MSTATUS_GVA	(1UL << 38)	/* mtval holds a guest virtual address */
#define MSTATUS_MPV	(1UL << 39)	/* the trap came from VS/VU-mode (V=1) */
#endif

/* hstatus (H extension) */
#define HSTATUS_GVA	(1UL << 6)
#define HSTATUS_SPV	(1UL << 7)
#define HSTATUS_SPVP	(1UL << 8)

/* Interrupt numbers and mip/mie bits */
#define IRQ_S_SOFT	1
#define IRQ_M_SOFT	3
#define IRQ_S_TIMER	5
#define IRQ_M_TIMER	7
#define IRQ_S_EXT	9
#define IRQ_M_EXT	11
#define IRQ_LCOF	13
#define MIP_SSIP	(1UL << IRQ_S_SOFT)
#define MIP_MSIP	(1UL << IRQ_M_SOFT)
#define MIP_STIP	(1UL << IRQ_S_TIMER)
#define MIP_MTIP	(1UL << IRQ_M_TIMER)
#define MIP_SEIP	(1UL << IRQ_S_EXT)
#define MIP_MEIP	(1UL << IRQ_M_EXT)
#define MIP_LCOFIP	(1UL << IRQ_LCOF)
#define MIP_S_ALL	(MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_LCOFIP)

/* Exception causes */
#define CAUSE_MISALIGNED_FETCH		0
#define CAUSE_FETCH_ACCESS		1
#define CAUSE_ILLEGAL_INSTRUCTION	2
#define CAUSE_BREAKPOINT		3
#define CAUSE_MISALIGNED_LOAD		4
#define CAUSE_LOAD_ACCESS		5
#define CAUSE_MISALIGNED_STORE		6
#define CAUSE_STORE_ACCESS		7
#define CAUSE_USER_ECALL		8
#define CAUSE_SUPERVISOR_ECALL		9
#define CAUSE_VIRTUAL_SUPERVISOR_ECALL	10	/* H: ecall from VS-mode */
#define CAUSE_MACHINE_ECALL		11
#define CAUSE_FETCH_PAGE_FAULT		12
#define CAUSE_LOAD_PAGE_FAULT		13
#define CAUSE_STORE_PAGE_FAULT		15
#define CAUSE_FETCH_GUEST_PAGE_FAULT	20
#define CAUSE_LOAD_GUEST_PAGE_FAULT	21
#define CAUSE_VIRTUAL_INSTRUCTION	22
#define CAUSE_STORE_GUEST_PAGE_FAULT	23
#define MCAUSE_IRQ_FLAG			(1UL << (__riscv_xlen - 1))

/* menvcfg: 64 bits, on RV32 bits 63:32 in menvcfgh (menvcfg_read/write below) */
#define MENVCFG_STCE	(1ULL << 63)
#define MENVCFG_LPE	(1UL << 2)	/* Zicfilp: S-mode landing pads */
#define MENVCFG_SSE	(1UL << 3)	/* Zicfiss: S-mode shadow stack */
#define MENVCFG_PMM_SHIFT 32		/* Ssnpm: S-mode pointer masking */
#define MENVCFG_PMM	(3ULL << MENVCFG_PMM_SHIFT)
#define MENVCFG_PMM_PMLEN_7	(2ULL << MENVCFG_PMM_SHIFT)
#define MENVCFG_PMM_PMLEN_16	(3ULL << MENVCFG_PMM_SHIFT)
#define MENVCFG_DTE	(1ULL << 59)	/* Ssdbltrp: S-mode double trap */
#define MENVCFG_ADUE	(1ULL << 61)	/* Svadu: hardware A/D updates */
#define MENVCFG_CBIE	(3UL << 4)	/* Zicbom: cbo.inval (11: invalidates) */
#define MENVCFG_CBCFE	(1UL << 6)	/* Zicbom: cbo.clean, cbo.flush */
#define MENVCFG_CBZE	(1UL << 7)	/* Zicboz: cbo.zero */
#define MENVCFG_CDE	(1ULL << 60)	/* Smcdeleg: counter delegation */
#define MENVCFG_PBMTE	(1ULL << 62)	/* Svpbmt: PTE memory types */

/* mstatus.MDT (Smdbltrp), bit 42: on RV32 bit 10 of mstatush (its bits 63:32) */
#define MSTATUS64_MDT	(1ULL << 42)
#define CSR_MSTATUSH	0x310

/* Smrnmi: the resumable NMI state */
#define CSR_MNSCRATCH	0x740
#define CSR_MNEPC	0x741
#define CSR_MNCAUSE	0x742
#define CSR_MNSTATUS	0x744
#define MNSTATUS_NMIE	(1UL << 3)	/* RNMIs on; while 0, M-mode traps go to the RNMI handler */

/* Zkr: mseccfg.SSEED/USEED let S/U-mode read the seed CSR */
#define CSR_MSECCFG	0x747
#define CSR_MSECCFGH	0x757
#define MSECCFG_USEED	(1UL << 8)
#define MSECCFG_SSEED	(1UL << 9)

/* satp: the MODE field (0 = Bare) */
#if __riscv_xlen == 32
#define SATP_MODE_SHIFT	31
#else
#define SATP_MODE_SHIFT	60
#endif

/* PMP */
#define PMP_R		0x01
#define PMP_W		0x02
#define PMP_X		0x04
#define PMP_A_TOR	0x08
#define PMP_A_NAPOT	0x18
#define PMP_SHIFT	2

/* CSR numbers used by name in inline assembly are spelled by the assembler;
 * those it may not know are given by number here. */
#define CSR_FCSR	0x003	/* F/D: rounding mode and exception flags */
#define CSR_STIMECMP	0x14D
#define CSR_MENVCFG	0x30A
#define CSR_PMPADDR0	0x3B0	/* pmpaddr i: CSR_PMPADDR0 + i */
#define CSR_MENVCFGH	0x31A	/* RV32: menvcfg bits 63:32 */
#define CSR_STIMECMPH	0x15D	/* RV32: stimecmp bits 63:32 */
/* counters: mhpmcounter i is CSR_MHPMCOUNTER_BASE + i (0: mcycle, 2: minstret),
 * mhpmevent i is CSR_MHPMEVENT_BASE + i (i = 3..31; + 0 is mcountinhibit) */
/* the programmable counters: mhpmcounter3 .. mhpmcounter31 */
#define HPM_COUNTER_FIRST	3
#define HPM_COUNTER_LIMIT	32	/* one past the last */
#define CSR_MCOUNTINHIBIT 0x320
#define CSR_MCYCLECFG	0x321	/* Smcntrpmf */
#define CSR_MINSTRETCFG	0x322	/* Smcntrpmf */
#define CSR_MHPMEVENT_BASE 0x320
#define CSR_MHPMEVENT3	0x323
#define CSR_MHPMCOUNTER_BASE 0xB00	/* + i; high half (RV32): CSR_MHPMCOUNTERH_BASE + i */
#define CSR_MCYCLE	0xB00
#define CSR_MINSTRET	0xB02
#define CSR_MHPMCOUNTER3 0xB03
#define CSR_MHPMCOUNTERH_BASE 0xB80	/* RV32 */
#define CSR_MCYCLECFGH	0x721	/* RV32, Smcntrpmf */
#define CSR_MINSTRETCFGH 0x722	/* RV32, Smcntrpmf */
#define CSR_MHPMEVENTH_BASE 0x720	/* + i, RV32 + Sscofpmf */
#define CSR_CYCLE	0xC00
#define CSR_SCOUNTOVF	0xDA0	/* Sscofpmf */
/* H extension */
#define CSR_VSSTATUS	0x200
#define CSR_VSTVEC	0x205
#define CSR_VSEPC	0x241
#define CSR_VSCAUSE	0x242
#define CSR_VSTVAL	0x243
#define CSR_HSTATUS	0x600
#define CSR_HEDELEG	0x602
#define CSR_HTIMEDELTA	0x605	/* RV64: a guest's time = time + htimedelta */
#define CSR_HCOUNTEREN	0x606
#define CSR_HTVAL	0x643
#define CSR_HGATP	0x680
#if __riscv_xlen == 32
#define HGATP_VMID_SHIFT 22	/* RV32: VMID is 7 bits */
#define HGATP_VMID_MASK	(0x7FUL << HGATP_VMID_SHIFT)
#else
#define HGATP_VMID_SHIFT 44	/* RV64 */
#define HGATP_VMID_MASK	(0x3FFFUL << HGATP_VMID_SHIFT)
#endif
#define CSR_HTINST	0x64A
#define CSR_MTINST	0x34A
#define CSR_MTVAL2	0x34B
#define CSR_TIME	0xC01	/* emulated where the hart lacks it (lib/sbi/emulate.c) */
#define CSR_TIMEH	0xC81	/* RV32 */
/* Bit i: counter i, in m/h/scounteren and mcountinhibit (which has no TM) */
#define COUNTEREN_CY	(1UL << 0)	/* cycle */
#define COUNTEREN_TM	(1UL << 1)	/* m/h/scounteren: time */
#define COUNTEREN_IR	(1UL << 2)	/* instret */
#define COUNTEREN_ALL	0xffffffffUL	/* the 32 counters */
/* Zicsr funct3 (+ 4: the immediate forms), for emulate.c */
#define INSN_FUNCT3_CSRRW	1
#define INSN_FUNCT3_CSRRS	2
#define INSN_FUNCT3_CSRRSI	6

/*
 * hfence.vvma / hfence.gvma (H extension), spelt with .insn: not every
 * assembler knows them.  R-type, opcode SYSTEM, funct3 0, rd x0; the
 * operands "rs1, rs2" follow (address, ASID/VMID; x0 = all).
 */
#define INSN_OPCODE_SYSTEM	0x73
#define INSN_FUNCT7_HFENCE_VVMA	0x11
#define INSN_FUNCT7_HFENCE_GVMA	0x31
#define INSN_HFENCE_VVMA	".insn r " CSR_STR(INSN_OPCODE_SYSTEM) ", 0, " \
				CSR_STR(INSN_FUNCT7_HFENCE_VVMA) ", x0, "
#define INSN_HFENCE_GVMA	".insn r " CSR_STR(INSN_OPCODE_SYSTEM) ", 0, " \
				CSR_STR(INSN_FUNCT7_HFENCE_GVMA) ", x0, "

/*
 * AIA (Smaia/Ssaia): the M-level indirect register window onto the hart's
 * IMSIC M-file, its claim register, the virtual-interrupt CSRs; Smstateen.
 */
#define CSR_MISELECT	0x350
#define CSR_MIREG	0x351
#define CSR_MTOPEI	0x35C	/* read: top pending-and-enabled ID; write: claim it */
#define CSR_MTOPI	0xFB0
#define CSR_MVIEN	0x308
#define CSR_MVIP	0x309
#define CSR_SISELECT	0x150	/* Ssaia: S-mode's window (probed only) */
#define CSR_MSTATEEN0	0x30C	/* mstateen1-3: 0x30D-0x30F */
#define CSR_MSTATEEN0H	0x31C	/* RV32: bits 63:32; mstateen1h-3h: 0x31D-0x31F */
/* mstateen0 (Smstateen): what S-mode (and HS-mode's guests) may touch */
#define MSTATEEN0_JVT	(1ULL << 2)	/* Zcmt: jvt */
#define MSTATEEN0_FCSR	(1ULL << 1)	/* Zfinx: fcsr */
#define MSTATEEN0_SRMCFG (1ULL << 55)	/* Ssqosid: srmcfg */
#define MSTATEEN0_CONTEXT (1ULL << 57)	/* Sdtrig: scontext, hcontext */
#define MSTATEEN0_IMSIC	(1ULL << 58)	/* S-mode may use its IMSIC file (stopei, vstopei) */
#define MSTATEEN0_AIA	(1ULL << 59)	/* S-mode may use the other AIA CSRs (stopi, ...) */
#define MSTATEEN0_CSRIND (1ULL << 60)	/* siselect, sireg*: the IMSIC driver's window too */
#define MSTATEEN0_ENVCFG (1ULL << 62)	/* senvcfg, henvcfg */
#define MSTATEEN_SE	(1ULL << 63)	/* mstateenN: sstateenN, hstateenN (SE0 in mstateen0) */
/* miselect values of an IMSIC file's registers (AIA spec, "IMSIC") */
#define IMSIC_EIDELIVERY	0x70
#define IMSIC_EITHRESHOLD	0x72
#define IMSIC_EIP0		0x80	/* RV64: even numbers only, 64 IDs each */
#define IMSIC_EIE0		0xC0
#define TOPEI_ID_SHIFT		16

/* Sdtrig debug trigger CSRs (RISC-V Debug spec 1.0) */
#define CSR_TSELECT	0x7A0
#define CSR_TDATA1	0x7A1
#define CSR_TDATA2	0x7A2
#define CSR_TDATA3	0x7A3
#define CSR_TINFO	0x7A4
#define CSR_TCONTROL	0x7A5
/* tdata1: fields common to every trigger type */
#define TDATA1_TYPE_SHIFT	(__riscv_xlen - 4)
#define TDATA1_DMODE		(1UL << (__riscv_xlen - 5))
#define TDATA1_TYPE_NONE	0
#define TDATA1_TYPE_MCONTROL	2
#define TDATA1_TYPE_MCONTROL6	6
#define TDATA1_TYPE_DISABLED	15
/* mcontrol (type 2) and mcontrol6 (type 6) share these bit positions */
#define MCONTROL_LOAD		(1UL << 0)
#define MCONTROL_STORE		(1UL << 1)
#define MCONTROL_EXECUTE	(1UL << 2)
#define MCONTROL_U		(1UL << 3)
#define MCONTROL_S		(1UL << 4)
#define MCONTROL_M		(1UL << 6)
#define MCONTROL_MATCH_SHIFT	7
#define MCONTROL_CHAIN		(1UL << 11)
#define MCONTROL_ACTION_SHIFT	12
#define MCONTROL_ACTION_MASK	(0xfUL << MCONTROL_ACTION_SHIFT)
/* mcontrol6 only: the virtualised-mode enables */
#define MCONTROL6_VU		(1UL << 23)
#define MCONTROL6_VS		(1UL << 24)
/* tinfo: bit t of info[15:0] set when type t is supported; 1 = no trigger */
#define TINFO_INFO_MASK		0xffffUL

#ifndef __ASSEMBLER__

#define __CSR_STR(x) #x
#define CSR_STR(x) __CSR_STR(x)

#define csr_read(csr) ({ unsigned long __v; \
	__asm__ __volatile__("csrr %0, " CSR_STR(csr) : "=r"(__v) :: "memory"); __v; })
#define csr_write(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrw " CSR_STR(csr) ", %0" :: "rK"(__v) : "memory"); })
#define csr_set(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrs " CSR_STR(csr) ", %0" :: "rK"(__v) : "memory"); })
#define csr_clear(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrc " CSR_STR(csr) ", %0" :: "rK"(__v) : "memory"); })
#define csr_swap(csr, val) ({ unsigned long __v = (unsigned long)(val); \
	__asm__ __volatile__("csrrw %0, " CSR_STR(csr) ", %1" : "=r"(__v) : "rK"(__v) : "memory"); __v; })

/* menvcfg as the 64-bit register it is, on RV32 split over menvcfgh. */
static inline unsigned long long menvcfg_read(void)
{
#if __riscv_xlen == 32
	return (unsigned long long)csr_read(CSR_MENVCFGH) << 32 | csr_read(CSR_MENVCFG);
#else
	return csr_read(CSR_MENVCFG);
#endif
}

static inline void menvcfg_write(unsigned long long v)
{
	csr_write(CSR_MENVCFG, (unsigned long)v);
#if __riscv_xlen == 32
	csr_write(CSR_MENVCFGH, (unsigned long)(v >> 32));
#endif
}

static inline void wfi(void) { __asm__ __volatile__("wfi" ::: "memory"); }
static inline void mb(void) { __asm__ __volatile__("fence rw, rw" ::: "memory"); }
static inline void fence_i(void) { __asm__ __volatile__("fence.i" ::: "memory"); }
static inline void sfence_vma_all(void) { __asm__ __volatile__("sfence.vma" ::: "memory"); }
static inline void sfence_vma_addr(unsigned long va)
{
	__asm__ __volatile__("sfence.vma %0" :: "r"(va) : "memory");
}
static inline void sfence_vma_asid(unsigned long asid)
{
	__asm__ __volatile__("sfence.vma x0, %0" :: "r"(asid) : "memory");
}
static inline void sfence_vma_addr_asid(unsigned long va, unsigned long asid)
{
	__asm__ __volatile__("sfence.vma %0, %1" :: "r"(va), "r"(asid) : "memory");
}

#endif /* __ASSEMBLER__ */
#endif
