// SPDX-License-Identifier: BSD-2-Clause
/*
 * Whole-tree validation (see <tally/fdt_validate.h>).  Only libfdt's public
 * reader calls are used, so this file builds for the firmware (Linux 6.1's
 * libfdt) and for the host (the system's libfdt) alike.
 */
#include <stdbool.h>
#include <stdint.h>
#include <libfdt.h>
#include <tally/fdt_validate.h>

/* Header, blocks inside totalsize, totalsize inside the buffer. */
static int check_blob(const void *fdt, size_t bufsize)
{
	int err;

	/*
	 * The whole header must be readable before it is read: the header of
	 * its version, and never less than the full (version 17) header, since
	 * fdt_check_header() reads size_dt_strings whatever the version says.
	 */
	if (!fdt || bufsize < sizeof(struct fdt_header) || bufsize < fdt_header_size(fdt))
		return -FDT_ERR_TRUNCATED;
	err = fdt_check_header(fdt);
	if (err)
		return err;
	if (fdt_totalsize(fdt) > bufsize)
		return -FDT_ERR_TRUNCATED;
	/*
	 * libfdt reads tokens and reservation entries with aligned loads: a
	 * misaligned block would make M-mode take misaligned-access traps
	 * on hardware that does not handle them (found by fuzz_dt under
	 * UBSan).  The blob itself must be 8-byte aligned (boot protocol).
	 */
	if (((uintptr_t)fdt & 7) || (fdt_off_mem_rsvmap(fdt) & 7) ||
	    (fdt_off_dt_struct(fdt) & (FDT_TAGSIZE - 1)))
		return -FDT_ERR_ALIGNMENT;
	/* the reservation map must end with its all-zero entry */
	err = fdt_num_mem_rsv(fdt);
	return err < 0 ? err : 0;
}

/*
 * One walk over the structure block's tokens.  depth counts the open
 * nodes; root_done is set once the root's END_NODE is seen, after which
 * only NOPs may precede FDT_END.
 */
static int check_structure(const void *fdt)
{
	int offset, next = 0, depth = 0, len;
	bool root_done = false;
	const char *name;

	for (;;) {
		uint32_t tag;

		offset = next;
		tag = fdt_next_tag(fdt, offset, &next);
		if (next < 0)
			return next;	/* truncated or unknown token */
		if (tag == FDT_NOP)
			continue;
		if (root_done && tag != FDT_END)
			return -FDT_ERR_BADSTRUCTURE;	/* after the root */

		switch (tag) {
		case FDT_BEGIN_NODE:
			name = fdt_get_name(fdt, offset, &len);
			if (!name)
				return len;
			if (depth == 0 && len != 0)
				return -FDT_ERR_BADSTRUCTURE;	/* root has a name */
			depth++;
			break;
		case FDT_END_NODE:
			if (depth == 0)
				return -FDT_ERR_BADSTRUCTURE;	/* nothing open */
			if (--depth == 0)
				root_done = true;
			break;
		case FDT_PROP:
			if (depth == 0)
				return -FDT_ERR_BADSTRUCTURE;	/* outside any node */
			if (!fdt_getprop_by_offset(fdt, offset, &name, &len))
				return len;
			if (!name)
				return -FDT_ERR_BADSTRUCTURE;
			break;
		case FDT_END:
			return root_done ? 0 : -FDT_ERR_BADSTRUCTURE;
		default:
			return -FDT_ERR_BADSTRUCTURE;
		}
	}
}

int fdt_validate(const void *fdt, size_t bufsize)
{
	int err = check_blob(fdt, bufsize);

	return err ? err : check_structure(fdt);
}
