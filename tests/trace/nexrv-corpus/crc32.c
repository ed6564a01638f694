// SPDX-License-Identifier: BSD-2-Clause
/* Bitwise CRC-32 (reflected, poly 0xEDB88320) of 6 KiB, and CRC-16/CCITT. */
#include "lib.h"

#define LEN 6144
static uint8_t buf[LEN];

static uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++) {
			if (crc & 1)
				crc = (crc >> 1) ^ 0xedb88320u;
			else
				crc >>= 1;
		}
	}
	return ~crc;
}

static uint16_t crc16_ccitt(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xffff;

	while (n--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (int k = 0; k < 8; k++)
			crc = crc & 0x8000 ? (uint16_t)(crc << 1) ^ 0x1021 : (uint16_t)(crc << 1);
	}
	return crc;
}

int main(void)
{
	for (int i = 0; i < LEN; i++)
		buf[i] = (uint8_t)rnd();
	report("crc32", crc32_bitwise(buf, LEN));
	report("crc16", crc16_ccitt(buf, LEN / 4));
	return 0;
}
