/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Physical memory S-mode may hand to the firmware: RAM from the devicetree
 * minus the firmware's own region.  Pure logic, unit-tested on the host.
 */
#ifndef TALLY_MEMREGION_H
#define TALLY_MEMREGION_H

#include <stdbool.h>

#define MEMREGION_MAX	8

struct memregion {
	unsigned long base;
	unsigned long size;	/* 0 = unused slot */
};

struct memmap {
	struct memregion ram[MEMREGION_MAX];
	unsigned int nr_ram;
	unsigned long fw_base;
	unsigned long fw_size;
};

/* Adds a RAM range; false if the table is full or the range wraps. */
bool memmap_add_ram(struct memmap *map, unsigned long base, unsigned long size);

/*
 * True when [addr, addr + len) lies wholly inside one RAM range, does not wrap
 * around the address space and does not touch the firmware region.  The
 * upper half 'addr_hi' of a 2*XLEN-bit address must be zero.  len == 0 is
 * accepted for any address (nothing will be accessed).
 */
bool memmap_smode_range_ok(const struct memmap *map, unsigned long addr_lo,
			   unsigned long addr_hi, unsigned long len);

/* True when addr is RAM outside the firmware: a valid S-mode entry point. */
bool memmap_smode_entry_ok(const struct memmap *map, unsigned long addr);

#endif
