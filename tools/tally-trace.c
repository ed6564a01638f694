// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: RISC-V N-Trace from real runs.
 *
 *   tally-trace record  [controls] -o T.ntr [--addresses A] -- qemu-system-riscv64 ...
 *   tally-trace encode  [controls] -o T.ntr [--elf F]... [--raw F@ADDR] LOG
 *   tally-trace dump    [--cfg T.ntr.cfg] T.ntr
 *   tally-trace decode  [--cfg ...] [--elf F]... [--code T.ntr.code] [--symbols] T.ntr
 *   tally-trace stats   [--cfg ...] [--elf F]... [--code ...] T.ntr
 *   tally-trace profile [--cfg ...] [--elf F]... [--code ...] [--svg OUT.svg] T.ntr
 *
 * The trace source is QEMU's execution log (-singlestep -d nochain,exec,in_asm):
 * one line per executed instruction and, at translation, the instruction
 * words; or, with record --plugin, the TCG plugin tally-trace-plugin.so, which
 * sends the same facts in binary (tools/tally-trace-plugin.c).  Each executed instruction becomes one ingress-port record; its itype
 * comes from its opcode and the next executed address (see docs/trace.md for
 * what a log can and cannot tell).  record/encode write T.ntr, the encoder
 * settings in T.ntr.cfg (trace-control names) and the captured code words in
 * T.ntr.code.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tally-trace.h"

static struct ntrace_config cfg;

/* ---- options ------------------------------------------------------------------- */

struct opts {
	const char *out, *addresses, *svg, *cfgfile, *code, *input;
	const char *plugin;	/* record: the TCG plugin trace source */
	bool symbols, quiet, bench;
	uint64_t max_instructions;
	uint64_t stop_at;	/* record --plugin: stop at this address's first execution */
	bool has_stop_at;
	int src;		/* decode: only messages with this SRC (-1: all) */
	char **qemu;
	int nelf;
};

static void usage(void)
{
	fprintf(stderr,
		"usage: tally-trace record|encode|dump|decode|stats|profile [options] [file]\n"
		"trace controls (spec chapter 4 names in T.ntr.cfg):\n"
		"  --mode btm|htm            trTeInstMode 3 or 6\n"
		"  --implicit-return N       trTeInstImplicitReturnMode 0..3 (--stack-depth N)\n"
		"  --repeat-history          trTeInstEnRepeatedHistory (ResourceFull RCODE=2)\n"
		"  --repeat-branch           RepeatBranch messages (B-CNT)\n"
		"  --sync-mode N --sync-max N  trTeInstSyncMode/trTeInstSyncMax\n"
		"  --icnt-limit N --hist-bits N  I-CNT and HIST limits\n"
		"  --tstamp                  trTsEnable (TSTAMP = instruction index)\n"
		"  --src-bits N --src-id N   trTeSrcBits, trTeSrcID\n"
		"  --ext-addr                trTeInstExtendAddrMSB\n"
		"  --sequential-jump         trTeInstEnSequentialJump (LUI/AUIPC + JALR inferable)\n"
		"  --all-jumps               trTeInstEnAllJumps (direct jumps as taken branches)\n"
		"  --icnt-full-sync          a full I-CNT as ProgTraceSync SYNC=4 (BTM only)\n"
		"  --context                 trTeContext (Ownership messages)\n"
		"  --xlen 32|64\n"
		"code: --elf FILE (repeat), --raw FILE@ADDR, --code T.ntr.code, --cfg T.ntr.cfg,\n"
		"      --syms FILE (symbols only: code that changes at run time comes from --code)\n"
		"output: -o FILE, --addresses FILE, --symbols, --svg FILE\n"
		"encode --bench: time the encoder alone (records kept in memory first)\n"
		"record --max-instructions N: stop QEMU after N instructions\n"
		"record --plugin [--plugin-path SO]: the TCG plugin trace source (fast, no --context);\n"
		"       --stop-at ADDR: end before ADDR's first execution; with --src-bits N one\n"
		"       encoder per hart (SRC = hart), A.<hart> and T.ntr.code.<hart> per hart\n"
		"decode --src K: only hart K's messages\n");
	exit(2);
}

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
		char *p = (char *)&cfg + controls[i].off;

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
	const char *p = (const char *)&cfg + controls[i].off;

	if (controls[i].size == 1)
		return *(const uint8_t *)p;
	if (controls[i].size == 2)
		return *(const uint16_t *)p;
	return *(const uint32_t *)p;
}

static int save_cfg(const char *path)
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

static void load_cfg(const char *path)
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

