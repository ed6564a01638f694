/* SPDX-License-Identifier: BSD-2-Clause */
/* The device drivers in lib/utils, configured from the devicetree or a board file. */
#ifndef TALLY_DRIVERS_H
#define TALLY_DRIVERS_H

#include <stdint.h>

/* ns16550-compatible UART */
void uart8250_init(unsigned long base, unsigned int reg_shift, unsigned int reg_width,
		   unsigned long clock_hz, unsigned long baud);
void uart8250_putc(char c);
int uart8250_getc(void);

/*
 * ACLINT MSWI / CLINT software interrupts: one 32-bit MSIP word per hart.
 * The drivers' harts are hart indices (include/tally/hartmask.h).
 */
void mswi_add_hart(unsigned long index, unsigned long msip_addr);
void mswi_send(unsigned long index);
void mswi_clear(unsigned long index);

/* ACLINT MTIMER / CLINT timer */
void mtimer_set_mtime(unsigned long mtime_addr);
void mtimer_add_hart(unsigned long index, unsigned long mtimecmp_addr);
uint64_t mtimer_value(void);
void mtimer_set(unsigned long index, uint64_t when);

/* sifive,test0 (QEMU's test device) and syscon-style reset registers */
void sifive_test_init(unsigned long base);
void syscon_reset_init(unsigned long poweroff_addr, uint32_t poweroff_value,
		       unsigned long reboot_addr, uint32_t reboot_value);
void reset_device(unsigned long type, unsigned long reason);

#endif
