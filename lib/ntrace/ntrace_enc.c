// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace encoder: one ingress-port record per instruction in, messages out
 * (spec chapter 10's generation rules, chapter 13's reference sketch, the
 * optimisations of chapter 9).  Like the reference encoder, the message for a
 * flow change is sent when the next record arrives: that record's address is
 * the destination (U-ADDR/F-ADDR) and tells whether an implicit return went
 * where the call stack said.  HIST (HTM) is kept until a message takes it
 * and then sent in the fewest bytes the spec allows (see "HIST" below).
 * No allocation; each record takes bounded time.
 */
#include <tally/ntrace.h>

enum enc_pending {
	P_NONE = 0,
	P_DIRECT,	/* taken branch (BTM): DirectBranch */
	P_INDIRECT,	/* indirect jump or trap: IndirectBranch(Hist) */
	P_RETURN,	/* return the call stack predicts: no message if right */
};

static bool htm(const struct ntrace_encoder *e)
{
	return e->cfg.trTeInstMode == NTRACE_INST_MODE_HTM;
}

static uint64_t sync_interval(const struct ntrace_encoder *e)
{
	return 1ull << (e->cfg.trTeInstSyncMax + 4);
}

/* Sends one message as it is (TSTAMP added here). */
static void emit_raw(struct ntrace_encoder *e, struct ntrace_msg *m)
{
	uint8_t buf[NTRACE_MAX_MSG_BYTES];
	int n;

	m->src = e->cfg.trTeSrcID;
	m->has_tstamp = e->cfg.trTsEnable;
	if (m->has_tstamp) {
		m->tstamp = ntrace_tcode_is_sync(m->tcode) ? e->now : e->now - e->last_tstamp;
		e->last_tstamp = e->now;
	}
	n = ntrace_msg_encode(&e->cfg, m, buf, sizeof(buf));
	if (n < 0) {
		if (!e->error)
			e->error = n;
		return;
	}
	e->sink(e->sink_ctx, buf, (size_t)n);
	e->messages++;
	e->bytes += (uint64_t)n;
	e->by_tcode[m->tcode & 63]++;
	if (e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_MESSAGES &&
	    ++e->sync_count >= sync_interval(e))
		e->sync_due = true;
}

static void flush_bcnt(struct ntrace_encoder *e)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_REPEAT_BRANCH };

	if (!e->bcnt)
		return;
	m.bcnt = e->bcnt;
	e->bcnt = 0;
	emit_raw(e, &m);
	e->branch_mark = e->messages;	/* a RepeatBranch may follow another */
}

/* One ResourceFull with HIST: a chunk of outcomes, or a pattern count times */
static void send_hist_full(struct ntrace_encoder *e, uint64_t hist, uint32_t count)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_RESOURCE_FULL, .rdata = hist };

	flush_bcnt(e);		/* the repeated branch message came before */
	if (count > 1) {
		m.rcode = NTRACE_RCODE_HREPEAT;
		m.hrepeat = count;
	} else {
		m.rcode = NTRACE_RCODE_HIST;
	}
	emit_raw(e, &m);
}

/* ---- HIST ------------------------------------------------------------------ */

/*
 * Outcomes are kept in e->hb until a message takes them: the HIST field of
 * an IndirectBranchHist(Sync) or ProgTraceCorrelation takes the last ones,
 * ResourceFull messages sent just before it the others.  The spec allows
 * any such split: "any sequence of Resource Full messages as long as the
 * logically concatenated sequence of (repeated or not) HIST bits ... is the
 * same" (chapter 9), each HIST field 2 to NTRACE_MAX_HIST bits with its stop
 * bit, and with trTeInstEnRepeatedHistory "any size of pattern" with its
 * repeat count (RCODE=2, HREPEAT).  So the split is chosen for the fewest
 * bytes: a shortest-path parse of the buffered outcomes into literal chunks
 * (RCODE=1, any width up to hist_bits), patterns of any length repeated
 * (RCODE=2) and the message's own HIST field.  A pattern that repeats for
 * RUN_MIN outcomes or more becomes a run: what comes before it is sent, and
 * the run is counted as it grows (no buffer space, however long the loop)
 * until it breaks or a message takes it.  A buffer that fills (long HIST
 * with no message and no run) sends its first three quarters.
 */
