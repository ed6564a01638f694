// SPDX-License-Identifier: BSD-2-Clause
/* Base64 encoding and decoding (RFC 4648 alphabet) of random buffers of every length 1..96. */
#include "lib.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t encode(const uint8_t *in, size_t n, char *out)
{
	size_t o = 0, i = 0;

	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = alphabet[v >> 6 & 63];
		out[o++] = alphabet[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);

		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[v >> 12 & 63];
		out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
		out[o++] = '=';
	}
	out[o] = 0;
	return o;
}

static int value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static size_t decode(const char *in, size_t n, uint8_t *out)
{
	size_t o = 0;

	for (size_t i = 0; i + 4 <= n; i += 4) {
		int a = value(in[i]), b = value(in[i + 1]), c = value(in[i + 2]), d = value(in[i + 3]);

		out[o++] = (uint8_t)(a << 2 | b >> 4);
		if (c >= 0)
			out[o++] = (uint8_t)(b << 4 | c >> 2);
		if (d >= 0)
			out[o++] = (uint8_t)(c << 6 | d);
	}
	return o;
}

int main(void)
{
	static uint8_t data[96], back[96];
	static char text[140];
	uint64_t ok = 0, chars = 0;

	for (size_t n = 1; n <= 96; n++) {
		size_t e, d;

		for (size_t i = 0; i < n; i++)
			data[i] = (uint8_t)rnd();
		e = encode(data, n, text);
		d = decode(text, e, back);
		ok += d == n && !memcmp(data, back, n);
		chars += e;
	}
	report("base64 ok", ok);
	report("base64 chars", chars);
	return 0;
}
