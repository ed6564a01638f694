// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the generic platform found (struct platform), and the building
 * blocks that fill it for the devicetree walk (platform.c), the driver
 * tables (fdt_driver.c) and the boards (platform/<board>/board.c): a unit
 * below all three, so that none of them calls another back.
 */
#include <libfdt.h>
#include <tally/console.h>
#include <tally/fdt_helpers.h>
#include <tally/hartmask.h>
#include <tally/platform.h>

struct platform platform;

int platform_stdout_node(const void *fdt)
{
	int chosen = fdt_path_offset(fdt, "/chosen");
	const char *path = chosen >= 0 ? fdt_string_prop(fdt, chosen, "stdout-path") : NULL;
	char name[64];
	int i;

	if (!path)
		return -1;
	/* "path:options": the options part names a baud rate, not a node */
	for (i = 0; path[i] && path[i] != ':' && i < (int)sizeof(name) - 1; i++)
		name[i] = path[i];
	name[i] = '\0';
	return fdt_path_node(fdt, name);	/* never fdt_path_offset(): aliases */
}

/* Registers only M-mode may touch: every hart's PMP closes them to S/U. */
void platform_add_mmode_dev(unsigned long base, unsigned long size)
{
	if (platform.nr_mmode_devs == PLATFORM_MMODE_DEVS) {
		printf("Tally: WARNING: M-mode device 0x%lx+0x%lx not protected "
		       "(table full)\n", base, size);
		return;
	}
	platform.mmode_dev[platform.nr_mmode_devs++] =
		(struct memregion){ .base = base, .size = size };
}

bool platform_add_trap_page(const struct platform_trap_page *pg)
{
	if (platform.nr_trap_pages == PLATFORM_TRAP_PAGES)
		return false;
	platform.trap_page[platform.nr_trap_pages++] = *pg;
	return true;
}

/* A hart the devicetree lists but S-mode must never run on (by hart id). */
void platform_park_hart(unsigned long hartid)
{
	unsigned long index = hart_map_index(&hart_map, hartid);

	if (index == HART_INDEX_NONE || !hartmask_test(&platform.harts, index))
		return;
	hartmask_unset(&platform.harts, index);
	platform.nr_harts--;
}
