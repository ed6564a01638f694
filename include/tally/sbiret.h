/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The return value of every SBI call (SBI spec, "Binary Encoding": error in
 * a0, value in a1).  A header of its own so that lib/pmu, which returns it,
 * needs nothing of the dispatcher (sbi.h).
 */
#ifndef TALLY_SBIRET_H
#define TALLY_SBIRET_H

#include <tally/sbi_spec.h>

struct sbiret {
	long error;
	unsigned long value;
};

static inline struct sbiret sbi_ok(unsigned long value)
{
	return (struct sbiret){ SBI_SUCCESS, value };
}

static inline struct sbiret sbi_err(long error)
{
	return (struct sbiret){ error, 0 };
}

#endif
