/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tally-trace: what the host tool's files share.
 *
 *   tally-trace.c          main, options (the trace controls they set)
 *   tally-trace-usage.c    the help text (usage)
 *   tally-trace-util.c     files, clocks, the output buffer (fuzz targets link it)
 *   tally-trace-cfg.c      the side file T.ntr.cfg (trace controls by name)
 *   tally-trace-encode.c   the ingress port from executed instructions
 *   tally-trace-input.c    the logs it reads: QEMU, Spike, PCSEQ, PCONLY; encode
 *   tally-trace-output.c   the addresses it writes: hex, PCONLY, PCSEQ
 *   tally-trace-record.c   record: QEMU under a FIFO, the plugin stream, harts
 *   tally-trace-dump.c     dump
 *   tally-trace-decode.c   decode (and the decoding that stats/profile share)
 *   tally-trace-stats.c    stats
 *   tally-trace-profile.c  profile (functions, SBI calls)
 *   tally-trace-flame.c    the profile's flame graph (SVG)
 *   tally-trace-image.c    the code: segments, raw binaries, captured words
 *   tally-trace-elf.c      ELF files, checked before they are read, and loaded
 */
#ifndef TALLY_TRACE_TOOL_H
#define TALLY_TRACE_TOOL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <tally/ntrace.h>

/* ---- tally-trace.c and tally-trace-util.c: options and helpers ------------- */

/* Executed addresses out (tally-trace-output.c): 80000000, 0x80000000, PCSEQ */
enum addr_format { ADDR_HEX, ADDR_PCONLY, ADDR_PCSEQ };

/* The trace controls in use: defaults, then the side file, then options. */
extern struct ntrace_config trace_cfg;

/*
 * encode, record: --and starts one more encoder of the same instructions,
 * with its own trace controls (from the defaults) and -o.
 */
#define MAX_MORE_ENCODERS 31
struct more_encoder {
	struct ntrace_config cfg;
	const char *out;
};

struct opts {
	const char *out, *addresses, *svg, *cfgfile, *code, *input;
	struct more_encoder more[MAX_MORE_ENCODERS];	/* --and */
	int nmore;
	const char *plugin;	/* record: the TCG plugin trace source */
	bool symbols, quiet, bench;
	bool strict;		/* decode: refuse counts wider than chapter 6's limits */
	enum addr_format format;	/* of decode's output and --addresses */
	bool mode_set;		/* --mode or --cfg: trTeInstMode is not detected */
	uint64_t max_instructions;
	uint64_t stop_at;	/* record --plugin: stop at this address's first execution */
	bool has_stop_at;
	int src;		/* decode: only messages with this SRC (-1: all) */
	char **qemu;
	int nelf;
};

void usage(void);
double now_s(void);
double cpu_s(void);	/* this process's CPU time */
/* Opens path for writing with a large buffer; exits with a message if not. */
FILE *open_out(const char *path);
uint8_t *read_file(const char *path, size_t *len);

/* A growing byte buffer: the encoder's sink. */
struct obuf {
	uint8_t *b;
	size_t n, cap;
};
void obuf_sink(void *ctx, const uint8_t *bytes, size_t n);

/* ---- tally-trace-output.c: executed addresses out ------------------------- */

struct addr_out {
	FILE *f;
	enum addr_format format;
	unsigned xlen;
	char *buf;
	size_t n;
	bool error;
	/* pcseq: the previous instruction, typed when the next is known */
	bool have_prev, prev_trapped;
	uint64_t prev_pc;
	struct ntrace_insn prev_in;
};

/* "hex", "pconly" or "pcseq": 0, else -1. */
int addr_format_parse(const char *name, enum addr_format *f);
void addr_out_init(struct addr_out *a, FILE *f, enum addr_format format, unsigned xlen);
void addr_out_put(struct addr_out *a, uint64_t pc, const struct ntrace_insn *in, bool trapped);
int addr_out_finish(struct addr_out *a);

/* ---- tally-trace-cfg.c: the side file ------------------------------------ */

int save_cfg(const char *path);
int save_cfg_of(const struct ntrace_config *cfg, const char *path);
/* Reads a side file into trace_cfg; exits with the line at fault if it is wrong. */
void load_cfg(const char *path);
/* cfg as a side file's text: the length it needs (as snprintf). */
int cfg_format_text(const struct ntrace_config *cfg, char *out, size_t cap);
/* A side file's text into cfg: 0; 1 with a warning in err; -1 with the error. */
int cfg_parse_text(const char *text, size_t n, struct ntrace_config *cfg, char *err, size_t cap);
/* Sets a control by name within its valid values: 0, or -1 with why in err. */
int set_control_checked(struct ntrace_config *cfg, const char *name, uint64_t v, char *err,
			size_t cap);
/* "hist_bits=258 (valid: 2..32)" */
int config_fault_text(const struct ntrace_config_fault *f, char *out, size_t cap);
/* A whole unsigned decimal or 0x number (surrounding blanks allowed): 0, else -1. */
int parse_number(const char *s, uint64_t *v);

