/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_SBI_TIME_H
#define TALLY_SBI_TIME_H

#include <stdint.h>

/* when: 64-bit time, on RV32 from the (a0, a1) register pair */
void sbi_timer_set(uint64_t when);
void sbi_timer_process(void);

#endif
