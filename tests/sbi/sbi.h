/* SBI numbers (from the SBI specification) and the ecall helper. */
#ifndef SBI_TEST_SBI_H
#define SBI_TEST_SBI_H

#include <stdint.h>

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
#define SBI_ERR_BAD_RANGE		-11
#define SBI_ERR_DENIED_LOCKED		-14

/* Legacy (v0.1) extensions: one EID per function, no FID. */
#define SBI_LEGACY_SET_TIMER		0x00
#define SBI_LEGACY_CONSOLE_PUTCHAR	0x01
#define SBI_LEGACY_CONSOLE_GETCHAR	0x02
#define SBI_LEGACY_CLEAR_IPI		0x03
#define SBI_LEGACY_SEND_IPI		0x04
#define SBI_LEGACY_REMOTE_FENCE_I	0x05
#define SBI_LEGACY_REMOTE_SFENCE_VMA	0x06
#define SBI_LEGACY_REMOTE_SFENCE_VMA_ASID 0x07
#define SBI_LEGACY_SHUTDOWN		0x08

#define SBI_EXT_BASE			0x10
#define SBI_BASE_GET_SPEC_VERSION	0
#define SBI_BASE_GET_IMPL_ID		1
#define SBI_BASE_GET_IMPL_VERSION	2
#define SBI_BASE_PROBE_EXT		3
#define SBI_BASE_GET_MVENDORID		4
#define SBI_BASE_GET_MARCHID		5
#define SBI_BASE_GET_MIMPID		6

#define SBI_EXT_TIME			0x54494D45
#define SBI_TIME_SET_TIMER		0

#define SBI_EXT_IPI			0x735049
#define SBI_IPI_SEND_IPI		0

#define SBI_EXT_RFENCE			0x52464E43
#define SBI_RFENCE_FENCE_I		0
#define SBI_RFENCE_SFENCE_VMA		1
#define SBI_RFENCE_SFENCE_VMA_ASID	2
#define SBI_RFENCE_HFENCE_GVMA_VMID	3
#define SBI_RFENCE_HFENCE_GVMA		4
#define SBI_RFENCE_HFENCE_VVMA_ASID	5
#define SBI_RFENCE_HFENCE_VVMA		6

#define SBI_EXT_HSM			0x48534D
#define SBI_HSM_HART_START		0
#define SBI_HSM_HART_STOP		1
#define SBI_HSM_HART_GET_STATUS		2
#define SBI_HSM_HART_SUSPEND		3

#define SBI_HSM_STARTED			0
#define SBI_HSM_STOPPED			1
#define SBI_HSM_START_PENDING		2
#define SBI_HSM_STOP_PENDING		3
#define SBI_HSM_SUSPENDED		4
#define SBI_HSM_SUSPEND_PENDING		5
#define SBI_HSM_RESUME_PENDING		6

#define SBI_HSM_SUSPEND_RET_DEFAULT	0x00000000UL
#define SBI_HSM_SUSPEND_NON_RET_DEFAULT	0x80000000UL

#define SBI_EXT_SRST			0x53525354
#define SBI_SRST_SYSTEM_RESET		0
#define SBI_SRST_TYPE_SHUTDOWN		0
#define SBI_SRST_TYPE_COLD_REBOOT	1
#define SBI_SRST_TYPE_WARM_REBOOT	2
#define SBI_SRST_REASON_NONE		0
#define SBI_SRST_REASON_SYSFAIL		1

#define SBI_EXT_DBCN			0x4442434E
#define SBI_DBCN_WRITE			0
#define SBI_DBCN_READ			1
#define SBI_DBCN_WRITE_BYTE		2

#define SBI_EXT_DBTR			0x44425452
#define SBI_DBTR_NUM_TRIGGERS		0
#define SBI_DBTR_SET_SHMEM		1
#define SBI_DBTR_READ			2
#define SBI_DBTR_INSTALL		3
#define SBI_DBTR_UPDATE			4
#define SBI_DBTR_UNINSTALL		5
#define SBI_DBTR_ENABLE			6
#define SBI_DBTR_DISABLE		7
#define SBI_EXT_FWFT			0x46574654
#define SBI_FWFT_SET			0
#define SBI_FWFT_GET			1
#define FWFT_MISALIGNED_EXC_DELEG	0
#define FWFT_LANDING_PAD		1
#define FWFT_SHADOW_STACK		2
#define FWFT_DOUBLE_TRAP		3
#define FWFT_PTE_AD_HW_UPDATING		4
#define FWFT_POINTER_MASKING_PMLEN	5
#define FWFT_FLAG_LOCK			1UL

#define SBI_EXT_SUSP			0x53555350
#define SBI_SUSP_SYSTEM_SUSPEND		0
#define SBI_SUSP_SUSPEND_TO_RAM		0

struct sbiret {
	long error;
	unsigned long value;
};

struct sbiret sbi_ecall(unsigned long eid, unsigned long fid,
			unsigned long a0, unsigned long a1, unsigned long a2,
			unsigned long a3, unsigned long a4, unsigned long a5);

/* Legacy calls return a single value in a0. */
long sbi_legacy(unsigned long eid, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3);

#define sbi_call0(e, f)		sbi_ecall(e, f, 0, 0, 0, 0, 0, 0)
#define sbi_call1(e, f, a)	sbi_ecall(e, f, a, 0, 0, 0, 0, 0)
#define sbi_call2(e, f, a, b)	sbi_ecall(e, f, a, b, 0, 0, 0, 0)
#define sbi_call3(e, f, a, b, c) sbi_ecall(e, f, a, b, c, 0, 0, 0)

/* The handful of calls the harness itself relies on. */
long sbi_probe(unsigned long eid);
struct sbiret sbi_set_timer(uint64_t when);
struct sbiret sbi_send_ipi(unsigned long mask, unsigned long base);
struct sbiret sbi_hart_start(unsigned long hartid, unsigned long addr,
			     unsigned long opaque);
struct sbiret sbi_hart_stop(void);
struct sbiret sbi_hart_status(unsigned long hartid);
struct sbiret sbi_hart_suspend(unsigned long type, unsigned long addr,
			       unsigned long opaque);
struct sbiret sbi_system_reset(unsigned long type, unsigned long reason);

#endif
