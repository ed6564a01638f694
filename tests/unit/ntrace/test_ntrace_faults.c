// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of lib/ntrace's error surface: every parse or decode error
 * names its byte offset, message number, field and value (struct
 * ntrace_fault); the decoder's SRC filter; counts wider than chapter 6's
 * limits (lenient); trTeInstMode from a stream; the controls by name.
 * One line per check: "[prefix]PASS: ntrace-faults: ..." / "FAIL: ...".
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
	printf("%s%s: ntrace-faults: ", prefix, ok_ ? "PASS" : "FAIL");	\
	printf(__VA_ARGS__);						\
	if (!ok_) {							\
		printf(" (%s:%d: %s)", __FILE__, __LINE__, #cond);	\
		failures++;						\
	}								\
	printf("\n");							\
} while (0)

/* ---- a small program: plain 4-byte instructions, a JALR at BASE + 0x40 ---- */

#define BASE	0x80000000ull
#define NINSN	64	/* halfwords */

static struct ntrace_insn code[NINSN];

static void build_code(void)
{
	for (unsigned i = 0; i < NINSN; i++) {
		uint32_t w = (i & 1) ? 0 : (i == 0x20 ? 0x00008067 : 0x00000013);

		ntrace_isa_decode(w, BASE + 2 * i, 64, &code[i]);
	}
}

static const struct ntrace_insn *lookup(void *ctx, uint64_t addr)
{
	(void)ctx;
	if (addr < BASE || addr >= BASE + 2 * NINSN || (addr & 1))
		return NULL;
	return &code[(addr - BASE) / 2];
}

static uint64_t executed;

static void exec_cb(void *ctx, uint64_t addr, unsigned flags)
{
	(void)ctx;
	(void)addr;
	(void)flags;
	executed++;
}

/* ---- building streams ----------------------------------------------------- */

struct stream {
	uint8_t b[4096];
	size_t n;
};

static size_t put(struct stream *s, const struct ntrace_config *c, const struct ntrace_msg *m)
{
	size_t at = s->n;
	int n = ntrace_msg_encode(c, m, s->b + s->n, sizeof(s->b) - s->n);

	if (n > 0)
		s->n += (size_t)n;
	return at;
}

static struct ntrace_msg sync_at(uint64_t addr)
{
	return (struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC,
				    .sync = NTRACE_SYNC_TRACE_ENABLE, .addr = addr >> 1 };
}

/* IndirectBranch after icnt halfwords to addr, from last */
static struct ntrace_msg ib(uint64_t icnt, uint64_t last, uint64_t addr)
{
	return (struct ntrace_msg){ .tcode = NTRACE_TCODE_INDIRECT_BRANCH, .icnt = icnt,
				    .addr = (last ^ addr) >> 1 };
}

static bool field_is(const struct ntrace_fault *f, const char *name)
{
	return f->field && name && !strcmp(f->field, name);
}

/* ---- parser faults ----------------------------------------------------------- */