static void load_code_arg(const char *kind, const char *arg)
{
	int rc;

	if (!strcmp(kind, "--elf")) {
		rc = image_load_elf(arg);
	} else if (!strcmp(kind, "--syms")) {
		rc = image_load_symbols(arg);
	} else if (!strcmp(kind, "--code")) {
		rc = image_load_words(arg);
	} else {
		char *at = strrchr(arg, '@');
		char *path = strdup(arg);

		if (!at)
			usage();
		path[at - arg] = 0;
		rc = image_load_raw(path, strtoull(at + 1, NULL, 0));
		free(path);
	}
	if (rc) {
		fprintf(stderr, "tally-trace: cannot load %s\n", arg);
		exit(2);
	}
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	char *cfgfile = NULL;

	/* the side file first, so that options override it */
	for (int i = 2; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--cfg"))
			cfgfile = argv[i + 1];
	}
	if (cfgfile)
		load_cfg(cfgfile);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

#define NEEDV() do { if (!v) usage(); i++; } while (0)
		if (!strcmp(a, "--")) {
			o->qemu = argv + i + 1;
			break;
		} else if (!strcmp(a, "--mode")) {
			NEEDV();
			cfg.trTeInstMode = !strcmp(v, "htm") ? NTRACE_INST_MODE_HTM :
					   !strcmp(v, "btm") ? NTRACE_INST_MODE_BTM : 0;
		} else if (!strcmp(a, "--implicit-return")) {
			NEEDV();
			cfg.trTeInstImplicitReturnMode = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--stack-depth")) {
			NEEDV();
			cfg.ret_stack_depth = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--repeat-history")) {
			cfg.trTeInstEnRepeatedHistory = true;
		} else if (!strcmp(a, "--repeat-branch")) {
			cfg.repeat_branch = true;
		} else if (!strcmp(a, "--sync-mode")) {
			NEEDV();
			cfg.trTeInstSyncMode = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--sync-max")) {
			NEEDV();
			cfg.trTeInstSyncMax = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--icnt-limit")) {
			NEEDV();
			cfg.icnt_limit = (uint32_t)strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--hist-bits")) {
			NEEDV();
			cfg.hist_bits = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--tstamp")) {
			cfg.trTsEnable = true;
		} else if (!strcmp(a, "--src-bits")) {
			NEEDV();
			cfg.trTeSrcBits = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--src-id")) {
			NEEDV();
			cfg.trTeSrcID = (uint16_t)atoi(v);
		} else if (!strcmp(a, "--ext-addr")) {
			cfg.trTeInstExtendAddrMSB = true;
		} else if (!strcmp(a, "--sequential-jump")) {
			cfg.trTeInstEnSequentialJump = true;
		} else if (!strcmp(a, "--all-jumps")) {
			cfg.trTeInstEnAllJumps = true;
		} else if (!strcmp(a, "--icnt-full-sync")) {
			cfg.icnt_full_sync = true;
		} else if (!strcmp(a, "--context")) {
			cfg.trTeContext = true;
		} else if (!strcmp(a, "--xlen")) {
			NEEDV();
			cfg.xlen = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--elf") || !strcmp(a, "--raw") || !strcmp(a, "--code") ||
			   !strcmp(a, "--syms")) {
			NEEDV();
			load_code_arg(a, v);
			o->nelf += !strcmp(a, "--elf");
			if (!strcmp(a, "--code"))
				o->code = v;
		} else if (!strcmp(a, "--cfg")) {
			NEEDV();
			o->cfgfile = v;
		} else if (!strcmp(a, "-o")) {
			NEEDV();
			o->out = v;
		} else if (!strcmp(a, "--addresses")) {
			NEEDV();
			o->addresses = v;
		} else if (!strcmp(a, "--svg")) {
			NEEDV();
			o->svg = v;
		} else if (!strcmp(a, "--symbols")) {
			o->symbols = true;
		} else if (!strcmp(a, "--max-instructions")) {
			NEEDV();
			o->max_instructions = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--src")) {
			NEEDV();
			o->src = atoi(v);
		} else if (!strcmp(a, "--stop-at")) {
			NEEDV();
			o->stop_at = strtoull(v, NULL, 16);
			o->has_stop_at = true;
		} else if (!strcmp(a, "--plugin")) {
			o->plugin = "";
		} else if (!strcmp(a, "--plugin-path")) {
			NEEDV();
			o->plugin = v;
		} else if (!strcmp(a, "--bench")) {
			o->bench = true;
		} else if (!strcmp(a, "-q")) {
			o->quiet = true;
		} else if (a[0] == '-') {
			usage();
		} else {
			o->input = a;
		}
#undef NEEDV
	}
	if (o->nelf)
		cfg.xlen = (uint8_t)image_xlen;
	if (ntrace_config_check(&cfg)) {
		fprintf(stderr, "tally-trace: invalid trace controls\n");
		exit(2);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- output buffer ---------------------------------------------------------------- */

struct obuf {
	uint8_t *b;
	size_t n, cap;
};

static void obuf_sink(void *ctx, const uint8_t *bytes, size_t n)
{
	struct obuf *o = ctx;

	if (o->n + n > o->cap) {
		o->cap = o->cap ? o->cap * 2 : 1 << 20;
		o->b = realloc(o->b, o->cap);
		if (!o->b) {
			fprintf(stderr, "tally-trace: out of memory\n");
			exit(2);
		}
	}
	memcpy(o->b + o->n, bytes, n);
	o->n += n;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f) {
		fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(n > 0 ? (size_t)n : 1);
	if (!b || (n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n)) {
		fprintf(stderr, "tally-trace: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* ---- the ingress port from an execution log ---------------------------------------- */

struct feeder {
	struct ntrace_encoder enc;
	struct obuf out;
	FILE *addresses;
	uint64_t q_pc[3];
	uint8_t q_priv[3];
	const struct ntrace_insn *q_in[3];	/* the instruction, if the source knows it */
	int qn;
	uint64_t executed, unknown_code, traps, restarted;
	/* the last retired instruction was a constant load (LUI, C.LUI, AUIPC)
	 * with no trap after it: a jump through its rd is sequentially inferable */
	bool prev_load;
	uint8_t prev_rd;
	uint64_t prev_value;	/* the constant load's value (rd's) */
	bool stopped;		/* record ended the run (--max-instructions, --stop-at) */
	bool replay_code;	/* encode with --code: apply its changes in order */
	/* --bench: records kept, encoded afterwards on their own clock */
	struct ntrace_ingress *recs;
	size_t nrecs, caprecs;
};

/*
 * One record for the instruction at pc, knowing the next executed address.
 * A next address the opcode cannot lead to is a trap taken after it (or, for
 * ECALL/EBREAK, instead of it).  has_next false: last instruction of the log.
 */
static void make_record(struct feeder *fd, uint64_t pc, uint8_t priv, bool has_next, uint64_t next,
			const struct ntrace_insn *known)
{
	static const struct ntrace_insn unknown = { .len = 4, .kind = NTRACE_K_PLAIN };
	const struct ntrace_insn *in;
	struct ntrace_ingress r = { .addr = pc, .priv = priv, .tstamp = fd->executed };
	uint64_t seq;

	if (fd->replay_code)
		image_apply_words(fd->executed + 2);	/* as the decoder does */
	in = known ? known : image_lookup(NULL, pc);
	/*
	 * The same address twice in a row from an instruction that cannot
	 * jump to itself: QEMU aborted the first execution and ran it again
	 * (under -icount, an MMIO access restarts its TB): not retired.
	 */
	if (has_next && next == pc && (!in || in->kind == NTRACE_K_PLAIN ||
				       in->kind == NTRACE_K_TRAP ||
				       ((in->kind == NTRACE_K_BRANCH || in->kind == NTRACE_K_JUMP) &&
					in->target != pc))) {
		fd->restarted++;
		return;
	}
	fd->executed++;
	if (fd->addresses)
		fprintf(fd->addresses, "%llx\n", (unsigned long long)pc);
	if (!in || !in->len) {
		/* no code known: count it as a 4-byte instruction */
		fd->unknown_code++;
		in = &unknown;
	}
	r.ilen = in->len;
	seq = pc + in->len;
	if (cfg.xlen == 32)
		seq = (uint32_t)seq;
	switch (in->kind) {
	case NTRACE_K_TRAP:
		r.itype = NTRACE_ITYPE_EXCEPTION;
		fd->traps++;
		break;
	case NTRACE_K_BRANCH:
		r.itype = has_next && next == in->target ? NTRACE_ITYPE_BRANCH_TAKEN :
							   NTRACE_ITYPE_BRANCH_NOT_TAKEN;
		if (has_next && next != in->target && next != seq)
			r.flags = NTRACE_REC_TRAP_AFTER | NTRACE_REC_TRAP_CAUSE_UNKNOWN;
		break;
	case NTRACE_K_JUMP:
		r.itype = in->itype;
		if (has_next && next != in->target)
			r.flags = NTRACE_REC_TRAP_AFTER | NTRACE_REC_TRAP_CAUSE_UNKNOWN;
		break;
	case NTRACE_K_INDIRECT:
	case NTRACE_K_TRAP_RETURN:
		/* any destination is possible: a trap right after one is seen
		 * as the jump going to the trap handler */
		r.itype = in->itype;
		break;
	default:
		if (has_next && next != seq)
			r.flags = NTRACE_REC_TRAP_AFTER | NTRACE_REC_TRAP_CAUSE_UNKNOWN;
		break;
	}
	if (r.flags)
		fd->traps++;
	/*
	 * LUI/AUIPC + JALR: flagged only when the next address is the one the
	 * pair computes.  Anything else is a trap right after the jump (a
	 * fetch fault at its target, which never retires): the log shows the
	 * jump going to the trap vector, which only a message can say.
	 */
	if (in->kind == NTRACE_K_INDIRECT && fd->prev_load && fd->prev_rd == in->rs1 &&
	    has_next && next == ntrace_seq_jump_target(fd->prev_value, in->imm, cfg.xlen))
		r.flags |= NTRACE_REC_SEQ_INFERABLE;
	fd->prev_load = in->const_load && r.itype == NTRACE_ITYPE_NONE && !r.flags;
	fd->prev_rd = in->rd;
	fd->prev_value = in->target;
	if (fd->caprecs) {
		if (fd->nrecs == fd->caprecs) {
			fd->caprecs *= 2;
			fd->recs = realloc(fd->recs, fd->caprecs * sizeof(*fd->recs));
			if (!fd->recs)
				exit(2);
		}
		fd->recs[fd->nrecs++] = r;
		return;
	}
	ntrace_enc_retire(&fd->enc, &r);
}

/* One executed instruction; in: its classification if known (else the image's) */
static void feed_insn(struct feeder *fd, uint64_t pc, uint8_t priv, const struct ntrace_insn *in)
{
	fd->q_pc[fd->qn] = pc;
	fd->q_priv[fd->qn] = priv;
	fd->q_in[fd->qn] = in;
	if (++fd->qn == 3) {
		make_record(fd, fd->q_pc[0], fd->q_priv[0], true, fd->q_pc[1], fd->q_in[0]);
		fd->q_pc[0] = fd->q_pc[1];
		fd->q_pc[1] = fd->q_pc[2];
		fd->q_priv[0] = fd->q_priv[1];
		fd->q_priv[1] = fd->q_priv[2];
		fd->q_in[0] = fd->q_in[1];
		fd->q_in[1] = fd->q_in[2];
		fd->qn = 2;
	}
}

static void feed(struct feeder *fd, uint64_t pc, uint8_t priv)
{
	feed_insn(fd, pc, priv, NULL);
}

/* QEMU "Stopped execution of TB chain before X": X did not run. */
static void unfeed(struct feeder *fd, uint64_t pc)
{
	if (fd->qn && fd->q_pc[fd->qn - 1] == pc)
		fd->qn--;
}

static void feed_end(struct feeder *fd)
{
	if (fd->qn == 2)
		make_record(fd, fd->q_pc[0], fd->q_priv[0], true, fd->q_pc[1], fd->q_in[0]);
	if (fd->qn >= 1)
		make_record(fd, fd->q_pc[fd->qn - 1], fd->q_priv[fd->qn - 1], false, 0,
			    fd->q_in[fd->qn - 1]);
	fd->qn = 0;
	if (fd->caprecs) {
		double t0 = now_s(), t;

		for (size_t i = 0; i < fd->nrecs; i++)
			ntrace_enc_retire(&fd->enc, &fd->recs[i]);
		t = now_s() - t0;
		fprintf(stderr, "tally-trace: encoder alone: %zu records in %.3f s (%.1f M records/s)\n",
			fd->nrecs, t, t > 0 ? (double)fd->nrecs / t / 1e6 : 0.0);
	}
	ntrace_enc_stop(&fd->enc, NTRACE_EVCODE_TRACE_DISABLED);
}

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

/*
 * One log line: QEMU exec ("Trace 0: 0x.. [cs/pc/flags/cflags]"), QEMU
 * in_asm ("0x...:  00000297  auipc ..."), QEMU "Stopped execution ... [pc]",
 * Spike ("core   0: [priv] 0x... (0x...)"), or a bare hex address.
 */
static void parse_line(struct feeder *fd, const char *line)
{
	const char *p;
	char *e;

	if (!strncmp(line, "Trace ", 6)) {
		unsigned long long pc, host;
		unsigned long flags;

		p = strchr(line, ':');
		host = p ? strtoull(p + 1, NULL, 16) : 0;
		p = strchr(line, '[');
		if (!p)
			return;
		strtoull(p + 1, &e, 16);
		if (*e != '/')
			return;
		pc = strtoull(e + 1, &e, 16);
		if (*e != '/')
			return;
		flags = strtoul(e + 1, &e, 16);
		if (host)
			tb_executed(fd, host, pc);
		/* riscv TB flags: bits 2..0 are the MMU index = privilege
		 * (except under MSTATUS.MPRV, which only changes data accesses) */
		feed(fd, pc, (uint8_t)(flags & 3));
		return;
	}
	if (!strncmp(line, "Stopped execution", 17)) {
		p = strchr(line, '[');
		if (p)
			unfeed(fd, strtoull(p + 1, NULL, 16));
		return;
	}
	if (!strncmp(line, "0x", 2) && (p = strchr(line, ':')) && p[1] == ' ') {
		/* in_asm: address, then the instruction word in hex */
		unsigned long long a = strtoull(line, NULL, 16);
		const char *w = p + 1;
		size_t digits = 0;

		while (*w == ' ')
			w++;
		while (is_hex((unsigned char)w[digits]))
			digits++;
		if (digits == 4 || digits == 8) {
			uint32_t word = (uint32_t)strtoul(w, NULL, 16);

			image_word_index = fd->executed;
			image_add_word(a, word, (unsigned)digits / 2);
			last_asm.pc = a;
			last_asm.word = word;
			last_asm.len = (uint8_t)(digits / 2);
			last_asm.valid = true;
		}
		return;
	}
	if (!strncmp(line, "core", 4)) {
		/* Spike: "core   0: 3 0x0000000080000000 (0x00000297) auipc ..." */
		unsigned long long pc;
		int priv = 3;

		p = strchr(line, ':');
		if (!p)
			return;
		p++;
		while (*p == ' ')
			p++;
		if (p[0] >= '0' && p[0] <= '3' && p[1] == ' ')
			priv = p[0] - '0';
		p = strstr(p, "0x");
		if (!p)
			return;
		pc = strtoull(p, &e, 16);
		p = strstr(e, "(0x");
		if (p) {
			unsigned long w = strtoul(p + 1, &e, 16);

			image_word_index = fd->executed;
			image_add_word(pc, (uint32_t)w, (unsigned)(e - p - 3) / 2);
		}
		feed(fd, pc, (uint8_t)priv);
		return;
	}
	p = line;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (is_hex((unsigned char)*p)) {
		unsigned long long pc = strtoull(p, &e, 16);

		if (*e == '\n' || *e == 0 || *e == ' ' || *e == '\r')
			feed(fd, pc, 3);
	}
}

static void feeder_init(struct feeder *fd, const struct opts *o)
{
	memset(fd, 0, sizeof(*fd));
	fd->replay_code = o->code != NULL;
	if (o->bench) {
		fd->caprecs = 1 << 20;
		fd->recs = malloc(fd->caprecs * sizeof(*fd->recs));
	}
	ntrace_enc_init(&fd->enc, &cfg, obuf_sink, &fd->out);
	if (o->addresses) {
		fd->addresses = fopen(o->addresses, "w");
		if (!fd->addresses) {
			fprintf(stderr, "tally-trace: %s: %s\n", o->addresses, strerror(errno));
			exit(2);
		}
		setvbuf(fd->addresses, NULL, _IOFBF, 1 << 20);
	}
}

static int feeder_finish(struct feeder *fd, const struct opts *o, double secs)
{
	char path[4096];
	FILE *f;

	feed_end(fd);
	if (fd->addresses)
		fclose(fd->addresses);
	if (!o->out)
		return 0;
	f = fopen(o->out, "wb");
	if (!f || fwrite(fd->out.b, 1, fd->out.n, f) != fd->out.n || fclose(f)) {
		fprintf(stderr, "tally-trace: cannot write %s\n", o->out);
		return 1;
	}
	snprintf(path, sizeof(path), "%s.cfg", o->out);
	save_cfg(path);
	snprintf(path, sizeof(path), "%s.code", o->out);
	image_save_words(path);
	if (!o->quiet)
		fprintf(stderr,
			"tally-trace: %llu instructions, %llu messages, %zu bytes, %.3f bits/instruction, "
			"%llu traps, %llu without code, %llu restarted, %.2f s\n",
			(unsigned long long)fd->executed, (unsigned long long)fd->enc.messages,
			fd->out.n, fd->executed ? 8.0 * (double)fd->out.n / (double)fd->executed : 0.0,
			(unsigned long long)fd->traps, (unsigned long long)fd->unknown_code,
			(unsigned long long)fd->restarted, secs);
	return fd->enc.error ? 1 : 0;
}

static int read_log(struct feeder *fd, FILE *in, uint64_t max)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, in) > 0) {
		parse_line(fd, line);
		if (max && fd->executed >= max)
			break;		/* enough: the trace ends here */
	}
	free(line);
	return 0;
}

static int cmd_encode(struct opts *o)
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
	read_log(fd, in, o->max_instructions);
	rc = feeder_finish(fd, o, now_s() - t0);
	free(fd);
	return rc;
}

