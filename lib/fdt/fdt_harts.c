// SPDX-License-Identifier: BSD-2-Clause
/*
 * The hart map of the devicetree (include/tally/hartmask.h): read by the
 * first hart in _start, before any hart has a stack or scratch of its own.
 */
#include <libfdt.h>
#include <tally/fdt_helpers.h>

long fdt_hart_map(const void *fdt, struct hart_map *map)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;
	unsigned long hartid;
	long left_out = 0;

	hart_map_clear(map);
	if (cpus < 0)
		return -1;
	fdt_for_each_subnode(cpu, fdt, cpus)
		if (fdt_cpu_usable(fdt, cpu, &hartid) && !hart_map_add(map, hartid))
			left_out++;
	return left_out;
}