static void test_parser_faults(void)
{
	struct ntrace_config c;
	struct ntrace_parser p;
	struct ntrace_msg m;
	struct stream s = { .n = 0 };
	size_t second;
	int rc;

	ntrace_config_default(&c);
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 5 });
	second = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 300 });
	s.b[second + 1] = (uint8_t)((s.b[second + 1] & ~3u) | NTRACE_MSEO_RESERVED);
	ntrace_parser_init(&p, &c, s.b, s.n);
	ntrace_parse_next(&p, &m);
	rc = ntrace_parse_next(&p, &m);
	CHECK(rc == NTRACE_E_MSEO && p.fault.err == rc && p.fault.offset == second + 1 &&
	      p.fault.msg == 2 && field_is(&p.fault, "MSEO") && p.fault.value == 2,
	      "a reserved MSEO: the byte at fault (offset %llu), message 2, MSEO=2",
	      (unsigned long long)p.fault.offset);

	/* a reserved TCODE (0) names TCODE and its value */
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 5 });
	s.b[s.n++] = (uint8_t)(7u << 2);		/* TCODE=7, reserved */
	s.b[s.n++] = (uint8_t)(1u << 2 | NTRACE_MSEO_END_MSG);
	ntrace_parser_init(&p, &c, s.b, s.n);
	ntrace_parse_next(&p, &m);
	rc = ntrace_parse_next(&p, &m);
	CHECK(rc == NTRACE_E_TCODE && p.fault.offset == 2 && p.fault.msg == 2 &&
	      field_is(&p.fault, "TCODE") && p.fault.value == 7 && p.fault.tcode == 7,
	      "a reserved TCODE: offset 2, message 2, TCODE=7");

	/* a variable field of more than 64 bits names the field */
	s.n = 0;
	s.b[s.n++] = (uint8_t)(NTRACE_TCODE_DIRECT_BRANCH << 2);
	for (int i = 0; i < 11; i++)
		s.b[s.n++] = (uint8_t)(0x3f << 2);
	s.b[s.n++] = (uint8_t)(0x3f << 2 | NTRACE_MSEO_END_MSG);
	ntrace_parser_init(&p, &c, s.b, s.n);
	rc = ntrace_parse_next(&p, &m);
	CHECK(rc == NTRACE_E_TOO_LONG && p.fault.offset == 0 && p.fault.msg == 1 &&
	      field_is(&p.fault, "I-CNT") && p.fault.tcode == NTRACE_TCODE_DIRECT_BRANCH,
	      "an I-CNT of 72 bits: message 1, field I-CNT");

	/* a stream that ends inside a message */
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 5 });
	second = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 300 });
	ntrace_parser_init(&p, &c, s.b, s.n - 1);
	ntrace_parse_next(&p, &m);
	rc = ntrace_parse_next(&p, &m);
	CHECK(rc == NTRACE_E_TRUNCATED && p.fault.offset == second && p.fault.msg == 2 &&
	      p.fault.value == s.n - 1 - second,
	      "a truncated message: its offset, message 2, the bytes left (%llu)",
	      (unsigned long long)p.fault.value);
}

/* ---- decoder faults and the SRC filter ---------------------------------------- */

static void test_decoder_faults(void)
{
	struct ntrace_config c;
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct stream s = { .n = 0 };
	size_t at;

	ntrace_config_default(&c);
	/* I-CNT 3 from BASE ends inside the second 4-byte instruction */
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_OWNERSHIP, .process = 0xc });
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC,
					   .sync = NTRACE_SYNC_TRACE_ENABLE, .addr = BASE >> 1 });
	at = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 3 });
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->errors == 1 && d->fault.err == NTRACE_E_ICNT && d->fault.offset == at &&
	      d->fault.msg == 3 && d->fault.tcode == NTRACE_TCODE_DIRECT_BRANCH &&
	      field_is(&d->fault, "I-CNT") && d->fault.value == 3 && d->fault.has_pc,
	      "I-CNT not matching the code: offset %zu, message 3, DirectBranch I-CNT=3, PC %#llx",
	      at, (unsigned long long)d->fault.pc);

	/* an I-CNT wider than 22 bits (the spec's limit) is refused, named */
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC,
					   .sync = NTRACE_SYNC_TRACE_ENABLE, .addr = BASE >> 1 });
	at = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_INDIRECT_BRANCH,
					       .icnt = 49231905 });
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->errors == 1 && d->fault.err == NTRACE_E_WIDE && d->fault.offset == at &&
	      d->fault.msg == 2 && field_is(&d->fault, "I-CNT") && d->fault.value == 49231905,
	      "I-CNT=49231905 (26 bits): NTRACE_E_WIDE naming I-CNT and its value");

	/* lenient: accepted and counted, the first one remembered */
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC,
					   .sync = NTRACE_SYNC_TRACE_ENABLE, .addr = BASE >> 1 });
	at = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_RESOURCE_FULL,
					       .rcode = NTRACE_RCODE_ICNT, .rdata = 1u << 22 });
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_RESOURCE_FULL,
					   .rcode = NTRACE_RCODE_ICNT, .rdata = 1u << 23 });
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	d->lenient = true;
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->wide_fields == 2 && d->wide_first.offset == at && d->wide_first.msg == 2 &&
	      field_is(&d->wide_first, "RDATA") && d->wide_first.value == 1u << 22 &&
	      d->fault.err == NTRACE_E_UNINFERABLE,
	      "lenient: two ResourceFull RDATA of 23 and 24 bits accepted and counted, the "
	      "first named (the walk then meets the JALR: %s)", ntrace_strerror(d->fault.err));

	/* ... up to 32 bits, never wider */
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC,
					   .sync = NTRACE_SYNC_TRACE_ENABLE, .addr = BASE >> 1 });
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_REPEAT_BRANCH,
					   .bcnt = 1ull << NTRACE_LENIENT_BITS });
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	d->lenient = true;
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->errors == 1 && d->fault.err == NTRACE_E_WIDE && field_is(&d->fault, "B-CNT") &&
	      d->fault.value == 1ull << 32 && d->wide_fields == 0,
	      "lenient: a B-CNT of 33 bits is still refused, named");

	/* parse errors reach the decoder's fault with their position */
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC,
					   .sync = NTRACE_SYNC_TRACE_ENABLE, .addr = BASE >> 1 });
	at = s.n;
	s.b[s.n++] = 0x02;	/* MSEO=10, reserved */
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->errors == 1 && d->fault.err == NTRACE_E_MSEO && d->fault.offset == at &&
	      d->fault.msg == 2 && field_is(&d->fault, "MSEO"),
	      "a parse error in ntrace_dec_buffer: the decoder's fault has its offset and number");
	free(d);
}

