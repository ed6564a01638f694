// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-pmu-dtcheck: what Tally makes of a devicetree's riscv,pmu node.
 *
 * Runs the firmware's own parser (lib/fdt/fdt_pmu.c over lib/pmu/pmu_map.c,
 * built for the host against the system libfdt) on a .dtb and prints every
 * problem it reports and the event map it builds.
 *
 *   tally-pmu-dtcheck [-c MASK | -n PMU_NUM] [-q] FILE.dtb | -
 *
 * Exit status: 0 no problem, 1 problems reported (the firmware would print
 * the same warnings at boot), 2 not a valid DTB, unreadable, or bad usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <tally/fdt_pmu.h>
#include <tally/fdt_validate.h>
#include <tally/pmu_map.h>

static const char *prog = "tally-pmu-dtcheck";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [-c MASK | -n PMU_NUM] [-q] FILE.dtb | -\n"
		"  Parse the riscv,pmu node as the Tally firmware does; print\n"
		"  every problem and the resulting PMU event map.\n"
		"  -c MASK     counters the hart implements (bit i = mhpmcounter i),\n"
		"              e.g. 0x7d; default: any (bitmaps not checked)\n"
		"  -n PMU_NUM  the same as QEMU's -cpu rv64,pmu-num=N: counters 0, 2\n"
		"              and 3..2+N\n"
		"  -q          problems and the summary only, not the rows\n"
		"exit status: 0 clean, 1 problems found, 2 not a valid DTB\n",
		prog);
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *read_all(const char *path, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, len = 0, n;
	char *buf;

	if (!f)
		die("%s: %s", path, strerror(errno));
	buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	if (!buf)
		die("out of memory");
	if (ferror(f))
		die("%s: read error", path);
	if (f != stdin)
		fclose(f);
	*size = len;
	return buf;
}

/* "0,2-5,9": the counters of a bitmap, for people. */
static const char *counter_list(uint32_t bits, char *buf, size_t size)
{
	size_t len = 0;
	int i = 0;

	buf[0] = '\0';
	while (i < 32) {
		int j;

		if (!(bits >> i & 1)) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 32 && (bits >> (j + 1) & 1); j++)
			;
		len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", i);
		if (j > i)
			len += (size_t)snprintf(buf + len, size - len, "-%d", j);
		if (len >= size)
			break;
		i = j + 1;
	}
	return buf;
}

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	printf("warning: %s\n", msg);
}

static void print_map(const struct pmu_map *map, const struct fdt_pmu_stats *st,
		      bool rows)
{
	struct pmu_map_range r;
	struct pmu_map_selector s;
	struct pmu_map_raw w;
	char list[100];
	unsigned int i;

	for (int prop = 0; prop < FDT_PMU_NR_PROPS; prop++) {
		const char *name = fdt_pmu_prop_name(prop);

		if (st->present[prop])
			printf("%s: %u of %u row%s loaded\n", name,
			       st->loaded[prop], st->rows[prop],
			       st->rows[prop] == 1 ? "" : "s");
		else if (prop == FDT_PMU_PROP_EVENTS && st->default_selectors)
			printf("%s: absent: mhpmevent selector = event_idx\n", name);
		else
			printf("%s: absent\n", name);

		if (!rows)
			continue;
		switch (prop) {
		case FDT_PMU_PROP_COUNTERS:
			for (i = 0; pmu_map_range_at(map, i, &r); i++)
				printf("  events 0x%05" PRIx32 "-0x%05" PRIx32
				       " counters 0x%08" PRIx32 " (%s)\n",
				       r.first, r.last, r.counters,
				       counter_list(r.counters, list, sizeof(list)));
			break;
		case FDT_PMU_PROP_EVENTS:
			for (i = 0; pmu_map_selector_at(map, i, &s); i++)
				printf("  event 0x%05" PRIx32 " mhpmevent 0x%016" PRIx64 "\n",
				       s.event_idx, s.selector);
			break;
		case FDT_PMU_PROP_RAW:
			for (i = 0; pmu_map_raw_at(map, i, &w); i++)
				printf("  raw invariant 0x%016" PRIx64 " mask 0x%016" PRIx64
				       " counters 0x%08" PRIx32 " (%s)\n",
				       w.invariant, w.mask, w.counters,
				       counter_list(w.counters, list, sizeof(list)));
			break;
		}
	}
	printf("always: event 0x1 (cycles) on counter 0, event 0x2 (instructions) on counter 2\n");
	printf("raw masks: %u (lookup bisects each)\n", pmu_map_nr_raw_masks(map));
}

int main(int argc, char **argv)
{
	uint32_t counters = FDT_PMU_ANY_COUNTERS;
	struct fdt_pmu_stats st;
	struct pmu_map *map;
	bool rows = true;
	const char *path;
	char nodepath[256];
	size_t size;
	void *fdt;
	int opt, err;

	while ((opt = getopt(argc, argv, "c:n:qh")) != -1) {
		char *end;
		unsigned long v;

		switch (opt) {
		case 'c':
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || v > 0xFFFFFFFFUL)
				die("-c %s: not a 32-bit counter mask", optarg);
			counters = (uint32_t)v;
			break;
		case 'n':
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || v > 29)
				die("-n %s: not a pmu-num (0..29)", optarg);
			counters = 0x5U | (uint32_t)(((1ULL << v) - 1) << 3);
			break;
		case 'q':
			rows = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	fdt = read_all(path, &size);

	/* libfdt reads the full header whatever version it names */
	if (size < sizeof(struct fdt_header))
		die("%s: not a valid DTB (%zu bytes, too short)", path, size);
	err = fdt_validate(fdt, size);	/* the firmware's own whole-tree check */
	if (err)
		die("%s: not a valid DTB (%s)", path, fdt_strerror(err));

	map = malloc(sizeof(*map));
	if (!map)
		die("out of memory");

	printf("file: %s\n", strcmp(path, "-") ? path : "(stdin)");
	if (counters == FDT_PMU_ANY_COUNTERS)
		printf("hart counters: any (not checked; see -c / -n)\n");
	else
		printf("hart counters: 0x%08" PRIx32 "\n", counters);
	fflush(stdout);

	fdt_pmu_parse_stats(fdt, map, counters, print_warning, NULL, &st);

	if (st.node >= 0) {
		if (fdt_get_path(fdt, st.node, nodepath, sizeof(nodepath)) < 0)
			strcpy(nodepath, "?");
		printf("node: %s\n", nodepath);
	} else {
		printf("node: none compatible with \"%s\" (enabled): no event map\n",
		       FDT_PMU_COMPATIBLE);
	}
	/* what the virt board (platform/virt) gives lib/pmu with this map */
	if (!fdt_node_check_compatible(fdt, 0, "riscv-virtio"))
		printf("quirk: QEMU virt: one counter per event\n");
	print_map(map, &st, rows);
	printf("result: %u problem%s\n", st.warnings, st.warnings == 1 ? "" : "s");
	free(map);
	free(fdt);
	return st.warnings ? 1 : 0;
}
