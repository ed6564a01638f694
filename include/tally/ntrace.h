/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RISC-V N-Trace (Nexus-based trace), ratified 1.0: message layer, encoder
 * and decoder.  Freestanding C: no libc, no allocation; the caller owns every
 * buffer and state structure.  Names of controls and fields are the spec's
 * (trTe... controls of chapter 4, TCODE/I-CNT/U-ADDR/... of chapter 6).
 *
 * lib/ntrace is a host/tool library: it is NOT linked into the firmware images.
 */
#ifndef TALLY_NTRACE_H
#define TALLY_NTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- Chapter 3: framing -------------------------------------------------- */
#define NTRACE_MDO_BITS		6
#define NTRACE_MSEO_NORMAL	0u	/* first byte / middle of a field */
#define NTRACE_MSEO_END_VAR	1u	/* last byte of a variable-length field */
#define NTRACE_MSEO_RESERVED	2u
#define NTRACE_MSEO_END_MSG	3u	/* last byte of a message (or idle) */
#define NTRACE_IDLE		0xffu
/* The spec's longest standard message is 38 bytes; the parser accepts more
 * (some encoders send non-minimal fields) but never more than this. */
#define NTRACE_MAX_MSG_BYTES	64

/* Chapter 6 field limits */
#define NTRACE_MAX_SRC		12
#define NTRACE_MAX_ICNT		22
#define NTRACE_MAX_ADDR		63
#define NTRACE_MAX_HIST		32
#define NTRACE_MAX_TSTAMP	64
#define NTRACE_MAX_HREPEAT	18
#define NTRACE_MAX_BCNT		18
/*
 * "[The limits] help to write efficient decoding software but [do] not limit
 * hardware in any way" (chapter 6): real encoders send wider counts (the
 * reference encoder an I-CNT of 26 bits).  A lenient decoder accepts I-CNT,
 * HREPEAT and B-CNT up to this width (a 32-bit counter), never wider.
 */
#define NTRACE_LENIENT_BITS	32

/* --- Chapter 6/7: message types ------------------------------------------ */
enum ntrace_tcode {
	NTRACE_TCODE_OWNERSHIP			= 2,
	NTRACE_TCODE_DIRECT_BRANCH		= 3,
	NTRACE_TCODE_INDIRECT_BRANCH		= 4,
	NTRACE_TCODE_ERROR			= 8,
	NTRACE_TCODE_PROG_TRACE_SYNC		= 9,
	NTRACE_TCODE_DIRECT_BRANCH_SYNC		= 11,
	NTRACE_TCODE_INDIRECT_BRANCH_SYNC	= 12,
	NTRACE_TCODE_RESOURCE_FULL		= 27,
	NTRACE_TCODE_INDIRECT_BRANCH_HIST	= 28,
	NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC	= 29,
	NTRACE_TCODE_REPEAT_BRANCH		= 30,
	NTRACE_TCODE_PROG_TRACE_CORRELATION	= 33,
};

/* B-TYPE: reason of an indirect flow change */
enum ntrace_btype {
	NTRACE_BTYPE_INDIRECT	= 0,	/* indirect jump, call, return, trap return */
	NTRACE_BTYPE_TRAP	= 1,	/* exception or interrupt (not told apart) */
	NTRACE_BTYPE_EXCEPTION	= 2,
	NTRACE_BTYPE_INTERRUPT	= 3,
};

/* SYNC: reason for synchronization */
enum ntrace_sync {
	NTRACE_SYNC_EXT_TRIGGER		= 0,
	NTRACE_SYNC_RESET		= 1,
	NTRACE_SYNC_PERIODIC		= 2,
	NTRACE_SYNC_DEBUG_EXIT		= 3,
	NTRACE_SYNC_ICNT		= 4,	/* Sequential Instruction Counter */
	NTRACE_SYNC_TRACE_ENABLE	= 5,
	NTRACE_SYNC_TRACE_EVENT		= 6,
	NTRACE_SYNC_FIFO_OVERRUN	= 7,
	NTRACE_SYNC_POWER_DOWN_EXIT	= 9,
};

/* RCODE of ResourceFull */
enum ntrace_rcode {
	NTRACE_RCODE_ICNT	= 0,	/* RDATA = I-CNT */
	NTRACE_RCODE_HIST	= 1,	/* RDATA = HIST */
	NTRACE_RCODE_HREPEAT	= 2,	/* RDATA = HIST, HREPEAT = repeat count */
};

