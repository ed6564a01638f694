/* SPDX-License-Identifier: BSD-2-Clause */
/* One line per check: "[prefix: ]PASS: pmu: ..." or "...FAIL: pmu: ...". */
#ifndef TALLY_PMU_TEST_CHECK_H
#define TALLY_PMU_TEST_CHECK_H
#include <stdbool.h>
#include <stdio.h>

extern const char *check_prefix;	/* "" or e.g. "asan+ubsan: " */
extern int check_failures;
extern int check_count;

#define CHECK(cond, ...) do {						\
	bool ok_ = (cond);						\
	check_count++;							\
	printf("%s%s: pmu: ", check_prefix, ok_ ? "PASS" : "FAIL");	\
	printf(__VA_ARGS__);						\
	if (!ok_) {							\
		printf(" (%s:%d: %s)", __FILE__, __LINE__, #cond);	\
		check_failures++;					\
	}								\
	printf("\n");							\
} while (0)

/* An sbiret: error code and, on success, the value. */
#define CHECK_RET(r, e, v, ...) do {					\
	struct sbiret r_ = (r);						\
	CHECK(r_.error == (e) && (r_.error != 0 || r_.value == (unsigned long)(v)), \
	      __VA_ARGS__);						\
	if (r_.error != (e) || (r_.error == 0 && r_.value != (unsigned long)(v))) \
		printf("    got error %ld value 0x%lx, expected %ld 0x%lx\n", \
		       r_.error, r_.value, (long)(e), (unsigned long)(v)); \
} while (0)

/* Only the error code matters. */
#define CHECK_ERR(r, e, ...) do {					\
	struct sbiret r_ = (r);						\
	CHECK(r_.error == (e), __VA_ARGS__);				\
	if (r_.error != (e))						\
		printf("    got error %ld, expected %ld\n", r_.error, (long)(e)); \
} while (0)

#endif
