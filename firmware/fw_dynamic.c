// SPDX-License-Identifier: BSD-2-Clause
/*
 * fw_dynamic: the previous stage (QEMU, or a loader such as U-Boot SPL)
 * passes a struct fw_dynamic_info in a2 saying where to go next, in which
 * mode, and (version 2) which hart boots.  The layout is OpenSBI's, which
 * QEMU and U-Boot produce.
 */
#include <tally/init.h>
#include <tally/riscv.h>

#define FW_DYNAMIC_INFO_MAGIC	0x4942534fUL	/* "OSBI" */

struct fw_dynamic_info {
	unsigned long magic;
	unsigned long version;
	unsigned long next_addr;
	unsigned long next_mode;
	unsigned long options;
	unsigned long boot_hart;	/* version >= 2; -1 means any */
};

const char fw_flavour[] = "fw_dynamic";

static const struct fw_dynamic_info *valid_info(unsigned long a2)
{
	const struct fw_dynamic_info *info = (const struct fw_dynamic_info *)a2;

	if (!a2 || (a2 & (sizeof(long) - 1)) || info->magic != FW_DYNAMIC_INFO_MAGIC)
		return 0;
	return info;
}

long fw_boot_hart(unsigned long a0, unsigned long a1, unsigned long a2)
{
	const struct fw_dynamic_info *info = valid_info(a2);

	(void)a0;
	(void)a1;
	if (!info || info->version < 2)
		return -1;
	return (long)info->boot_hart;
}

void fw_next_stage(unsigned long a0, unsigned long a1, unsigned long a2, struct fw_next *next)
{
	const struct fw_dynamic_info *info = valid_info(a2);

	(void)a0;
	next->fdt = a1;
	next->addr = info ? info->next_addr : FW_JUMP_ADDR;
	next->mode = info ? info->next_mode : PRV_S;
}