#define RUN_MIN		96

enum { STEP_TAIL = 1, STEP_LIT, STEP_REP };
#define STEP(kind, len, k)	((uint32_t)(kind) | (uint32_t)(len) << 2 | (uint32_t)(k) << 8)

static unsigned hb_bit(const struct ntrace_hist_buf *h, uint32_t i)
{
	return (unsigned)(h->bits[i / 64] >> (i % 64)) & 1;
}

/* Outcomes [i, i + len) as a HIST field (first outcome most significant) */
static uint64_t hb_value(const struct ntrace_hist_buf *h, uint32_t i, unsigned len)
{
	uint64_t v = 1;

	while (len--)
		v = v << 1 | hb_bit(h, i++);
	return v;
}

/* Outcomes [i, i + 64) as a word, outcome i in bit 0 (beyond the buffered
 * ones: whatever the buffer holds) */
static uint64_t hb_word(const struct ntrace_hist_buf *h, uint32_t i)
{
	uint32_t w = i / 64, b = i % 64;
	uint64_t v = h->bits[w] >> b;

	if (b && w + 1 < NTRACE_HBUF_BITS / 64)
		v |= h->bits[w + 1] << (64 - b);
	return v;
}

static uint64_t low_bits(unsigned n)
{
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* Zero bits above the highest set bit of x (x != 0) */
static unsigned top_zeros(uint64_t x)
{
	unsigned n = 0;

	for (unsigned step = 32; step; step /= 2) {
		if (!(x >> (64 - step))) {
			n += step;
			x <<= step;
		}
	}
	return n;
}

/* How many of the last outcomes equal the one p before them: the buffer
 * ends in a pattern of p repeated over that many + p outcomes */
static uint32_t hb_periodic(const struct ntrace_hist_buf *h, unsigned p)
{
	uint32_t end = h->n, count = 0, left;
	uint64_t x;

	for (; end >= p + 64; end -= 64, count += 64) {
		x = hb_word(h, end - 64) ^ hb_word(h, end - 64 - p);
		if (x)
			return count + top_zeros(x);
	}
	if (end <= p)
		return count;
	left = end - p;		/* outcomes [p, end) against [0, left) */
	x = (hb_word(h, p) ^ hb_word(h, 0)) & low_bits(left);
	return x ? count + top_zeros(x << (64 - left)) : count + left;
}

static unsigned var_bytes(unsigned bits)
{
	return (bits + NTRACE_MDO_BITS - 1) / NTRACE_MDO_BITS;
}

/* Bytes of an HREPEAT field (6-bit MDOs) */
static unsigned count_bytes(uint32_t k)
{
	return k < 1u << 6 ? 1 : k < 1u << 12 ? 2 : k < 1u << 18 ? 3 : 4;
}

/* Bytes of a ResourceFull with a len-outcome HIST (TSTAMP counted as one
 * byte); RCODE=2 adds its HREPEAT field */
static unsigned rf_cost(const struct ntrace_encoder *e, unsigned len)
{
	return var_bytes(6 + ntrace_src_bits(&e->cfg) + 4 + len + 1) + e->cfg.trTsEnable;
}

/* Bytes the message's own HIST field costs for len outcomes (none: an
 * IndirectBranch, or CDF=0, instead) */
static unsigned tail_cost(unsigned len)
{
	return len ? var_bytes(len + 1) : 0;
}

/*
 * The cheapest parse of outcomes [0, n): cost[i] = bytes to send [i, n),
 * step[i] = what to send at i.  tail: the last up to hist_bits - 1 outcomes
 * may go in the message's HIST field.  Patterns are tried at every length p
 * whose repetition starts at i, with the counts that can matter (the
 * longest, one less, a few, and those at a larger HREPEAT field).  Ties go
 * to the message's own field, then to the longest chunk (fewer messages).
 */
static void hb_plan(struct ntrace_encoder *e, uint32_t n, bool tail)
{
	struct ntrace_hist_buf *h = &e->hb;
	unsigned w = e->cfg.hist_bits - 1u;
	bool rep = e->cfg.trTeInstEnRepeatedHistory;
	uint32_t rf[NTRACE_MAX_HIST];		/* [len]: a ResourceFull's bytes */
	uint32_t same[NTRACE_MAX_HIST] = { 0 };	/* [p - 1]: outcomes from i + p on
						   equal to the one p before */

	for (unsigned len = 1; len <= w; len++)
		rf[len] = rf_cost(e, len);
	h->cost[n] = 0;
	h->step[n] = 0;
	for (uint32_t i = n; i-- > 0;) {
		uint32_t best = UINT32_MAX, choice = 0, longest = n - i < w ? n - i : w;

		for (unsigned len = 1; len <= longest; len++) {
			uint32_t c = rf[len] + h->cost[i + len];

			if (c <= best) {
				best = c;
				choice = STEP(STEP_LIT, len, 0);
			}
		}
		if (tail && n - i <= w && tail_cost(n - i) <= best) {
			best = tail_cost(n - i);
			choice = STEP(STEP_TAIL, n - i, 0);
		}
		/* bit p of eq: outcome i + p (before n) equals outcome i */
		uint64_t ahead = rep ? hb_word(h, i) : 0;
		uint64_t eq = ~(ahead ^ (0 - (ahead & 1))) & low_bits(n - i);

		for (unsigned p = 1; rep && p <= w; p++) {
			uint32_t kmax, ks[6];

			same[p - 1] = (eq >> p) & 1 ? same[p - 1] + 1 : 0;
			if (same[p - 1] < p)
				continue;	/* not two repetitions */
			kmax = (p + same[p - 1]) / p;
			if (kmax > e->cfg.hrepeat_max)
				kmax = e->cfg.hrepeat_max;
			ks[0] = kmax;
			ks[1] = kmax - 1;
			ks[2] = 2;
			ks[3] = 3;
			ks[4] = 63;
			ks[5] = 4095;
			for (unsigned j = 0; j < 6; j++) {
				uint32_t k = ks[j], c;

				if (k < 2 || k > kmax)
					continue;
				c = rf[p] + count_bytes(k) + h->cost[i + p * k];
				if (c < best) {
					best = c;
					choice = STEP(STEP_REP, p, k);
				}
			}
		}
		h->cost[i] = best;
		h->step[i] = choice;
	}
}

/* Sends the planned steps from outcome 0 until `upto` is reached; returns
 * where the steps stopped; *tail: the message's HIST field if a step is it */
static uint32_t hb_send(struct ntrace_encoder *e, uint32_t upto, uint64_t *tail)
{
	struct ntrace_hist_buf *h = &e->hb;
	uint32_t i = 0;

	while (i < upto) {
		uint32_t step = h->step[i], len = (step >> 2) & 63, k = step >> 8;

		switch (step & 3) {
		case STEP_TAIL:
			*tail = hb_value(h, i, len);
			return i + len;
		case STEP_LIT:
			send_hist_full(e, hb_value(h, i, len), 1);
			i += len;
			break;
		default:
			send_hist_full(e, hb_value(h, i, len), k);
			i += len * k;
			break;
		}
	}
	return i;
}

static void hb_clear(struct ntrace_hist_buf *h)
{
	h->n = 0;
}

/* Removes the first c outcomes (sent) */
static void hb_drop(struct ntrace_hist_buf *h, uint32_t c)
{
	uint32_t n = h->n - c;

	for (uint32_t w = 0; w < (n + 63) / 64; w++) {
		uint32_t from = c + 64 * w;
		uint64_t v = h->bits[from / 64] >> (from % 64);

		if (from % 64 && from / 64 + 1 < NTRACE_HBUF_BITS / 64)
			v |= h->bits[from / 64 + 1] << (64 - from % 64);
		h->bits[w] = v;
	}
	h->n = n;
}

/* The buffer is full and no message takes it: its first three quarters go
 * (the parse of the rest waits for the outcomes that follow) */
static void hb_commit(struct ntrace_encoder *e)
{
	uint64_t unused;

	hb_plan(e, e->hb.n, false);
	hb_drop(&e->hb, hb_send(e, e->hb.n / 4 * 3, &unused));
}

/* The last len outcomes repeat a pattern of p (len >= RUN_MIN): the buffer
 * before them is sent, they become a run */
static void run_open(struct ntrace_encoder *e, unsigned p, uint32_t len)
{
	struct ntrace_hist_buf *h = &e->hb;
	uint32_t start = h->n - len;
	uint64_t unused;

	if (start) {
		hb_plan(e, start, false);
		hb_send(e, start, &unused);
	}
	h->run_pattern = hb_value(h, start, p);
	h->run_p = (uint8_t)p;
	h->run_k = len / p;
	h->run_phase = (uint8_t)(len % p);
	hb_clear(h);
	while (h->run_k >= e->cfg.hrepeat_max) {
		send_hist_full(e, h->run_pattern, e->cfg.hrepeat_max);
		h->run_k -= e->cfg.hrepeat_max;
	}
}

static void hb_push(struct ntrace_encoder *e, unsigned taken)
{
	struct ntrace_hist_buf *h = &e->hb;
	uint32_t n = h->n;

	h->bits[n / 64] = (h->bits[n / 64] & ~(1ull << (n % 64))) | (uint64_t)taken << (n % 64);
	h->n = n + 1;
	/* a run is looked for every 16 outcomes (it may start up to 15 late) */
	if (e->cfg.trTeInstEnRepeatedHistory && h->n >= RUN_MIN && h->n % 16 == 0) {
		for (unsigned p = 1; p < e->cfg.hist_bits; p++) {
			uint32_t same = hb_periodic(h, p);

			if (same + p >= RUN_MIN) {
				run_open(e, p, same + p);
				return;
			}
		}
	}
	if (h->n == NTRACE_HBUF_BITS)
		hb_commit(e);
}

/* The run ends: its whole repetitions are sent, the rest is buffered */
static void run_close(struct ntrace_encoder *e)
{
	struct ntrace_hist_buf *h = &e->hb;
	unsigned p = h->run_p, rest = h->run_phase;

	h->run_p = 0;
	if (h->run_k >= 2)
		send_hist_full(e, h->run_pattern, h->run_k);
	else if (h->run_k == 1)
		rest += p;	/* one repetition (after an HREPEAT-full message) */
	for (unsigned j = 0; j < rest; j++)
		hb_push(e, (unsigned)(h->run_pattern >> (p - 1 - j % p)) & 1);
}

static bool hb_empty(const struct ntrace_encoder *e)
{
	return !e->hb.n && !e->hb.run_p;
}

/*
 * A message takes the outcomes: with tail, the last ones go in its HIST
 * field (returned with the stop bit; 1 if none), the others in ResourceFull
 * messages sent now; without, all in ResourceFull messages.
 */
static uint64_t hb_take(struct ntrace_encoder *e, bool tail)
{
	struct ntrace_hist_buf *h = &e->hb;
	uint64_t v = 1;

	if (h->run_p)
		run_close(e);
	if (tail && h->n < e->cfg.hist_bits) {
		v = hb_value(h, 0, h->n);	/* the message's field alone is cheapest */
	} else if (h->n) {
		hb_plan(e, h->n, tail);
		hb_send(e, h->n, &v);
	}
	hb_clear(h);
	return v;
}

/* One outcome (1 taken) */
static void add_hist(struct ntrace_encoder *e, unsigned taken)
{
	struct ntrace_hist_buf *h = &e->hb;

	if (h->run_p) {
		unsigned want = (unsigned)(h->run_pattern >> (h->run_p - 1 - h->run_phase)) & 1;

		if (taken == want) {
			if (++h->run_phase == h->run_p) {
				h->run_phase = 0;
				if (++h->run_k == e->cfg.hrepeat_max) {
					send_hist_full(e, h->run_pattern, h->run_k);
					h->run_k = 0;
				}
			}
			return;
		}
		run_close(e);
	}
	hb_push(e, taken);
}

/* Any message but a branch (it may fold) or a ResourceFull: the outcomes
 * not sent yet and a pending RepeatBranch go first */
static void emit(struct ntrace_encoder *e, struct ntrace_msg *m)
{
	hb_take(e, false);
	flush_bcnt(e);
	emit_raw(e, m);
}

/* DirectBranch, IndirectBranch(Hist): folded into RepeatBranch when identical
 * to the previous branch message and nothing was sent since (decoders,
 * NexRv's too, repeat the message before the RepeatBranch) */
static void emit_branch(struct ntrace_encoder *e, struct ntrace_msg *m)
{
	uint8_t cmp[NTRACE_MAX_MSG_BYTES];
	int n;

	if (!e->cfg.repeat_branch) {
		emit(e, m);
		return;
	}
	m->has_tstamp = false;
	m->src = e->cfg.trTeSrcID;
	n = ntrace_msg_encode(&e->cfg, m, cmp, sizeof(cmp));
	if (n > 0 && n == e->last_branch_len && e->messages == e->branch_mark) {
		int i = 0;

		while (i < n && cmp[i] == e->last_branch[i])
			i++;
		if (i == n) {
			if (++e->bcnt >= e->cfg.bcnt_max)
				flush_bcnt(e);
			return;
		}
	}
	emit(e, m);
	e->branch_mark = e->messages;
	if (n > 0) {
		for (int i = 0; i < n; i++)
			e->last_branch[i] = cmp[i];
		e->last_branch_len = n;
	}
}

static void send_ownership(struct ntrace_encoder *e, unsigned format, uint8_t priv)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_OWNERSHIP };

	/* CONTEXT unknown = 0 */
	m.process = ntrace_process_make(format, priv, 0);
	emit(e, &m);
	e->priv = priv;
}

