// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace encoder: one ingress-port record per instruction in, messages out
 * (spec chapter 10's generation rules, chapter 13's reference sketch, the
 * optimisations of chapter 9).  Like the reference encoder, the message for a
 * flow change is sent when the next record arrives: that record's address is
 * the destination (U-ADDR/F-ADDR) and tells whether an implicit return went
 * where the call stack said.  No allocation; each record is O(1).
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
}

static void send_hist_full(struct ntrace_encoder *e, uint64_t hist, uint32_t count)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_RESOURCE_FULL, .rdata = hist };

	if (count > 1) {
		m.rcode = NTRACE_RCODE_HREPEAT;
		m.hrepeat = count;
	} else {
		m.rcode = NTRACE_RCODE_HIST;
	}
	emit_raw(e, &m);
}

static void flush_hrepeat(struct ntrace_encoder *e)
{
	if (!e->rep_count)
		return;
	send_hist_full(e, e->rep_hist, e->rep_count);
	e->rep_count = 0;
}

/* Any message but a folded branch or ResourceFull: pending repeats go first. */
static void emit(struct ntrace_encoder *e, struct ntrace_msg *m)
{
	flush_bcnt(e);
	flush_hrepeat(e);
	emit_raw(e, m);
}

/* DirectBranch, IndirectBranch(Hist): folded into RepeatBranch when identical
 * to the previous branch message. */
static void emit_branch(struct ntrace_encoder *e, struct ntrace_msg *m)
{
	uint8_t cmp[NTRACE_MAX_MSG_BYTES];
	int n;

	flush_hrepeat(e);
	if (!e->cfg.repeat_branch) {
		emit(e, m);
		return;
	}
	m->has_tstamp = false;
	m->src = e->cfg.trTeSrcID;
	n = ntrace_msg_encode(&e->cfg, m, cmp, sizeof(cmp));
	if (n > 0 && n == e->last_branch_len) {
		int i = 0;

		while (i < n && cmp[i] == e->last_branch[i])
			i++;
		if (i == n) {
			if (++e->bcnt >= e->cfg.bcnt_max)
				flush_bcnt(e);
			return;
		}
	}
	flush_bcnt(e);
	emit_raw(e, m);
	if (n > 0) {
		for (int i = 0; i < n; i++)
			e->last_branch[i] = cmp[i];
		e->last_branch_len = n;
	}
}

static void send_ownership(struct ntrace_encoder *e, unsigned format, uint8_t priv)
{
	struct ntrace_msg m = { .tcode = NTRACE_TCODE_OWNERSHIP };

	/* PROCESS = {CONTEXT, V, PRV[1:0], FORMAT[1:0]}; CONTEXT unknown = 0 */
	m.process = (uint64_t)(priv & 7) << 2 | format;
	emit(e, &m);
	e->priv = priv;
}

/* Every synchronizing message resets the encoder state (chapter 10). */
static void after_sync(struct ntrace_encoder *e, uint64_t faddr, uint8_t priv)
{
	e->last_addr = faddr;
	e->icnt = 0;
	e->hist = 1;
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
				.btype = (uint8_t)btype, .icnt = e->icnt, .hist = e->hist,
				.addr = target >> 1 };

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
	m.tcode = htm(e) && e->hist != 1 ? NTRACE_TCODE_INDIRECT_BRANCH_HIST :
					   NTRACE_TCODE_INDIRECT_BRANCH;
	m.btype = e->pending_btype;
	m.icnt = e->icnt;
	m.addr = (target ^ e->last_addr) >> 1;
	m.hist = e->hist;
	emit_branch(e, &m);
	e->icnt = 0;
	e->hist = 1;
	e->last_addr = target;
}

int ntrace_enc_init(struct ntrace_encoder *e, const struct ntrace_config *cfg,
		    ntrace_sink_fn sink, void *ctx)
{
	int err = ntrace_config_check(cfg);

	*e = (struct ntrace_encoder){ .cfg = *cfg, .sink = sink, .sink_ctx = ctx, .hist = 1,
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

static void add_hist(struct ntrace_encoder *e, unsigned taken)
{
	e->hist = e->hist << 1 | taken;
	if (!(e->hist >> e->cfg.hist_bits))
		return;
	/* HIST full: send the register as it was before this branch */
	flush_bcnt(e);
	if (!e->cfg.trTeInstEnRepeatedHistory) {
		send_hist_full(e, e->hist >> 1, 1);
	} else if (e->rep_count && e->rep_hist == e->hist >> 1 &&
		   e->rep_count < e->cfg.hrepeat_max) {
		e->rep_count++;
	} else {
		flush_hrepeat(e);
		e->rep_hist = e->hist >> 1;
		e->rep_count = 1;
	}
	e->hist = 2 | taken;
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
	m.rdata = e->icnt;
	emit(e, &m);
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
		e->hist = 1;
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
		if (htm(e) && e->hist != 1)
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
	m.cdf = htm(e) ? 1 : 0;
	m.icnt = e->icnt;
	m.hist = e->hist;
	emit(e, &m);
	e->icnt = 0;
	e->hist = 1;
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
	e->rep_count = 0;
	emit_raw(e, &m);
	e->started = false;
	e->start_sync = NTRACE_SYNC_FIFO_OVERRUN;
}
