// SPDX-License-Identifier: BSD-2-Clause
/*
 * Devicetree fixups before the next stage sees the tree: the firmware's
 * memory is reserved (no-map) so that S-mode never maps it.
 */
#include <libfdt.h>
#include <tally/console.h>
#include <tally/fdt_fixup.h>

#define FDT_GROW	1024	/* room for the new nodes */

static int ensure_reserved_memory(void *fdt)
{
	int node = fdt_path_offset(fdt, "/reserved-memory");

	if (node >= 0)
		return node;
	node = fdt_add_subnode(fdt, 0, "reserved-memory");
	if (node < 0)
		return node;
	/* children use two cells for address and size: 64-bit safe everywhere */
	if (fdt_setprop_u32(fdt, node, "#address-cells", 2) ||
	    fdt_setprop_u32(fdt, node, "#size-cells", 2) ||
	    fdt_setprop(fdt, node, "ranges", NULL, 0))
		return -FDT_ERR_NOSPACE;
	return node;
}

/*
 * The fixups pack the tree; a next stage that edits it in place then has
 * no room.  Debian's U-Boot copies the tree right below its own global
 * data and grows it there (booti's bootargs and initrd): from a packed
 * tree it wrote over its own state and stopped with a load access fault.
 * The tree stays where it is and grows at its end, into the space the
 * fixups above already assume (OpenSBI leaves the same 4 KiB).
 */
int fdt_fixup_leave_room(void *fdt)
{
	int err = fdt_pack(fdt);

	if (!err)
		err = fdt_open_into(fdt, fdt, fdt_totalsize(fdt) + FDT_NEXT_STAGE_ROOM);
	if (err)
		printf("Tally: WARNING: could not leave room in the devicetree: %s\n",
		       fdt_strerror(err));
	return err;
}

int fdt_fixup_reserved_memory(void *fdt, unsigned long base, unsigned long size)
{
	char name[40];
	fdt64_t reg[2];
	int parent, node, err;

	err = fdt_open_into(fdt, fdt, fdt_totalsize(fdt) + FDT_GROW);
	if (err)
		goto fail;
	parent = ensure_reserved_memory(fdt);
	if (parent < 0) {
		err = parent;
		goto fail;
	}
	if (fdt_address_cells(fdt, parent) != 2 || fdt_size_cells(fdt, parent) != 2) {
		err = -FDT_ERR_BADNCELLS;
		goto fail;
	}
	snprintf(name, sizeof(name), "mmode_resv0@%lx", base);
	node = fdt_add_subnode(fdt, parent, name);
	if (node < 0) {
		err = node;
		goto fail;
	}
	reg[0] = cpu_to_fdt64(base);
	reg[1] = cpu_to_fdt64(size);
	err = fdt_setprop(fdt, node, "reg", reg, sizeof(reg));
	if (!err)
		err = fdt_setprop(fdt, node, "no-map", NULL, 0);
	if (!err)
		return fdt_pack(fdt);
fail:
	printf("Tally: WARNING: could not reserve the firmware region in the devicetree: %s\n",
	       fdt_strerror(err));
	return err;
}
