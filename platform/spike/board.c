// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU spike (qemu-system-riscv64 -M spike): memory, harts and CLINT come
 * from the devicetree as on any board; there is no UART and no reset
 * device, only HTIF (ucb,htif0), which the generic driver tables
 * (platform/generic/fdt_driver.c) make the console and the power-off
 * (SRST shutdown; reboot is NOT_SUPPORTED).  Nothing differs: the board
 * is only its name for the banner and its image addresses (board.mk).
 */
#include <tally/board.h>

static const char *const spike_compatible[] = { "ucbbar,spike-bare-dev", NULL };

const struct board board_spike = {
	.name = "spike",
	.compatible = spike_compatible,
};
