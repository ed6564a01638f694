// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace program-flow reconstruction (spec chapter 11).  The caller gives
 * the code (a lookup of classified instructions) and receives every executed
 * instruction address, in order.  Messages are walked as they arrive, as the
 * spec's decoder does: HIST bits (of ResourceFull messages too) are walked at
 * once, through the code from the current PC, up to the branch that takes
 * the last of them, even before the I-CNT of those instructions has arrived
 * (the I-CNT walked ahead is owed, and paid by the I-CNT that comes next);
 * I-CNT is walked at once too, stopping only where a conditional branch needs
 * a HIST bit that has not arrived yet (HTM).  So no message waits for
 * another and memory stays bounded, however many ResourceFull messages come
 * before their I-CNT.  Any inconsistency reports an error and waits for the
 * next synchronizing message, which restores the full PC.
 */
#include <tally/ntrace.h>

static bool htm(const struct ntrace_decoder *d)
{
	return d->cfg.trTeInstMode == NTRACE_INST_MODE_HTM;
}

static uint64_t wrap(const struct ntrace_decoder *d, uint64_t a)
{
	return d->cfg.xlen == 32 ? (uint32_t)a : a;
}

static void reset_flow(struct ntrace_decoder *d)
{
	d->icnt = 0;
	d->hq_n = 0;
	d->hq_used = 0;
	d->stack_n = 0;
	d->have_last_branch = false;
	d->seq_valid = false;
}

int ntrace_dec_init(struct ntrace_decoder *d, const struct ntrace_config *cfg,
		    ntrace_lookup_fn lookup, ntrace_exec_fn exec, ntrace_event_fn event,
		    void *ctx)
{
	d->cfg = *cfg;
	d->lookup = lookup;
	d->range = 0;
	d->win = 0;
	d->win_base = d->win_end = 0;
	d->exec = exec;
	d->event = event;
	d->ctx = ctx;
	d->synced = false;
	d->pc = d->last_addr = 0;
	d->hq_head = 0;
	d->stack_top = 0;
	d->priv = 3;
	d->tstamp = 0;
	d->instructions = d->messages = d->errors = 0;
	d->last_error = 0;
	d->src = -1;
	d->msg_offset = d->msg_number = 0;
	d->fault = (struct ntrace_fault){ .tcode = -1 };
	d->lenient = false;
	d->wide_fields = 0;
	d->wide_first = d->fault;
	reset_flow(d);
	return ntrace_config_check(cfg);
}

/* ---- errors ------------------------------------------------------------------ */

/*
 * A count wider than chapter 6's limits (I-CNT 22 bits, HREPEAT and B-CNT 18):
 * true, with the field and its value.
 */
static bool wide_field(const struct ntrace_msg *m, const char **field, uint64_t *value)
{
	bool icnt_rdata = m->tcode == NTRACE_TCODE_RESOURCE_FULL && m->rcode == NTRACE_RCODE_ICNT;

	if (m->icnt >> NTRACE_MAX_ICNT) {
		*field = "I-CNT";
		*value = m->icnt;
	} else if (icnt_rdata && m->rdata >> NTRACE_MAX_ICNT) {
		*field = "RDATA";
		*value = m->rdata;
	} else if (m->hrepeat >> NTRACE_MAX_HREPEAT) {
		*field = "HREPEAT";
		*value = m->hrepeat;
	} else if (m->bcnt >> NTRACE_MAX_BCNT) {
		*field = "B-CNT";
		*value = m->bcnt;
	} else {
		return false;
	}
	return true;
}

/* The field a decode error is about, and its value. */
static void fault_field(struct ntrace_fault *f, const struct ntrace_msg *m, int err)
{
	bool rf = m->tcode == NTRACE_TCODE_RESOURCE_FULL;
	bool has_hist = m->tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST ||
			m->tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC ||
			(m->tcode == NTRACE_TCODE_PROG_TRACE_CORRELATION && m->cdf == 1);

	f->field = "I-CNT";
	f->value = m->icnt;
	if (err == NTRACE_E_WIDE) {
		wide_field(m, &f->field, &f->value);
	} else if (m->tcode == NTRACE_TCODE_ERROR) {
		f->field = "ETYPE";
		f->value = m->etype;
	} else if (rf && m->rcode > NTRACE_RCODE_HREPEAT) {
		f->field = "RCODE";
		f->value = m->rcode;
	} else if (rf) {
		f->field = "RDATA";
		f->value = m->rdata;
	} else if (m->tcode == NTRACE_TCODE_REPEAT_BRANCH) {
		f->field = "B-CNT";
		f->value = m->bcnt;
	} else if (err == NTRACE_E_HIST && has_hist) {
		f->field = "HIST";
		f->value = m->hist;
	} else if (err == NTRACE_E_NO_CODE && ntrace_tcode_is_sync(m->tcode) && !m->icnt) {
		f->field = "F-ADDR";
		f->value = m->addr;
	}
}

