/* The PMU extension tests (EID 0x504D55): numbers from the SBI PMU
 * specification (v3.0), the wrappers, and what the groups share. */
#ifndef SBI_TEST_PMU_H
#define SBI_TEST_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include "sbi.h"

#define SBI_EXT_PMU			0x504D55
#define PMU_NUM_COUNTERS		0
#define PMU_COUNTER_GET_INFO		1
#define PMU_COUNTER_CONFIG_MATCHING	2
#define PMU_COUNTER_START		3
#define PMU_COUNTER_STOP		4
#define PMU_COUNTER_FW_READ		5
#define PMU_COUNTER_FW_READ_HI		6
#define PMU_SNAPSHOT_SET_SHMEM		7
#define PMU_EVENT_GET_INFO		8

#define SBI_ERR_NO_SHMEM		-9

/* counter_info */
#define CTR_INFO_CSR(v)		((v) & 0xfffUL)
#define CTR_INFO_WIDTH(v)	(((v) >> 12) & 0x3fUL)
#define CTR_INFO_RESERVED	(~0UL >> 1 & ~0x3ffffUL)	/* [62:18] */
#define CTR_INFO_FW		TOP_BIT		/* bit XLEN-1 */

/* config_matching flags */
#define CFG_SKIP_MATCH		(1UL << 0)
#define CFG_CLEAR_VALUE		(1UL << 1)
#define CFG_AUTO_START		(1UL << 2)
#define CFG_SET_VUINH		(1UL << 3)
#define CFG_SET_VSINH		(1UL << 4)
#define CFG_SET_UINH		(1UL << 5)
#define CFG_SET_SINH		(1UL << 6)
#define CFG_SET_MINH		(1UL << 7)

#define START_SET_INIT_VALUE	(1UL << 0)
#define START_INIT_SNAPSHOT	(1UL << 1)
#define STOP_RESET		(1UL << 0)
#define STOP_TAKE_SNAPSHOT	(1UL << 1)

/* event_idx */
#define EV(type, code)		((unsigned long)(type) << 16 | (code))
#define EV_TYPE(e)		(((e) >> 16) & 0xf)
#define EV_HW_CYCLES		EV(0, 1)
#define EV_HW_INSTRUCTIONS	EV(0, 2)
#define EV_CACHE(id, op, res)	EV(1, (id) << 3 | (op) << 1 | (res))
#define EV_DTLB_READ_MISS	EV_CACHE(3, 0, 1)	/* 0x10019 */
#define EV_DTLB_WRITE_MISS	EV_CACHE(3, 1, 1)	/* 0x1001B */
#define EV_ITLB_READ_MISS	EV_CACHE(4, 0, 1)	/* 0x10021 */
#define EV_RAW			EV(2, 0)
#define EV_RAW_V2		EV(3, 0)
#define EV_FW(code)		EV(15, code)

#define FW_MISALIGNED_LOAD	0
#define FW_ACCESS_LOAD		2
#define FW_ILLEGAL_INSN		4
#define FW_SET_TIMER		5
#define FW_IPI_SENT		6
#define FW_IPI_RECEIVED		7
#define FW_FENCE_I_SENT		8
#define FW_FENCE_I_RECEIVED	9
#define FW_SFENCE_VMA_SENT	10
#define FW_SFENCE_VMA_RECEIVED	11
#define FW_SFENCE_VMA_ASID_SENT	12
#define FW_SFENCE_VMA_ASID_RECEIVED 13
#define FW_STANDARD_COUNT	22
/* Tally's implementation-specific firmware events. */
#define FW_TALLY_ECALLS		256	/* SBI calls handled */
#define FW_TALLY_TRAPS		257	/* M-mode traps taken */
#define FW_PLATFORM		65535

#define IMPL_ID_TALLY		0x54414C59UL	/* "TALY" */

#define MAX_COUNTERS		64

