// SPDX-License-Identifier: BSD-2-Clause
/* Table-driven CRC-32 and Adler-32 over buffers of several sizes. */
#include "lib.h"

static uint32_t table[256];
static uint8_t buf[8192];

static void make_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++)
		c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static uint32_t adler32(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	while (n) {
		size_t k = n < 3800 ? n : 3800;

		n -= k;
		while (k--) {
			a += *p++;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return b << 16 | a;
}

int main(void)
{
	uint64_t acc = 0;

	make_table();
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(rnd() >> 11);
	for (size_t len = 64; len <= sizeof(buf); len *= 2)
		acc += crc32(buf, len) ^ adler32(buf + 7, len - 7);
	report("crc table", acc);
	return 0;
}
