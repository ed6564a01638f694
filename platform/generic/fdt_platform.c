// SPDX-License-Identifier: BSD-2-Clause
/*
 * The generic platform: everything comes from the devicetree the previous
 * stage passed in a1.  QEMU virt is the reference board.  A malformed or
 * missing device is reported and the firmware goes on with what it has.
 * A board (include/tally/board.h, platform/<board>/board.c) then adds or
 * replaces what differs on it.
 */
#include <libfdt.h>
#include <tally/aia.h>
#include <tally/board.h>
#include <tally/console.h>
#include <tally/drivers.h>
#include <tally/fdt_driver.h>
#include <tally/fdt_helpers.h>
#include <tally/fdt_validate.h>
#include <tally/hartmask.h>
#include <tally/platform.h>
#include <tally/riscv.h>

static char model[80];	/* copied: the devicetree moves when it is fixed up */

static const char *const mtimer_compat[] = { "riscv,aclint-mtimer", NULL };

/*
 * platform.harts holds hart indices: those of hart_map, which _start
 * filled from the same cpu nodes (fdt_hart_map) before any hart ran C code
 * on its own stack.  A usable cpu node without an index had no room.
 */
static void harts_setup(const void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;
	unsigned long hartid, index;

	hartmask_clear(&platform.harts);
	platform.timebase_hz = fdt_u32(fdt, cpus, "timebase-frequency", 0);
	fdt_for_each_subnode(cpu, fdt, cpus) {
		if (!fdt_cpu_usable(fdt, cpu, &hartid))
			continue;
		index = hart_map_index(&hart_map, hartid);
		if (index == HART_INDEX_NONE || hartmask_test(&platform.harts, index)) {
			printf("Tally: WARNING: hart %lu ignored (TALLY_MAX_HARTS is %u)\n",
			       hartid, TALLY_MAX_HARTS);
			continue;
		}
		hartmask_set(&platform.harts, index);
		platform.nr_harts++;
	}
}

static void memory_setup(const void *fdt)
{
	int node;

	fdt_for_each_subnode(node, fdt, 0) {
		const char *type = fdt_string_prop(fdt, node, "device_type");
		unsigned long base, size;

		if (!type || strcmp(type, "memory") || !fdt_node_enabled(fdt, node))
			continue;
		for (int i = 0; !fdt_reg(fdt, node, i, &base, &size); i++)
			if (!memmap_add_ram(&platform.mem, base, size))
				printf("Tally: WARNING: memory 0x%lx+0x%lx not used\n", base, size);
	}
}

/*
 * interrupts-extended = <&cpuN_intc irq>, ...: for every entry whose irq
 * matches, call add(hart index, base + stride * (its position among them));
 * a hart without an index is skipped (its position still counts).
 */
static void for_each_hart_context(const void *fdt, int node, uint32_t irq,
				  unsigned long base, unsigned long stride,
				  void (*add)(unsigned long, unsigned long))
{
	int len, n = 0;
	const fdt32_t *ie = fdt_getprop(fdt, node, "interrupts-extended", &len);

	/* cells of <&phandle irq> pairs */
	for (int i = 0; ie && i + 1 < len / (int)sizeof(*ie); i += 2) {
		if (fdt32_to_cpu(ie[i + 1]) != irq)
			continue;
		long hartid = fdt_hartid_of_intc(fdt, fdt32_to_cpu(ie[i]));
		unsigned long index = hartid >= 0 ? hart_map_index(&hart_map, (unsigned long)hartid)
						  : HART_INDEX_NONE;
		if (index != HART_INDEX_NONE)
			add(index, base + stride * n);
		n++;
	}
}

static void mmode_device(const void *fdt, int node, int index)
{
	unsigned long base, size;

	if (!fdt_reg(fdt, node, index, &base, &size) && size)
		platform_add_mmode_dev(base, size);
}

