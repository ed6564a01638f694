// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host test of the AIA devicetree parser (lib/fdt/fdt_aia.c): prints what
 * it found in a blob, one fact per line, for tests/dt/run.sh to compare.
 *
 *   test_fdt_aia FILE.dtb                 the description and every message
 *   test_fdt_aia --fixup OUT.dtb FILE.dtb fdt_aia_fixup() first (OUT: the
 *                                         result), then the description
 *
 * Lines:
 *   imsic-m|imsic-s: ids N guest G hart H group B@S base 0x.. files N regs N
 *   file <m|s> <hart index> 0x<addr>
 *   aplic 0x<base>+0x<size>: sources N msi|direct idcs N children N
 *   deleg 0x<base> <first>-<last> child <n>
 *   mmsi|smsi 0x<base>: ppn 0x.. lhxs N lhxw N hhxs N hhxw N
 *   slevel-aplics N
 *   fixup: N nodes disabled
 *   warning: <message>
 *   messages N          (the return value, which must equal the count)
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/aia.h>
#include <tally/fdt_helpers.h>

static struct aia_desc aia;
static struct hart_map map;
static int msgs;

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	msgs++;
	if (strlen(msg) >= FDT_AIA_MSG_MAX || strncmp(msg, "aia: ", 5))
		printf("bad-message: %s\n", msg);
	printf("warning: %s\n", msg);
}

static void *read_blob(const char *path, size_t *size, size_t extra)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = calloc(1, (size_t)n + extra)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return NULL;	/* (buf leaks on a short read: the test stops) */
	}
	fclose(f);
	*size = (size_t)n;
	return buf;
}

static void print_imsic(const char *name, const struct imsic_desc *d)
{
	if (!d->present)
		return;
	printf("%s: ids %u guest %u hart %u group %u@%u base 0x%lx files %lu regs %u\n",
	       name, d->num_ids, d->guest_bits, d->hart_bits, d->group_bits, d->group_shift,
	       d->base, d->nr_files, d->nr_regs);
	for (unsigned long h = 0; h < TALLY_MAX_HARTS; h++)
		if (d->file[h])
			printf("file %c %lu 0x%lx\n", name[6], h, d->file[h]);
}

static void print_msicfg(const char *name, unsigned long base, const struct aplic_msicfg *c)
{
	printf("%s 0x%lx: ppn 0x%lx lhxs %u lhxw %u hhxs %u hhxw %u\n", name, base,
	       c->base_ppn, c->lhxs, c->lhxw, c->hhxs, c->hhxw);
}

static void print_aplic(const struct aplic_desc *d)
{
	printf("aplic 0x%lx+0x%lx: sources %u %s idcs %u children %u\n", d->base, d->size,
	       d->num_sources, d->msi_mode ? "msi" : "direct", d->nr_idcs, d->nr_children);
	for (unsigned int i = 0; i < d->nr_delegations; i++)
		printf("deleg 0x%lx %u-%u child %u\n", d->base, d->deleg[i].first,
		       d->deleg[i].last, d->deleg[i].child);
	if (d->has_mmsi)
		print_msicfg("mmsi", d->base, &d->mmsi);
	if (d->has_smsi)
		print_msicfg("smsi", d->base, &d->smsi);
}

int main(int argc, char **argv)
{
	const char *fixup_out = NULL;
	size_t size;
	void *fdt;
	int ret;

	if (argc == 4 && !strcmp(argv[1], "--fixup")) {
		fixup_out = argv[2];
		argv += 2;
	} else if (argc != 2) {
		fprintf(stderr, "usage: %s [--fixup OUT.dtb] FILE.dtb\n", argv[0]);
		return 2;
	}
	fdt = read_blob(argv[1], &size, 4096);
	if (!fdt || fdt_check_header(fdt)) {
		fprintf(stderr, "%s: not a readable DTB\n", argv[1]);
		return 2;
	}
	if (fixup_out) {
		FILE *f;

		ret = fdt_aia_fixup(fdt);
		printf("fixup: %d nodes disabled\n", ret);
		f = fopen(fixup_out, "wb");
		if (!f || fwrite(fdt, 1, fdt_totalsize(fdt), f) != fdt_totalsize(fdt) || fclose(f)) {
			free(fdt);
			return 2;
		}
	}
	fdt_hart_map(fdt, &map);
	ret = fdt_aia_parse(fdt, &map, &aia, warn, NULL);
	print_imsic("imsic-m", &aia.imsic_m);
	print_imsic("imsic-s", &aia.imsic_s);
	for (unsigned int i = 0; i < aia.nr_aplics; i++)
		print_aplic(&aia.aplic[i]);
	printf("slevel-aplics %u\n", aia.nr_slevel_aplics);
	for (unsigned int i = 0; i < aia.nr_slevel_aplics && i < AIA_MAX_SLEVEL_APLICS; i++)
		printf("slevel 0x%lx+0x%lx: sources %u %s\n", aia.slevel[i].base,
		       aia.slevel[i].size, aia.slevel[i].num_sources,
		       aia.slevel[i].msi_mode ? "msi" : "direct");
	printf("messages %d\n", ret);
	if (ret != msgs)
		printf("bad-return: %d messages sent\n", msgs);
	free(fdt);
	return 0;
}
