// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: RISC-V N-Trace from real runs (docs/trace.md).
 *
 *   tally-trace record  [controls] -o T.ntr [--addresses A] -- qemu-system-riscv64 ...
 *   tally-trace encode  [controls] -o T.ntr [--elf F]... [--raw F@ADDR] LOG
 *   tally-trace dump    [--cfg T.ntr.cfg] T.ntr
 *   tally-trace decode  [--cfg ...] [--elf F]... [--code T.ntr.code] [--symbols] T.ntr
 *   tally-trace stats   [--cfg ...] [--elf F]... [--code ...] T.ntr
 *   tally-trace profile [--cfg ...] [--elf F]... [--code ...] [--svg OUT.svg] T.ntr
 *
 * This file: the command line (options, the trace controls they set) and
 * small helpers; each subcommand has its own file (tally-trace.h lists them).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tally-trace.h"

struct ntrace_config trace_cfg;

/* ---- options ------------------------------------------------------------------- */

void usage(void)
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
		"       --format hex|pconly|pcseq: addresses as 80000000, 0x80000000 or the\n"
		"       reference's PCSEQ 0x80000000,L4 (decode output, --addresses)\n"
		"input (encode LOG): QEMU -d exec,in_asm logs, Spike logs, PCSEQ, one address a line\n"
		"encode --bench: time the encoder alone (records kept in memory first)\n"
		"record --max-instructions N: stop QEMU after N instructions\n"
		"record --plugin [--plugin-path SO]: the TCG plugin trace source (fast, no --context);\n"
		"       --stop-at ADDR: end before ADDR's first execution; with --src-bits N one\n"
		"       encoder per hart (SRC = hart), A.<hart> and T.ntr.code.<hart> per hart\n"
		"decode --src K: only hart K's messages\n"
		"decode, stats, profile: without --cfg or --mode, trTeInstMode comes from the\n"
		"       stream (HIST messages: HTM; DirectBranch: BTM); counts wider than the\n"
		"       spec's limits (real encoders send them) are accepted up to 32 bits with a\n"
		"       warning (--lenient, the default), --strict refuses them\n");
	exit(2);
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
			o->mode_set = true;
			trace_cfg.trTeInstMode = !strcmp(v, "htm") ? NTRACE_INST_MODE_HTM :
					   !strcmp(v, "btm") ? NTRACE_INST_MODE_BTM : 0;
		} else if (!strcmp(a, "--implicit-return")) {
			NEEDV();
			trace_cfg.trTeInstImplicitReturnMode = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--stack-depth")) {
			NEEDV();
			trace_cfg.ret_stack_depth = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--repeat-history")) {
			trace_cfg.trTeInstEnRepeatedHistory = true;
		} else if (!strcmp(a, "--repeat-branch")) {
			trace_cfg.repeat_branch = true;
		} else if (!strcmp(a, "--sync-mode")) {
			NEEDV();
			trace_cfg.trTeInstSyncMode = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--sync-max")) {
			NEEDV();
			trace_cfg.trTeInstSyncMax = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--icnt-limit")) {
			NEEDV();
			trace_cfg.icnt_limit = (uint32_t)strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--hist-bits")) {
			NEEDV();
			trace_cfg.hist_bits = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--tstamp")) {
			trace_cfg.trTsEnable = true;
		} else if (!strcmp(a, "--src-bits")) {
			NEEDV();
			trace_cfg.trTeSrcBits = (uint8_t)atoi(v);
		} else if (!strcmp(a, "--src-id")) {
			NEEDV();
			trace_cfg.trTeSrcID = (uint16_t)atoi(v);
		} else if (!strcmp(a, "--ext-addr")) {
			trace_cfg.trTeInstExtendAddrMSB = true;
		} else if (!strcmp(a, "--sequential-jump")) {
			trace_cfg.trTeInstEnSequentialJump = true;
		} else if (!strcmp(a, "--all-jumps")) {
			trace_cfg.trTeInstEnAllJumps = true;
		} else if (!strcmp(a, "--icnt-full-sync")) {
			trace_cfg.icnt_full_sync = true;
		} else if (!strcmp(a, "--context")) {
			trace_cfg.trTeContext = true;
		} else if (!strcmp(a, "--xlen")) {
			NEEDV();
			trace_cfg.xlen = (uint8_t)atoi(v);
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
			o->mode_set = true;
		} else if (!strcmp(a, "--format")) {
			NEEDV();
			if (addr_format_parse(v, &o->format)) {
				fprintf(stderr, "tally-trace: --format %s: hex, pconly or pcseq\n", v);
				exit(2);
			}
		} else if (!strcmp(a, "--strict")) {
			o->strict = true;
		} else if (!strcmp(a, "--lenient")) {
			o->strict = false;
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
		trace_cfg.xlen = (uint8_t)image_xlen;
	if (ntrace_config_check(&trace_cfg)) {
		fprintf(stderr, "tally-trace: invalid trace controls\n");
		exit(2);
	}
}

double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- output buffer ---------------------------------------------------------------- */

void obuf_sink(void *ctx, const uint8_t *bytes, size_t n)
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

uint8_t *read_file(const char *path, size_t *len)
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


int main(int argc, char **argv)
{
	struct opts o = { .src = -1 };
	const char *cmd;

	if (argc < 2)
		usage();
	cmd = argv[1];
	ntrace_config_default(&trace_cfg);
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
