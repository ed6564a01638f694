/*
 * AIA (QEMU virt aia=aplic, aia=aplic-imsic): what S-mode gets of the
 * Advanced Interrupt Architecture once the firmware has set it up.  Runs
 * only when the tree has APLIC or IMSIC nodes (no line otherwise).
 *
 *  tree       every M-level node (APLIC M domain, IMSIC M-files) is
 *             disabled in the tree S-mode got, every S-level one is not
 *  S-file     (IMSIC) S-mode enables an identity in its own S-file,
 *             writes it to its seteipnum page and claims it through
 *             stopei: its AIA CSRs and its file are its own
 *  device     the UART's wired interrupt, which enters the M-level domain,
 *             reaches S-mode through S-mode's APLIC domain (direct: its
 *             IDC; MSI: its S-file), which it can only if the firmware
 *             delegated the source (and, in MSI mode, set the S-level MSI
 *             address in the M domain)
 *  setipnum   (MSI mode) QEMU 7.2's APLIC sets a level-sensitive source
 *             pending on every write of setipnum_le/_be, asserted or not;
 *             the firmware, which finds that out at boot (QEMU 9.0 and
 *             later do it right: then the page is S-mode's own, and the
 *             same spec checks run on the device itself), emulates that
 *             page (BOARD_QUIRK_APLIC_SETIPNUM):
 *             a deasserted level source is not re-pended, an asserted one
 *             and an edge-sensitive one are, through every store form and
 *             through S-mode's page tables; loads read as the device
 *             answers; any other access there faults as before, and the
 *             rest of the domain does not trap.  Bootargs "setipnum=qemu"
 *             (the firmware had no PMP entry for the page): the page is
 *             S-mode's own again, with QEMU's behaviour.  Direct mode: the
 *             page does not trap.
 *
 * The IDC and MSI hart index of a hart is its position among the cpus,
 * as on QEMU virt.  Everything is put back afterwards.
 */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define CSR_STOPEI	0x15c
#define IMSIC_EIDELIVERY 0x70
#define IMSIC_EITHRESHOLD 0x72
#define IMSIC_EIE0	0xc0
#define SIP_SEIP	(1UL << IRQ_S_EXT)

#define APLIC_DOMAINCFG		0x0000
#define APLIC_DOMAINCFG_IE	(1U << 8)
#define APLIC_DOMAINCFG_DM	(1U << 2)
#define APLIC_SOURCECFG(s)	(0x0004 + 4 * ((s) - 1))
#define APLIC_SM_EDGE_RISE	4
#define APLIC_SM_LEVEL_HIGH	6
#define APLIC_IN_CLRIP(s)	(0x1d00 + 4 * ((s) / 32))
#define APLIC_SETIPNUM_LE	0x2000
#define APLIC_SETIPNUM_BE	0x2004
#define FW_ACCESS_STORE		3	/* SBI PMU firmware event */
#define APLIC_SETIENUM		0x1edc
#define APLIC_CLRIENUM		0x1fdc
#define APLIC_TARGET(s)		(0x3004 + 4 * ((s) - 1))
#define APLIC_IDC(i)		(0x4000 + 32 * (i))
#define IDC_IDELIVERY		0x00
#define IDC_ITHRESHOLD		0x08
#define IDC_CLAIMI		0x1c

#define UART_IER	1	/* 16550 registers (byte offsets) */
#define UART_IIR	2
#define UART_IER_THRI	0x02	/* transmitter empty: a level that stays up */

static void w32(uint64_t addr, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)addr = v;
}

static uint32_t r32(uint64_t addr)
{
	return *(volatile uint32_t *)(uintptr_t)addr;
}

static void sfile_write(unsigned long reg, unsigned long v)
{
	csr_write(CSR_SISELECT, reg);
	csr_write(CSR_SIREG, v);
}

/* The boot hart's position among the cpus: its IDC and MSI hart index. */
static unsigned long hart_index(unsigned long hartid)
{
	for (unsigned long i = 0; i < machine.ncpus && i < FDT_MAX_CPUS; i++)
		if (machine.hartids[i] == hartid)
			return i;
	return 0;
}

