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

/* Header, blocks inside totalsize, totalsize inside the buffer, alignment. */
static int check_blocks(const void *fdt, size_t bufsize)
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
	return 0;
}

/*
 * The token chain every libfdt walker follows (fdt_next_tag() from offset
 * 0) must reach FDT_END, each token's next offset strictly after the token.
 * libfdt's walkers (nextprop_(), fdt_next_node(), fdt_next_property_offset()
 * ...) only stop at FDT_END or an error: a token whose next offset is its
 * own makes every lookup that reaches it loop forever.  fdt_next_tag()
 * computes a property's next offset as offset + 12 + len in 32-bit
 * arithmetic and bounds-checks only the span [offset, next): a length of
 * 0xFFFFFFF4 (-12) gives a span of 0 bytes, which passes, and a next
 * offset equal to the property's own (found by fuzz_dt: corpus file
 * hang-prop-offset-cycle; version < 16 blobs have a second such length,
 * -16, through their 8-byte value alignment).  Every other wrapping
 * length gives a span that fails the bounds check, so the walk stops.
 * Checked on the whole chain, not only up to the first structural
 * error, since the lookups on an invalid tree go on past such errors.
 */
static int check_tokens(const void *fdt)
{
	int offset = 0, next;

	for (;;) {
		uint32_t tag = fdt_next_tag(fdt, offset, &next);

		if (next < 0)
			return next;	/* truncated, overrun or unknown token */
		if (tag == FDT_END)
			return 0;
		if (next <= offset)
			return -FDT_ERR_BADSTRUCTURE;	/* the walk would not move */
		offset = next;
	}
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
		if (tag != FDT_END && next <= offset)
			return -FDT_ERR_BADSTRUCTURE;	/* never loop (check_tokens) */
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
	int err = check_blocks(fdt, bufsize);

	if (err)
		return err;
	/* the reservation map must end with its all-zero entry */
	err = fdt_num_mem_rsv(fdt);
	if (err < 0)
		return err;
	err = check_tokens(fdt);
	return err ? err : check_structure(fdt);
}

bool fdt_walkable(const void *fdt, size_t bufsize)
{
	return !check_blocks(fdt, bufsize) && !check_tokens(fdt);
}