static void ipi_timer_setup(const void *fdt)
{
	int node = fdt_find_compatible(fdt, fdt_clint_compat);
	unsigned long base, base2;

	if (node >= 0 && !fdt_reg(fdt, node, 0, &base, NULL)) {
		mmode_device(fdt, node, 0);
		for_each_hart_context(fdt, node, IRQ_M_SOFT, base, MSWI_MSIP_STRIDE,
				      mswi_add_hart);
		for_each_hart_context(fdt, node, IRQ_M_TIMER, base + CLINT_MTIMECMP_OFFSET,
				      MTIMER_MTIMECMP_STRIDE, mtimer_add_hart);
		mtimer_set_mtime(base + CLINT_MTIME_OFFSET);
		platform.ipi_name = platform.timer_name = "clint";
	}
	node = fdt_find_compatible(fdt, fdt_mswi_compat);
	if (node >= 0 && !fdt_reg(fdt, node, 0, &base, NULL)) {
		mmode_device(fdt, node, 0);
		for_each_hart_context(fdt, node, IRQ_M_SOFT, base, MSWI_MSIP_STRIDE,
				      mswi_add_hart);
		platform.ipi_name = "aclint-mswi";
	}
	node = fdt_find_compatible(fdt, mtimer_compat);
	if (node >= 0 && !fdt_reg(fdt, node, 0, &base, NULL) &&
	    !fdt_reg(fdt, node, 1, &base2, NULL)) {
		/* reg[0] is mtime, reg[1] the mtimecmp array (QEMU's layout) */
		mmode_device(fdt, node, 0);
		mmode_device(fdt, node, 1);
		mtimer_set_mtime(base);
		for_each_hart_context(fdt, node, IRQ_M_TIMER, base2, MTIMER_MTIMECMP_STRIDE,
				      mtimer_add_hart);
		platform.timer_name = "aclint-mtimer";
	}
	if (platform.ipi_name) {
		platform.ops.ipi_send = platform.ops.boot_wake = mswi_send;
		platform.ops.ipi_clear = platform.ops.boot_wake_clear = mswi_clear;
		platform.ipi_mip = MIP_MSIP;
	}
	if (platform.timer_name) {
		platform.ops.timer_value = mtimer_value;
		platform.ops.timer_set = mtimer_set;
	}
}

/*
 * AIA (include/tally/aia.h): every M-level APLIC domain hands its sources
 * to S-mode's domain as the devicetree delegates them; the IMSIC's M-files
 * carry the firmware's IPIs when every hart has one (else the MSWI stays
 * the IPI device).  Both are M-mode's: PMP closes them, and the next
 * stage's tree gets them disabled (fdt_aia_fixup).
 */
static struct aia_desc aia;	/* filled at cold boot; its S-level domains stay the trap pages' ctx */
static char irqchip[120];

static void aia_warn(void *ctx, const char *msg)
{
	(void)ctx;
	printf("Tally: WARNING: %s\n", msg);
}

static bool imsic_serves_every_hart(const struct imsic_desc *m)
{
	unsigned long h;

	for_each_hart_in(h, &platform.harts)
		if (!m->file[h])
			return false;
	return true;
}

static void imsic_setup(const struct imsic_desc *m)
{
	unsigned long h;

	for (unsigned int i = 0; i < m->nr_regs; i++)
		platform_add_mmode_dev(m->regs[i].base, m->regs[i].size);
	if (!imsic_serves_every_hart(m)) {
		printf("Tally: WARNING: IMSIC M-files do not cover every hart: IPIs through %s\n",
		       platform.ipi_name ? platform.ipi_name : "nothing");
		return;
	}
	for_each_hart_in(h, &platform.harts)
		imsic_add_hart(h, m->file[h]);
	imsic_set_num_ids(m->num_ids);
	platform.ops.ipi_send = imsic_ipi_send;
	platform.ops.ipi_clear = imsic_ipi_clear;
	platform.ops.irq_hart_init = imsic_hart_init;
	platform.ipi_mip = MIP_MEIP;
	platform.ipi_name = "imsic";
}

static unsigned int sources_delegated(const struct aplic_desc *d)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < d->nr_delegations; i++)
		n += d->deleg[i].last - d->deleg[i].first + 1;
	return n;
}

static void aia_setup(const void *fdt)
{
	const struct imsic_desc *m = &aia.imsic_m;
	int len = 0;

	fdt_aia_parse(fdt, &hart_map, &aia, aia_warn, NULL);
	for (unsigned int i = 0; i < aia.nr_aplics; i++) {
		const struct aplic_desc *d = &aia.aplic[i];

		aplic_init_mlevel(d);
		platform_add_mmode_dev(d->base, d->size);
		if (len < (int)sizeof(irqchip))
			len += snprintf(irqchip + len, sizeof(irqchip) - len,
					"%sAPLIC 0x%lx (%s, %u/%u sources delegated)",
					len ? ", " : "", d->base, d->msi_mode ? "MSI" : "direct",
					sources_delegated(d), d->num_sources);
	}
	if (m->present) {
		imsic_setup(m);
		if (len < (int)sizeof(irqchip))
			snprintf(irqchip + len, sizeof(irqchip) - len, "%sIMSIC M-files 0x%lx%s",
				 len ? ", " : "", m->regs[0].base,
				 platform.ops.ipi_send == imsic_ipi_send ? " (IPIs)" : "");
	}
	platform.irqchip_name = aia.nr_aplics || m->present ? irqchip : NULL;
}