/* What discovery found, for the later groups. */
struct pmu_state {
	bool present;
	bool tally;		/* impl id is Tally: its optional parts are
				 * required, not skipped */
	bool sscofpmf;		/* every cpu's riscv,isa names it */
	bool strict_filters;	/* bootargs "strict-filters": a Tally built
				 * with PMU_STRICT_FILTERS=1 */
	unsigned long spec;	/* SBI spec version (major << 24 | minor) */
	unsigned long num;	/* num_counters */
	uint64_t hw, fw;	/* valid hardware / firmware logical counters */
	unsigned long info[MAX_COUNTERS];	/* counter_info of valid ones */
	uint64_t hw_prog;	/* hardware counters 3..31 (programmable) */
	unsigned long first_fw;	/* lowest firmware counter, or -1 */
	bool strict;		/* bootargs "strict": the firmware was built
				 * LINUX_COMPAT=0 (no Linux bug absorbed) */
};

extern struct pmu_state pmu;

#define SPEC(maj, min)		((unsigned long)(maj) << 24 | (min))

/* The calls, by FID. */
struct sbiret pmu_num_counters(void);
struct sbiret pmu_get_info(unsigned long idx);
struct sbiret pmu_config(unsigned long base, unsigned long mask,
			 unsigned long flags, unsigned long event,
			 uint64_t data);
struct sbiret pmu_start(unsigned long base, unsigned long mask,
			unsigned long flags, uint64_t value);
struct sbiret pmu_stop(unsigned long base, unsigned long mask,
		       unsigned long flags);
struct sbiret pmu_fw_read(unsigned long idx);
struct sbiret pmu_fw_read_hi(unsigned long idx);
struct sbiret pmu_set_shmem(unsigned long lo, unsigned long hi,
			    unsigned long flags);
struct sbiret pmu_event_info(unsigned long lo, unsigned long hi,
			     unsigned long n, unsigned long flags);

/* Releases counter idx whatever its state (stop, then stop RESET). */
void pmu_release(unsigned long idx);
/* Every counter of the calling hart stopped and released. */
void pmu_release_all(void);
/* The counters (bit i = counter i) the DT says can count event. */
uint32_t dt_counters_for(unsigned long event);
bool pmu_is_hw(unsigned long idx);
/* The lowest set bit's number, or -1. */
unsigned long lowest_bit(uint64_t bits);
bool pmu_is_fw(unsigned long idx);

/* In pmu_asm.S. */
unsigned long pmu_csr_read(unsigned long n);
struct tlb_count {
	unsigned long delta, value;	/* a0, a1 */
};
struct tlb_count pmu_tlb_probe(unsigned long base, unsigned long pages,
			       unsigned long store, unsigned long n);
struct sbiret pmu_tlb_touch_stop(unsigned long base, unsigned long pages,
				 unsigned long store, unsigned long idx);

/* Reads hardware counter idx's CSR from S-mode; false if it traps. */
bool pmu_read_hw(unsigned long idx, unsigned long *val);
/* All 64 bits of it (RV32: with its ...h CSR); ~0 if it traps. */
uint64_t pmu_read_hw64(unsigned long idx);
#if __riscv_xlen == 32
unsigned long pmu_csr_read_hi(unsigned long n);
#endif

/* The payload's Sv39 identity map of the low 4 GiB (boot hart). */
void pmu_paging_on(void);
void pmu_paging_off(void);

/* TOUCH_PAGES (64) fresh pages for the TLB probes. */
unsigned long pmu_tlb_buf(void);
/* Checks that the base extension and num_counters still answer. */
void pmu_check_alive(const char *after);

/* The groups. */
void test_pmu_discovery(void);
void test_pmu_args(void);
void test_pmu_lifecycle(void);
void test_pmu_fw_events(void);
void test_pmu_hsm(void);
void test_pmu_tlb(void);
void test_pmu_filter(void);
void test_pmu_overflow(void);
void test_pmu_snapshot(void);
void test_pmu_event_info(void);

#endif
