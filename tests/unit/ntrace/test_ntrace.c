// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of lib/ntrace: every message round trip, the spec's worked
 * examples byte for byte (chapters 3, 7, 8, 9, 10), variable-length fields at
 * every length boundary, corrupt and truncated streams, and encoder/decoder
 * round trips over a small program run by a model hart in every mode.
 * One line per check: "[prefix]PASS: ntrace: ..." / "FAIL: ...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/ntrace.h>

static const char *prefix = "";
static int failures, checks;

#define CHECK(cond, ...) do {						\
	int ok_ = !!(cond);						\
	checks++;							\
	printf("%s%s: ntrace: ", prefix, ok_ ? "PASS" : "FAIL");	\
	printf(__VA_ARGS__);						\
	if (!ok_) {							\
		printf(" (%s:%d: %s)", __FILE__, __LINE__, #cond);	\
		failures++;						\
	}								\
	printf("\n");							\
} while (0)

/* ---- helpers ------------------------------------------------------------------- */

static struct ntrace_config cfg_default(void)
{
	struct ntrace_config c;

	ntrace_config_default(&c);
	return c;
}

static int hex_equal(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
	if (na != nb || memcmp(a, b, na)) {
		printf("    got:     ");
		for (size_t i = 0; i < na; i++)
			printf(" %02x", a[i]);
		printf("\n    expected:");
		for (size_t i = 0; i < nb; i++)
			printf(" %02x", b[i]);
		printf("\n");
		return 0;
	}
	return 1;
}

static int msg_equal(const struct ntrace_msg *a, const struct ntrace_msg *b)
{
	return a->tcode == b->tcode && a->sync == b->sync && a->btype == b->btype &&
	       a->etype == b->etype && a->rcode == b->rcode && a->evcode == b->evcode &&
	       a->cdf == b->cdf && a->has_tstamp == b->has_tstamp && a->src == b->src &&
	       a->process == b->process && a->icnt == b->icnt && a->addr == b->addr &&
	       a->hist == b->hist && a->ecode == b->ecode && a->rdata == b->rdata &&
	       a->hrepeat == b->hrepeat && a->bcnt == b->bcnt &&
	       (!a->has_tstamp || a->tstamp == b->tstamp);
}

/* Stream collected from an encoder. */
struct stream {
	uint8_t b[1 << 20];
	size_t n;
};

static void sink(void *ctx, const uint8_t *bytes, size_t n)
{
	struct stream *s = ctx;

	if (s->n + n <= sizeof(s->b)) {
		memcpy(s->b + s->n, bytes, n);
		s->n += n;
	}
}

static int parse_all(const struct ntrace_config *c, const uint8_t *b, size_t n,
		     struct ntrace_msg *out, int max)
{
	struct ntrace_parser p;
	int k = 0, rc;

	ntrace_parser_init(&p, c, b, n);
	while ((rc = ntrace_parse_next(&p, &out[k < max ? k : max - 1])) != NTRACE_END) {
		if (rc < 0)
			return rc;
		if (k < max)
			k++;
	}
	return k;
}

/* ---- code memory (for the decoder and the model hart) ------------------- */

#define CODE_BASE 0x100u
#define CODE_SIZE 0x2000u
static uint8_t code[CODE_SIZE];
static struct ntrace_insn insns[CODE_SIZE / 2];
static unsigned code_xlen = 64;

static void put16(uint32_t addr, uint16_t v)
{
	code[addr - CODE_BASE] = (uint8_t)v;
	code[addr - CODE_BASE + 1] = (uint8_t)(v >> 8);
}

static void put32(uint32_t addr, uint32_t v)
{
	put16(addr, (uint16_t)v);
	put16(addr + 2, (uint16_t)(v >> 16));
}

static void predecode(void)
{
	for (uint32_t off = 0; off + 2 <= CODE_SIZE; off += 2) {
		uint32_t w = code[off] | code[off + 1] << 8;

		if (off + 4 <= CODE_SIZE)
			w |= (uint32_t)(code[off + 2] | code[off + 3] << 8) << 16;
		ntrace_isa_decode(w, CODE_BASE + off, code_xlen, &insns[off / 2]);
	}
}

static const struct ntrace_insn *lookup(void *ctx, uint64_t addr)
{
	(void)ctx;
	if (addr < CODE_BASE || addr >= CODE_BASE + CODE_SIZE || (addr & 1))
		return NULL;
	return &insns[(addr - CODE_BASE) / 2];
}

/* Executed addresses seen by the decoder */
struct trail {
	uint64_t a[200000];
	size_t n;
};

static struct trail got;

static void exec_cb(void *ctx, uint64_t addr, unsigned flags)
{
	(void)ctx;
	(void)flags;
	if (got.n < 200000)
		got.a[got.n++] = addr;
}

