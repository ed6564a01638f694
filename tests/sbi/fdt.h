/* A minimal flattened-devicetree reader: just what the tests need to
 * know about the machine, read once at boot. */
#ifndef SBI_TEST_FDT_H
#define SBI_TEST_FDT_H

#include <stdbool.h>
#include <stdint.h>

#define FDT_MAX_CPUS	32
#define FDT_MAX_RESV	8
#define FDT_MAX_PMU_ROWS	16

/* One row of /pmu riscv,event-to-mhpmcounters. */
struct pmu_row {
	uint32_t first, last;		/* event_idx range */
	uint32_t counters;		/* bit i: mhpmcounter i */
};

struct mem_range {
	uint64_t base, size;
};

struct fdt_info {
	unsigned int ncpus;			/* enabled /cpus/cpu@N nodes */
	unsigned long hartids[FDT_MAX_CPUS];
	unsigned long max_hartid;
	uint64_t timebase;			/* /cpus timebase-frequency */
	bool cpu_has_h;				/* riscv,isa names the H ext */
	bool cpu_has_sscofpmf;			/* every cpu's riscv,isa has
						 * _sscofpmf */
	unsigned int npmu_rows;			/* rows of the riscv,pmu node's
						 * event-to-mhpmcounters (all-zero
						 * and partial rows dropped) */
	struct pmu_row pmu_rows[FDT_MAX_PMU_ROWS];
	struct mem_range mem;			/* first /memory reg entry */
	unsigned int nresv;			/* /reserved-memory children and
						 * the header's reserve map */
	struct mem_range resv[FDT_MAX_RESV];
	const char *bootargs;			/* /chosen bootargs, or "" */
	const char *cpu_isa;			/* the first cpu's riscv,isa, or
						 * NULL */
};

/* Returns 0, or a negative number for a blob it cannot read. */
int fdt_parse(const void *fdt, struct fdt_info *info);

/* A multi-letter extension in a riscv,isa string: "_name" followed by
 * '_' or the end. */
bool isa_has_multi(const char *isa, const char *name);

#endif
