// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests of the event map builder (lib/pmu/pmu_map.c) and the
 * riscv,pmu parser (lib/fdt/fdt_pmu.c), built with PMU_MAP_DEBUG_COUNTERS
 * so that lookups report how many comparisons they make.
 *
 *   test_fdt_pmu [--big FILE.dtb] [--refuse FDT_ERR_X FILE.dtb] [FILE.dtb...]
 *
 * Without arguments: builder tests on the API.  --big: a large generated
 * raw map that must load fully and answer every lookup like a reference
 * linear scan, with a bounded number of comparisons.  --refuse: a malformed
 * blob refused as a whole with that libfdt error.  Other files: the
 * parser's callback contract (every message well formed, the return value
 * equals the number of messages).
 * One line per check: "PASS: ..." / "FAIL: ..."; exit status 1 on failure.
 */
#include <inttypes.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tally/fdt_helpers.h>
#include <tally/fdt_pmu.h>
#include <tally/fdt_validate.h>
#include <tally/pmu_map.h>

static int failures;
static struct pmu_map map;

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: dt: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures += !ok;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic, good enough to scramble test rows */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- reference model ----------------------------------------------------- */

struct ref_row {
	uint64_t mask, invariant;
	uint32_t counters;
};

static uint32_t ref_lookup(const struct ref_row *rows, unsigned int n,
			   uint64_t selector)
{
	uint32_t counters = 0;

	for (unsigned int i = 0; i < n; i++)
		if ((selector & rows[i].mask) == rows[i].invariant)
			counters |= rows[i].counters;
	return counters;
}

/* The most comparisons a lookup may make: one bisection per mask group. */
static unsigned long lookup_bound(const struct pmu_map *m)
{
	unsigned long bound = 0;
	unsigned int g;

	for (g = 0; g < pmu_map_nr_raw_masks(m); g++) {
		unsigned int n = m->group[g].count, bits = 0;

		while (n >> bits)
			bits++;
		bound += bits + 1;
	}
	return bound;
}

/* Every reference row and 'extra' random selectors give the same answer. */
static void compare_lookups(const char *what, const struct ref_row *rows,
			    unsigned int n, unsigned int extra)
{
	unsigned long bound = lookup_bound(&map), worst = 0, total = 0;
	unsigned int i, bad = 0, lookups = 0;

	for (i = 0; i < n + extra; i++) {
		uint64_t sel;
		uint32_t got;

		if (i < n)
			sel = rows[i].invariant | (rnd() & ~rows[i].mask &
						  0x00FFFFFFFFFFFFFFULL);
		else if (i & 1)
			sel = rnd() & 0x00FFFFFFFFFFFFFFULL;
		else
			sel = rows[rnd() % n].invariant ^ (1ULL << (rnd() % 56));
		pmu_map_debug_comparisons = 0;
		got = pmu_map_raw_counters(&map, sel);
		lookups++;
		total += pmu_map_debug_comparisons;
		if (pmu_map_debug_comparisons > worst)
			worst = pmu_map_debug_comparisons;
		if (got != ref_lookup(rows, n, sel) && bad++ < 3)
			printf("  selector 0x%" PRIx64 ": map 0x%x, reference 0x%x\n",
			       sel, got, ref_lookup(rows, n, sel));
	}
	check(!bad, "%s: %u lookups agree with a linear scan (%u differ)",
	      what, lookups, bad);
	check(worst <= bound && bound < n / 4,
	      "%s: at most %lu comparisons per lookup (bisection bound %lu, %u masks, %u rows; avg %.1f)",
	      what, worst, bound, pmu_map_nr_raw_masks(&map), n,
	      (double)total / lookups);
}

/* ---- builder tests -------------------------------------------------------- */

static struct ref_row ref[PMU_MAP_MAX_RAW];

static uint64_t test_mask(unsigned int g)
{
	/* distinct masks: low bits cleared, and a hole above the keys */
	return (0x00FFFFFFFFFFFFFFULL << (g % 8)) & ~(1ULL << (48 + g / 8));
}

