// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU spike (qemu-system-riscv64 -M spike): memory, harts and CLINT come
 * from the devicetree as on any board; there is no UART and no reset
 * device, only HTIF, which this board makes the console and the power-off
 * (SRST shutdown; reboot is NOT_SUPPORTED).
 *
 * QEMU 7.2 puts HTIF at the address of the devicetree's ucb,htif0 node
 * (fromhost at +0, tohost at +8) when the firmware image has no
 * tohost/fromhost symbols, which Tally's images do not have.
 */
#include <libfdt.h>
#include <tally/board.h>
#include <tally/drivers.h>
#include <tally/fdt_helpers.h>
#include <tally/platform.h>

#define HTIF_TOHOST_OFFSET	8	/* fromhost is at the node's address */

static const char *const spike_compatible[] = { "ucbbar,spike-bare-dev", NULL };
static const char *const htif_compatible[] = { "ucb,htif0", NULL };

static int spike_early_init(const void *fdt)
{
	int node = fdt_find_compatible(fdt, htif_compatible);
	unsigned long base, size;

	if (node < 0 || fdt_reg(fdt, node, 0, &base, &size))
		return 0;		/* no HTIF: silent, no reset */
	htif_init(base + HTIF_TOHOST_OFFSET, base);
	platform_add_mmode_dev(base, size);	/* S-mode uses the SBI console */
	platform.ops.console_putc = htif_putc;
	platform.ops.console_getc = htif_getc;
	platform.console_name = "htif";
	platform.ops.system_reset = htif_poweroff;
	platform.reset_types = SRST_TYPE_BIT(SBI_SRST_TYPE_SHUTDOWN);
	platform.reset_name = "htif";
	return 0;
}

const struct board board_spike = {
	.name = "spike",
	.compatible = spike_compatible,
	.early_init = spike_early_init,
};