static int fail(struct ntrace_decoder *d, const struct ntrace_msg *m, int err)
{
	d->errors++;
	d->last_error = err;
	d->fault = (struct ntrace_fault){
		.err = err, .offset = d->msg_offset, .msg = d->msg_number,
		.tcode = m ? m->tcode : -1, .has_pc = d->synced, .pc = d->pc,
	};
	if (m)
		fault_field(&d->fault, m, err);
	d->synced = false;
	reset_flow(d);
	if (d->event)
		d->event(d->ctx, m, err);
	return err;
}

/* A stream error the parser found: its fault, as the decoder's. */
static void fail_parse(struct ntrace_decoder *d, const struct ntrace_parser *p, int err)
{
	d->msg_offset = p->fault.offset;
	d->msg_number = p->fault.msg;
	d->errors++;
	d->last_error = err;
	d->fault = p->fault;
	d->synced = false;
	reset_flow(d);
	if (d->event)
		d->event(d->ctx, 0, err);
}

/* ---- call stack (implicit return) ------------------------------------------ */

static void push_return(struct ntrace_decoder *d, uint64_t ret)
{
	d->stack_top = (d->stack_top + 1) % NTRACE_STACK_MAX;
	d->stack[d->stack_top] = ret;
	if (d->stack_n < NTRACE_STACK_MAX)
		d->stack_n++;
}

static uint64_t pop_return(struct ntrace_decoder *d)
{
	uint64_t ret = d->stack[d->stack_top];

	d->stack_top = (d->stack_top + NTRACE_STACK_MAX - 1) % NTRACE_STACK_MAX;
	d->stack_n--;
	return ret;
}

/* ---- history queue ---------------------------------------------------------- */

static bool hist_queued(const struct ntrace_decoder *d)
{
	return d->hq_n != 0;
}

/* The HIST bits of the message at hand (the walk consumes every message's
 * bits before the next message, so the queue holds one or two chunks). */
static int push_hist(struct ntrace_decoder *d, uint64_t hist, uint64_t repeat)
{
	struct ntrace_hist_chunk *c;
	unsigned n = 0;

	while (n < 64 && hist >> n > 1)
		n++;
	if (n == 0 || repeat == 0)
		return NTRACE_OK;	/* no branches in it */
	if (d->hq_n >= NTRACE_HIST_RING)
		return NTRACE_E_HIST;	/* not reached: see the walk */
	c = &d->hq[(d->hq_head + d->hq_n) % NTRACE_HIST_RING];
	c->bits = hist;
	c->n = (uint8_t)n;
	c->repeat = (uint32_t)repeat;
	d->hq_n++;
	return NTRACE_OK;
}

/* Next branch outcome: 1 taken, 0 not taken, -1 none queued. */
static int take_hist(struct ntrace_decoder *d)
{
	struct ntrace_hist_chunk *c;
	int bit;

	if (!d->hq_n)
		return -1;
	c = &d->hq[d->hq_head];
	bit = (int)((c->bits >> (c->n - 1 - d->hq_used)) & 1);
	if (++d->hq_used == c->n) {
		d->hq_used = 0;
		if (--c->repeat == 0) {
			d->hq_head = (d->hq_head + 1) % NTRACE_HIST_RING;
			d->hq_n--;
		}
	}
	return bit;
}

/* ---- walking the code ------------------------------------------------------- */

#define WALK_BLOCKED	2	/* needs a HIST bit not sent yet */

/* The instruction at pc: from the cached code range when there is one. */
static const struct ntrace_insn *insn_at(struct ntrace_decoder *d, uint64_t pc)
{
	if (pc - d->win_base < d->win_end - d->win_base)
		return &d->win[(pc - d->win_base) >> 1];
	if (d->range) {
		const struct ntrace_insn *w = d->range(d->ctx, pc, &d->win_base, &d->win_end);

		if (w && !(pc & 1) && pc - d->win_base < d->win_end - d->win_base &&
		    !((pc - d->win_base) & 1)) {
			d->win = w;
			return &w[(pc - d->win_base) >> 1];
		}
		d->win_base = d->win_end = 0;
	}
	return d->lookup(d->ctx, pc);
}

