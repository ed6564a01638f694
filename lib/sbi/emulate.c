// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the firmware emulates for S/U-mode.
 *
 * Reads of the time CSR (csrr rd, time; and timeh on RV32) on machines
 * whose harts do not implement it but have a memory-mapped mtime (QEMU
 * sifive_u and spike, like the FU540).  A read from a guest (VS/VU-mode,
 * on a hart with the H extension) is the guest's time, time + htimedelta,
 * and is subject to hcounteren as well as mcounteren and scounteren: what
 * the privileged spec says the hart would do (time_csr_access, emulate.h).
 * QEMU 7.2 also makes writes to htimedelta illegal on a hart without a
 * time CSR (spike, sifive_u with h=true), so a hypervisor could not set
 * its guests' time: such a write from HS-mode traps here and its value is
 * kept per hart (as OpenSBI does), and so are reads, which trap too.
 *
 * Aligned 32-bit loads and stores S-mode makes to a device page the
 * firmware serves for a board quirk (platform.trap_page: the QEMU 7.2
 * APLIC's setipnum page, BOARD_QUIRK_APLIC_SETIPNUM).  PMP closes such a
 * page, so the access arrives as an access fault: the instruction at mepc
 * is read through S-mode's translation and decoded (LW, LWU, SW and their
 * compressed forms), the faulting address (mtval) is translated through
 * S-mode's page tables, and a load reads the register as the hardware
 * answers it while a store goes to the page's store32.  Any other access
 * (another width, a misaligned or atomic one, one from U-mode or a guest,
 * one to any other closed region) is refused, and the access fault goes
 * to S-mode as before.
 *
 * The trap entry puts every register in the frame for an exception from
 * S/U-mode (fw_base.S), so any rd can be written and any rs2 read.
 */
#include <stdint.h>
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/platform.h>
#include <tally/emulate.h>
#include <tally/trap.h>

/* htimedelta of the harts that trap it (emulate_htimedelta), by hart index. */
static unsigned long htimedelta_kept[TALLY_MAX_HARTS];

/*
 * The hart's htimedelta where it has a working one, else the kept value.
 * A trapping read is a trap in M-mode, whose mret leaves mstatus.MPP = U
 * and MPV = 0: mstatus is put back as it was at the guest's trap, or the
 * guest would resume in U-mode.
 */
static unsigned long guest_time_offset(const struct trap_frame *tf)
{
	bool ok;
	unsigned long delta = csr_read_guarded(CSR_HTIMEDELTA, &ok);

	if (ok)
		return delta;
	csr_write(mstatus, tf->mstatus);
	return htimedelta_kept[this_hart_index()];
}

