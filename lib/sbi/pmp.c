// SPDX-License-Identifier: BSD-2-Clause
/*
 * PMP: what S/U-mode may not touch.  Every hart programs the same entries
 * at boot and at every HSM start (hart_init_local):
 *   - the firmware region (code, data, every hart's stack): no access;
 *   - every M-mode device region the platform lists (ACLINT MSWI and
 *     MTIMER, the SiFive CLINT, APLIC M-level domains, IMSIC M-files): no
 *     access, so S-mode can neither raise another hart's msip nor move its
 *     mtimecmp or mtime;
 *   - every device page the firmware emulates for S-mode (a board quirk,
 *     platform.trap_page): no access, so that S-mode's accesses trap to
 *     lib/sbi/emulate.c; only if every entry above has its place and
 *     the last one is left (pmp_check_trap_pages decides at cold boot);
 *   - then one entry opening everything else.
 * The lowest-numbered matching entry wins, so the closed regions come first.
 * A region whose base and size suit NAPOT takes one entry, any other takes
 * two (TOR).  Entries without the L bit do not restrict M-mode itself.
 */
#include <tally/console.h>
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/platform.h>

#define PMP_ENTRIES	16	/* the most a hart may have on RV64 with pmpcfg0/2 */

/* CSR numbers are instruction immediates: a switch over the 16 entries. */
static bool pmpaddr_write(unsigned int n, unsigned long value)
{
	switch (n) {
#define W(i) case i: return csr_write_guarded(CSR_PMPADDR0 + i, value);
	W(0) W(1) W(2) W(3) W(4) W(5) W(6) W(7)
	W(8) W(9) W(10) W(11) W(12) W(13) W(14) W(15)
#undef W
	}
	return false;
}

static bool pmpaddr_read(unsigned int n, unsigned long *value)
{
	bool ok = false;

	switch (n) {
#define R(i) case i: *value = csr_read_guarded(CSR_PMPADDR0 + i, &ok); break;
	R(0) R(1) R(2) R(3) R(4) R(5) R(6) R(7)
	R(8) R(9) R(10) R(11) R(12) R(13) R(14) R(15)
#undef R
	}
	return ok;
}

/*
 * The hart's PMP entries (at most PMP_ENTRIES): those whose pmpaddr holds
 * a value written to it.  Cold boot, before pmp_protect, on the boot hart.
 */
unsigned int pmp_probe_count(void)
{
	unsigned long v = 0;
	unsigned int n;

	for (n = 0; n < PMP_ENTRIES; n++) {
		bool ok = pmpaddr_write(n, ~0UL) && pmpaddr_read(n, &v);

		pmpaddr_write(n, 0);
		if (!ok || !v)
			break;
	}
#ifdef TALLY_TEST_PMP_ENTRIES	/* a test build: a hart with fewer entries */
	if (n > TALLY_TEST_PMP_ENTRIES)
		n = TALLY_TEST_PMP_ENTRIES;
#endif
	return n;
}

static unsigned long pmp_warned;	/* say it once, not once per hart */

struct pmp_plan {
	unsigned long addr[PMP_ENTRIES];
	unsigned char cfg[PMP_ENTRIES];
	unsigned int used;
};

static bool is_napot(unsigned long base, unsigned long size)
{
	return size >= 8 && !(size & (size - 1)) && !(base & (size - 1));
}

/* Adds a no-access entry (or TOR pair) for [base, base + size). */
static bool plan_closed(struct pmp_plan *p, unsigned long base, unsigned long size)
{
	if (!size || base + size < base)
		return false;
	if (is_napot(base, size)) {
		if (p->used + 1 > PMP_ENTRIES - 1)
			return false;
		p->addr[p->used] = (base | (size / 2 - 1)) >> PMP_SHIFT;
		p->cfg[p->used++] = PMP_A_NAPOT;
		return true;
	}
	if (p->used + 2 > PMP_ENTRIES - 1 || (base | size) & 3)
		return false;
	p->addr[p->used] = base >> PMP_SHIFT;
	p->cfg[p->used++] = 0;			/* OFF: only the TOR's bottom */
	p->addr[p->used] = (base + size) >> PMP_SHIFT;
	p->cfg[p->used++] = PMP_A_TOR;
	return true;
}