static const struct aia_node *find(bool imsic, bool mlevel)
{
	for (unsigned int i = 0; i < machine.naia; i++)
		if (machine.aia[i].imsic == imsic && machine.aia[i].mlevel == mlevel)
			return &machine.aia[i];
	return NULL;
}

static void check_tree(void)
{
	unsigned int m = 0, s = 0, bad = 0;
	char first[80] = "";

	for (unsigned int i = 0; i < machine.naia; i++) {
		const struct aia_node *a = &machine.aia[i];

		a->mlevel ? m++ : s++;
		if (a->enabled == a->mlevel && !bad++)
			snprintf(first, sizeof(first), "%s at %lx is %s", a->imsic ? "IMSIC" : "APLIC",
				 (unsigned long)a->regs[0].base, a->enabled ? "enabled" : "disabled");
	}
	check(!bad && m, "aia", sfmt("the %u M-level AIA nodes are disabled in S-mode's tree, "
				     "the %u S-level ones enabled", m, s),
	      m ? first : "no M-level node at all");
}

/* The S-file: delivery on, no threshold, identity id enabled. */
static void sfile_setup(unsigned long id, bool on)
{
	unsigned long per = __riscv_xlen, step = __riscv_xlen / 32;

	sfile_write(IMSIC_EITHRESHOLD, 0);
	csr_write(CSR_SISELECT, IMSIC_EIE0 + (id / per) * step);
	if (on)
		csr_set(CSR_SIREG, 1UL << (id % per));
	else
		csr_clear(CSR_SIREG, 1UL << (id % per));
	sfile_write(IMSIC_EIDELIVERY, on);
}

/* Waits for sip.SEIP and claims through stopei: the identity, or 0. */
static unsigned long sfile_claim(void)
{
	if (!WAIT_UNTIL(csr_read(CSR_SIP) & SIP_SEIP, 100))
		return 0;
	return csr_swap(CSR_STOPEI, 0) >> 16;
}

static void check_sfile(const struct aia_node *imsic, unsigned long index)
{
	const unsigned long id = 5;
	uint64_t file = imsic->regs[0].base + (index << (12 + imsic->guest_bits));
	unsigned long got;

	sfile_setup(id, true);
	w32(file, id);			/* seteipnum_le */
	got = sfile_claim();
	sfile_setup(id, false);
	check(got == id, "aia", sfmt("S-mode's own IMSIC file: identity %lu written to 0x%lx "
				     "is claimed through stopei", id, (unsigned long)file),
	      sfmt("claimed %lu, sip 0x%lx", got, csr_read(CSR_SIP)));
}

/* The UART's interrupt through S-mode's APLIC domain: what was claimed. */
static unsigned long device_irq(const struct aia_node *aplic, unsigned long index)
{
	uint64_t b = aplic->regs[0].base, uart = machine.uart_base;
	uint32_t src = machine.uart_irq;
	unsigned long got = 0;

	/*
	 * The domain is S-mode's: start it clean, as Linux does.  QEMU 7.2
	 * leaves stray pending/enable bits on inactive sources (source 1,
	 * at random, before any code runs), which its direct-mode claimi
	 * reports; a write of sourcecfg clears them.
	 */
	for (uint32_t s = 1; s <= aplic->num_sources; s++)
		w32(b + APLIC_SOURCECFG(s), 0);
	w32(b + APLIC_DOMAINCFG, APLIC_DOMAINCFG_IE | (aplic->msi ? APLIC_DOMAINCFG_DM : 0));
	w32(b + APLIC_SOURCECFG(src), APLIC_SM_LEVEL_HIGH);
	if (aplic->msi) {
		sfile_setup(src, true);
		w32(b + APLIC_TARGET(src), (uint32_t)(index << 18) | src);	/* EIID = source */
	} else {
		w32(b + APLIC_TARGET(src), (uint32_t)(index << 18) | 1);	/* priority 1 */
		w32(b + APLIC_IDC(index) + IDC_ITHRESHOLD, 0);
		w32(b + APLIC_IDC(index) + IDC_IDELIVERY, 1);
	}
	w32(b + APLIC_SETIENUM, src);
	*(volatile uint8_t *)(uintptr_t)(uart + UART_IER) |= UART_IER_THRI;
	if (aplic->msi)
		got = sfile_claim();
	else if (WAIT_UNTIL(csr_read(CSR_SIP) & SIP_SEIP, 100))
		got = r32(b + APLIC_IDC(index) + IDC_CLAIMI) >> 16;
	/* put everything back */
	*(volatile uint8_t *)(uintptr_t)(uart + UART_IER) &= ~UART_IER_THRI;
	(void)*(volatile uint8_t *)(uintptr_t)(uart + UART_IIR);
	w32(b + APLIC_CLRIENUM, src);
	w32(b + APLIC_SOURCECFG(src), 0);
	if (aplic->msi)
		sfile_setup(src, false);
	else
		w32(b + APLIC_IDC(index) + IDC_IDELIVERY, 0);
	w32(b + APLIC_DOMAINCFG, 0);
	return got;
}

