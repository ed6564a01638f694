// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU sifive_u (qemu-system-riscv64 -M sifive_u -smp 5), a model of the
 * SiFive FU540 of the HiFive Unleashed.  The generic platform finds the
 * memory, the harts, the CLINT, the console (sifive,uart0) and reset (the
 * "gpio-restart" pin of the sifive,gpio0 controller: cold and warm reboot;
 * the FU540 has no power-off device, so SRST shutdown is NOT_SUPPORTED)
 * through its driver tables (platform/generic/fdt_driver.c); this board
 * adds only that hart 0, the E51 monitor core, has no S-mode: it is
 * parked, never started into S-mode nor offered as a target, and disabled
 * in the next stage's devicetree; the four U54 harts (1-4) run S-mode.
 */
#include <libfdt.h>
#include <tally/board.h>
#include <tally/fdt_helpers.h>
#include <tally/platform.h>

#define E51_HARTID	0
/*
 * Room the tree grows by for status = "disabled" on the E51's cpu node:
 * the property (12 bytes of header, 9 of value, padded: 24) and, should
 * the strings block not hold it yet, the name "status" (7): 64 is ample.
 */
#define E51_DISABLE_ROOM	64

static const char *const sifive_u_compatible[] = {
	"sifive,hifive-unleashed-a00", "sifive,fu540-c000", "sifive,fu540", NULL
};

static int sifive_u_early_init(const void *fdt)
{
	(void)fdt;
	platform_park_hart(E51_HARTID);
	return 0;
}

/* Linux must not try to start the E51 either. */
static void sifive_u_final_init(void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;
	unsigned long hartid;

	if (fdt_open_into(fdt, fdt, fdt_totalsize(fdt) + E51_DISABLE_ROOM))
		return;
	fdt_for_each_subnode(cpu, fdt, cpus) {
		if (!fdt_reg(fdt, cpu, 0, &hartid, NULL) && hartid == E51_HARTID) {
			fdt_setprop_string(fdt, cpu, "status", "disabled");
			break;
		}
	}
	fdt_pack(fdt);
}

const struct board board_sifive_u = {
	.name = "sifive_u",
	.compatible = sifive_u_compatible,
	.early_init = sifive_u_early_init,
	.final_init = sifive_u_final_init,
};
