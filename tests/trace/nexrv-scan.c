// SPDX-License-Identifier: BSD-2-Clause
/*
 * sscanf for NexRv's line parser (tests/trace/nexrv-scan.h says how it gets
 * there).  NexRv's encoder reads each PCSEQ line with
 * sscanf(line, "%" SCNx64, &addr), and the cross-check runs it 13 times on
 * each of 23 programs, 370 MB of PCSEQ: glibc's sscanf, which sets up a
 * string stream per call, was two thirds of its time (1.41 s of one Linux
 * run, 0.48 s with this).
 *
 * The fast path takes only what it reads exactly as sscanf does: a number
 * that starts at the first character, 0x or 0X and then a hex digit, or a
 * hex digit, and at most 16 significant digits.  Anything else (leading
 * white space, a sign, "0x" with no digit after it, an overflow, another
 * format) goes to vsscanf, so every call returns what glibc would.  The
 * cross-check also compares the streams of this build and of NexRv's own
 * (nexrv-xcheck.sh, "fast parse").
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int nexrv_sscanf(const char *s, const char *format, ...);

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
			return 0;	/* out of range: vsscanf says what that gives */
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
