/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole-tree validation of a devicetree blob, done once before anything
 * walks the tree (the firmware's cold boot, the riscv,pmu parser, the host
 * tools).  libfdt's walkers trust the structure block's nesting: with a node
 * after the root's END_NODE, fdt_get_path() in Linux 6.1's libfdt walks its
 * depth negative and writes before its caller's buffer.  Linux 6.1's copy of
 * libfdt declares fdt_check_full() but does not ship it (fdt_check.c), so
 * Tally has its own check, with the same rules, built on libfdt's public
 * token reader; the fuzz target tests/fuzz/fuzz_dt.c compares the two.
 */
#ifndef TALLY_FDT_VALIDATE_H
#define TALLY_FDT_VALIDATE_H
#include <stdbool.h>
#include <stddef.h>

/*
 * 0 when the blob at fdt (bufsize bytes readable) is a complete, well-formed
 * tree: a valid header whose blocks fit in totalsize <= bufsize; the blob
 * 8-byte aligned, the reservation map too and the structure block 4-byte
 * aligned; a terminated memory reservation map; a structure block holding exactly one
 * root node (empty name) with properly nested nodes, every property inside a
 * node with a name in the strings block, and nothing but NOPs between the
 * root's END_NODE and FDT_END.  Otherwise a negative -FDT_ERR_* code
 * (fdt_strerror() names it), mostly -FDT_ERR_BADSTRUCTURE.
 * Whether libfdt's read-only lookups are safe on a refused tree is
 * fdt_walkable()'s answer, not the error code's.
 */
int fdt_validate(const void *fdt, size_t bufsize);

/*
 * true when libfdt's read-only lookups on the blob stay inside it and
 * terminate, also on a tree fdt_validate() refuses: the header and blocks
 * sound and aligned (as fdt_validate() requires), and the structure block's
 * token chain, the one every libfdt walker follows, reaches FDT_END with each
 * token's next offset strictly after it.  A tree with nodes after the root's
 * END_NODE is walkable; one whose token chain stops early (truncated, unknown
 * token, property running past the block) or does not move is not.
 * fdt_validate() == 0 implies fdt_walkable().
 */
bool fdt_walkable(const void *fdt, size_t bufsize);

#endif
