// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: the ingress port from a list of executed instructions (an
 * execution log, or the plugin's stream through tally-trace-record.c), and
 * the encode subcommand.  Each executed instruction becomes one ingress-port
 * record; its itype comes from its opcode and the next executed address (see
 * docs/trace.md for what a log can and cannot tell).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

/*
 * One record for the instruction at pc, knowing the next executed address.
 * A next address the opcode cannot lead to is a trap taken after it (or, for
 * ECALL/EBREAK, instead of it).  has_next false: last instruction of the log.
 */
static void make_record(struct feeder *fd, uint64_t pc, uint8_t priv, bool has_next, uint64_t next,
			const struct ntrace_insn *known)
{
	static const struct ntrace_insn unknown = { .len = 4, .kind = NTRACE_K_PLAIN };
	const struct ntrace_insn *in;
	struct ntrace_ingress r = { .addr = pc, .priv = priv, .tstamp = fd->executed };
	uint64_t seq;

	if (fd->replay_code)
		image_apply_words(fd->executed + 2);	/* as the decoder does */
	in = known ? known : image_lookup(NULL, pc);
	/*
	 * The same address twice in a row from an instruction that cannot
	 * jump to itself: QEMU aborted the first execution and ran it again
	 * (under -icount, an MMIO access restarts its TB): not retired.
	 */
	if (has_next && next == pc && (!in || in->kind == NTRACE_K_PLAIN ||
				       in->kind == NTRACE_K_TRAP ||
				       ((in->kind == NTRACE_K_BRANCH || in->kind == NTRACE_K_JUMP) &&
					in->target != pc))) {
		fd->restarted++;
		return;
	}
	fd->executed++;
	if (fd->addresses)
		addr_out_put(fd->addresses, pc, in, false);
	if (!in || !in->len) {
		/* no code known: count it as a 4-byte instruction */
		fd->unknown_code++;
		in = &unknown;
	}
	r.ilen = in->len;
	seq = pc + in->len;
	if (trace_cfg.xlen == 32)
		seq = (uint32_t)seq;
	switch (in->kind) {
	case NTRACE_K_TRAP:
		r.itype = NTRACE_ITYPE_EXCEPTION;
		fd->traps++;
		break;
	case NTRACE_K_BRANCH:
		r.itype = has_next && next == in->target ? NTRACE_ITYPE_BRANCH_TAKEN :
							   NTRACE_ITYPE_BRANCH_NOT_TAKEN;
		if (has_next && next != in->target && next != seq)
			r.flags = NTRACE_REC_TRAP_AFTER | NTRACE_REC_TRAP_CAUSE_UNKNOWN;
		break;
	case NTRACE_K_JUMP:
		r.itype = in->itype;
		if (has_next && next != in->target)
			r.flags = NTRACE_REC_TRAP_AFTER | NTRACE_REC_TRAP_CAUSE_UNKNOWN;
		break;
	case NTRACE_K_INDIRECT:
	case NTRACE_K_TRAP_RETURN:
		/* any destination is possible: a trap right after one is seen
		 * as the jump going to the trap handler */
		r.itype = in->itype;
		break;
	default:
		if (has_next && next != seq)
			r.flags = NTRACE_REC_TRAP_AFTER | NTRACE_REC_TRAP_CAUSE_UNKNOWN;
		break;
	}
	if (r.flags)
		fd->traps++;
	/*
	 * LUI/AUIPC + JALR: flagged only when the next address is the one the
	 * pair computes.  Anything else is a trap right after the jump (a
	 * fetch fault at its target, which never retires): the log shows the
	 * jump going to the trap vector, which only a message can say.
	 */
	if (in->kind == NTRACE_K_INDIRECT && fd->prev_load && fd->prev_rd == in->rs1 &&
	    has_next && next == ntrace_seq_jump_target(fd->prev_value, in->imm, trace_cfg.xlen))
		r.flags |= NTRACE_REC_SEQ_INFERABLE;
	fd->prev_load = in->const_load && r.itype == NTRACE_ITYPE_NONE && !r.flags;
	fd->prev_rd = in->rd;
	fd->prev_value = in->target;
	if (fd->caprecs) {
		if (fd->nrecs == fd->caprecs) {
			fd->caprecs *= 2;
			fd->recs = realloc(fd->recs, fd->caprecs * sizeof(*fd->recs));
			if (!fd->recs)
				exit(2);
		}
		fd->recs[fd->nrecs++] = r;
		return;
	}
	ntrace_enc_retire(&fd->enc, &r);
	for (int i = 0; i < fd->nmore; i++)
		ntrace_enc_retire(&fd->more[i].enc, &r);
}

/* One executed instruction; in: its classification if known (else the image's) */
void feed_insn(struct feeder *fd, uint64_t pc, uint8_t priv, const struct ntrace_insn *in)
{
	fd->q_pc[fd->qn] = pc;
	fd->q_priv[fd->qn] = priv;
	fd->q_in[fd->qn] = in;
	if (++fd->qn == 3) {
		make_record(fd, fd->q_pc[0], fd->q_priv[0], true, fd->q_pc[1], fd->q_in[0]);
		fd->q_pc[0] = fd->q_pc[1];
		fd->q_pc[1] = fd->q_pc[2];
		fd->q_priv[0] = fd->q_priv[1];
		fd->q_priv[1] = fd->q_priv[2];
		fd->q_in[0] = fd->q_in[1];
		fd->q_in[1] = fd->q_in[2];
		fd->qn = 2;
	}
}

