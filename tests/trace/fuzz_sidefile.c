// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for tally-trace's side-file parser (tools/tally-trace-cfg.c):
 * arbitrary text must never crash it (built with
 * -fsanitize=fuzzer,address,undefined), and what it accepts must be a usable
 * configuration (ntrace_config_check passes) that it reads back unchanged
 * from the text it writes for it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/tally-trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ntrace_config cfg, again;
	char err[256], text[2048];
	int n;

	ntrace_config_default(&cfg);
	if (cfg_parse_text((const char *)data, size, &cfg, err, sizeof(err)) < 0)
		return 0;
	if (ntrace_config_check(&cfg))
		abort();	/* accepted, but not usable */
	n = cfg_format_text(&cfg, text, sizeof(text));
	if (n <= 0 || (size_t)n >= sizeof(text))
		abort();
	ntrace_config_default(&again);
	if (cfg_parse_text(text, (size_t)n, &again, err, sizeof(err)) != 0)
		abort();	/* what it writes, it reads */
	for (unsigned i = 0; i < ntrace_ncontrols; i++)
		if (ntrace_control_get(&cfg, &ntrace_controls[i]) !=
		    ntrace_control_get(&again, &ntrace_controls[i]))
			abort();
	return 0;
}
