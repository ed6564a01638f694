// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of the board interface: the match table (the real
 * platform/generic/boards.c and the real board files) and the path of a
 * board's PMU hooks and quirks into lib/pmu (board_select -> pmu_init ->
 * board_pmu_config -> pmu_hart_init, as sbi_pmu_hart_init does) over the
 * simulated hart of tests/unit/pmu.
 *
 * Built with -DTALLY_BOARD=board_test (as make PLATFORM=test would): a
 * devicetree no board matches falls back to board_test, which has hooks.
 */
#include <libfdt.h>
#include <stdio.h>
#include <string.h>
#include <tally/board.h>
#include <tally/pmu.h>
#include "../pmu/sim.h"

static int failures, count;

#define CHECK(cond, ...) do {						\
	bool ok_ = (cond);						\
	count++;							\
	printf("%s: board: ", ok_ ? "PASS" : "FAIL");			\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!ok_)							\
		failures++;						\
} while (0)

extern const struct board board_virt, board_sifive_u, board_spike;

/* ---- a board of the test's own, the image's PLATFORM board ------------- */

#define TEST_EVENT	SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, SBI_PMU_HW_STALLED_CYCLES_BACKEND)
#define TEST_SELECTOR	0x4242
#define TEST_COUNTER	5
#define TEST_PLATFORM_DATA 0x77

static int hooks_ctx_seen;

static uint32_t test_hw_event_counters(void *ctx, unsigned long event_idx,
				       uint64_t event_data, uint64_t *selector)
{
	(void)event_data;
	hooks_ctx_seen = ctx == &hooks_ctx_seen;
	if (event_idx != TEST_EVENT)
		return 0;
	*selector = TEST_SELECTOR;
	return 1U << TEST_COUNTER;
}

static bool test_fw_platform_supported(void *ctx, uint64_t event_data)
{
	(void)ctx;
	return event_data == TEST_PLATFORM_DATA;
}

static const struct pmu_board_hooks test_hooks = {
	.hw_event_counters = test_hw_event_counters,
	.fw_platform_supported = test_fw_platform_supported,
};

static void test_pmu_init(struct board_pmu *pmu)
{
	pmu->hooks = &test_hooks;
	pmu->hooks_ctx = &hooks_ctx_seen;
	pmu->quirks = PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET;
}

const struct board board_test = {
	.name = "test",
	.pmu_init = test_pmu_init,
};

/* ---- devicetrees ---------------------------------------------------------- */

static char dtb[4096];

/* A tree whose root has these compatible strings ('\0'-separated). */
static const void *tree(const char *compat, int len)
{
	if (fdt_create(dtb, sizeof(dtb)) || fdt_finish_reservemap(dtb) ||
	    fdt_begin_node(dtb, "") ||
	    (len && fdt_property(dtb, "compatible", compat, len)) ||
	    fdt_end_node(dtb) || fdt_finish(dtb))
		return NULL;
	return dtb;
}
#define TREE(s) tree(s, sizeof(s))

static void test_match_table(void)
{
	const struct board *const *b;
	unsigned int n = 0;

	for (b = board_table; *b; b++, n++)
		CHECK((*b)->name && (*b)->compatible && (*b)->compatible[0],
		      "table entry %u (%s) has a name and compatible strings", n,
		      (*b)->name ? (*b)->name : "?");
	CHECK(n == 3, "the table lists the three boards (%u)", n);
	CHECK(board_match(TREE("riscv-virtio"), NULL) == &board_virt,
	      "\"riscv-virtio\" (QEMU virt) -> virt");
	CHECK(board_match(TREE("sifive,hifive-unleashed-a00"), NULL) == &board_sifive_u,
	      "\"sifive,hifive-unleashed-a00\" (QEMU sifive_u) -> sifive_u");
	CHECK(board_match(TREE("vendor,board\0sifive,fu540-c000"), NULL) == &board_sifive_u,
	      "a later string of the root's list matches too -> sifive_u");
	CHECK(board_match(TREE("ucbbar,spike-bare-dev"), NULL) == &board_spike,
	      "\"ucbbar,spike-bare-dev\" (QEMU spike) -> spike");
	CHECK(board_match(TREE("riscv-virtio-x"), NULL) == &board_generic,
	      "a string that only starts like one matches nothing -> generic");
	CHECK(board_match(TREE("vendor,unknown"), NULL) == &board_generic,
	      "no match, no PLATFORM board -> generic");
	CHECK(board_match(TREE("vendor,unknown"), &board_spike) == &board_spike,
	      "no match -> the PLATFORM board");
	CHECK(board_match(TREE("riscv-virtio"), &board_spike) == &board_virt,
	      "a match wins over the PLATFORM board");
	CHECK(board_match(tree("", 0), NULL) == &board_generic,
	      "a root without compatible -> generic");
	CHECK(board_match(NULL, &board_test) == &board_test, "no devicetree -> the PLATFORM board");
}

