/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the two devicetree fuzz targets (fuzz_dt.c: raw blobs,
 * fuzz_dt_gen.c: generated riscv,pmu nodes) check on one blob, with the
 * firmware's code built for the host: lib/fdt/fdt_validate.c,
 * lib/fdt/fdt_pmu.c, lib/fdt/fdt_helpers.c, lib/fdt/fdt_aia.c (with
 * fdt_harts.c, lib/utils/hartmask.c) and lib/pmu/pmu_map.c over
 * Linux 6.1's libfdt (the firmware's), all instrumented.  The blob sits in a
 * heap buffer of exactly its size, so any read or write past it, or before
 * any stack buffer, is an ASan report.
 */
#ifndef TALLY_FUZZ_DT_CHECK_H
#define TALLY_FUZZ_DT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libfdt.h>
#include <tally/aia.h>
#include <tally/fdt_helpers.h>
#include <tally/fdt_pmu.h>
#include <tally/fdt_validate.h>

/* The system's libfdt (Debian libfdt-dev) fdt_check_full, symbols renamed. */
int sys_fdt_check_full(const void *fdt, size_t bufsize);

static void dt_fail(const char *what, long a)
{
	fprintf(stderr, "fuzz_dt: invariant broken: %s (%ld)\n", what, a);
	abort();
}

#define DT_CHECK(cond, what, a)	do { if (!(cond)) dt_fail(what, (long)(a)); } while (0)

static unsigned int dt_msgs;

/* Every message: "pmu: ...", printable, shorter than FDT_PMU_MSG_MAX. */
static void dt_msg(void *ctx, const char *msg)
{
	size_t len = strnlen(msg, FDT_PMU_MSG_MAX);

	(void)ctx;
	dt_msgs++;
	DT_CHECK(len < FDT_PMU_MSG_MAX && !strncmp(msg, "pmu: ", 5), "malformed message", len);
	for (size_t i = 0; i < len; i++)
		DT_CHECK(msg[i] >= 0x20 && msg[i] < 0x7F, "non-printable byte in a message", i);
}

static unsigned int dt_aia_msgs;

/* Every AIA message: "aia: ...", printable, shorter than FDT_AIA_MSG_MAX. */
static void dt_aia_msg(void *ctx, const char *msg)
{
	size_t len = strnlen(msg, FDT_AIA_MSG_MAX);

	(void)ctx;
	dt_aia_msgs++;
	DT_CHECK(len < FDT_AIA_MSG_MAX && !strncmp(msg, "aia: ", 5), "malformed aia message", len);
	for (size_t i = 0; i < len; i++)
		DT_CHECK(msg[i] >= 0x20 && msg[i] < 0x7F, "non-printable byte in an aia message", i);
}

static struct hart_map dt_harts;
static struct aia_desc dt_aia;

/* What the firmware would program: files inside their regions, sources in range. */
static void dt_aia_check(const struct aia_desc *aia)
{
	const struct imsic_desc *im[2] = { &aia->imsic_m, &aia->imsic_s };

	for (int k = 0; k < 2; k++)
		for (unsigned long h = 0; im[k]->present && h < TALLY_MAX_HARTS; h++) {
			bool inside = !im[k]->file[h];

			for (unsigned int r = 0; r < im[k]->nr_regs; r++)
				inside |= im[k]->file[h] >= im[k]->regs[r].base &&
					  im[k]->file[h] - im[k]->regs[r].base < im[k]->regs[r].size;
			DT_CHECK(inside, "an IMSIC file outside its regions", h);
		}
	DT_CHECK(aia->nr_aplics <= AIA_MAX_MLEVEL_APLICS, "too many APLICs", aia->nr_aplics);
	for (unsigned int i = 0; i < aia->nr_aplics; i++) {
		const struct aplic_desc *d = &aia->aplic[i];

		DT_CHECK(d->num_sources >= 1 && d->num_sources <= APLIC_MAX_SOURCES,
			 "APLIC sources out of range", d->num_sources);
		for (unsigned int j = 0; j < d->nr_delegations; j++)
			DT_CHECK(d->deleg[j].first >= 1 && d->deleg[j].first <= d->deleg[j].last &&
				 d->deleg[j].last <= d->num_sources && d->deleg[j].child < 1024,
				 "delegation out of range", j);
	}
}

/*
 * The fix-up of the next stage's tree (valid trees only, as in the firmware),
 * on a copy with the room it asks for: the result still validates and holds
 * no M-level AIA node the parser would use.
 */
static void dt_aia_fixup_check(const void *fdt)
{
	size_t size = fdt_totalsize(fdt) + 512;
	void *copy = malloc(size);
	int ret;

	if (!copy)
		return;
	memcpy(copy, fdt, fdt_totalsize(fdt));
	ret = fdt_aia_fixup(copy);
	if (ret >= 0) {
		DT_CHECK(fdt_totalsize(copy) <= size, "fix-up grew past its room", fdt_totalsize(copy));
		DT_CHECK(!fdt_validate(copy, fdt_totalsize(copy)), "fix-up broke the tree", ret);
		fdt_hart_map(copy, &dt_harts);
		(void)fdt_aia_parse(copy, &dt_harts, &dt_aia, NULL, NULL);
		DT_CHECK(ret >= 64 || (!dt_aia.imsic_m.present && !dt_aia.nr_aplics),
			 "an M-level AIA node left enabled", ret);
	}
	free(copy);
}

