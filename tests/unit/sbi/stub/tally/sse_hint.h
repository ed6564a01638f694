/* Host stand-in for include/tally/sse_hint.h: no hart, nothing pending. */
#ifndef TALLY_SSE_HINT_H
#define TALLY_SSE_HINT_H

#include <stdbool.h>

struct trap_frame;
static inline bool sse_pending_here(void) { return false; }
static inline void sbi_sse_ecall_exit(struct trap_frame *tf) { (void)tf; }

#endif