/* Every synchronizing message resets the encoder state (chapter 10). */
static void after_sync(struct ntrace_encoder *e, uint64_t faddr, uint8_t priv)
{
	e->last_addr = faddr;
	e->icnt = 0;
	hb_clear(&e->hb);	/* taken by the sync already */
	e->hb.run_p = 0;
	e->stack_n = 0;
	e->call_count = 0;
	e->last_branch_len = 0;
	e->sync_count = 0;
	e->sync_due = false;
	e->icnt_sync_due = false;
	e->seq_prev = 0;
	if (e->cfg.trTeContext)
		send_ownership(e, NTRACE_PROCESS_FORMAT_SCONTEXT, priv);
}

static void send_sync(struct ntrace_encoder *e, unsigned tcode, unsigned sync, unsigned btype,
		      uint64_t target, uint8_t priv)
{
	struct ntrace_msg m = { .tcode = (uint8_t)tcode, .sync = (uint8_t)sync,
				.btype = (uint8_t)btype, .icnt = e->icnt, .hist = 1,
				.addr = target >> 1 };

	/* only IndirectBranchHistSync has a HIST field (the others come on
	 * linear code or in BTM, with no outcome left to send) */
	m.hist = hb_take(e, tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC);
	emit(e, &m);
	after_sync(e, target, priv);
}