/* Two sources in one stream: decoding one of them sees only its messages. */
static void test_src_filter(void)
{
	struct ntrace_config c;
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct stream s = { .n = 0 };
	struct ntrace_msg m;

	ntrace_config_default(&c);
	c.trTeSrcBits = 2;
	/* SRC 1 runs 4 instructions to the JALR at BASE + 0x40 and back to
	 * BASE; SRC 2 runs from BASE + 0x10 with messages that do not fit
	 * SRC 1's flow */
	m = sync_at(BASE);
	m.src = 1;
	put(&s, &c, &m);
	m = sync_at(BASE + 0x10);
	m.src = 2;
	put(&s, &c, &m);
	m = ib(0x22, BASE, BASE);	/* 17 instructions, the last the JALR */
	m.src = 1;
	put(&s, &c, &m);
	m = ib(3, BASE + 0x10, BASE);	/* inside an instruction for SRC 1 */
	m.src = 2;
	put(&s, &c, &m);
	m = ib(0x22, BASE, BASE);
	m.src = 1;
	put(&s, &c, &m);

	executed = 0;
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	d->src = 1;
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->errors == 0 && executed == 34 && d->messages == 3,
	      "SRC filter: source 1 of two decodes alone (%llu instructions, %llu errors)",
	      (unsigned long long)executed, (unsigned long long)d->errors);

	executed = 0;
	ntrace_dec_init(d, &c, lookup, exec_cb, NULL, NULL);
	ntrace_dec_buffer(d, s.b, s.n);
	CHECK(d->errors >= 1 && d->messages == 5,
	      "without the filter, both sources' messages are decoded (%llu errors)",
	      (unsigned long long)d->errors);
	free(d);
}

/* trTeInstMode from the messages that only one mode sends */
static void test_stream_mode(void)
{
	struct ntrace_config c;
	struct ntrace_mode_evidence ev;
	struct stream s = { .n = 0 };
	size_t at;
	int mode;

	ntrace_config_default(&c);
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_SYNC, .addr = 4 });
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_INDIRECT_BRANCH, .icnt = 4 });
	mode = ntrace_stream_mode(&c, s.b, s.n, &ev);
	CHECK(mode == 0, "no branch message: no mode (0)");
	at = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_RESOURCE_FULL,
					       .rcode = NTRACE_RCODE_HREPEAT, .rdata = 5, .hrepeat = 7 });
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_INDIRECT_BRANCH_HIST, .hist = 3 });
	mode = ntrace_stream_mode(&c, s.b, s.n, &ev);
	CHECK(mode == NTRACE_INST_MODE_HTM && ev.hist_msgs == 2 && ev.first_hist == at &&
	      ev.hist_tcode == NTRACE_TCODE_RESOURCE_FULL,
	      "ResourceFull RCODE=2 and IndirectBranchHist: HTM, the first at byte %zu", at);
	at = put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH, .icnt = 2 });
	mode = ntrace_stream_mode(&c, s.b, s.n, &ev);
	CHECK(mode == -1 && ev.direct_msgs == 1 && ev.first_direct == at,
	      "and a DirectBranch: both modes, -1");
	s.n = 0;
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_DIRECT_BRANCH_SYNC, .addr = 4 });
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_CORRELATION, .icnt = 2 });
	mode = ntrace_stream_mode(&c, s.b, s.n, &ev);
	CHECK(mode == NTRACE_INST_MODE_BTM, "DirectBranchSync, ProgTraceCorrelation CDF=0: BTM");
	put(&s, &c, &(struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_CORRELATION, .cdf = 1,
					   .icnt = 2, .hist = 2 });
	mode = ntrace_stream_mode(&c, s.b, s.n, &ev);
	CHECK(mode == -1, "ProgTraceCorrelation CDF=1 counts as HIST");
}

