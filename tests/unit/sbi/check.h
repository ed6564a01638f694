/* SPDX-License-Identifier: BSD-2-Clause */
/* One line per check: PASS/FAIL and what was expected. */
#ifndef TALLY_TEST_CHECK_H
#define TALLY_TEST_CHECK_H
#include <stdio.h>

static int check_failures;

#define CHECK(cond, ...) do {						\
	printf((cond) ? "PASS: unit: " : "FAIL: unit: ");		\
	printf(__VA_ARGS__);						\
	if (!(cond)) {							\
		printf(" (%s:%d: %s)", __FILE__, __LINE__, #cond);	\
		check_failures++;					\
	}								\
	printf("\n");							\
} while (0)
#endif