/*
 * A sequential jump (chapter 9): an indirect jump whose rs1 the constant
 * load walked just before wrote.  Keeps its call-stack effects; *next is
 * the target.  False if the jump is not one (or the control is off).
 */
static bool seq_jump(struct ntrace_decoder *d, const struct ntrace_insn *in, uint64_t *next)
{
	unsigned ir = d->cfg.trTeInstImplicitReturnMode;
	uint64_t ret = *next;

	if (!d->cfg.trTeInstEnSequentialJump || in->kind != NTRACE_K_INDIRECT ||
	    !d->seq_valid || d->seq_rd != in->rs1)
		return false;
	*next = ntrace_seq_jump_target(d->seq_value, in->imm, d->cfg.xlen);
	if (!ir)
		return true;
	if (in->itype == NTRACE_ITYPE_RETURN || in->itype == NTRACE_ITYPE_COROUTINE_SWAP) {
		if (d->stack_n)
			pop_return(d);
	}
	if (in->itype == NTRACE_ITYPE_INDIRECT_CALL || in->itype == NTRACE_ITYPE_COROUTINE_SWAP)
		push_return(d, ret);
	return true;
}

/*
 * A direct jump: always taken; under trTeInstEnAllJumps it is reported as a
 * taken branch, so in HTM it takes a HIST bit (which must say taken) and in
 * BTM it ends a DirectBranch (or any final) range.
 */
static int walk_jump(struct ntrace_decoder *d, bool final, bool end)
{
	if (!d->cfg.trTeInstEnAllJumps)
		return NTRACE_OK;
	if (htm(d)) {
		int taken = take_hist(d);

		if (taken < 0)
			return final ? NTRACE_E_HIST : WALK_BLOCKED;
		return taken ? NTRACE_OK : NTRACE_E_HIST;
	}
	return end && final ? NTRACE_OK : NTRACE_E_ICNT;
}

/*
 * A conditional branch: taken or not, from HIST (HTM) or the message (BTM).
 * last: it ends the range of a message that gives the next address (not a
 * DirectBranch): its direction does not matter, and an encoder that saw it
 * followed by a trap may have sent no HIST bit for it (the reference encoder
 * reports such an instruction as an indirect jump), so without a bit it
 * is the instruction the message is about.
 */
static int walk_branch(struct ntrace_decoder *d, bool final, bool last_of_db, bool last)
{
	int taken;

	if (!htm(d))
		return last_of_db;
	taken = take_hist(d);
	if (taken < 0)
		return last ? 0 : final ? NTRACE_E_HIST : WALK_BLOCKED;
	return taken;
}

/*
 * Walks the code from d->pc.  d->icnt is the I-CNT not walked yet, in
 * halfwords; below zero, halfwords walked ahead of their I-CNT.
 * final: the message ends the range (its last instruction is the one the
 * message is about); db_end: it is a DirectBranch (the last instruction is a
 * taken branch).  An indirect jump ending a final range is left for the
 * caller (*last set, d->pc at it).  Not final, the walk goes on past the
 * I-CNT while HIST bits are queued, and stops right after the branch that
 * takes the last one (the next instruction may not have executed).
 */
static int walk(struct ntrace_decoder *d, bool final, bool db_end,
		const struct ntrace_insn **last)
{
	unsigned ir = d->cfg.trTeInstImplicitReturnMode;

	*last = 0;
	while (d->icnt > 0 || (!final && hist_queued(d))) {
		const struct ntrace_insn *in = insn_at(d, d->pc);
		uint64_t next;
		unsigned units;
		bool end;
		int rc;

		if (!in || !in->len || in->kind == NTRACE_K_INVALID)
			return NTRACE_E_NO_CODE;
		units = in->len / 2u;
		if (d->icnt > 0 && units > d->icnt)
			return NTRACE_E_ICNT;
		end = d->icnt == (int64_t)units;
		next = wrap(d, d->pc + in->len);
		switch (in->kind) {
		case NTRACE_K_BRANCH:
			rc = walk_branch(d, final, end && final && db_end, end && final && !db_end);
			if (rc < 0 || rc == WALK_BLOCKED)
				return rc;
			if (rc)
				next = in->target;
			break;
		case NTRACE_K_JUMP:
			rc = walk_jump(d, final, end);
			if (rc)
				return rc;
			if (ir && ntrace_itype_is_call(in->itype))
				push_return(d, next);
			next = in->target;
			break;
		case NTRACE_K_INDIRECT:
		case NTRACE_K_TRAP_RETURN:
			if (end && final)
				break;
			if (seq_jump(d, in, &next))
				break;
			/* only a return the call stack infers may be passed */
			if (!ir || in->itype != NTRACE_ITYPE_RETURN || !d->stack_n)
				return ir ? NTRACE_E_STACK : NTRACE_E_UNINFERABLE;
			next = pop_return(d);
			break;
		default:
			break;
		}
		d->exec(d->ctx, d->pc, 0);
		d->instructions++;
		d->icnt -= units;
		*last = in;
		/* d->pc stays at the jump; the sequential-jump state stays the
		 * load's, for finish() to infer a jump a trap follows */
		if (end && final && (in->kind == NTRACE_K_INDIRECT ||
				     in->kind == NTRACE_K_TRAP_RETURN))
			return NTRACE_OK;
		d->seq_valid = in->const_load;
		d->seq_rd = in->rd;
		d->seq_value = in->target;
		d->pc = next;
	}
	/* a final range must cover what was walked ahead of it */
	if (final && d->icnt < 0)
		return NTRACE_E_ICNT;
	return NTRACE_OK;
}

