/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Numbers of the SBI PMU extension (SBI spec v3.0, chapter "Performance
 * Monitoring Unit Extension"), plus the few privileged-ISA bits the PMU
 * programs (Zihpm, Sscofpmf, Smcntrpmf).  The PMU library, its DT parser,
 * the ecall glue and the tests take every such number from here.
 *
 * The error codes and SBI_EXT_PMU live in <tally/sbi_spec.h>.
 */
#ifndef TALLY_SBI_PMU_SPEC_H
#define TALLY_SBI_PMU_SPEC_H

#include <tally/sbi_spec.h>

/* Function IDs (Table 20) */
#define SBI_EXT_PMU_NUM_COUNTERS		0
#define SBI_EXT_PMU_COUNTER_GET_INFO		1
#define SBI_EXT_PMU_COUNTER_CFG_MATCH		2
#define SBI_EXT_PMU_COUNTER_START		3
#define SBI_EXT_PMU_COUNTER_STOP		4
#define SBI_EXT_PMU_COUNTER_FW_READ		5
#define SBI_EXT_PMU_COUNTER_FW_READ_HI		6
#define SBI_EXT_PMU_SNAPSHOT_SET_SHMEM		7
#define SBI_EXT_PMU_EVENT_GET_INFO		8

/* event_idx: [19:16] type, [15:0] code */
#define SBI_PMU_EVENT_IDX_MASK			0xFFFFFUL
#define SBI_PMU_EVENT_IDX_TYPE_SHIFT		16
#define SBI_PMU_EVENT_IDX_TYPE_MASK		0xFUL
#define SBI_PMU_EVENT_IDX_CODE_MASK		0xFFFFUL
#define SBI_PMU_EVENT_IDX(type, code)	\
	(((unsigned long)(type) << SBI_PMU_EVENT_IDX_TYPE_SHIFT) | (code))
#define SBI_PMU_EVENT_TYPE(idx)	\
	(((idx) >> SBI_PMU_EVENT_IDX_TYPE_SHIFT) & SBI_PMU_EVENT_IDX_TYPE_MASK)
#define SBI_PMU_EVENT_CODE(idx)		((idx) & SBI_PMU_EVENT_IDX_CODE_MASK)
/* the two events of the fixed counters (mcycle, minstret) */
#define EVENT_CYCLES		SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, \
						  SBI_PMU_HW_CPU_CYCLES)
#define EVENT_INSTRUCTIONS	SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW, \
						  SBI_PMU_HW_INSTRUCTIONS)

/* Event types (Table 1) */
#define SBI_PMU_EVENT_TYPE_HW			0
#define SBI_PMU_EVENT_TYPE_CACHE		1
#define SBI_PMU_EVENT_TYPE_RAW			2	/* deprecated */
#define SBI_PMU_EVENT_TYPE_RAW_V2		3
#define SBI_PMU_EVENT_TYPE_FW			15

/* Hardware general events, type 0 (Table 2) */
#define SBI_PMU_HW_NO_EVENT			0
#define SBI_PMU_HW_CPU_CYCLES			1
#define SBI_PMU_HW_INSTRUCTIONS			2
#define SBI_PMU_HW_CACHE_REFERENCES		3
#define SBI_PMU_HW_CACHE_MISSES			4
#define SBI_PMU_HW_BRANCH_INSTRUCTIONS		5
#define SBI_PMU_HW_BRANCH_MISSES		6
#define SBI_PMU_HW_BUS_CYCLES			7
#define SBI_PMU_HW_STALLED_CYCLES_FRONTEND	8
#define SBI_PMU_HW_STALLED_CYCLES_BACKEND	9
#define SBI_PMU_HW_REF_CPU_CYCLES		10