/* The firmware and the M-mode devices, as many as fit. */
static void plan_mmode_regions(struct pmp_plan *p)
{
	p->used = 0;
	plan_closed(p, platform.mem.fw_base, platform.mem.fw_size);
	for (unsigned int i = 0; i < platform.nr_mmode_devs; i++) {
		const struct memregion *d = &platform.mmode_dev[i];

		if (!plan_closed(p, d->base, d->size) &&
		    !__atomic_exchange_n(&pmp_warned, 1UL, __ATOMIC_RELAXED))
			printf("Tally: WARNING: no PMP entry left for M-mode device "
			       "0x%lx+0x%lx: S-mode can reach it\n", d->base, d->size);
	}
}

static void plan_regions(struct pmp_plan *p)
{
	plan_mmode_regions(p);
	/* every page fits: pmp_check_trap_pages kept only those */
	for (unsigned int i = 0; i < platform.nr_trap_pages; i++)
		plan_closed(p, platform.trap_page[i].base, PLATFORM_TRAP_PAGE_SIZE);
	p->addr[p->used] = ~0UL;		/* everything else: S/U may use it */
	p->cfg[p->used++] = PMP_A_NAPOT | PMP_R | PMP_W | PMP_X;
}

/*
 * Cold boot, once the hart's PMP entries are counted (pmp_probe_count):
 * the trap pages that have an entry after the firmware's and the M-mode
 * devices', with the last entry left to open the rest.  A page without
 * one is not emulated: S-mode reaches the device directly, quirk and all,
 * and the boot log says so.
 */
void pmp_check_trap_pages(void)
{
	unsigned int budget = hart_features.pmp_count;
	struct pmp_plan p;

	if (budget > PMP_ENTRIES)
		budget = PMP_ENTRIES;
	plan_mmode_regions(&p);
	while (platform.nr_trap_pages && p.used + platform.nr_trap_pages + 1 > budget) {
		platform.nr_trap_pages--;
		printf("Tally: WARNING: no PMP entry left for page 0x%lx (%u entries, %u "
		       "taken): %s not absorbed there\n",
		       platform.trap_page[platform.nr_trap_pages].base, budget, p.used + 1,
		       platform.quirks_name);
	}
	if (!platform.nr_trap_pages)
		platform.quirks_name = NULL;
}

void pmp_protect(void)
{
	/* a pmpcfg CSR holds XLEN / 8 entries: RV64 has pmpcfg0 (entries 0-7)
	 * and pmpcfg2 (8-15), RV32 pmpcfg0, 1, 2 and 3 (4 entries each) */
	const unsigned int per_cfg = sizeof(unsigned long);
	unsigned long cfg[PMP_ENTRIES / 4] = { 0 };
	struct pmp_plan p;

	if (!pmpaddr_write(0, 0))
		return;		/* no PMP: nothing to program */
	plan_regions(&p);
	for (unsigned int i = 0; i < p.used; i++) {
		if (!pmpaddr_write(i, p.addr[i]))
			return;	/* fewer entries than planned: keep S-mode out */
		cfg[i / per_cfg] |= (unsigned long)p.cfg[i] << (8 * (i % per_cfg));
	}
#if __riscv_xlen == 32
	if (p.used > 12)
		csr_write_guarded(pmpcfg3, cfg[3]);
	if (p.used > 8)
		csr_write_guarded(pmpcfg2, cfg[2]);
	if (p.used > 4)
		csr_write_guarded(pmpcfg1, cfg[1]);
#else
	if (p.used > 8)
		csr_write_guarded(pmpcfg2, cfg[1]);
#endif
	csr_write_guarded(pmpcfg0, cfg[0]);
	sfence_vma_all();	/* no translation cached under the old PMP */
}
