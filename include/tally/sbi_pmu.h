/* SPDX-License-Identifier: BSD-2-Clause */
/* The firmware's side of the PMU: lib/pmu bound to this hart's CSRs. */
#ifndef TALLY_SBI_PMU_H
#define TALLY_SBI_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <tally/pmu_map.h>

/* Cold boot, once: parse the devicetree's PMU node into the event map. */
void sbi_pmu_cold_init(const void *fdt);
/* Banner lines on the event map and firmware counters. */
void sbi_pmu_print_banner(void);
/* Counters this hart implements (bit i = mhpmcounter i), from the probes. */
uint32_t sbi_pmu_hart_counters(void);
/* Cold boot: which present counters count (write/read-back), their width. */
unsigned long sbi_pmu_probe_counters(unsigned long present, unsigned int *bits);

/*
 * The vendor overflow back ends (sbi_pmu_vendor.c): chosen at cold boot
 * from the board's and the boot hart's CSRs; per hart, the back end for
 * pmu_hart_init (NULL: none) with its interrupt delegated; the banner's
 * words for it (NULL: none); whether it filters modes.
 */
struct pmu_overflow_ops;
void sbi_pmu_vendor_cold_init(void);
/* The tree handed on: no "xandespmu" where the Andes probe failed. */
void sbi_pmu_vendor_fdt_fixup(void *fdt);
const struct pmu_overflow_ops *sbi_pmu_vendor_hart_init(void);
const char *sbi_pmu_vendor_name(void);
bool sbi_pmu_vendor_filters(void);

#endif