/*
 * The plugin's stream (tools/tally-trace-plugin.c): instruction IDs in
 * execution order, each ID's address and word sent when QEMU translated it.
 * An executed ID brings its own word into the code map (logged only when it
 * changes what the decoder would see), exactly as tb_executed() does for the
 * log: code_seen[ID] remembers the change count at which the ID's word was
 * last known to be in place, so the common case costs one comparison.
 */
struct plugin_insn {
	uint64_t pc;
	uint32_t word;
	uint32_t seen;		/* image_changes() when last checked + 1 */
	uint32_t seen_hart;	/* several harts: the hart whose view was checked */
	bool defined;
	struct ntrace_insn insn;
};

/*
 * Several harts (record --plugin with an SRC field): one encoder per hart,
 * SRC = the hart (vCPU) index, all writing to hart 0's stream in the order
 * their messages are made.  Each hart's decoder sees only its own code
 * words (another hart may run another process at the same address), so each
 * hart has its own view of the code and its own change log, written to
 * T.ntr.code (hart 0) and T.ntr.code.<hart>, with that hart's indexes.
 */
#define MAX_HARTS 64
struct hart_view {
	uint64_t *keys;		/* halfword address + 1 (0 = empty slot) */
	uint16_t *vals;
	size_t cap, n;
	uint32_t changes;
	struct word_log {
		uint64_t index, addr;
		uint16_t half;
	} *log;
	size_t nlog, caplog;
};
static struct feeder *harts[MAX_HARTS];
static struct hart_view views[MAX_HARTS];

