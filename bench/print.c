// SPDX-License-Identifier: BSD-2-Clause
/*
 * Output straight to QEMU virt's 16550 UART: the payload prints through
 * no firmware call, so printing never disturbs what is measured and
 * works the same under every firmware.
 */
#include <stdarg.h>
#include <stdbool.h>
#include "bench.h"

#define UART_BASE	0x10000000UL
#define UART_THR	0
#define UART_LSR	5
#define UART_LSR_THRE	0x20

static void putc_raw(char c)
{
	volatile unsigned char *uart = (volatile unsigned char *)UART_BASE;

	while (!(uart[UART_LSR] & UART_LSR_THRE))
		;
	uart[UART_THR] = (unsigned char)c;
}

static void put_char(char c)
{
	if (c == '\n')
		putc_raw('\r');
	putc_raw(c);
}

static void put_num(unsigned long v, unsigned int base, bool neg, int width, char pad)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		tmp[n++] = '-';
	for (; width > n; width--)
		put_char(pad);
	while (n)
		put_char(tmp[--n]);
}

/* %[0][width][l]{d,u,x,s,c,%} */
void bprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		char pad = ' ';
		int width = 0;
		bool is_long = false;
		const char *s;
		long v;

		if (*fmt != '%') {
			put_char(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = *fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		if (*fmt == 'l') {
			is_long = true;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
			v = is_long ? va_arg(ap, long) : va_arg(ap, int);
			put_num(v < 0 ? -(unsigned long)v : (unsigned long)v, 10, v < 0,
				width, pad);
			break;
		case 'u':
		case 'x':
			put_num(is_long ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int),
				*fmt == 'u' ? 10 : 16, false, width, pad);
			break;
		case 's':
			for (s = va_arg(ap, const char *); s && *s; s++)
				put_char(*s);
			break;
		case 'c':
			put_char((char)va_arg(ap, int));
			break;
		case '\0':
			fmt--;
			break;
		default:
			put_char(*fmt);
			break;
		}
	}
	va_end(ap);
}