static void test_raw_random(unsigned int nmasks, const char *order)
{
	unsigned int i, n = PMU_MAP_MAX_RAW, errors = 0, dup_ok = 0, sorted = 1;
	struct pmu_map_raw prev = { 0 }, row;
	char what[96];
	double t;

	snprintf(what, sizeof(what), "raw map of %u rows, %u masks, %s order",
		 n, nmasks, order);
	/* unique (mask, invariant) pairs: a distinct key in bits 16..47 */
	for (i = 0; i < n; i++) {
		uint64_t key = (uint64_t)((i * 2654435761U) & 0xFFFFFFFFU) << 16;

		ref[i].mask = test_mask(i % nmasks);
		ref[i].invariant = (key | (rnd() & 0xFFFF)) & ref[i].mask;
		ref[i].counters = 1U << (3 + rnd() % 29);
	}
	if (!strcmp(order, "random")) {
		for (i = n - 1; i > 0; i--) {
			unsigned int j = (unsigned int)(rnd() % (i + 1));
			struct ref_row t = ref[i];

			ref[i] = ref[j];
			ref[j] = t;
		}
	} else if (!strcmp(order, "descending")) {
		for (i = 0; i < n / 2; i++) {
			struct ref_row t = ref[i];

			ref[i] = ref[n - 1 - i];
			ref[n - 1 - i] = t;
		}
	}

	pmu_map_init(&map);
	t = now();
	for (i = 0; i < n; i++) {
		errors += pmu_map_add_raw(&map, ref[i].invariant, ref[i].mask,
					  ref[i].counters) != PMU_MAP_OK;
		/* a repeat is refused whether the first copy is staged or merged */
		if (i % 997 == 5) {
			unsigned int j = i % 3 ? i : i / 2;

			dup_ok += pmu_map_add_raw(&map, ref[j].invariant,
						  ref[j].mask, 0x8) ==
				  PMU_MAP_ERR_DUPLICATE;
			dup_ok--;
		}
	}
	t = now() - t;
	check(!errors, "%s: every row accepted (%.1f ms)", what, t * 1e3);
	check(dup_ok == 0, "%s: repeated rows refused as duplicates", what);
	check(pmu_map_add_raw(&map, 0x10, 0xFF, 0x8) == PMU_MAP_ERR_FULL,
	      "%s: row %u refused: table full", what, n + 1);
	check(pmu_map_raw_counters(&map, ref[0].invariant) == 0,
	      "%s: no raw answers before the freeze", what);
	pmu_map_freeze(&map);
	check(pmu_map_add_raw(&map, 0x10, 0xFF, 0x8) == PMU_MAP_ERR_FROZEN &&
	      pmu_map_add_range(&map, 0x3, 0x3, 0x8) == PMU_MAP_ERR_FROZEN,
	      "%s: frozen map refuses rows", what);

	for (i = 0; pmu_map_raw_at(&map, i, &row); i++) {
		if (i && (row.mask < prev.mask ||
			  (row.mask == prev.mask && row.invariant <= prev.invariant)))
			sorted = 0;
		prev = row;
	}
	check(i == n && pmu_map_nr_raw(&map) == n && sorted &&
	      pmu_map_nr_raw_masks(&map) == nmasks,
	      "%s: iterator lists %u rows sorted by (mask, invariant) in %u groups",
	      what, i, pmu_map_nr_raw_masks(&map));
	compare_lookups(what, ref, n, 20000);
}

static void test_masks_limit(void)
{
	unsigned int g;
	int err = 0;

	pmu_map_init(&map);
	for (g = 0; g < PMU_MAP_MAX_RAW_MASKS && !err; g++)
		err = pmu_map_add_raw(&map, 0, ~0ULL << g, 0x8);
	check(!err && pmu_map_add_raw(&map, 0, 0x5555, 0x8) ==
		      PMU_MAP_ERR_TOO_MANY_MASKS &&
	      pmu_map_add_raw(&map, 0x100, ~0ULL, 0x8) == PMU_MAP_OK,
	      "mask %u refused (limit %u), a known mask still accepted",
	      PMU_MAP_MAX_RAW_MASKS + 1, PMU_MAP_MAX_RAW_MASKS);
}