/*
 * BOARD_QUIRK_APLIC_SETIPNUM (include/tally/board.h): the setipnum page
 * of every S-level domain in MSI mode is S-mode's through the firmware
 * (aplic_setipnum_store).  In direct mode a write of setipnum never sets
 * a level-sensitive source pending, on QEMU 7.2 too: nothing to absorb.
 * Whether PMP has an entry for each page is decided once the harts'
 * PMP is known (pmp_check_trap_pages, which may turn it off).
 */
static void aplic_quirk_setup(void)
{
	platform.nr_trap_pages = 0;
	platform.quirks_name = NULL;
	if (!(board->quirks & BOARD_QUIRK_APLIC_SETIPNUM))
		return;
	for (unsigned int i = 0; i < aia.nr_slevel_aplics && i < AIA_MAX_SLEVEL_APLICS; i++) {
		const struct aplic_slevel *d = &aia.slevel[i];
		struct platform_trap_page pg = { .base = d->base + APLIC_SETIPNUM_PAGE,
						 .store32 = aplic_setipnum_store, .ctx = d };

		if (!d->msi_mode || d->size < APLIC_SETIPNUM_PAGE + PLATFORM_TRAP_PAGE_SIZE ||
		    d->base & (PLATFORM_TRAP_PAGE_SIZE - 1))
			continue;
		if (!platform_add_trap_page(&pg))
			printf("Tally: WARNING: APLIC 0x%lx: no room for its setipnum page: "
			       "QEMU 7.2's setipnum quirk not absorbed there\n", d->base);
	}
	if (platform.nr_trap_pages)
		platform.quirks_name = "APLIC setipnum (QEMU < 9.0)";
}

int platform_init(void *fdt)
{
	if (fdt_check_header(fdt))
		return -1;	/* no devicetree, no console to say so */
	/*
	 * The whole tree is validated once, before the first walk.  A tree
	 * that fails still boots when it can (docs/security.md): the lookups
	 * below only read inside the blob, but nothing calls fdt_get_path(),
	 * the riscv,pmu map is not read and the tree is not written.
	 */
	platform.fdt_err = fdt_validate(fdt, fdt_totalsize(fdt));
	/*
	 * A tree whose token chain does not reach FDT_END moving strictly
	 * forward (a property length of -12 makes libfdt's walkers loop on
	 * one token forever), or whose blocks are misaligned, is not read
	 * at all, like a bad header: no console can be found to say so and
	 * the boot hart halts (docs/security.md).
	 */
	if (!fdt_walkable(fdt, fdt_totalsize(fdt)))
		return -1;
	board_select(fdt);
	console_set_device(NULL);
	platform.ipi_name = platform.timer_name = NULL;
	platform.irqchip_name = NULL;
	platform.reset_name = "none";
	platform.reset_types = 0;
	platform.ops.system_reset = NULL;
	platform.nr_mmode_devs = 0;
	fdt_driver_console_setup(fdt);
	if (platform.fdt_err)
		printf("Tally: devicetree structure invalid (%s): devices found by read-only lookups, "
		       "riscv,pmu map and /reserved-memory fixup skipped\n",
		       fdt_strerror(platform.fdt_err));
	const char *name = fdt_string_prop(fdt, 0, "model");
	if (!name)
		name = fdt_string_prop(fdt, 0, "compatible");
	snprintf(model, sizeof(model), "%s (board %s)", name ? name : "generic", board->name);
	platform.name = model;
	harts_setup(fdt);
	memory_setup(fdt);
	ipi_timer_setup(fdt);
	aia_setup(fdt);
	aplic_quirk_setup();
	fdt_driver_reset_setup(fdt);
	if (board->early_init && board->early_init(fdt)) {
		printf("Tally: board %s: initialisation failed\n", board->name);
		return -1;
	}
	if (!platform.ipi_name) {
		printf("Tally: no IPI device (IMSIC M-files, CLINT or ACLINT MSWI) "
		       "in the devicetree: cannot run\n");
		return -1;
	}
	if (!platform.timer_name)
		platform.timer_name = "none";
	return 0;
}
