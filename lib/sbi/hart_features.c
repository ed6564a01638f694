// SPDX-License-Identifier: BSD-2-Clause
/*
 * The hart features probed at cold boot (hart_probe_features, hart_setup.c)
 * and read by PMP, FWFT and the PMU.  Kept in a unit of its own so that
 * the data has one home below both the prober and its readers: hart_setup.c
 * calls pmp.c, sbi_fwft.c and sbi_pmu.c, which only read this.
 */
#include <tally/init.h>

struct hart_features hart_features;