static void test_hw_rows(void)
{
	uint64_t sel = 0;
	bool ok;

	pmu_map_init(&map);
	pmu_map_freeze(&map);
	ok = pmu_map_hw_counters(&map, 0x1, &sel) == 0x1 && sel == 0x1 &&
	     pmu_map_hw_counters(&map, 0x2, &sel) == 0x4 && sel == 0x2 &&
	     pmu_map_hw_counters(&map, 0x3, &sel) == 0 &&
	     pmu_map_raw_counters(&map, 0x1234) == 0;
	check(ok, "empty map: cycles on counter 0, instructions on counter 2, nothing else");

	pmu_map_init(&map);
	ok = pmu_map_add_range(&map, 0x10019, 0x1001b, 0x78) == PMU_MAP_OK &&
	     pmu_map_add_range(&map, 0x3, 0x6, 0x18) == PMU_MAP_OK &&
	     pmu_map_add_range(&map, 0x1001b, 0x10020, 0x8) == PMU_MAP_ERR_OVERLAP &&
	     pmu_map_add_range(&map, 0x1, 0x6, 0x8) == PMU_MAP_ERR_OVERLAP &&
	     pmu_map_add_range(&map, 0x7, 0x7, 0x1) == PMU_MAP_ERR_FIXED_COUNTER &&
	     pmu_map_add_selector(&map, 0x4, 0x1234) == PMU_MAP_OK &&
	     pmu_map_add_selector(&map, 0x4, 0x1235) == PMU_MAP_ERR_DUPLICATE &&
	     pmu_map_add_selector(&map, 0x7, 0x1) == PMU_MAP_ERR_NO_COUNTERS;
	pmu_map_freeze(&map);
	ok = ok && pmu_map_hw_counters(&map, 0x4, &sel) == 0x18 && sel == 0x1234 &&
	     pmu_map_hw_counters(&map, 0x1001a, &sel) == 0x78 && sel == 0x1001a &&
	     pmu_map_hw_counters(&map, 0x1001c, &sel) == 0 &&
	     pmu_map_hw_counters(&map, 0x2, &sel) == 0x4;
	check(ok, "ranges and selectors: overlap, fixed counters, duplicates, lookups, default selector = event_idx");
}

static unsigned int msgs;

static void count_msg(void *ctx, const char *msg)
{
	(void)ctx;
	msgs++;
	if (strncmp(msg, "pmu: ", 5) || strlen(msg) >= FDT_PMU_MSG_MAX - 1 ||
	    strchr(msg, '\n'))
		check(false, "malformed message \"%s\"", msg);
}

static void test_no_fdt(void)
{
	static const char junk[64] = "not a devicetree";
	int ret;

	msgs = 0;
	ret = fdt_pmu_parse(NULL, &map, 0x7d, count_msg, NULL);
	check(ret == 1 && msgs == 1 && map.frozen &&
	      pmu_map_hw_counters(&map, 0x1, NULL) == 0x1 &&
	      pmu_map_nr_ranges(&map) == 0,
	      "no devicetree: one message, frozen fallback map");
	msgs = 0;
	ret = fdt_pmu_parse(junk, &map, 0x7d, NULL, NULL);
	check(ret == 1 && map.frozen,
	      "invalid devicetree, no callback: counted, frozen fallback map");
}

/* ---- devicetree files ----------------------------------------------------- */

static void *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long size;
	void *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size > 0 ? (size_t)size : 1);
	if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void test_file(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	void *fdt = load(path);
	int ret;

	if (!fdt) {
		check(false, "%s: unreadable", base);
		return;
	}
	msgs = 0;
	ret = fdt_pmu_parse(fdt, &map, 0x7d, count_msg, NULL);
	check(ret >= 0 && (unsigned int)ret == msgs && map.frozen,
	      "%s: return value %d = messages sent %u, map frozen", base, ret, msgs);
	free(fdt);
}

/*
 * A blob the parser must refuse as a whole: one message naming the libfdt
 * error want (e.g. FDT_ERR_BADSTRUCTURE), no node looked up, no row loaded.
 * Built against Linux 6.1's libfdt under ASan, this is the regression test
 * of issue 10 defect 3 (fdt_get_path() writing before node_path()'s buffer).
 */
static char last_msg[FDT_PMU_MSG_MAX];