/* ---- setipnum_le/_be of an MSI-mode domain (QEMU 7.2's quirk) ---------------- */

static uint32_t swap32(uint32_t v)
{
	return v >> 24 | (v >> 8 & 0xff00U) | (v << 8 & 0xff0000U) | v << 24;
}

/* The S-level domain, set up for the UART's source in the given mode. */
static void domain_start(const struct aia_node *aplic, unsigned long index, uint32_t sm)
{
	uint64_t b = aplic->regs[0].base;
	uint32_t src = machine.uart_irq;

	for (uint32_t s = 1; s <= aplic->num_sources; s++)
		w32(b + APLIC_SOURCECFG(s), 0);
	w32(b + APLIC_DOMAINCFG, APLIC_DOMAINCFG_IE | APLIC_DOMAINCFG_DM);
	w32(b + APLIC_SOURCECFG(src), sm);
	sfile_setup(src, true);
	w32(b + APLIC_TARGET(src), (uint32_t)(index << 18) | src);	/* EIID = source */
	w32(b + APLIC_SETIENUM, src);
}

static void domain_stop(const struct aia_node *aplic)
{
	uint64_t b = aplic->regs[0].base;

	w32(b + APLIC_CLRIENUM, machine.uart_irq);
	w32(b + APLIC_SOURCECFG(machine.uart_irq), 0);
	sfile_setup(machine.uart_irq, false);
	w32(b + APLIC_DOMAINCFG, 0);
}

/* The UART's interrupt line: THRE enabled holds it high. */
static void uart_line(bool high)
{
	volatile uint8_t *uart = (volatile uint8_t *)(uintptr_t)machine.uart_base;

	if (high) {
		uart[UART_IER] |= UART_IER_THRI;
	} else {
		uart[UART_IER] &= ~UART_IER_THRI;
		(void)uart[UART_IIR];
	}
}

/* The identity S-mode's file delivers within ms milliseconds, or 0. */
static unsigned long claim_within(unsigned long ms)
{
	if (!WAIT_UNTIL(csr_read(CSR_SIP) & SIP_SEIP, ms))
		return 0;
	return csr_swap(CSR_STOPEI, 0) >> 16;
}

/* Every store form the firmware emulates, each with another register. */
enum store_form { SW_A, SW_S5, C_SW, C_SWSP, NR_STORE_FORMS };
static const char *const store_form_name[] = { "sw", "sw (rs2 s5)", "c.sw", "c.swsp" };

