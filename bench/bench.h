/* SPDX-License-Identifier: BSD-2-Clause */
/* The benchmark payload: SBI numbers (SBI specification) and helpers. */
#ifndef BENCH_H
#define BENCH_H

#define SBI_SUCCESS			0
#define SBI_ERR_NOT_SUPPORTED		-2

#define SBI_EXT_BASE			0x10
#define SBI_BASE_GET_SPEC_VERSION	0
#define SBI_BASE_GET_IMPL_ID		1
#define SBI_BASE_GET_IMPL_VERSION	2
#define SBI_BASE_PROBE_EXT		3
#define SBI_EXT_TIME			0x54494D45
#define SBI_EXT_IPI			0x735049
#define SBI_EXT_RFENCE			0x52464E43
#define SBI_RFENCE_SFENCE_VMA		1
#define SBI_EXT_SRST			0x53525354
#define SBI_LEGACY_SHUTDOWN		0x08
#define SBI_EXT_FWFT			0x46574654
#define SBI_FWFT_GET			1
#define SBI_FWFT_MISALIGNED_EXC_DELEG	0
#define SBI_EXT_SSE			0x535345
#define SBI_SSE_REGISTER		2
#define SBI_SSE_UNREGISTER		3
#define SBI_SSE_ENABLE			4
#define SBI_SSE_DISABLE			5
#define SBI_SSE_INJECT			7
#define SBI_SSE_HART_UNMASK		8
#define SBI_SSE_HART_MASK		9
#define SSE_EVENT_LOCAL_SOFTWARE	0xffff0000UL
#define SBI_EXT_PMU			0x504D55
#define SBI_PMU_NUM_COUNTERS		0
#define SBI_PMU_COUNTER_GET_INFO	1
#define SBI_PMU_COUNTER_CFG_MATCH	2
#define SBI_PMU_COUNTER_START		3
#define SBI_PMU_COUNTER_STOP		4
#define SBI_PMU_COUNTER_FW_READ		5
#define SBI_PMU_SNAPSHOT_SET_SHMEM	7
#define SBI_PMU_EVENT_GET_INFO		8

#define PMU_CFG_FLAG_CLEAR_VALUE	(1UL << 1)
#define PMU_START_SET_INIT_VALUE	(1UL << 0)
#define PMU_START_INIT_SNAPSHOT		(1UL << 1)
#define PMU_STOP_RESET			(1UL << 0)
#define PMU_STOP_TAKE_SNAPSHOT		(1UL << 1)
#define PMU_CTR_INFO_FW			(1UL << 63)

#define EV_HW_CPU_CYCLES		0x00001
#define EV_HW_INSTRUCTIONS		0x00002
#define EV_HW_CACHE_REFERENCES		0x00003
#define EV_DTLB_READ_MISS		0x10019
#define EV_DTLB_WRITE_MISS		0x1001b
#define EV_ITLB_READ_MISS		0x10021
#define EV_RAW				0x20000
#define EV_FW_SET_TIMER			0xf0005
#define EV_FW_IPI_SENT			0xf0006

/*
 * The large raw-event map (bench/run.sh writes it into a devicetree):
 * row i matches exactly the raw event RAW_MAP_FIRST + i, and the payload
 * looks up the event of the last row, the worst case of a linear search.
 * On QEMU's stock map the same call is made with the same event.
 */
#define RAW_MAP_ROWS			10000
#define RAW_MAP_FIRST			0x100000UL
#define RAW_MAP_LOOKUP			(RAW_MAP_FIRST + RAW_MAP_ROWS - 1)

struct bench_call {
	unsigned long arg[6];
	unsigned long fid;
	unsigned long eid;
	long error;
	unsigned long value;
};

unsigned long bench_ecall(struct bench_call *c);
unsigned long bench_empty(void);
/*
 * Marks the next timed call as series k (< BENCH_MARKS) in an instruction
 * trace: the first address it executes is bench_marks + 4 * k
 * (bench/breakdown.py). Outside the timed region, so it costs no figure.
 */
#define BENCH_MARKS			64
void bench_mark(unsigned long k);
void bprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