static void keep_msg(void *ctx, const char *msg)
{
	count_msg(ctx, msg);
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

static void test_refused(const char *path, const char *want)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct fdt_pmu_stats st;
	void *fdt = load(path);
	int ret, err;

	if (!fdt) {
		check(false, "%s: unreadable", base);
		return;
	}
	err = fdt_validate(fdt, fdt_totalsize(fdt));
	msgs = 0;
	last_msg[0] = '\0';
	ret = fdt_pmu_parse_stats(fdt, &map, 0x7d, keep_msg, NULL, &st);
	check(err < 0 && !strcmp(fdt_strerror(err), want) && ret == 1 && msgs == 1 &&
	      strstr(last_msg, want) && st.fdt_invalid && st.node < 0 &&
	      pmu_map_nr_ranges(&map) == 0 && map.frozen,
	      "%s: refused by fdt_validate (%s) and by the parser in one message: %s",
	      base, fdt_strerror(err), last_msg);
	free(fdt);
}

/*
 * Blobs the fuzz targets (tests/fuzz) turned up; each check failed before
 * its fix.
 */
static bool printable(const char *msg)
{
	for (; *msg; msg++)
		if (*msg < 0x20 || *msg > 0x7E)
			return false;
	return true;
}

static unsigned int unprintable_msgs;

static void check_printable(void *ctx, const char *msg)
{
	count_msg(ctx, msg);
	unprintable_msgs += !printable(msg);
}

static void test_fuzz_findings(void)
{
	static char buf[4096] __attribute__((aligned(8)));
	char *copy;
	size_t size;
	int err, ret;

	/* 1. a property name with an escape sequence reached the console */
	err = fdt_create(buf, sizeof(buf)) ?: fdt_finish_reservemap(buf) ?:
	      fdt_begin_node(buf, "") ?: fdt_begin_node(buf, "pmu") ?:
	      fdt_property_string(buf, "compatible", "riscv,pmu") ?:
	      fdt_property_u32(buf, "x\033[2J\r\n\x7f", 1) ?:
	      fdt_end_node(buf) ?: fdt_end_node(buf) ?: fdt_finish(buf);
	msgs = unprintable_msgs = 0;
	ret = err ? -1 : fdt_pmu_parse(buf, &map, 0x7d, check_printable, NULL);
	check(ret == 1 && msgs == 1 && unprintable_msgs == 0,
	      "fuzz finding: a property name with control bytes is printed as '?' (%d message%s, %u unprintable)",
	      ret, ret == 1 ? "" : "s", unprintable_msgs);

	/* 2. a structure block at an odd offset: libfdt's tag loads misalign */
	size = fdt_totalsize(buf);
	copy = aligned_alloc(8, (size + 2 + 7) & ~(size_t)7);
	if (copy) {
		unsigned int st = fdt_off_dt_struct(buf);

		memcpy(copy, buf, st);
		memcpy(copy + st + 2, buf + st, size - st);
		fdt_set_off_dt_struct(copy, st + 2);
		fdt_set_off_dt_strings(copy, fdt_off_dt_strings(buf) + 2);
		fdt_set_totalsize(copy, (uint32_t)size + 2);
		err = fdt_validate(copy, size + 2);
		check(err == -FDT_ERR_ALIGNMENT,
		      "fuzz finding: a structure block at offset 4n+2 is refused before any walk (%s)",
		      fdt_strerror(err));
		free(copy);
	}

	/* 3. a v17 header cut at 30 bytes: the check read past the buffer */
	copy = malloc(30);	/* exactly: ASan builds see a read past it */
	if (copy) {
		memcpy(copy, buf, 30);
		err = fdt_validate(copy, 30);
		check(err == -FDT_ERR_TRUNCATED,
		      "fuzz finding: a 30-byte buffer holding a v17 header is refused unread (%s)",
		      fdt_strerror(err));
		free(copy);
	}
}

/*
 * 4. A tree that fails fdt_validate() but whose header is sound: the root
 * has compatible = "riscv,clint0" and status = "okay" with no NUL, the
 * last 4 bytes of the blob (strings block first, structure block last, no
 * END_NODE).  The firmware's boot lookups still run on such a tree; the
 * status read ran past the blob with strcmp (crafted by hand for the lookups
 * fuzz_dt runs; corpus file
 * status-unterminated-at-blob-end).
 */
