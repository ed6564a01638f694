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

#define PLATFORM_MMODE_DEVS	4

struct platform_ops {
	/* console (required for output; getc returns -1 when nothing waits) */
	void (*console_putc)(char c);
	int (*console_getc)(void);
	/* inter-processor interrupts: raise / clear machine software irq (of a hart index) */
	void (*ipi_send)(unsigned long index);
	void (*ipi_clear)(unsigned long index);
	/* machine timer */
	uint64_t (*timer_value)(void);
	void (*timer_set)(unsigned long index, uint64_t when);
	/* system reset: SBI_SRST_TYPE_*, SBI_SRST_REASON_*; may return if absent */
	void (*system_reset)(unsigned long type, unsigned long reason);
};

struct platform {
	const char *name;		/* board/model name for the banner */
	struct platform_ops ops;
	struct hartmask harts;		/* hart indices that exist and S-mode may use */
	unsigned long nr_harts;
	struct memmap mem;		/* RAM and the firmware region */
	/* M-mode-only device registers (MSWI, MTIMER, CLINT): PMP closes them */
	struct memregion mmode_dev[PLATFORM_MMODE_DEVS];
	unsigned int nr_mmode_devs;
	unsigned long timebase_hz;
	bool has_sstc;
	const char *console_name;
	const char *ipi_name;
	const char *timer_name;
	const char *reset_name;
	int fdt_err;			/* 0, or what fdt_validate() refused */
};

extern struct platform platform;

/* Implemented by each board: fill 'platform' at cold boot. 0 on success. */
int platform_init(void *fdt);

#endif