/* Hardware cache events, type 1: code = cache_id[15:3] op_id[2:1] result[0] */
#define SBI_PMU_HW_CACHE_ID_SHIFT		3
#define SBI_PMU_HW_CACHE_OP_SHIFT		1
#define SBI_PMU_HW_CACHE_L1D			0	/* Table 3 */
#define SBI_PMU_HW_CACHE_L1I			1
#define SBI_PMU_HW_CACHE_LL			2
#define SBI_PMU_HW_CACHE_DTLB			3
#define SBI_PMU_HW_CACHE_ITLB			4
#define SBI_PMU_HW_CACHE_BPU			5
#define SBI_PMU_HW_CACHE_NODE			6
#define SBI_PMU_HW_CACHE_OP_READ		0	/* Table 4 */
#define SBI_PMU_HW_CACHE_OP_WRITE		1
#define SBI_PMU_HW_CACHE_OP_PREFETCH		2
#define SBI_PMU_HW_CACHE_RESULT_ACCESS		0	/* Table 5 */
#define SBI_PMU_HW_CACHE_RESULT_MISS		1
#define SBI_PMU_HW_CACHE_EVENT(cache, op, result)			\
	SBI_PMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_CACHE,			\
			  ((cache) << SBI_PMU_HW_CACHE_ID_SHIFT) |	\
			  ((op) << SBI_PMU_HW_CACHE_OP_SHIFT) | (result))

/* Raw events: how many low bits of mhpmevent event_data may set */
#define SBI_PMU_RAW_DATA_MASK			0x0000FFFFFFFFFFFFULL	/* 48 */
#define SBI_PMU_RAW_V2_DATA_MASK		0x00FFFFFFFFFFFFFFULL	/* 56 */

/* Firmware events, type 15 (Table 6) */
#define SBI_PMU_FW_MISALIGNED_LOAD		0
#define SBI_PMU_FW_MISALIGNED_STORE		1
#define SBI_PMU_FW_ACCESS_LOAD			2
#define SBI_PMU_FW_ACCESS_STORE			3
#define SBI_PMU_FW_ILLEGAL_INSN			4
#define SBI_PMU_FW_SET_TIMER			5
#define SBI_PMU_FW_IPI_SENT			6
#define SBI_PMU_FW_IPI_RECEIVED			7
#define SBI_PMU_FW_FENCE_I_SENT			8
#define SBI_PMU_FW_FENCE_I_RECEIVED		9
#define SBI_PMU_FW_SFENCE_VMA_SENT		10
#define SBI_PMU_FW_SFENCE_VMA_RECEIVED		11
#define SBI_PMU_FW_SFENCE_VMA_ASID_SENT		12
#define SBI_PMU_FW_SFENCE_VMA_ASID_RECEIVED	13
#define SBI_PMU_FW_HFENCE_GVMA_SENT		14
#define SBI_PMU_FW_HFENCE_GVMA_RECEIVED		15
#define SBI_PMU_FW_HFENCE_GVMA_VMID_SENT	16
#define SBI_PMU_FW_HFENCE_GVMA_VMID_RECEIVED	17
#define SBI_PMU_FW_HFENCE_VVMA_SENT		18
#define SBI_PMU_FW_HFENCE_VVMA_RECEIVED		19
#define SBI_PMU_FW_HFENCE_VVMA_ASID_SENT	20
#define SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED	21
#define SBI_PMU_FW_STANDARD_COUNT		22	/* 22..255 reserved */
#define SBI_PMU_FW_IMPL_FIRST			256	/* implementation specific */
#define SBI_PMU_FW_PLATFORM			0xFFFF	/* event_data = encoding */

/* Tally's implementation-specific firmware events (256 and up) */
#define SBI_PMU_FW_TALLY_ECALL			256	/* SBI calls handled */
#define SBI_PMU_FW_TALLY_TRAP			257	/* other M-mode traps (not ecalls) */
#define SBI_PMU_FW_TALLY_COUNT			2

/* counter_info (FID 1): [11:0] CSR, [17:12] width - 1, [XLEN-1] type */
#define SBI_PMU_CTR_INFO_CSR_MASK		0xFFFUL
#define SBI_PMU_CTR_INFO_WIDTH_SHIFT		12
#define SBI_PMU_CTR_INFO_WIDTH_MASK		0x3FUL
#define SBI_PMU_CTR_INFO_TYPE_FW	(1UL << (sizeof(unsigned long) * 8 - 1))

