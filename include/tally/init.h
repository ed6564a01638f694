/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_INIT_H
#define TALLY_INIT_H

#include <stdbool.h>

/* What the firmware flavour (fw_dynamic, fw_jump, fw_payload) says to boot next. */
struct fw_next {
	unsigned long addr;
	unsigned long mode;	/* PRV_S or PRV_U... only PRV_S is supported */
	unsigned long fdt;
};

/* Provided by each flavour (firmware/fw_*.c). */
long fw_boot_hart(unsigned long a0, unsigned long a1, unsigned long a2);
void fw_next_stage(unsigned long a0, unsigned long a1, unsigned long a2,
		   struct fw_next *next);
extern const char fw_flavour[];

/*
 * The boot path (firmware/fw_base.S): the one cold-boot hart runs
 * cold_boot(), every other hart warm_boot() once cold_boot_done is set.
 */
void __attribute__((noreturn)) cold_boot(unsigned long a0, unsigned long a1,
					  unsigned long a2);
void __attribute__((noreturn)) warm_boot(unsigned long hartid);
extern volatile unsigned long cold_boot_done;
/* Set by the first hart (hart_map_boot): the others poll, not wfi (hart_setup.c) */
extern unsigned long boot_wait_poll;

/* Per-hart CSR set-up, at boot and at every HSM start (hart_setup.c). */
void hart_init_local(void);
/* Part of it, also after a non-retentive suspend: the interrupt controller's
 * per-hart state (IMSIC M-file) and the AIA CSRs (hart_setup.c). */
void hart_irq_init(void);
/* Part of it: PMP closes the firmware and M-mode devices to S/U (pmp.c). */
void pmp_protect(void);
/* Cold boot: the hart's PMP entries (at most 16; TALLY_TEST_PMP_ENTRIES
 * in a test build), and whether each trap page still has one (pmp.c). */
unsigned int pmp_probe_count(void);
void pmp_check_trap_pages(void);

/* Linker symbols */
extern char _fw_start[], _fw_end[];

/* Inventory of the hart's counters, probed at cold boot (banner, PMU). */
struct hart_features {
	bool has_sstc;
	bool has_sscofpmf;
	bool has_menvcfg;
	bool has_mcountinhibit;
	bool has_smcntrpmf;		/* mcyclecfg / minstretcfg */
	bool instret_filter_ignored;	/* mhpmevent xINH bits ignored for 0x1/0x2 (QEMU 7.2) */
	bool has_h;
	bool has_fp;
	bool has_smaia;			/* mtopi, miselect/mireg, mvien/mvip */
	bool has_ssaia;			/* siselect/sireg, stopei */
	bool has_smstateen;		/* mstateen0 */
	unsigned int pmp_count;		/* PMP entries (pmp_probe_count) */
	unsigned long hpm_mask;		/* bit i: mhpmcounter i present (3..31) */
	unsigned int hpm_bits;		/* width of the programmable counters */
};
extern struct hart_features hart_features;
/* Fills hart_features from the calling hart, at cold boot (hart_setup.c). */
void hart_probe_features(void);

#endif
