// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU virt (qemu-system-riscv64 -M virt): the generic platform does
 * everything from the devicetree; the board adds what no devicetree says,
 * the counter quirk of QEMU's PMU.
 */
#include <tally/board.h>

static const char *const virt_compatible[] = { "riscv-virtio", NULL };

/*
 * QEMU 7.2 binds an event to one programmable counter: a second counter
 * with the same selector silently counts nothing.
 */
static void virt_pmu_init(struct board_pmu *pmu)
{
	pmu->quirks = PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT;
}

const struct board board_virt = {
	.name = "virt",
	.compatible = virt_compatible,
	.pmu_init = virt_pmu_init,
};
