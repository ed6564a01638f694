// SPDX-License-Identifier: BSD-2-Clause
/*
 * fw_payload: the next stage is linked into the image itself, at
 * FW_TEXT_START + FW_PAYLOAD_OFFSET (see fw_payload.S).
 */
#include <tally/init.h>
#include <tally/riscv.h>

const char fw_flavour[] = "fw_payload";
extern char _payload_start[];

long fw_boot_hart(unsigned long a0, unsigned long a1, unsigned long a2)
{
	(void)a0;
	(void)a1;
	(void)a2;
	return -1;	/* the first hart to arrive */
}

void fw_next_stage(unsigned long a0, unsigned long a1, unsigned long a2, struct fw_next *next)
{
	(void)a0;
	(void)a2;
	next->addr = (unsigned long)_payload_start;
	next->mode = PRV_S;
	next->fdt = FW_PAYLOAD_FDT_ADDR ? FW_PAYLOAD_FDT_ADDR : a1;
}
