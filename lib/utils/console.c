// SPDX-License-Identifier: BSD-2-Clause
/*
 * Console output over one UART, with a small printf.  The board's driver
 * registers the device (console_set_device); every writer on every hart
 * shares one lock, so a firmware line and an S-mode DBCN write never
 * interleave: printf, console_write (DBCN write), console_write_byte (DBCN
 * write_byte) and console_putc (legacy putchar).  console_puts alone takes
 * no lock: it is for the fatal-trap path, whose dying hart may hold it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <tally/console.h>
#include <tally/spinlock.h>

static const struct console_device *console_dev;
static struct spinlock console_lock;

void console_set_device(const struct console_device *dev)
{
	console_dev = dev;
}

bool console_present(void)
{
	return console_dev && console_dev->putc;
}

const char *console_name(void)
{
	return console_dev ? console_dev->name : NULL;
}

/* The lock held (or the fatal path): one character, '\n' sent as "\r\n". */
static void put_text_char(char c)
{
	if (!console_present())
		return;
	if (c == '\n')
		console_dev->putc('\r');
	console_dev->putc(c);
}

void console_putc(char c)
{
	spin_lock(&console_lock);
	put_text_char(c);
	spin_unlock(&console_lock);
}

void console_write_byte(char c)
{
	if (!console_present())
		return;
	spin_lock(&console_lock);
	console_dev->putc(c);
	spin_unlock(&console_lock);
}

void console_write(const char *buf, size_t len)
{
	if (!console_present())
		return;
	spin_lock(&console_lock);
	for (size_t i = 0; i < len; i++)
		console_dev->putc(buf[i]);
	spin_unlock(&console_lock);
}

int console_getc(void)
{
	return console_dev && console_dev->getc ? console_dev->getc() : -1;
}

void console_puts(const char *s)
{
	while (*s)
		put_text_char(*s++);
}

struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void out_char(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

/*
 * *v /= base, returning the remainder.  RV32 has no 64-bit divide and the
 * firmware links no libgcc: there it is long division by 16-bit digits,
 * each step a 32-bit divide (base <= 16, so remainder << 16 fits).
 */
static unsigned int divide_small(unsigned long long *v, unsigned int base)
{
#if __riscv_xlen == 32
	unsigned long long q = 0;
	unsigned int r = 0;

	for (int shift = 48; shift >= 0; shift -= 16) {
		unsigned int part = (r << 16) | (unsigned int)(*v >> shift & 0xffff);

		q |= (unsigned long long)(part / base) << shift;
		r = part % base;
	}
	*v = q;
	return r;
#else
	unsigned int r = *v % base;

	*v /= base;
	return r;
#endif
}

static void out_number(struct outbuf *o, unsigned long long v, unsigned base,
		       bool negative, int width, char pad)
{
	char digits[24];
	int n = 0;

	do {
		digits[n++] = "0123456789abcdef"[divide_small(&v, base)];
	} while (v);
	if (negative)
		digits[n++] = '-';
	for (; width > n; width--)
		out_char(o, pad);
	while (n)
		out_char(o, digits[--n]);
}

/* Supports %c %s %d %i %u %x %p %%, with l/ll, a width and '0' padding. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			out_char(&o, *fmt);
			continue;
		}
		fmt++;
		char pad = ' ';
		int width = 0, longs = 0;
		if (*fmt == '0')
			pad = '0', fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l')
			longs++, fmt++;

		unsigned long long u;
		long long s;
		switch (*fmt) {
		case 'c':
			out_char(&o, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *str = va_arg(ap, const char *);
			int len = 0;
			if (!str)
				str = "(null)";
			for (const char *p = str; *p; p++)
				len++;
			for (; width > len; width--)
				out_char(&o, ' ');
			while (*str)
				out_char(&o, *str++);
			break;
		}
		case 'd':
		case 'i':
			s = longs ? (longs > 1 ? va_arg(ap, long long) : va_arg(ap, long))
				  : va_arg(ap, int);
			out_number(&o, s < 0 ? -(unsigned long long)s : (unsigned long long)s,
				   10, s < 0, width, pad);
			break;
		case 'u':
		case 'x':
			u = longs ? (longs > 1 ? va_arg(ap, unsigned long long)
					       : va_arg(ap, unsigned long))
				  : va_arg(ap, unsigned int);
			out_number(&o, u, *fmt == 'x' ? 16 : 10, false, width, pad);
			break;
		case 'p':
			out_char(&o, '0');
			out_char(&o, 'x');
			out_number(&o, (uintptr_t)va_arg(ap, void *), 16, false, width, pad);
			break;
		case '%':
			out_char(&o, '%');
			break;
		default:	/* unknown conversion: show it as written */
			out_char(&o, '%');
			if (!*fmt)
				goto done;
			out_char(&o, *fmt);
			break;
		}
	}
done:
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one lock per call keeps lines from different harts whole */
	spin_lock(&console_lock);
	for (const char *p = line; *p; p++)
		put_text_char(*p);
	spin_unlock(&console_lock);
	return n;
}
