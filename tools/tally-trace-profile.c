// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace profile: instructions per function and per SBI call (an ECALL
 * from S-mode to M-mode, named by the extension handler it reaches), and a
 * flame graph (tally-trace-flame.c).  The call stack is followed from the
 * decoded flow: calls and returns by their itype, traps by a next address
 * the instruction cannot lead to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

struct prof_fn {
	const char *name;
	uint64_t count;
};

#define MAX_DEPTH 64

struct profile {
	struct prof_fn *fns;
	size_t nfns, capfns;
	const char *stack[MAX_DEPTH];
	int depth;
	int trap_depth[MAX_DEPTH];
	int ntraps;
	uint64_t prev_pc;
	const struct ntrace_insn *prev_in;
	bool have_prev;
	/* SBI calls: traps from an ECALL, labelled by the extension handler */
	bool in_sbi;
	int sbi_depth;
	uint64_t sbi_count;
	const char *sbi_label, *sbi_label2;
	int sbi_label_depth;
	struct prof_fn *sbis;
	size_t nsbis, capsbis;
	uint64_t sbi_calls[256];
	/* functions of the current SBI call, and per label */
	struct prof_fn *ep;
	size_t nep, capep;
	struct prof_fn *lab_fns[256];
	size_t lab_n[256], lab_cap[256];
	struct flame *flame;
	uint64_t flame_run;
	const char *last_fn_name;
	size_t last_fn;
};

static struct prof_fn *prof_slot(struct prof_fn **arr, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if ((*arr)[i].name == name || !strcmp((*arr)[i].name, name))
			return &(*arr)[i];
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*arr = realloc(*arr, *cap * sizeof(**arr));
	}
	(*arr)[*n] = (struct prof_fn){ name, 0 };
	return &(*arr)[(*n)++];
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void flame_flush(struct profile *c)
{
	if (c->flame && c->flame_run)
		flame_add(c->flame, c->stack, c->depth, c->flame_run);
	c->flame_run = 0;
}

static void set_depth(struct profile *c, int depth)
{
	flame_flush(c);
	c->depth = depth < 0 ? 0 : depth > MAX_DEPTH ? MAX_DEPTH : depth;
}

/* Profile bookkeeping for one executed instruction. */
static void profile_exec(struct decode_ctx *dc, uint64_t pc, const char *name)
{
	struct profile *c = dc->profile;
	const struct ntrace_insn *in = image_lookup(NULL, pc);

	if (!name)
		name = "?";
	if (c->have_prev) {
		const struct ntrace_insn *p = c->prev_in;
		uint64_t seq = c->prev_pc + (p ? p->len : 4);
		bool trap = false;

		if (p && p->kind == NTRACE_K_TRAP)
			trap = true;
		else if (p && (p->kind == NTRACE_K_PLAIN || p->kind == NTRACE_K_BRANCH))
			trap = pc != seq && !(p->kind == NTRACE_K_BRANCH && pc == p->target);
		else if (p && p->kind == NTRACE_K_JUMP)
			trap = pc != p->target;
		if (trap) {
			/* trap entry: a new frame; an ECALL starts an SBI call */
			if (c->ntraps < MAX_DEPTH)
				c->trap_depth[c->ntraps++] = c->depth;
			/* with Ownership messages: only an ECALL from S-mode to M-mode
			 * is an SBI call (a U-mode ECALL is a system call) */
			if (p && p->kind == NTRACE_K_TRAP && !c->in_sbi &&
			    (dc->priv < 0 || (dc->priv == 3 && dc->prev_priv == 1))) {
				c->in_sbi = true;
				c->sbi_depth = c->ntraps;
				c->sbi_count = 0;
				c->nep = 0;
				c->sbi_label = c->sbi_label2 = NULL;
			}
			set_depth(c, c->depth + 1);
			c->stack[c->depth - 1] = name;
		} else if (p && p->kind == NTRACE_K_TRAP_RETURN) {
			if (c->in_sbi && c->ntraps == c->sbi_depth) {
				char label[256];
				struct prof_fn *s;

				snprintf(label, sizeof(label), "%s%s%s",
					 c->sbi_label ? c->sbi_label : "(no extension handler)",
					 c->sbi_label2 ? " > " : "", c->sbi_label2 ? c->sbi_label2 : "");
				s = prof_slot(&c->sbis, &c->nsbis, &c->capsbis, strdup(label));
				s->count += c->sbi_count;
				c->sbi_calls[(size_t)(s - c->sbis) % 256]++;
				for (size_t k = 0, l = (size_t)(s - c->sbis) % 256; k < c->nep; k++)
					prof_slot(&c->lab_fns[l], &c->lab_n[l], &c->lab_cap[l],
						  c->ep[k].name)->count += c->ep[k].count;
				c->in_sbi = false;
			}
			if (c->ntraps)
				set_depth(c, c->trap_depth[--c->ntraps]);
			else
				set_depth(c, c->depth - 1);
		} else if (p && (p->kind == NTRACE_K_JUMP || p->kind == NTRACE_K_INDIRECT)) {
			if (ntrace_itype_is_call(p->itype)) {
				set_depth(c, c->depth + 1);
				c->stack[c->depth - 1] = name;
			} else if (p->itype == NTRACE_ITYPE_RETURN) {
				set_depth(c, c->depth - 1);
			}
		}
	}
	if (c->depth == 0) {
		set_depth(c, 1);
		c->stack[0] = name;
	}
	/* a tail call or fall-through into another function: rename the frame */
	if (c->stack[c->depth - 1] != name && strcmp(c->stack[c->depth - 1], name)) {
		flame_flush(c);
		c->stack[c->depth - 1] = name;
	}
	/* an SBI call is named by the extension handler it reaches (called
	 * or tail-called from sbi_ecall_handle) and that handler's first callee */
	if (c->in_sbi && !c->sbi_label && ends_with(name, "_handle") &&
	    strcmp(name, "sbi_ecall_handle")) {
		c->sbi_label = name;
		c->sbi_label_depth = c->depth;
	} else if (c->in_sbi && c->sbi_label && !c->sbi_label2 &&
		   c->depth == c->sbi_label_depth + 1) {
		c->sbi_label2 = name;
	}
	c->flame_run++;
	if (c->in_sbi) {
		c->sbi_count++;
		prof_slot(&c->ep, &c->nep, &c->capep, name)->count++;
	}
	if (name != c->last_fn_name) {
		c->last_fn_name = name;
		c->last_fn = (size_t)(prof_slot(&c->fns, &c->nfns, &c->capfns, name) - c->fns);
	}
	c->fns[c->last_fn].count++;
	c->prev_pc = pc;
	c->prev_in = in;
	c->have_prev = true;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct prof_fn *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->name, y->name);
}

