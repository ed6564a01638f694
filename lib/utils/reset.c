// SPDX-License-Identifier: BSD-2-Clause
/*
 * System reset devices.  QEMU's sifive,test0 can also report a failure
 * exit code, which SRST's "system failure" reason uses; a plain syscon
 * poweroff/reboot pair can only power off and reboot.
 */
#include <stdbool.h>
#include <stdint.h>
#include <tally/drivers.h>
#include <tally/sbi_spec.h>

#define SIFIVE_TEST_FAIL	0x3333
#define SIFIVE_TEST_PASS	0x5555
#define SIFIVE_TEST_RESET	0x7777

static volatile uint32_t *test_dev;
static volatile uint32_t *poweroff_reg, *reboot_reg;
static uint32_t poweroff_val, reboot_val;

void sifive_test_init(unsigned long base)
{
	test_dev = (volatile uint32_t *)base;
}

void syscon_reset_init(unsigned long poweroff_addr, uint32_t poweroff_value,
		       unsigned long reboot_addr, uint32_t reboot_value)
{
	poweroff_reg = (volatile uint32_t *)poweroff_addr;
	poweroff_val = poweroff_value;
	reboot_reg = (volatile uint32_t *)reboot_addr;
	reboot_val = reboot_value;
}

void reset_device(unsigned long type, unsigned long reason)
{
	bool shutdown = type == SBI_SRST_TYPE_SHUTDOWN;

	if (test_dev) {
		if (!shutdown)
			*test_dev = SIFIVE_TEST_RESET;
		else if (reason == SBI_SRST_REASON_SYSFAIL)
			*test_dev = (1U << 16) | SIFIVE_TEST_FAIL;	/* exit status 1 */
		else
			*test_dev = SIFIVE_TEST_PASS;
	} else if (shutdown && poweroff_reg) {
		*poweroff_reg = poweroff_val;
	} else if (!shutdown && reboot_reg) {
		*reboot_reg = reboot_val;
	}
}
