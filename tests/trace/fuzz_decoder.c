// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for the N-Trace parser and decoder: arbitrary bytes must
 * never crash it nor make it read out of bounds (built with
 * -fsanitize=fuzzer,address,undefined), and what it reports must hold
 * together: a message lies inside the stream, a fault names a byte inside it
 * and the message's number, a message the parser accepts encodes back to the
 * same message, the mode detection agrees with itself.  The first byte picks
 * the trace controls; the code is a small program whose control flow only
 * goes forward, so that every walk ends.  The decoder runs lenient (counts
 * wider than chapter 6 accepted up to 32 bits), the larger set of paths.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tally/ntrace.h>

#define BASE 0x80001000u
#define N 128	/* halfwords */

static struct ntrace_insn insns[N];
static int ready;

static void build_code(void)
{
	/* a pattern of: c.nop, add, beq +8, jal ra +12, c.jr ra, jalr x0 0(t1),
	 * c.beqz +4, mret, ecall, auipc t1,0 + jalr x0 16(t1) (a sequential
	 * jump): forward targets only */
	static const uint32_t pattern[] = { 0x0001, 0x00c50533, 0x00b50463, 0x00c000ef,
					    0x8082, 0x00030067, 0xc111, 0x30200073,
					    0x00000073, 0x00000317, 0x01030067 };
	uint16_t half[N + 2] = { 0 };
	unsigned h = 0, k = 0;

	while (h < N) {
		uint32_t w = pattern[k++ % (sizeof(pattern) / sizeof(pattern[0]))];

		half[h++] = (uint16_t)w;
		if ((w & 3) == 3 && h < N)
			half[h++] = (uint16_t)(w >> 16);
	}
	for (unsigned i = 0; i < N; i++)
		ntrace_isa_decode(half[i] | (uint32_t)half[i + 1] << 16, BASE + 2 * i, 64, &insns[i]);
	ready = 1;
}

static const struct ntrace_insn *lookup(void *ctx, uint64_t addr)
{
	(void)ctx;
	if (addr < BASE || addr >= BASE + 2 * N || (addr & 1))
		return NULL;
	return &insns[(addr - BASE) / 2];
}

static void exec_cb(void *ctx, uint64_t addr, unsigned flags)
{
	(void)addr;
	(void)flags;
	++*(uint64_t *)ctx;
}

/*
 * A message the parser accepts encodes to bytes that parse to it again
 * (shorter ones: the encoder writes minimal fields), unless a field is one
 * the encoder refuses (an address wider than XLEN: the decoder wraps it).
 */
static void check_round_trip(const struct ntrace_config *cfg, const struct ntrace_msg *m)
{
	uint8_t bytes[NTRACE_MAX_MSG_BYTES];
	struct ntrace_msg again;
	int n = ntrace_msg_encode(cfg, m, bytes, sizeof(bytes));

	if (n == NTRACE_E_FIELD)
		return;
	if (n <= 0 || ntrace_msg_parse(cfg, bytes, (size_t)n, &again) != NTRACE_OK)
		abort();
	if (again.tcode != m->tcode || again.src != m->src || again.icnt != m->icnt ||
	    again.addr != m->addr || again.hist != m->hist || again.rdata != m->rdata ||
	    again.hrepeat != m->hrepeat || again.bcnt != m->bcnt || again.sync != m->sync ||
	    again.btype != m->btype || again.process != m->process ||
	    again.has_tstamp != m->has_tstamp || again.tstamp != m->tstamp)
		abort();
}

/* The mode detection: its counts and offsets agree with its answer. */
static void check_mode(const struct ntrace_config *cfg, const uint8_t *b, size_t n)
{
	struct ntrace_mode_evidence ev;
	int mode = ntrace_stream_mode(cfg, b, n, &ev);

	if ((ev.hist_msgs && ev.first_hist >= n) || (ev.direct_msgs && ev.first_direct >= n))
		abort();
	if (mode != (ev.hist_msgs && ev.direct_msgs ? -1 : ev.hist_msgs ? NTRACE_INST_MODE_HTM :
		     ev.direct_msgs ? NTRACE_INST_MODE_BTM : 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ntrace_decoder d;
	struct ntrace_config cfg;
	uint64_t executed = 0;
	char text[512];
	struct ntrace_parser p;
	struct ntrace_msg m;

	if (!ready)
		build_code();
	if (size < 1)
		return 0;
	ntrace_config_default(&cfg);
	cfg.trTeInstMode = data[0] & 1 ? NTRACE_INST_MODE_HTM : NTRACE_INST_MODE_BTM;
	cfg.trTeInstImplicitReturnMode = (data[0] >> 1) & 3;
	cfg.trTeInstExtendAddrMSB = (data[0] >> 3) & 1;
	cfg.trTeSrcBits = (data[0] >> 4) & 1 ? 4 : 0;
	cfg.xlen = (data[0] >> 5) & 1 ? 32 : 64;
	cfg.trTeInstEnSequentialJump = (data[0] >> 6) & 1;
	cfg.trTeInstEnAllJumps = (data[0] >> 7) & 1;
	/* every message formats without overflowing the text buffer */
	ntrace_parser_init(&p, &cfg, data + 1, size - 1);
	for (int rc; (rc = ntrace_parse_next(&p, &m)) != NTRACE_END;) {
		ntrace_msg_format(&cfg, &m, text, sizeof(text));	/* errors too */
		if (p.msg_start + p.msg_len > size - 1 || p.pos > size - 1)
			abort();
		if (rc < 0 && (p.fault.err != rc || p.fault.offset >= size - 1 ||
			       p.fault.msg != p.messages + p.errors))
			abort();
		if (rc == NTRACE_OK)
			check_round_trip(&cfg, &m);
	}
	check_mode(&cfg, data + 1, size - 1);
	ntrace_dec_init(&d, &cfg, lookup, exec_cb, NULL, &executed);
	d.lenient = true;
	ntrace_dec_buffer(&d, data + 1, size - 1);
	if (d.errors && (d.fault.err >= 0 || (d.fault.msg && d.fault.offset >= size - 1)))
		abort();
	return 0;
}