void feed(struct feeder *fd, uint64_t pc, uint8_t priv)
{
	feed_insn(fd, pc, priv, NULL);
}

/* QEMU "Stopped execution of TB chain before X": X did not run. */
void unfeed(struct feeder *fd, uint64_t pc)
{
	if (fd->qn && fd->q_pc[fd->qn - 1] == pc)
		fd->qn--;
}

void feed_end(struct feeder *fd)
{
	if (fd->qn == 2)
		make_record(fd, fd->q_pc[0], fd->q_priv[0], true, fd->q_pc[1], fd->q_in[0]);
	if (fd->qn >= 1)
		make_record(fd, fd->q_pc[fd->qn - 1], fd->q_priv[fd->qn - 1], false, 0,
			    fd->q_in[fd->qn - 1]);
	fd->qn = 0;
	if (fd->caprecs) {
		double t0 = cpu_s(), t;

		for (size_t i = 0; i < fd->nrecs; i++)
			ntrace_enc_retire(&fd->enc, &fd->recs[i]);
		t = cpu_s() - t0;
		fprintf(stderr, "tally-trace: encoder alone: %zu records in %.3f s of CPU time "
			"(%.1f M records/s)\n",
			fd->nrecs, t, t > 0 ? (double)fd->nrecs / t / 1e6 : 0.0);
	}
	ntrace_enc_stop(&fd->enc, NTRACE_EVCODE_TRACE_DISABLED);
	for (int i = 0; i < fd->nmore; i++)
		ntrace_enc_stop(&fd->more[i].enc, NTRACE_EVCODE_TRACE_DISABLED);
}

/* --addresses: the executed sequence, in the --format asked for. */
struct addr_out *open_addresses(const char *path, const struct opts *o)
{
	struct addr_out *a = malloc(sizeof(*a));

	if (!a)
		exit(2);
	addr_out_init(a, open_out(path), o->format, trace_cfg.xlen);
	return a;
}

int close_addresses(struct addr_out *a)
{
	int rc = addr_out_finish(a);

	if (fclose(a->f))
		rc = -1;
	free(a);
	if (rc)
		fprintf(stderr, "tally-trace: cannot write the --addresses file\n");
	return rc;
}

void feeder_init(struct feeder *fd, const struct opts *o)
{
	memset(fd, 0, sizeof(*fd));
	fd->replay_code = o->code != NULL;
	if (o->bench) {
		fd->caprecs = 1 << 20;
		fd->recs = malloc(fd->caprecs * sizeof(*fd->recs));
	}
	ntrace_enc_init(&fd->enc, &trace_cfg, obuf_sink, &fd->out);
	if (o->nmore) {
		fd->more = calloc((size_t)o->nmore, sizeof(*fd->more));
		if (!fd->more)
			exit(2);
		fd->nmore = o->nmore;
		for (int i = 0; i < o->nmore; i++)
			ntrace_enc_init(&fd->more[i].enc, &o->more[i].cfg, obuf_sink, &fd->more[i].out);
	}
	if (o->addresses)
		fd->addresses = open_addresses(o->addresses, o);
}

/* T.ntr, T.ntr.cfg and T.ntr.code of one encoder: 0, or 1 after saying which failed. */
static int write_stream(const char *out, const struct obuf *b, const struct ntrace_config *cfg)
{
	char path[4096];
	FILE *f = fopen(out, "wb");

	if (!f || fwrite(b->b, 1, b->n, f) != b->n || fclose(f)) {
		fprintf(stderr, "tally-trace: cannot write %s\n", out);
		return 1;
	}
	snprintf(path, sizeof(path), "%s.cfg", out);
	if (save_cfg_of(cfg, path)) {
		fprintf(stderr, "tally-trace: cannot write %s\n", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s.code", out);
	if (image_save_words(path)) {
		fprintf(stderr, "tally-trace: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

int feeder_finish(struct feeder *fd, const struct opts *o, double secs)
{
	int error;

	feed_end(fd);
	error = fd->enc.error;
	if (fd->addresses && close_addresses(fd->addresses))
		return 1;
	if (!o->out)
		return 0;
	if (write_stream(o->out, &fd->out, &trace_cfg))
		return 1;
	/* --and: each further encoder's line first, the run's summary last */
	for (int i = 0; i < fd->nmore; i++) {
		if (write_stream(o->more[i].out, &fd->more[i].out, &o->more[i].cfg))
			return 1;
		error |= fd->more[i].enc.error;
		if (!o->quiet)
			fprintf(stderr, "tally-trace: %s: %llu messages, %zu bytes, %.3f bits/instruction\n",
				o->more[i].out, (unsigned long long)fd->more[i].enc.messages,
				fd->more[i].out.n, fd->executed ?
				8.0 * (double)fd->more[i].out.n / (double)fd->executed : 0.0);
	}
	if (!o->quiet)
		fprintf(stderr,
			"tally-trace: %llu instructions, %llu messages, %zu bytes, %.3f bits/instruction, "
			"%llu traps, %llu without code, %llu restarted, %.2f s\n",
			(unsigned long long)fd->executed, (unsigned long long)fd->enc.messages,
			fd->out.n, fd->executed ? 8.0 * (double)fd->out.n / (double)fd->executed : 0.0,
			(unsigned long long)fd->traps, (unsigned long long)fd->unknown_code,
			(unsigned long long)fd->restarted, secs);
	return error ? 1 : 0;
}