/* EVCODE of ProgTraceCorrelation (values used by the spec's examples) */
#define NTRACE_EVCODE_DEBUG_ENTRY	0
#define NTRACE_EVCODE_TRACE_DISABLED	4

/*
 * Ownership PROCESS = {CONTEXT, V, PRV[1:0], FORMAT[1:0]}: the one
 * definition of its layout, for the encoder, the decoder, the message
 * printer and the tool.  "vpriv" is {V, PRV[1:0]}, the privilege as the
 * encoder and decoder keep it (V << 2 | PRV).
 */
#define NTRACE_PROCESS_FORMAT_PRIV	0	/* V and/or PRV change */
#define NTRACE_PROCESS_FORMAT_SCONTEXT	2
#define NTRACE_PROCESS_FORMAT_HCONTEXT	3
#define NTRACE_PROCESS_FORMAT_MASK	0x3u
#define NTRACE_PROCESS_PRV_SHIFT	2
#define NTRACE_PROCESS_PRV_MASK		0x3u
#define NTRACE_PROCESS_V_SHIFT		4
#define NTRACE_PROCESS_VPRIV_MASK	0x7u	/* {V, PRV} from PRV_SHIFT on */
#define NTRACE_PROCESS_CONTEXT_SHIFT	5

static inline uint64_t ntrace_process_make(unsigned format, unsigned vpriv, uint64_t context)
{
	return context << NTRACE_PROCESS_CONTEXT_SHIFT |
	       (uint64_t)(vpriv & NTRACE_PROCESS_VPRIV_MASK) << NTRACE_PROCESS_PRV_SHIFT |
	       (format & NTRACE_PROCESS_FORMAT_MASK);
}

static inline unsigned ntrace_process_format(uint64_t process)
{
	return (unsigned)(process & NTRACE_PROCESS_FORMAT_MASK);
}

static inline unsigned ntrace_process_prv(uint64_t process)
{
	return (unsigned)(process >> NTRACE_PROCESS_PRV_SHIFT & NTRACE_PROCESS_PRV_MASK);
}

static inline unsigned ntrace_process_v(uint64_t process)
{
	return (unsigned)(process >> NTRACE_PROCESS_V_SHIFT & 1);
}

static inline unsigned ntrace_process_vpriv(uint64_t process)
{
	return (unsigned)(process >> NTRACE_PROCESS_PRV_SHIFT & NTRACE_PROCESS_VPRIV_MASK);
}

static inline uint64_t ntrace_process_context(uint64_t process)
{
	return process >> NTRACE_PROCESS_CONTEXT_SHIFT;
}

/* One message, every field of every TCODE (only those of m->tcode matter). */
struct ntrace_msg {
	uint8_t  tcode;
	uint8_t  sync;		/* SYNC[4] */
	uint8_t  btype;		/* B-TYPE[2] */
	uint8_t  etype;		/* ETYPE[4] (Error) */
	uint8_t  rcode;		/* RCODE[4] (ResourceFull) */
	uint8_t  evcode;	/* EVCODE[4] (ProgTraceCorrelation) */
	uint8_t  cdf;		/* CDF[2]: 0 = I-CNT only, 1 = I-CNT and HIST */
	bool     has_tstamp;
	uint16_t src;		/* SRC[trTeSrcBits] */
	uint64_t process;	/* PROCESS (Ownership) */
	uint64_t icnt;		/* I-CNT */
	uint64_t addr;		/* F-ADDR or U-ADDR: address bits 63..1 (as sent,
				   after trTeInstExtendAddrMSB extension) */
	uint64_t hist;		/* HIST, with its stop bit */
	uint64_t ecode;		/* ECODE (Error) */
	uint64_t rdata;		/* RDATA[0] (ResourceFull) */
	uint64_t hrepeat;	/* HREPEAT = RDATA[1] (RCODE=2) */
	uint64_t bcnt;		/* B-CNT (RepeatBranch) */
	uint64_t tstamp;	/* TSTAMP (absolute on sync messages, else relative) */
};

/* --- Chapter 4: trace controls (and this implementation's limits) -------- */
#define NTRACE_INST_MODE_BTM	3	/* trTeInstMode: Branch Trace Messaging */
#define NTRACE_INST_MODE_HTM	6	/* trTeInstMode: History Trace Messaging */