static bool view_set(struct hart_view *v, uint64_t addr, uint16_t half)
{
	size_t i;

	if (2 * (v->n + 1) > v->cap) {
		struct hart_view old = *v;

		v->cap = v->cap ? v->cap * 2 : 1 << 16;
		v->keys = calloc(v->cap, sizeof(*v->keys));
		v->vals = calloc(v->cap, sizeof(*v->vals));
		if (!v->keys || !v->vals)
			exit(2);
		v->n = 0;
		for (size_t j = 0; j < old.cap; j++)
			if (old.keys[j])
				view_set(v, old.keys[j] - 1, old.vals[j]);
		free(old.keys);
		free(old.vals);
	}
	i = (size_t)((addr >> 1) * 0x9e3779b97f4a7c15ull >> 20) & (v->cap - 1);
	while (v->keys[i] && v->keys[i] != addr + 1)
		i = (i + 1) & (v->cap - 1);
	if (v->keys[i] && v->vals[i] == half)
		return false;
	if (!v->keys[i])
		v->n++;
	v->keys[i] = addr + 1;
	v->vals[i] = half;
	return true;
}

static void view_word(struct hart_view *v, uint64_t index, uint64_t pc, uint32_t word, unsigned len)
{
	for (unsigned i = 0; i + 2 <= len; i += 2) {
		uint16_t half = (uint16_t)(word >> (8 * i));

		if (!view_set(v, pc + i, half))
			continue;
		if (v->nlog == v->caplog) {
			v->caplog = v->caplog ? v->caplog * 2 : 4096;
			v->log = realloc(v->log, v->caplog * sizeof(*v->log));
			if (!v->log)
				exit(2);
		}
		v->log[v->nlog++] = (struct word_log){ index, pc + i, half };
		v->changes++;
	}
}

static struct feeder *hart_feeder(struct feeder *fd0, const struct opts *o, unsigned hart)
{
	struct ntrace_config c = cfg;
	struct feeder *fd;
	char path[4096];

