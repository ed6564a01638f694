// SPDX-License-Identifier: BSD-2-Clause
/*
 * A backtracking matcher for a small regular-expression language
 * (literals, '.', '*', '+', '?', '^', '$'), run over the lines of a text.
 */
#include "lib.h"

static int match_here(const char *re, const char *s);

static int match_repeat(char c, const char *re, const char *s, int min)
{
	const char *t = s;

	while (*t && (*t == c || c == '.'))
		t++;
	/* longest first, back off one character at a time */
	for (; t >= s + min; t--)
		if (match_here(re, t))
			return 1;
	return 0;
}

static int match_here(const char *re, const char *s)
{
	for (;;) {
		if (!re[0])
			return 1;
		if (re[1] == '*')
			return match_repeat(re[0], re + 2, s, 0);
		if (re[1] == '+')
			return match_repeat(re[0], re + 2, s, 1);
		if (re[1] == '?') {
			if (*s && (re[0] == '.' || re[0] == *s) && match_here(re + 2, s + 1))
				return 1;
			re += 2;
			continue;
		}
		if (re[0] == '$' && !re[1])
			return *s == 0;
		if (!*s || (re[0] != '.' && re[0] != *s))
			return 0;
		re++;
		s++;
	}
}

static int match(const char *re, const char *s)
{
	if (re[0] == '^')
		return match_here(re + 1, s);
	do {
		if (match_here(re, s))
			return 1;
	} while (*s++);
	return 0;
}

int main(void)
{
	static const char *const res[] = { "ab*c", "^the", "e.*e$", "x+y?z", "tr.c", "a.?b+a", "q" };
	static const char letters[] = "abcxyzteh r";
	static char line[48];
	uint64_t hits = 0;

	for (int l = 0; l < 100; l++) {
		int n = 8 + (int)(rnd() % 36);

		for (int i = 0; i < n; i++)
			line[i] = letters[rnd() % 11];
		line[n] = 0;
		for (int r = 0; r < 7; r++)
			hits = hits * 3 + (uint64_t)match(res[r], line);
	}
	report("regex", hits);
	return 0;
}
