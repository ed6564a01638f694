/* A minimal flattened-devicetree reader: just what the tests need to
 * know about the machine, read once at boot. */
#ifndef SBI_TEST_FDT_H
#define SBI_TEST_FDT_H

#include <stdbool.h>
#include <stdint.h>

#define FDT_MAX_CPUS	32
#define FDT_MAX_RESV	8

struct mem_range {
	uint64_t base, size;
};

struct fdt_info {
	unsigned int ncpus;			/* enabled /cpus/cpu@N nodes */
	unsigned long hartids[FDT_MAX_CPUS];
	unsigned long max_hartid;
	uint64_t timebase;			/* /cpus timebase-frequency */
	bool cpu_has_h;				/* riscv,isa names the H ext */
	struct mem_range mem;			/* first /memory reg entry */
	unsigned int nresv;			/* /reserved-memory children and
						 * the header's reserve map */
	struct mem_range resv[FDT_MAX_RESV];
	const char *bootargs;			/* /chosen bootargs, or "" */
};

/* Returns 0, or a negative number for a blob it cannot read. */
int fdt_parse(const void *fdt, struct fdt_info *info);

#endif
