// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for the logs tally-trace encode reads
 * (tools/tally-trace-input.c: QEMU exec/in_asm logs, Spike logs, PCSEQ,
 * PCONLY) and the ingress records it makes of them: arbitrary text must
 * never crash it nor make it read out of bounds (built with
 * -fsanitize=fuzzer,address,undefined), and an input it refuses has
 * recognised no instruction after the error.  The first byte picks the
 * trace controls (as fuzz_decoder.c's), the rest is the log.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/tally-trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct feeder fd;
	struct opts o = { .src = -1 };
	FILE *in, *quiet = stderr;

	if (size < 1)
		return 0;
	ntrace_config_default(&trace_cfg);
	trace_cfg.trTeInstMode = data[0] & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM;
	trace_cfg.trTeInstImplicitReturnMode = (data[0] >> 1) & 3;
	trace_cfg.trTeInstEnRepeatedHistory = (data[0] >> 3) & 1;
	trace_cfg.repeat_branch = (data[0] >> 4) & 1;
	trace_cfg.xlen = (data[0] >> 5) & 1 ? 32 : 64;
	trace_cfg.trTeInstEnSequentialJump = (data[0] >> 6) & 1;
	trace_cfg.trTeInstEnAllJumps = (data[0] >> 7) & 1;
	in = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
	if (!in)
		return 0;
	if (size == 1)
		fgetc(in);	/* an empty input */
	stderr = fopen("/dev/null", "w");	/* the errors it prints */
	feeder_init(&fd, &o);
	read_log(&fd, in, "fuzz", 1 << 20);
	feed_end(&fd);
	fclose(stderr);
	stderr = quiet;
	fclose(in);
	free(fd.out.b);
	image_reset();
	return 0;
}
