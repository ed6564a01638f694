/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Firmware-event sites.  Every place where a firmware event of the SBI PMU
 * extension happens calls fw_event(); the PMU core counts it there.  Until
 * the PMU core is linked (issue 3) these are no-ops.
 */
#ifndef TALLY_FW_EVENT_H
#define TALLY_FW_EVENT_H

/* SBI_PMU_FW_* event codes (SBI spec, PMU extension, Table 6) */
#define FW_EV_MISALIGNED_LOAD		0
#define FW_EV_MISALIGNED_STORE		1
#define FW_EV_ACCESS_LOAD		2
#define FW_EV_ACCESS_STORE		3
#define FW_EV_ILLEGAL_INSN		4
#define FW_EV_SET_TIMER			5
#define FW_EV_IPI_SENT			6
#define FW_EV_IPI_RECEIVED		7
#define FW_EV_FENCE_I_SENT		8
#define FW_EV_FENCE_I_RECEIVED		9
#define FW_EV_SFENCE_VMA_SENT		10
#define FW_EV_SFENCE_VMA_RECEIVED	11
#define FW_EV_SFENCE_VMA_ASID_SENT	12
#define FW_EV_SFENCE_VMA_ASID_RECEIVED	13
#define FW_EV_HFENCE_GVMA_SENT		14
#define FW_EV_HFENCE_GVMA_RECEIVED	15
#define FW_EV_HFENCE_GVMA_VMID_SENT	16
#define FW_EV_HFENCE_GVMA_VMID_RECEIVED	17
#define FW_EV_HFENCE_VVMA_SENT		18
#define FW_EV_HFENCE_VVMA_RECEIVED	19
#define FW_EV_HFENCE_VVMA_ASID_SENT	20
#define FW_EV_HFENCE_VVMA_ASID_RECEIVED	21
/* Tally's own implementation-specific events (256 and up) */
#define FW_EV_TALLY_ECALL		256
#define FW_EV_TALLY_TRAP		257

static inline void fw_event(unsigned int code)
{
	(void)code;
}

#endif