static void store_as(enum store_form f, uint64_t addr, uint32_t v)
{
	unsigned long a = (unsigned long)addr, val = v;

	switch (f) {
	case SW_A:
		__asm__ __volatile__(".option push\n.option norvc\nsw %1, 0(%0)\n.option pop"
				     :: "r"(a), "r"(val) : "memory");
		break;
	case SW_S5: {
		register unsigned long s5 __asm__("s5") = val;

		__asm__ __volatile__(".option push\n.option norvc\nsw s5, 0(%0)\n.option pop"
				     :: "r"(a), "r"(s5) : "memory");
		break;
	}
	case C_SW: {
		register unsigned long a4 __asm__("a4") = a, a5 __asm__("a5") = val;

		__asm__ __volatile__(".option push\n.option rvc\nc.sw a5, 0(a4)\n.option pop"
				     :: "r"(a4), "r"(a5) : "memory");
		break;
	}
	case C_SWSP: {	/* sp points at the register for one instruction */
		register unsigned long t1 __asm__("t1") = a, t2 __asm__("t2") = val;

		__asm__ __volatile__(".option push\n.option rvc\n"
				     "mv t0, sp\nmv sp, t1\nc.swsp t2, 0(sp)\nmv sp, t0\n"
				     ".option pop" :: "r"(t1), "r"(t2) : "t0", "memory");
		break;
	}
	default:
		break;
	}
}

/* Loads, each into another register: what it read (x0 preset to ~0). */
enum load_form { LW_A, LW_S7, LWU, C_LW, C_LWSP, NR_LOAD_FORMS };
static const char *const load_form_name[] = { "lw", "lw (rd s7)", "lwu", "c.lw", "c.lwsp" };

static unsigned long load_as(enum load_form f, uint64_t addr)
{
	unsigned long a = (unsigned long)addr, v = ~0UL;

	switch (f) {
	case LW_A:
		__asm__ __volatile__(".option push\n.option norvc\nlw %0, 0(%1)\n.option pop"
				     : "+r"(v) : "r"(a) : "memory");
		break;
	case LW_S7: {
		register unsigned long s7 __asm__("s7") = v;

		__asm__ __volatile__(".option push\n.option norvc\nlw s7, 0(%1)\n.option pop"
				     : "+r"(s7) : "r"(a) : "memory");
		v = s7;
		break;
	}
	case LWU:
#if __riscv_xlen == 64
		__asm__ __volatile__("lwu %0, 0(%1)" : "+r"(v) : "r"(a) : "memory");
#else
		__asm__ __volatile__("lw %0, 0(%1)" : "+r"(v) : "r"(a) : "memory");
#endif
		break;
	case C_LW: {
		register unsigned long a4 __asm__("a4") = a, a5 __asm__("a5") = v;

		__asm__ __volatile__(".option push\n.option rvc\nc.lw a5, 0(a4)\n.option pop"
				     : "+r"(a5) : "r"(a4) : "memory");
		v = a5;
		break;
	}
	case C_LWSP: {
		register unsigned long t1 __asm__("t1") = a, t2 __asm__("t2") = v;

		__asm__ __volatile__(".option push\n.option rvc\n"
				     "mv t0, sp\nmv sp, t1\nc.lwsp t2, 0(sp)\nmv sp, t0\n"
				     ".option pop" : "+r"(t2) : "r"(t1) : "t0", "memory");
		v = t2;
		break;
	}
	default:
		break;
	}
	return v;
}

/* Accesses the page must refuse, as every closed page does. */
enum bad_form { B_SB, B_SH, B_SD, B_SW_MISALIGNED, B_SW_RESERVED, B_AMOSWAP, B_LB, B_LH, B_LD,
		B_LW_MISALIGNED, NR_BAD_FORMS };
static const struct {
	const char *name;
	unsigned long offset;	/* from setipnum_le */
	unsigned long cause;
} bad_form[] = {
	[B_SB] = { "sb", 0, EXC_STORE_ACCESS },
	[B_SH] = { "sh", 0, EXC_STORE_ACCESS },
#if __riscv_xlen == 64
	[B_SD] = { "sd", 0, EXC_STORE_ACCESS },
#else
	[B_SD] = { "sw to the reserved word 0x200c", 12, EXC_STORE_ACCESS },
#endif
	[B_SW_MISALIGNED] = { "misaligned sw", 2, EXC_STORE_ACCESS },
	[B_SW_RESERVED] = { "sw to the reserved word 0x2008", 8, EXC_STORE_ACCESS },
	[B_AMOSWAP] = { "amoswap.w", 0, EXC_STORE_ACCESS },
	[B_LB] = { "lb", 0, EXC_LOAD_ACCESS },
	[B_LH] = { "lh", 0, EXC_LOAD_ACCESS },
#if __riscv_xlen == 64
	[B_LD] = { "ld", 0, EXC_LOAD_ACCESS },
#else
	[B_LD] = { "lw at 0x2001", 1, EXC_LOAD_ACCESS },
#endif
	[B_LW_MISALIGNED] = { "misaligned lw", 2, EXC_LOAD_ACCESS },
};

