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
	if (c->out) {
		/* a trapped ECALL is listed like any executed instruction */
		addr_out_put(c->out, pc, c->out->format == ADDR_PCSEQ ? image_lookup(NULL, pc) : NULL,
			     flags & NTRACE_EXEC_TRAPPED);
		return;
	}
	if (c->exec) {
		c->exec(c, pc, image_symbol(pc, NULL));
		return;
	}
	if (c->symbols_out) {
		/* one line per run of instructions in the same function */
		name = image_symbol(pc, NULL);
		if (name != c->last_name)
			fprintf(c->symbols_out, "%s\n", name ? name : "?");
		c->last_name = name;
	}
}

/* Decode errors printed in full; the rest are counted. */
#define ERRORS_SHOWN 10

/* Hex for addresses and bit maps, decimal for counts. */
static bool field_in_hex(const char *field)
{
	static const char *const hex[] = { "F-ADDR", "U-ADDR", "HIST", "PROCESS", "ECODE" };

	for (size_t i = 0; i < sizeof(hex) / sizeof(hex[0]); i++)
		if (!strcmp(field, hex[i]))
			return true;
	return false;
}

/* Chapter 6's width of a count field (0: no limit). */
static unsigned field_limit(const char *field)
{
	if (!strcmp(field, "I-CNT") || !strcmp(field, "RDATA"))
		return NTRACE_MAX_ICNT;
	if (!strcmp(field, "HREPEAT"))
		return NTRACE_MAX_HREPEAT;
	if (!strcmp(field, "B-CNT"))
		return NTRACE_MAX_BCNT;
	return 0;
}

/* "byte 0x1f (message 12, IndirectBranchHist)": where a fault is. */
int fault_where(const struct ntrace_fault *f, char *out, size_t cap)
{
	if (!f->msg)
		return snprintf(out, cap, "%s", f->tcode >= 0 ? ntrace_tcode_name((unsigned)f->tcode) : "");
	return snprintf(out, cap, "byte 0x%llx (message %llu%s%s)", (unsigned long long)f->offset,
			(unsigned long long)f->msg, f->tcode >= 0 ? ", " : "",
			f->tcode >= 0 ? ntrace_tcode_name((unsigned)f->tcode) : "");
}

/* What a fault is: the error, the field and its value, the PC. */
int fault_what(const struct ntrace_fault *f, bool lenient, char *out, size_t cap)
{
	const char *err = ntrace_strerror(f->err);
	unsigned long long v = f->value;
	int n;

	if (f->err == NTRACE_E_TOO_LONG && f->field)
		n = snprintf(out, cap, "%s: %s longer than 64 bits", err, f->field);
	else if (f->err == NTRACE_E_TOO_LONG)
		n = snprintf(out, cap, "%s: %llu bytes (%u at most)", err, v, NTRACE_MAX_MSG_BYTES);
	else if (f->err == NTRACE_E_TRUNCATED)
		n = snprintf(out, cap, "%s: the last %llu bytes", err, v);
	else if (f->err == NTRACE_E_LAYOUT && !f->field)
		n = snprintf(out, cap, "%s: %llu bytes after the last field", err, v);
	else if (f->err == NTRACE_E_WIDE && f->field)
		n = snprintf(out, cap, lenient ? "%s: %s=%llu (more than %u bits)" :
			     "%s: %s=%llu (chapter 6: %u bits; --strict)", err, f->field, v,
			     lenient ? NTRACE_LENIENT_BITS : field_limit(f->field));
	else if (f->field)
		n = snprintf(out, cap, field_in_hex(f->field) ? "%s: %s=0x%llx" : "%s: %s=%llu",
			     err, f->field, v);
	else
		n = snprintf(out, cap, "%s", err);
	if (f->has_pc && n >= 0 && (size_t)n < cap)
		n += snprintf(out + n, cap - (size_t)n, ", at PC 0x%llx", (unsigned long long)f->pc);
	return n;
}

static void event_cb(void *ctx, const struct ntrace_msg *m, int err)
{
	struct decode_ctx *c = ctx;
	char where[128], what[256];

	if (!err && m && m->tcode == NTRACE_TCODE_OWNERSHIP) {
		c->prev_priv = c->priv;
		c->priv = (int)ntrace_process_prv(m->process);
		return;
	}
	if (!err || ++c->errors_shown > ERRORS_SHOWN)
		return;
	fault_where(&c->dec->fault, where, sizeof(where));
	fault_what(&c->dec->fault, c->dec->lenient, what, sizeof(what));
	fprintf(stderr, "tally-trace: %s: %s: %s\n", c->file, where, what);
}

/* With the mode given, the first MiB is enough to contradict it. */
#define MODE_CHECK_BYTES	(1u << 20)

/*
 * No side file, no --mode: trTeInstMode from the stream's messages (the
 * other controls stay at their defaults).  With one: a warning if the
 * stream's first MiB says otherwise.
 */
