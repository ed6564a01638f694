/* SPDX-License-Identifier: BSD-2-Clause */
/* The few string functions the firmware and libfdt need (no libc here). */
#ifndef TALLY_STRING_H
#define TALLY_STRING_H

#include <stddef.h>

void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
unsigned long strtoul(const char *s, char **end, int base);

#endif