/*
 * The read-only lookups the generic platform makes at boot, also on a tree
 * that fails validation (platform/generic/fdt_platform.c and fdt_driver.c):
 * console, harts, memory, CLINT/ACLINT, reset, on a walkable tree
 * (fdt_walkable()), also one that fails validation.  They must stay inside
 * the blob and end (a lookup that loops is a libFuzzer timeout).
 */
static void dt_platform_lookups(const void *fdt)
{
	static const char *const compat[] = { "riscv,clint0", "riscv,aclint-mswi",
					      "ns16550a", "sifive,test0", NULL };
	int chosen = fdt_path_offset(fdt, "/chosen"), cpus, node, len;
	unsigned long base, size;
	const char *path;

	path = chosen >= 0 ? fdt_getprop(fdt, chosen, "stdout-path", &len) : NULL;
	if (path && len > 0 && memchr(path, '\0', (size_t)len))
		(void)fdt_path_node(fdt, path);
	cpus = fdt_path_offset(fdt, "/cpus");
	if (cpus >= 0) {
		(void)fdt_u32(fdt, cpus, "timebase-frequency", 0);
		fdt_for_each_subnode(node, fdt, cpus) {
			(void)fdt_node_enabled(fdt, node);
			(void)fdt_string_prop(fdt, node, "device_type");
			(void)fdt_reg(fdt, node, 0, &base, NULL);
		}
	}
	fdt_for_each_subnode(node, fdt, 0)
		for (int i = 0; i < 4 && !fdt_reg(fdt, node, i, &base, &size); i++)
			;
	node = fdt_find_compatible(fdt, compat);
	if (node >= 0) {
		const fdt32_t *ie = fdt_getprop(fdt, node, "interrupts-extended", &len);

		for (int i = 0; ie && i + 1 < len / 4 && i < 16; i += 2)
			(void)fdt_hartid_of_intc(fdt, fdt32_to_cpu(ie[i]));
	}
	(void)fdt_has_mswi(fdt);
	fdt_hart_map(fdt, &dt_harts);
	dt_aia_msgs = 0;
	int ret = fdt_aia_parse(fdt, &dt_harts, &dt_aia, dt_aia_msg, NULL);
	DT_CHECK(ret >= 0 && (unsigned int)ret == dt_aia_msgs, "aia: return value != messages", ret);
	dt_aia_check(&dt_aia);
}

static struct pmu_map dt_map;

/*
 * One blob of size bytes.  must_be_valid: the generator built it with
 * libfdt's sequential writer, so the validation must accept it.
 */
static void dt_check_blob(const void *fdt, size_t size, uint32_t hart_counters,
			  bool must_be_valid)
{
	struct fdt_pmu_stats st;
	int err, sys, ret;
	bool walkable;

	err = fdt_validate(fdt, size);
	/*
	 * Tally's check is at least as strict as libfdt's own.  The oracle
	 * only sees trees Tally accepts: Debian's libfdt 1.6.1 fdt_check_full()
	 * itself dereferences NULL on some malformed blobs (found by this
	 * target; corpus file oracle-crash-*), which is not ours to fix.
	 */
	sys = err ? 0 : sys_fdt_check_full(fdt, size);
	DT_CHECK(!sys, "fdt_validate accepts a tree fdt_check_full refuses", sys);
	DT_CHECK(!must_be_valid || !err, "fdt_validate refuses a tree libfdt wrote", err);
	DT_CHECK(err <= 0, "fdt_validate returned a positive value", err);

	/*
	 * The firmware reads nothing from a tree that is not walkable (bad
	 * header, misaligned blocks, a token chain that does not reach
	 * FDT_END moving forward: platform_init() halts); the platform
	 * lookups run on every other tree, valid or not.  The parser's
	 * contract is only a blob whose totalsize bytes are readable: it
	 * validates the tree itself.
	 */
	walkable = fdt_walkable(fdt, size);
	DT_CHECK(walkable || err, "fdt_validate accepts a tree fdt_walkable refuses", 0);
	DT_CHECK(!walkable || err != -FDT_ERR_ALIGNMENT, "a misaligned tree is walkable", err);
	if (size < sizeof(struct fdt_header) || size < fdt_header_size(fdt) || fdt_check_header(fdt) ||
	    fdt_totalsize(fdt) > size || err == -FDT_ERR_ALIGNMENT)
		return;
	if (walkable)
		dt_platform_lookups(fdt);

	dt_msgs = 0;
	ret = fdt_pmu_parse_stats(fdt, &dt_map, hart_counters, dt_msg, NULL, &st);
	DT_CHECK(ret >= 0 && (unsigned int)ret == dt_msgs, "return value != messages", ret);
	DT_CHECK(dt_map.frozen, "map not frozen", 0);
	if (err) {
		DT_CHECK(st.fdt_invalid && st.node < 0 && dt_msgs == 1 &&
			 pmu_map_nr_ranges(&dt_map) == 0, "an invalid tree was read", err);
		return;
	}
	for (unsigned int p = 0; p < FDT_PMU_NR_PROPS; p++)
		DT_CHECK(st.loaded[p] <= st.rows[p], "more rows loaded than read", p);
	dt_aia_fixup_check(fdt);
	if (hart_counters != FDT_PMU_ANY_COUNTERS) {
		struct pmu_map_range r;

		for (unsigned int i = 0; pmu_map_range_at(&dt_map, i, &r); i++)
			DT_CHECK(!(r.counters & ~hart_counters), "row names an absent counter",
				 r.counters);
	}
}

#endif
