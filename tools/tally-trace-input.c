// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: the executed-instruction lists it reads (encode LOG, and
 * record's QEMU log):
 *
 *   QEMU    -d exec,in_asm: "Trace 0: 0x.. [cs/pc/flags/cflags]" (the TB flags
 *           give the privilege), "0x...:  00000297  auipc ..." (the word),
 *           "Stopped execution of TB chain before [pc]" (pc did not run)
 *   Spike   --log-commits: "core   0: 3 0x... (0x...) ..."
 *   PCSEQ   the reference encoder's input: "0x80000000,L4" (address, type
 *           L B BN J JI C CI R, size 2 or 4); "." lines are comments, ".e" ends
 *   PCONLY  one address a line ("0x80000000" or "80000000")
 *
 * The first line that is one of these decides the format.  QEMU and Spike
 * logs have other lines too (skipped); in a PCSEQ or PCONLY file every line
 * must be one, and an input with no such line is an error, not an empty
 * trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

enum log_format { LOG_NONE, LOG_QEMU, LOG_SPIKE, LOG_PCSEQ, LOG_PCONLY };

static const char *const format_names[] = {
	[LOG_NONE] = "none", [LOG_QEMU] = "QEMU log", [LOG_SPIKE] = "Spike log",
	[LOG_PCSEQ] = "PCSEQ", [LOG_PCONLY] = "PCONLY",
};

/* What one line was. */
enum line_kind { LINE_OTHER, LINE_USED, LINE_END };

/* ---- QEMU: each executed instruction's own word ------------------------------ */

/*
 * QEMU names each executed block by its host address; with -singlestep a
 * block is one instruction, whose word in_asm printed when it was
 * translated.  Remembering word by block, each executed instruction's own
 * word is known even when other code has since been translated at the same
 * address (another process, patched kernel text).
 */
#define TBMAP_SIZE (1u << 20)
struct tb_word {
	uint64_t host, pc;
	uint32_t word;
	uint8_t len;
};
static struct tb_word *tbmap;
static struct {
	uint64_t pc;
	uint32_t word;
	uint8_t len;
	bool valid;
} last_asm;

static struct tb_word *tb_slot(uint64_t host)
{
	uint64_t h = (host >> 4) * 0x9e3779b97f4a7c15ull;

	if (!tbmap) {
		tbmap = calloc(TBMAP_SIZE, sizeof(*tbmap));
		if (!tbmap)
			exit(2);
	}
	return &tbmap[(h >> 40) & (TBMAP_SIZE - 1)];	/* a collision just forgets */
}

static void tb_executed(struct feeder *fd, uint64_t host, uint64_t pc)
{
	struct tb_word *t = tb_slot(host);

	if (last_asm.valid && last_asm.pc == pc) {
		*t = (struct tb_word){ host, pc, last_asm.word, last_asm.len };
		last_asm.valid = false;
		return;
	}
	if (t->host == host && t->pc == pc && t->len) {
		image_word_index = fd->executed;
		image_add_word(pc, t->word, t->len);	/* logs only a change */
	}
}

static bool is_hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "Trace 0: 0x7f.. [00000000/0000000080000000/00000003/ff020000]" */
static enum line_kind qemu_exec(struct feeder *fd, const char *line)
{
	unsigned long long pc, host;
	unsigned long flags;
	const char *p;
	char *e;

	p = strchr(line, ':');
	host = p ? strtoull(p + 1, NULL, 16) : 0;
	p = strchr(line, '[');
	if (!p)
		return LINE_OTHER;
	strtoull(p + 1, &e, 16);
	if (*e != '/')
		return LINE_OTHER;
	pc = strtoull(e + 1, &e, 16);
	if (*e != '/')
		return LINE_OTHER;
	flags = strtoul(e + 1, &e, 16);
	if (host)
		tb_executed(fd, host, pc);
	/* riscv TB flags: bits 2..0 are the MMU index = privilege
	 * (except under MSTATUS.MPRV, which only changes data accesses) */
	feed(fd, pc, (uint8_t)(flags & 3));
	return LINE_USED;
}

/* in_asm: "0x0000000080000000:  00000297          auipc           t0,0" */
static enum line_kind qemu_in_asm(struct feeder *fd, const char *line, const char *colon)
{
	unsigned long long a = strtoull(line, NULL, 16);
	const char *w = colon + 1;
	size_t digits = 0;
	uint32_t word;

	while (*w == ' ')
		w++;
	while (is_hex((unsigned char)w[digits]))
		digits++;
	if (digits != 4 && digits != 8)
		return LINE_OTHER;
	word = (uint32_t)strtoul(w, NULL, 16);
	image_word_index = fd->executed;
	image_add_word(a, word, (unsigned)digits / 2);
	last_asm.pc = a;
	last_asm.word = word;
	last_asm.len = (uint8_t)(digits / 2);
	last_asm.valid = true;
	return LINE_USED;
}

/* Spike: "core   0: 3 0x0000000080000000 (0x00000297) auipc ..." */
static enum line_kind spike_line(struct feeder *fd, const char *line)
{
	unsigned long long pc;
	const char *p = strchr(line, ':');
	int priv = 3;
	char *e;