/* Runs the access with the trap handler told to expect a fault: its
 * scause, or 0; *tval: stval of the fault. */
static unsigned long try_bad(enum bad_form f, uint64_t addr, unsigned long *tval)
{
	struct hart *h = this_hart();
	unsigned long a = (unsigned long)addr, v = 0;

	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	switch (f) {
	case B_SB:
		__asm__ __volatile__("sb %1, 0(%0)" :: "r"(a), "r"(v) : "memory");
		break;
	case B_SH:
		__asm__ __volatile__("sh %1, 0(%0)" :: "r"(a), "r"(v) : "memory");
		break;
	case B_SD:
#if __riscv_xlen == 64
		__asm__ __volatile__("sd %1, 0(%0)" :: "r"(a), "r"(v) : "memory");
		break;
#endif
	case B_SW_MISALIGNED:
	case B_SW_RESERVED:
		__asm__ __volatile__("sw %1, 0(%0)" :: "r"(a), "r"(v) : "memory");
		break;
	case B_AMOSWAP:
		__asm__ __volatile__("amoswap.w %0, %0, (%1)" : "+r"(v) : "r"(a) : "memory");
		break;
	case B_LB:
		__asm__ __volatile__("lb %0, 0(%1)" : "+r"(v) : "r"(a) : "memory");
		break;
	case B_LH:
		__asm__ __volatile__("lh %0, 0(%1)" : "+r"(v) : "r"(a) : "memory");
		break;
	case B_LD:
#if __riscv_xlen == 64
		__asm__ __volatile__("ld %0, 0(%1)" : "+r"(v) : "r"(a) : "memory");
		break;
#endif
	case B_LW_MISALIGNED:
		__asm__ __volatile__("lw %0, 0(%1)" : "+r"(v) : "r"(a) : "memory");
		break;
	default:
		break;
	}
	mb();
	h->trap_armed = false;
	*tval = h->trap_tval;
	return h->trap_cause;
}

/* A firmware counter of event code on this hart (Tally's 257: M-mode
 * traps), started from 0: its index, or -1UL. */
static unsigned long fw_counter(unsigned long code)
{
	struct sbiret r = pmu_config(0, pmu_fw_counter_mask(), CFG_CLEAR_VALUE | CFG_AUTO_START,
				     EV_FW(code), 0);

	return r.error ? -1UL : r.value;
}

static unsigned long fw_count(unsigned long idx)
{
	return idx == -1UL ? -1UL : pmu_fw_read(idx).value;
}

struct counts {
	unsigned long traps, access_faults;	/* 257, SBI_PMU_FW_ACCESS_STORE */
};

static struct counts counts_now(const unsigned long idx[2])
{
	return (struct counts){ fw_count(idx[0]), fw_count(idx[1]) };
}

/* Identity-mapped low 4 GiB (Sv39 gigapages; RV32: Sv32 megapages), and
 * one 4 KiB page at ALIAS_VA mapped to the setipnum page: a walk through
 * every level, to an address that is not the physical one. */
#define PAGE		4096UL
#define PTE_V		(1UL << 0)
#define PTE_RW		(3UL << 1)
#define PTE_RWX		(7UL << 1)
#define PTE_AD		(3UL << 6)
#if __riscv_xlen == 32
#define SATP_PAGED	(1UL << 31)
#define LEVELS		2
#define VPN_BITS	10
#define ALIAS_VA	0xffc00000UL	/* the last megapage: not used */
#else
#define SATP_PAGED	(8UL << 60)
#define LEVELS		3
#define VPN_BITS	9
#define ALIAS_VA	0x140000000UL	/* 5 GiB: beyond the identity map */
#endif
#define ENTRIES		(PAGE / sizeof(unsigned long))
static unsigned long ptab[LEVELS][ENTRIES] __attribute__((aligned(PAGE)));

