// SPDX-License-Identifier: BSD-2-Clause
/*
 * A recursive-descent parser and evaluator for integer expressions
 * (+ - * / %, parentheses, unary minus) over generated expressions.
 */
#include "lib.h"

static const char *p;

static int64_t expr(void);

static void skip(void)
{
	while (*p == ' ')
		p++;
}

static int64_t primary(void)
{
	int64_t v = 0;

	skip();
	if (*p == '(') {
		p++;
		v = expr();
		skip();
		if (*p == ')')
			p++;
		return v;
	}
	if (*p == '-') {
		p++;
		return -primary();
	}
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

static int64_t term(void)
{
	int64_t v = primary();

	for (;;) {
		int64_t r;

		skip();
		if (*p != '*' && *p != '/' && *p != '%')
			return v;
		char op = *p++;

		r = primary();
		if (op == '*')
			v *= r;
		else if (r && op == '/')
			v /= r;
		else if (r)
			v %= r;
	}
}

static int64_t expr(void)
{
	int64_t v = term();

	for (;;) {
		skip();
		if (*p == '+') {
			p++;
			v += term();
		} else if (*p == '-') {
			p++;
			v -= term();
		} else {
			return v;
		}
	}
}

/* a random expression of bounded depth into out; returns its length */
static int gen(char *out, int depth)
{
	int n = 0, terms = 1 + (int)(rnd() % 3);

	for (int t = 0; t < terms; t++) {
		if (t)
			out[n++] = "+-*/%"[rnd() % 5];
		if (depth && (rnd() & 1)) {
			out[n++] = '(';
			n += gen(out + n, depth - 1);
			out[n++] = ')';
		} else {
			uint32_t v = (uint32_t)(rnd() % 1000);

			if (v > 99)
				out[n++] = (char)('0' + v / 100);
			if (v > 9)
				out[n++] = (char)('0' + v / 10 % 10);
			out[n++] = (char)('0' + v % 10);
		}
		out[n++] = ' ';
	}
	return n;
}

int main(void)
{
	static char buf[2048];
	uint64_t acc = 0;

	for (int i = 0; i < 150; i++) {
		int n = gen(buf, 3);

		buf[n] = 0;
		p = buf;
		acc = acc * 7 + (uint64_t)expr();
	}
	report("expr", acc);
	return 0;
}