/* A tree whose root is 'root' and whose one cpu node is compatible 'cpu'. */
static const void *cpu_tree(const char *root, int rlen, const char *cpu, int clen)
{
	if (fdt_create(dtb, sizeof(dtb)) || fdt_finish_reservemap(dtb) ||
	    fdt_begin_node(dtb, "") ||
	    fdt_property(dtb, "compatible", root, rlen) ||
	    fdt_begin_node(dtb, "cpus") || fdt_begin_node(dtb, "cpu-map") ||
	    fdt_end_node(dtb) || fdt_begin_node(dtb, "cpu@0") ||
	    fdt_property_string(dtb, "device_type", "cpu") ||
	    fdt_property(dtb, "compatible", cpu, clen) ||
	    fdt_end_node(dtb) || fdt_end_node(dtb) ||
	    fdt_end_node(dtb) || fdt_finish(dtb))
		return NULL;
	return dtb;
}
#define CPU_TREE(r, c) cpu_tree(r, sizeof(r), c, sizeof(c))

/* Boards known by their harts: the vendor PMUs (docs/pmu.md). */
static void test_cpu_table(void)
{
	static const struct { const char *cpu; const struct board *b; } t[] = {
		{ "thead,c906", &board_thead_c9xx },	/* D1, CV18xx */
		{ "thead,c908", &board_thead_c9xx },	/* K230 */
		{ "thead,c910", &board_thead_c9xx },	/* TH1520 */
		{ "thead,c920", &board_thead_c9xx },	/* SG2042 */
		{ "andestech,ax45mp", &board_andes_ax45 },	/* RZ/Five */
	};
	char compat[64];
	int len;

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		len = snprintf(compat, sizeof(compat), "%s%criscv", t[i].cpu, 0);
		CHECK(board_match(cpu_tree("vendor,soc", 11, compat, len + 1), NULL) == t[i].b,
		      "cpu \"%s\", \"riscv\" under an unknown root -> %s", t[i].cpu,
		      t[i].b->name);
	}
	CHECK(board_match(CPU_TREE("riscv-virtio", "thead,c906\0riscv"), NULL) == &board_virt,
	      "a root match wins over a cpu match (virt with a C906 cpu node -> virt)");
	CHECK(board_match(CPU_TREE("vendor,soc", "sifive,u74\0riscv"), NULL) == &board_generic,
	      "another cpu -> generic");
	CHECK(board_match(CPU_TREE("vendor,soc", "thead,c9060\0riscv"), NULL) == &board_generic,
	      "\"thead,c9060\" is not \"thead,c906\" -> generic");
	board_select(CPU_TREE("vendor,soc", "thead,c906\0riscv"));
	CHECK(board == &board_thead_c9xx && board_pmu_overflow() == BOARD_PMU_OVERFLOW_THEAD,
	      "board_select: a C906 tree -> the T-Head overflow back end");
	board_select(CPU_TREE("vendor,soc", "andestech,ax45mp\0riscv"));
	CHECK(board == &board_andes_ax45 && board_pmu_overflow() == BOARD_PMU_OVERFLOW_ANDES,
	      "board_select: an AX45MP tree -> the Andes overflow back end");
	board_select(TREE("riscv-virtio"));
	CHECK(board_pmu_overflow() == BOARD_PMU_OVERFLOW_NONE,
	      "board_select: virt -> no vendor back end");
}

/* ---- the PMU hooks and quirks reach lib/pmu ------------------------------ */

static struct pmu_map map;

/* What sbi_pmu_hart_init builds, minus the CSRs: sim ops, then the board. */
static long hart_init(struct pmu_hart *h, struct sim_hart *sim)
{
	struct pmu_hart_config cfg = {
		.map = &map,
		.ops = &sim_ops,
		.ops_ctx = sim,
		.caps = { .counters = 0xFF | 1U, .hpm_bits = 48, .sscofpmf = true },
	};

	sim_init(sim, cfg.caps.counters, 48, true, false);
	board_pmu_config(&cfg);
	memset(h, 0, sizeof(*h));
	return pmu_hart_init(h, &cfg);
}

static struct sbiret config(struct pmu_hart *h, unsigned long event, uint64_t data)
{
	return pmu_sbi_counter_config_matching(h, 0, (unsigned long)h->valid, 0, event, data);
}

