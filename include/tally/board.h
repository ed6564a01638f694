/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A board: what one machine does differently from the generic, devicetree
 * driven platform (platform/generic/fdt_platform.c).  In the spirit of
 * OpenSBI's struct sbi_platform_operations, smaller: every member but the
 * name may be NULL, and NULL means "the generic code's default".
 *
 * The firmware picks its board at cold boot: the first board of the match
 * table (platform/generic/boards.c) one of whose compatible strings the
 * devicetree's root node is compatible with; else the board the image was
 * built for (make PLATFORM=<board>); else the generic board.  docs/porting.md
 * walks through adding one.
 *
 * Order at cold boot: the board is chosen and its pmu_init called; the
 * generic devicetree walk fills struct platform; early_init; feature
 * probing; the PMU event map; final_init; the banner.  hart_init runs on
 * every hart (the boot hart included) at boot and at every HSM start,
 * after the generic hart set-up.
 */
#ifndef TALLY_BOARD_H
#define TALLY_BOARD_H

#include <stdint.h>
#include <tally/pmu.h>

/*
 * The vendor overflow back end of a board's harts without Sscofpmf
 * (lib/sbi/sbi_pmu_vendor.c; docs/pmu.md, Vendor overflow back ends).
 * Used only if the cold-boot hart has the vendor's CSRs and no Sscofpmf.
 */
enum board_pmu_overflow {
	BOARD_PMU_OVERFLOW_NONE,	/* Sscofpmf's LCOFI, or no overflow interrupt */
	BOARD_PMU_OVERFLOW_THEAD,	/* T-Head C9xx: mcounterinten/mcounterof, IRQ 17 */
	BOARD_PMU_OVERFLOW_ANDES,	/* Andes: mcounterinten/mcounterovf, IRQ 18 */
};

/* What a board gives lib/pmu: its hooks, and the quirks of its counters. */
struct board_pmu {
	const struct pmu_board_hooks *hooks;	/* may be NULL */
	void *hooks_ctx;
	uint32_t quirks;			/* PMU_HART_QUIRK_* */
	enum board_pmu_overflow overflow;
};

/*
 * Device quirks a board declares (struct board.quirks); the generic code
 * absorbs each where the devicetree shows the device (docs/porting.md).
 *
 * BOARD_QUIRK_APLIC_SETIPNUM: the APLIC sets a level-sensitive source
 * pending on every write of its number to setipnum_le/_be of an MSI-mode
 * domain, asserted or not (QEMU before 9.0); the AIA spec re-pends it only
 * while it still asserts.  The firmware closes the page of each S-level
 * MSI-mode domain's setipnum_le/_be to S-mode and emulates the stores.
 */
#define BOARD_QUIRK_APLIC_SETIPNUM	(1U << 0)

/*
 * An SSE event of the board's own: a local, platform-specific id
 * (SBI_SSE_EVENT_PLATFORM_BIT set, SBI_SSE_EVENT_GLOBAL_BIT clear), added
 * by the SSE extension at the end of cold boot (docs/sbi.md); a board
 * declares them, so the platform never calls up into lib/sbi.
 */
struct board_sse_event {
	uint32_t id;			/* 0 ends the table */
	bool injectable;
};

struct board {
	const char *name;		/* as in make PLATFORM=<name> */
	uint32_t quirks;		/* BOARD_QUIRK_* */
	/* root compatible strings it matches, NULL-terminated; may be NULL */
	const char *const *compatible;
	/*
	 * Boards of board_cpu_table: the compatible strings of a cpu node
	 * (under /cpus) they match, for a tree whose root no board matches.
	 */
	const char *const *cpu_compatible;
	/*
	 * Cold boot, after the generic devicetree walk.  Adjusts struct
	 * platform: devices the generic code does not know (console, reset:
	 * the console, IPI, timer and system_reset members of platform.ops
	 * are the DBCN/legacy console, IPI, TIME and SRST extensions'
	 * devices), harts S-mode may not use.  Non-zero: cannot run.
	 */
	int (*early_init)(const void *fdt);
	/* Cold boot, before the banner: fix up the next stage's devicetree
	 * (only called when the tree passed validation). */
	void (*final_init)(void *fdt);
	/* Every hart, at boot and at every HSM start. */
	void (*hart_init)(unsigned long hartid);
	/* Cold boot: the PMU hooks and counter quirks for every hart. */
	void (*pmu_init)(struct board_pmu *pmu);
	/* Its own SSE events, ending with id 0; may be NULL. */
	const struct board_sse_event *sse_events;
};

/* The board the firmware runs on (set by board_select at cold boot). */
extern const struct board *board;

/* The match table, ending with NULL; board_generic is not in it. */
extern const struct board *const board_table[];
/* Boards known by their harts (cpu_compatible), tried after board_table. */
extern const struct board *const board_cpu_table[];
extern const struct board board_thead_c9xx, board_andes_ax45;
extern const struct board board_generic;

/*
 * The first board of the table whose compatible strings the root node
 * matches, else the first of board_cpu_table one of whose cpu_compatible
 * strings a cpu node matches, else 'fallback' (or board_generic if that
 * is NULL).
 */
const struct board *board_match(const void *fdt, const struct board *fallback);
/*
 * Cold boot: board_match(fdt, the image's PLATFORM board) into 'board',
 * then the board's pmu_init.
 */
void board_select(const void *fdt);
/* The board's PMU contribution (hooks, quirks) into a pmu_hart_init() config. */
void board_pmu_config(struct pmu_hart_config *cfg);
/* The counter quirks the board declared (for the banner). */
uint32_t board_pmu_quirks(void);
/* The vendor overflow back end the board declared. */
enum board_pmu_overflow board_pmu_overflow(void);

#endif
