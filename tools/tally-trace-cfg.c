// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: the side file T.ntr.cfg, the encoder's trace controls by the
 * spec's names (chapter 4), one name=value a line, so that a decoder (this
 * one or another N-Trace decoder) uses the settings the stream was made with.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

/* Trace controls, by their spec names, as in the side file. */
static struct {
	const char *name;
	size_t off;
	unsigned size;
} controls[] = {
#define C(f) { #f, offsetof(struct ntrace_config, f), sizeof(((struct ntrace_config *)0)->f) }
	C(trTeInstMode), C(trTeContext), C(trTeInhibitSrc), C(trTeSrcBits), C(trTeSrcID),
	C(trTeInstSyncMode), C(trTeInstSyncMax), C(trTeInstImplicitReturnMode),
	C(trTeInstEnRepeatedHistory), C(trTeInstExtendAddrMSB), C(trTsEnable),
	C(trTeInstEnSequentialJump), C(trTeInstEnAllJumps), C(icnt_full_sync),
	C(repeat_branch), C(xlen), C(ret_stack_depth), C(icnt_limit), C(hist_bits),
	C(hrepeat_max), C(bcnt_max),
#undef C
};

static void set_control(const char *name, unsigned long v)
{
	for (size_t i = 0; i < sizeof(controls) / sizeof(controls[0]); i++) {
		char *p = (char *)&trace_cfg + controls[i].off;

		if (strcmp(controls[i].name, name))
			continue;
		if (controls[i].size == 1)
			*(uint8_t *)p = (uint8_t)v;
		else if (controls[i].size == 2)
			*(uint16_t *)p = (uint16_t)v;
		else
			*(uint32_t *)p = (uint32_t)v;
		return;
	}
	fprintf(stderr, "tally-trace: unknown control %s (ignored)\n", name);
}

static unsigned long get_control(size_t i)
{
	const char *p = (const char *)&trace_cfg + controls[i].off;

	if (controls[i].size == 1)
		return *(const uint8_t *)p;
	if (controls[i].size == 2)
		return *(const uint16_t *)p;
	return *(const uint32_t *)p;
}

int save_cfg(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "# N-Trace encoder settings (RISC-V N-Trace 1.0 trace controls)\n");
	fprintf(f, "trTeFormat=1\ntrTeProtocolMajor=1\ntrTeProtocolMinor=0\n");
	for (size_t i = 0; i < sizeof(controls) / sizeof(controls[0]); i++)
		fprintf(f, "%s=%lu\n", controls[i].name, get_control(i));
	return fclose(f);
}

void load_cfg(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f) {
		fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		if (line[0] == '#' || !eq)
			continue;
		*eq = 0;
		if (!strncmp(line, "trTeFormat", 10) || !strncmp(line, "trTeProtocol", 12))
			continue;
		set_control(line, strtoul(eq + 1, NULL, 0));
	}
	fclose(f);
}
