// SPDX-License-Identifier: BSD-2-Clause
/* Integer matrix multiply (40x40), transpose, and a 3x3 convolution. */
#include "lib.h"

#define N 40
static int32_t A[N][N], B[N][N], C[N][N], T[N][N];
static uint8_t img[64][64], out[64][64];

static void matmul(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;

			for (int k = 0; k < N; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}

static void convolve(void)
{
	static const int k[3][3] = { { 1, 2, 1 }, { 2, 4, 2 }, { 1, 2, 1 } };

	for (int y = 1; y < 63; y++)
		for (int x = 1; x < 63; x++) {
			int s = 0;

			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++)
					s += k[dy + 1][dx + 1] * img[y + dy][x + dx];
			out[y][x] = (uint8_t)(s >> 4);
		}
}

int main(void)
{
	uint64_t sum = 0;

	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = (int32_t)(rnd() % 201) - 100;
			B[i][j] = (int32_t)(rnd() % 201) - 100;
		}
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 64; x++)
			img[y][x] = (uint8_t)rnd();
	matmul();
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			T[j][i] = C[i][j];
	convolve();
	for (int i = 0; i < N; i++)
		sum += (uint32_t)T[i][(i * 7) % N];
	for (int y = 0; y < 64; y++)
		sum += out[y][y];
	report("matmul", sum);
	return 0;
}
