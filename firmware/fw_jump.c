// SPDX-License-Identifier: BSD-2-Clause
/* fw_jump: the next stage waits at a fixed address (FW_JUMP_ADDR) in S-mode. */
#include <tally/init.h>
#include <tally/riscv.h>

const char fw_flavour[] = "fw_jump";

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
	next->addr = FW_JUMP_ADDR;
	next->mode = PRV_S;
	next->fdt = FW_JUMP_FDT_ADDR ? FW_JUMP_FDT_ADDR : a1;
}
