// SPDX-License-Identifier: BSD-2-Clause
/*
 * String functions, byte at a time except for the copies: memcpy and
 * memmove move a word at a time when source and destination are equally
 * aligned, since libfdt moves the whole devicetree with them at boot
 * (fdt_open_into, every node and property the fixups insert) and the PMU
 * copies its shared-memory entries with them.  Ends equally aligned only
 * to 4 bytes (a devicetree moved by a 4-byte property) move 4 bytes at a
 * time: a 200 KB tree costs a quarter of the byte copy.
 */
#include <stdint.h>
#include <tally/string.h>

/* a word that may alias anything: the copies move other types' bytes */
typedef unsigned long __attribute__((may_alias)) word_t;
#define WORD		sizeof(word_t)
#define WORD_MASK	(WORD - 1)
typedef uint32_t __attribute__((may_alias)) half_t;
#define HALF		sizeof(half_t)
#define HALF_MASK	(HALF - 1)

void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

/* Can dst and src be copied a word at a time (after the same few bytes)? */
static int same_alignment(const void *dst, const void *src)
{
	return (((uintptr_t)dst ^ (uintptr_t)src) & WORD_MASK) == 0;
}

static int same_alignment4(const void *dst, const void *src)
{
	return (((uintptr_t)dst ^ (uintptr_t)src) & HALF_MASK) == 0;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (same_alignment(d, s)) {
		/* bytes up to a word boundary, then whole words */
		while (n && ((uintptr_t)d & WORD_MASK)) {
			*d++ = *s++;
			n--;
		}
		/* four at a turn: these copies are whole devicetrees */
		for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD, s += 4 * WORD) {
			word_t *wd = (word_t *)d;
			const word_t *ws = (const word_t *)s;

			wd[0] = ws[0];
			wd[1] = ws[1];
			wd[2] = ws[2];
			wd[3] = ws[3];
		}
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(word_t *)d = *(const word_t *)s;
	} else if (same_alignment4(d, s)) {
		while (n && ((uintptr_t)d & HALF_MASK)) {
			*d++ = *s++;
			n--;
		}
		/* four at a turn: these copies are whole devicetrees */
		for (; n >= 4 * HALF; n -= 4 * HALF, d += 4 * HALF, s += 4 * HALF) {
			half_t *hd = (half_t *)d;
			const half_t *hs = (const half_t *)s;

			hd[0] = hs[0];
			hd[1] = hs[1];
			hd[2] = hs[2];
			hd[3] = hs[3];
		}
		for (; n >= HALF; n -= HALF, d += HALF, s += HALF)
			*(half_t *)d = *(const half_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

/* Overlapping with dst above src: copy from the end down. */
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	d += n;
	s += n;
	if (same_alignment(d, s)) {
		while (n && ((uintptr_t)d & WORD_MASK)) {
			*--d = *--s;
			n--;
		}
		for (; n >= 4 * WORD; n -= 4 * WORD) {
			word_t *wd;
			const word_t *ws;

			d -= 4 * WORD;
			s -= 4 * WORD;
			wd = (word_t *)d;
			ws = (const word_t *)s;
			wd[3] = ws[3];
			wd[2] = ws[2];
			wd[1] = ws[1];
			wd[0] = ws[0];
		}
		for (; n >= WORD; n -= WORD) {
			d -= WORD;
			s -= WORD;
			*(word_t *)d = *(const word_t *)s;
		}
	} else if (same_alignment4(d, s)) {
		while (n && ((uintptr_t)d & HALF_MASK)) {
			*--d = *--s;
			n--;
		}
		for (; n >= 4 * HALF; n -= 4 * HALF) {
			half_t *hd;
			const half_t *hs_;

			d -= 4 * HALF;
			s -= 4 * HALF;
			hd = (half_t *)d;
			hs_ = (const half_t *)s;
			hd[3] = hs_[3];
			hd[2] = hs_[2];
			hd[1] = hs_[1];
			hd[0] = hs_[0];
		}
		for (; n >= HALF; n -= HALF) {
			d -= HALF;
			s -= HALF;
			*(half_t *)d = *(const half_t *)s;
		}
	}
	while (n--)
		*--d = *--s;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	unsigned long v = 0;

	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = 10;
	}
	for (; digit_value(*s) < base; s++)
		v = v * base + digit_value(*s);
	if (end)
		*end = (char *)s;
	return v;
}