/* The controls by name: never cut to their width, every rule named. */
static void test_controls(void)
{
	struct ntrace_config c, before;
	struct ntrace_config_fault f;
	const struct ntrace_control *hb = ntrace_control_find("hist_bits");
	const struct ntrace_control *mode = ntrace_control_find("trTeInstMode");
	int ok = 1;

	ntrace_config_default(&c);
	for (unsigned i = 0; i < ntrace_ncontrols; i++) {
		const struct ntrace_control *k = &ntrace_controls[i];
		struct ntrace_config t = c;

		/* min and max round-trip; one past max is refused, t unchanged */
		ok &= ntrace_control_set(&t, k, k->min) == NTRACE_OK &&
		      ntrace_control_get(&t, k) == k->min &&
		      ntrace_control_set(&t, k, k->max) == NTRACE_OK &&
		      ntrace_control_get(&t, k) == k->max &&
		      ntrace_control_set(&t, k, (uint64_t)k->max + 1) == NTRACE_E_CONFIG &&
		      ntrace_control_get(&t, k) == k->max;
	}
	CHECK(ok, "all %u controls: min and max set and read back, "
	      "max + 1 refused", ntrace_ncontrols);

	before = c;
	CHECK(hb && ntrace_control_set(&c, hb, 258) == NTRACE_E_CONFIG && c.hist_bits == before.hist_bits &&
	      ntrace_control_set(&c, mode, 259) == NTRACE_E_CONFIG &&
	      c.trTeInstMode == NTRACE_INST_MODE_BTM &&
	      ntrace_control_set(&c, ntrace_control_find("icnt_limit"), 4294967298ull) ==
		      NTRACE_E_CONFIG && c.icnt_limit == before.icnt_limit &&
	      ntrace_control_set(&c, ntrace_control_find("xlen"), 320) == NTRACE_E_CONFIG &&
	      c.xlen == 64,
	      "hist_bits=258, trTeInstMode=259, icnt_limit=4294967298, xlen=320: refused, "
	      "not cut to 2, 3, 2, 64");

	c.trTeInstMode = 4;
	CHECK(ntrace_config_explain(&c, &f) == NTRACE_E_CONFIG && f.control == mode && f.value == 4 &&
	      f.why && !strcmp(f.why, "3 (BTM) or 6 (HTM)"), "trTeInstMode=4: named, 3 or 6");
	ntrace_config_default(&c);
	c.trTeInstMode = NTRACE_INST_MODE_HTM;
	c.icnt_full_sync = true;
	CHECK(ntrace_config_explain(&c, &f) == NTRACE_E_CONFIG &&
	      f.control == ntrace_control_find("icnt_full_sync") && strstr(f.why, "only in BTM"),
	      "icnt_full_sync in HTM: named, only in BTM");
	ntrace_config_default(&c);
	c.trTeSrcBits = 2;
	c.trTeSrcID = 7;
	CHECK(ntrace_config_explain(&c, &f) == NTRACE_E_CONFIG &&
	      f.control == ntrace_control_find("trTeSrcID") && f.value == 7,
	      "trTeSrcID=7 with a 2-bit SRC: named");
	ntrace_config_default(&c);
	c.ret_stack_depth = 0;
	CHECK(ntrace_config_explain(&c, &f) == NTRACE_E_CONFIG &&
	      f.control == ntrace_control_find("ret_stack_depth") && !f.why,
	      "ret_stack_depth=0: named, out of its range 1..32");
	ntrace_config_default(&c);
	CHECK(ntrace_config_explain(&c, &f) == NTRACE_OK && ntrace_config_check(&c) == NTRACE_OK,
	      "the defaults are valid");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		prefix = argv[1];
	build_code();
	test_parser_faults();
	test_decoder_faults();
	test_src_filter();
	test_stream_mode();
	test_controls();
	printf("%s%d checks, %d failed\n", prefix, checks, failures);
	return failures ? 1 : 0;
}
