// SPDX-License-Identifier: BSD-2-Clause
/* Recursive quicksort (median of three, insertion sort below 12) of 6000 ints. */
#include "lib.h"

#define N 6000
static int a[N];

static void insertion(int *v, int n)
{
	for (int i = 1; i < n; i++) {
		int x = v[i], j = i - 1;

		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

static void swap(int *x, int *y)
{
	int t = *x;

	*x = *y;
	*y = t;
}

static void quick(int *v, int n)
{
	while (n > 12) {
		int m = n / 2, i = 0, j = n - 1, pivot;

		if (v[m] < v[0])
			swap(&v[m], &v[0]);
		if (v[n - 1] < v[0])
			swap(&v[n - 1], &v[0]);
		if (v[n - 1] < v[m])
			swap(&v[n - 1], &v[m]);
		pivot = v[m];
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap(&v[i], &v[j]);
			i++;
			j--;
		}
		/* recurse on the smaller part, loop on the larger */
		if (j + 1 < n - j - 1) {
			quick(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			quick(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion(v, n);
}

int main(void)
{
	uint64_t sum = 0;

	for (int i = 0; i < N; i++)
		a[i] = (int)(rnd() % 100000);
	quick(a, N);
	for (int i = 1; i < N; i++)
		if (a[i - 1] > a[i])
			sum++;
	report("qsort unsorted pairs", sum);
	return 0;
}