static void test_pmu_hooks(void)
{
	static struct pmu_hart h;
	struct sim_hart sim;
	struct sbiret r;
	unsigned long fw_platform = SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_FW, SBI_PMU_FW_PLATFORM);

	pmu_map_init(&map);
	pmu_map_freeze(&map);	/* an empty map: only the hooks know the event */

	/* the test board (PLATFORM fallback): hooks and quirks reach the hart */
	board_select(TREE("vendor,unknown"));
	CHECK(board == &board_test, "board_select: unmatched tree -> the PLATFORM board (test)");
	CHECK(hart_init(&h, &sim) == SBI_SUCCESS, "pmu_hart_init with the board's contribution");
	CHECK(h.hooks == &test_hooks && h.hooks_ctx == &hooks_ctx_seen,
	      "the board's pmu_board_hooks and their context are the hart's");
	CHECK(h.caps.quirks == PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET,
	      "the board's quirks are the hart's (0x%x)", h.caps.quirks);
	r = config(&h, TEST_EVENT, 0);
	CHECK(r.error == SBI_SUCCESS && r.value == TEST_COUNTER,
	      "config_matching(an event only the board's hook knows) -> counter %d (error %ld, value %lu)",
	      TEST_COUNTER, r.error, r.value);
	CHECK(hooks_ctx_seen, "the hook got the board's context");
	CHECK((sim.evt[TEST_COUNTER] & 0xFFFFF) == TEST_SELECTOR,
	      "mhpmevent%d holds the hook's selector 0x%x (0x%llx)", TEST_COUNTER,
	      TEST_SELECTOR, (unsigned long long)sim.evt[TEST_COUNTER]);
	r = config(&h, fw_platform, TEST_PLATFORM_DATA);
	CHECK(r.error == SBI_SUCCESS, "SBI_PMU_FW_PLATFORM with data the board counts: configured (%ld)",
	      r.error);
	r = config(&h, fw_platform, TEST_PLATFORM_DATA + 1);
	CHECK(r.error == SBI_ERR_NOT_SUPPORTED,
	      "SBI_PMU_FW_PLATFORM with other data: NOT_SUPPORTED (%ld)", r.error);
	sim_free(&sim);

	/* virt: no hooks, QEMU's one-counter and leftover quirks */
	board_select(TREE("riscv-virtio"));
	CHECK(board == &board_virt, "board_select: \"riscv-virtio\" -> virt");
	CHECK(hart_init(&h, &sim) == SBI_SUCCESS && !h.hooks,
	      "virt: pmu_hart_init, no hooks");
	CHECK(h.caps.quirks == (PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT |
				PMU_HART_QUIRK_FAR_START_SWALLOWS),
	      "virt: the hart has QEMU's one-counter-per-event and overflow "
	      "leftover quirks (0x%x)", h.caps.quirks);
	CHECK(config(&h, TEST_EVENT, 0).error == SBI_ERR_NOT_SUPPORTED,
	      "virt: the test board's event is unknown (NOT_SUPPORTED)");
	CHECK(config(&h, fw_platform, TEST_PLATFORM_DATA).error == SBI_ERR_NOT_SUPPORTED,
	      "virt: no SBI_PMU_FW_PLATFORM events (NOT_SUPPORTED)");
	sim_free(&sim);

	/* sifive_u and spike: nothing for the PMU */
	board_select(TREE("ucbbar,spike-bare-dev"));
	CHECK(hart_init(&h, &sim) == SBI_SUCCESS && !h.hooks && !h.caps.quirks,
	      "spike: no hooks, no quirks");
	sim_free(&sim);
}

/*
 * test_board --match FILE...: the board (and vendor overflow back end)
 * each devicetree blob selects, one line each (tests/dt/run.sh checks the
 * Linux boards' trees with it).
 */
static int match_files(int n, char **files)
{
	static char buf[1 << 20];

	for (int i = 0; i < n; i++) {
		FILE *f = fopen(files[i], "rb");
		size_t len = f ? fread(buf, 1, sizeof(buf), f) : 0;

		if (f)
			fclose(f);
		if (!len || fdt_check_header(buf)) {
			printf("%s: not a devicetree blob\n", files[i]);
			return 1;
		}
		board_select(buf);
		printf("%s: board %s overflow %d\n", files[i], board->name,
		       (int)board_pmu_overflow());
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--match"))
		return match_files(argc - 2, argv + 2);
	test_match_table();
	test_cpu_table();
	test_pmu_hooks();
	printf("board: %d checks, %d failed\n", count, failures);
	return failures != 0;
}