	if (!p)
		return LINE_OTHER;
	p++;
	while (*p == ' ')
		p++;
	if (p[0] >= '0' && p[0] <= '3' && p[1] == ' ')
		priv = p[0] - '0';
	p = strstr(p, "0x");
	if (!p)
		return LINE_OTHER;	/* ">>>>  symbol" and the like */
	pc = strtoull(p, &e, 16);
	p = strstr(e, "(0x");
	if (p) {
		size_t digits = 0;

		p += 3;
		while (is_hex((unsigned char)p[digits]))
			digits++;
		if (digits == 4 || digits == 8) {	/* a 16- or 32-bit word */
			image_word_index = fd->executed;
			image_add_word(pc, (uint32_t)strtoul(p, NULL, 16), (unsigned)digits / 2);
		}
	}
	feed(fd, pc, (uint8_t)priv);
	return LINE_USED;
}

/* ---- PCSEQ ------------------------------------------------------------------ */

/*
 * A PCSEQ line gives the instruction's size and type, so a PCSEQ file is a
 * trace on its own: code the images do not cover is classified from it.
 * A taken branch or direct jump goes to the next line's address, known one
 * line later: the instruction stays open until then.  The feeder holds at
 * most three instructions, so four slots are never overwritten in use.
 */
static struct ntrace_insn seq_insn[4];
static unsigned seq_slot;
static struct ntrace_insn *seq_open;	/* its target is the next address */

/* Type letters (NexRv's InfoParse) to an instruction; false if not one. */
static bool pcseq_type(const char *t, unsigned size, struct ntrace_insn *in, bool *taken)
{
	*in = (struct ntrace_insn){ .len = (uint8_t)size };
	*taken = false;
	if (!strcmp(t, "L")) {
		in->kind = NTRACE_K_PLAIN;
	} else if (!strcmp(t, "B") || !strcmp(t, "BN")) {
		in->kind = NTRACE_K_BRANCH;
		*taken = t[1] != 'N';
	} else if (!strcmp(t, "J") || !strcmp(t, "C")) {
		in->kind = NTRACE_K_JUMP;
		in->itype = t[0] == 'C' ? NTRACE_ITYPE_DIRECT_CALL : NTRACE_ITYPE_DIRECT_JUMP_NL;
		*taken = true;
	} else if (!strcmp(t, "JI") || !strcmp(t, "CI") || !strcmp(t, "R")) {
		in->kind = NTRACE_K_INDIRECT;
		in->itype = t[0] == 'R' ? NTRACE_ITYPE_RETURN :
			    t[0] == 'C' ? NTRACE_ITYPE_INDIRECT_CALL : NTRACE_ITYPE_INDIRECT_JUMP_NL;
	} else {
		return false;
	}
	return true;
}

/*
 * "0x80000000,L4" (an optional third field, the reference's direct target,
 * is not needed).  *why says what is wrong with a line that is not one.
 */
static enum line_kind pcseq_line(struct feeder *fd, const char *line, const char **why)
{
	unsigned long long pc;
	struct ntrace_insn in;
	char type[3] = "";
	unsigned size = 0;
	const char *p;
	size_t n = 0;
	bool taken;
	char *e;

	pc = strtoull(line, &e, 16);
	if (e == line || *e != ',') {
		*why = "no address";
		return LINE_OTHER;
	}
	p = e + 1;
	while (n < 2 && p[n] >= 'A' && p[n] <= 'Z') {
		type[n] = p[n];
		n++;
	}
	type[n] = 0;
	if (p[n] == '2' || p[n] == '4')
		size = (unsigned)(p[n] - '0');
	if (!size || !pcseq_type(type, size, &in, &taken) ||
	    (p[n + 1] && p[n + 1] != ',' && p[n + 1] != '\n' && p[n + 1] != '\r')) {
		*why = "the type is not L, B, BN, J, JI, C, CI or R with size 2 or 4";
		return LINE_OTHER;
	}
	if (pc & 1) {
		*why = "an odd address";
		return LINE_OTHER;
	}
	if (seq_open) {
		seq_open->target = pc;
		seq_open = NULL;
	}
	if (image_covers(pc)) {
		const struct ntrace_insn *known = image_lookup(NULL, pc);

		if (known && known->len && known->len != size) {
			*why = "the code at this address has another size (is it the right ELF?)";
			return LINE_OTHER;
		}
		feed(fd, pc, 3);	/* the code's own classification */
		return LINE_USED;
	}
	/* a not-taken branch "goes" nowhere else: its target is never the next */
	in.target = pc;
	seq_insn[seq_slot] = in;
	if (taken)
		seq_open = &seq_insn[seq_slot];
	feed_insn(fd, pc, 3, &seq_insn[seq_slot]);
	seq_slot = (seq_slot + 1) % 4;
	return LINE_USED;
}

/* ---- one line ------------------------------------------------------------------ */

