/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The riscv,pmu devicetree node (Linux's
 * Documentation/devicetree/bindings/perf/riscv,pmu.yaml) turned into a
 * frozen struct pmu_map.  Built on libfdt and the event map's public
 * builder only; the same file builds into the firmware (Linux 6.1's libfdt)
 * and into host tools (the system's libfdt).
 *
 * Validation is strict and loud but never fatal: every malformed row gives
 * exactly one message naming the property and the row (1-based) and is
 * skipped; the valid rows are kept.  Rules (docs/pmu.md, "Devicetree
 * binding"):
 *  - the first enabled node compatible with "riscv,pmu" is used, wherever
 *    it sits (/pmu on QEMU, /soc/pmu elsewhere); further ones are reported;
 *  - no such node (or no valid devicetree: a bad header, or a structure
 *    fdt_validate() refuses): the map holds no rows and only
 *    cycles (0x1, counter 0) and instructions (0x2, counter 2) are
 *    countable;
 *  - riscv,event-to-mhpmevent without riscv,event-to-mhpmcounters is
 *    reported and ignored (a selector for an event no counter can count is
 *    useless); riscv,event-to-mhpmcounters without riscv,event-to-mhpmevent
 *    is accepted silently: selectors are then the zero-extended event_idx,
 *    which the SBI specification allows and QEMU implements;
 *  - counter bitmaps are intersected with the counters the hart has: a row
 *    naming some absent counters is reported and kept with the others, a
 *    row naming only absent counters is reported and skipped;
 *  - trailing zero cells (QEMU 7.2 writes 5 after its 5 rows) give one
 *    message for them all.
 * The parser knows no board: the counter quirks of QEMU come from its
 * board file (platform/virt), not from here.
 */
#ifndef TALLY_FDT_PMU_H
#define TALLY_FDT_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <tally/pmu_map.h>

#define FDT_PMU_COMPATIBLE	"riscv,pmu"
/* hart_counters value that checks bitmaps against no particular hart */
#define FDT_PMU_ANY_COUNTERS	0xFFFFFFFFU
/* Longest message handed to the callback, with its terminating NUL */
#define FDT_PMU_MSG_MAX		200

/* Receives one complete message (no trailing newline) per problem. */
typedef void (*fdt_pmu_warn_fn)(void *ctx, const char *msg);

enum fdt_pmu_prop {
	FDT_PMU_PROP_COUNTERS,		/* riscv,event-to-mhpmcounters */
	FDT_PMU_PROP_EVENTS,		/* riscv,event-to-mhpmevent */
	FDT_PMU_PROP_RAW,		/* riscv,raw-event-to-mhpmcounters */
	FDT_PMU_NR_PROPS,
};

struct fdt_pmu_stats {
	int node;		/* offset of the node used, or < 0: none */
	bool fdt_invalid;	/* no usable devicetree at all */
	bool default_selectors;	/* counters given, no event-to-mhpmevent */
	bool present[FDT_PMU_NR_PROPS];
	unsigned int rows[FDT_PMU_NR_PROPS];	/* rows read, partial included */
	unsigned int loaded[FDT_PMU_NR_PROPS];	/* rows now in the map */
	unsigned int warnings;			/* messages sent */
};

/*
 * Build *map from the devicetree and freeze it.  hart_counters: bit i set
 * when the cold-boot hart implements mhpmcounter i (from trapping probes;
 * bit 1, time, is ignored), or FDT_PMU_ANY_COUNTERS.  warn may be NULL.
 * Returns the number of messages sent (0: the node is clean).  The map is
 * always initialised and frozen on return.
 */
int fdt_pmu_parse(const void *fdt, struct pmu_map *map, uint32_t hart_counters,
		  fdt_pmu_warn_fn warn, void *ctx);
/* The same, also filling *stats (which may be NULL). */
int fdt_pmu_parse_stats(const void *fdt, struct pmu_map *map,
			uint32_t hart_counters, fdt_pmu_warn_fn warn, void *ctx,
			struct fdt_pmu_stats *stats);

const char *fdt_pmu_prop_name(enum fdt_pmu_prop prop);

#endif
