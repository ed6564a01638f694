/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Numbers from the RISC-V SBI specification (v3.0): extension IDs, function
 * IDs and error codes.  Every other file takes its spec numbers from here.
 */
#ifndef TALLY_SBI_SPEC_H
#define TALLY_SBI_SPEC_H

/* Spec version implemented: 3.0 */
#define SBI_SPEC_VERSION_MAJOR		3
#define SBI_SPEC_VERSION_MINOR		0
#define SBI_SPEC_VERSION_MAJOR_SHIFT	24
#define SBI_SPEC_VERSION_MINOR_MASK	0xffffffUL

/* Error codes (sbiret.error) */
#define SBI_SUCCESS			0
#define SBI_ERR_FAILED			-1
#define SBI_ERR_NOT_SUPPORTED		-2
#define SBI_ERR_INVALID_PARAM		-3
#define SBI_ERR_DENIED			-4
#define SBI_ERR_INVALID_ADDRESS		-5
#define SBI_ERR_ALREADY_AVAILABLE	-6
#define SBI_ERR_ALREADY_STARTED		-7
#define SBI_ERR_ALREADY_STOPPED		-8
#define SBI_ERR_NO_SHMEM		-9
#define SBI_ERR_INVALID_STATE		-10
#define SBI_ERR_BAD_RANGE		-11
#define SBI_ERR_TIMEOUT			-12
#define SBI_ERR_IO			-13

/* Legacy (v0.1) extensions: the EID is the function */
#define SBI_EXT_0_1_SET_TIMER		0x0
#define SBI_EXT_0_1_CONSOLE_PUTCHAR	0x1
#define SBI_EXT_0_1_CONSOLE_GETCHAR	0x2
#define SBI_EXT_0_1_CLEAR_IPI		0x3
#define SBI_EXT_0_1_SEND_IPI		0x4
#define SBI_EXT_0_1_REMOTE_FENCE_I	0x5
#define SBI_EXT_0_1_REMOTE_SFENCE_VMA	0x6
#define SBI_EXT_0_1_REMOTE_SFENCE_VMA_ASID 0x7
#define SBI_EXT_0_1_SHUTDOWN		0x8

/* Base extension */
#define SBI_EXT_BASE			0x10
#define SBI_EXT_BASE_GET_SPEC_VERSION	0
#define SBI_EXT_BASE_GET_IMP_ID		1
#define SBI_EXT_BASE_GET_IMP_VERSION	2
#define SBI_EXT_BASE_PROBE_EXT		3
#define SBI_EXT_BASE_GET_MVENDORID	4
#define SBI_EXT_BASE_GET_MARCHID	5
#define SBI_EXT_BASE_GET_MIMPID		6

/* Timer extension "TIME" */
#define SBI_EXT_TIME			0x54494D45
#define SBI_EXT_TIME_SET_TIMER		0

/* IPI extension "sPI" */
#define SBI_EXT_IPI			0x735049
#define SBI_EXT_IPI_SEND_IPI		0

/* RFENCE extension "RFNC" */
#define SBI_EXT_RFENCE			0x52464E43
#define SBI_EXT_RFENCE_REMOTE_FENCE_I		0
#define SBI_EXT_RFENCE_REMOTE_SFENCE_VMA	1
#define SBI_EXT_RFENCE_REMOTE_SFENCE_VMA_ASID	2
#define SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA_VMID	3
#define SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA	4
#define SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA_ASID	5
#define SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA	6

/* Hart state management extension "HSM" */
#define SBI_EXT_HSM			0x48534D
#define SBI_EXT_HSM_HART_START		0
#define SBI_EXT_HSM_HART_STOP		1
#define SBI_EXT_HSM_HART_GET_STATUS	2
#define SBI_EXT_HSM_HART_SUSPEND	3

#define SBI_HSM_STATE_STARTED		0
#define SBI_HSM_STATE_STOPPED		1
#define SBI_HSM_STATE_START_PENDING	2
#define SBI_HSM_STATE_STOP_PENDING	3
#define SBI_HSM_STATE_SUSPENDED		4
#define SBI_HSM_STATE_SUSPEND_PENDING	5
#define SBI_HSM_STATE_RESUME_PENDING	6

#define SBI_HSM_SUSPEND_RET_DEFAULT	0x00000000UL
#define SBI_HSM_SUSPEND_RET_PLATFORM	0x10000000UL
#define SBI_HSM_SUSPEND_RET_LAST	0x7FFFFFFFUL
#define SBI_HSM_SUSPEND_NON_RET_DEFAULT	0x80000000UL
#define SBI_HSM_SUSPEND_NON_RET_PLATFORM 0x90000000UL
#define SBI_HSM_SUSPEND_NON_RET_LAST	0xFFFFFFFFUL

/* System reset extension "SRST" */
#define SBI_EXT_SRST			0x53525354
#define SBI_EXT_SRST_RESET		0
#define SBI_SRST_TYPE_SHUTDOWN		0
#define SBI_SRST_TYPE_COLD_REBOOT	1
#define SBI_SRST_TYPE_WARM_REBOOT	2
#define SBI_SRST_REASON_NONE		0
#define SBI_SRST_REASON_SYSFAIL		1

/* Debug console extension "DBCN" */
#define SBI_EXT_DBCN			0x4442434E
#define SBI_EXT_DBCN_CONSOLE_WRITE	0
#define SBI_EXT_DBCN_CONSOLE_READ	1
#define SBI_EXT_DBCN_CONSOLE_WRITE_BYTE	2

/* Debug triggers extension "DBTR" */
#define SBI_EXT_DBTR			0x44425452
#define SBI_EXT_DBTR_NUM_TRIGGERS	0
#define SBI_EXT_DBTR_SET_SHMEM		1
#define SBI_EXT_DBTR_READ_TRIGGERS	2
#define SBI_EXT_DBTR_INSTALL_TRIGGERS	3
#define SBI_EXT_DBTR_UPDATE_TRIGGERS	4
#define SBI_EXT_DBTR_UNINSTALL_TRIGGERS	5
#define SBI_EXT_DBTR_ENABLE_TRIGGERS	6
#define SBI_EXT_DBTR_DISABLE_TRIGGERS	7
/* trig_state word */
#define SBI_DBTR_STATE_MAPPED		(1UL << 0)
#define SBI_DBTR_STATE_U		(1UL << 1)
#define SBI_DBTR_STATE_S		(1UL << 2)
#define SBI_DBTR_STATE_VU		(1UL << 3)
#define SBI_DBTR_STATE_VS		(1UL << 4)
#define SBI_DBTR_STATE_HAVE_HW_TRIG	(1UL << 5)
#define SBI_DBTR_STATE_HW_TRIG_SHIFT	8
/* one shared-memory entry: four XLEN-bit words (tstate or idx, tdata1..3) */
#define SBI_DBTR_ENTRY_WORDS		4

/* Performance monitoring unit extension "PMU" */
#define SBI_EXT_PMU			0x504D55

/* Implementation ID of Tally: not in the spec's registered list (see docs/) */
#define SBI_IMPL_ID_TALLY		0x54414C59UL	/* "TALY" */

#endif
