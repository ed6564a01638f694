// SPDX-License-Identifier: BSD-2-Clause
/*
 * String functions, byte at a time except for the copies: memcpy and
 * memmove move a word at a time when source and destination are equally
 * aligned, since libfdt moves the whole devicetree with them at boot
 * (fdt_open_into, every node and property the fixups insert) and the PMU
 * copies its shared-memory entries with them.  memmoves of BULK bytes or
 * more (libfdt's whole-tree moves) go through copy_up/copy_down: four
 * moves a turn, and 4 bytes at a time when the ends are equally aligned to
 * 4 only (a tree moved by a 4-byte property).  memcpy keeps the plain
 * loops: a size test there costs the PMU's 4- and 16-byte copies 6
 * instructions each.
 */
#include <stdint.h>
#include <tally/string.h>

/* a word that may alias anything: the copies move other types' bytes */
typedef unsigned long __attribute__((may_alias)) word_t;
#define WORD		sizeof(word_t)
#define WORD_MASK	(WORD - 1)
typedef uint32_t __attribute__((may_alias)) u32_t;
#define BULK		256

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

/*
 * The bulk copies, n >= BULK.  Each moves the few bytes up to the unit's
 * alignment one by one, then units four at a turn, then the tail.
 */
#define COPY_UP(type, mask)						\
	do {								\
		while ((uintptr_t)d & (mask)) {				\
			*d++ = *s++;					\
			n--;						\
		}							\
		for (; n >= 4 * sizeof(type); n -= 4 * sizeof(type)) {	\
			type *td = (type *)d;				\
			const type *ts = (const type *)s;		\
									\
			td[0] = ts[0];					\
			td[1] = ts[1];					\
			td[2] = ts[2];					\
			td[3] = ts[3];					\
			d += 4 * sizeof(type);				\
			s += 4 * sizeof(type);				\
		}							\
	} while (0)

#define COPY_DOWN(type, mask)						\
	do {								\
		while ((uintptr_t)d & (mask)) {				\
			*--d = *--s;					\
			n--;						\
		}							\
		for (; n >= 4 * sizeof(type); n -= 4 * sizeof(type)) {	\
			type *td;					\
			const type *ts;					\
									\
			d -= 4 * sizeof(type);				\
			s -= 4 * sizeof(type);				\
			td = (type *)d;					\
			ts = (const type *)s;				\
			td[3] = ts[3];					\
			td[2] = ts[2];					\
			td[1] = ts[1];					\
			td[0] = ts[0];					\
		}							\
	} while (0)

/* Tail-called with memcpy's arguments: the short path needs no frame. */
static __attribute__((noinline)) void *copy_up(void *dst, const void *src,
					       size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	uintptr_t diff = (uintptr_t)d ^ (uintptr_t)s;

	if (!(diff & WORD_MASK))
		COPY_UP(word_t, WORD_MASK);
	else if (!(diff & 3))
		COPY_UP(u32_t, 3);
	while (n--)
		*d++ = *s++;
	return dst;
}

static __attribute__((noinline)) void *copy_down(void *dst, const void *src,
						 size_t n)
{
	unsigned char *d = (unsigned char *)dst + n;
	const unsigned char *s = (const unsigned char *)src + n;
	uintptr_t diff = (uintptr_t)d ^ (uintptr_t)s;

	if (!(diff & WORD_MASK))
		COPY_DOWN(word_t, WORD_MASK);
	else if (!(diff & 3))
		COPY_DOWN(u32_t, 3);
	while (n--)
		*--d = *--s;
	return dst;
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
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(word_t *)d = *(const word_t *)s;
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
		return n >= BULK ? copy_up(dst, src, n) : memcpy(dst, src, n);
	if (n >= BULK)
		return copy_down(dst, src, n);
	d += n;
	s += n;
	if (same_alignment(d, s)) {
		while (n && ((uintptr_t)d & WORD_MASK)) {
			*--d = *--s;
			n--;
		}
		for (; n >= WORD; n -= WORD) {
			d -= WORD;
			s -= WORD;
			*(word_t *)d = *(const word_t *)s;
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