	if (harts[hart])
		return harts[hart];
	if (!hart) {
		fd0->enc.cfg.trTeSrcID = 0;
		return harts[0] = fd0;
	}
	fd = calloc(1, sizeof(*fd));
	if (!fd)
		exit(2);
	c.trTeSrcID = (uint16_t)hart;
	ntrace_enc_init(&fd->enc, &c, obuf_sink, &fd0->out);
	if (o->addresses) {
		snprintf(path, sizeof(path), "%s.%u", o->addresses, hart);
		fd->addresses = fopen(path, "w");
		if (!fd->addresses) {
			fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
			exit(2);
		}
		setvbuf(fd->addresses, NULL, _IOFBF, 1 << 20);
	}
	return harts[hart] = fd;
}

/* Several harts: ends the streams of harts 1.. (hart 0's is fd's). */
static void harts_end(void)
{
	for (unsigned h = 1; h < MAX_HARTS; h++) {
		if (!harts[h])
			continue;
		feed_end(harts[h]);
		if (harts[h]->addresses)
			fclose(harts[h]->addresses);
		fprintf(stderr, "tally-trace: hart %u: %llu instructions, %llu messages\n", h,
			(unsigned long long)harts[h]->executed,
			(unsigned long long)harts[h]->enc.messages);
	}
}

/* Several harts: every hart's code log, T.ntr.code and T.ntr.code.<hart>. */
static int harts_write_code(const struct opts *o)
{
	char path[4096];
	int rc = 0;

	for (unsigned h = 0; h < MAX_HARTS; h++) {
		struct hart_view *v = &views[h];
		FILE *f;

		if (!harts[h])
			continue;
		if (!o->out)
			continue;
		if (h)
			snprintf(path, sizeof(path), "%s.code.%u", o->out, h);
		else
			snprintf(path, sizeof(path), "%s.code", o->out);
		f = fopen(path, "w");
		if (!f) {
			rc = 1;
			continue;
		}
		for (size_t i = 0; i < v->nlog; i++)
			fprintf(f, "%llu %llx %04x\n", (unsigned long long)v->log[i].index,
				(unsigned long long)v->log[i].addr, v->log[i].half);
		if (fclose(f))
			rc = 1;
	}
	return rc;
}

static int read_plugin(struct feeder *fd, FILE *in, const struct opts *o)
{
	static uint32_t w[1 << 16];
	static struct plugin_insn *chunks[1 << 16];
	struct plugin_insn **ids = chunks;
	size_t have = 0, pos = 0, part = 0;
	bool eof = false;
	unsigned vcpu = 0;
	bool multi = ntrace_src_bits(&cfg) > 0;	/* one SRC per hart */
	struct feeder *cur = multi ? hart_feeder(fd, o, 0) : fd;
	uint64_t total = 0;

	for (;;) {
		size_t need = 1, got;
		uint32_t x;

		if (pos + 5 > have) {	/* keep at least one whole item */
			memmove(w, w + pos, (have - pos) * sizeof(w[0]) + part);
			have -= pos;
			pos = 0;
			/* read(), not fread(): take what the plugin has sent so far,
			 * even when the guest is idle and sends little */
			do {
				ssize_t r = read(fileno(in), (char *)(w + have) + part,
						 (sizeof(w) / sizeof(w[0]) - have) * sizeof(w[0]) - part);

				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0) {
					eof = true;
					break;
				}
				part += (size_t)r;
			} while (part < sizeof(w[0]));
			got = part / sizeof(w[0]);
			part -= got * sizeof(w[0]);
			have += got;
			if (!have || (eof && pos + 1 > have))
				break;
		}
		x = w[pos];
		if (x == 0xffffffffu) {
			need = 5;
		} else if (x == 0xfffffffeu) {
			need = 2;
		}
		if (pos + need > have)
			break;		/* truncated at the end: QEMU was stopped */
		if (x == 0xffffffffu) {
			uint32_t id = w[pos + 1];

			if (!ids[id >> 16]) {
				/* in chunks that never move: the feeders keep pointers */
				ids[id >> 16] = calloc(1 << 16, sizeof(struct plugin_insn));
				if (!ids[id >> 16])
					exit(2);
			}
			ids[id >> 16][id & 0xffff].pc = w[pos + 2] | (uint64_t)w[pos + 3] << 32;
			ids[id >> 16][id & 0xffff].word = w[pos + 4];
			ids[id >> 16][id & 0xffff].seen = 0;
			ids[id >> 16][id & 0xffff].defined = true;
			ntrace_isa_decode(w[pos + 4], ids[id >> 16][id & 0xffff].pc, cfg.xlen,
					  &ids[id >> 16][id & 0xffff].insn);
		} else if (x == 0xfffffffeu) {
			vcpu = w[pos + 1];
			if (vcpu && !multi) {
				fprintf(stderr, "tally-trace: hart %u ran: give an SRC field (--src-bits) "
					"for a trace of several harts, or use -smp 1\n", vcpu);
				return 1;
			}
			if (vcpu >= MAX_HARTS || vcpu >= 1u << ntrace_src_bits(&cfg)) {
				fprintf(stderr, "tally-trace: hart %u: too many harts for the SRC field\n", vcpu);
				return 1;
			}
			if (multi)
				cur = hart_feeder(fd, o, vcpu);
		} else {
			struct plugin_insn *in_ = ids[x >> 16] ? &ids[x >> 16][x & 0xffff] : NULL;
			uint32_t changes;

			if (!in_ || !in_->defined) {
				fprintf(stderr, "tally-trace: plugin stream: unknown instruction %u\n", x);
				return 1;
			}
			changes = (uint32_t)image_changes() + 1;
			if (in_->seen != changes) {
				image_word_index = fd->executed;
				image_add_word(in_->pc, in_->word, ntrace_isa_len((uint16_t)in_->word));
				in_->seen = (uint32_t)image_changes() + 1;
			}
			if (o->has_stop_at && in_->pc == o->stop_at) {
				fd->stopped = true;
				break;	/* the trace ends before this instruction */
			}
			if (multi) {
				struct hart_view *v = &views[vcpu];

				if (in_->seen_hart != vcpu || in_->seen != v->changes + 1) {
					view_word(v, cur->executed, in_->pc, in_->word, in_->insn.len ? in_->insn.len : 2);
					in_->seen_hart = vcpu;
					in_->seen = v->changes + 1;
				}
				feed_insn(cur, in_->pc, 3, in_->insn.len ? &in_->insn : NULL);
			} else {
				feed(fd, in_->pc, 3);
			}
			if (o->max_instructions && ++total >= o->max_instructions) {
				fd->stopped = true;
				break;
			}
		}
		pos += need;
	}
	return 0;
}