/* ---- tally-trace-encode.c: executed instructions to ingress records ------ */

struct feeder {
	struct ntrace_encoder enc;
	struct obuf out;
	/* --and: the other encoders, each retiring every record enc does */
	struct feeder_more {
		struct ntrace_encoder enc;
		struct obuf out;
	} *more;
	int nmore;
	struct addr_out *addresses;	/* --addresses */
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

void feeder_init(struct feeder *fd, const struct opts *o);
struct addr_out *open_addresses(const char *path, const struct opts *o);
int close_addresses(struct addr_out *a);
/* One executed instruction; in: its classification if known (else the image's) */
void feed_insn(struct feeder *fd, uint64_t pc, uint8_t priv, const struct ntrace_insn *in);
void feed(struct feeder *fd, uint64_t pc, uint8_t priv);
/* The last instructions, then ProgTraceCorrelation. */
void feed_end(struct feeder *fd);
/* Ends the trace and writes T.ntr, T.ntr.cfg, T.ntr.code. */
int feeder_finish(struct feeder *fd, const struct opts *o, double secs);
/* QEMU "Stopped execution of TB chain before X": X did not run. */
void unfeed(struct feeder *fd, uint64_t pc);

/* ---- tally-trace-input.c: logs, PCSEQ, PCONLY --------------------------------- */

/* Feeds every line of a log (up to max instructions, 0: all): 0, or 2 after
 * saying what is wrong with the input (name: for messages). */
int read_log(struct feeder *fd, FILE *in, const char *name, uint64_t max);

/* ---- tally-trace-decode.c: decoding a stream file ------------------------ */

struct profile;

struct decode_ctx {
	struct addr_out *out;	/* the addresses (not --symbols) */
	FILE *symbols_out;	/* --symbols */
	bool symbols;
	const char *last_name;
	uint64_t count;		/* instructions executed so far */
	bool words_pending;
	uint64_t next_change;	/* index of the next captured code change */
	int priv, prev_priv;	/* from Ownership messages; -1 unknown */
	/* profile: every executed instruction goes to exec instead of out
	 * (tally-trace-profile.c sets both: decoding knows no profile) */
	struct profile *profile;
	void (*exec)(struct decode_ctx *c, uint64_t pc, const char *name);
	struct ntrace_decoder *dec;
	const char *file;	/* the stream's name, for messages */
	uint64_t errors_shown;	/* decode errors seen (the first few printed) */
};

int decode_file(const struct opts *o, struct decode_ctx *c, struct ntrace_decoder *d,
		size_t *bytes, double *secs);
/* A fault as text: where (byte, message, TCODE) and what (error, field=value, PC). */
int fault_where(const struct ntrace_fault *f, char *out, size_t cap);
int fault_what(const struct ntrace_fault *f, bool lenient, char *out, size_t cap);

/* ---- tally-trace-flame.c: flame graph ------------------------------------- */

struct flame;
struct flame *flame_new(void);
void flame_add(struct flame *fl, const char *const *stack, int depth, uint64_t n);
int flame_write(struct flame *fl, const char *path, const char *title);
void flame_free(struct flame *fl);

/* ---- subcommands ------------------------------------------------------------ */

int cmd_record(struct opts *o);
int cmd_encode(struct opts *o);		/* tally-trace-input.c */
int cmd_dump(struct opts *o);
int cmd_decode(struct opts *o);
int cmd_stats(struct opts *o);
int cmd_profile(struct opts *o);

/* ---- tally-trace-image.c: the code ---------------------------------------- */

extern unsigned image_xlen;
int image_load_raw(const char *path, uint64_t base);
int image_load_words(const char *path);
int image_save_words(const char *path);
void image_add_word(uint64_t addr, uint32_t word, unsigned len);
void image_apply_words(uint64_t index);
size_t image_changes(void);
uint64_t image_next_change(void);
bool image_words_pending(void);
extern uint64_t image_word_index;	/* index of the next instruction (record) */
bool image_covers(uint64_t addr);
const struct ntrace_insn *image_lookup(void *ctx, uint64_t addr);
const struct ntrace_insn *image_range(void *ctx, uint64_t addr, uint64_t *base, uint64_t *end);
const char *image_symbol(uint64_t addr, uint64_t *start);
/* For the ELF loader: a segment to fill, a code symbol, then sort them. */
uint8_t *image_add_segment(uint64_t base, uint64_t size);
void image_add_symbol(uint64_t addr, uint64_t size, const char *name);
void image_sort_symbols(void);
void image_reset(void);

/* ---- tally-trace-elf.c ------------------------------------------------------ */

/* An ELF file's bytes: checked whole, then its PT_LOAD segments (code) and
 * code symbols added to the image.  0, or -1 with what is wrong in err. */
int elf_load(const uint8_t *b, size_t n, bool code, char *err, size_t cap);
/* An ELF file by path into the image: code (segments, XLEN and symbols), or
 * its symbols only (code that changes at run time, Linux). */
int image_load_elf(const char *path);
int image_load_symbols(const char *path);

#endif
