// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace stats: messages by TCODE, bytes, I-CNT sent; with the code,
 * the instructions, bits per instruction and the decode speed.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tally-trace.h"

int cmd_stats(struct opts *o)
{
	struct decode_ctx c = { 0 };
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_parser p;
	struct ntrace_msg m;
	uint64_t count[64] = { 0 }, bytes_by[64] = { 0 }, halfwords = 0, errors = 0;
	size_t len;
	uint8_t *buf;
	double secs;
	int rc;

	if (!o->input)
		usage();
	buf = read_file(o->input, &len);
	ntrace_parser_init(&p, &trace_cfg, buf, len);
	while ((rc = ntrace_parse_next(&p, &m)) != NTRACE_END) {
		if (rc < 0) {
			errors++;
			continue;
		}
		count[m.tcode & 63]++;
		bytes_by[m.tcode & 63] += p.msg_len;
		halfwords += m.tcode == NTRACE_TCODE_RESOURCE_FULL ?
			     (m.rcode == NTRACE_RCODE_ICNT ? m.rdata : 0) :
			     m.tcode == NTRACE_TCODE_REPEAT_BRANCH ? 0 : m.icnt;
	}
	free(buf);
	printf("%-24s %10s %12s\n", "message", "count", "bytes");
	for (unsigned t = 0; t < 64; t++)
		if (count[t])
			printf("%-24s %10llu %12llu\n", ntrace_tcode_name(t),
			       (unsigned long long)count[t], (unsigned long long)bytes_by[t]);
	printf("%-24s %10llu %12zu\n", "total", (unsigned long long)p.messages, len);
	printf("idle bytes %llu, stream errors %llu, I-CNT halfwords sent %llu\n",
	       (unsigned long long)p.idle_bytes, (unsigned long long)errors,
	       (unsigned long long)halfwords);
	if (image_lookup(NULL, 0) || o->nelf || o->code) {
		size_t b;

		rc = decode_file(o, &c, d, &b, &secs);
		printf("instructions %llu, %.3f bits/instruction, decode %.1f M instructions "
		       "per CPU second, %llu decode errors\n", (unsigned long long)d->instructions,
		       d->instructions ? 8.0 * (double)len / (double)d->instructions : 0.0,
		       secs > 0 ? (double)d->instructions / secs / 1e6 : 0.0,
		       (unsigned long long)d->errors);
	}
	free(d);
	return 0;
}
