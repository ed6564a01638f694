// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU sifive_u (qemu-system-riscv64 -M sifive_u -smp 5), a model of the
 * SiFive FU540 of the HiFive Unleashed.  The generic platform finds the
 * memory, the harts and the CLINT; this board adds
 *  - hart 0, the E51 monitor core, has no S-mode: it is parked, never
 *    started into S-mode nor offered as a target, and disabled in the
 *    next stage's devicetree; the four U54 harts (1-4) run S-mode;
 *  - the console: sifive,uart0;
 *  - reset: the "gpio-restart" pin of the sifive,gpio0 controller (cold
 *    and warm reboot; the FU540 has no power-off device, so SRST shutdown
 *    is NOT_SUPPORTED).
 */
#include <libfdt.h>
#include <tally/board.h>
#include <tally/drivers.h>
#include <tally/fdt_helpers.h>
#include <tally/platform.h>

#define E51_HARTID	0
#define GPIO_ACTIVE_LOW	1	/* flag cell of a "gpios" specifier */

static const char *const sifive_u_compatible[] = {
	"sifive,hifive-unleashed-a00", "sifive,fu540-c000", "sifive,fu540", NULL
};
static const char *const uart_compatible[] = { "sifive,uart0", NULL };

static void console_setup(const void *fdt)
{
	int node = platform_stdout_node(fdt);
	unsigned long base;

	if (node < 0 || fdt_node_check_compatible(fdt, node, "sifive,uart0"))
		node = fdt_find_compatible(fdt, uart_compatible);
	if (node < 0 || fdt_reg(fdt, node, 0, &base, NULL))
		return;
	/* the UART's clock comes from the PRCI: keep the divisor set before us */
	sifive_uart_init(base, 0, 0);
	platform.ops.console_putc = sifive_uart_putc;
	platform.ops.console_getc = sifive_uart_getc;
	platform.console_name = "sifive,uart0";
}

/* gpio-restart { gpios = <&gpio pin flags>; } */
static void reset_setup(const void *fdt)
{
	int node = fdt_node_offset_by_compatible(fdt, -1, "gpio-restart"), len, gpio;
	const fdt32_t *spec = node >= 0 ? fdt_getprop(fdt, node, "gpios", &len) : NULL;
	unsigned long base;

	if (!spec || len < 3 * 4)
		return;
	gpio = fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(spec[0]));
	if (gpio < 0 || fdt_node_check_compatible(fdt, gpio, "sifive,gpio0") ||
	    fdt_reg(fdt, gpio, 0, &base, NULL))
		return;
	gpio_restart_init(base, fdt32_to_cpu(spec[1]),
			  fdt32_to_cpu(spec[2]) & GPIO_ACTIVE_LOW);
	platform.ops.system_reset = gpio_restart;
	platform.reset_types = SRST_TYPES_REBOOT;
	platform.reset_name = "gpio-restart";
}

static int sifive_u_early_init(const void *fdt)
{
	console_setup(fdt);
	reset_setup(fdt);
	platform_park_hart(E51_HARTID);
	return 0;
}

/* Linux must not try to start the E51 either. */
static void sifive_u_final_init(void *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;
	unsigned long hartid;

	if (fdt_open_into(fdt, fdt, fdt_totalsize(fdt) + 64))
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
