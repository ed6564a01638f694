// SPDX-License-Identifier: BSD-2-Clause
/* The corpus programs' runtime (see lib.h). */
#include "lib.h"

#define UART_THR ((volatile uint8_t *)0x10000000)

void *memcpy(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;

	if ((((uintptr_t)dp | (uintptr_t)sp) & 7) == 0) {
		for (; n >= 8; n -= 8, dp += 8, sp += 8)
			*(uint64_t *)dp = *(const uint64_t *)sp;
	}
	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	uint8_t *dp = d;
	const uint8_t *sp = s;

	if (dp <= sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

void *memset(void *d, int c, size_t n)
{
	uint8_t *dp = d;

	while (n--)
		*dp++ = (uint8_t)c;
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

void rnd_seed(uint64_t s)
{
	rnd_state = s ? s : 1;
}

uint64_t rnd(void)
{
	uint64_t x = rnd_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rnd_state = x;
}

void put_str(const char *s)
{
	while (*s)
		*UART_THR = (uint8_t)*s++;
}

void put_dec(uint64_t v)
{
	char buf[24];
	int i = 23;

	buf[i] = 0;
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_str(buf + i);
}

void put_hex(uint64_t v)
{
	char buf[20];
	int i = 19;

	buf[i] = 0;
	do {
		buf[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	put_str(buf + i);
}

void report(const char *name, uint64_t v)
{
	put_str(name);
	put_str(": ");
	put_dec(v);
	put_str("\n");
}
