// SPDX-License-Identifier: BSD-2-Clause
/*
 * Deep and wide recursion: naive Fibonacci, Ackermann(2, n), and the
 * Tower of Hanoi, so that the call stack goes deeper than any encoder's.
 */
#include "lib.h"

static uint64_t moves;

static uint64_t fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static uint64_t ack(uint64_t m, uint64_t n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static void hanoi(int n, int from, int to, int via)
{
	if (!n)
		return;
	hanoi(n - 1, from, via, to);
	moves++;
	hanoi(n - 1, via, to, from);
}

int main(void)
{
	report("fib(20)", fib(20));
	report("ack(2,40)", ack(2, 40));
	hanoi(12, 0, 2, 1);
	report("hanoi moves", moves);
	return 0;
}
