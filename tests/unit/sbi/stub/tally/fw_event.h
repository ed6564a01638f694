/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Host stand-in for include/tally/fw_event.h: the dispatcher under test
 * counts its firmware event here instead of in a hart's PMU state (there
 * is no mscratch on the host).
 */
#ifndef TALLY_FW_EVENT_H
#define TALLY_FW_EVENT_H

#define FW_EV_TALLY_ECALL	256

#include <stdbool.h>

extern unsigned long test_fw_events;
extern bool test_fw_counting;	/* a counter of the event runs */

static inline void fw_event(unsigned int code)
{
	(void)code;
	test_fw_events++;
}

static inline bool fw_event_pending(unsigned int code)
{
	(void)code;
	return test_fw_counting;
}

#endif
