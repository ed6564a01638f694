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
 * small helpers; each subcommand has its own file (tally-trace.h lists them),
 * the help text too (tally-trace-usage.c), so that no subcommand calls back
 * into this file.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

/* ---- options ------------------------------------------------------------------- */

static void option_error(const char *option, const char *value, const char *why)
{
	fprintf(stderr, "tally-trace: %s %s: %s\n", option, value, why);
	exit(2);
}

/* --elf, --syms, --code, --raw FILE@ADDR: the loaders say what is wrong. */
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
		uint64_t base;

		if (!at || !path)
			option_error(kind, arg, "FILE@ADDRESS");
		if (parse_number(at + 1, &base) || (base & 1))
			option_error(kind, arg, "the address is not an even whole number");
		path[at - arg] = 0;
		rc = image_load_raw(path, base);
		free(path);
	}
	if (rc)
		exit(2);
}

/* Options that set a trace control: with a value, or a flag (set to 1). */
struct control_option {
	const char *option, *control;
	bool value;
};

static const struct control_option control_options[] = {
	{ "--implicit-return", "trTeInstImplicitReturnMode", true },
	{ "--stack-depth", "ret_stack_depth", true },
	{ "--repeat-history", "trTeInstEnRepeatedHistory", false },
	{ "--repeat-branch", "repeat_branch", false },
	{ "--sync-mode", "trTeInstSyncMode", true },
	{ "--sync-max", "trTeInstSyncMax", true },
	{ "--icnt-limit", "icnt_limit", true },
	{ "--hist-bits", "hist_bits", true },
	{ "--tstamp", "trTsEnable", false },
	{ "--src-bits", "trTeSrcBits", true },
	{ "--src-id", "trTeSrcID", true },
	{ "--ext-addr", "trTeInstExtendAddrMSB", false },
	{ "--sequential-jump", "trTeInstEnSequentialJump", false },
	{ "--all-jumps", "trTeInstEnAllJumps", false },
	{ "--icnt-full-sync", "icnt_full_sync", false },
	{ "--context", "trTeContext", false },
	{ "--xlen", "xlen", true },
};

static const struct control_option *control_option(const char *option)
{
	for (size_t i = 0; i < sizeof(control_options) / sizeof(control_options[0]); i++)
		if (!strcmp(option, control_options[i].option))
			return &control_options[i];
	return NULL;
}

/* An option's number, whole (decimal or 0x): exits naming the option if not. */
static uint64_t option_number(const char *option, const char *value)
{
	uint64_t v;

	if (parse_number(value, &v))
		option_error(option, value, "not a whole number (decimal or 0x hex)");
	return v;
}

static void set_control_option(struct ntrace_config *cfg, const char *option,
			       const struct control_option *c, const char *v)
{
	char err[160];

	if (set_control_checked(cfg, c->control, c->value ? option_number(option, v) : 1,
				err, sizeof(err)))
		option_error(option, c->value ? v : "", err);
}

/* Exits saying why controls cannot be used (which: "" or " of encoder N"). */
static void check_controls(const struct ntrace_config *cfg, const struct opts *o, const char *which)
{
	struct ntrace_config_fault fault;
	char why[160];

	if (!ntrace_config_explain(cfg, &fault))
		return;
	config_fault_text(&fault, why, sizeof(why));
	fprintf(stderr, "tally-trace: invalid trace controls%s: %s%s\n", which, why,
		o->nelf && fault.control == ntrace_control_find("xlen") ? " (from the ELF files)" : "");
	exit(2);
}

/*
 * --and: more encoders are for encode and record (not --bench), and each
 * encoder has its own -o; those after the first get the ELF files' xlen.
 */
static void check_more_encoders(struct opts *o, const char *cmd)
{
	char which[32];

	if (o->nmore && ((strcmp(cmd, "record") && strcmp(cmd, "encode")) || o->bench)) {
		fprintf(stderr, "tally-trace: --and: more than one encoder is for encode and "
			"record, without --bench\n");
		exit(2);
	}
	if (o->nmore && !o->out) {
		fprintf(stderr, "tally-trace: --and: encoder 1 has no -o\n");
		exit(2);
	}
	for (int i = 0; i < o->nmore; i++) {
		snprintf(which, sizeof(which), " of encoder %d", i + 2);
		if (!o->more[i].out) {
			fprintf(stderr, "tally-trace: --and: encoder %d has no -o\n", i + 2);
			exit(2);
		}
		if (o->nelf)
			o->more[i].cfg.xlen = (uint8_t)image_xlen;
		check_controls(&o->more[i].cfg, o, which);
	}
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	struct ntrace_config *cfg = &trace_cfg;	/* the controls of the encoder being read */
	const struct control_option *c;
	char *cfgfile = NULL, *end;

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
		} else if (!strcmp(a, "--and")) {
			if (o->nmore == MAX_MORE_ENCODERS)
				option_error(a, "", "at most 32 encoders");
			cfg = &o->more[o->nmore++].cfg;
			ntrace_config_default(cfg);
		} else if (!strcmp(a, "--mode")) {
			NEEDV();
			o->mode_set = true;
			if (strcmp(v, "btm") && strcmp(v, "htm"))
				option_error(a, v, "btm or htm");
			cfg->trTeInstMode = !strcmp(v, "htm") ? NTRACE_INST_MODE_HTM :
							       NTRACE_INST_MODE_BTM;
		} else if ((c = control_option(a))) {
			if (c->value)
				NEEDV();
			set_control_option(cfg, a, c, v);
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
			if (o->nmore)
				o->more[o->nmore - 1].out = v;
			else
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
			o->max_instructions = option_number(a, v);
		} else if (!strcmp(a, "--src")) {
			NEEDV();
			if (option_number(a, v) >= 1u << NTRACE_MAX_SRC)
				option_error(a, v, "a SRC is 0..4095");
			o->src = (int)option_number(a, v);
		} else if (!strcmp(a, "--stop-at")) {
			NEEDV();
			o->stop_at = strtoull(v, &end, 16);
			if (end == v || *end)
				option_error(a, v, "not a hex address");
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
	check_controls(&trace_cfg, o, "");
	check_more_encoders(o, argv[1]);
	if (o->src >= 0 && ntrace_src_bits(&trace_cfg) && o->src >> ntrace_src_bits(&trace_cfg)) {
		fprintf(stderr, "tally-trace: --src %d: above the %u-bit SRC field (trTeSrcBits)\n",
			o->src, ntrace_src_bits(&trace_cfg));
		exit(2);
	}
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
