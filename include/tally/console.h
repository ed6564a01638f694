/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_CONSOLE_H
#define TALLY_CONSOLE_H

#include <stdarg.h>
#include <stddef.h>

void console_putc(char c);
int console_getc(void);
void console_puts(const char *s);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
