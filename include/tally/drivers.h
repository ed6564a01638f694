/* SPDX-License-Identifier: BSD-2-Clause */
/* The device drivers in lib/utils, configured from the devicetree or a board file. */
#ifndef TALLY_DRIVERS_H
#define TALLY_DRIVERS_H

#include <stdbool.h>
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
#define MSWI_MSIP_STRIDE	4	/* bytes between two harts' msip words */
void mswi_add_hart(unsigned long index, unsigned long msip_addr);
void mswi_send(unsigned long index);
void mswi_clear(unsigned long index);

/* ACLINT MTIMER / CLINT timer */
#define MTIMER_MTIMECMP_STRIDE	8	/* bytes between two harts' 64-bit mtimecmp */
/* The SiFive CLINT, one region: msip words at 0, then these */
#define CLINT_MTIMECMP_OFFSET	0x4000
#define CLINT_MTIME_OFFSET	0xbff8
void mtimer_set_mtime(unsigned long mtime_addr);
void mtimer_add_hart(unsigned long index, unsigned long mtimecmp_addr);
uint64_t mtimer_value(void);
void mtimer_set(unsigned long index, uint64_t when);

/*
 * RISC-V AIA (include/tally/aia.h).  IMSIC M-files: the firmware's IPIs
 * (IMSIC_IPI_ID), by hart index; imsic_ipi_clear and imsic_hart_init act
 * on the calling hart's own file.  APLIC: an M-level domain's delegation
 * and MSI addresses, once at cold boot.
 */
struct aplic_desc;
void imsic_add_hart(unsigned long index, unsigned long file_addr);
void imsic_set_num_ids(unsigned int num_ids);
void imsic_ipi_send(unsigned long index);
void imsic_ipi_clear(unsigned long index);
void imsic_hart_init(void);
void aplic_init_mlevel(const struct aplic_desc *d);
/* BOARD_QUIRK_APLIC_SETIPNUM: S-mode's store to an S-level MSI-mode
 * domain's setipnum page (ctx: its struct aplic_slevel) */
struct platform_trap_page;
struct aplic_slevel;
/* ... and whether that domain needs it, asked of the hardware at boot */
bool aplic_setipnum_quirk(const struct aplic_slevel *d);
bool aplic_setipnum_store(const struct platform_trap_page *pg, unsigned long offset,
			  uint32_t value);

/* sifive,test0 (QEMU's test device) and syscon-style reset registers */
void sifive_test_init(unsigned long base);
void syscon_reset_init(unsigned long poweroff_addr, uint32_t poweroff_value,
		       unsigned long reboot_addr, uint32_t reboot_value);
void reset_device(unsigned long type, unsigned long reason);

/* SiFive UART (sifive,uart0) */
void sifive_uart_init(unsigned long base, unsigned long clock_hz, unsigned long baud);
void sifive_uart_putc(char c);
int sifive_uart_getc(void);

/* reset through a SiFive GPIO pin (gpio-restart on sifive,gpio0) */
void gpio_restart_init(unsigned long base, unsigned int pin, bool active_low);
void gpio_restart(unsigned long type, unsigned long reason);

/* HTIF (Spike, QEMU spike): console and power-off */
void htif_init(unsigned long tohost_addr, unsigned long fromhost_addr);
void htif_putc(char c);
int htif_getc(void);
void htif_poweroff(unsigned long type, unsigned long reason);

#endif
