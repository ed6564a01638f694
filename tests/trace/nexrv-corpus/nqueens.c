// SPDX-License-Identifier: BSD-2-Clause
/* N-queens by recursive backtracking with column/diagonal bitmasks, N = 4..8. */
#include "lib.h"

static uint64_t solve(int n, int row, uint32_t cols, uint32_t d1, uint32_t d2)
{
	uint64_t count = 0;

	if (row == n)
		return 1;
	for (int c = 0; c < n; c++) {
		uint32_t bc = 1u << c, b1 = 1u << (row + c), b2 = 1u << (row - c + n);

		if ((cols & bc) || (d1 & b1) || (d2 & b2))
			continue;
		count += solve(n, row + 1, cols | bc, d1 | b1, d2 | b2);
	}
	return count;
}

int main(void)
{
	uint64_t total = 0;

	for (int n = 4; n <= 8; n++)
		total = total * 100 + solve(n, 0, 0, 0, 0);
	report("nqueens", total);
	return 0;
}
