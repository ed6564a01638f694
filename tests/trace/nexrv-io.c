// SPDX-License-Identifier: BSD-2-Clause
/*
 * sscanf and fprintf for NexRv (tests/trace/nexrv-io.h says how they get
 * there).  NexRv's encoder reads each PCSEQ line with
 * sscanf(line, "%" SCNx64, &addr), its decoder writes each address with
 * fprintf(f, "0x%lX", pc) and fprintf(f, "\n"), and the cross-check runs
 * them on 370 MB of PCSEQ, the encoder 13 times: glibc's sscanf was two
 * thirds of the encoder's time (1.41 s of one Linux run, 0.48 s with this),
 * fprintf half of the decoder's.
 *
 * Each fast path takes only what it does exactly as glibc does.  sscanf: a
 * number that starts at the first character, 0x or 0X and then a hex digit,
 * or a hex digit, at most 16 significant digits.  Anything else (leading
 * white space, a sign, "0x" with no digit after it, an overflow, another
 * format) goes to glibc, so every call returns what glibc's would.  The
 * cross-check also compares this build with NexRv as it is on one program
 * (nexrv-xcheck.sh, "fast I/O").
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int nexrv_sscanf(const char *s, const char *format, ...);
int nexrv_fprintf(FILE *f, const char *format, ...);

static int hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The fast path: 1 and *value when s is a number it reads exactly, else 0. */
static int scan_hex64(const char *s, uint64_t *value)
{
	uint64_t v = 0;
	int digits = 0, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (hex_digit((unsigned char)*s) < 0)
		return 0;
	while (*s == '0')
		s++;
	for (; (d = hex_digit((unsigned char)*s)) >= 0; s++) {
		if (++digits > 16)
			return 0;	/* out of range: glibc says what that gives */
		v = v << 4 | (uint64_t)d;
	}
	*value = v;
	return 1;
}

int nexrv_sscanf(const char *s, const char *format, ...)
{
	va_list ap;
	uint64_t v;
	int n;

	va_start(ap, format);
	if (strcmp(format, "%" SCNx64) == 0 && scan_hex64(s, &v)) {
		*va_arg(ap, uint64_t *) = v;
		n = 1;
	} else {
		n = vsscanf(s, format, ap);
	}
	va_end(ap);
	return n;
}

/* "0x%lX": 0x, then the value in upper-case hex without leading zeros. */
static int print_0x_upper(FILE *f, unsigned long v)
{
	char buf[2 + 2 * sizeof(v)], *p = buf + sizeof(buf);
	size_t n;

	do {
		*--p = "0123456789ABCDEF"[v & 0xf];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	n = (size_t)(buf + sizeof(buf) - p);
	return fwrite(p, 1, n, f) == n ? (int)n : -1;
}

int nexrv_fprintf(FILE *f, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	if (strcmp(format, "0x%lX") == 0)
		n = print_0x_upper(f, va_arg(ap, unsigned long));
	else if (strcmp(format, "\n") == 0)
		n = putc('\n', f) == EOF ? -1 : 1;
	else
		n = vfprintf(f, format, ap);
	va_end(ap);
	return n;
}
