/* SPDX-License-Identifier: BSD-2-Clause */
/* The corpus programs' runtime: a few string functions, a PRNG, UART output. */
#ifndef CORPUS_LIB_H
#define CORPUS_LIB_H

#include <stddef.h>
#include <stdint.h>

void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

/* xorshift64: the same inputs on every run */
uint64_t rnd(void);
void rnd_seed(uint64_t s);

void put_str(const char *s);
void put_dec(uint64_t v);
void put_hex(uint64_t v);
/* "name: value\n", so a run says what it computed */
void report(const char *name, uint64_t v);

#endif