/* The plugin next to this program: <dir of tally-trace>/tally-trace-plugin.so */
static char *default_plugin(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		return NULL;
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "tally-trace-plugin.so");
	return path;
}

/* record: QEMU goes when tally-trace is told to go (timeout, ^C) */
static pid_t qemu_pid;

static void record_signal(int sig)
{
	if (qemu_pid > 0)
		kill(qemu_pid, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Runs QEMU with its execution log going through a FIFO into the encoder. */
static int cmd_record(struct opts *o)
{
	char dir[] = "/tmp/tally-trace-XXXXXX", fifo[64];
	static char plugin_arg[4200];
	struct feeder *fd = malloc(sizeof(*fd));
	int argc = 0, status = 0;
	char **argv;
	double t0 = now_s();
	pid_t pid;
	FILE *in;
	int rc = 0;

	if (!o->qemu || !o->qemu[0] || !o->out || !fd)
		usage();
	if (!mkdtemp(dir))
		return 2;
	snprintf(fifo, sizeof(fifo), "%s/exec.log", dir);
	if (mkfifo(fifo, 0600))
		return 2;
	while (o->qemu[argc])
		argc++;
	argv = calloc((size_t)argc + 8, sizeof(*argv));
	memcpy(argv, o->qemu, (size_t)argc * sizeof(*argv));
	if (o->plugin) {
		const char *so = *o->plugin ? o->plugin : default_plugin();

		if (cfg.trTeContext) {
			fprintf(stderr, "tally-trace: --context needs the privilege level, which a "
				"QEMU 7.2 plugin cannot read: record without --plugin\n");
			return 2;
		}
		snprintf(plugin_arg, sizeof(plugin_arg), "%s,out=%s", so ? so : "", fifo);
		argv[argc++] = "-plugin";
		argv[argc++] = plugin_arg;
	} else {
		argv[argc++] = "-singlestep";
		argv[argc++] = "-d";
		argv[argc++] = "nochain,exec,in_asm";
		argv[argc++] = "-D";
		argv[argc++] = fifo;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	qemu_pid = pid;
	signal(SIGTERM, record_signal);
	signal(SIGINT, record_signal);
	in = fopen(fifo, "r");
	feeder_init(fd, o);
	if (in) {
		setvbuf(in, NULL, _IOFBF, 1 << 20);
		if (o->plugin)
			rc = read_plugin(fd, in, o);
		else
			read_log(fd, in, o->max_instructions);
		/* close the FIFO first: QEMU may be blocked writing to it */
		fclose(in);
		if (rc) {
			kill(pid, SIGTERM);	/* QEMU, started above */
			waitpid(pid, NULL, 0);
			return rc;
		}
		if (fd->stopped || (o->max_instructions && fd->executed >= o->max_instructions)) {
			kill(pid, SIGTERM);	/* QEMU, started above */
			status = 0;
			waitpid(pid, NULL, 0);
			pid = -1;
		}
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	unlink(fifo);
	rmdir(dir);
	if (harts[0])
		harts_end();	/* their last messages before the stream is written */
	rc |= feeder_finish(fd, o, now_s() - t0);
	if (harts[0])
		rc |= harts_write_code(o);	/* replaces the (empty) global code log */
	free(fd);
	free(argv);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "tally-trace: QEMU ended with status 0x%x\n", status);
		return rc ? rc : 1;
	}
	return rc;
}

/* ---- dump --------------------------------------------------------------------------- */

static int cmd_dump(struct opts *o)
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
	ntrace_parser_init(&p, &cfg, buf, len);
	while ((rc = ntrace_parse_next(&p, &m)) != NTRACE_END) {
		printf("%08zx:", p.msg_start);
		for (size_t i = 0; i < p.msg_len && i < 12; i++)
			printf(" %02x", buf[p.msg_start + i]);
		printf("%*s ", p.msg_len < 12 ? (int)(12 - p.msg_len) * 3 : 0, "");
		if (rc < 0) {
			printf("ERROR: %s\n", ntrace_strerror(rc));
			continue;
		}
		ntrace_msg_format(&cfg, &m, text, sizeof(text));
		printf("%s\n", text);
	}
	free(buf);
	return 0;
}

/* ---- decode, stats, profile ---------------------------------------------------------- */

struct flame;
static void flame_add(struct flame *fl, const char *const *stack, int depth, uint64_t n);

struct prof_fn {
	const char *name;
	uint64_t count;
};

#define MAX_DEPTH 64

struct decode_ctx {
	FILE *out;
	bool symbols;
	const char *last_name;
	/* profile */
	bool profile;
	struct prof_fn *fns;
	size_t nfns, capfns;
	const char *stack[MAX_DEPTH];
	int depth;
	int trap_depth[MAX_DEPTH];
	int ntraps;
	uint64_t prev_pc;
	const struct ntrace_insn *prev_in;
	bool have_prev;
	/* SBI calls: traps from an ECALL, labelled by the extension handler */
	bool in_sbi;
	int sbi_depth;
	uint64_t sbi_count;
	const char *sbi_label, *sbi_label2;
	int sbi_label_depth;
	struct prof_fn *sbis;
	size_t nsbis, capsbis;
	uint64_t sbi_calls[256];
	/* functions of the current SBI call, and per label */
	struct prof_fn *ep;
	size_t nep, capep;
	struct prof_fn *lab_fns[256];
	size_t lab_n[256], lab_cap[256];
	struct flame *flame;
	uint64_t flame_run;
	uint64_t count;		/* instructions executed so far */
	const char *last_fn_name;
	size_t last_fn;
	int priv, prev_priv;	/* from Ownership messages; -1 unknown */
	bool words_pending;
	uint64_t next_change;	/* index of the next captured code change */
};

static struct prof_fn *prof_slot(struct prof_fn **arr, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if ((*arr)[i].name == name || !strcmp((*arr)[i].name, name))
			return &(*arr)[i];
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*arr = realloc(*arr, *cap * sizeof(**arr));
	}
	(*arr)[*n] = (struct prof_fn){ name, 0 };
	return &(*arr)[(*n)++];
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void flame_flush(struct decode_ctx *c)
{
	if (c->flame && c->flame_run)
		flame_add(c->flame, c->stack, c->depth, c->flame_run);
	c->flame_run = 0;
}

static void set_depth(struct decode_ctx *c, int depth)
{
	flame_flush(c);
	c->depth = depth < 0 ? 0 : depth > MAX_DEPTH ? MAX_DEPTH : depth;
}

/* Profile bookkeeping for one executed instruction. */
static void profile_exec(struct decode_ctx *c, uint64_t pc, const char *name)
{
	const struct ntrace_insn *in = image_lookup(NULL, pc);

	if (!name)
		name = "?";
	if (c->have_prev) {
		const struct ntrace_insn *p = c->prev_in;
		uint64_t seq = c->prev_pc + (p ? p->len : 4);
		bool trap = false;

		if (p && p->kind == NTRACE_K_TRAP)
			trap = true;
		else if (p && (p->kind == NTRACE_K_PLAIN || p->kind == NTRACE_K_BRANCH))
			trap = pc != seq && !(p->kind == NTRACE_K_BRANCH && pc == p->target);
		else if (p && p->kind == NTRACE_K_JUMP)
			trap = pc != p->target;
		if (trap) {
			/* trap entry: a new frame; an ECALL starts an SBI call */
			if (c->ntraps < MAX_DEPTH)
				c->trap_depth[c->ntraps++] = c->depth;
			/* with Ownership messages: only an ECALL from S-mode to M-mode
			 * is an SBI call (a U-mode ECALL is a system call) */
			if (p && p->kind == NTRACE_K_TRAP && !c->in_sbi &&
			    (c->priv < 0 || (c->priv == 3 && c->prev_priv == 1))) {
				c->in_sbi = true;
				c->sbi_depth = c->ntraps;
				c->sbi_count = 0;
				c->nep = 0;
				c->sbi_label = c->sbi_label2 = NULL;
			}
			set_depth(c, c->depth + 1);
			c->stack[c->depth - 1] = name;
		} else if (p && p->kind == NTRACE_K_TRAP_RETURN) {
			if (c->in_sbi && c->ntraps == c->sbi_depth) {
				char label[256];
				struct prof_fn *s;

				snprintf(label, sizeof(label), "%s%s%s",
					 c->sbi_label ? c->sbi_label : "(no extension handler)",
					 c->sbi_label2 ? " > " : "", c->sbi_label2 ? c->sbi_label2 : "");
				s = prof_slot(&c->sbis, &c->nsbis, &c->capsbis, strdup(label));
				s->count += c->sbi_count;
				c->sbi_calls[(size_t)(s - c->sbis) % 256]++;
				for (size_t k = 0, l = (size_t)(s - c->sbis) % 256; k < c->nep; k++)
					prof_slot(&c->lab_fns[l], &c->lab_n[l], &c->lab_cap[l],
						  c->ep[k].name)->count += c->ep[k].count;
				c->in_sbi = false;
			}
			if (c->ntraps)
				set_depth(c, c->trap_depth[--c->ntraps]);
			else
				set_depth(c, c->depth - 1);
		} else if (p && (p->kind == NTRACE_K_JUMP || p->kind == NTRACE_K_INDIRECT)) {
			if (ntrace_itype_is_call(p->itype)) {
				set_depth(c, c->depth + 1);
				c->stack[c->depth - 1] = name;
			} else if (p->itype == NTRACE_ITYPE_RETURN) {
				set_depth(c, c->depth - 1);
			}
		}
	}
	if (c->depth == 0) {
		set_depth(c, 1);
		c->stack[0] = name;
	}
	/* a tail call or fall-through into another function: rename the frame */
	if (c->stack[c->depth - 1] != name && strcmp(c->stack[c->depth - 1], name)) {
		flame_flush(c);
		c->stack[c->depth - 1] = name;
	}
	/* an SBI call is named by the extension handler it reaches (called
	 * or tail-called from sbi_ecall_handle) and that handler's first callee */
	if (c->in_sbi && !c->sbi_label && ends_with(name, "_handle") &&
	    strcmp(name, "sbi_ecall_handle")) {
		c->sbi_label = name;
		c->sbi_label_depth = c->depth;
	} else if (c->in_sbi && c->sbi_label && !c->sbi_label2 &&
		   c->depth == c->sbi_label_depth + 1) {
		c->sbi_label2 = name;
	}
	c->flame_run++;
	if (c->in_sbi) {
		c->sbi_count++;
		prof_slot(&c->ep, &c->nep, &c->capep, name)->count++;
	}
	if (name != c->last_fn_name) {
		c->last_fn_name = name;
		c->last_fn = (size_t)(prof_slot(&c->fns, &c->nfns, &c->capfns, name) - c->fns);
	}
	c->fns[c->last_fn].count++;
	c->prev_pc = pc;
	c->prev_in = in;
	c->have_prev = true;
}

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

static int decode_file(const struct opts *o, struct decode_ctx *c, struct ntrace_decoder *d,
		       size_t *bytes, double *secs)
{
	uint8_t *buf;
	size_t len;
	double t0;

	if (!o->input)
		usage();
	buf = read_file(o->input, &len);
	ntrace_dec_init(d, &cfg, image_lookup, exec_cb, event_cb, c);
	d->range = image_range;
	c->words_pending = image_words_pending();
	c->next_change = image_next_change();
	t0 = now_s();
	if (o->src >= 0 && ntrace_src_bits(&cfg)) {
		/* one hart's messages out of a stream of several (SRC) */
		struct ntrace_parser p;
		struct ntrace_msg m;
		int rc;

		ntrace_parser_init(&p, &cfg, buf, len);
		while ((rc = ntrace_parse_next(&p, &m)) != NTRACE_END) {
			if (rc < 0) {
				d->errors++;
				d->synced = false;
				event_cb(c, NULL, rc);
			} else if (m.src == (unsigned)o->src) {
				ntrace_dec_msg(d, &m);
			}
		}
	} else {
		ntrace_dec_buffer(d, buf, len);
	}
	*secs = now_s() - t0;
	*bytes = len;
	free(buf);
	return d->errors ? 1 : 0;
}

static int cmd_decode(struct opts *o)
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

static int cmd_stats(struct opts *o)
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
	ntrace_parser_init(&p, &cfg, buf, len);
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
		printf("instructions %llu, %.3f bits/instruction, decode %.1f M instructions/s, "
		       "%llu decode errors\n", (unsigned long long)d->instructions,
		       d->instructions ? 8.0 * (double)len / (double)d->instructions : 0.0,
		       secs > 0 ? (double)d->instructions / secs / 1e6 : 0.0,
		       (unsigned long long)d->errors);
	}
	free(d);
	return 0;
}

