// SPDX-License-Identifier: BSD-2-Clause
/*
 * QEMU virt (qemu-system-riscv64 -M virt): the generic platform does
 * everything from the devicetree; the board adds what no devicetree says,
 * the counter quirk of QEMU's PMU and its APLIC's setipnum quirk.
 */
#include <tally/board.h>

static const char *const virt_compatible[] = { "riscv-virtio", NULL };

/*
 * QEMU (7.2 to 11.1) binds an event to one programmable counter: a second
 * counter with the same selector silently counts nothing.  And a
 * cycles/instret counter written far from overflow swallows its next
 * overflow (irq_overflow_left; include/tally/pmu.h, lib/pmu/pmu_hw.c).
 */
static void virt_pmu_init(struct board_pmu *pmu)
{
	pmu->quirks = PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT |
		      PMU_HART_QUIRK_FAR_START_SWALLOWS;
}

/*
 * QEMU 7.2's APLIC (hw/intc/riscv_aplic.c, riscv_aplic_set_pending) sets
 * a level-sensitive source pending on every setipnum_le/_be write in MSI
 * mode, asserted or not; fixed in QEMU 9.0 ("hw/intc/riscv_aplic: Fix
 * setipnum_le write emulation for APLIC MSI-mode"), not in 7.2.x.  Linux
 * 6.12 writes setipnum_le after every level-triggered interrupt: each
 * would fire forever.  With aia=aplic-imsic the firmware emulates those
 * writes as the AIA spec says (docs/porting.md); a fixed QEMU loses
 * nothing by it.
 */
#ifdef TALLY_TEST_SSE_EVENTS
/*
 * A test build (make TALLY_TEST_SSE_EVENTS=1): the board's own SSE events,
 * declared as a board with a platform event source would; the refused
 * ones are there to be seen refused at boot and from S-mode
 * (tests/sbi/test_sse.c, bootargs "board-events").
 */
static const struct board_sse_event virt_test_sse_events[] = {
	{ 0x4001, true },
	{ 0x4001, true },	/* refused: added already */
	{ 0xc001, true },	/* refused: a global id */
	{ 0x4002, false },
	{ 0x4003, true },	/* refused: SSE_NR_BOARD (2) full */
	{ 0, false },
};
#endif

const struct board board_virt = {
	.name = "virt",
	.quirks = BOARD_QUIRK_APLIC_SETIPNUM,
	.compatible = virt_compatible,
	.pmu_init = virt_pmu_init,
#ifdef TALLY_TEST_SSE_EVENTS
	.sse_events = virt_test_sse_events,
#endif
};