/* trTeInstSyncMode (interval 2^(trTeInstSyncMax + 4)) */
#define NTRACE_SYNC_MODE_OFF		0
#define NTRACE_SYNC_MODE_MESSAGES	1	/* count emitted messages */
#define NTRACE_SYNC_MODE_CYCLES		2	/* no clock here: counts I-CNT units */
#define NTRACE_SYNC_MODE_ICNT		3	/* count instruction halfwords */

struct ntrace_config {
	uint8_t  trTeInstMode;			/* NTRACE_INST_MODE_BTM/HTM */
	bool     trTeContext;			/* Ownership messages */
	bool     trTeInhibitSrc;		/* no SRC field even if trTeSrcBits */
	uint8_t  trTeSrcBits;			/* SRC width, 0..12 */
	uint16_t trTeSrcID;
	uint8_t  trTeInstSyncMode;
	uint8_t  trTeInstSyncMax;
	uint8_t  trTeInstImplicitReturnMode;	/* 0 off, 1 count, 2 partial, 3 full */
	bool     trTeInstEnRepeatedHistory;	/* ResourceFull RCODE=2 (HREPEAT) */
	bool     trTeInstExtendAddrMSB;		/* skip identical MSBs of addresses */
	bool     trTeInstEnSequentialJump;	/* LUI/C.LUI/AUIPC + indirect jump
						   pair: target inferable */
	bool     trTeInstEnAllJumps;		/* direct jumps are taken branches
						   (itype 5): DirectBranch in BTM,
						   a HIST bit in HTM */
	bool     trTsEnable;			/* TSTAMP fields */
	/* Implementation parameters (not trace controls). */
	bool     repeat_branch;			/* RepeatBranch (B-CNT) messages */
	bool     icnt_full_sync;		/* I-CNT full: ProgTraceSync SYNC=4
						   (Sequential Instruction Counter)
						   instead of ResourceFull RCODE=0;
						   BTM only (refused in HTM) */
	uint8_t  xlen;				/* 32 or 64 */
	uint8_t  ret_stack_depth;		/* implicit-return stack, 1..32 */
	uint32_t icnt_limit;			/* I-CNT full when it reaches this */
	uint8_t  hist_bits;			/* widest HIST field, with its stop bit, 2..32 */
	uint32_t hrepeat_max;			/* HREPEAT counter limit */
	uint32_t bcnt_max;			/* B-CNT counter limit */
};

/* Defaults: BTM, no optimisations, 64-bit, SRC off, no timestamps. */
void ntrace_config_default(struct ntrace_config *cfg);
/* 0 if usable, else a negative NTRACE_E_* code. */
int ntrace_config_check(const struct ntrace_config *cfg);

/*
 * Every control (and implementation parameter) of struct ntrace_config by
 * name, with its valid values: the side file's names.
 */
struct ntrace_control {
	const char *name;	/* the spec's name (or this implementation's) */
	uint16_t offset;	/* in struct ntrace_config */
	uint8_t size;		/* 1, 2 or 4 bytes; 0: a bool */
	uint32_t min, max;	/* valid values */
	const char *values;	/* the valid values when not all of min..max, or NULL */
};
extern const struct ntrace_control ntrace_controls[];
extern const unsigned ntrace_ncontrols;
const struct ntrace_control *ntrace_control_find(const char *name);
uint64_t ntrace_control_get(const struct ntrace_config *cfg, const struct ntrace_control *c);
/* NTRACE_OK, or NTRACE_E_CONFIG (cfg unchanged) when v is not min..max:
 * never cut to the field's width. */
int ntrace_control_set(struct ntrace_config *cfg, const struct ntrace_control *c, uint64_t v);

/* Why a configuration is not usable: the control, its value, what it may be. */
struct ntrace_config_fault {
	const struct ntrace_control *control;
	uint64_t value;
	const char *why;	/* the rule broken; NULL: not in min..max */
};
/* As ntrace_config_check, saying which control is at fault in *f. */
int ntrace_config_explain(const struct ntrace_config *cfg, struct ntrace_config_fault *f);
/* SRC field width in messages (0 if not sent). */
unsigned ntrace_src_bits(const struct ntrace_config *cfg);