static unsigned long pte_to(uint64_t pa, unsigned long flags)
{
	return (unsigned long)(pa >> 12 << 10) | flags | PTE_V | PTE_AD;
}

static void paging_on(uint64_t page_pa)
{
	const unsigned int top = (LEVELS - 1) * VPN_BITS + 12;
	unsigned long i;

	for (i = 0; i < ENTRIES; i++)
		ptab[0][i] = (uint64_t)i << top < (1ULL << 32) ?
			     pte_to((uint64_t)i << top, PTE_RWX) : 0;
	for (i = 0; i + 1 < LEVELS; i++)	/* the alias's way down */
		ptab[i][(ALIAS_VA >> ((LEVELS - 1 - i) * VPN_BITS + 12)) & (ENTRIES - 1)] =
			pte_to((uintptr_t)ptab[i + 1], 0) & ~PTE_AD;
	ptab[LEVELS - 1][(ALIAS_VA >> 12) & (ENTRIES - 1)] = pte_to(page_pa, PTE_RW);
	mb();
	csr_write(CSR_SATP, SATP_PAGED | (uintptr_t)ptab[0] >> 12);
	__asm__ __volatile__("sfence.vma" ::: "memory");
}

static void paging_off(void)
{
	csr_write(CSR_SATP, 0);
	__asm__ __volatile__("sfence.vma" ::: "memory");
}

/* setipnum (le, or be: the number byte-swapped) of the source, by form. */
static void setipnum(uint64_t page, bool be, enum store_form f)
{
	uint32_t src = machine.uart_irq;

	store_as(f, page + (be ? 4 : 0), be ? swap32(src) : src);
}

/*
 * A deasserted level source written to setipnum: not pending again
 * (what the spec says; QEMU 7.2 alone pends it).  quirk_on: what the
 * check expects, the firmware's behaviour or QEMU's own.
 */
static void check_deasserted(uint64_t page, bool be, enum store_form f, const char *how,
			     bool quirk_on)
{
	unsigned long got;

	setipnum(page, be, f);
	got = claim_within(20);
	if (quirk_on)
		check(!got, "aia", sfmt("setipnum_%s (%s%s) of the deasserted level source %u: "
					"no interrupt (AIA 4.7: not pending while the input is low)",
					be ? "be" : "le", store_form_name[f], how, machine.uart_irq),
		      sfmt("identity %lu delivered: QEMU 7.2's re-pend got through", got));
	else
		check(got == machine.uart_irq, "aia",
		      sfmt("quirk off: setipnum_le of the deasserted level source %u is S-mode's "
			   "write to QEMU, which pends it (QEMU 7.2's bug, as without the firmware)",
			   machine.uart_irq),
		      sfmt("claimed %lu", got));
}

/* ... and an asserted one (or an edge-sensitive one): pending again. */
static void check_repended(uint64_t page, bool be, enum store_form f, const char *what)
{
	unsigned long got;

	setipnum(page, be, f);
	got = claim_within(100);
	check(got == machine.uart_irq, "aia",
	      sfmt("setipnum_%s (%s) of the %s source %u: delivered again", be ? "be" : "le",
		   store_form_name[f], what, machine.uart_irq),
	      sfmt("claimed %lu, sip 0x%lx", got, csr_read(CSR_SIP)));
}

