// SPDX-License-Identifier: BSD-2-Clause
/* Sieve of Eratosthenes (bytes) to 30000, then prime gaps and twin primes. */
#include "lib.h"

#define N 30000
static uint8_t composite[N];

int main(void)
{
	uint64_t count = 0, twins = 0, maxgap = 0, last = 2;

	for (uint32_t i = 2; i * i < N; i++)
		if (!composite[i])
			for (uint32_t j = i * i; j < N; j += i)
				composite[j] = 1;
	for (uint32_t i = 2; i < N; i++) {
		if (composite[i])
			continue;
		count++;
		if (i - last == 2)
			twins++;
		if (i - last > maxgap)
			maxgap = i - last;
		last = i;
	}
	report("sieve primes", count);
	report("sieve twins", twins);
	report("sieve max gap", maxgap);
	return 0;
}
