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

/*
 * Boards known by their harts: SoCs whose harts have a vendor PMU that
 * Linux's riscv_pmu_sbi driver serves without Sscofpmf, whatever the
 * board around them (Linux 6.12's devicetrees: D1 and CV18xx "thead,c906",
 * TH1520 "thead,c910", SG2042 "thead,c920", RZ/Five "andestech,ax45mp";
 * K230's C908 is in later kernels).  Everything else comes from the
 * devicetree, as for the generic board.
 */
static const char *const thead_c9xx_cpus[] = {
	"thead,c906", "thead,c908", "thead,c910", "thead,c920", NULL
};

static void thead_c9xx_pmu_init(struct board_pmu *pmu)
{
	pmu->overflow = BOARD_PMU_OVERFLOW_THEAD;
}

const struct board board_thead_c9xx = {
	.name = "thead-c9xx",
	.cpu_compatible = thead_c9xx_cpus,
	.pmu_init = thead_c9xx_pmu_init,
};

static const char *const andes_ax45_cpus[] = {
	"andestech,ax45mp", NULL
};

static void andes_ax45_pmu_init(struct board_pmu *pmu)
{
	pmu->overflow = BOARD_PMU_OVERFLOW_ANDES;
}

const struct board board_andes_ax45 = {
	.name = "andes-ax45",
	.cpu_compatible = andes_ax45_cpus,
	.pmu_init = andes_ax45_pmu_init,
};

const struct board *const board_cpu_table[] = {
	&board_thead_c9xx,
	&board_andes_ax45,
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

/* Whether a node under /cpus is compatible with one of b's cpu strings. */
static bool cpus_match(const void *fdt, const struct board *b)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), cpu;

	if (cpus < 0)
		return false;
	fdt_for_each_subnode(cpu, fdt, cpus)
		for (const char *const *c = b->cpu_compatible; c && *c; c++)
			if (!fdt_node_check_compatible(fdt, cpu, *c))
				return true;
	return false;
}

const struct board *board_match(const void *fdt, const struct board *fallback)
{
	for (unsigned int i = 0; fdt && board_table[i]; i++)
		if (root_matches(fdt, board_table[i]))
			return board_table[i];
	for (unsigned int i = 0; fdt && board_cpu_table[i]; i++)
		if (cpus_match(fdt, board_cpu_table[i]))
			return board_cpu_table[i];
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

enum board_pmu_overflow board_pmu_overflow(void)
{
	return pmu_contribution.overflow;
}
