/* SPDX-License-Identifier: BSD-2-Clause */
/* The one test of the ecall exit: may an SSE event be deliverable here? */
#ifndef TALLY_SSE_HINT_H
#define TALLY_SSE_HINT_H

#include <tally/hart.h>

static inline bool sse_pending_here(void)
{
	return this_hart()->sse.pending != 0;
}

#endif
