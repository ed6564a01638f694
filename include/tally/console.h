/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_CONSOLE_H
#define TALLY_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* The console UART, as its driver registers it (lib/utils/console.c). */
struct console_device {
	const char *name;		/* for the banner */
	void (*putc)(char c);		/* required */
	int (*getc)(void);		/* -1 when nothing waits; NULL: no input */
};

void console_set_device(const struct console_device *dev);
bool console_present(void);
const char *console_name(void);	/* NULL when none */

/*
 * One lock for every writer (firmware and S-mode): printf, console_putc
 * (text: '\n' goes out as "\r\n"), console_write and console_write_byte
 * (raw bytes, DBCN).  console_puts takes no lock: the fatal-trap path only.
 */
void console_putc(char c);
void console_write(const char *buf, size_t len);
void console_write_byte(char c);
int console_getc(void);
void console_puts(const char *s);
int printf(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(__printf__, 3, 4)));

#endif