/* A PCSEQ or PCONLY line: "0x" and hex digits (PCONLY may omit "0x"). */
static enum log_format address_line_format(const char *line)
{
	const char *p = line;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!is_hex((unsigned char)*p))
		return LOG_NONE;
	while (is_hex((unsigned char)*p))
		p++;
	if (*p == ',')
		return LOG_PCSEQ;
	if (*p == '\n' || *p == 0 || *p == ' ' || *p == '\r')
		return LOG_PCONLY;
	return LOG_NONE;
}

static enum log_format line_format(const char *line, const char **colon)
{
	*colon = NULL;
	if (!strncmp(line, "Trace ", 6) || !strncmp(line, "Stopped execution", 17))
		return LOG_QEMU;
	if (!strncmp(line, "0x", 2) && (*colon = strchr(line, ':')) && (*colon)[1] == ' ')
		return LOG_QEMU;	/* in_asm */
	if (!strncmp(line, "core", 4))
		return LOG_SPIKE;
	return address_line_format(line);
}

static enum line_kind parse_line(struct feeder *fd, enum log_format f, const char *line,
				 const char *colon, const char **why)
{
	unsigned long long pc;
	const char *p;

	switch (f) {
	case LOG_QEMU:
		if (!strncmp(line, "Trace ", 6))
			return qemu_exec(fd, line);
		if (colon)
			return qemu_in_asm(fd, line, colon);
		p = strchr(line, '[');
		if (p)
			unfeed(fd, strtoull(p + 1, NULL, 16));
		return LINE_USED;
	case LOG_SPIKE:
		return spike_line(fd, line);
	case LOG_PCSEQ:
		return pcseq_line(fd, line, why);
	case LOG_PCONLY:
		pc = strtoull(line, NULL, 16);
		if (pc & 1) {
			*why = "an odd address";
			return LINE_OTHER;
		}
		feed(fd, pc, 3);
		return LINE_USED;
	default:
		return LINE_OTHER;
	}
}

/* A PCSEQ/PCONLY comment ("." lines, ".e" the end) or an empty line. */
static enum line_kind comment_line(const char *line)
{
	if (line[0] == '.' && line[1] == 'e')
		return LINE_END;
	if (line[0] == '.' || line[0] == '\n' || line[0] == '\r' || line[0] == 0)
		return LINE_USED;
	return LINE_OTHER;
}

static void show_line(const char *line)
{
	int n = (int)strcspn(line, "\r\n");

	fprintf(stderr, "'%.*s%s'", n > 80 ? 80 : n, line, n > 80 ? "..." : "");
}

/*
 * Feeds every line of a log to fd (up to max instructions, 0: all).
 * Returns 0, or 2 after printing what is wrong with the input.
 */
int read_log(struct feeder *fd, FILE *in, const char *name, uint64_t max)
{
	enum log_format format = LOG_NONE;
	char *line = NULL, *first = NULL;
	size_t cap = 0;
	uint64_t lineno = 0;
	int rc = 0;

	seq_open = NULL;
	while (getline(&line, &cap, in) > 0) {
		const char *colon, *why = "not a line of this format";
		enum log_format f = line_format(line, &colon);
		enum line_kind k;

		lineno++;
		if (!first)
			first = strdup(line);
		if (format == LOG_NONE && f != LOG_NONE)
			format = f;
		if (format == LOG_PCSEQ || format == LOG_PCONLY) {
			k = comment_line(line);
			if (k == LINE_END)
				break;
			if (k == LINE_OTHER && f == format)
				k = parse_line(fd, format, line, colon, &why);
			if (k == LINE_OTHER) {
				fprintf(stderr, "tally-trace: %s:%llu: not a %s line (%s): ", name,
					(unsigned long long)lineno, format_names[format], why);
				show_line(line);
				fprintf(stderr, "\n");
				rc = 2;
				break;
			}
		} else if (f != LOG_NONE && (f == format || f == LOG_QEMU || f == LOG_SPIKE)) {
			parse_line(fd, f, line, colon, &why);
		}
		if (max && fd->executed >= max)
			break;		/* enough: the trace ends here */
	}
	if (!rc && format == LOG_NONE) {
		fprintf(stderr, "tally-trace: %s: no line is a trace this tool reads (a QEMU "
			"-d exec,in_asm log, a Spike log, PCSEQ lines such as 0x80000000,L4, or one "
			"address a line)%s", name, first ? "; the first line is " : ", it is empty");
		if (first)
			show_line(first);
		fprintf(stderr, "\n");
		rc = 2;
	}
	free(first);
	free(line);
	return rc;
}

/* encode: the log read here, fed to the encoder (tally-trace-encode.c). */
int cmd_encode(struct opts *o)
{
	struct feeder *fd = malloc(sizeof(*fd));
	FILE *in = o->input && strcmp(o->input, "-") ? fopen(o->input, "r") : stdin;
	double t0 = now_s();
	int rc;

	if (!in || !fd) {
		fprintf(stderr, "tally-trace: cannot read the log\n");
		return 2;
	}
	feeder_init(fd, o);
	rc = read_log(fd, in, o->input && strcmp(o->input, "-") ? o->input : "stdin",
		      o->max_instructions);
	if (!rc)
		rc = feeder_finish(fd, o, now_s() - t0);
	free(fd);
	return rc;
}
