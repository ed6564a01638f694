// SPDX-License-Identifier: BSD-2-Clause
/* 8250/16550 UART: polled transmit and receive. */
#include <stdint.h>
#include <tally/drivers.h>

#define UART_RBR	0	/* receive buffer (read) */
#define UART_THR	0	/* transmit holding (write) */
#define UART_DLL	0	/* divisor latch low (DLAB = 1) */
#define UART_IER	1
#define UART_DLM	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define LSR_DR		0x01	/* data ready */
#define LSR_THRE	0x20	/* transmit holding register empty */
#define LCR_8N1		0x03
#define LCR_DLAB	0x80

static volatile uint8_t *uart_base;
static unsigned int uart_shift, uart_width;

static unsigned int uart_read(unsigned int reg)
{
	volatile void *p = uart_base + (reg << uart_shift);

	return uart_width == 4 ? *(volatile uint32_t *)p : *(volatile uint8_t *)p;
}

static void uart_write(unsigned int reg, unsigned int val)
{
	volatile void *p = uart_base + (reg << uart_shift);

	if (uart_width == 4)
		*(volatile uint32_t *)p = val;
	else
		*(volatile uint8_t *)p = (uint8_t)val;
}

void uart8250_init(unsigned long base, unsigned int reg_shift, unsigned int reg_width,
		   unsigned long clock_hz, unsigned long baud)
{
	uart_base = (volatile uint8_t *)base;
	uart_shift = reg_shift;
	uart_width = reg_width;
	/* program the divisor only when the devicetree tells us the clocks */
	if (clock_hz && baud) {
		unsigned long div = clock_hz / (16 * baud);
		uart_write(UART_LCR, LCR_DLAB);
		uart_write(UART_DLL, div & 0xff);
		uart_write(UART_DLM, (div >> 8) & 0xff);
	}
	uart_write(UART_LCR, LCR_8N1);
	uart_write(UART_IER, 0);
	uart_write(UART_FCR, 0x07);	/* enable and clear the FIFOs */
	uart_write(UART_MCR, 0x03);	/* DTR, RTS */
}

void uart8250_putc(char c)
{
	while (!(uart_read(UART_LSR) & LSR_THRE))
		;
	uart_write(UART_THR, (unsigned char)c);
}

int uart8250_getc(void)
{
	if (uart_read(UART_LSR) & LSR_DR)
		return (int)uart_read(UART_RBR);
	return -1;
}
