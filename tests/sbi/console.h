/* A tiny console over the SBI: DBCN write_byte when the firmware has
 * it, else the legacy console_putchar. Lines are printed under a lock
 * so that several harts never interleave inside a line. */
#ifndef SBI_TEST_CONSOLE_H
#define SBI_TEST_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

void console_init(bool use_dbcn);
const char *console_backend(void);
void printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vprintf(const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);

size_t strlen(const char *s);
int strncmp(const char *a, const char *b, size_t n);
int strcmp(const char *a, const char *b);
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);

#endif
