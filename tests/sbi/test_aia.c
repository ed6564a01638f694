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
 *
 * The IDC and MSI hart index of a hart is its position among the cpus,
 * as on QEMU virt.  Everything is put back afterwards.
 */
#include "test.h"

#define CSR_SISELECT	0x150
#define CSR_SIREG	0x151
#define CSR_STOPEI	0x15c
#define IMSIC_EIDELIVERY 0x70
#define IMSIC_EITHRESHOLD 0x72
#define IMSIC_EIE0	0xc0
#define SIP_SEIP	(1UL << IRQ_S_EXT)

#define APLIC_DOMAINCFG		0x0000
#define APLIC_DOMAINCFG_IE	(1U << 8)
#define APLIC_DOMAINCFG_DM	(1U << 2)
#define APLIC_SOURCECFG(s)	(0x0004 + 4 * ((s) - 1))
#define APLIC_SM_LEVEL_HIGH	6
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
}