/* Sends the message the previous record left pending; target = this PC. */
static void resolve_pending(struct ntrace_encoder *e, uint64_t target, uint8_t priv)
{
	unsigned kind = e->pending;
	struct ntrace_msg m = { 0 };
	bool match;

	e->pending = P_NONE;
	if (kind == P_RETURN) {
		switch (e->cfg.trTeInstImplicitReturnMode) {
		case 1:  match = true; break;
		case 2:  match = ((e->predicted ^ target) & 0xffff) == 0; break;
		default: match = e->predicted == target; break;
		}
		if (match && !e->sync_due)
			return;			/* inferable: no message */
		kind = P_INDIRECT;
	}
	if (kind == P_DIRECT) {
		if (e->sync_due) {
			send_sync(e, NTRACE_TCODE_DIRECT_BRANCH_SYNC, NTRACE_SYNC_PERIODIC, 0,
				  target, priv);
			return;
		}
		m.tcode = NTRACE_TCODE_DIRECT_BRANCH;
		m.icnt = e->icnt;
		emit_branch(e, &m);
		e->icnt = 0;
		return;
	}
	if (e->sync_due) {
		send_sync(e, htm(e) ? NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC :
				      NTRACE_TCODE_INDIRECT_BRANCH_SYNC,
			  NTRACE_SYNC_PERIODIC, e->pending_btype, target, priv);
		return;
	}
	/* HTM with an empty HIST may send IndirectBranch (chapter 10) */
	m.hist = htm(e) ? hb_take(e, true) : 1;
	m.tcode = m.hist != 1 ? NTRACE_TCODE_INDIRECT_BRANCH_HIST : NTRACE_TCODE_INDIRECT_BRANCH;
	m.btype = e->pending_btype;
	m.icnt = e->icnt;
	m.addr = (target ^ e->last_addr) >> 1;
	emit_branch(e, &m);
	e->icnt = 0;
	e->last_addr = target;
}

