// SPDX-License-Identifier: BSD-2-Clause
#include <tally/memregion.h>

bool memmap_add_ram(struct memmap *map, unsigned long base, unsigned long size)
{
	if (map->nr_ram >= MEMREGION_MAX || size == 0 || base + size - 1 < base)
		return false;
	map->ram[map->nr_ram].base = base;
	map->ram[map->nr_ram].size = size;
	map->nr_ram++;
	return true;
}

/* [a, a + alen) and [b, b + blen) overlap; both lengths non-zero, no wrap. */
static bool ranges_overlap(unsigned long a, unsigned long alen,
			   unsigned long b, unsigned long blen)
{
	return a <= b + (blen - 1) && b <= a + (alen - 1);
}

static bool inside_ram(const struct memmap *map, unsigned long addr, unsigned long len)
{
	for (unsigned int i = 0; i < map->nr_ram; i++) {
		const struct memregion *r = &map->ram[i];
		/* written so that nothing can overflow: addr >= base first */
		if (addr >= r->base && addr - r->base < r->size &&
		    len <= r->size - (addr - r->base))
			return true;
	}
	return false;
}

bool memmap_smode_range_ok(const struct memmap *map, unsigned long addr_lo,
			   unsigned long addr_hi, unsigned long len)
{
	if (addr_hi != 0)
		return false;
	if (len == 0)
		return true;
	if (addr_lo + (len - 1) < addr_lo)	/* wraps around */
		return false;
	if (!inside_ram(map, addr_lo, len))
		return false;
	if (map->fw_size && ranges_overlap(addr_lo, len, map->fw_base, map->fw_size))
		return false;
	return true;
}

bool memmap_smode_entry_ok(const struct memmap *map, unsigned long addr)
{
	return memmap_smode_range_ok(map, addr, 0, 4);
}