/* counter_config_matching flags (Table 8) */
#define SBI_PMU_CFG_FLAG_SKIP_MATCH		(1UL << 0)
#define SBI_PMU_CFG_FLAG_CLEAR_VALUE		(1UL << 1)
#define SBI_PMU_CFG_FLAG_AUTO_START		(1UL << 2)
#define SBI_PMU_CFG_FLAG_SET_VUINH		(1UL << 3)
#define SBI_PMU_CFG_FLAG_SET_VSINH		(1UL << 4)
#define SBI_PMU_CFG_FLAG_SET_UINH		(1UL << 5)
#define SBI_PMU_CFG_FLAG_SET_SINH		(1UL << 6)
#define SBI_PMU_CFG_FLAG_SET_MINH		(1UL << 7)
#define SBI_PMU_CFG_FLAG_INH_SHIFT		3	/* VUINH..MINH = [7:3] */
#define SBI_PMU_CFG_FLAG_INH_MASK		(0x1FUL << 3)
#define SBI_PMU_CFG_FLAGS_ALL			0xFFUL

/* counter_start flags (Table 10) */
#define SBI_PMU_START_FLAG_SET_INIT_VALUE	(1UL << 0)
#define SBI_PMU_START_FLAG_INIT_SNAPSHOT	(1UL << 1)
#define SBI_PMU_START_FLAGS_ALL			0x3UL

/* counter_stop flags (Table 12) */
#define SBI_PMU_STOP_FLAG_RESET			(1UL << 0)
#define SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT		(1UL << 1)
#define SBI_PMU_STOP_FLAGS_ALL			0x3UL

/* Snapshot shared memory (FID 7, Table 16): little-endian 64-bit words */
#define SBI_PMU_SNAPSHOT_SIZE			4096UL
#define SBI_PMU_SNAPSHOT_ALIGN			4096UL
#define SBI_PMU_SNAPSHOT_OVERFLOW_OFFSET	0x0000
#define SBI_PMU_SNAPSHOT_VALUES_OFFSET		0x0008
#define SBI_PMU_SNAPSHOT_VALUES_MAX		64
#define SBI_PMU_SHMEM_DISABLE			(~0UL)	/* lo and hi all ones */

/* Event info entries (FID 8, Table 18): little-endian, 16 bytes each */
#define SBI_PMU_EVENT_INFO_SIZE			16UL
#define SBI_PMU_EVENT_INFO_ALIGN		16UL
#define SBI_PMU_EVENT_INFO_IDX_OFFSET		0	/* u32 event_idx */
#define SBI_PMU_EVENT_INFO_OUTPUT_OFFSET	4	/* u32 output */
#define SBI_PMU_EVENT_INFO_DATA_OFFSET		8	/* u64 event_data */
#define SBI_PMU_EVENT_INFO_IDX_RESERVED		0xFFF00000UL
#define SBI_PMU_EVENT_INFO_SUPPORTED		(1U << 0)

/*
 * Privileged ISA numbers the PMU programs.
 * Counter i is mhpmcounter i (0 = mcycle, 1 = time, 2 = minstret); S-mode
 * reads it as CSR 0xC00 + i.  mhpmevent bits 63..58 are Sscofpmf's; the
 * Smcntrpmf mcyclecfg/minstretcfg CSRs use the same inhibit bit positions
 * (and have no OF bit).
 */
#define PMU_CSR_HPMCOUNTER_BASE			0xC00
#define PMU_COUNTER_CYCLE			0
#define PMU_COUNTER_TIME			1
#define PMU_COUNTER_INSTRET			2
#define PMU_COUNTER_FIRST_PROGRAMMABLE		3
#define MHPMEVENT_OF				(1ULL << 63)
#define MHPMEVENT_MINH				(1ULL << 62)
#define MHPMEVENT_SINH				(1ULL << 61)
#define MHPMEVENT_UINH				(1ULL << 60)
#define MHPMEVENT_VSINH				(1ULL << 59)
#define MHPMEVENT_VUINH				(1ULL << 58)
#define MHPMEVENT_INH_SHIFT			58	/* VUINH..MINH = [62:58] */
#define MHPMEVENT_INH_MASK			(0x1FULL << 58)
#define MHPMEVENT_PRIV_BITS			(0xFFULL << 56)	/* 63:56 */
#define MHPMEVENT_EVENT_ID_MASK			0xFFFFFULL	/* QEMU's event id */

/* The CSR numbers an embedder's pmu_hart_ops use are in <tally/riscv.h>
 * (lib/pmu itself uses counter indices only). */

#endif