static const uint8_t unterminated_status[128] __attribute__((aligned(8))) = {
		0xd0, 0x0d, 0xfe, 0xed, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x4c,
		0x00, 0x00, 0x00, 0x38, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x11,
		0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x12,
		0x00, 0x00, 0x00, 0x34, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x63, 0x6f, 0x6d, 0x70,
		0x61, 0x74, 0x69, 0x62, 0x6c, 0x65, 0x00, 0x73, 0x74, 0x61, 0x74, 0x75,
		0x73, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x0d, 0x00, 0x00, 0x00, 0x00,
		0x72, 0x69, 0x73, 0x63, 0x76, 0x2c, 0x63, 0x6c, 0x69, 0x6e, 0x74, 0x30,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04,
		0x00, 0x00, 0x00, 0x0b, 0x6f, 0x6b, 0x61, 0x79
};

static void test_unterminated_status(void)
{
	static const char *const compat[] = { "riscv,clint0", NULL };
	uint8_t *blob = malloc(sizeof(unterminated_status));	/* exact size */
	int err, node;

	if (!blob)
		return;
	memcpy(blob, unterminated_status, sizeof(unterminated_status));
	err = fdt_validate(blob, sizeof(unterminated_status));
	node = fdt_find_compatible(blob, compat);
	check(err < 0 && node == -FDT_ERR_NOTFOUND && !fdt_string_prop(blob, 0, "status"),
	      "fuzz finding: an unterminated status at the blob's end reads as disabled, nothing past the blob (%s)",
	      fdt_strerror(err));
	free(blob);
}

/*
 * 5. A property length of 0xFFFFFFF4 (-12): fdt_next_tag() gives the
 * property's own offset as the next one, so every libfdt walk reaching it
 * (fdt_getprop() on its node, fdt_validate()'s own walk when the name is
 * valid) looped forever (found by fuzz_dt as a timeout in the boot lookups;
 * corpus file hang-prop-offset-cycle).  Without the fix this test hangs.
 * A tree with a node after the root stays walkable: the firmware boots it.
 */
static void test_prop_offset_cycle(void)
{
	static char buf[1024] __attribute__((aligned(8)));
	struct fdt_property *prop;
	int err, off;
	bool walkable;

	err = fdt_create(buf, sizeof(buf)) ?: fdt_finish_reservemap(buf) ?:
	      fdt_begin_node(buf, "") ?: fdt_begin_node(buf, "uart") ?:
	      fdt_property_string(buf, "compatible", "ns16550a") ?:
	      fdt_property_u32(buf, "clock-frequency", 1) ?:
	      fdt_end_node(buf) ?: fdt_end_node(buf) ?: fdt_finish(buf);
	off = err ? -1 : fdt_subnode_offset(buf, 0, "uart");
	off = off < 0 ? off : fdt_first_property_offset(buf, off);
	off = off < 0 ? off : fdt_next_property_offset(buf, off);
	walkable = fdt_walkable(buf, sizeof(buf));
	check(off >= 0 && walkable && !fdt_validate(buf, sizeof(buf)),
	      "the tree before the property length change is valid and walkable (%d)", off);
	if (off < 0)
		return;
	prop = fdt_offset_ptr_w(buf, off, sizeof(*prop));
	prop->len = cpu_to_fdt32(0xFFFFFFF4u);
	err = fdt_validate(buf, sizeof(buf));
	walkable = fdt_walkable(buf, sizeof(buf));
	check(err == -FDT_ERR_BADSTRUCTURE && !walkable,
	      "fuzz finding: a property length of -12 (next token = itself) is refused and not walkable (%s)",
	      fdt_strerror(err));

	err = fdt_create(buf, sizeof(buf)) ?: fdt_finish_reservemap(buf) ?:
	      fdt_begin_node(buf, "") ?: fdt_end_node(buf) ?:
	      fdt_begin_node(buf, "after-root") ?: fdt_end_node(buf) ?: fdt_finish(buf);
	walkable = !err && fdt_walkable(buf, sizeof(buf));
	err = err ?: fdt_validate(buf, sizeof(buf));
	check(err == -FDT_ERR_BADSTRUCTURE && walkable,
	      "a node after the root is refused but walkable: the firmware boots it (%s)",
	      fdt_strerror(err));
}

/*
 * 6. stdout-path "serial0" with the alias serial0 = "serial0" (a tree
 * fdt_validate() accepts): Linux 6.1's fdt_path_offset() resolved the alias
 * by calling itself on its value, recursing until the stack overflowed
 * (corpus file crash-alias-names-itself).  fdt_path_node() resolves an
 * alias once, only to a full path.
 */
