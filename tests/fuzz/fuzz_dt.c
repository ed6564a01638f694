// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: raw devicetree blobs -> the firmware's whole-tree
 * validation, the boot-time platform lookups and the riscv,pmu parser
 * (checks in dt_check.h).  The first input byte picks the hart's counters;
 * the rest is the blob, copied to a buffer of exactly its size.
 */
#include "dt_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t harts[] = { FDT_PMU_ANY_COUNTERS, 0x5, 0x7FFFD, 0x7D };
	uint8_t *fdt;

	if (!size)
		return 0;
	fdt = malloc(size - 1 ? size - 1 : 1);
	if (!fdt)
		return 0;
	memcpy(fdt, data + 1, size - 1);
	dt_check_blob(fdt, size - 1, harts[data[0] & 3], false);
	free(fdt);
	return 0;
}