static void choose_mode(const struct opts *o, const uint8_t *buf, size_t len)
{
	struct ntrace_mode_evidence ev;
	int mode = ntrace_stream_mode(&trace_cfg, buf, o->mode_set && len > MODE_CHECK_BYTES ?
				      MODE_CHECK_BYTES : len, &ev);
	const char *file = o->input;

	if (mode < 0) {
		fprintf(stderr, "tally-trace: %s: both DirectBranch (BTM, first at byte 0x%llx) and "
			"%s with HIST (HTM, first at byte 0x%llx) messages: not one encoder's "
			"stream, or not an N-Trace stream\n", file,
			(unsigned long long)ev.first_direct, ntrace_tcode_name(ev.hist_tcode),
			(unsigned long long)ev.first_hist);
		return;
	}
	if (o->mode_set) {
		if (mode && mode != trace_cfg.trTeInstMode)
			fprintf(stderr, "tally-trace: %s: warning: trTeInstMode=%u (%s) but the stream "
				"has %s messages (first at byte 0x%llx), which only %s sends\n", file,
				trace_cfg.trTeInstMode,
				trace_cfg.trTeInstMode == NTRACE_INST_MODE_HTM ? "HTM" : "BTM",
				mode == NTRACE_INST_MODE_HTM ? ntrace_tcode_name(ev.hist_tcode) :
							       "DirectBranch",
				(unsigned long long)(mode == NTRACE_INST_MODE_HTM ? ev.first_hist :
									ev.first_direct),
				mode == NTRACE_INST_MODE_HTM ? "HTM" : "BTM");
		return;
	}
	if (mode)
		trace_cfg.trTeInstMode = (uint8_t)mode;
	if (!o->quiet)
		fprintf(stderr, "tally-trace: %s: no side file (--cfg): trTeInstMode=%u (%s) %s%s%s, "
			"the other controls at their defaults\n", file, trace_cfg.trTeInstMode,
			trace_cfg.trTeInstMode == NTRACE_INST_MODE_HTM ? "HTM" : "BTM",
			mode ? "from the stream's " : "(no message in the stream tells)",
			mode == NTRACE_INST_MODE_HTM ? ntrace_tcode_name(ev.hist_tcode) :
			mode ? "DirectBranch" : "", mode ? " messages" : "");
}

/* After errors without a side file: what the defaults assumed. */
static void hint_controls(const struct opts *o, const struct ntrace_decoder *d)
{
	const struct ntrace_insn *in = d->fault.has_pc ? image_lookup(NULL, d->fault.pc) : NULL;

	if (o->mode_set || !d->errors)
		return;
	fprintf(stderr, "tally-trace: hint: decoded with no side file: the stream's encoder may "
		"have used controls other than the defaults (implicit return, address MSB extension, "
		"a SRC field, sequential jumps, all jumps...): give its T.ntr.cfg with --cfg, or "
		"the options\n");
	if (in && in->kind == NTRACE_K_INDIRECT && in->itype == NTRACE_ITYPE_RETURN &&
	    (d->fault.err == NTRACE_E_UNINFERABLE || d->fault.err == NTRACE_E_STACK))
		fprintf(stderr, "tally-trace: hint: the last error is at a return (PC 0x%llx) "
			"the stream does not report: its encoder used implicit return "
			"(--implicit-return 3)\n", (unsigned long long)d->fault.pc);
}

/* Counts wider than the spec's limits, accepted: one warning. */
static void warn_wide(const struct opts *o, const struct ntrace_decoder *d)
{
	char where[128];
	const struct ntrace_fault *f = &d->wide_first;

	if (!d->wide_fields)
		return;
	fault_where(f, where, sizeof(where));
	fprintf(stderr, "tally-trace: %s: warning: %llu count%s wider than chapter 6 allows, "
		"accepted (the first: %s=%llu at %s, where chapter 6 allows %u bits); --strict "
		"refuses them\n", o->input, (unsigned long long)d->wide_fields,
		d->wide_fields > 1 ? "s" : "", f->field, (unsigned long long)f->value, where,
		field_limit(f->field));
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
	choose_mode(o, buf, len);
	ntrace_dec_init(d, &trace_cfg, image_lookup, exec_cb, event_cb, c);
	d->range = image_range;
	d->lenient = !o->strict;
	d->src = o->src;	/* one hart's messages out of a stream of several (SRC) */
	c->dec = d;
	c->file = o->input;
	c->words_pending = image_words_pending();
	c->next_change = image_next_change();
	t0 = cpu_s();
	ntrace_dec_buffer(d, buf, len);
	*secs = cpu_s() - t0;
	*bytes = len;
	free(buf);
	if (c->errors_shown > ERRORS_SHOWN)
		fprintf(stderr, "tally-trace: %s: %llu more decode errors\n", o->input,
			(unsigned long long)(c->errors_shown - ERRORS_SHOWN));
	warn_wide(o, d);
	hint_controls(o, d);
	return d->errors ? 1 : 0;
}

int cmd_decode(struct opts *o)
{
	struct decode_ctx c = { 0 };
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct addr_out out;
	bool to_null = o->out && !strcmp(o->out, "/dev/null");
	FILE *f = NULL;
	size_t bytes;
	double secs;
	int rc;

	if (!d)
		return 2;
	if (!to_null)
		f = o->out && strcmp(o->out, "-") ? open_out(o->out) : stdout;
	if (f && o->symbols) {
		c.symbols_out = f;
	} else if (f) {
		addr_out_init(&out, f, o->format, trace_cfg.xlen);
		c.out = &out;
	}
	rc = decode_file(o, &c, d, &bytes, &secs);
	if (c.out && addr_out_finish(c.out))
		rc = 2;
	if (f && ((f != stdout && fclose(f)) || (f == stdout && fflush(f))))
		rc = 2;
	if (rc == 2)
		fprintf(stderr, "tally-trace: cannot write %s\n", o->out ? o->out : "the output");
	if (!o->quiet)
		fprintf(stderr, "tally-trace: decoded %llu instructions from %zu bytes in %.3f s "
			"of CPU time (%.1f M instructions/s, output included), %llu errors\n",
			(unsigned long long)d->instructions, bytes, secs,
			secs > 0 ? (double)d->instructions / secs / 1e6 : 0.0,
			(unsigned long long)d->errors);
	free(d);
	return rc;
}
