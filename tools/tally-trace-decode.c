// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace decode: the executed addresses (or one function name per run
 * of instructions) from a stream and the code; decode_file() is the decoding
 * that stats and profile share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

static void exec_cb(void *ctx, uint64_t pc, unsigned flags)
{
	struct decode_ctx *c = ctx;
	const char *name = NULL;

	(void)flags;	/* a trapped ECALL is listed like any executed instruction */
	/*
	 * Code captured later in the run applies from its instruction on.
	 * Its index may be up to two late (the recorder's look-ahead queue
	 * holds instructions it may still drop as QEMU restarts): apply two
	 * early, harmless since no other copy runs at that address within two
	 * instructions.
	 */
	if (++c->count + 2 >= c->next_change) {
		image_apply_words(c->count + 2);
		c->next_change = image_next_change();
	}

	if (c->symbols || c->profile)
		name = image_symbol(pc, NULL);
	if (c->profile) {
		profile_exec(c, pc, name);
		return;
	}
	if (!c->out)
		return;
	if (c->symbols) {
		/* one line per run of instructions in the same function */
		if (name != c->last_name)
			fprintf(c->out, "%s\n", name ? name : "?");
		c->last_name = name;
		return;
	}
	fprintf(c->out, "%llx\n", (unsigned long long)pc);
}

static void event_cb(void *ctx, const struct ntrace_msg *m, int err)
{
	struct decode_ctx *c = ctx;

	if (!err && m && m->tcode == NTRACE_TCODE_OWNERSHIP) {
		c->prev_priv = c->priv;
		c->priv = (int)((m->process >> 2) & 3);
		return;
	}
	if (err)
		fprintf(stderr, "tally-trace: decode error: %s%s%s\n", ntrace_strerror(err),
			m ? " at " : "", m ? ntrace_tcode_name(m->tcode) : "");
}

int decode_file(const struct opts *o, struct decode_ctx *c, struct ntrace_decoder *d,
		size_t *bytes, double *secs)
{
	uint8_t *buf;
	size_t len;
	double t0;

	if (!o->input)
		usage();
	buf = read_file(o->input, &len);
	ntrace_dec_init(d, &trace_cfg, image_lookup, exec_cb, event_cb, c);
	d->range = image_range;
	c->words_pending = image_words_pending();
	c->next_change = image_next_change();
	d->src = o->src;	/* one hart's messages out of a stream of several (SRC) */
	t0 = now_s();
	ntrace_dec_buffer(d, buf, len);
	*secs = now_s() - t0;
	*bytes = len;
	free(buf);
	return d->errors ? 1 : 0;
}

int cmd_decode(struct opts *o)
{
	struct decode_ctx c = { .out = stdout, .symbols = o->symbols };
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	size_t bytes;
	double secs;
	int rc;

	if (o->out && strcmp(o->out, "-")) {
		c.out = fopen(o->out, "w");
		if (!c.out)
			return 2;
	}
	if (!strcmp(o->out ? o->out : "", "/dev/null")) {
		fclose(c.out);
		c.out = NULL;
	}
	if (c.out)
		setvbuf(c.out, NULL, _IOFBF, 1 << 20);
	rc = decode_file(o, &c, d, &bytes, &secs);
	if (c.out && c.out != stdout)
		fclose(c.out);
	if (!o->quiet)
		fprintf(stderr, "tally-trace: decoded %llu instructions from %zu bytes in %.3f s "
			"(%.1f M instructions/s), %llu errors\n",
			(unsigned long long)d->instructions, bytes, secs,
			secs > 0 ? (double)d->instructions / secs / 1e6 : 0.0,
			(unsigned long long)d->errors);
	free(d);
	return rc;
}
