/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a board provides.  The generic platform fills this from the
 * devicetree; a board with fixed hardware may fill it statically.  See
 * docs/porting.md.
 */
#ifndef TALLY_PLATFORM_H
#define TALLY_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>
#include <tally/hartmask.h>
#include <tally/memregion.h>
#include <tally/sbi_spec.h>
#include <tally/trap_page.h>

#define PLATFORM_MMODE_DEVS	8
#define PLATFORM_TRAP_PAGES	4

/* The console is not here: its driver registers it (console_set_device). */
struct platform_ops {
	/*
	 * inter-processor interrupts: raise the M-level interrupt of a hart
	 * index (platform.ipi_mip: MSIP for an MSWI, MEIP for IMSIC M-files);
	 * clear the calling hart's own (index: its index)
	 */
	void (*ipi_send)(unsigned long index);
	void (*ipi_clear)(unsigned long index);
	/*
	 * Wake a hart that waits in _start for the end of cold boot (before
	 * any per-hart set-up), and clear that wake-up on the hart itself:
	 * the MSWI's msip.  NULL: such harts poll instead of sleeping
	 * (hart_map_boot tells them, boot_wait_poll).
	 */
	void (*boot_wake)(unsigned long index);
	void (*boot_wake_clear)(unsigned long index);
	/* the calling hart's interrupt controller (IMSIC M-file), every start */
	void (*irq_hart_init)(void);
	/* machine timer */
	uint64_t (*timer_value)(void);
	void (*timer_set)(unsigned long index, uint64_t when);
	/* system reset: SBI_SRST_TYPE_*, SBI_SRST_REASON_*; only called for a
	 * type in platform.reset_types; may return if the device failed */
	void (*system_reset)(unsigned long type, unsigned long reason);
};

/* platform.reset_types: bit t set when system_reset can do SBI_SRST_TYPE_ t */
#define SRST_TYPE_BIT(t)	(1U << (t))
#define SRST_TYPES_REBOOT	(SRST_TYPE_BIT(SBI_SRST_TYPE_COLD_REBOOT) | \
				 SRST_TYPE_BIT(SBI_SRST_TYPE_WARM_REBOOT))
#define SRST_TYPES_ALL		(SRST_TYPE_BIT(SBI_SRST_TYPE_SHUTDOWN) | SRST_TYPES_REBOOT)

struct platform {
	const char *name;		/* board/model name for the banner */
	struct platform_ops ops;
	struct hartmask harts;		/* hart indices that exist and S-mode may use */
	unsigned long nr_harts;
	struct memmap mem;		/* RAM and the firmware region */
	/* M-mode-only device registers (MSWI, MTIMER, CLINT, APLIC M-level
	 * domains, IMSIC M-files): PMP closes them */
	struct memregion mmode_dev[PLATFORM_MMODE_DEVS];
	unsigned int nr_mmode_devs;
	/* device pages S-mode reaches through the firmware (a quirk): PMP
	 * closes them after the M-mode devices, emulate.c serves them */
	struct platform_trap_page trap_page[PLATFORM_TRAP_PAGES];
	unsigned int nr_trap_pages;
	const char *quirks_name;	/* board quirks in force, for the banner; NULL: none */
	unsigned long timebase_hz;
	bool has_sstc;
	const char *ipi_name;
	unsigned long ipi_mip;		/* the mip/mie bit an IPI raises */
	const char *irqchip_name;	/* AIA devices set up, for the banner; NULL: none */
	const char *timer_name;
	const char *reset_name;
	unsigned int reset_types;	/* SRST_TYPE_BIT()s system_reset can do */
	int fdt_err;			/* 0, or what fdt_validate() refused */
};

extern struct platform platform;

/*
 * The generic platform (platform/generic/fdt_platform.c): fill 'platform' from
 * the devicetree at cold boot, choose the board (include/tally/board.h)
 * and run its early_init.  0 on success.
 */
int platform_init(void *fdt);

/* For boards (early_init): the generic code's building blocks. */
int platform_stdout_node(const void *fdt);	/* /chosen/stdout-path's node, or < 0 */
void platform_add_mmode_dev(unsigned long base, unsigned long size);	/* PMP-closed */
/* A page S-mode reaches through the firmware (struct platform_trap_page);
 * false when the table is full. */
bool platform_add_trap_page(const struct platform_trap_page *pg);
/* Take a hart out of platform.harts: never started into S-mode, never an
 * HSM/IPI/RFENCE target; it parks in M-mode (warm_boot). */
void platform_park_hart(unsigned long hartid);

#endif