int ntrace_enc_init(struct ntrace_encoder *e, const struct ntrace_config *cfg,
		    ntrace_sink_fn sink, void *ctx)
{
	int err = ntrace_config_check(cfg);

	*e = (struct ntrace_encoder){ .cfg = *cfg, .sink = sink, .sink_ctx = ctx,
				      .start_sync = NTRACE_SYNC_TRACE_ENABLE };
	return err;
}

static void push_return(struct ntrace_encoder *e, uint64_t ret)
{
	e->stack_top = (e->stack_top + 1) % NTRACE_STACK_MAX;
	e->stack[e->stack_top] = ret;
	if (e->stack_n < e->cfg.ret_stack_depth)
		e->stack_n++;	/* when full, the oldest entry is forgotten */
}

static uint64_t pop_return(struct ntrace_encoder *e)
{
	uint64_t ret = e->stack[e->stack_top];

	e->stack_top = (e->stack_top + NTRACE_STACK_MAX - 1) % NTRACE_STACK_MAX;
	e->stack_n--;
	return ret;
}

/*
 * I-CNT full (it reached icnt_limit, as an overflow bit would say): sent with
 * this instruction included, as in the spec's chapter 8 example, unless a
 * message about this instruction is pending (it will carry the I-CNT).  With
 * icnt_full_sync (BTM) it goes in a ProgTraceSync SYNC=4 instead, whose
 * F-ADDR is the next instruction's address: sent when that record arrives.
 */
