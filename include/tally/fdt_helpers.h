/* SPDX-License-Identifier: BSD-2-Clause */
/* Small devicetree readers over libfdt, shared by the platform code. */
#ifndef TALLY_FDT_HELPERS_H
#define TALLY_FDT_HELPERS_H

#include <stdbool.h>
#include <stdint.h>
#include <tally/hartmask.h>

/* The index-th (address, size) pair of a node's "reg", in the parent's cells. */
int fdt_reg(const void *fdt, int node, int index, unsigned long *addr, unsigned long *size);
/* A u32 property, or 'fallback' when absent or malformed. */
uint32_t fdt_u32(const void *fdt, int node, const char *prop, uint32_t fallback);
/*
 * A string property, or NULL when absent or not NUL-terminated within its
 * length (on a tree that failed fdt_validate() a string read could run past
 * the blob otherwise; tests/fuzz/fuzz_dt.c replays the case).
 */
const char *fdt_string_prop(const void *fdt, int node, const char *prop);
/* True when status is absent, "okay" or "ok". */
bool fdt_node_enabled(const void *fdt, int node);
/*
 * A usable hart: a /cpus child with device_type "cpu", enabled, with a
 * reg (its hart id, in *hartid).
 */
bool fdt_cpu_usable(const void *fdt, int node, unsigned long *hartid);
/*
 * The hart map of the devicetree: index i is the i-th usable cpu node.
 * Returns how many usable harts had no room (beyond TALLY_MAX_HARTS) or
 * repeated an id; -1 when the tree has no /cpus.
 */
long fdt_hart_map(const void *fdt, struct hart_map *map);
/* Hart ID of the CPU whose interrupt controller has this phandle, or -1. */
long fdt_hartid_of_intc(const void *fdt, uint32_t phandle);
/* First enabled node compatible with any of the NULL-terminated list, or < 0. */
int fdt_find_compatible(const void *fdt, const char *const *compat);
/* Compatible strings of the machine software interrupt devices. */
extern const char *const fdt_clint_compat[];	/* SiFive CLINT (MSWI + MTIMER) */
extern const char *const fdt_mswi_compat[];	/* ACLINT MSWI */
/*
 * Does the tree have an enabled CLINT or ACLINT MSWI?  Read by the first
 * hart in _start: without one, the other harts cannot be woken from wfi at
 * the end of cold boot (an IMSIC's M-files need set-up first), so they poll.
 */
bool fdt_has_mswi(const void *fdt);
/*
 * fdt_path_offset() for a path read from the blob (stdout-path): a leading
 * alias is resolved only to a value that is a full path ("/..."), so an
 * alias naming itself cannot recurse.  -FDT_ERR_BADPATH otherwise.
 */
int fdt_path_node(const void *fdt, const char *path);

#endif