/* --- Errors --------------------------------------------------------------- */
enum ntrace_error {
	NTRACE_OK		= 0,
	NTRACE_END		= 1,	/* parser: no more messages */
	NTRACE_E_TRUNCATED	= -1,	/* stream ends inside a message */
	NTRACE_E_MSEO		= -2,	/* reserved MSEO value or sequence */
	NTRACE_E_TOO_LONG	= -3,	/* message or field beyond the limits */
	NTRACE_E_LAYOUT		= -4,	/* fields do not match the TCODE */
	NTRACE_E_TCODE		= -5,	/* reserved or vendor-defined TCODE */
	NTRACE_E_SPACE		= -6,	/* output buffer too small */
	NTRACE_E_CONFIG		= -7,	/* invalid trace controls */
	NTRACE_E_NO_CODE	= -8,	/* decoder: no instruction at the PC */
	NTRACE_E_ICNT		= -9,	/* decoder: I-CNT does not match the code */
	NTRACE_E_HIST		= -10,	/* decoder: HIST does not match the code */
	NTRACE_E_UNINFERABLE	= -11,	/* decoder: indirect jump inside I-CNT */
	NTRACE_E_NOT_BRANCH	= -12,	/* decoder: DirectBranch not at a branch */
	NTRACE_E_STACK		= -13,	/* decoder: implicit return, empty stack */
	NTRACE_E_LOST		= -14,	/* decoder: Error message (trace lost) */
	NTRACE_E_FIELD		= -15,	/* encoder: field value out of range */
	NTRACE_E_WIDE		= -16,	/* decoder: a count wider than chapter 6's
					   limit (or, lenient, than NTRACE_LENIENT_BITS) */
};
const char *ntrace_strerror(int err);
const char *ntrace_tcode_name(unsigned tcode);

/*
 * Where and why a stream failed, as the parser and the decoder report it:
 * the byte offset, the message's number, the field at fault and its value.
 */
struct ntrace_fault {
	int err;		/* NTRACE_E_* (NTRACE_OK: none yet) */
	uint64_t offset;	/* byte offset in the stream (of the byte at fault
				   for a framing error, else of the message) */
	uint64_t msg;		/* message number in the stream, from 1 (0: not
				   from a stream: ntrace_dec_msg called alone) */
	int tcode;		/* the message's TCODE, -1 if unknown */
	const char *field;	/* the field at fault as the spec names it ("I-CNT",
				   "HIST", "MSEO"...), NULL if no single field */
	uint64_t value;		/* the field's value (or what err says it is) */
	bool has_pc;		/* decoder: pc is where the walk stopped */
	uint64_t pc;
};

/* --- Message encoding and parsing ------------------------------------------ */
/* Encodes m (fields of m->tcode) into out; returns the byte count, or a
 * negative NTRACE_E_* code (nothing useful written). */
int ntrace_msg_encode(const struct ntrace_config *cfg, const struct ntrace_msg *m,
		      uint8_t *out, size_t cap);

struct ntrace_parser {
	const struct ntrace_config *cfg;
	const uint8_t *buf;
	size_t len;
	size_t pos;		/* next byte to read */
	size_t msg_start;	/* offset of the last message (or error) */
	size_t msg_len;
	uint64_t messages, errors, idle_bytes;
	struct ntrace_fault fault;	/* the last error (msg = messages + errors) */
};
void ntrace_parser_init(struct ntrace_parser *p, const struct ntrace_config *cfg,
			const uint8_t *buf, size_t len);
/* Next message: NTRACE_OK (m filled), NTRACE_END, or a negative error after
 * which the parser has already skipped to the next message boundary (so the
 * caller may simply continue).  Never reads outside buf[0..len). */
int ntrace_parse_next(struct ntrace_parser *p, struct ntrace_msg *m);
/* Parses exactly one message from bytes[0..n) (last byte must end it). */
int ntrace_msg_parse(const struct ntrace_config *cfg, const uint8_t *bytes, size_t n,
		     struct ntrace_msg *m);
/* One line naming every field of m as the spec names it; returns length. */
int ntrace_msg_format(const struct ntrace_config *cfg, const struct ntrace_msg *m,
		      char *out, size_t cap);
/* True for messages with a SYNC field (they carry F-ADDR). */
bool ntrace_tcode_is_sync(unsigned tcode);

