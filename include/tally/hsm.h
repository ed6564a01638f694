/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_HSM_H
#define TALLY_HSM_H

#include <stdbool.h>

void hsm_init(unsigned long boot_hartid);
/* STARTED or SUSPENDED: the hart takes IPIs and remote fences. */
bool hsm_hart_interruptible(unsigned long hartid);
/* Park a hart in STOPPED until hart_start; enters S-mode then. */
void __attribute__((noreturn)) hsm_wait_for_start(void);

#endif
