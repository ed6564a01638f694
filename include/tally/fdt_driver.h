/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The device drivers the generic platform matches from the devicetree
 * (platform/generic/fdt_driver.c): one entry a driver, {name, compatible
 * strings, probe}, in the table of its class.  The generic platform walks
 * the tables; a board file says only what differs from them.  Adding a
 * device is one entry and its probe (docs/architecture.md, Adding a device).
 */
#ifndef TALLY_FDT_DRIVER_H
#define TALLY_FDT_DRIVER_H

struct fdt_driver {
	const char *name;			/* for the banner */
	const char *const *compatible;		/* NULL-terminated */
	/* Set the device of this node up and register it; 0 when it serves. */
	int (*probe)(const void *fdt, int node, const struct fdt_driver *drv);
};

/*
 * The console: the /chosen/stdout-path node when a console driver knows
 * it, else the first node (in table order) one of them knows.
 */
void fdt_driver_console_setup(const void *fdt);
/*
 * IPIs: the first driver of the table whose device is found (ACLINT MSWI,
 * then CLINT) carries them and wakes the harts at the end of cold boot.
 * Then the M-level IMSIC that fdt_aia_parse() found (imsic_m, present or
 * not) takes the IPIs over when every hart has an M-file; else a warning
 * names the device that keeps them.  Call it once platform.harts is
 * filled: the IMSIC's rule reads it.
 */
struct imsic_desc;
void fdt_driver_ipi_setup(const void *fdt, const struct imsic_desc *imsic_m);
/* Machine timer: the first driver whose device is found (ACLINT MTIMER, then CLINT). */
void fdt_driver_timer_setup(const void *fdt);
/* System reset: the first driver of the table whose device is found. */
void fdt_driver_reset_setup(const void *fdt);

#endif