/* ---- flame graph (SVG) ----------------------------------------------------------------- */

struct flame_node {
	const char *name;
	uint64_t total;
	int parent, child, sibling;
};

struct flame {
	struct flame_node *n;
	int count, cap;
};

static int flame_child(struct flame *fl, int parent, const char *name)
{
	int i;

	for (i = parent >= 0 ? fl->n[parent].child : -1; i >= 0; i = fl->n[i].sibling)
		if (fl->n[i].name == name || !strcmp(fl->n[i].name, name))
			return i;
	if (fl->count == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 1024;
		fl->n = realloc(fl->n, (size_t)fl->cap * sizeof(*fl->n));
	}
	i = fl->count++;
	fl->n[i] = (struct flame_node){ name, 0, parent, -1, fl->n[parent].child };
	fl->n[parent].child = i;
	return i;
}

static void flame_add(struct flame *fl, const char *const *stack, int depth, uint64_t n)
{
	int node = 0;

	fl->n[0].total += n;
	for (int i = 0; i < depth; i++) {
		node = flame_child(fl, node, stack[i]);
		fl->n[node].total += n;
	}
}

static void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

static void flame_draw(FILE *f, struct flame *fl, int node, double x, int depth, double scale,
		       int height)
{
	double w = (double)fl->n[node].total * scale;
	double cx = x;
	int y = height - 20 * (depth + 1);
	unsigned h = 0;

	if (w < 0.5)
		return;
	for (const char *s = fl->n[node].name; *s; s++)
		h = h * 31 + (unsigned char)*s;
	fprintf(f, "<g><title>");
	svg_text(f, fl->n[node].name);
	fprintf(f, " (%llu instructions)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"19\" fill=\"rgb(%u,%u,60)\" rx=\"2\"/>", (unsigned long long)fl->n[node].total,
		x, y, w, 200 + h % 55, 80 + (h >> 8) % 140);
	if (w > 40) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" font-family=\"monospace\">",
			x + 3, y + 14);
		for (int i = 0; fl->n[node].name[i] && i < (int)(w / 7) - 1; i++)
			svg_text(f, (char[]){ fl->n[node].name[i], 0 });
		fprintf(f, "</text>");
	}
	fprintf(f, "</g>\n");
	for (int c = fl->n[node].child; c >= 0; c = fl->n[c].sibling) {
		flame_draw(f, fl, c, cx, depth + 1, scale, height);
		cx += (double)fl->n[c].total * scale;
	}
}