static void test_alias_names_itself(void)
{
	static char buf[1024] __attribute__((aligned(8)));
	int err, uart, self, good, sub;

	err = fdt_create(buf, sizeof(buf)) ?: fdt_finish_reservemap(buf) ?:
	      fdt_begin_node(buf, "") ?: fdt_begin_node(buf, "aliases") ?:
	      fdt_property_string(buf, "serial0", "serial0") ?:
	      fdt_property_string(buf, "serial1", "/soc") ?:
	      fdt_end_node(buf) ?: fdt_begin_node(buf, "soc") ?: fdt_begin_node(buf, "uart") ?:
	      fdt_end_node(buf) ?: fdt_end_node(buf) ?: fdt_end_node(buf) ?: fdt_finish(buf);
	uart = err ? err : fdt_path_offset(buf, "/soc/uart");
	self = fdt_path_node(buf, "serial0");
	good = fdt_path_node(buf, "serial1");
	sub = fdt_path_node(buf, "serial1/uart");
	check(!err && !fdt_validate(buf, sizeof(buf)) && self == -FDT_ERR_BADPATH &&
	      good == fdt_path_offset(buf, "/soc") && sub == uart && uart > 0,
	      "fuzz finding: an alias naming itself is refused, not recursed (%d); an alias to a full path resolves (%d, %d)",
	      self, good, sub);
}

static void test_big(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct fdt_pmu_stats st;
	static struct ref_row rows[PMU_MAP_MAX_RAW];
	const fdt32_t *cells;
	void *fdt = load(path);
	unsigned int n = 0, i;
	int node, len, ret;
	double t;

	if (!fdt || fdt_check_header(fdt)) {
		check(false, "%s: not a readable DTB", base);
		return;
	}
	node = fdt_node_offset_by_compatible(fdt, -1, "riscv,pmu");
	cells = fdt_getprop(fdt, node, "riscv,raw-event-to-mhpmcounters", &len);
	if (cells)
		n = (unsigned int)len / 20;
	if (!cells || n > PMU_MAP_MAX_RAW) {
		check(false, "%s: no usable raw map", base);
		return;
	}
	for (i = 0; i < n; i++) {
		const fdt32_t *c = cells + 5 * i;

		rows[i].invariant = (uint64_t)fdt32_to_cpu(c[0]) << 32 | fdt32_to_cpu(c[1]);
		rows[i].mask = (uint64_t)fdt32_to_cpu(c[2]) << 32 | fdt32_to_cpu(c[3]);
		rows[i].counters = fdt32_to_cpu(c[4]);
	}

	msgs = 0;
	t = now();
	ret = fdt_pmu_parse_stats(fdt, &map, FDT_PMU_ANY_COUNTERS, count_msg,
				  NULL, &st);
	t = now() - t;
	check(ret == 0 && st.loaded[FDT_PMU_PROP_RAW] == n &&
	      pmu_map_nr_raw(&map) == n,
	      "%s: all %u raw rows loaded, no message (parse %.1f ms)",
	      base, pmu_map_nr_raw(&map), t * 1e3);
	compare_lookups(base, rows, n, 2 * n);
	free(fdt);
}

int main(int argc, char **argv)
{
	int i;

	test_hw_rows();
	test_masks_limit();
	test_raw_random(1, "random");
	test_raw_random(7, "random");
	test_raw_random(3, "descending");
	test_raw_random(PMU_MAP_MAX_RAW_MASKS, "ascending");
	test_no_fdt();
	test_fuzz_findings();
	test_unterminated_status();
	test_prop_offset_cycle();
	test_alias_names_itself();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--big") && i + 1 < argc)
			test_big(argv[++i]);
		else if (!strcmp(argv[i], "--refuse") && i + 2 < argc)
			test_refused(argv[i + 2], argv[i + 1]), i += 2;
		else
			test_file(argv[i]);
	}
	check(sizeof(struct pmu_map) < 160 * 1024,
	      "sizeof(struct pmu_map) = %zu bytes for %u raw rows",
	      sizeof(struct pmu_map), PMU_MAP_MAX_RAW);
	return failures ? 1 : 0;
}
