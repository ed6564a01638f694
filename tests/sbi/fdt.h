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

#define FDT_MAX_AIA	8
#define FDT_MAX_AIA_REGS 4

/* An AIA node: an IMSIC ("riscv,imsics") or an APLIC domain ("riscv,aplic"). */
struct aia_node {
	bool imsic;			/* else an APLIC domain */
	bool mlevel;			/* its harts' IRQ 11 (an MSI-mode APLIC: its
					 * msi-parent's); else S-level (IRQ 9) */
	bool msi;			/* an APLIC with msi-parent */
	bool enabled;			/* status absent or okay */
	unsigned int nregs;
	struct mem_range regs[FDT_MAX_AIA_REGS];
	uint32_t phandle, msi_parent;
	uint32_t irq;			/* interrupts-extended's first IRQ */
	uint32_t guest_bits;		/* IMSIC: riscv,guest-index-bits */
	uint32_t num_sources;		/* APLIC: riscv,num-sources */
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
	unsigned int naia;			/* AIA nodes, in tree order */
	struct aia_node aia[FDT_MAX_AIA];
	uint32_t free_at_end;			/* bytes after the blob's last block */
	uint64_t uart_base;			/* the first serial node with */
	uint32_t uart_irq;			/* interrupts (its first cell), or 0 */
};

/* Returns 0, or a negative number for a blob it cannot read. */
int fdt_parse(const void *fdt, struct fdt_info *info);

/* A multi-letter extension in a riscv,isa string: "_name" followed by
 * '_' or the end. */
bool isa_has_multi(const char *isa, const char *name);

#endif