static void check_level(const struct aia_node *aplic, uint64_t page, bool quirk_on)
{
	unsigned long got;

	uart_line(true);
	got = claim_within(100);
	check(got == machine.uart_irq, "aia", sfmt("level source %u, line high: delivered once",
						   machine.uart_irq),
	      sfmt("claimed %lu", got));
	check(r32(aplic->regs[0].base + APLIC_IN_CLRIP(machine.uart_irq)) &
	      1U << (machine.uart_irq % 32), "aia", "in_clrip reads the asserted line as 1",
	      "bit clear");
	for (unsigned int f = 0; quirk_on && f < NR_STORE_FORMS; f++)
		check_repended(page, f & 1, f, "asserted level");
	uart_line(false);
	while (claim_within(5))
		;
	check(!(r32(aplic->regs[0].base + APLIC_IN_CLRIP(machine.uart_irq)) &
		1U << (machine.uart_irq % 32)), "aia", "in_clrip reads the deasserted line as 0",
	      "bit set");
	if (!quirk_on) {
		check_deasserted(page, false, SW_A, "", false);
		return;
	}
	for (unsigned int f = 0; f < NR_STORE_FORMS; f++) {
		check_deasserted(page, false, f, "", true);
		check_deasserted(page, true, f, "", true);
	}
}

/* The page through S-mode's own page tables: a gigapage (megapage) and
 * a 4 KiB alias at another address. */
static void check_translated(uint64_t page)
{
	uart_line(false);
	paging_on(page);
	check_deasserted(page, false, SW_A, ", through an identity superpage", true);
	check_deasserted(ALIAS_VA, false, C_SW, ", 4 KiB page at another address", true);
	uart_line(true);
	(void)claim_within(100);
	check_repended(ALIAS_VA, false, SW_S5, "asserted level (4 KiB alias)");
	uart_line(false);
	paging_off();
	while (claim_within(5))
		;
}

static unsigned int refused_stores(void)
{
	unsigned int n = 0;

	for (unsigned int f = 0; f < NR_BAD_FORMS; f++)
		n += bad_form[f].cause == EXC_STORE_ACCESS;
	return n;
}

static void check_loads_and_refusals(uint64_t page)
{
	unsigned long tval, cause, v;

	for (unsigned int f = 0; f < NR_LOAD_FORMS; f++) {
		v = load_as(f, page + (f & 1 ? 4 : 0));
		check(v == 0, "aia", sfmt("%s of setipnum_%s reads 0, as the device answers",
					  load_form_name[f], f & 1 ? "be" : "le"),
		      sfmt("read 0x%lx", v));
	}
	v = load_as(LW_A, page + 0x10);
	check(v == 0, "aia", "lw of a reserved word of the page reads 0", sfmt("read 0x%lx", v));
	for (unsigned int f = 0; f < NR_BAD_FORMS; f++) {
		uint64_t at = page + bad_form[f].offset;

		cause = try_bad(f, at, &tval);
		check(cause == bad_form[f].cause && (tval & ~7UL) == ((unsigned long)at & ~7UL), "aia",
		      sfmt("%s at 0x%lx: access fault (scause %lu), as on any closed page",
			   bad_form[f].name, (unsigned long)at, bad_form[f].cause),
		      sfmt("scause %lu stval 0x%lx", cause, tval));
	}
}

