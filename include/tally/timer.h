/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef TALLY_TIMER_H
#define TALLY_TIMER_H

void sbi_timer_set(unsigned long when);
void sbi_timer_process(void);
void sbi_timer_hart_init(void);

#endif