static void check_icnt_full(struct ntrace_encoder *e)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_RESOURCE_FULL,
				.rcode = NTRACE_RCODE_ICNT };

	if (e->icnt < e->cfg.icnt_limit || e->pending)
		return;
	if (e->cfg.icnt_full_sync) {
		e->icnt_sync_due = true;
		return;
	}
	/* not emit(): the outcomes may wait (decoders take a full I-CNT and
	 * HIST in any order), a RepeatBranch may not */
	m.rdata = e->icnt;
	flush_bcnt(e);
	emit_raw(e, &m);
	e->icnt = 0;
}

static void add_icnt(struct ntrace_encoder *e, unsigned units)
{
	e->icnt += units;
	e->halfwords += units;
	if ((e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_ICNT ||
	     e->cfg.trTeInstSyncMode == NTRACE_SYNC_MODE_CYCLES) &&
	    (e->sync_count += units) >= sync_interval(e))
		e->sync_due = true;
}

static void set_pending(struct ntrace_encoder *e, unsigned kind, unsigned btype)
{
	e->pending = (uint8_t)kind;
	e->pending_btype = (uint8_t)btype;
}

/*
 * Sequential jump (chapter 9): the hart says rs1 came from the constant load
 * retired just before; the encoder infers the target only if that load is
 * in the I-CNT still to be sent (no trap, sync or I-CNT message between, so
 * the decoder walks the pair in one message) and no trap follows the jump.
 * Called before the jump's own halfwords are counted.
 */
