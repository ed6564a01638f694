// SPDX-License-Identifier: BSD-2-Clause
/*
 * RV32 build of the payload: the test files not ported to RV32 are left
 * out (Makefile RV64_ONLY) and their entry points say so with a SKIP, which
 * tests/run-all.sh never counts as a pass.  The H extension is not offered
 * by Tally on RV32 (mstatush.MPV is not handled); SSE and the hostile
 * runs use 64-bit register layouts throughout.
 */
#include "test.h"

#define NOT_PORTED(fn, area)						\
	void fn(void)							\
	{								\
		skip(area, #fn, "not ported to RV32");			\
	}

NOT_PORTED(test_hyp, "hyp")
NOT_PORTED(test_sse_basic, "sse")
NOT_PORTED(test_sse, "sse")
NOT_PORTED(test_hostile, "hostile")