/*
 * trTeInstMode from a stream: HTM sends HIST (IndirectBranchHist(Sync),
 * ResourceFull RCODE=1 or 2, ProgTraceCorrelation CDF=1) where BTM sends
 * DirectBranch(Sync).  cfg gives the other controls (SRC width) to parse
 * with.  Returns NTRACE_INST_MODE_HTM or _BTM when the stream has only one
 * kind, 0 when it has neither (no conditional branch to tell: both modes
 * decode it alike), -1 when it has both (not one encoder's stream).
 */
struct ntrace_mode_evidence {
	uint64_t hist_msgs, direct_msgs;	/* messages with HIST; DirectBranch(Sync) */
	uint64_t first_hist, first_direct;	/* byte offset of the first of each */
	uint8_t hist_tcode;			/* the TCODE of the first with HIST */
};
int ntrace_stream_mode(const struct ntrace_config *cfg, const uint8_t *buf, size_t len,
		       struct ntrace_mode_evidence *ev);

/* --- Chapter 2: ingress port (one retired instruction per record) -------- */
enum ntrace_itype {
	NTRACE_ITYPE_NONE		= 0,
	NTRACE_ITYPE_EXCEPTION		= 1,	/* this instruction trapped: not retired */
	NTRACE_ITYPE_INTERRUPT		= 2,	/* retired, then an interrupt was taken */
	NTRACE_ITYPE_TRAP_RETURN	= 3,	/* MRET, SRET */
	NTRACE_ITYPE_BRANCH_NOT_TAKEN	= 4,
	NTRACE_ITYPE_BRANCH_TAKEN	= 5,
	NTRACE_ITYPE_INDIRECT_JUMP	= 6,	/* 3-bit ingress port */
	NTRACE_ITYPE_INDIRECT_CALL	= 8,
	NTRACE_ITYPE_DIRECT_CALL	= 9,
	NTRACE_ITYPE_INDIRECT_JUMP_NL	= 10,	/* without linkage */
	NTRACE_ITYPE_DIRECT_JUMP_NL	= 11,
	NTRACE_ITYPE_COROUTINE_SWAP	= 12,
	NTRACE_ITYPE_RETURN		= 13,
	NTRACE_ITYPE_INDIRECT_JUMP_L	= 14,	/* other, with linkage */
	NTRACE_ITYPE_DIRECT_JUMP_L	= 15,
};

/* Record flags */
#define NTRACE_REC_TRAP_CAUSE_UNKNOWN	0x1	/* the trap after this instruction
						   has a cause the source cannot
						   tell: B-TYPE=1 instead of 3 */
#define NTRACE_REC_TRAP_AFTER		0x2	/* this (retired, not indirect)
						   instruction of any itype was
						   followed by a trap, as itype
						   INTERRUPT says for plain ones */