static bool seq_inferable(const struct ntrace_encoder *e, const struct ntrace_ingress *r)
{
	return e->cfg.trTeInstEnSequentialJump && (r->flags & NTRACE_REC_SEQ_INFERABLE) &&
	       !(r->flags & NTRACE_REC_TRAP_AFTER) && r->itype != NTRACE_ITYPE_TRAP_RETURN &&
	       e->seq_prev && e->icnt >= e->seq_prev;
}

/* Indirect jumps: call-stack effects, then a message unless inferable. */
static void retire_indirect(struct ntrace_encoder *e, const struct ntrace_ingress *r, bool seq)
{
	unsigned ir = e->cfg.trTeInstImplicitReturnMode;

	switch (r->itype) {
	case NTRACE_ITYPE_INDIRECT_CALL:
		if (ir)
			push_return(e, r->addr + r->ilen);
		break;
	case NTRACE_ITYPE_COROUTINE_SWAP:
		if (ir) {
			if (e->stack_n)
				pop_return(e);
			push_return(e, r->addr + r->ilen);
		}
		break;
	case NTRACE_ITYPE_RETURN:
		if (ir && e->stack_n) {
			e->predicted = pop_return(e);
			/* a sequentially inferable return pops, never checks */
			if (!seq)
				set_pending(e, P_RETURN, 0);
			return;
		}
		break;
	default:
		break;
	}
	if (!seq)
		set_pending(e, P_INDIRECT, 0);
}

/* Taken branches, and direct jumps under trTeInstEnAllJumps (itype 5). */
static void retire_taken(struct ntrace_encoder *e)
{
	if (htm(e))
		add_hist(e, 1);
	else
		set_pending(e, P_DIRECT, 0);
}

/* The message the start, a pending flow change or a due sync asks for. */
static void before_record(struct ntrace_encoder *e, const struct ntrace_ingress *r)
{
	if (!e->started) {
		e->started = true;
		e->icnt = 0;
		send_sync(e, NTRACE_TCODE_PROG_TRACE_SYNC, e->start_sync, 0,
			  r->addr, r->priv);
		e->priv = r->priv;
	} else if (e->pending) {
		resolve_pending(e, r->addr, r->priv);
	} else if (e->icnt_sync_due) {
		/* I-CNT full (BTM): SYNC=4 with this address (ch. 8 example) */
		send_sync(e, NTRACE_TCODE_PROG_TRACE_SYNC, NTRACE_SYNC_ICNT, 0,
			  r->addr, r->priv);
	} else if (e->sync_due) {
		/* periodic sync on linear code: B-TYPE=0 is no flow change */
		if (htm(e) && !hb_empty(e))
			send_sync(e, NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC,
				  NTRACE_SYNC_PERIODIC, 0, r->addr, r->priv);
		else
			send_sync(e, NTRACE_TCODE_PROG_TRACE_SYNC, NTRACE_SYNC_PERIODIC, 0,
				  r->addr, r->priv);
	}
	if (e->cfg.trTeContext && r->priv != e->priv)
		send_ownership(e, NTRACE_PROCESS_FORMAT_PRIV, r->priv);
}

/* A trap after a retired instruction that left no indirect message. */
static void trap_after(struct ntrace_encoder *e, const struct ntrace_ingress *r)
{
	if (e->pending == P_DIRECT) {
		/* the branch target is inferable: no address needed */
		struct ntrace_msg m = { .tcode = NTRACE_TCODE_DIRECT_BRANCH,
					.icnt = e->icnt };

		emit_branch(e, &m);
		e->icnt = 0;
	}
	set_pending(e, P_INDIRECT, r->flags & NTRACE_REC_TRAP_CAUSE_UNKNOWN ?
			NTRACE_BTYPE_TRAP : NTRACE_BTYPE_INTERRUPT);
}

