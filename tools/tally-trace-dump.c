// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace dump: one line per message: its offset, every byte of it
 * (up to 64: the parser's limit; the spec's longest is 38), every field named
 * as the spec names it; a stream error says what is wrong (field and value).
 */
#include <stdio.h>
#include <stdlib.h>
#include "tally-trace.h"

int cmd_dump(struct opts *o)
{
	size_t len;
	uint8_t *buf;
	struct ntrace_parser p;
	struct ntrace_msg m;
	char text[512];
	int rc;

	if (!o->input)
		usage();
	buf = read_file(o->input, &len);
	ntrace_parser_init(&p, &trace_cfg, buf, len);
	while ((rc = ntrace_parse_next(&p, &m)) != NTRACE_END) {
		printf("%08zx:", p.msg_start);
		for (size_t i = 0; i < p.msg_len; i++)
			printf(" %02x", buf[p.msg_start + i]);
		printf("%*s ", p.msg_len < 12 ? (int)(12 - p.msg_len) * 3 : 0, "");
		if (rc < 0) {
			fault_what(&p.fault, false, text, sizeof(text));
			printf("ERROR: %s", text);
			if (p.fault.offset != p.msg_start)
				printf(" (byte 0x%llx)", (unsigned long long)p.fault.offset);
			printf("\n");
			continue;
		}
		ntrace_msg_format(&trace_cfg, &m, text, sizeof(text));
		printf("%s\n", text);
	}
	free(buf);
	return 0;
}