/* B-type, J-type, encodings of the few instructions the tests need */
static uint32_t enc_b(unsigned f3, unsigned rs1, unsigned rs2, int32_t off)
{
	uint32_t i = (uint32_t)off;

	return ((i >> 12) & 1) << 31 | ((i >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
	       f3 << 12 | ((i >> 1) & 0xf) << 8 | ((i >> 11) & 1) << 7 | 0x63;
}

static uint32_t enc_jal(unsigned rd, int32_t off)
{
	uint32_t i = (uint32_t)off;

	return ((i >> 20) & 1) << 31 | ((i >> 1) & 0x3ff) << 21 | ((i >> 11) & 1) << 20 |
	       ((i >> 12) & 0xff) << 12 | rd << 7 | 0x6f;
}

static uint32_t enc_jalr(unsigned rd, unsigned rs1)
{
	return rs1 << 15 | rd << 7 | 0x67;
}

static uint32_t enc_jalr_off(unsigned rd, unsigned rs1, int32_t off)
{
	return ((uint32_t)off & 0xfff) << 20 | enc_jalr(rd, rs1);
}

static uint32_t enc_lui(unsigned rd, uint32_t imm20)
{
	return imm20 << 12 | rd << 7 | 0x37;
}

static uint32_t enc_auipc(unsigned rd, uint32_t imm20)
{
	return imm20 << 12 | rd << 7 | 0x17;
}

/* c.lui rd, nzimm (6-bit signed, value nzimm << 12) */
static uint16_t enc_clui(unsigned rd, int nzimm)
{
	unsigned i = (unsigned)nzimm & 0x3f;

	return (uint16_t)(0x6001 | (i >> 5) << 12 | rd << 7 | (i & 0x1f) << 2);
}

static uint16_t enc_cj(int32_t off)
{
	uint32_t i = (uint32_t)off;

	return (uint16_t)(0xa001 | ((i >> 11) & 1) << 12 | ((i >> 4) & 1) << 11 |
			  ((i >> 8) & 3) << 9 | ((i >> 10) & 1) << 8 | ((i >> 6) & 1) << 7 |
			  ((i >> 7) & 1) << 6 | ((i >> 1) & 7) << 3 | ((i >> 5) & 1) << 2);
}

#define C_JR(r)		((uint16_t)(0x8002 | (r) << 7))
#define C_JALR(r)	((uint16_t)(0x9002 | (r) << 7))

#define C_ADD	0x9532u		/* c.add a0,a2 */
#define ADD	0x00c50533u	/* add a0,a0,a2 */
#define C_EBREAK 0x9002u
#define C_NOP	0x0001u
#define C_JR_RA	0x8082u		/* c.jr ra = ret */
#define MRET	0x30200073u

/* ---- chapter 3: the framing example ------------------------------------------- */

static void test_framing_example(void)
{
	static const uint8_t stream[] = { 0xff, 0x70, 0xd0, 0x1d, 0x1d, 0xf8, 0xff, 0xff };
	struct ntrace_config c = cfg_default();
	struct ntrace_msg m[4];
	uint8_t out[64];
	int n = parse_all(&c, stream, sizeof(stream), m, 4);

	CHECK(n == 1 && m[0].tcode == 28 && m[0].btype == 0 && m[0].icnt == 0x7d &&
	      m[0].addr == 0x7 && m[0].hist == 0xffe && !m[0].has_tstamp,
	      "ch3 example: 0x70 0xD0 0x1D 0x1D 0xF8 0xFF = IndirectBranchHist B-TYPE=0 I-CNT=0x7D U-ADDR=0x7 HIST=0xFFE");
	n = ntrace_msg_encode(&c, &m[0], out, sizeof(out));
	CHECK(n == 6 && hex_equal(out, (size_t)n, stream + 1, 6), "ch3 example encodes byte for byte");
}

/* ---- chapter 7: Ownership PROCESS examples ------------------------------------- */

static void test_ownership_examples(void)
{
	struct ntrace_config c = cfg_default();
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_OWNERSHIP, .process = 0x3b2 }, r;
	uint8_t out[64];
	char text[256];
	int n = ntrace_msg_encode(&c, &m, out, sizeof(out));

	CHECK(n > 0 && ntrace_msg_parse(&c, out, (size_t)n, &r) == 0 && r.process == 0x3b2,
	      "Ownership PROCESS=0x3B2 round trip");
	ntrace_msg_format(&c, &r, text, sizeof(text));
	CHECK(strstr(text, "FORMAT=2") && strstr(text, "PRV=0") && strstr(text, "V=1") &&
	      strstr(text, "CONTEXT=0x1d"), "PROCESS=0x3B2 is scontext=0x1D, V=1, PRV=00 (%s)", text);
	m.process = 0xc;
	ntrace_msg_format(&c, &m, text, sizeof(text));
	CHECK(strstr(text, "FORMAT=0") && strstr(text, "PRV=3") && strstr(text, "V=0"),
	      "PROCESS=0xC is V=0, PRV=11 (M-mode) (%s)", text);
}

/* ---- every message, field by field -------------------------------------------- */

static void test_every_message(void)
{
	static const struct ntrace_msg msgs[] = {
		{ .tcode = 2, .process = 0x3b2 },
		{ .tcode = 3, .icnt = 1234 },
		{ .tcode = 4, .btype = 3, .icnt = 7, .addr = 0x7b6 },
		{ .tcode = 8, .etype = 0, .ecode = 0x1 },
		{ .tcode = 9, .sync = 3, .icnt = 0, .addr = 0x80 },
		{ .tcode = 11, .sync = 2, .icnt = 9, .addr = 0x40000001 },
		{ .tcode = 12, .sync = 7, .btype = 1, .icnt = 3, .addr = 0x1fe02 },
		{ .tcode = 27, .rcode = 0, .rdata = 9 },
		{ .tcode = 27, .rcode = 1, .rdata = 0x55555555 },
		{ .tcode = 27, .rcode = 2, .rdata = 0x55555555, .hrepeat = 10 },
		{ .tcode = 28, .btype = 0, .icnt = 0x7d, .addr = 0x7, .hist = 0xffe },
		{ .tcode = 29, .sync = 2, .btype = 2, .icnt = 5, .addr = 0x3fffffffffffffffull,
		  .hist = 0x80000001 },
		{ .tcode = 30, .bcnt = 262143 },
		{ .tcode = 33, .evcode = 0, .cdf = 0, .icnt = 5 },
		{ .tcode = 33, .evcode = 4, .cdf = 1, .icnt = 5, .hist = 0x2 },
	};
	for (int variant = 0; variant < 4; variant++) {
		struct ntrace_config c = cfg_default();
		static const char *names[] = { "plain", "SRC 12 bits + TSTAMP",
					       "SRC 3 bits", "trTeInstExtendAddrMSB + TSTAMP" };

		if (variant == 1)
			c.trTeSrcBits = 12;
		if (variant == 2)
			c.trTeSrcBits = 3;
		if (variant == 3)
			c.trTeInstExtendAddrMSB = true;
		for (size_t i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
			struct ntrace_msg m = msgs[i], r;
			uint8_t out[NTRACE_MAX_MSG_BYTES];
			int n, rc = -99;

			if (variant == 1) {
				m.src = 0xabc;
				m.has_tstamp = true;
				m.tstamp = 0xfedcba9876543210ull;
			}
			if (variant == 2)
				m.src = 5;
			if (variant == 3) {
				m.has_tstamp = true;
				m.tstamp = i;
			}
			n = ntrace_msg_encode(&c, &m, out, sizeof(out));
			if (n > 0)
				rc = ntrace_msg_parse(&c, out, (size_t)n, &r);
			CHECK(n > 0 && n <= 38 && rc == 0 && msg_equal(&m, &r),
			      "%s (TCODE=%u%s%u) round trip, %s, %d bytes",
			      ntrace_tcode_name(m.tcode), m.tcode,
			      m.tcode == 27 ? " RCODE=" : m.tcode == 33 ? " CDF=" : " #",
			      m.tcode == 27 ? m.rcode : m.tcode == 33 ? m.cdf : 0, names[variant], n);
		}
	}
	/* the longest standard message: IndirectBranchHistSync, 38 bytes */
	{
		struct ntrace_config c = cfg_default();
		struct ntrace_msg m = { .tcode = 29, .sync = 15, .btype = 3,
					.icnt = (1u << 30) - 1, .addr = (1ull << 63) - 1,
					.hist = 0xffffffff, .has_tstamp = true, .tstamp = ~0ull };
		uint8_t out[NTRACE_MAX_MSG_BYTES];
		int n;

		c.trTeSrcBits = NTRACE_MAX_SRC;
		m.src = 0xfff;
		n = ntrace_msg_encode(&c, &m, out, sizeof(out));
		CHECK(n > 30 && n <= 38,
		      "IndirectBranchHistSync with maximal fields: %d bytes, within the spec's 38", n);
		CHECK(ntrace_msg_encode(&c, &m, out, (size_t)n - 1) == NTRACE_E_SPACE,
		      "encoding into a too-small buffer fails, never overflows");
	}
}

/* ---- variable-length fields at every length boundary ---------------------------- */

static void test_var_boundaries(void)
{
	struct ntrace_config c = cfg_default();
	int bad = 0, badsize = 0;

	for (unsigned bits = 1; bits <= 64; bits++) {
		uint64_t vals[2] = { 1ull << (bits - 1),
				     bits == 64 ? ~0ull : (1ull << bits) - 1 };

		for (int k = 0; k < 2; k++) {
			/* DirectBranch: I-CNT starts on a byte boundary (6 bits/byte) */
			struct ntrace_msg m = { .tcode = 3, .icnt = vals[k] }, r;
			uint8_t out[NTRACE_MAX_MSG_BYTES];
			int n = ntrace_msg_encode(&c, &m, out, sizeof(out));

			if (n != 1 + (int)((bits + 5) / 6))
				badsize++;
			if (n < 0 || ntrace_msg_parse(&c, out, (size_t)n, &r) || r.icnt != vals[k])
				bad++;
			/* Error: ECODE starts after ETYPE, 2 bits into a byte */
			m = (struct ntrace_msg){ .tcode = 8, .etype = 5, .ecode = vals[k] };
			n = ntrace_msg_encode(&c, &m, out, sizeof(out));
			if (n != 2 + (int)(bits > 2 ? (bits - 2 + 5) / 6 : 0))
				badsize++;
			if (n < 0 || ntrace_msg_parse(&c, out, (size_t)n, &r) ||
			    r.ecode != vals[k] || r.etype != 5)
				bad++;
		}
	}
	CHECK(bad == 0, "variable-length fields of 1..64 bits (lowest and highest values) round trip");
	CHECK(badsize == 0, "variable-length fields use the fewest bytes at every 6-bit boundary");
	{
		/* value 0 is one MDO of zeros; 65 significant bits are rejected */
		static const uint8_t zero[] = { 0x0c, 0x03 };
		static const uint8_t too_long[] = { 0x0c, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc,
						    0xfc, 0xfc, 0xfc, 0x43 };
		struct ntrace_msg r;

		CHECK(ntrace_msg_parse(&c, zero, 2, &r) == 0 && r.icnt == 0,
		      "I-CNT=0 is a single zero MDO");
		CHECK(ntrace_msg_parse(&c, too_long, sizeof(too_long), &r) == NTRACE_E_TOO_LONG,
		      "a variable-length field of 65 significant bits is rejected");
	}
}

/* ---- chapter 8: address compression and chapter 9 MSB extension ------------------ */

static void test_address_examples(void)
{
	struct ntrace_config c = cfg_default();
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_encoder e;
	struct ntrace_msg m[8];
	static const struct ntrace_ingress recs[] = {
		{ .addr = 0x3fc04, .ilen = 4, .itype = NTRACE_ITYPE_INDIRECT_JUMP },
		{ .addr = 0x3f368, .ilen = 4, .itype = NTRACE_ITYPE_INDIRECT_JUMP },
		{ .addr = 0x3e100, .ilen = 4 },
	};
	int n;

	ntrace_enc_init(&e, &c, sink, s);
	for (int i = 0; i < 3; i++)
		ntrace_enc_retire(&e, &recs[i]);
	n = parse_all(&c, s->b, s->n, m, 8);
	CHECK(n == 3 && m[0].tcode == 9 && m[0].addr == 0x1fe02,
	      "ch8 address example: F-ADDR=0x1FE02 for 0x3FC04");
	CHECK(n == 3 && m[1].tcode == 4 && m[1].addr == 0x7b6,
	      "ch8 address example: U-ADDR=0x7B6 for 0x3F368");
	CHECK(n == 3 && m[2].tcode == 4 && m[2].addr == 0x934,
	      "ch8 address example: U-ADDR=0x934 for 0x3E100");
	free(s);

	/* chapter 9: the four F-ADDR encodings (an I-CNT before, a TSTAMP after) */
	static const struct {
		uint8_t faddr[11];
		int n;
		uint64_t field, address;
		const char *what;
	} ex[] = {
		{ { 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0x7d }, 6, 0x7ffffffffull, 0xffffffffeull,
		  "non-extended (top MDO bit 0)" },
		{ { 0xfc, 0xfc, 0xfc, 0xfc, 0x7c, 0xf1 }, 6, 0x7fffffff1fffffffull,
		  0xfffffffe3ffffffeull, "extended (top MDO bit 1)" },
		{ { 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0x01 }, 7, 0xfffffffffull,
		  0x1ffffffffeull, "an extra zero MDO prevents extension" },
		{ { 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0x15 }, 11,
		  0x5fffffffffffffffull, 0xbffffffffffffffeull, "full 64-bit (invalid) address" },
	};
	c.trTeInstExtendAddrMSB = true;
	for (size_t i = 0; i < 4; i++) {
		uint8_t msg[20] = { 9 << 2, 0x01 }, out[40];
		struct ntrace_msg r, w = { .tcode = 9, .addr = ex[i].field, .has_tstamp = true };
		int len = 2 + ex[i].n + 1, k;

		memcpy(msg + 2, ex[i].faddr, (size_t)ex[i].n);
		msg[len - 1] = 0x03;	/* TSTAMP=0, end of message */
		CHECK(ntrace_msg_parse(&c, msg, (size_t)len, &r) == 0 && r.addr == ex[i].field &&
		      (uint64_t)(r.addr << 1) == ex[i].address,
		      "ch9 trTeInstExtendAddrMSB decode: %s: F-ADDR=0x%llx address 0x%llx",
		      ex[i].what, (unsigned long long)ex[i].field, (unsigned long long)ex[i].address);
		k = ntrace_msg_encode(&c, &w, out, sizeof(out));
		CHECK(hex_equal(out, (size_t)(k > 0 ? k : 0), msg, (size_t)len),
		      "ch9 trTeInstExtendAddrMSB encode: %s byte for byte", ex[i].what);
	}
	{
		/* without the extension the kernel address takes 11 bytes */
		struct ntrace_config p = cfg_default();
		struct ntrace_msg w = { .tcode = 9, .addr = 0xffffffff800031f4ull >> 1 };
		uint8_t out[40];

		CHECK(w.addr == 0x7fffffffc00018faull && ntrace_msg_encode(&p, &w, out, 40) == 2 + 11,
		      "ch9: 0xFFFF_FFFF_8000_31F4 is F-ADDR=0x7FFF_FFFF_C000_18FA in 11 bytes");
		CHECK(ntrace_msg_encode(&c, &w, out, 40) == 2 + 6,
		      "ch9: the same address takes 6 bytes with trTeInstExtendAddrMSB");
	}
}

/* ---- chapter 8: I-CNT and HIST examples over the spec's code ------------------- */

struct expect_msg {
	uint8_t tcode;
	uint64_t icnt, hist;
};

static void run_example(const char *what, const struct ntrace_config *c,
			const struct ntrace_ingress *recs, int nrec,
			const struct expect_msg *want, int nwant);

/*
 * Chapter 8's "Trace with SYNC=Sequential Instruction Counter (BTM mode
 * only)": ProgTraceSync SYNC=3 I-CNT=0 F-ADDR=0x80, ProgTraceSync SYNC=4
 * I-CNT=9 F-ADDR=0x89 (0x112), ProgTraceCorrelation EVCODE=0 CDF=0 I-CNT=5.
 * The bytes are the fields packed by hand (TCODE, then SYNC[4] with I-CNT,
 * then F-ADDR; EVCODE[4] CDF[2] with I-CNT), not the encoder's own output.
 */
static void test_sync4_example(const struct ntrace_ingress *rf, int k)
{
	static const uint8_t want[] = {
		0x24, 0x0d, 0x00, 0x0b,		/* ProgTraceSync SYNC=3 I-CNT=0 F-ADDR=0x80 */
		0x24, 0x50, 0x09, 0x24, 0x0b,	/* ProgTraceSync SYNC=4 I-CNT=9 F-ADDR=0x89 */
		0x84, 0x00, 0x17,		/* ProgTraceCorrelation EVCODE=0 CDF=0 I-CNT=5 */
	};
	struct ntrace_config c = cfg_default();
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_encoder e;
	struct ntrace_msg m[4];
	int n;

	c.icnt_limit = 8;		/* 4-bit I-CNT with an overflow bit */
	c.icnt_full_sync = true;
	ntrace_enc_init(&e, &c, sink, s);
	e.start_sync = NTRACE_SYNC_DEBUG_EXIT;
	for (int i = 0; i < k; i++)
		ntrace_enc_retire(&e, &rf[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_DEBUG_ENTRY);
	n = parse_all(&c, s->b, s->n, m, 4);
	CHECK(n == 3 && m[1].tcode == NTRACE_TCODE_PROG_TRACE_SYNC && m[1].sync == NTRACE_SYNC_ICNT &&
	      m[1].icnt == 9 && m[1].addr == 0x89 && m[2].cdf == 0 && m[2].icnt == 5 &&
	      hex_equal(s->b, s->n, want, sizeof(want)),
	      "ch8 SYNC=4 example: ProgTraceSync SYNC=4 I-CNT=9 F-ADDR=0x89, then I-CNT=5, "
	      "byte for byte");
	run_example("ch8 SYNC=4 example decodes (the SYNC=4 I-CNT walked before F-ADDR)", &c, rf,
		    k, (struct expect_msg[]){ { 9, 9, 0 }, { 33, 5, 0 } }, 2);
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	CHECK(ntrace_config_check(&c) == NTRACE_E_CONFIG && ntrace_enc_init(&e, &c, sink, s) < 0,
	      "SYNC=4 on a full I-CNT is refused in HTM (\"only used in BTM mode\")");
	free(s);
}

static void load_icnt_example(void)
{
	memset(code, 0, sizeof(code));
	put16(0x100, C_ADD);
	put32(0x102, enc_b(0, 10, 11, 0x200 - 0x102));
	put32(0x106, ADD);
	put32(0x10a, enc_b(0, 10, 11, 0x300 - 0x10a));
	put16(0x10e, C_ADD);
	put32(0x110, ADD);
	put16(0x114, C_EBREAK);
	put16(0x200, C_ADD);
	put16(0x202, C_EBREAK);
	put32(0x300, ADD);
	put16(0x304, C_EBREAK);
	predecode();
}

/* Runs the records through an encoder (trace stops before the c.ebreak),
 * checks the messages and decodes them back. */
static void run_example(const char *what, const struct ntrace_config *c,
			const struct ntrace_ingress *recs, int nrec,
			const struct expect_msg *want, int nwant)
{
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_encoder e;
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_msg m[16];
	int n, ok = 1;

	ntrace_enc_init(&e, c, sink, s);
	e.start_sync = NTRACE_SYNC_DEBUG_EXIT;
	for (int i = 0; i < nrec; i++)
		ntrace_enc_retire(&e, &recs[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_DEBUG_ENTRY);
	n = parse_all(c, s->b, s->n, m, 16);
	ok = n == nwant + 1 && m[0].tcode == 9 && m[0].sync == 3 && m[0].icnt == 0 &&
	     m[0].addr == recs[0].addr >> 1;
	if (!ok || n != nwant + 1)
		for (int i = 0; i < n; i++)
			printf("    got %s I-CNT=%llu RDATA=%llu HIST=%#llx\n", ntrace_tcode_name(m[i].tcode),
			       (unsigned long long)m[i].icnt, (unsigned long long)m[i].rdata,
			       (unsigned long long)m[i].hist);
	for (int i = 0; ok && i < nwant; i++) {
		const struct ntrace_msg *g = &m[i + 1];

		ok = g->tcode == want[i].tcode &&
		     (g->tcode == 27 ? g->rdata : g->icnt) == want[i].icnt &&
		     (!want[i].hist || g->hist == want[i].hist);
	}
	CHECK(ok, "%s: messages as in the spec", what);
	got.n = 0;
	ntrace_dec_init(d, c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s->b, s->n);
	ok = d->errors == 0 && got.n == (size_t)nrec;
	for (int i = 0; ok && i < nrec; i++)
		ok = got.a[i] == recs[i].addr;
	CHECK(ok, "%s: decodes to the %d executed addresses", what, nrec);
	free(s);
	free(d);
}

static void test_icnt_examples(void)
{
	struct ntrace_config btm = cfg_default(), htm = cfg_default();
	const struct ntrace_ingress run1[] = {
		{ 0x100, 0, 2, 0, 0, 0 }, { 0x102, 0, 4, NTRACE_ITYPE_BRANCH_TAKEN, 0, 0 },
		{ 0x200, 0, 2, 0, 0, 0 },
	};
	const struct ntrace_ingress run2[] = {
		{ 0x100, 0, 2, 0, 0, 0 }, { 0x102, 0, 4, NTRACE_ITYPE_BRANCH_NOT_TAKEN, 0, 0 },
		{ 0x106, 0, 4, 0, 0, 0 }, { 0x10a, 0, 4, NTRACE_ITYPE_BRANCH_TAKEN, 0, 0 },
		{ 0x300, 0, 4, 0, 0, 0 },
	};
	const struct ntrace_ingress run3[] = {
		{ 0x100, 0, 2, 0, 0, 0 }, { 0x102, 0, 4, NTRACE_ITYPE_BRANCH_NOT_TAKEN, 0, 0 },
		{ 0x106, 0, 4, 0, 0, 0 }, { 0x10a, 0, 4, NTRACE_ITYPE_BRANCH_NOT_TAKEN, 0, 0 },
		{ 0x10e, 0, 2, 0, 0, 0 }, { 0x110, 0, 4, 0, 0, 0 },
	};

	htm.trTeInstMode = NTRACE_INST_MODE_HTM;
	load_icnt_example();
	run_example("ch8 BTM run 1 (DirectBranch I-CNT=3, ProgTraceCorrelation I-CNT=1)", &btm,
		    run1, 3, (struct expect_msg[]){ { 3, 3, 0 }, { 33, 1, 0 } }, 2);
	run_example("ch8 BTM run 2 (DirectBranch I-CNT=7, ProgTraceCorrelation I-CNT=2)", &btm,
		    run2, 5, (struct expect_msg[]){ { 3, 7, 0 }, { 33, 2, 0 } }, 2);
	run_example("ch8 BTM run 3 (ProgTraceCorrelation I-CNT=10)", &btm, run3, 6,
		    (struct expect_msg[]){ { 33, 10, 0 } }, 1);
	run_example("ch8 HTM run 1 (I-CNT=4, HIST=0x3)", &htm, run1, 3,
		    (struct expect_msg[]){ { 33, 4, 0x3 } }, 1);
	run_example("ch8 HTM run 2 (I-CNT=9, HIST=0x5)", &htm, run2, 5,
		    (struct expect_msg[]){ { 33, 9, 0x5 } }, 1);
	run_example("ch8 HTM run 3 (I-CNT=10, HIST=0x4)", &htm, run3, 6,
		    (struct expect_msg[]){ { 33, 10, 0x4 } }, 1);

	/* ResourceFull example: 4-bit I-CNT with an overflow bit (full at 8) */
	memset(code, 0, sizeof(code));
	put16(0x100, C_ADD);
	put32(0x102, enc_b(0, 10, 11, 0x200 - 0x102));
	for (uint32_t a = 0x106; a < 0x11a; a += 4)
		put32(a, ADD);
	put16(0x11a, C_ADD);
	put16(0x11c, C_EBREAK);
	predecode();
	{
		struct ntrace_ingress rf[9];
		int k = 0;

		rf[k++] = (struct ntrace_ingress){ .addr = 0x100, .ilen = 2 };
		rf[k++] = (struct ntrace_ingress){ .addr = 0x102, .ilen = 4,
						   .itype = NTRACE_ITYPE_BRANCH_NOT_TAKEN };
		for (uint32_t a = 0x106; a < 0x11a; a += 4)
			rf[k++] = (struct ntrace_ingress){ .addr = a, .ilen = 4 };
		rf[k++] = (struct ntrace_ingress){ .addr = 0x11a, .ilen = 2 };
		htm.icnt_limit = 8;
		run_example("ch8 ResourceFull example (RDATA=9, then I-CNT=5 HIST=0x2)", &htm, rf, k,
			    (struct expect_msg[]){ { 27, 9, 0 }, { 33, 5, 0x2 } }, 2);
		test_sync4_example(rf, k);
	}
}

/* ---- chapter 9: sequential jumps; chapter 2: all jumps as taken branches --------- */

#define REC(a, l, t, f) { .addr = (a), .ilen = (l), .itype = (t), .flags = (f) }
#define SEQ NTRACE_REC_SEQ_INFERABLE

static void load_program(void);

static void test_sequential_jump(void)
{
	struct ntrace_config c = cfg_default();
	/* k's pairs: lui t2,2 + c.jalr t2 (a call), c.lui t3,1 + jr 0x10(t3) */
	const struct ntrace_ingress pairs[] = {
		REC(0x500, 2, 0, 0), REC(0x502, 4, 0, 0),
		REC(0x506, 2, NTRACE_ITYPE_INDIRECT_CALL, SEQ), REC(0x2000, 2, 0, 0),
		REC(0x2002, 2, NTRACE_ITYPE_RETURN, 0), REC(0x508, 2, 0, 0),
		REC(0x50a, 4, NTRACE_ITYPE_INDIRECT_JUMP_NL, SEQ), REC(0x1010, 2, 0, 0),
	};
	/* an interrupt between lui and c.jalr (a source flagging it anyway) */
	const struct ntrace_ingress broken[] = {
		REC(0x500, 2, 0, 0), REC(0x502, 4, NTRACE_ITYPE_INTERRUPT, 0),
		REC(0x600, 2, 0, 0), REC(0x602, 4, NTRACE_ITYPE_BRANCH_NOT_TAKEN, 0),
		REC(0x606, 2, 0, 0), REC(0x608, 2, 0, 0), REC(0x60a, 4, NTRACE_ITYPE_TRAP_RETURN, 0),
		REC(0x506, 2, NTRACE_ITYPE_INDIRECT_CALL, SEQ), REC(0x2000, 2, 0, 0),
	};

	load_program();
	run_example("seq jump off: an IndirectBranch per JALR/C.JALR/C.JR", &c, pairs, 8,
		    (struct expect_msg[]){ { 4, 4, 0 }, { 4, 2, 0 }, { 4, 3, 0 }, { 33, 1, 0 } }, 4);
	c.trTeInstEnSequentialJump = true;
	run_example("seq jump: lui+c.jalr and c.lui+jalr inferred, I-CNT spans each pair", &c, pairs,
		    8, (struct expect_msg[]){ { 4, 6, 0 }, { 33, 4, 0 } }, 2);
	run_example("seq jump: a trap between the pair: IndirectBranch for the jump", &c, broken, 9,
		    (struct expect_msg[]){ { 4, 3, 0 }, { 4, 7, 0 }, { 4, 1, 0 }, { 33, 1, 0 } }, 4);
	c.icnt_limit = 3;
	run_example("seq jump: a ResourceFull I-CNT between the pair: IndirectBranch", &c, pairs, 8,
		    (struct expect_msg[]){ { 27, 3, 0 }, { 4, 1, 0 }, { 4, 2, 0 }, { 27, 3, 0 },
					   { 33, 1, 0 } }, 5);
	c.icnt_full_sync = true;
	run_example("seq jump: a SYNC=4 between the pair: IndirectBranch", &c, pairs, 8,
		    (struct expect_msg[]){ { 9, 3, 0 }, { 4, 1, 0 }, { 4, 2, 0 }, { 9, 3, 0 },
					   { 33, 1, 0 } }, 5);
	c = cfg_default();
	c.trTeInstEnSequentialJump = true;
	c.trTeInstImplicitReturnMode = 3;
	/* the inferred c.jalr is still a call: the c.jr ra is an implicit return */
	run_example("seq jump + implicit return: the inferred call pushes, its return is implicit",
		    &c, pairs, 8, (struct expect_msg[]){ { 33, 10, 0 } }, 1);
}

static void test_all_jumps(void)
{
	struct ntrace_config btm = cfg_default(), htm = cfg_default();
	const struct ntrace_ingress run[] = {
		REC(0x116, 2, NTRACE_ITYPE_DIRECT_JUMP_NL, 0), REC(0x100, 4, NTRACE_ITYPE_DIRECT_CALL, 0),
		REC(0x200, 2, 0, 0), REC(0x202, 4, NTRACE_ITYPE_BRANCH_TAKEN, 0), REC(0x20c, 2, 0, 0),
		REC(0x20e, 2, NTRACE_ITYPE_RETURN, 0), REC(0x104, 2, 0, 0),
	};

	load_program();
	htm.trTeInstMode = NTRACE_INST_MODE_HTM;
	run_example("all jumps off, BTM: c.j and jal inferred", &btm, run, 7,
		    (struct expect_msg[]){ { 3, 6, 0 }, { 4, 2, 0 }, { 33, 1, 0 } }, 3);
	run_example("all jumps off, HTM: no HIST bit for jumps (HIST=0b1_1)", &htm, run, 7,
		    (struct expect_msg[]){ { 28, 8, 0x3 }, { 33, 1, 0 } }, 2);
	btm.trTeInstEnAllJumps = htm.trTeInstEnAllJumps = true;
	run_example("all jumps, BTM: a DirectBranch for c.j and for jal", &btm, run, 7,
		    (struct expect_msg[]){ { 3, 1, 0 }, { 3, 2, 0 }, { 3, 3, 0 }, { 4, 2, 0 },
					   { 33, 1, 0 } }, 5);
	run_example("all jumps, HTM: a taken HIST bit for c.j and jal (HIST=0b1_111)", &htm, run, 7,
		    (struct expect_msg[]){ { 28, 8, 0xf }, { 33, 1, 0 } }, 2);
	htm.trTeInstImplicitReturnMode = 3;
	run_example("all jumps, HTM + implicit return: jal still a call (return implicit)", &htm,
		    run, 7, (struct expect_msg[]){ { 33, 9, 0xf } }, 1);
}

/* ---- chapter 9: repeated history (HREPEAT) ---------------------------------------- */

static void test_hrepeat_example(void)
{
	struct ntrace_config c = cfg_default();
	struct ntrace_ingress *recs = calloc(1000, sizeof(*recs));
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_encoder e;
	struct ntrace_msg m[8];
	int k = 0, n, ok;

	/* 0x100: beq a0,a1,0x108; 0x104: j 0x100; 0x108: j 0x100 */
	memset(code, 0, sizeof(code));
	put32(0x100, enc_b(0, 10, 11, 8));
	put32(0x104, enc_jal(0, -4));
	put32(0x108, enc_jal(0, -8));
	predecode();
	for (int i = 0; i < 301; i++) {
		int taken = i & 1;	/* 0,1,0,1...: HIST 0b1_0101...01 */

		recs[k++] = (struct ntrace_ingress){ .addr = 0x100, .ilen = 4,
			.itype = taken ? NTRACE_ITYPE_BRANCH_TAKEN : NTRACE_ITYPE_BRANCH_NOT_TAKEN };
		recs[k++] = (struct ntrace_ingress){ .addr = taken ? 0x108 : 0x104, .ilen = 4,
			.itype = NTRACE_ITYPE_DIRECT_JUMP_NL };
	}
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	c.trTeInstEnRepeatedHistory = true;
	ntrace_enc_init(&e, &c, sink, s);
	for (int i = 0; i < k; i++)
		ntrace_enc_retire(&e, &recs[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
	n = parse_all(&c, s->b, s->n, m, 8);
	CHECK(n == 3 && m[1].tcode == 27 && m[1].rcode == 2 && m[1].rdata == 0x5 &&
	      m[1].hrepeat == 150 && m[2].cdf == 1 && m[2].hist == 0x2,
	      "ch9 example: the shorter form, one ResourceFull RCODE=2 RDATA=0b1_01 HREPEAT=150 "
	      "(and the 301st outcome in the last message's HIST=0b1_0)");
	got.n = 0;
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s->b, s->n);
	ok = d->errors == 0 && got.n == (size_t)k;
	for (int i = 0; ok && i < k; i++)
		ok = got.a[i] == recs[i].addr;
	CHECK(ok, "ch9 example: HREPEAT stream decodes to the %d executed addresses", k);

	/* the first form (10 full 31-outcome HIST repeated), made by hand:
	 * the decoder takes any split of the same outcomes */
	{
		struct ntrace_msg w[3] = {
			{ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC, .sync = NTRACE_SYNC_TRACE_ENABLE,
			  .addr = 0x100 >> 1 },
			{ .tcode = NTRACE_TCODE_RESOURCE_FULL, .rcode = NTRACE_RCODE_HREPEAT,
			  .rdata = 0x55555555, .hrepeat = 10 },
			{ .tcode = NTRACE_TCODE_PROG_TRACE_CORRELATION, .evcode = 4, .cdf = 1,
			  .icnt = 2 * 4 * 301 / 2, .hist = 0 },
		};
		/* 10 x 30 outcomes, then the 301st (0) in the last message */
		w[2].hist = 0x2;
		s->n = 0;
		for (int i = 0; i < 3; i++) {
			int len = ntrace_msg_encode(&c, &w[i], s->b + s->n, sizeof(s->b) - s->n);

			s->n += len > 0 ? (size_t)len : 0;
		}
		got.n = 0;
		ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
		ntrace_dec_buffer(d, s->b, s->n);
		ok = d->errors == 0 && got.n == (size_t)k;
		for (int i = 0; ok && i < k; i++)
			ok = got.a[i] == recs[i].addr;
		CHECK(ok, "ch9 example: the first form, RCODE=2 RDATA=0x55555555 HREPEAT=10, "
		      "decodes to the same %d addresses", k);
	}
	free(recs);
	free(s);
	free(d);
}

/*
 * Patterns of any length (chapter 9: "it can be expanded to any size of
 * pattern"): a loop whose outcomes repeat every 3 (or 12, 29) branches, a
 * period no 31-bit HIST register repeats, is one ResourceFull RCODE=2 with
 * the pattern and its count.
 */
static void test_hist_patterns(void)
{
	static const unsigned periods[] = { 3, 12, 29 };
	struct ntrace_config c = cfg_default();
	struct ntrace_ingress *recs = calloc(4000, sizeof(*recs));
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_encoder e;
	struct ntrace_msg m[16];

	/* 0x100: beq a0,a1,0x108; 0x104: j 0x100; 0x108: j 0x100 */
	memset(code, 0, sizeof(code));
	put32(0x100, enc_b(0, 10, 11, 8));
	put32(0x104, enc_jal(0, -4));
	put32(0x108, enc_jal(0, -8));
	predecode();
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	c.trTeInstEnRepeatedHistory = true;
	for (unsigned t = 0; t < 3; t++) {
		unsigned p = periods[t], reps = 1200 / p, k = 0, n;
		uint64_t pattern = 1;
		bool ok;

		/* taken but every third outcome, and not the last (and the one
		 * before it when p is a multiple of 3): 100, 110110110100, ... */
		for (unsigned j = 0; j < p; j++)
			pattern = pattern << 1 | (j % 3 != 2 && j != p - 1 &&
						  !(p % 3 == 0 && j == p - 2));
		for (unsigned i = 0; i < reps * p; i++) {
			unsigned taken = (unsigned)(pattern >> (p - 1 - i % p)) & 1;

			recs[k++] = (struct ntrace_ingress){ .addr = 0x100, .ilen = 4,
				.itype = taken ? NTRACE_ITYPE_BRANCH_TAKEN : NTRACE_ITYPE_BRANCH_NOT_TAKEN };
			recs[k++] = (struct ntrace_ingress){ .addr = taken ? 0x108 : 0x104, .ilen = 4,
				.itype = NTRACE_ITYPE_DIRECT_JUMP_NL };
		}
		s->n = 0;
		ntrace_enc_init(&e, &c, sink, s);
		for (unsigned i = 0; i < k; i++)
			ntrace_enc_retire(&e, &recs[i]);
		ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
		n = (unsigned)parse_all(&c, s->b, s->n, m, 16);
		CHECK(n == 3 && m[1].tcode == NTRACE_TCODE_RESOURCE_FULL &&
		      m[1].rcode == NTRACE_RCODE_HREPEAT && m[1].rdata == pattern &&
		      m[1].hrepeat == reps && m[2].cdf == 0,
		      "HTM + repeated history: a %u-outcome pattern repeated %u times is one "
		      "ResourceFull RCODE=2 RDATA=%#llx HREPEAT=%u (%zu bytes)", p, reps,
		      (unsigned long long)pattern, reps, s->n);
		got.n = 0;
		ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
		ntrace_dec_buffer(d, s->b, s->n);
		ok = d->errors == 0 && got.n == k;
		for (unsigned i = 0; ok && i < k; i++)
			ok = got.a[i] == recs[i].addr;
		CHECK(ok, "HTM + repeated history: the %u-outcome pattern decodes to the %u addresses",
		      p, k);
	}
	free(recs);
	free(s);
	free(d);
}

/*
 * A RepeatBranch only right after the message it repeats: decoders repeat
 * "the previous message" (NexRv's decoder would repeat a ResourceFull).
 * Two identical loops of 40 outcomes end in identical IndirectBranchHist
 * messages, each after ResourceFull: the second is sent, not folded; two of
 * 20 outcomes (no ResourceFull) fold.
 */
static void test_repeat_branch_after_resource_full(void)
{
	struct ntrace_config c = cfg_default();
	struct ntrace_ingress recs[200];
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_encoder e;
	struct ntrace_msg m[32];

	/* 0x100: c.add; 0x102: bne a0,a1,0x100; 0x106: jr t1 (to 0x100) */
	memset(code, 0, sizeof(code));
	put16(0x100, C_ADD);
	put32(0x102, enc_b(1, 10, 11, -2));
	put32(0x106, enc_jalr(0, 6));
	predecode();
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	c.trTeInstEnRepeatedHistory = true;
	c.repeat_branch = true;
	for (unsigned loops = 40; loops >= 20; loops -= 20) {
		int n, k = 0, rb_after_rf = 0, rb = 0;
		bool ok;

		for (int seg = 0; seg < 2; seg++) {
			for (unsigned i = 0; i < loops; i++) {
				recs[k++] = (struct ntrace_ingress){ .addr = 0x100, .ilen = 2 };
				recs[k++] = (struct ntrace_ingress){ .addr = 0x102, .ilen = 4,
					.itype = i < loops - 1 ? NTRACE_ITYPE_BRANCH_TAKEN :
								 NTRACE_ITYPE_BRANCH_NOT_TAKEN };
			}
			recs[k++] = (struct ntrace_ingress){ .addr = 0x106, .ilen = 4,
				.itype = NTRACE_ITYPE_INDIRECT_JUMP_NL };
		}
		recs[k++] = (struct ntrace_ingress){ .addr = 0x100, .ilen = 2 };
		s->n = 0;
		ntrace_enc_init(&e, &c, sink, s);
		for (int i = 0; i < k; i++)
			ntrace_enc_retire(&e, &recs[i]);
		ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
		n = parse_all(&c, s->b, s->n, m, 32);
		for (int i = 1; i < n; i++) {
			rb += m[i].tcode == NTRACE_TCODE_REPEAT_BRANCH;
			rb_after_rf += m[i].tcode == NTRACE_TCODE_REPEAT_BRANCH &&
				       m[i - 1].tcode == NTRACE_TCODE_RESOURCE_FULL;
		}
		got.n = 0;
		ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
		ntrace_dec_buffer(d, s->b, s->n);
		ok = d->errors == 0 && got.n == (size_t)k;
		for (int i = 0; ok && i < k; i++)
			ok = got.a[i] == recs[i].addr;
		CHECK(ok && !rb_after_rf && rb == (loops == 20),
		      "RepeatBranch: two identical %u-outcome loops %s (%d RepeatBranch, %d after a "
		      "ResourceFull), decodes", loops,
		      loops == 20 ? "fold into one" : "each send their IndirectBranchHist", rb,
		      rb_after_rf);
	}
	free(s);
	free(d);
}

/*
 * HIST full long before any I-CNT: a 2-instruction loop run 155,000 times in
 * HTM with the largest I-CNT limit sends 5,000 ResourceFull (HIST) messages
 * before the I-CNT of those instructions comes (in the last message).  The
 * decoder used to queue them and gave up at the 4,097th ("HIST does not
 * match the code at ResourceFull"); it now walks HIST bits as they come.
 */
struct check_ctx {
	const struct ntrace_ingress *recs;
	size_t n, i;
	bool ok;
};

static void check_exec(void *ctx, uint64_t addr, unsigned flags)
{
	struct check_ctx *c = ctx;

	(void)flags;
	if (c->i >= c->n || c->recs[c->i].addr != addr)
		c->ok = false;
	c->i++;
}

static void test_hist_full_before_icnt(void)
{
	enum { LOOPS = 155000 };
	struct ntrace_config c = cfg_default();
	struct ntrace_ingress *recs = calloc(2 * LOOPS + 1, sizeof(*recs));
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct check_ctx cc = { .recs = recs, .ok = true };
	struct ntrace_parser p;
	struct ntrace_encoder e;
	struct ntrace_msg m;
	size_t k = 0, hist_full = 0;

	/* 0x100: c.add a0,a2; 0x102: bne a0,a1,0x100; 0x106: c.add */
	memset(code, 0, sizeof(code));
	put16(0x100, C_ADD);
	put32(0x102, enc_b(1, 10, 11, -2));
	put16(0x106, C_ADD);
	predecode();
	for (int i = 0; i < LOOPS; i++) {
		recs[k++] = (struct ntrace_ingress){ .addr = 0x100, .ilen = 2 };
		recs[k++] = (struct ntrace_ingress){ .addr = 0x102, .ilen = 4,
			.itype = i < LOOPS - 1 ? NTRACE_ITYPE_BRANCH_TAKEN : NTRACE_ITYPE_BRANCH_NOT_TAKEN };
	}
	recs[k++] = (struct ntrace_ingress){ .addr = 0x106, .ilen = 2 };
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	c.icnt_limit = 4194296;
	ntrace_enc_init(&e, &c, sink, s);
	for (size_t i = 0; i < k; i++)
		ntrace_enc_retire(&e, &recs[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
	ntrace_parser_init(&p, &c, s->b, s->n);
	while (ntrace_parse_next(&p, &m) == NTRACE_OK)
		hist_full += m.tcode == NTRACE_TCODE_RESOURCE_FULL && m.rcode == NTRACE_RCODE_HIST;
	cc.n = k;
	ntrace_dec_init(d, &c, lookup, check_exec, NULL, &cc);
	ntrace_dec_buffer(d, s->b, s->n);
	CHECK(hist_full > 4096 && d->errors == 0 && cc.ok && cc.i == k,
	      "HTM, I-CNT limit 4194296: a 2-instruction loop run %d times (%zu HIST-full "
	      "ResourceFull before any I-CNT) decodes to its %zu addresses (%llu errors)",
	      LOOPS, hist_full, k, (unsigned long long)d->errors);
	free(recs);
	free(s);
	free(d);
}

/*
 * A conditional branch that ends the range of an IndirectBranch without a
 * HIST bit: the reference encoder (NexRv) models no trap and reports an
 * instruction a trap follows as an indirect jump, branches included.  Its
 * direction does not matter there (the message gives the next address).
 */
static void test_branch_ends_indirect_range(void)
{
	const struct ntrace_ingress recs[] = {
		{ .addr = 0x100, .ilen = 2 },
		{ .addr = 0x102, .ilen = 4, .itype = NTRACE_ITYPE_BRANCH_NOT_TAKEN },
		{ .addr = 0x106, .ilen = 4, .itype = NTRACE_ITYPE_INDIRECT_JUMP_NL },	/* bne, then a trap */
		{ .addr = 0x300, .ilen = 4 },
	};
	struct ntrace_config c = cfg_default();
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_encoder e;
	bool ok;

	memset(code, 0, sizeof(code));
	put16(0x100, C_ADD);
	put32(0x102, enc_b(0, 10, 11, 0x40));
	put32(0x106, enc_b(1, 10, 11, 0x40));
	put32(0x300, ADD);
	predecode();
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	ntrace_enc_init(&e, &c, sink, s);
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		ntrace_enc_retire(&e, &recs[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
	got.n = 0;
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s->b, s->n);
	ok = d->errors == 0 && got.n == 4;
	for (size_t i = 0; ok && i < 4; i++)
		ok = got.a[i] == recs[i].addr;
	CHECK(ok, "HTM: a branch ending an IndirectBranch range with no HIST bit of its own "
	      "(a trap after it, as NexRv reports it) decodes (%llu errors)",
	      (unsigned long long)d->errors);
	free(s);
	free(d);
}

/* ---- corrupt and truncated streams ------------------------------------------------- */

static void test_corrupt(void)
{
	struct ntrace_config c = cfg_default();
	static const uint8_t good[] = { 0x24, 0x01, 0x03,	/* ProgTraceSync */
					0x0c, 0x0f,		/* DirectBranch I-CNT=3 */
					0xff,
					0x70, 0xd0, 0x1d, 0x1d, 0xf8, 0xff };
	struct ntrace_msg m[8];
	int bad = 0;

	/* every truncation: no read past the end, a clear error, then the end */
	for (size_t cut = 0; cut < sizeof(good); cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);	/* exact size: ASan sees overreads */
		struct ntrace_parser p;
		int rc, errs = 0, msgs = 0;

		memcpy(copy, good, cut);
		ntrace_parser_init(&p, &c, copy, cut);
		while ((rc = ntrace_parse_next(&p, &m[0])) != NTRACE_END) {
			if (rc == NTRACE_E_TRUNCATED)
				errs++;
			else if (rc == 0)
				msgs++;
			else
				bad++;
		}
		if (p.pos != cut)
			bad++;
		/* a cut inside a message is reported once */
		if (cut != 0 && cut != 3 && cut != 5 && cut != 6 && cut != sizeof(good) && errs != 1)
			bad++;
		free(copy);
	}
	CHECK(bad == 0, "every truncation of a stream is reported as truncated, never read past");

	{
		/* reserved MSEO=10 inside a message: error, then the next message */
		uint8_t s[] = { 0x24, 0x02, 0x03, 0x0c, 0x0f };
		struct ntrace_parser p;
		int rc1, rc2;

		ntrace_parser_init(&p, &c, s, sizeof(s));
		rc1 = ntrace_parse_next(&p, &m[0]);
		rc2 = ntrace_parse_next(&p, &m[1]);
		CHECK(rc1 == NTRACE_E_MSEO && rc2 == 0 && m[1].tcode == 3 && m[1].icnt == 3 &&
		      ntrace_parse_next(&p, &m[2]) == NTRACE_END,
		      "reserved MSEO=10: '%s', resynchronised on the next message",
		      ntrace_strerror(rc1));
	}
	{
		/* after a framing error the message is still fully defined (the
		 * fuzzer found a caller reading an uninitialised has_tstamp) */
		uint8_t s[] = { 0x26, 0x03 };
		struct ntrace_parser p;
		struct ntrace_msg g;
		int rc;

		memset(&g, 0xaa, sizeof(g));
		ntrace_parser_init(&p, &c, s, sizeof(s));
		rc = ntrace_parse_next(&p, &g);
		CHECK(rc == NTRACE_E_MSEO && g.tcode == 0 && g.has_tstamp == 0 && g.icnt == 0,
		      "a framing error leaves the message zeroed, not stale");
	}
	{
		/* a stream of zeros is one endless message: too long, no hang */
		static uint8_t zeros[1000];
		struct ntrace_parser p;
		int rc, n = 0, errs = 0;

		ntrace_parser_init(&p, &c, zeros, sizeof(zeros));
		while ((rc = ntrace_parse_next(&p, &m[0])) != NTRACE_END && n++ < 100)
			errs += rc == NTRACE_E_TOO_LONG || rc == NTRACE_E_TRUNCATED;
		CHECK(rc == NTRACE_END && errs >= 1, "1000 zero bytes: '%s', no hang",
		      ntrace_strerror(NTRACE_E_TOO_LONG));
	}
	{
		/* reserved TCODE and a layout error, each followed by a good message */
		uint8_t s[] = { 0x04, 0x03, 0x0c, 0x0f,		/* TCODE=1 */
				0x10, 0x03, 0x0c, 0x0f,		/* IndirectBranch ends early */
				0xe0, 0x03, 0x0c, 0x0f };	/* vendor TCODE=56 */
		struct ntrace_parser p;
		int rc[6];

		ntrace_parser_init(&p, &c, s, sizeof(s));
		for (int i = 0; i < 6; i++)
			rc[i] = ntrace_parse_next(&p, &m[0]);
		CHECK(rc[0] == NTRACE_E_TCODE && rc[1] == 0 && rc[2] == NTRACE_E_LAYOUT &&
		      rc[3] == 0 && rc[4] == NTRACE_E_TCODE && rc[5] == 0,
		      "reserved/vendor TCODE and short message are errors, the next message parses");
	}
	{
		/* random bytes: the parser and decoder never crash (ASan/UBSan) */
		struct ntrace_decoder *d = calloc(1, sizeof(*d));
		uint8_t *buf = malloc(4096);
		unsigned seed = 12345;

		load_icnt_example();
		for (int round = 0; round < 200; round++) {
			for (int i = 0; i < 4096; i++) {
				seed = seed * 1103515245u + 12345u;
				buf[i] = (uint8_t)(seed >> 16);
			}
			ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
			got.n = 0;
			ntrace_dec_buffer(d, buf, (size_t)(seed % 4096));
		}
		CHECK(1, "200 random streams parsed and decoded without a crash");
		free(buf);
		free(d);
	}
}

/* ---- encoder/decoder round trip over a model hart --------------------------------- */

/*
 * Program: main loop calls f (direct) and g (indirect, via a register), f has
 * a data-dependent branch and a nested call; main then calls k through an
 * AUIPC+JALR pair, and k's jumps, calls and return are all LUI/C.LUI/AUIPC +
 * JALR/C.JR/C.JALR pairs (sequential jumps); an interrupt handler at 0x600
 * may be entered after any instruction (so between a pair too) and returns
 * with MRET; a few plain instructions raise an exception (handled at 0x600
 * too, re-executed).
 */
static void load_program(void)
{
	memset(code, 0, sizeof(code));
	/* main */
	put32(0x100, enc_jal(1, 0x200 - 0x100));	/* call f */
	put16(0x104, C_NOP);
	put32(0x106, enc_jalr(1, 6));			/* jalr ra,0(t1): call g */
	put32(0x10a, enc_b(1, 10, 0, 0x100 - 0x10a));	/* bnez a0, main */
	put32(0x10e, enc_auipc(7, 0));			/* auipc t2,0 */
	put32(0x112, enc_jalr_off(1, 7, 0x500 - 0x10e));	/* jalr ra,0x3f2(t2): call k */
	put16(0x116, enc_cj(0x100 - 0x116));		/* c.j main */
	/* f */
	put16(0x200, C_NOP);
	put32(0x202, enc_b(0, 10, 11, 0x20c - 0x202));	/* beq -> 0x20c */
	put32(0x206, enc_jal(5, 0x300 - 0x206));	/* call h via t0 (link) */
	put16(0x20a, C_NOP);
	put16(0x20c, C_ADD);
	put16(0x20e, C_JR_RA);				/* ret */
	/* h: returns through t0 */
	put16(0x300, C_ADD);
	put32(0x302, enc_b(1, 10, 11, 0x302 - 0x302 + 8)); /* bne -> 0x30a */
	put16(0x306, C_NOP);
	put16(0x308, C_NOP);
	put32(0x30a, enc_jalr(0, 5));			/* jr t0: return */
	/* g */
	put32(0x400, ADD);
	put32(0x404, enc_jalr(0, 1));			/* ret */
	/* k */
	put16(0x500, C_ADD);
	put32(0x502, enc_lui(7, 2));			/* lui t2,2 */
	put16(0x506, C_JALR(7));			/* c.jalr t2: call 0x2000 */
	put16(0x508, enc_clui(28, 1));			/* c.lui t3,1 */
	put32(0x50a, enc_jalr_off(0, 28, 0x10));	/* jr 0x10(t3): 0x1010 */
	put16(0x1010, C_NOP);
	put32(0x1012, enc_auipc(7, 0));			/* auipc t2,0 */
	put32(0x1016, enc_jalr_off(1, 7, 0x20));	/* jalr ra,0x20(t2): call 0x1032 */
	put16(0x101a, C_NOP);
	put32(0x101c, enc_lui(1, 0));			/* lui ra,0 */
	put32(0x1020, enc_jalr_off(0, 1, 0x116));	/* jr 0x116(ra): return to main */
	put16(0x1032, C_ADD);
	put16(0x1034, C_JR_RA);
	put16(0x2000, C_ADD);
	put16(0x2002, C_JR_RA);
	/* handler */
	put16(0x600, C_NOP);
	put32(0x602, enc_b(0, 10, 11, 0x60a - 0x602));
	put16(0x606, C_NOP);
	put16(0x608, C_NOP);
	put32(0x60a, MRET);
	predecode();
}

struct model {
	uint64_t pc, mepc, x[32];
	unsigned seed;
	bool in_handler;
	bool prev_load;		/* the last retired instruction was a constant load */
	uint8_t prev_rd;
};

/* Programs that change return addresses break implicit-return mode 1
 * (counting only), as the spec says: off for those runs. */
static bool model_misbehaves = true;

static unsigned rnd(struct model *h)
{
	h->seed = h->seed * 1103515245u + 12345u;
	return (h->seed >> 16) & 0x7fff;
}

/* Where an indirect jump goes; the hart's sequential-jump flag. */
static uint64_t model_indirect(struct model *h, const struct ntrace_insn *in,
			       struct ntrace_ingress *r)
{
	uint64_t next;

	if (h->prev_load && h->prev_rd == in->rs1)
		r->flags |= NTRACE_REC_SEQ_INFERABLE;
	if (h->pc == 0x106)
		next = 0x400;
	else if (h->pc == 0x20e || h->pc == 0x404)
		/* returns; sometimes a program changes its return address */
		next = model_misbehaves && rnd(h) % 29 == 0 ? 0x10e : h->x[1];
	else
		next = (h->x[in->rs1] + (uint64_t)(int64_t)in->imm) & ~1ull;
	if (in->rd)
		h->x[in->rd] = h->pc + in->len;
	return next;
}

/* Runs n records of the model hart; rec[i] and the executed trail. */
static int run_model(struct ntrace_ingress *rec, int n, unsigned seed, struct trail *t)
{
	struct model h = { .pc = 0x100, .seed = seed };
	int k = 0;

	t->n = 0;
	while (k < n) {
		const struct ntrace_insn *in = lookup(NULL, h.pc);
		struct ntrace_ingress r = { .addr = h.pc, .ilen = in->len, .tstamp = (uint64_t)k * 3,
					    .priv = h.in_handler ? 3 : 1 };
		uint64_t next = h.pc + in->len;

		t->a[t->n++] = h.pc;
		/* an exception on a plain instruction (not in the handler) */
		if (!h.in_handler && in->kind == NTRACE_K_PLAIN && rnd(&h) % 37 == 0) {
			r.itype = NTRACE_ITYPE_EXCEPTION;
			rec[k++] = r;
			h.mepc = h.pc;
			h.in_handler = true;
			h.prev_load = false;
			h.pc = 0x600;
			continue;
		}
		switch (in->kind) {
		case NTRACE_K_BRANCH:
			if (rnd(&h) % 3 == 0) {
				next = in->target;
				r.itype = NTRACE_ITYPE_BRANCH_TAKEN;
			} else {
				r.itype = NTRACE_ITYPE_BRANCH_NOT_TAKEN;
			}
			break;
		case NTRACE_K_JUMP:
			r.itype = in->itype;
			if (in->rd)
				h.x[in->rd] = next;
			next = in->target;
			break;
		case NTRACE_K_INDIRECT:
			r.itype = in->itype;
			next = model_indirect(&h, in, &r);
			break;
		case NTRACE_K_TRAP_RETURN:
			r.itype = NTRACE_ITYPE_TRAP_RETURN;
			next = h.mepc;
			h.in_handler = false;
			break;
		default:
			if (in->const_load)
				h.x[in->rd] = in->target;
			break;
		}
		/* an interrupt after this instruction */
		if (!h.in_handler && r.itype == NTRACE_ITYPE_NONE && rnd(&h) % 41 == 0) {
			r.itype = NTRACE_ITYPE_INTERRUPT;
			h.mepc = next;
			h.in_handler = true;
			next = 0x600;
		}
		h.prev_load = in->const_load && r.itype == NTRACE_ITYPE_NONE;
		h.prev_rd = in->rd;
		rec[k++] = r;
		h.pc = next;
	}
	return k;
}

static struct trail expect_trail;

/* The existing option sets: mode, implicit return, opt bits. */
static struct ntrace_config model_config(int mode, int ir, int opt)
{
	struct ntrace_config c = cfg_default();

	c.trTeInstMode = mode ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM;
	c.trTeInstImplicitReturnMode = (uint8_t)ir;
	c.ret_stack_depth = ir == 2 ? 1 : 8;
	c.trTeContext = true;
	if (opt & 1) {
		c.trTeInstEnRepeatedHistory = true;
		c.repeat_branch = true;
	}
	if (opt & 2) {
		c.trTeInstSyncMode = NTRACE_SYNC_MODE_ICNT;
		c.trTeInstSyncMax = 4;	/* 256 halfwords */
		c.trTsEnable = true;
		c.icnt_limit = 50;
		c.hist_bits = 5;
		c.trTeInstExtendAddrMSB = true;
		c.trTeSrcBits = 4;
		c.trTeSrcID = 9;
	}
	return c;
}

struct rt_result {
	uint64_t messages, sync4, icnt_full, bytes;
	bool ok;
};

/* Encodes nrec records of the model, decodes, compares with the trail. */
static struct rt_result round_trip(const struct ntrace_config *c, const struct ntrace_ingress *rec,
				   int nrec, struct stream *s, struct ntrace_decoder *d)
{
	struct rt_result res = { 0 };
	struct ntrace_encoder e;
	struct ntrace_parser p;
	struct ntrace_msg m;

	s->n = 0;
	ntrace_enc_init(&e, c, sink, s);
	for (int i = 0; i < nrec; i++)
		ntrace_enc_retire(&e, &rec[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
	got.n = 0;
	ntrace_dec_init(d, c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s->b, s->n);
	ntrace_parser_init(&p, c, s->b, s->n);
	while (ntrace_parse_next(&p, &m) == NTRACE_OK) {
		res.sync4 += ntrace_tcode_is_sync(m.tcode) && m.sync == NTRACE_SYNC_ICNT;
		res.icnt_full += m.tcode == NTRACE_TCODE_RESOURCE_FULL && m.rcode == NTRACE_RCODE_ICNT;
	}
	/* the model's last instruction may be a pending jump or exception the
	 * stop cannot report */
	res.ok = d->errors == 0 && e.error == 0 && got.n <= expect_trail.n &&
		 got.n + 1 >= expect_trail.n &&
		 memcmp(got.a, expect_trail.a, got.n * sizeof(got.a[0])) == 0;
	if (!res.ok) {
		size_t i = 0;

		while (i < got.n && got.a[i] == expect_trail.a[i])
			i++;
		printf("    decoded %zu of %zu, errors %llu (%s), first difference at %zu: "
		       "%#llx instead of %#llx\n", got.n, expect_trail.n,
		       (unsigned long long)d->errors, ntrace_strerror(d->last_error), i,
		       i < got.n ? (unsigned long long)got.a[i] : 0ull,
		       (unsigned long long)expect_trail.a[i]);
		for (size_t j = i > 8 ? i - 8 : 0; j < i + 3; j++) printf("      [%zu] exp %#llx got %#llx\n", j, (unsigned long long)expect_trail.a[j], (unsigned long long)got.a[j]);
	}
	res.messages = e.messages;
	res.bytes = s->n;
	return res;
}

/* nx: the new switches, bit 0 trTeInstEnSequentialJump, bit 1
 * trTeInstEnAllJumps, bit 2 icnt_full_sync (BTM only, with a small I-CNT limit). */
static void add_new_switches(struct ntrace_config *c, int nx)
{
	c->trTeInstEnSequentialJump = nx & 1;
	c->trTeInstEnAllJumps = (nx >> 1) & 1;
	c->icnt_full_sync = (nx >> 2) & 1;
	if (c->icnt_full_sync)
		c->icnt_limit = 6;	/* fills often even between messages */
}

static void test_model_round_trips(void)
{
	struct ntrace_ingress *rec = calloc(100000, sizeof(*rec));
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	int nrec, bad_sync4 = 0, sync4_runs = 0, icnt_sync_runs = 0;

	load_program();
	for (int mode = 0; mode < 2; mode++)
		for (int ir = 0; ir < 4; ir++)
			for (int opt = 0; opt < 4; opt++)
				for (int nx = 0; nx < (mode ? 4 : 8); nx++) {
					struct ntrace_config c = model_config(mode, ir, opt);
					struct rt_result res;

					add_new_switches(&c, nx);
					model_misbehaves = ir != 1;
					nrec = run_model(rec, nx ? 20000 : 60000,
							 7u + (unsigned)(mode * 16 + ir * 4 + opt + nx * 64),
							 &expect_trail);
					res = round_trip(&c, rec, nrec, s, d);
					/* SYNC=4 replaces every ResourceFull RCODE=0 */
					if (c.icnt_full_sync) {
						bad_sync4 += res.icnt_full != 0;
						sync4_runs += res.sync4 != 0;
						icnt_sync_runs++;
					}
					CHECK(res.ok, "model round trip %s implicit-return=%d%s%s%s%s%s: "
					      "%zu instructions, %llu messages, %.2f bits/instr",
					      mode ? "HTM" : "BTM", ir, opt & 1 ? " repeat" : "",
					      opt & 2 ? " sync+tstamp+small-limits+ext+SRC" : "",
					      nx & 1 ? " sequential-jump" : "", nx & 2 ? " all-jumps" : "",
					      nx & 4 ? " icnt-full-sync" : "", expect_trail.n,
					      (unsigned long long)res.messages,
					      8.0 * (double)res.bytes / (double)expect_trail.n);
				}
	CHECK(bad_sync4 == 0 && sync4_runs >= icnt_sync_runs * 3 / 4,
	      "with icnt_full_sync a full I-CNT is a SYNC=4 (in %d of %d runs), never a ResourceFull "
	      "RCODE=0 (%d runs with one)", sync4_runs, icnt_sync_runs, bad_sync4);
	free(rec);
	free(s);
	free(d);
}

static void test_decoder_resync(void)
{
	/* a corrupted byte in the middle: errors, then the next sync decodes */
	struct ntrace_ingress *rec = calloc(20000, sizeof(*rec));
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_config c = cfg_default();
	struct ntrace_encoder e;
	int nrec;
	size_t tail;

	load_program();
	c.trTeInstSyncMode = NTRACE_SYNC_MODE_MESSAGES;
	c.trTeInstSyncMax = 2;	/* every 64 messages */
	nrec = run_model(rec, 20000, 99, &expect_trail);
	ntrace_enc_init(&e, &c, sink, s);
	for (int i = 0; i < nrec; i++)
		ntrace_enc_retire(&e, &rec[i]);
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
	s->b[s->n / 2] ^= 0x5a;
	got.n = 0;
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s->b, s->n);
	/* the tail of the decoded sequence matches the tail of the run (whose
	 * very last instruction may be a pending one the stop cannot report) */
	tail = got.n > 1000 ? 1000 : got.n;
	printf("    decoded %zu of %zu\n", got.n, expect_trail.n);
	CHECK(d->errors >= 1 && got.n > expect_trail.n / 2 && tail == 1000 &&
	      (memcmp(got.a + got.n - tail, expect_trail.a + expect_trail.n - tail - 1,
		      tail * sizeof(got.a[0])) == 0 ||
	       memcmp(got.a + got.n - tail, expect_trail.a + expect_trail.n - tail,
		      tail * sizeof(got.a[0])) == 0),
	      "a corrupted byte: %llu error(s) (%s), decoding resumes at the next sync",
	      (unsigned long long)d->errors, ntrace_strerror(d->last_error));
	free(rec);
	free(s);
	free(d);
}

static void test_lost_messages(void)
{
	/* records 5000..5999 lost: Error, then ProgTraceSync SYNC=7; the
	 * decoder reports the loss and decodes the rest exactly */
	struct ntrace_ingress *rec = calloc(20000, sizeof(*rec));
	struct stream *s = calloc(1, sizeof(*s));
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct ntrace_config c = cfg_default();
	struct ntrace_encoder e;
	struct ntrace_parser p;
	struct ntrace_msg m;
	int nrec, errors_msgs = 0, sync7 = 0, ok;
	size_t tail;

	load_program();
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	nrec = run_model(rec, 20000, 5, &expect_trail);
	ntrace_enc_init(&e, &c, sink, s);
	for (int i = 0; i < nrec; i++) {
		if (i == 5000)
			ntrace_enc_lost(&e);
		if (i < 5000 || i >= 6000)
			ntrace_enc_retire(&e, &rec[i]);
	}
	ntrace_enc_stop(&e, NTRACE_EVCODE_TRACE_DISABLED);
	ntrace_parser_init(&p, &c, s->b, s->n);
	while (ntrace_parse_next(&p, &m) == NTRACE_OK) {
		errors_msgs += m.tcode == NTRACE_TCODE_ERROR;
		sync7 += m.tcode == NTRACE_TCODE_PROG_TRACE_SYNC && m.sync == NTRACE_SYNC_FIFO_OVERRUN;
	}
	got.n = 0;
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s->b, s->n);
	/* the decoded tail is the run from record 6000 on (the model trail has
	 * one entry per record; the very last may stay pending at the stop) */
	tail = (size_t)(nrec - 6000 - 1);
	ok = d->errors == 1 && d->last_error == NTRACE_E_LOST && errors_msgs == 1 && sync7 == 1 &&
	     got.n >= tail &&
	     (memcmp(got.a + got.n - tail, expect_trail.a + 6000, tail * sizeof(got.a[0])) == 0 ||
	      memcmp(got.a + got.n - tail, expect_trail.a + 6001, tail * sizeof(got.a[0])) == 0);
	if (!ok)
		printf("    errors %llu (%s), Error messages %d, SYNC=7 %d, decoded %zu\n",
		       (unsigned long long)d->errors, ntrace_strerror(d->last_error), errors_msgs,
		       sync7, got.n);
	CHECK(ok, "lost messages: Error then ProgTraceSync SYNC=7; the decoder reports '%s' and "
	      "resumes exactly", ntrace_strerror(NTRACE_E_LOST));
	free(rec);
	free(s);
	free(d);
}

static void test_isa(void)
{
	struct ntrace_insn in;
	int ok = 1;

	ntrace_isa_decode(0x8082, 0x1000, 64, &in);		/* c.jr ra */
	ok &= in.len == 2 && in.kind == NTRACE_K_INDIRECT && in.itype == NTRACE_ITYPE_RETURN;
	ntrace_isa_decode(0x9282, 0x1000, 64, &in);		/* c.jalr t0 */
	ok &= in.len == 2 && in.itype == NTRACE_ITYPE_COROUTINE_SWAP;
	ntrace_isa_decode(0x9302, 0x1000, 64, &in);		/* c.jalr t1 */
	ok &= in.itype == NTRACE_ITYPE_INDIRECT_CALL;
	ntrace_isa_decode(0x2001, 0x1000, 32, &in);		/* c.jal +0 (RV32) */
	ok &= in.kind == NTRACE_K_JUMP && in.itype == NTRACE_ITYPE_DIRECT_CALL && in.target == 0x1000;
	ntrace_isa_decode(0x2001, 0x1000, 64, &in);		/* c.addiw (RV64) */
	ok &= in.kind == NTRACE_K_PLAIN;
	ntrace_isa_decode(0xbffd, 0x1000, 64, &in);		/* c.j -2 */
	ok &= in.kind == NTRACE_K_JUMP && in.target == 0xffe;
	ntrace_isa_decode(0xdd7d, 0x1000, 64, &in);		/* c.beqz s0,-2 */
	ok &= in.kind == NTRACE_K_BRANCH && in.target == 0xffe;
	ntrace_isa_decode(enc_b(5, 1, 2, -4096), 0x2000, 64, &in);
	ok &= in.kind == NTRACE_K_BRANCH && in.target == 0x1000 && in.len == 4;
	ntrace_isa_decode(enc_jal(0, -(1 << 20)), 0x100000, 64, &in);
	ok &= in.kind == NTRACE_K_JUMP && in.target == 0 && in.itype == NTRACE_ITYPE_DIRECT_JUMP_NL;
	ntrace_isa_decode(enc_jal(1, 8), 0xfffffffc, 32, &in);
	ok &= in.target == 4;						/* wraps at 32 bits */
	ntrace_isa_decode(0x00000073, 0, 64, &in);
	ok &= in.kind == NTRACE_K_TRAP;
	ntrace_isa_decode(0x10200073, 0, 64, &in);
	ok &= in.kind == NTRACE_K_TRAP_RETURN;
	ntrace_isa_decode(0x9002, 0, 64, &in);
	ok &= in.kind == NTRACE_K_TRAP;
	ntrace_isa_decode(enc_jalr(5, 1), 0, 64, &in);
	ok &= in.itype == NTRACE_ITYPE_COROUTINE_SWAP;
	ntrace_isa_decode(enc_jalr(6, 1), 0, 64, &in);
	ok &= in.itype == NTRACE_ITYPE_RETURN;
	ntrace_isa_decode(enc_jalr(6, 7), 0, 64, &in);
	ok &= in.itype == NTRACE_ITYPE_INDIRECT_JUMP_L;
	ntrace_isa_decode(0x0000001f, 0, 64, &in);
	ok &= in.len == 0;
	CHECK(ok, "RV32GC/RV64GC lengths, targets and itype (compressed included)");
	ok = 1;
	ntrace_isa_decode(enc_lui(7, 0x80000), 0x100, 64, &in);	/* sign-extended to XLEN */
	ok &= in.kind == NTRACE_K_PLAIN && in.const_load && in.rd == 7 &&
	      in.target == 0xffffffff80000000ull;
	ntrace_isa_decode(enc_lui(7, 0x80000), 0x100, 32, &in);
	ok &= in.const_load && in.target == 0x80000000u;
	ntrace_isa_decode(enc_auipc(5, 0xfffff), 0x100, 64, &in);	/* pc - 4096 */
	ok &= in.const_load && in.rd == 5 && in.target == 0xfffffffffffff100ull;
	ntrace_isa_decode(enc_auipc(5, 0xfffff), 0x100, 32, &in);
	ok &= in.const_load && in.target == 0xfffff100u;
	ntrace_isa_decode(enc_clui(28, -1), 0, 64, &in);
	ok &= in.len == 2 && in.const_load && in.rd == 28 && in.target == 0xfffffffffffff000ull;
	ntrace_isa_decode(enc_clui(28, 31), 0, 32, &in);
	ok &= in.const_load && in.target == 0x1f000;
	ntrace_isa_decode(enc_clui(2, 1), 0, 64, &in);		/* c.addi16sp */
	ok &= !in.const_load;
	ntrace_isa_decode(enc_lui(0, 1), 0, 64, &in);		/* hint: no register */
	ok &= !in.const_load;
	ntrace_isa_decode(enc_jalr_off(0, 7, -2048), 0, 64, &in);
	ok &= in.kind == NTRACE_K_INDIRECT && in.rs1 == 7 && in.imm == -2048;
	ntrace_isa_decode(C_JR(7), 0, 64, &in);
	ok &= in.kind == NTRACE_K_INDIRECT && in.rs1 == 7 && in.imm == 0;
	ok &= enc_cj(-2) == 0xbffd;
	CHECK(ok, "LUI/AUIPC/C.LUI values (sign-extended to XLEN, AUIPC wrapped), JALR offsets");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		prefix = argv[1];
	test_framing_example();
	test_ownership_examples();
	test_every_message();
	test_var_boundaries();
	test_address_examples();
	test_icnt_examples();
	test_hrepeat_example();
	test_hist_patterns();
	test_repeat_branch_after_resource_full();
	test_hist_full_before_icnt();
	test_branch_ends_indirect_range();
	test_isa();
	test_sequential_jump();
	test_all_jumps();
	test_corrupt();
	test_model_round_trips();
	test_decoder_resync();
	test_lost_messages();
	printf("%s%d checks, %d failed\n", prefix, checks, failures);
	return failures ? 1 : 0;
}