/*
 * End of a message about an indirect flow change or a trap: stack effects
 * of a final indirect jump, the instruction that raised an exception, then
 * the new PC.
 */
static void finish(struct ntrace_decoder *d, const struct ntrace_insn *last,
		   unsigned btype, uint64_t target)
{
	unsigned ir = d->cfg.trTeInstImplicitReturnMode;

	if (last && (last->kind == NTRACE_K_INDIRECT || last->kind == NTRACE_K_TRAP_RETURN)) {
		uint64_t ret = wrap(d, d->pc + last->len), next = ret;

		if (btype != NTRACE_BTYPE_INDIRECT) {
			/* a trap right after an inferred sequential jump or return
			 * (an uninferred jump has its own B-TYPE=0 message) */
			if (seq_jump(d, last, &next))
				d->pc = next;
			else if (ir && last->itype == NTRACE_ITYPE_RETURN && d->stack_n)
				d->pc = pop_return(d);
		} else if (ir) {
			if (last->itype == NTRACE_ITYPE_RETURN && d->stack_n)
				pop_return(d);
			else if (last->itype == NTRACE_ITYPE_INDIRECT_CALL)
				push_return(d, ret);
			else if (last->itype == NTRACE_ITYPE_COROUTINE_SWAP) {
				if (d->stack_n)
					pop_return(d);
				push_return(d, ret);
			}
		}
	}
	if (btype == NTRACE_BTYPE_EXCEPTION) {
		d->exec(d->ctx, d->pc, NTRACE_EXEC_TRAPPED);
		d->instructions++;
	}
	d->seq_valid = false;	/* a flow change: no sequential pair across it */
	d->pc = target;
}


static int branch_msg(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	const struct ntrace_insn *last;
	int err;

	d->icnt += (int64_t)m->icnt;
	if (m->tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST) {
		err = push_hist(d, m->hist, 1);
		if (err)
			return err;
	}
	err = walk(d, true, m->tcode == NTRACE_TCODE_DIRECT_BRANCH, &last);
	if (err)
		return err;
	if (htm(d) && d->hq_n)
		return NTRACE_E_HIST;	/* HIST bits left over */
	if (m->tcode == NTRACE_TCODE_DIRECT_BRANCH) {
		/* under trTeInstEnAllJumps direct jumps are taken branches */
		if (!last || htm(d) || (last->kind != NTRACE_K_BRANCH &&
					!(last->kind == NTRACE_K_JUMP && d->cfg.trTeInstEnAllJumps)))
			return NTRACE_E_NOT_BRANCH;
		return NTRACE_OK;
	}
	d->last_addr = wrap(d, d->last_addr ^ (m->addr << 1));
	finish(d, last, m->btype, d->last_addr);
	return NTRACE_OK;
}

static int sync_msg(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	const struct ntrace_insn *last = 0;
	int err = NTRACE_OK;

	if (d->synced) {
		d->icnt += (int64_t)m->icnt;
		if (m->tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC)
			err = push_hist(d, m->hist, 1);
		if (!err)
			err = walk(d, true, m->tcode == NTRACE_TCODE_DIRECT_BRANCH_SYNC, &last);
		if (!err && htm(d) && d->hq_n)
			err = NTRACE_E_HIST;
		if (err)
			fail(d, m, err);
		else if ((m->tcode == NTRACE_TCODE_INDIRECT_BRANCH_SYNC ||
			  m->tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC) &&
			 m->btype != NTRACE_BTYPE_INDIRECT)
			finish(d, last, m->btype, d->pc);
	}
	/* the full address restores the PC whatever happened before */
	reset_flow(d);
	d->pc = d->last_addr = wrap(d, m->addr << 1);
	d->synced = true;
	return err;
}