void ntrace_enc_retire(struct ntrace_encoder *e, const struct ntrace_ingress *r)
{
	bool seq;

	e->now = r->tstamp;
	before_record(e, r);
	if (r->itype == NTRACE_ITYPE_EXCEPTION) {
		/* the instruction did not retire: no I-CNT for it */
		set_pending(e, P_INDIRECT, NTRACE_BTYPE_EXCEPTION);
		e->seq_prev = 0;
		return;
	}
	seq = seq_inferable(e, r);
	e->retired++;
	add_icnt(e, r->ilen / 2u);
	switch (r->itype) {
	case NTRACE_ITYPE_BRANCH_NOT_TAKEN:
		if (htm(e))
			add_hist(e, 0);
		break;
	case NTRACE_ITYPE_BRANCH_TAKEN:
		retire_taken(e);
		break;
	case NTRACE_ITYPE_INTERRUPT:
		set_pending(e, P_INDIRECT, r->flags & NTRACE_REC_TRAP_CAUSE_UNKNOWN ?
				NTRACE_BTYPE_TRAP : NTRACE_BTYPE_INTERRUPT);
		break;
	case NTRACE_ITYPE_DIRECT_CALL:
	case NTRACE_ITYPE_DIRECT_JUMP_NL:
	case NTRACE_ITYPE_DIRECT_JUMP_L:
		if (e->cfg.trTeInstImplicitReturnMode && r->itype == NTRACE_ITYPE_DIRECT_CALL)
			push_return(e, r->addr + r->ilen);
		if (e->cfg.trTeInstEnAllJumps)
			retire_taken(e);
		break;
	case NTRACE_ITYPE_INDIRECT_CALL:
	case NTRACE_ITYPE_COROUTINE_SWAP:
	case NTRACE_ITYPE_RETURN:
	case NTRACE_ITYPE_TRAP_RETURN:
	case NTRACE_ITYPE_INDIRECT_JUMP:
	case NTRACE_ITYPE_INDIRECT_JUMP_NL:
	case NTRACE_ITYPE_INDIRECT_JUMP_L:
		retire_indirect(e, r, seq);
		break;
	default:	/* plain instructions: inferable */
		break;
	}
	if ((r->flags & NTRACE_REC_TRAP_AFTER) && e->pending != P_INDIRECT &&
	    e->pending != P_RETURN)
		trap_after(e, r);
	/* a plain instruction with no trap after may be a sequential jump's
	 * constant load (the hart's flag on the jump says whether it was) */
	e->seq_prev = r->itype == NTRACE_ITYPE_NONE && !(r->flags & NTRACE_REC_TRAP_AFTER) ?
		      (uint8_t)(r->ilen / 2u) : 0;
	check_icnt_full(e);
}

void ntrace_enc_stop(struct ntrace_encoder *e, unsigned evcode)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_PROG_TRACE_CORRELATION };

	if (!e->started)
		return;
	if (e->pending == P_DIRECT && !e->sync_due) {
		m.tcode = NTRACE_TCODE_DIRECT_BRANCH;
		m.icnt = e->icnt;
		emit_branch(e, &m);
		e->icnt = 0;
		m = (struct ntrace_msg){ .tcode = NTRACE_TCODE_PROG_TRACE_CORRELATION };
	}
	/* an indirect jump's destination is unknown: its I-CNT is reported
	 * here; a pending exception (no I-CNT) is lost with the trace end */
	e->pending = P_NONE;
	e->icnt_sync_due = false;	/* the I-CNT goes in this message */
	m.evcode = (uint8_t)evcode;
	m.icnt = e->icnt;
	m.hist = hb_take(e, true);
	m.cdf = m.hist != 1;	/* no HIST field without outcomes */
	emit(e, &m);
	e->icnt = 0;
	e->started = false;
}

/*
 * Messages were lost (an output FIFO overflowed): an Error message, then the
 * next record restarts the trace with ProgTraceSync SYNC=7 (chapter 7.4).
 */
void ntrace_enc_lost(struct ntrace_encoder *e)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_ERROR, .etype = 0, .ecode = 1 };

	e->pending = P_NONE;
	e->icnt_sync_due = false;
	e->seq_prev = 0;
	e->bcnt = 0;
	hb_clear(&e->hb);	/* lost with the rest */
	e->hb.run_p = 0;
	emit_raw(e, &m);
	e->started = false;
	e->start_sync = NTRACE_SYNC_FIFO_OVERRUN;
}
