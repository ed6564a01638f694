// SPDX-License-Identifier: BSD-2-Clause
/*
 * LZ77-style compression with a hash table of recent positions (greedy
 * matching, 4 KiB window), then decompression; the round trip must match.
 */
#include "lib.h"

#define IN 6000
#define HBITS 10
static uint8_t in[IN], packed[IN * 2], unpacked[IN];
static uint16_t head[1 << HBITS];

static unsigned hash3(const uint8_t *p)
{
	return ((unsigned)p[0] << 6 ^ (unsigned)p[1] << 3 ^ p[2]) & ((1 << HBITS) - 1);
}

/* tokens: literal run 0x00 len bytes..., match 0x80|len-3 offset(2 bytes) */
static size_t compress(const uint8_t *src, size_t n, uint8_t *dst)
{
	size_t i = 0, o = 0, lit_start = 0;

	for (size_t k = 0; k < (1u << HBITS); k++)
		head[k] = 0xffff;
	while (i + 3 <= n) {
		unsigned h = hash3(src + i);
		size_t cand = head[h], len = 0;

		head[h] = (uint16_t)i;
		if (cand != 0xffff && i - cand < 4096) {
			while (i + len < n && len < 130 && src[cand + len] == src[i + len])
				len++;
		}
		if (len >= 3) {
			while (lit_start < i) {
				size_t run = i - lit_start > 127 ? 127 : i - lit_start;

				dst[o++] = (uint8_t)run;
				memcpy(dst + o, src + lit_start, run);
				o += run;
				lit_start += run;
			}
			dst[o++] = (uint8_t)(0x80 | (len - 3));
			dst[o++] = (uint8_t)(i - cand);
			dst[o++] = (uint8_t)((i - cand) >> 8);
			i += len;
			lit_start = i;
		} else {
			i++;
		}
	}
	while (lit_start < n) {
		size_t run = n - lit_start > 127 ? 127 : n - lit_start;

		dst[o++] = (uint8_t)run;
		memcpy(dst + o, src + lit_start, run);
		o += run;
		lit_start += run;
	}
	return o;
}

static size_t decompress(const uint8_t *src, size_t n, uint8_t *dst)
{
	size_t i = 0, o = 0;

	while (i < n) {
		uint8_t t = src[i++];

		if (t & 0x80) {
			size_t len = (size_t)(t & 0x7f) + 3;
			size_t off = src[i] | (size_t)src[i + 1] << 8;

			i += 2;
			while (len--) {
				dst[o] = dst[o - off];
				o++;
			}
		} else {
			memcpy(dst + o, src + i, t);
			o += t;
			i += t;
		}
	}
	return o;
}

int main(void)
{
	static const char *const frag[] = { "int ", "return ", "(void)", " { ", " }\n",
					    "static ", "uint8_t ", "for (", "; i++) ", "x = y + z;\n" };
	size_t n = 0, c, d;

	while (n < IN - 16) {
		const char *f = frag[rnd() % 10];

		while (*f && n < IN)
			in[n++] = (uint8_t)*f++;
		if ((rnd() & 3) == 0)
			in[n++] = (uint8_t)('a' + rnd() % 26);
	}
	c = compress(in, n, packed);
	d = decompress(packed, c, unpacked);
	report("lz77 packed", c);
	report("lz77 round trip ok", d == n && !memcmp(in, unpacked, n));
	return 0;
}
