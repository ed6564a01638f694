/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_FDT_FIXUP_H
#define TALLY_FDT_FIXUP_H

/* Adds /reserved-memory/mmode_resv0@<base> { reg; no-map; } for the firmware. */
int fdt_fixup_reserved_memory(void *fdt, unsigned long base, unsigned long size);

#endif