static enum time_csr_access time_access(const struct trap_frame *tf, bool virt)
{
	unsigned long prv = (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	return time_csr_access(virt, prv, csr_read(mcounteren),
			       virt ? csr_read(CSR_HCOUNTEREN) : 0,
			       prv == PRV_U ? csr_read(scounteren) : 0);
}

/* csrr rd, time (timeh on RV32): csrrs/csrrsi with rs1/uimm 0, no write */
static bool is_time_read(unsigned long insn)
{
	unsigned long funct3 = (insn >> 12) & 7, rs1 = (insn >> 15) & 31;
	unsigned long csr = insn >> 20;

	if ((insn & 0x7f) != INSN_OPCODE_SYSTEM || rs1 ||
	    (funct3 != INSN_FUNCT3_CSRRS && funct3 != INSN_FUNCT3_CSRRSI))
		return false;
#if __riscv_xlen == 32
	if (csr == CSR_TIMEH)
		return true;
#endif
	return csr == CSR_TIME;
}

/*
 * csrrw/csrrs/csrrc (and the immediate forms) on htimedelta from HS-mode,
 * on a hart that traps them: the kept value is read and written.
 */
static bool emulate_htimedelta(struct trap_frame *tf, unsigned long insn)
{
	unsigned long funct3 = (insn >> 12) & 7, rd = (insn >> 7) & 31;
	unsigned long rs1 = (insn >> 15) & 31;
	unsigned long *kept = &htimedelta_kept[this_hart_index()];
	unsigned long old = *kept, src = (funct3 & 4) || !rs1 ? rs1 : tf->regs[rs1];
	bool virt = tf->mstatus & MSTATUS_MPV;
	unsigned long prv = (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	if ((insn & 0x7f) != INSN_OPCODE_SYSTEM || (insn >> 20) != CSR_HTIMEDELTA ||
	    !(funct3 & 3) || virt || prv != PRV_S)
		return false;
	if ((funct3 & 3) == INSN_FUNCT3_CSRRW)
		*kept = src;
	else if (rs1 && (funct3 & 3) == INSN_FUNCT3_CSRRS)
		*kept = old | src;
	else if (rs1)
		*kept = old & ~src;
	if (rd)
		tf->regs[rd] = old;
	tf->mepc += 4;
	return true;
}

bool sbi_emulate_insn(struct trap_frame *tf, unsigned long insn, unsigned long *cause)
{
	unsigned long rd = (insn >> 7) & 31;
	bool virt = hart_features.has_h && (tf->mstatus & MSTATUS_MPV);
	unsigned long long now;

	if (!platform.ops.timer_value)
		return false;
	if (hart_features.has_h && emulate_htimedelta(tf, insn))
		return true;
	if (!is_time_read(insn))
		return false;
	switch (time_access(tf, virt)) {
	case TIME_CSR_ILLEGAL:
		return false;		/* forwarded as the illegal instruction */
	case TIME_CSR_VIRTUAL:
		*cause = CAUSE_VIRTUAL_INSTRUCTION;
		return false;
	case TIME_CSR_READ:
		break;
	}
	now = platform.ops.timer_value();
	if (virt)	/* wraps, as the hart's sum */
		now += guest_time_offset(tf);
	if (rd)
		tf->regs[rd] = (insn >> 20) == CSR_TIME ? (unsigned long)now :
			       (unsigned long)(now >> 32);
	tf->mepc += 4;
	return true;
}

/* ---- device pages S-mode reaches through the firmware ----------------------- */

#define PAGE_SHIFT	12
#define PTE_V		(1UL << 0)
#define PTE_R		(1UL << 1)
#define PTE_W		(1UL << 2)
#define PTE_X		(1UL << 3)
#define PTE_U		(1UL << 4)
#define PTE_PPN_SHIFT	10
#if __riscv_xlen == 32
#define VPN_BITS	10		/* Sv32 */
#define PTE_PPN_MASK	0x3FFFFFUL	/* 22 bits: a 34-bit physical address */
#define PTE_RESERVED	0UL
#define SATP_PPN_MASK	0x3FFFFFUL
#else
#define VPN_BITS	9		/* Sv39, Sv48, Sv57 */
#define PTE_PPN_MASK	((1UL << 44) - 1)
#define PTE_RESERVED	(1UL << 63 | 0x7FUL << 54)	/* N (Svnapot: not followed), reserved */
#define SATP_PPN_MASK	((1UL << 44) - 1)
#endif
#define PTE_SIZE	sizeof(unsigned long)
#define OPCODE_LOAD	0x03
#define OPCODE_STORE	0x23

/* Page-table levels of satp's mode: 0 for Bare, -1 for a mode not known. */
static int satp_levels(unsigned long satp)
{
	switch (satp >> SATP_MODE_SHIFT) {
	case 0:		return 0;	/* Bare */
#if __riscv_xlen == 32
	case 1:		return 2;	/* Sv32 */
#else
	case 8:		return 3;	/* Sv39 */
	case 9:		return 4;	/* Sv48 */
	case 10:	return 5;	/* Sv57 */
#endif
	default:	return -1;
	}
}

/* A leaf at level i lets S-mode do this access: what the hart checked. */
static bool leaf_allows(unsigned long pte, int i, bool store, unsigned long mstatus)
{
	unsigned long ppn = (pte >> PTE_PPN_SHIFT) & PTE_PPN_MASK;

	if (store ? !(pte & PTE_W) :
	    !(pte & PTE_R) && !((pte & PTE_X) && (mstatus & MSTATUS_MXR)))
		return false;
	if ((pte & PTE_U) && !(mstatus & MSTATUS_SUM))
		return false;
	return !(ppn & ((1UL << (i * VPN_BITS)) - 1));	/* superpages are aligned */
}

/*
 * The physical address of S-mode's access at vaddr, by S-mode's page
 * tables (satp).  The hart translated it before PMP refused the access;
 * this walk only finds where it went.  Every table entry it reads must be
 * RAM S-mode may use (never the firmware, never a device), and anything
 * unexpected (a mode not known, an invalid or reserved entry, a leaf that
 * does not allow the access: the tables changed since) answers false.
 */
static bool smode_translate(unsigned long vaddr, bool store, unsigned long mstatus,
			    uint64_t *pa)
{
	unsigned long satp = csr_read(satp), pte;
	int levels = satp_levels(satp);
	uint64_t table = (uint64_t)(satp & SATP_PPN_MASK) << PAGE_SHIFT, entry;

	if (!levels) {
		*pa = vaddr;
		return true;
	}
	if (levels < 0)
		return false;
#if __riscv_xlen == 64
	{	/* bits above the virtual address copy its top bit */
		unsigned int unused = 64 - PAGE_SHIFT - levels * VPN_BITS;

		if ((unsigned long)((long)(vaddr << unused) >> unused) != vaddr)
			return false;
	}
#endif
	for (int i = levels - 1; i >= 0; i--) {
		entry = table + ((vaddr >> (PAGE_SHIFT + i * VPN_BITS)) & ((1UL << VPN_BITS) - 1)) *
				PTE_SIZE;
		if (entry != (unsigned long)entry ||
		    !memmap_smode_range_ok(&platform.mem, (unsigned long)entry, 0, PTE_SIZE))
			return false;
		pte = *(volatile unsigned long *)(unsigned long)entry;
		if (!(pte & PTE_V) || (pte & PTE_RESERVED) || ((pte & PTE_W) && !(pte & PTE_R)))
			return false;
		table = (uint64_t)((pte >> PTE_PPN_SHIFT) & PTE_PPN_MASK) << PAGE_SHIFT;
		if (pte & (PTE_R | PTE_X)) {
			if (!leaf_allows(pte, i, store, mstatus))
				return false;
			/* the page offset: at most 48 bits (RV32: 22) */
			*pa = table | (vaddr & ((1UL << (PAGE_SHIFT + i * VPN_BITS)) - 1));
			return true;
		}
	}
	return false;	/* no leaf at the last level */
}

/* A load or store the pages serve: 32 bits wide, nothing else. */
struct access32 {
	unsigned int len;	/* of the instruction: 2 or 4 */
	unsigned int reg;	/* rd of a load, rs2 of a store */
	bool store;
	bool zero_extend;	/* LWU */
};

/* LW, LWU (RV64), SW, C.LW, C.SW, C.LWSP, C.SWSP; false for anything else. */
static bool decode_access32(unsigned long insn, struct access32 *a)
{
	unsigned long funct3 = (insn >> 12) & 7;

	a->zero_extend = false;
	if ((insn & 3) == 3) {
		a->len = 4;
		if ((insn & 0x7f) == OPCODE_LOAD &&
		    (funct3 == 2 || (__riscv_xlen == 64 && funct3 == 6))) {
			a->store = false;
			a->reg = (insn >> 7) & 31;
			a->zero_extend = funct3 == 6;
			return true;
		}
		a->store = true;
		a->reg = (insn >> 20) & 31;
		return (insn & 0x7f) == OPCODE_STORE && funct3 == 2;
	}
	a->len = 2;
	switch (insn & 0xE003) {	/* funct3 (15:13) and quadrant (1:0) */
	case 0x4000:			/* C.LW rd', off(rs1') */
	case 0xC000:			/* C.SW rs2', off(rs1') */
		a->store = insn & 0x8000;
		a->reg = 8 + ((insn >> 2) & 7);
		return true;
	case 0x4002:			/* C.LWSP rd, off(sp); rd = 0 is reserved */
		a->store = false;
		a->reg = (insn >> 7) & 31;
		return a->reg != 0;
	case 0xC002:			/* C.SWSP rs2, off(sp) */
		a->store = true;
		a->reg = (insn >> 2) & 31;
		return true;
	default:
		return false;
	}
}

/* The instruction at S-mode's pc, read as S-mode sees its memory. */
static bool fetch_insn(unsigned long pc, unsigned long *insn)
{
	struct hart_scratch *me = this_hart();
	unsigned long lo, hi = 0;

	hart_guard_begin(me);
	lo = smode_load_parcel(pc);
	if (!me->guard_trapped && (lo & 3) == 3)
		hi = smode_load_parcel(pc + 2);
	me->guard = 0;
	*insn = lo | hi << 16;
	return !me->guard_trapped;
}

static const struct platform_trap_page *trap_page_of(uint64_t pa)
{
	for (unsigned int i = 0; i < platform.nr_trap_pages; i++)
		if (pa - platform.trap_page[i].base < PLATFORM_TRAP_PAGE_SIZE)
			return &platform.trap_page[i];
	return NULL;
}

bool sbi_emulate_trap_page(struct trap_frame *tf, bool store, unsigned long vaddr)
{
	const struct platform_trap_page *pg;
	struct access32 a;
	unsigned long insn;
	uint64_t pa;
	uint32_t value;

	if ((vaddr & 3) ||
	    (tf->mstatus & (MSTATUS_MPP | MSTATUS_MPV)) != PRV_S << MSTATUS_MPP_SHIFT)
		return false;
	if (!fetch_insn(tf->mepc, &insn) || !decode_access32(insn, &a) || a.store != store ||
	    !smode_translate(vaddr, store, tf->mstatus, &pa) || !(pg = trap_page_of(pa)))
		return false;
	if (store) {
		value = a.reg ? (uint32_t)tf->regs[a.reg] : 0;
		if (!pg->store32(pg, (unsigned long)(pa - pg->base), value))
			return false;
	} else {
		value = *(volatile uint32_t *)(unsigned long)pa;
		if (a.reg)
			tf->regs[a.reg] = a.zero_extend ? value : (unsigned long)(long)(int32_t)value;
	}
	tf->mepc += a.len;
	return true;
}
