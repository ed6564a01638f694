// SPDX-License-Identifier: BSD-2-Clause
/* Insertion sort of 500 shorts, then a binary search for every value. */
#include "lib.h"

#define N 500
static short a[N];

static int bsearch_idx(const short *v, int n, short key)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) >> 1;

		if (v[mid] == key)
			return mid;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int main(void)
{
	uint64_t found = 0;

	for (int i = 0; i < N; i++)
		a[i] = (short)(rnd() % 30000);
	for (int i = 1; i < N; i++) {
		short x = a[i];
		int j = i;

		while (j > 0 && a[j - 1] > x) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
	for (int i = 0; i < 30000; i += 7)
		found += bsearch_idx(a, N, (short)i) >= 0;
	report("isort found", found);
	return 0;
}