static void check_setipnum(const struct aia_node *aplic, unsigned long index)
{
	uint64_t page = aplic->regs[0].base + APLIC_SETIPNUM_LE, b = aplic->regs[0].base;
	bool quirk_on = aplic->msi && !boot_arg(machine.bootargs, "setipnum=qemu");
	bool emulated;
	struct sbiret id = sbi_call0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	unsigned long idx[2] = { -1UL, -1UL };
	struct counts c0, c1;

	if (id.error || id.value != IMPL_ID_TALLY)
		return;		/* a board quirk of Tally's */
	idx[0] = fw_counter(FW_TALLY_TRAPS);
	idx[1] = fw_counter(FW_ACCESS_STORE);
	if (idx[0] == -1UL || idx[1] == -1UL) {
		failf("aia", "no firmware counter for events 257 and 3 (%lu, %lu)", idx[0], idx[1]);
		return;
	}
	if (!aplic->msi) {
		c0 = counts_now(idx);
		w32(page, 0);		/* no active source: ignored */
		c1 = counts_now(idx);
		check(c1.traps == c0.traps, "aia",
		      "direct mode: setipnum_le is S-mode's own (the store does not trap)",
		      sfmt("%lu M-mode traps", c1.traps - c0.traps));
		goto out;
	}
	domain_start(aplic, index, APLIC_SM_LEVEL_HIGH);
	c0 = counts_now(idx);
	w32(page, machine.uart_irq);	/* line low: nothing pends, or QEMU pends it */
	c1 = counts_now(idx);
	(void)claim_within(20);
	/*
	 * The firmware asks the APLIC at boot whether it has the quirk
	 * (aplic_setipnum_quirk): QEMU 7.2's does, and the page traps; QEMU
	 * 9.0 and later do it right, and the page is S-mode's own.  Either
	 * way what S-mode sees must be the spec's: without the emulation on
	 * QEMU 7.2 the deasserted checks below fail.
	 */
	emulated = c1.traps - c0.traps == 1;
	if (quirk_on && emulated)
		check(c1.access_faults == c0.access_faults, "aia",
		      "a setipnum_le store traps once to M-mode and counts no access fault "
		      "(events 257 and 3)",
		      sfmt("%lu access faults", c1.access_faults - c0.access_faults));
	else if (quirk_on)
		check(c1.traps == c0.traps, "aia",
		      "the firmware found this APLIC spec-correct at boot: setipnum_le is "
		      "S-mode's own (no trap), and it must behave as the spec says",
		      sfmt("%lu M-mode traps", c1.traps - c0.traps));
	else
		check(c1.traps == c0.traps, "aia",
		      "quirk off: setipnum_le is S-mode's own (the store does not trap)",
		      sfmt("%lu M-mode traps", c1.traps - c0.traps));
	check_level(aplic, page, quirk_on);
	if (quirk_on && !emulated) {
		check_translated(page);
		domain_stop(aplic);
		domain_start(aplic, index, APLIC_SM_EDGE_RISE);
		check_repended(page, false, SW_A, "edge-sensitive (line low)");
	}
	if (quirk_on && emulated) {
		check_translated(page);
		/* the rest of the domain: no trap */
		c0 = counts_now(idx);
		w32(b + APLIC_SETIENUM, machine.uart_irq);
		(void)r32(b + APLIC_SOURCECFG(machine.uart_irq));
		(void)r32(b + APLIC_IN_CLRIP(machine.uart_irq));
		(void)r32(b + APLIC_TARGET(machine.uart_irq));
		c1 = counts_now(idx);
		check(c1.traps == c0.traps, "aia",
		      "the domain's other pages are S-mode's own (no trap)",
		      sfmt("%lu M-mode traps", c1.traps - c0.traps));
		check_loads_and_refusals(page);
		c1 = counts_now(idx);
		check(c1.access_faults - c0.access_faults == refused_stores(), "aia",
		      sfmt("the %u refused stores count as store access faults (event 3)",
			   refused_stores()),
		      sfmt("%lu counted", c1.access_faults - c0.access_faults));
		/* an edge-sensitive source is pending again, line low or not */
		domain_stop(aplic);
		domain_start(aplic, index, APLIC_SM_EDGE_RISE);
		check_repended(page, false, SW_A, "edge-sensitive (line low)");
		check_repended(page, true, C_SW, "edge-sensitive (line low)");
	}
	domain_stop(aplic);
out:
	pmu_release(idx[0]);
	pmu_release(idx[1]);
}

void test_aia(unsigned long hartid)
{
	const struct aia_node *aplic_s = find(false, false), *imsic_s = find(true, false);
	unsigned long index = hart_index(hartid), got;

	if (!machine.naia)
		return;
	check_tree();
	if (imsic_s)
		check_sfile(imsic_s, index);
	if (!aplic_s || !machine.uart_irq) {
		failf("aia", "no S-level APLIC domain or no UART interrupt in the tree");
		return;
	}
	got = device_irq(aplic_s, index);
	check(got == machine.uart_irq, "aia",
	      sfmt("the UART's interrupt (source %u) reaches S-mode through its APLIC domain "
		   "(%s mode)", machine.uart_irq, aplic_s->msi ? "MSI" : "direct"),
	      sfmt("claimed %lu, sip 0x%lx", got, csr_read(CSR_SIP)));
	check_setipnum(aplic_s, index);
}
