// SPDX-License-Identifier: BSD-2-Clause
/*
 * PMU extension glue.  Until the PMU core (lib/pmu) is linked the extension
 * reports itself unavailable, so probe_extension(PMU) returns 0 and Linux
 * uses its legacy cycle/instret counters.
 */
#include <tally/sbi.h>

static bool pmu_available(void)
{
	return false;
}

static struct sbiret pmu_handle(unsigned long fid, const unsigned long *args,
				struct trap_frame *tf)
{
	(void)fid;
	(void)args;
	(void)tf;
	return sbi_err(SBI_ERR_NOT_SUPPORTED);
}

const struct sbi_extension sbi_ext_pmu = {
	.eid_first = SBI_EXT_PMU,
	.eid_last = SBI_EXT_PMU,
	.name = "PMU",
	.available = pmu_available,
	.handle = pmu_handle,
};
