// SPDX-License-Identifier: BSD-2-Clause
/*
 * String handling as a program's plumbing does it: number to text and back,
 * copying, comparing, tokenizing and reversing words.
 */
#include "lib.h"

static char buf[8192];

static int fmt_u(char *out, uint32_t v, unsigned base)
{
	char tmp[16];
	int n = 0, i = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		out[i++] = tmp[--n];
	out[i] = 0;
	return i;
}

static uint32_t parse_u(const char *s, unsigned base)
{
	uint32_t v = 0;

	for (;; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	return v;
}

static int my_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (uint8_t)*a - (uint8_t)*b;
}

static void reverse(char *s, int n)
{
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		char t = s[i];

		s[i] = s[j];
		s[j] = t;
	}
}

int main(void)
{
	uint64_t acc = 0, bad = 0;
	int n = 0;
	char a[16], b[16];

	for (int i = 0; i < 600; i++) {
		uint32_t v = (uint32_t)rnd();
		unsigned base = (i & 1) ? 16 : 10;
		int len = fmt_u(a, v, base);

		bad += parse_u(a, base) != v;
		fmt_u(b, v ^ 1, base);
		acc += (uint64_t)(my_strcmp(a, b) < 0);
		if (n + len + 1 < (int)sizeof(buf)) {
			memcpy(buf + n, a, (size_t)len);
			n += len;
			buf[n++] = ' ';
		}
	}
	buf[n] = 0;
	/* reverse every word in place */
	for (int i = 0; i < n;) {
		int j = i;

		while (j < n && buf[j] != ' ')
			j++;
		reverse(buf + i, j - i);
		acc += (uint64_t)(j - i);
		i = j + 1;
	}
	report("strfuncs", acc);
	report("strfuncs bad", bad);
	report("strfuncs length", strlen(buf));
	return 0;
}
