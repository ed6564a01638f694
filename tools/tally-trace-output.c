// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: executed addresses out (decode's output, record and encode
 * --addresses), fast: formatted by hand into a large buffer, no printf per
 * address.  Three formats (--format):
 *
 *   hex     "80000000" a line, lower case (the default, what cmp compares)
 *   pconly  "0x80000000" a line, upper case (the reference's PCONLY/pcout)
 *   pcseq   "0x80000000,L4": the reference encoder's input, the type and
 *           size of each instruction (L plain, B/BN taken/not-taken branch,
 *           J/C direct jump/call, JI/CI indirect jump/call, R return), typed
 *           as the reference's objdump converter types them (ECALL CI, MRET
 *           and SRET R).  PCSEQ has no trap: an instruction after which a
 *           trap was taken, or that raised one, is JI (a flow change only a
 *           message can tell).  A branch's outcome is the next address, so
 *           each line is written when the next instruction is known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

#define OUT_BUF (1u << 20)

/* Two hex digits per byte value, lower and upper case. */
static char hex_pairs[2][256][2];

static void hex_pairs_init(void)
{
	static const char *const digits[2] = { "0123456789abcdef", "0123456789ABCDEF" };

	for (int u = 0; u < 2; u++)
		for (int b = 0; b < 256; b++) {
			hex_pairs[u][b][0] = digits[u][b >> 4];
			hex_pairs[u][b][1] = digits[u][b & 15];
		}
}

/* v in hex, no leading zeros, a byte at a time from the end. */
static char *put_hex(char *p, uint64_t v, int upper)
{
	int digits = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	char *end = p + digits;

	p = end;
	for (; digits >= 2; digits -= 2, v >>= 8) {
		p -= 2;
		memcpy(p, hex_pairs[upper][v & 0xff], 2);
	}
	if (digits)
		*--p = hex_pairs[upper][v & 15][1];
	return end;
}

int addr_format_parse(const char *name, enum addr_format *f)
{
	if (!strcmp(name, "hex"))
		*f = ADDR_HEX;
	else if (!strcmp(name, "pconly"))
		*f = ADDR_PCONLY;
	else if (!strcmp(name, "pcseq"))
		*f = ADDR_PCSEQ;
	else
		return -1;
	return 0;
}

void addr_out_init(struct addr_out *a, FILE *f, enum addr_format format, unsigned xlen)
{
	*a = (struct addr_out){ .f = f, .format = format, .xlen = xlen };
	if (!hex_pairs[0][0][0])
		hex_pairs_init();
	a->buf = malloc(OUT_BUF);
	if (!a->buf) {
		fprintf(stderr, "tally-trace: out of memory\n");
		exit(2);
	}
}

static void flush(struct addr_out *a)
{
	if (a->n && fwrite(a->buf, 1, a->n, a->f) != a->n)
		a->error = true;
	a->n = 0;
}

/* The PCSEQ type of the instruction at pc, knowing the next address. */
static const char *pcseq_type(const struct addr_out *a, uint64_t pc, const struct ntrace_insn *in,
			      bool trapped, bool has_next, uint64_t next)
{
	uint64_t seq = pc + (in->len ? in->len : 4);

	if (a->xlen == 32)
		seq = (uint32_t)seq;
	if (in->kind == NTRACE_K_TRAP)
		return "CI";
	if (trapped)
		return "JI";
	switch (in->kind) {
	case NTRACE_K_BRANCH:
		if (has_next && next == in->target)
			return "B";
		return !has_next || next == seq ? "BN" : "JI";
	case NTRACE_K_JUMP:
		if (has_next && next != in->target)
			return "JI";
		return ntrace_itype_is_call(in->itype) ? "C" : "J";
	case NTRACE_K_INDIRECT:
		if (in->itype == NTRACE_ITYPE_RETURN)
			return "R";
		return in->rd ? "CI" : "JI";
	case NTRACE_K_TRAP_RETURN:
		return "R";
	default:
		return has_next && next != seq ? "JI" : "L";
	}
}

static void put_pcseq(struct addr_out *a, bool has_next, uint64_t next)
{
	const struct ntrace_insn *in = &a->prev_in;
	const char *t = pcseq_type(a, a->prev_pc, in, a->prev_trapped, has_next, next);
	char *p = a->buf + a->n;

	*p++ = '0';
	*p++ = 'x';
	p = put_hex(p, a->prev_pc, 1);
	*p++ = ',';
	while (*t)
		*p++ = *t++;
	*p++ = in->len == 2 ? '2' : '4';
	*p++ = '\n';
	a->n = (size_t)(p - a->buf);
}

/* One executed instruction (in: its code, NULL if unknown; only pcseq uses it). */
void addr_out_put(struct addr_out *a, uint64_t pc, const struct ntrace_insn *in, bool trapped)
{
	static const struct ntrace_insn unknown = { .len = 4, .kind = NTRACE_K_PLAIN };
	char *p;

	if (a->n > OUT_BUF - 64)
		flush(a);
	p = a->buf + a->n;
	switch (a->format) {
	case ADDR_HEX:
		p = put_hex(p, pc, 0);
		*p++ = '\n';
		a->n = (size_t)(p - a->buf);
		break;
	case ADDR_PCONLY:
		*p++ = '0';
		*p++ = 'x';
		p = put_hex(p, pc, 1);
		*p++ = '\n';
		a->n = (size_t)(p - a->buf);
		break;
	case ADDR_PCSEQ:
		if (a->have_prev)
			put_pcseq(a, true, pc);
		a->prev_pc = pc;
		a->prev_in = in && in->len ? *in : unknown;	/* a copy: code may change */
		a->prev_trapped = trapped;
		a->have_prev = true;
		break;
	}
}

/* Writes what is left; 0, or -1 if the file could not be written. */
int addr_out_finish(struct addr_out *a)
{
	if (a->have_prev) {
		if (a->n > OUT_BUF - 64)
			flush(a);
		put_pcseq(a, false, 0);
		a->have_prev = false;
	}
	flush(a);
	free(a->buf);
	a->buf = NULL;
	if (fflush(a->f))
		a->error = true;
	return a->error ? -1 : 0;
}