int cmd_profile(struct opts *o)
{
	struct profile *prof = calloc(1, sizeof(*prof));
	struct decode_ctx dc = { .profile = prof, .exec = profile_exec,
				 .priv = -1, .prev_priv = -1 };
	struct ntrace_decoder *d = calloc(1, sizeof(*d));
	struct flame *fl = flame_new();
	uint64_t total = 0;
	size_t bytes;
	double secs;
	int rc;

	if (!prof || !d || !fl) {
		fprintf(stderr, "tally-trace: out of memory\n");
		return 2;
	}
	prof->flame = fl;
	rc = decode_file(o, &dc, d, &bytes, &secs);
	flame_flush(prof);
	for (size_t i = 0; i < prof->nfns; i++)
		total += prof->fns[i].count;
	qsort(prof->fns, prof->nfns, sizeof(*prof->fns), cmp_fn);
	printf("%-40s %12s %7s\n", "function", "instructions", "share");
	for (size_t i = 0; i < prof->nfns; i++)
		printf("%-40s %12llu %6.2f%%\n", prof->fns[i].name, (unsigned long long)prof->fns[i].count,
		       total ? 100.0 * (double)prof->fns[i].count / (double)total : 0.0);
	printf("%-40s %12llu\n", "total", (unsigned long long)total);
	if (prof->nsbis) {
		/* counts are kept per label: pair them before sorting */
		struct { struct prof_fn f; uint64_t calls; } *rows = calloc(prof->nsbis, sizeof(*rows));

		for (size_t i = 0; i < prof->nsbis; i++) {
			rows[i].f = prof->sbis[i];
			rows[i].calls = prof->sbi_calls[i % 256];
		}
		printf("\n%-56s %8s %12s %10s\n", "SBI call (extension handler > function)", "calls",
		       "instructions", "per call");
		for (size_t i = 0; i < prof->nsbis; i++)
			printf("%-56s %8llu %12llu %10.1f\n", rows[i].f.name,
			       (unsigned long long)rows[i].calls, (unsigned long long)rows[i].f.count,
			       rows[i].calls ? (double)rows[i].f.count / (double)rows[i].calls : 0.0);
		printf("\nwhere the instructions of each SBI call go (per call, trap entry to MRET)\n");
		for (size_t i = 0; i < prof->nsbis && i < 256; i++) {
			size_t nf = prof->lab_n[i];

			if (!rows[i].calls)
				continue;
			qsort(prof->lab_fns[i], nf, sizeof(*prof->lab_fns[i]), cmp_fn);
			printf("%s (%.1f per call):", rows[i].f.name,
			       (double)rows[i].f.count / (double)rows[i].calls);
			for (size_t k = 0; k < nf && k < 8; k++)
				printf(" %s %.1f;", prof->lab_fns[i][k].name,
				       (double)prof->lab_fns[i][k].count / (double)rows[i].calls);
			printf("\n");
		}
		free(rows);
	}
	if (o->svg) {
		char title[256];

		snprintf(title, sizeof(title), "tally-trace profile: %llu instructions (%s)",
			 (unsigned long long)total, o->input);
		if (flame_write(fl, o->svg, title))
			rc = 1;
	}
	flame_free(fl);
	free(prof);
	free(d);
	return rc;
}
