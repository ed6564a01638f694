// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which board the firmware runs on: the match table, and what the chosen
 * board gives the generic code (include/tally/board.h).  Every image holds
 * every board; the devicetree's root compatible string picks one.
 */
#include <libfdt.h>
#include <tally/board.h>

extern const struct board board_virt, board_sifive_u, board_spike;

/* First match wins: put a board before any board it is a variant of. */
const struct board *const board_table[] = {
	&board_virt,
	&board_sifive_u,
	&board_spike,
	NULL,
};

/* Everything from the devicetree, nothing added. */
const struct board board_generic = {
	.name = "generic",
};

/* make PLATFORM=<board> names the board for a tree that matches none. */
#ifdef TALLY_BOARD
extern const struct board TALLY_BOARD;
#define BUILD_BOARD	(&TALLY_BOARD)
#else
#define BUILD_BOARD	NULL
#endif

const struct board *board = &board_generic;
static struct board_pmu pmu_contribution;

static bool root_matches(const void *fdt, const struct board *b)
{
	for (const char *const *c = b->compatible; c && *c; c++)
		if (!fdt_node_check_compatible(fdt, 0, *c))
			return true;
	return false;
}

const struct board *board_match(const void *fdt, const struct board *fallback)
{
	for (unsigned int i = 0; fdt && board_table[i]; i++)
		if (root_matches(fdt, board_table[i]))
			return board_table[i];
	return fallback ? fallback : &board_generic;
}

void board_select(const void *fdt)
{
	board = board_match(fdt, BUILD_BOARD);
	pmu_contribution = (struct board_pmu){ 0 };
	if (board->pmu_init)
		board->pmu_init(&pmu_contribution);
}

/* Every hart's PMU set-up (sbi_pmu_hart_init) goes through here. */
void board_pmu_config(struct pmu_hart_config *cfg)
{
	cfg->hooks = pmu_contribution.hooks;
	cfg->hooks_ctx = pmu_contribution.hooks_ctx;
	cfg->caps.quirks |= pmu_contribution.quirks;
}

uint32_t board_pmu_quirks(void)
{
	return pmu_contribution.quirks;
}
