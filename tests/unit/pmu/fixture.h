/* SPDX-License-Identifier: BSD-2-Clause */
/* A hart under test: the simulated PMU, the library state, the maps. */
#ifndef TALLY_PMU_TEST_FIXTURE_H
#define TALLY_PMU_TEST_FIXTURE_H

#include <tally/pmu.h>
#include <tally/pmu_fw.h>
#include "check.h"
#include "sim.h"

#define BIT(n)		(1ULL << (n))
#define EV_CYCLES	0x1UL
#define EV_INSTR	0x2UL
#define EV_CACHE_REF	0x3UL		/* in no map row */
#define EV_BR_MISS	0x6UL		/* counter 8, selector 0x1234 */
#define EV_STALL_BE	0x9UL		/* board hook: counter 10 */
#define EV_L1D_RD	0x10000UL	/* range 0x10000..0x10005: 9, 10 */
#define EV_DTLB_RD_MISS	0x10019UL	/* QEMU's: 3..7 */
#define EV_DTLB_WR_MISS	0x1001BUL
#define EV_ITLB_RD_MISS	0x10021UL
#define EV_RAW		0x20000UL
#define EV_RAW2		0x30000UL
#define EV_FW(code)	(0xF0000UL | (code))

/* Default hart: counters 0, 2, 3..10, 48-bit, Sscofpmf, no Smcntrpmf. */
#define DEF_COUNTERS	0x7FDU
#define DEF_NR_HW	11
#define DEF_HPM_BITS	48
#define DEF_PROG	0x7F8ULL	/* 3..10 */

struct fx_opts {
	uint32_t counters;
	unsigned int hpm_bits;
	bool sscofpmf;
	bool smcntrpmf;
	uint32_t quirks;
	const struct pmu_map *map;
	bool no_hooks;
	bool no_shmem;
	bool qemu_bug;
	enum sim_vendor vendor;	/* the hart's vendor CSRs and back end */
	bool vendor_csrs_only;	/* ... the CSRs, but no back end given */
};

struct fx {
	struct sim_hart sim;
	struct pmu_hart h;
	struct pmu_hart_config cfg;
	unsigned int nr_hw;
	unsigned int total;
	unsigned long all;	/* mask of every valid counter, base 0 */
	unsigned int fw0;	/* first firmware counter */
};

extern struct pmu_map test_map, qemu_map, empty_map;
extern const struct pmu_board_hooks test_hooks;
extern const struct fx_opts fx_default;

/* Set up a hart (opts NULL: the default) and pmu_hart_init() it. */
void fx_setup(struct fx *f, const struct fx_opts *opts);
/* One check that the library made no illegal access, then free. */
void fx_teardown(struct fx *f, const char *what);

static inline struct sbiret fx_cfg(struct fx *f, unsigned long base,
				   unsigned long mask, unsigned long flags,
				   unsigned long event_idx, uint64_t data)
{
	return pmu_sbi_counter_config_matching(&f->h, base, mask, flags,
					       event_idx, data);
}

static inline struct sbiret fx_start(struct fx *f, unsigned long base,
				     unsigned long mask, unsigned long flags,
				     uint64_t value)
{
	return pmu_sbi_counter_start(&f->h, base, mask, flags, value);
}

static inline struct sbiret fx_stop(struct fx *f, unsigned long base,
				    unsigned long mask, unsigned long flags)
{
	return pmu_sbi_counter_stop(&f->h, base, mask, flags);
}

static inline bool inhibited(const struct fx *f, unsigned int idx)
{
	return (f->sim.inhibit >> idx) & 1;
}

void test_basic(void);
void test_config(void);
void test_startstop(void);
void test_fw(void);
void test_shmem(void);
void test_event_info(void);
void test_lifecycle(void);
void test_map_builder(void);
void test_map_direct(void);
void test_map_raw_in_order(void);
void test_linux_flow(void);
void test_linux_compat(void);
void test_probe(void);
void test_vendor(void);

#endif
