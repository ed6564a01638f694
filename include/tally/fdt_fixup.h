/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_FDT_FIXUP_H
#define TALLY_FDT_FIXUP_H

/* Adds /reserved-memory/mmode_resv0@<base> { reg; no-map; } for the firmware. */
int fdt_fixup_reserved_memory(void *fdt, unsigned long base, unsigned long size);

/* Free space the next stage finds in the tree (U-Boot's booti edits it in place). */
#define FDT_NEXT_STAGE_ROOM	4096
/* The last fixup: the tree packed, then FDT_NEXT_STAGE_ROOM bytes free at its end. */
int fdt_fixup_leave_room(void *fdt);

#endif
