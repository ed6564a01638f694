// SPDX-License-Identifier: BSD-2-Clause
/*
 * String search in generated text: Boyer-Moore-Horspool, a naive search and
 * Knuth-Morris-Pratt, each for the same patterns; the counts must agree.
 */
#include "lib.h"

#define TEXT 4096
static char text[TEXT + 1];
static const char *const words[] = { "the", "trace", "encoder", "history", "branch",
				     "message", "of", "and", "stream", "decoder" };

static int horspool(const char *t, int n, const char *p, int m)
{
	int shift[256], count = 0;

	for (int i = 0; i < 256; i++)
		shift[i] = m;
	for (int i = 0; i < m - 1; i++)
		shift[(uint8_t)p[i]] = m - 1 - i;
	for (int i = 0; i + m <= n; i += shift[(uint8_t)t[i + m - 1]]) {
		int j = m - 1;

		while (j >= 0 && t[i + j] == p[j])
			j--;
		count += j < 0;
	}
	return count;
}

static int naive(const char *t, int n, const char *p, int m)
{
	int count = 0;

	for (int i = 0; i + m <= n; i++) {
		int j = 0;

		while (j < m && t[i + j] == p[j])
			j++;
		count += j == m;
	}
	return count;
}

static int kmp(const char *t, int n, const char *p, int m)
{
	int fail[32], count = 0, k = 0;

	fail[0] = 0;
	for (int i = 1; i < m; i++) {
		while (k && p[i] != p[k])
			k = fail[k - 1];
		if (p[i] == p[k])
			k++;
		fail[i] = k;
	}
	k = 0;
	for (int i = 0; i < n; i++) {
		while (k && t[i] != p[k])
			k = fail[k - 1];
		if (t[i] == p[k])
			k++;
		if (k == m) {
			count++;
			k = fail[k - 1];
		}
	}
	return count;
}

int main(void)
{
	int n = 0;
	uint64_t total = 0, bad = 0;

	while (n < TEXT - 16) {
		const char *w = words[rnd() % 10];

		while (*w && n < TEXT - 1)
			text[n++] = *w++;
		text[n++] = (rnd() & 7) ? ' ' : '\n';
	}
	text[n] = 0;
	for (int w = 0; w < 10; w++) {
		int m = (int)strlen(words[w]);
		int a = horspool(text, n, words[w], m);

		bad += a != kmp(text, n, words[w], m);
		if (w < 4)
			bad += a != naive(text, n, words[w], m);
		total += (uint64_t)a;
	}
	report("strsearch matches", total);
	report("strsearch disagreements", bad);
	return 0;
}
