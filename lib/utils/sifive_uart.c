// SPDX-License-Identifier: BSD-2-Clause
/*
 * SiFive UART (sifive,uart0: FU540, FU740, QEMU sifive_u).  Registers are
 * 32-bit: txdata (bit 31 = FIFO full), rxdata (bit 31 = empty), txctrl and
 * rxctrl (bit 0 = enable), and the baud divisor.
 */
#include <stdint.h>
#include <tally/drivers.h>

#define UART_TXDATA	0x00
#define UART_RXDATA	0x04
#define UART_TXCTRL	0x08
#define UART_RXCTRL	0x0c
#define UART_DIV	0x18
#define UART_FIFO_FLAG	(1U << 31)	/* txdata: full; rxdata: empty */
#define UART_CTRL_EN	1U

static volatile uint32_t *uart;

static uint32_t reg_read(unsigned int off)
{
	return uart[off / 4];
}

static void reg_write(unsigned int off, uint32_t value)
{
	uart[off / 4] = value;
}

void sifive_uart_init(unsigned long base, unsigned long clock_hz, unsigned long baud)
{
	uart = (volatile uint32_t *)base;
	/* div = clock / baud - 1; without both, keep what the boot ROM set */
	if (clock_hz && baud)
		reg_write(UART_DIV, (uint32_t)(clock_hz / baud - 1));
	reg_write(UART_TXCTRL, UART_CTRL_EN);
	reg_write(UART_RXCTRL, UART_CTRL_EN);
}

void sifive_uart_putc(char c)
{
	while (reg_read(UART_TXDATA) & UART_FIFO_FLAG)
		;
	reg_write(UART_TXDATA, (unsigned char)c);
}

int sifive_uart_getc(void)
{
	uint32_t v = reg_read(UART_RXDATA);

	return (v & UART_FIFO_FLAG) ? -1 : (int)(v & 0xff);
}
