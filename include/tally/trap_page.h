/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A device page S-mode reaches through the firmware: declared below the
 * platform (tally/platform.h holds the table of them) so that a driver of
 * lib/utils (the APLIC's setipnum quirk) can serve one without including
 * the platform.
 */
#ifndef TALLY_TRAP_PAGE_H
#define TALLY_TRAP_PAGE_H

#include <stdbool.h>
#include <stdint.h>

#define PLATFORM_TRAP_PAGE_SIZE	4096UL

/*
 * A page of device registers S-mode reaches only through the firmware,
 * for a device quirk the firmware absorbs: PMP closes it to S/U-mode like
 * an M-mode device, and an aligned 32-bit load or store S-mode makes
 * there is emulated (lib/sbi/emulate.c): a load reads the register
 * as the hardware answers it, a store goes to store32, which writes the
 * hardware as the quirk requires (true) or refuses the access (false:
 * S-mode gets its access fault, as for any closed page).
 */
struct platform_trap_page {
	unsigned long base;		/* physical, PLATFORM_TRAP_PAGE_SIZE aligned */
	bool (*store32)(const struct platform_trap_page *pg, unsigned long offset,
			uint32_t value);
	const void *ctx;		/* store32's device */
};

#endif
