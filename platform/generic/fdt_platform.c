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

static char model[80];	/* copied: the devicetree moves when it is fixed up */

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
 * AIA (include/tally/aia.h): every M-level APLIC domain hands its sources
 * to S-mode's domain as the devicetree delegates them; the IMSIC's M-files
 * carry the firmware's IPIs when every hart has one (fdt_driver_ipi_setup,
 * which reads them from the parse).  Both are M-mode's, IPIs or not: PMP
 * closes them, and the next stage's tree gets them disabled (fdt_aia_fixup).
 */
static struct aia_desc aia;	/* filled at cold boot; its S-level domains stay the trap pages' ctx */
static char irqchip[120];

static void aia_warn(void *ctx, const char *msg)
{
	(void)ctx;
	printf("Tally: WARNING: %s\n", msg);
}

static unsigned int sources_delegated(const struct aplic_desc *d)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < d->nr_delegations; i++)
		n += d->deleg[i].last - d->deleg[i].first + 1;
	return n;
}

/* After fdt_aia_parse and the IPI set-up, which decides the IMSIC's "(IPIs)". */
static void aia_setup(void)
{
	const struct imsic_desc *m = &aia.imsic_m;
	int len = 0;

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
		for (unsigned int i = 0; i < m->nr_regs; i++)
			platform_add_mmode_dev(m->regs[i].base, m->regs[i].size);
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
 * (aplic_setipnum_store), when the domain shows the quirk at boot
 * (aplic_setipnum_quirk: QEMU 7.2 does, 9.0 and later do not, and then
 * S-mode's interrupt ends cost no trap).  In direct mode a write of
 * setipnum never sets a level-sensitive source pending, on QEMU 7.2 too:
 * nothing to absorb.
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
		if (!aplic_setipnum_quirk(d))
			continue;	/* asked at boot: this APLIC does it right */
		if (!platform_add_trap_page(&pg))
			printf("Tally: WARNING: APLIC 0x%lx: no room for its setipnum page: "
			       "QEMU 7.2's setipnum quirk not absorbed there\n", d->base);
	}
	if (platform.nr_trap_pages)
		platform.quirks_name = "APLIC setipnum (found at boot, as in QEMU < 9.0)";
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
	/* the AIA first: its IMSIC M-files may carry the IPIs */
	fdt_aia_parse(fdt, &hart_map, &aia, aia_warn, NULL);
	fdt_driver_ipi_setup(fdt, &aia.imsic_m);
	fdt_driver_timer_setup(fdt);
	aia_setup();
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
