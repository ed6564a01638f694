// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the board files call in the firmware (the generic platform and the
 * drivers), as do-nothing stand-ins: the tests only look at the boards'
 * compatible strings and PMU contributions.
 */
#include <stdbool.h>
#include <tally/console.h>
#include <tally/platform.h>

struct platform platform;

int platform_stdout_node(const void *fdt) { (void)fdt; return -1; }
void platform_add_mmode_dev(unsigned long base, unsigned long size) { (void)base; (void)size; }
void platform_park_hart(unsigned long hartid) { (void)hartid; }
void console_set_device(const struct console_device *dev) { (void)dev; }
void sifive_uart_init(unsigned long base, unsigned long clock_hz, unsigned long baud)
{ (void)base; (void)clock_hz; (void)baud; }
void sifive_uart_putc(char c) { (void)c; }
int sifive_uart_getc(void) { return -1; }
void gpio_restart_init(unsigned long base, unsigned int pin, bool active_low)
{ (void)base; (void)pin; (void)active_low; }
void gpio_restart(unsigned long type, unsigned long reason) { (void)type; (void)reason; }
void htif_init(unsigned long tohost_addr, unsigned long fromhost_addr)
{ (void)tohost_addr; (void)fromhost_addr; }
void htif_putc(char c) { (void)c; }
int htif_getc(void) { return -1; }
void htif_poweroff(unsigned long type, unsigned long reason) { (void)type; (void)reason; }
