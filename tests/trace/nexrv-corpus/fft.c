// SPDX-License-Identifier: BSD-2-Clause
/*
 * Fixed-point (Q14) radix-2 FFT of 512 points and its inverse: bit-reversal
 * permutation, a twiddle table from a quarter-wave sine built by recurrence.
 */
#include "lib.h"

#define LOG 9
#define N (1 << LOG)
#define ONE (1 << 14)
static int32_t re[N], im[N], cosv[N / 2], sinv[N / 2];

static void twiddles(void)
{
	/* rotate (1, 0) by 2*pi/N each step: cos/sin of 2*pi/512 in Q30 */
	int64_t c = 1073660536, s = 13176464;
	int64_t x = (int64_t)1 << 30, y = 0;

	for (int k = 0; k < N / 2; k++) {
		int64_t nx = (x * c - y * s) >> 30, ny = (x * s + y * c) >> 30;

		cosv[k] = (int32_t)(x >> 16);
		sinv[k] = (int32_t)(y >> 16);
		x = nx;
		y = ny;
	}
}

static void fft(int inverse)
{
	for (int i = 1, j = 0; i < N; i++) {
		int bit = N >> 1;

		for (; j & bit; bit >>= 1)
			j ^= bit;
		j |= bit;
		if (i < j) {
			int32_t t = re[i];

			re[i] = re[j];
			re[j] = t;
			t = im[i];
			im[i] = im[j];
			im[j] = t;
		}
	}
	for (int len = 2; len <= N; len <<= 1) {
		int step = N / len;

		for (int i = 0; i < N; i += len)
			for (int k = 0; k < len / 2; k++) {
				int32_t wr = cosv[k * step], wi = inverse ? sinv[k * step] : -sinv[k * step];
				int32_t *ar = &re[i + k], *ai = &im[i + k];
				int32_t *br = &re[i + k + len / 2], *bi = &im[i + k + len / 2];
				int32_t tr = (int32_t)(((int64_t)*br * wr - (int64_t)*bi * wi) >> 14);
				int32_t ti = (int32_t)(((int64_t)*br * wi + (int64_t)*bi * wr) >> 14);

				*br = (*ar - tr) >> 1;
				*bi = (*ai - ti) >> 1;
				*ar = (*ar + tr) >> 1;
				*ai = (*ai + ti) >> 1;
			}
	}
}

int main(void)
{
	uint64_t energy = 0;

	twiddles();
	for (int i = 0; i < N; i++) {
		re[i] = (i & 16) ? ONE / 2 : -ONE / 2;
		re[i] += (int32_t)(rnd() % 512) - 256;
		im[i] = 0;
	}
	fft(0);
	for (int i = 0; i < N; i++)
		energy += (uint64_t)((int64_t)re[i] * re[i] + (int64_t)im[i] * im[i]);
	fft(1);
	report("fft energy", energy);
	report("fft re[5]", (uint64_t)(uint32_t)re[5]);
	return 0;
}