static int flame_depth(struct flame *fl, int node)
{
	int best = 0;

	for (int c = fl->n[node].child; c >= 0; c = fl->n[c].sibling) {
		int d = flame_depth(fl, c);

		if (d > best)
			best = d;
	}
	return best + 1;
}

static int flame_write(struct flame *fl, const char *path, const char *title)
{
	FILE *f = fopen(path, "w");
	int height, width = 1200;

	if (!f)
		return -1;
	height = 20 * (flame_depth(fl, 0) + 1) + 30;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text x=\"10\" y=\"18\" font-size=\"14\" font-family=\"sans-serif\">", width, height);
	svg_text(f, title);
	fprintf(f, "</text>\n");
	if (fl->n[0].total)
		flame_draw(f, fl, 0, 10, 0, (double)(width - 20) / (double)fl->n[0].total, height);
	fprintf(f, "</svg>\n");
	return fclose(f);
}

static int cmp_fn(const void *a, const void *b)
{
	const struct prof_fn *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

static int cmd_profile(struct opts *o)
{
	struct decode_ctx c = { .profile = true, .priv = -1, .prev_priv = -1 };
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct flame fl = { 0 };
	uint64_t total = 0;
	size_t bytes;
	double secs;
	int rc;

	fl.cap = 1024;
	fl.n = calloc((size_t)fl.cap, sizeof(*fl.n));
	fl.n[0] = (struct flame_node){ "all", 0, -1, -1, -1 };
	fl.count = 1;
	c.flame = &fl;
	rc = decode_file(o, &c, d, &bytes, &secs);
	flame_flush(&c);
	for (size_t i = 0; i < c.nfns; i++)
		total += c.fns[i].count;
	qsort(c.fns, c.nfns, sizeof(*c.fns), cmp_fn);
	printf("%-40s %12s %7s\n", "function", "instructions", "share");
	for (size_t i = 0; i < c.nfns; i++)
		printf("%-40s %12llu %6.2f%%\n", c.fns[i].name, (unsigned long long)c.fns[i].count,
		       total ? 100.0 * (double)c.fns[i].count / (double)total : 0.0);
	printf("%-40s %12llu\n", "total", (unsigned long long)total);
	if (c.nsbis) {
		/* counts are kept per label: pair them before sorting */
		struct { struct prof_fn f; uint64_t calls; } *rows = calloc(c.nsbis, sizeof(*rows));

		for (size_t i = 0; i < c.nsbis; i++) {
			rows[i].f = c.sbis[i];
			rows[i].calls = c.sbi_calls[i % 256];
		}
		printf("\n%-56s %8s %12s %10s\n", "SBI call (extension handler > function)", "calls",
		       "instructions", "per call");
		for (size_t i = 0; i < c.nsbis; i++)
			printf("%-56s %8llu %12llu %10.1f\n", rows[i].f.name,
			       (unsigned long long)rows[i].calls, (unsigned long long)rows[i].f.count,
			       rows[i].calls ? (double)rows[i].f.count / (double)rows[i].calls : 0.0);
		printf("\nwhere the instructions of each SBI call go (per call, trap entry to MRET)\n");
		for (size_t i = 0; i < c.nsbis && i < 256; i++) {
			size_t nf = c.lab_n[i];

			if (!rows[i].calls)
				continue;
			qsort(c.lab_fns[i], nf, sizeof(*c.lab_fns[i]), cmp_fn);
			printf("%s (%.1f per call):", rows[i].f.name,
			       (double)rows[i].f.count / (double)rows[i].calls);
			for (size_t k = 0; k < nf && k < 8; k++)
				printf(" %s %.1f;", c.lab_fns[i][k].name,
				       (double)c.lab_fns[i][k].count / (double)rows[i].calls);
			printf("\n");
		}
		free(rows);
	}
	if (o->svg) {
		char title[256];

		snprintf(title, sizeof(title), "tally-trace profile: %llu instructions (%s)",
			 (unsigned long long)total, o->input);
		if (flame_write(&fl, o->svg, title))
			rc = 1;
	}
	free(d);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { .src = -1 };
	const char *cmd;

	if (argc < 2)
		usage();
	cmd = argv[1];
	ntrace_config_default(&cfg);
	signal(SIGPIPE, SIG_DFL);
	parse_opts(argc, argv, &o);
	if (!strcmp(cmd, "record"))
		return cmd_record(&o);
	if (!strcmp(cmd, "encode"))
		return cmd_encode(&o);
	if (!strcmp(cmd, "dump"))
		return cmd_dump(&o);
	if (!strcmp(cmd, "decode"))
		return cmd_decode(&o);
	if (!strcmp(cmd, "stats"))
		return cmd_stats(&o);
	if (!strcmp(cmd, "profile"))
		return cmd_profile(&o);
	usage();
	return 2;
}
