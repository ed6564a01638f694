/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The return value of every SBI call (SBI spec, "Binary Encoding": error in
 * a0, value in a1).  A header of its own so that lib/pmu, which returns it,
 * needs nothing of the dispatcher (sbi.h).
 */
#ifndef TALLY_SBIRET_H
#define TALLY_SBIRET_H

#include <tally/sbi_spec.h>

/*
 * Aligned to its own size (two registers) so that GCC 12 treats it as one
 * double-register scalar: without it, every function returning it keeps
 * a dead 16-byte stack frame (addi sp twice) even when it is a leaf or a
 * tail call, which cost each SBI call 2 instructions per layer.  Layout,
 * size and the a0/a1 return are unchanged.
 */
struct __attribute__((aligned(2 * sizeof(long)))) sbiret {
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