#define NTRACE_REC_SEQ_INFERABLE	0x4	/* this indirect jump's rs1 was
						   written by the LUI/C.LUI/AUIPC
						   retired just before it (the
						   hart's "sequentially
						   inferable" signal, ch. 9) */

struct ntrace_ingress {
	uint64_t addr;		/* instruction address */
	uint64_t tstamp;	/* time of retirement (when trTsEnable) */
	uint8_t  ilen;		/* 2 or 4 bytes */
	uint8_t  itype;		/* enum ntrace_itype */
	uint8_t  priv;		/* PRV[1:0] | V << 2 */
	uint8_t  flags;
};

/* Where the encoder puts each finished message. */
typedef void (*ntrace_sink_fn)(void *ctx, const uint8_t *bytes, size_t n);

#define NTRACE_STACK_MAX	32

/*
 * Branch outcomes (HTM) not sent yet.  The spec lets an encoder send HIST in
 * any ResourceFull messages as long as the concatenated outcomes are the
 * same: they are kept until a message takes them (or the buffer fills) and
 * then sent at the fewest bytes (ntrace_enc.c); a pattern that keeps
 * repeating is a run, counted as it grows.
 */
#define NTRACE_HBUF_BITS	512

struct ntrace_hist_buf {
	uint64_t bits[NTRACE_HBUF_BITS / 64];	/* outcome i: bit i % 64 of word i / 64 */
	uint32_t n;				/* outcomes buffered */
	uint8_t  run_p;				/* the run's pattern length, 0: no run */
	uint8_t  run_phase;			/* outcomes into its current repetition */
	uint32_t run_k;				/* its whole repetitions (not sent yet) */
	uint64_t run_pattern;			/* with its stop bit, as RDATA */
	/* the parse of the buffer (scratch) */
	uint32_t cost[NTRACE_HBUF_BITS + 1];
	uint32_t step[NTRACE_HBUF_BITS + 1];
};

struct ntrace_encoder {
	struct ntrace_config cfg;
	ntrace_sink_fn sink;
	void *sink_ctx;
	bool started;
	uint8_t start_sync;	/* SYNC of the first ProgTraceSync (5 by default) */
	uint8_t pending;	/* enc_pending kind, see ntrace_enc.c */
	uint8_t pending_btype;
	uint8_t pending_priv;
	bool pending_sync_taken;
	uint64_t predicted;	/* implicit return target */
	uint64_t icnt;
	struct ntrace_hist_buf hb;	/* HIST (HTM) */
	uint64_t last_addr;	/* last address sent (U-ADDR reference) */
	uint8_t  priv;		/* last privilege reported */
	uint64_t last_tstamp;
	uint64_t now;		/* timestamp of the current record */
	uint64_t sync_count;
	bool sync_due;
	bool icnt_sync_due;	/* I-CNT full: SYNC=4 at the next record */
	uint8_t seq_prev;	/* halfwords of the previous record if it retired
				   plainly (a possible constant load), else 0 */
	/* implicit return */
	uint64_t stack[NTRACE_STACK_MAX];
	uint32_t stack_top, stack_n;
	uint32_t call_count;
	/* repeat branch */
	uint8_t last_branch[NTRACE_MAX_MSG_BYTES];
	int last_branch_len;
	uint32_t bcnt;
	uint64_t branch_mark;	/* messages when the last branch message (or its
				   RepeatBranch) was sent: folding needs nothing
				   between, as decoders repeat the last message */
	/* statistics */
	uint64_t retired, halfwords, bytes, messages;
	uint64_t by_tcode[64];
	int error;		/* first error (e.g. sink too small) */
};

int ntrace_enc_init(struct ntrace_encoder *e, const struct ntrace_config *cfg,
		    ntrace_sink_fn sink, void *ctx);
/* One ingress-port record (program order). */
void ntrace_enc_retire(struct ntrace_encoder *e, const struct ntrace_ingress *r);
/* Messages were lost: sends Error; the next record restarts with SYNC=7. */
void ntrace_enc_lost(struct ntrace_encoder *e);
/* Trace stops: flushes and sends ProgTraceCorrelation. */
void ntrace_enc_stop(struct ntrace_encoder *e, unsigned evcode);

/* --- Instruction classification (RV32GC/RV64GC, compressed included) ----- */
enum ntrace_kind {
	NTRACE_K_INVALID = 0,	/* no code here */
	NTRACE_K_PLAIN,		/* no control transfer */
	NTRACE_K_BRANCH,	/* direct conditional branch */
	NTRACE_K_JUMP,		/* direct unconditional jump (JAL, C.J, C.JAL) */
	NTRACE_K_INDIRECT,	/* JALR, C.JR, C.JALR */
	NTRACE_K_TRAP_RETURN,	/* MRET, SRET, (MNRET) */
	NTRACE_K_TRAP,		/* ECALL, EBREAK, C.EBREAK: never retire */
};

struct ntrace_insn {
	uint8_t  len;		/* 2 or 4; 0 = invalid */
	uint8_t  kind;		/* enum ntrace_kind */
	uint8_t  itype;		/* 4-bit itype if control transfer (taken) */
	uint8_t  rd, rs1;
	bool     const_load;	/* LUI, C.LUI, AUIPC (rd != 0): target = rd's value */
	int32_t  imm;		/* INDIRECT: the JALR offset (0 for C.JR, C.JALR) */
	uint64_t target;	/* BRANCH/JUMP: absolute target; const_load: value */
};

/* Classifies the instruction whose low 16 (or 32) bits are insn at pc. */
void ntrace_isa_decode(uint32_t insn, uint64_t pc, unsigned xlen, struct ntrace_insn *out);
/*
 * Where a sequentially inferable jump goes (chapter 9): the constant load's
 * value (ntrace_insn.target of the LUI/AUIPC) plus the JALR offset, bit 0
 * cleared, wrapped to XLEN.  One definition for the decoder and the trace
 * sources that decide what the hart would flag.
 */
uint64_t ntrace_seq_jump_target(uint64_t value, int32_t imm, unsigned xlen);
/* Length from the low 16 bits (2 or 4; 0 for >32-bit encodings). */
unsigned ntrace_isa_len(uint16_t low);
bool ntrace_itype_is_call(unsigned itype);

/* --- Chapter 11: decoder -------------------------------------------------- */
/* Returns the classified instruction at addr, or NULL if no code is known. */
typedef const struct ntrace_insn *(*ntrace_lookup_fn)(void *ctx, uint64_t addr);
/* Optional fast path: the classified instructions of the whole code region
 * holding addr, one per halfword from *base up to *end (NULL if none). */
typedef const struct ntrace_insn *(*ntrace_range_fn)(void *ctx, uint64_t addr,
						     uint64_t *base, uint64_t *end);
/* One executed instruction; flags NTRACE_EXEC_TRAPPED for the instruction
 * that raised an exception (it did not retire). */
#define NTRACE_EXEC_TRAPPED	0x1
typedef void (*ntrace_exec_fn)(void *ctx, uint64_t addr, unsigned flags);
/* Messages that carry no program flow (Ownership, Error, errors). */
typedef void (*ntrace_event_fn)(void *ctx, const struct ntrace_msg *m, int err);

/* HIST bits waiting for their branches: those of one message (the walk
 * consumes them before the next message) */
#define NTRACE_HIST_RING	4

struct ntrace_hist_chunk {
	uint64_t bits;		/* branch outcomes, first outcome most significant */
	uint32_t repeat;	/* how many times the chunk repeats */
	uint8_t  n;		/* number of outcomes in bits */
};

struct ntrace_decoder {
	struct ntrace_config cfg;
	ntrace_lookup_fn lookup;
	ntrace_range_fn range;		/* optional, set after ntrace_dec_init */
	const struct ntrace_insn *win;	/* cached range */
	uint64_t win_base, win_end;
	ntrace_exec_fn exec;
	ntrace_event_fn event;
	void *ctx;
	bool synced;
	uint64_t pc;
	uint64_t last_addr;
	int64_t icnt;		/* halfwords still to walk (below 0: walked ahead of
				   their I-CNT, for HIST bits that came first) */
	/* history queue */
	struct ntrace_hist_chunk hq[NTRACE_HIST_RING];
	uint32_t hq_head, hq_n;
	uint8_t hq_used;	/* outcomes used from the head chunk */
	/* implicit return stack */
	uint64_t stack[NTRACE_STACK_MAX];
	uint32_t stack_top, stack_n;
	/* sequential jump: the last walked instruction was a constant load */
	bool seq_valid;
	uint8_t seq_rd;
	uint64_t seq_value;
	/* RepeatBranch */
	struct ntrace_msg last_branch;
	bool have_last_branch;
	uint8_t priv;
	uint64_t tstamp;
	/* statistics */
	uint64_t instructions, messages, errors;
	int last_error;
	/* error surface */
	int src;		/* only messages with this SRC are decoded (-1, the
				   default: all); set after ntrace_dec_init */
	uint64_t msg_offset;	/* the message being decoded: its byte offset */
	uint64_t msg_number;	/* and number, from 1 (set by ntrace_dec_buffer) */
	struct ntrace_fault fault;	/* the last error, complete when the event
					   callback sees it */
	/* counts wider than chapter 6's limits: refused (NTRACE_E_TOO_LONG),
	 * unless lenient (up to NTRACE_LENIENT_BITS); set after ntrace_dec_init */
	bool lenient;
	uint64_t wide_fields;		/* how many were accepted */
	struct ntrace_fault wide_first;	/* the first one (err NTRACE_OK) */
};

int ntrace_dec_init(struct ntrace_decoder *d, const struct ntrace_config *cfg,
		    ntrace_lookup_fn lookup, ntrace_exec_fn exec, ntrace_event_fn event,
		    void *ctx);
/* Processes one parsed message; returns NTRACE_OK or a negative error (the
 * decoder then waits for the next synchronizing message). */
int ntrace_dec_msg(struct ntrace_decoder *d, const struct ntrace_msg *m);
/* Parses and decodes a whole buffer (the messages of d->src only, when it
 * is set and the stream has a SRC field); returns the number of errors. */
uint64_t ntrace_dec_buffer(struct ntrace_decoder *d, const uint8_t *buf, size_t len);

#endif
