/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Firmware-event sites.  Every place where a firmware event of the SBI PMU
 * extension happens calls fw_event(); the PMU core counts it there.  With a
 * constant code this is a CSR read, a load and a not-taken branch unless a
 * counter of that event is running on this hart.
 */
#ifndef TALLY_FW_EVENT_H
#define TALLY_FW_EVENT_H

#include <tally/hart.h>
#include <tally/pmu_fw.h>

/* SBI_PMU_FW_* event codes (SBI spec, PMU extension, firmware events) */
#define FW_EV_MISALIGNED_LOAD		SBI_PMU_FW_MISALIGNED_LOAD
#define FW_EV_MISALIGNED_STORE		SBI_PMU_FW_MISALIGNED_STORE
#define FW_EV_ACCESS_LOAD		SBI_PMU_FW_ACCESS_LOAD
#define FW_EV_ACCESS_STORE		SBI_PMU_FW_ACCESS_STORE
#define FW_EV_ILLEGAL_INSN		SBI_PMU_FW_ILLEGAL_INSN
#define FW_EV_SET_TIMER			SBI_PMU_FW_SET_TIMER
#define FW_EV_IPI_SENT			SBI_PMU_FW_IPI_SENT
#define FW_EV_IPI_RECEIVED		SBI_PMU_FW_IPI_RECEIVED
#define FW_EV_FENCE_I_SENT		SBI_PMU_FW_FENCE_I_SENT
#define FW_EV_FENCE_I_RECEIVED		SBI_PMU_FW_FENCE_I_RECEIVED
#define FW_EV_SFENCE_VMA_SENT		SBI_PMU_FW_SFENCE_VMA_SENT
#define FW_EV_SFENCE_VMA_RECEIVED	SBI_PMU_FW_SFENCE_VMA_RECEIVED
#define FW_EV_SFENCE_VMA_ASID_SENT	SBI_PMU_FW_SFENCE_VMA_ASID_SENT
#define FW_EV_SFENCE_VMA_ASID_RECEIVED	SBI_PMU_FW_SFENCE_VMA_ASID_RECEIVED
#define FW_EV_HFENCE_GVMA_SENT		SBI_PMU_FW_HFENCE_GVMA_SENT
#define FW_EV_HFENCE_GVMA_RECEIVED	SBI_PMU_FW_HFENCE_GVMA_RECEIVED
#define FW_EV_HFENCE_GVMA_VMID_SENT	SBI_PMU_FW_HFENCE_GVMA_VMID_SENT
#define FW_EV_HFENCE_GVMA_VMID_RECEIVED	SBI_PMU_FW_HFENCE_GVMA_VMID_RECEIVED
#define FW_EV_HFENCE_VVMA_SENT		SBI_PMU_FW_HFENCE_VVMA_SENT
#define FW_EV_HFENCE_VVMA_RECEIVED	SBI_PMU_FW_HFENCE_VVMA_RECEIVED
#define FW_EV_HFENCE_VVMA_ASID_SENT	SBI_PMU_FW_HFENCE_VVMA_ASID_SENT
#define FW_EV_HFENCE_VVMA_ASID_RECEIVED	SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED
/* Tally's own implementation-specific events (256 and up, docs/pmu.md) */
#define FW_EV_TALLY_ECALL		SBI_PMU_FW_TALLY_ECALL
#define FW_EV_TALLY_TRAP		SBI_PMU_FW_TALLY_TRAP
/* A trap that is no firmware event: counts nowhere */
#define FW_EV_NONE			0xFFFFFFFFU

static inline void fw_event(unsigned int code)
{
	pmu_fw_event(&this_hart()->pmu, code);
}

/* Whether fw_event(code) would count anything (a counter of it runs). */
static inline bool fw_event_pending(unsigned int code)
{
	return pmu_fw_event_pending(&this_hart()->pmu, code);
}

#endif