static int flow_msg(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	const struct ntrace_insn *last;
	int err;

	switch (m->tcode) {
	case NTRACE_TCODE_DIRECT_BRANCH:
	case NTRACE_TCODE_INDIRECT_BRANCH:
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST:
		err = branch_msg(d, m);
		if (!err) {
			d->last_branch = *m;
			d->have_last_branch = true;
		}
		return err;
	case NTRACE_TCODE_REPEAT_BRANCH:
		if (!d->have_last_branch)
			return NTRACE_E_LAYOUT;
		for (uint64_t i = 0; i < m->bcnt; i++) {
			err = branch_msg(d, &d->last_branch);
			if (err)
				return err;
		}
		return NTRACE_OK;
	case NTRACE_TCODE_RESOURCE_FULL:
		if (m->rcode == NTRACE_RCODE_ICNT)
			d->icnt += (int64_t)m->rdata;
		else if (m->rcode == NTRACE_RCODE_HIST || m->rcode == NTRACE_RCODE_HREPEAT) {
			err = push_hist(d, m->rdata, m->rcode == NTRACE_RCODE_HIST ? 1 : m->hrepeat);
			if (err)
				return err;
		} else {
			return NTRACE_E_LAYOUT;
		}
		err = walk(d, false, false, &last);
		return err == WALK_BLOCKED ? NTRACE_OK : err;
	case NTRACE_TCODE_PROG_TRACE_CORRELATION:
		d->icnt += (int64_t)m->icnt;
		if (m->cdf == 1) {
			err = push_hist(d, m->hist, 1);
			if (err)
				return err;
		}
		err = walk(d, true, false, &last);
		if (err)
			return err;	/* fail() reports it where the walk stopped */
		d->synced = false;	/* trace stopped: wait for a sync */
		reset_flow(d);
		return NTRACE_OK;
	}
	return NTRACE_E_TCODE;
}

int ntrace_dec_msg(struct ntrace_decoder *d, const struct ntrace_msg *m)
{
	const char *field;
	uint64_t value;
	int err;

	d->messages++;
	if (m->has_tstamp)
		d->tstamp = ntrace_tcode_is_sync(m->tcode) ? m->tstamp : d->tstamp + m->tstamp;
	if (wide_field(m, &field, &value)) {
		if (!d->lenient || value >> NTRACE_LENIENT_BITS)
			return fail(d, m, NTRACE_E_WIDE);
		if (!d->wide_fields++)
			d->wide_first = (struct ntrace_fault){
				.offset = d->msg_offset, .msg = d->msg_number, .tcode = m->tcode,
				.field = field, .value = value,
			};
	}
	if (m->tcode == NTRACE_TCODE_OWNERSHIP) {
		d->priv = (uint8_t)ntrace_process_vpriv(m->process);
		if (d->event)
			d->event(d->ctx, m, NTRACE_OK);
		return NTRACE_OK;
	}
	if (m->tcode == NTRACE_TCODE_ERROR)
		return fail(d, m, NTRACE_E_LOST);
	if (ntrace_tcode_is_sync(m->tcode))
		return sync_msg(d, m);
	if (!d->synced)
		return NTRACE_OK;	/* nothing to do before a full address */
	err = flow_msg(d, m);
	if (err)
		return fail(d, m, err);
	return NTRACE_OK;
}

uint64_t ntrace_dec_buffer(struct ntrace_decoder *d, const uint8_t *buf, size_t len)
{
	struct ntrace_parser p;
	struct ntrace_msg m;
	uint64_t before = d->errors;
	bool filter = d->src >= 0 && ntrace_src_bits(&d->cfg);
	int rc;

	ntrace_parser_init(&p, &d->cfg, buf, len);
	while ((rc = ntrace_parse_next(&p, &m)) != NTRACE_END) {
		if (rc < 0) {
			fail_parse(d, &p, rc);
			continue;
		}
		if (filter && m.src != (unsigned)d->src)
			continue;
		d->msg_offset = p.msg_start;
		d->msg_number = p.messages + p.errors;
		ntrace_dec_msg(d, &m);
	}
	return d->errors - before;
}
