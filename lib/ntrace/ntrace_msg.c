// SPDX-License-Identifier: BSD-2-Clause
/*
 * N-Trace message layer: MDO/MSEO framing (spec chapter 3), fixed and
 * variable-length fields, the field layout of every TCODE (chapters 6, 7),
 * address MSB extension (chapter 9, trTeInstExtendAddrMSB).
 */
#include <tally/ntrace.h>

/* ---- configuration ---------------------------------------------------- */

void ntrace_config_default(struct ntrace_config *cfg)
{
	*cfg = (struct ntrace_config){
		.trTeInstMode = NTRACE_INST_MODE_BTM,
		.xlen = 64,
		.ret_stack_depth = NTRACE_STACK_MAX,
		.icnt_limit = 1u << 16,
		.hist_bits = NTRACE_MAX_HIST,
		.hrepeat_max = (1u << NTRACE_MAX_HREPEAT) - 1,
		.bcnt_max = (1u << NTRACE_MAX_BCNT) - 1,
	};
}

/*
 * Every control of struct ntrace_config by name, with the values it may
 * take: the side file's names, and what ntrace_config_explain checks.
 */
#define CONTROL(f, lo, hi, text) {						\
	#f, offsetof(struct ntrace_config, f),					\
	sizeof(((struct ntrace_config *)0)->f), lo, hi, text }
#define FLAG(f)	{ #f, offsetof(struct ntrace_config, f), 0, 0, 1, 0 }

const struct ntrace_control ntrace_controls[] = {
	CONTROL(trTeInstMode, NTRACE_INST_MODE_BTM, NTRACE_INST_MODE_HTM, "3 (BTM) or 6 (HTM)"),
	FLAG(trTeContext),
	FLAG(trTeInhibitSrc),
	CONTROL(trTeSrcBits, 0, NTRACE_MAX_SRC, 0),
	CONTROL(trTeSrcID, 0, (1u << NTRACE_MAX_SRC) - 1, 0),
	CONTROL(trTeInstSyncMode, 0, 3, 0),
	CONTROL(trTeInstSyncMax, 0, 15, 0),
	CONTROL(trTeInstImplicitReturnMode, 0, 3, 0),
	FLAG(trTeInstEnRepeatedHistory),
	FLAG(trTeInstExtendAddrMSB),
	FLAG(trTsEnable),
	FLAG(trTeInstEnSequentialJump),
	FLAG(trTeInstEnAllJumps),
	FLAG(icnt_full_sync),
	FLAG(repeat_branch),
	CONTROL(xlen, 32, 64, "32 or 64"),
	CONTROL(ret_stack_depth, 1, NTRACE_STACK_MAX, 0),
	CONTROL(icnt_limit, 2, (1u << NTRACE_MAX_ICNT) - 8, 0),
	CONTROL(hist_bits, 2, NTRACE_MAX_HIST, 0),
	CONTROL(hrepeat_max, 1, (1u << NTRACE_MAX_HREPEAT) - 1, 0),
	CONTROL(bcnt_max, 1, (1u << NTRACE_MAX_BCNT) - 1, 0),
};
const unsigned ntrace_ncontrols = sizeof(ntrace_controls) / sizeof(ntrace_controls[0]);

#undef CONTROL
#undef FLAG

static bool same_name(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct ntrace_control *ntrace_control_find(const char *name)
{
	for (unsigned i = 0; i < ntrace_ncontrols; i++)
		if (same_name(ntrace_controls[i].name, name))
			return &ntrace_controls[i];
	return 0;
}

uint64_t ntrace_control_get(const struct ntrace_config *cfg, const struct ntrace_control *c)
{
	const uint8_t *p = (const uint8_t *)cfg + c->offset;

	switch (c->size) {
	case 0:	return *(const bool *)p;
	case 1:	return *p;
	case 2:	return *(const uint16_t *)p;
	default:	return *(const uint32_t *)p;
	}
}

int ntrace_control_set(struct ntrace_config *cfg, const struct ntrace_control *c, uint64_t v)
{
	uint8_t *p = (uint8_t *)cfg + c->offset;

	if (v < c->min || v > c->max)
		return NTRACE_E_CONFIG;
	switch (c->size) {
	case 0:	*(bool *)p = v != 0; break;
	case 1:	*p = (uint8_t)v; break;
	case 2:	*(uint16_t *)p = (uint16_t)v; break;
	default:	*(uint32_t *)p = (uint32_t)v; break;
	}
	return NTRACE_OK;
}

static int config_fault(struct ntrace_config_fault *f, const char *name, uint64_t value,
			const char *why)
{
	f->control = ntrace_control_find(name);
	f->value = value;
	f->why = why;
	return NTRACE_E_CONFIG;
}

int ntrace_config_explain(const struct ntrace_config *cfg, struct ntrace_config_fault *f)
{
	for (unsigned i = 0; i < ntrace_ncontrols; i++) {
		const struct ntrace_control *c = &ntrace_controls[i];
		uint64_t v = ntrace_control_get(cfg, c);

		if (v < c->min || v > c->max)
			return config_fault(f, c->name, v, c->values);
	}
	if (cfg->trTeInstMode != NTRACE_INST_MODE_BTM && cfg->trTeInstMode != NTRACE_INST_MODE_HTM)
		return config_fault(f, "trTeInstMode", cfg->trTeInstMode, "3 (BTM) or 6 (HTM)");
	if (cfg->xlen != 32 && cfg->xlen != 64)
		return config_fault(f, "xlen", cfg->xlen, "32 or 64");
	/* SYNC=4 for a full I-CNT "may be only used in BTM mode" (ch. 8) */
	if (cfg->icnt_full_sync && cfg->trTeInstMode != NTRACE_INST_MODE_BTM)
		return config_fault(f, "icnt_full_sync", 1, "only in BTM (trTeInstMode=3)");
	if (ntrace_src_bits(cfg) && cfg->trTeSrcID >> cfg->trTeSrcBits)
		return config_fault(f, "trTeSrcID", cfg->trTeSrcID,
				    "must fit in trTeSrcBits bits (the SRC field)");
	return NTRACE_OK;
}

int ntrace_config_check(const struct ntrace_config *cfg)
{
	struct ntrace_config_fault f;

	return ntrace_config_explain(cfg, &f);
}

unsigned ntrace_src_bits(const struct ntrace_config *cfg)
{
	return cfg->trTeInhibitSrc ? 0 : cfg->trTeSrcBits;
}

const char *ntrace_strerror(int err)
{
	switch (err) {
	case NTRACE_OK:			return "ok";
	case NTRACE_END:		return "end of trace";
	case NTRACE_E_TRUNCATED:	return "truncated message (stream ends inside it)";
	case NTRACE_E_MSEO:		return "reserved MSEO value or sequence";
	case NTRACE_E_TOO_LONG:		return "message or field too long";
	case NTRACE_E_LAYOUT:		return "fields do not match the TCODE";
	case NTRACE_E_TCODE:		return "reserved or vendor-defined TCODE";
	case NTRACE_E_SPACE:		return "output buffer too small";
	case NTRACE_E_CONFIG:		return "invalid trace controls";
	case NTRACE_E_NO_CODE:		return "no code known at the PC";
	case NTRACE_E_ICNT:		return "I-CNT does not match the code";
	case NTRACE_E_HIST:		return "HIST does not match the code";
	case NTRACE_E_UNINFERABLE:	return "uninferable jump inside an I-CNT range";
	case NTRACE_E_NOT_BRANCH:	return "DirectBranch does not end at a branch";
	case NTRACE_E_STACK:		return "implicit return with an empty call stack";
	case NTRACE_E_LOST:		return "trace lost (Error message)";
	case NTRACE_E_FIELD:		return "field value out of range";
	case NTRACE_E_WIDE:		return "count wider than the spec's limit";
	}
	return "unknown error";
}

const char *ntrace_tcode_name(unsigned tcode)
{
	switch (tcode) {
	case NTRACE_TCODE_OWNERSHIP:			return "Ownership";
	case NTRACE_TCODE_DIRECT_BRANCH:		return "DirectBranch";
	case NTRACE_TCODE_INDIRECT_BRANCH:		return "IndirectBranch";
	case NTRACE_TCODE_ERROR:			return "Error";
	case NTRACE_TCODE_PROG_TRACE_SYNC:		return "ProgTraceSync";
	case NTRACE_TCODE_DIRECT_BRANCH_SYNC:		return "DirectBranchSync";
	case NTRACE_TCODE_INDIRECT_BRANCH_SYNC:		return "IndirectBranchSync";
	case NTRACE_TCODE_RESOURCE_FULL:		return "ResourceFull";
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST:		return "IndirectBranchHist";
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC:	return "IndirectBranchHistSync";
	case NTRACE_TCODE_REPEAT_BRANCH:		return "RepeatBranch";
	case NTRACE_TCODE_PROG_TRACE_CORRELATION:	return "ProgTraceCorrelation";
	}
	if (tcode >= 56 && tcode <= 62)
		return "VendorDefined";
	return "Reserved";
}

bool ntrace_tcode_is_sync(unsigned tcode)
{
	return tcode == NTRACE_TCODE_PROG_TRACE_SYNC ||
	       tcode == NTRACE_TCODE_DIRECT_BRANCH_SYNC ||
	       tcode == NTRACE_TCODE_INDIRECT_BRANCH_SYNC ||
	       tcode == NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC;
}

/* ---- field layouts --------------------------------------------------------- */

/* Field kinds, in the order a message sends them. */
enum fld {
	F_END = 0,
	F_SYNC, F_BTYPE, F_ETYPE, F_RCODE, F_EVCODE, F_CDF,	/* fixed */
	V_PROCESS, V_ICNT, V_FADDR, V_UADDR, V_HIST, V_ECODE, V_RDATA,
	V_HREPEAT,	/* only when RCODE=2 */
	V_BCNT,
	V_CHIST,	/* HIST of ProgTraceCorrelation: only when CDF=1 */
};

static const uint8_t layout_ownership[] = { V_PROCESS, F_END };
static const uint8_t layout_db[] = { V_ICNT, F_END };
static const uint8_t layout_ib[] = { F_BTYPE, V_ICNT, V_UADDR, F_END };
static const uint8_t layout_error[] = { F_ETYPE, V_ECODE, F_END };
static const uint8_t layout_pts[] = { F_SYNC, V_ICNT, V_FADDR, F_END };
static const uint8_t layout_ibs[] = { F_SYNC, F_BTYPE, V_ICNT, V_FADDR, F_END };
static const uint8_t layout_rf[] = { F_RCODE, V_RDATA, V_HREPEAT, F_END };
static const uint8_t layout_ibh[] = { F_BTYPE, V_ICNT, V_UADDR, V_HIST, F_END };
static const uint8_t layout_ibhs[] = { F_SYNC, F_BTYPE, V_ICNT, V_FADDR, V_HIST, F_END };
static const uint8_t layout_rb[] = { V_BCNT, F_END };
static const uint8_t layout_ptc[] = { F_EVCODE, F_CDF, V_ICNT, V_CHIST, F_END };

static const uint8_t *layout_of(unsigned tcode)
{
	switch (tcode) {
	case NTRACE_TCODE_OWNERSHIP:			return layout_ownership;
	case NTRACE_TCODE_DIRECT_BRANCH:		return layout_db;
	case NTRACE_TCODE_INDIRECT_BRANCH:		return layout_ib;
	case NTRACE_TCODE_ERROR:			return layout_error;
	case NTRACE_TCODE_PROG_TRACE_SYNC:		return layout_pts;
	case NTRACE_TCODE_DIRECT_BRANCH_SYNC:		return layout_pts;
	case NTRACE_TCODE_INDIRECT_BRANCH_SYNC:		return layout_ibs;
	case NTRACE_TCODE_RESOURCE_FULL:		return layout_rf;
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST:		return layout_ibh;
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC:	return layout_ibhs;
	case NTRACE_TCODE_REPEAT_BRANCH:		return layout_rb;
	case NTRACE_TCODE_PROG_TRACE_CORRELATION:	return layout_ptc;
	}
	return 0;
}

static unsigned fixed_width(unsigned f)
{
	return f == F_BTYPE || f == F_CDF ? 2 : 4;
}

static uint8_t *fixed_slot(struct ntrace_msg *m, unsigned f)
{
	switch (f) {
	case F_SYNC:	return &m->sync;
	case F_BTYPE:	return &m->btype;
	case F_ETYPE:	return &m->etype;
	case F_RCODE:	return &m->rcode;
	case F_EVCODE:	return &m->evcode;
	default:	return &m->cdf;
	}
}

static uint64_t *var_slot(struct ntrace_msg *m, unsigned f)
{
	switch (f) {
	case V_PROCESS:	return &m->process;
	case V_ICNT:	return &m->icnt;
	case V_FADDR:
	case V_UADDR:	return &m->addr;
	case V_HIST:
	case V_CHIST:	return &m->hist;
	case V_ECODE:	return &m->ecode;
	case V_RDATA:	return &m->rdata;
	case V_HREPEAT:	return &m->hrepeat;
	default:	return &m->bcnt;
	}
}

/* Conditional fields present in m? */
static bool field_present(const struct ntrace_msg *m, unsigned f)
{
	if (f == V_HREPEAT)
		return m->rcode == NTRACE_RCODE_HREPEAT;
	if (f == V_CHIST)
		return m->cdf == 1;
	return true;
}

static unsigned bitlen(uint64_t v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

static uint64_t low_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* ---- writer ------------------------------------------------------------- */

struct writer {
	uint8_t *out;
	size_t cap, n;
	unsigned cur, nb;	/* MDO bits collected for the next byte */
	bool overflow;
};

static void put_byte(struct writer *w, unsigned mseo)
{
	if (w->n >= w->cap) {
		w->overflow = true;
	} else {
		w->out[w->n++] = (uint8_t)((w->cur << 2) | mseo);
	}
	w->cur = 0;
	w->nb = 0;
}

static void put_bits(struct writer *w, uint64_t v, unsigned bits)
{
	while (bits) {
		unsigned take = NTRACE_MDO_BITS - w->nb;

		if (take > bits)
			take = bits;
		w->cur |= (unsigned)(v & low_mask(take)) << w->nb;
		w->nb += take;
		v = take >= 64 ? 0 : v >> take;
		bits -= take;
		if (w->nb == NTRACE_MDO_BITS)
			put_byte(w, NTRACE_MSEO_NORMAL);
	}
}

/* A variable-length field: at least one bit, ends on a byte boundary. */
static void put_var(struct writer *w, uint64_t v, unsigned bits)
{
	if (bits == 0)
		bits = 1;
	put_bits(w, v, bits);
	if (w->nb)
		put_byte(w, NTRACE_MSEO_END_VAR);
	else if (w->n && !w->overflow)
		w->out[w->n - 1] = (uint8_t)((w->out[w->n - 1] & ~3u) | NTRACE_MSEO_END_VAR);
}

/*
 * Bits to send for an address field f (address bits xlen-1..1).  With
 * trTeInstExtendAddrMSB, the fewest whole MDOs whose top bit, extended, gives
 * f back; without, the plain variable-length rule (upper zeros skipped).
 */
static unsigned addr_bits(const struct ntrace_config *cfg, uint64_t f)
{
	unsigned width = cfg->xlen - 1u;

	if (!cfg->trTeInstExtendAddrMSB)
		return bitlen(f);
	for (unsigned bits = NTRACE_MDO_BITS; bits < width; bits += NTRACE_MDO_BITS) {
		uint64_t low = f & low_mask(bits);

		if (low >> (bits - 1))
			low |= ~low_mask(bits);
		if ((low & low_mask(width)) == f)
			return bits;
	}
	/* whole width: the top MDO bit is above the address, so zero */
	return bitlen(f);
}

int ntrace_msg_encode(const struct ntrace_config *cfg, const struct ntrace_msg *m,
		      uint8_t *out, size_t cap)
{
	const uint8_t *lay = layout_of(m->tcode);
	struct writer w = { .out = out, .cap = cap };
	unsigned srcb = ntrace_src_bits(cfg);

	if (!lay || m->tcode > 63)
		return NTRACE_E_TCODE;
	if (srcb && m->src >> srcb)
		return NTRACE_E_FIELD;
	put_bits(&w, m->tcode, 6);
	put_bits(&w, m->src, srcb);
	for (; *lay != F_END; lay++) {
		unsigned f = *lay;

		if (f < V_PROCESS) {
			unsigned v = *fixed_slot((struct ntrace_msg *)m, f);

			if (v >> fixed_width(f))
				return NTRACE_E_FIELD;
			put_bits(&w, v, fixed_width(f));
		} else if (field_present(m, f)) {
			uint64_t v = *var_slot((struct ntrace_msg *)m, f);
			unsigned bits = bitlen(v);

			if (f == V_FADDR || f == V_UADDR) {
				if (cfg->xlen < 64 && v >> (cfg->xlen - 1))
					return NTRACE_E_FIELD;
				bits = w.nb ? bitlen(v) : addr_bits(cfg, v);
			}
			put_var(&w, v, bits);
		}
	}
	if (m->has_tstamp)
		put_var(&w, m->tstamp, bitlen(m->tstamp));
	if (w.nb)
		put_byte(&w, NTRACE_MSEO_END_MSG);
	if (w.overflow)
		return NTRACE_E_SPACE;
	w.out[w.n - 1] |= NTRACE_MSEO_END_MSG;
	return (int)w.n;
}

/* ---- reader -------------------------------------------------------------- */

struct reader {
	const uint8_t *b;
	size_t n, i;	/* byte index */
	unsigned bit;	/* next MDO bit in b[i] */
};

static int get_bits(struct reader *r, unsigned bits, uint64_t *v)
{
	unsigned got = 0;

	*v = 0;
	while (got < bits) {
		unsigned take = NTRACE_MDO_BITS - r->bit;
		unsigned mdo;

		if (r->i >= r->n)
			return NTRACE_E_LAYOUT;
		if (take > bits - got)
			take = bits - got;
		mdo = r->b[r->i] >> 2;
		*v |= (uint64_t)((mdo >> r->bit) & low_mask(take)) << got;
		got += take;
		r->bit += take;
		if (r->bit == NTRACE_MDO_BITS) {
			/* a fixed field may not run across the end of a field */
			if ((r->b[r->i] & 3) != NTRACE_MSEO_NORMAL && got < bits)
				return NTRACE_E_LAYOUT;
			r->i++;
			r->bit = 0;
		}
	}
	return NTRACE_OK;
}

/* A variable-length field; *bits = bits transmitted (zero fill included). */
static int get_var(struct reader *r, uint64_t *v, unsigned *bits)
{
	unsigned got = 0;

	*v = 0;
	if (r->i >= r->n)
		return NTRACE_E_LAYOUT;
	for (;;) {
		unsigned mseo = r->b[r->i] & 3;
		uint64_t mdo = (uint64_t)(r->b[r->i] >> 2) >> r->bit;
		unsigned take = NTRACE_MDO_BITS - r->bit;

		if (got < 64)
			*v |= mdo << got;
		if (mdo && (got >= 64 || (got + bitlen(mdo) > 64)))
			return NTRACE_E_TOO_LONG;
		got += take;
		r->i++;
		r->bit = 0;
		if (mseo != NTRACE_MSEO_NORMAL)
			break;
		if (r->i >= r->n)
			return NTRACE_E_LAYOUT;
	}
	*bits = got;
	return NTRACE_OK;
}

static const char *field_name(unsigned fld, unsigned tcode);

/* A parse error in field (NULL: none in particular) with value v. */
static int parse_fault(struct ntrace_fault *f, int err, const char *field, uint64_t v)
{
	if (f) {
		f->err = err;
		f->field = field;
		f->value = v;
	}
	return err;
}

/* Parses one message; on error, *f (if given) names the field at fault. */
static int parse_msg(const struct ntrace_config *cfg, const uint8_t *bytes, size_t n,
		     struct ntrace_msg *m, struct ntrace_fault *f)
{
	struct reader r = { .b = bytes, .n = n };
	unsigned srcb = ntrace_src_bits(cfg);
	const uint8_t *lay;
	uint64_t v;
	int err;

	*m = (struct ntrace_msg){ 0 };
	if (f)
		f->tcode = -1;
	if (n == 0)
		return parse_fault(f, NTRACE_E_LAYOUT, "TCODE", 0);
	if (n > NTRACE_MAX_MSG_BYTES)
		return parse_fault(f, NTRACE_E_TOO_LONG, 0, n);
	err = get_bits(&r, 6, &v);
	if (err)
		return parse_fault(f, err, "TCODE", v);
	m->tcode = (uint8_t)v;
	if (f)
		f->tcode = m->tcode;
	lay = layout_of(m->tcode);
	if (!lay)
		return parse_fault(f, NTRACE_E_TCODE, "TCODE", v);
	if (srcb) {
		err = get_bits(&r, srcb, &v);
		if (err)
			return parse_fault(f, err, "SRC", v);
		m->src = (uint16_t)v;
	}
	for (; *lay != F_END; lay++) {
		unsigned fl = *lay, bits;

		if (fl < V_PROCESS) {
			err = get_bits(&r, fixed_width(fl), &v);
			if (err)
				return parse_fault(f, err, field_name(fl, m->tcode), v);
			*fixed_slot(m, fl) = (uint8_t)v;
			continue;
		}
		if (!field_present(m, fl))
			continue;
		err = get_var(&r, &v, &bits);
		if (err)
			return parse_fault(f, err, field_name(fl, m->tcode), v);
		if ((fl == V_FADDR || fl == V_UADDR) && cfg->trTeInstExtendAddrMSB &&
		    bits < cfg->xlen - 1u && (v >> (bits - 1)) & 1)
			v = (v | ~low_mask(bits)) & low_mask(cfg->xlen - 1u);
		*var_slot(m, fl) = v;
	}
	if (r.i < n) {
		unsigned bits;

		err = get_var(&r, &m->tstamp, &bits);
		if (err)
			return parse_fault(f, err, "TSTAMP", m->tstamp);
		m->has_tstamp = true;
	}
	if (r.i != n)	/* more fields than the TCODE has: the bytes left */
		return parse_fault(f, NTRACE_E_LAYOUT, 0, n - r.i);
	return NTRACE_OK;
}

int ntrace_msg_parse(const struct ntrace_config *cfg, const uint8_t *bytes, size_t n,
		     struct ntrace_msg *m)
{
	return parse_msg(cfg, bytes, n, m, 0);
}

/* ---- stream framing ------------------------------------------------------- */

void ntrace_parser_init(struct ntrace_parser *p, const struct ntrace_config *cfg,
			const uint8_t *buf, size_t len)
{
	*p = (struct ntrace_parser){ .cfg = cfg, .buf = buf, .len = len };
}

/*
 * A framing or message error: counted, and described in p->fault (at the
 * byte at fault, or the message start when at is NULL).
 */
static int stream_fault(struct ntrace_parser *p, int err, const size_t *at, const char *field,
			uint64_t v)
{
	p->errors++;
	p->fault = (struct ntrace_fault){
		.err = err, .offset = at ? *at : p->msg_start, .msg = p->messages + p->errors,
		.tcode = -1, .field = field, .value = v,
	};
	return err;
}

/* After an error: continue after the next byte that ends a message. */
static void resync(struct ntrace_parser *p, size_t from)
{
	while (from < p->len && (p->buf[from] & 3) != NTRACE_MSEO_END_MSG)
		from++;
	p->pos = from < p->len ? from + 1 : p->len;
}

int ntrace_parse_next(struct ntrace_parser *p, struct ntrace_msg *m)
{
	size_t start, j;
	int err;

	*m = (struct ntrace_msg){ 0 };	/* defined even after an error */
	while (p->pos < p->len && p->buf[p->pos] == NTRACE_IDLE) {
		p->pos++;
		p->idle_bytes++;
	}
	if (p->pos >= p->len)
		return NTRACE_END;
	start = p->pos;
	p->msg_start = start;
	p->msg_len = 0;
	/* the first byte of a message has MSEO=00 (11-01 and 11-11 with data
	 * are reserved/corrupt, 10 is reserved) */
	if ((p->buf[start] & 3) != NTRACE_MSEO_NORMAL) {
		unsigned mseo = p->buf[start] & 3;

		p->msg_len = 1;
		if (mseo == NTRACE_MSEO_END_MSG)
			p->pos = start + 1;
		else
			resync(p, start);
		return stream_fault(p, NTRACE_E_MSEO, &start, "MSEO", mseo);
	}
	for (j = start; j < p->len; j++) {
		unsigned mseo = p->buf[j] & 3;

		if (mseo == NTRACE_MSEO_RESERVED) {
			p->msg_len = j + 1 - start;
			resync(p, j);
			return stream_fault(p, NTRACE_E_MSEO, &j, "MSEO", mseo);
		}
		if (mseo == NTRACE_MSEO_END_MSG)
			break;
		if (j + 1 - start >= NTRACE_MAX_MSG_BYTES) {
			p->msg_len = j + 1 - start;
			resync(p, j);
			return stream_fault(p, NTRACE_E_TOO_LONG, 0, 0, p->msg_len);
		}
	}
	if (j >= p->len) {
		p->msg_len = p->len - start;
		p->pos = p->len;
		return stream_fault(p, NTRACE_E_TRUNCATED, 0, 0, p->msg_len);
	}
	p->pos = j + 1;
	p->msg_len = j + 1 - start;
	err = parse_msg(p->cfg, p->buf + start, p->msg_len, m, &p->fault);
	if (err) {
		struct ntrace_fault f = p->fault;

		stream_fault(p, err, 0, f.field, f.value);
		p->fault.tcode = f.tcode;
		return err;
	}
	p->messages++;
	return NTRACE_OK;
}

/* ---- mode detection ---------------------------------------------------------------- */

static bool msg_has_hist(const struct ntrace_msg *m)
{
	switch (m->tcode) {
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST:
	case NTRACE_TCODE_INDIRECT_BRANCH_HIST_SYNC:
		return true;
	case NTRACE_TCODE_RESOURCE_FULL:
		return m->rcode == NTRACE_RCODE_HIST || m->rcode == NTRACE_RCODE_HREPEAT;
	case NTRACE_TCODE_PROG_TRACE_CORRELATION:
		return m->cdf == 1;
	}
	return false;
}

int ntrace_stream_mode(const struct ntrace_config *cfg, const uint8_t *buf, size_t len,
		       struct ntrace_mode_evidence *ev)
{
	struct ntrace_parser p;
	struct ntrace_msg m;
	int rc;

	*ev = (struct ntrace_mode_evidence){ 0 };
	ntrace_parser_init(&p, cfg, buf, len);
	while ((rc = ntrace_parse_next(&p, &m)) != NTRACE_END) {
		if (rc != NTRACE_OK)
			continue;
		if (msg_has_hist(&m)) {
			if (!ev->hist_msgs++) {
				ev->first_hist = p.msg_start;
				ev->hist_tcode = m.tcode;
			}
		} else if (m.tcode == NTRACE_TCODE_DIRECT_BRANCH ||
			   m.tcode == NTRACE_TCODE_DIRECT_BRANCH_SYNC) {
			if (!ev->direct_msgs++)
				ev->first_direct = p.msg_start;
		}
	}
	if (ev->hist_msgs && ev->direct_msgs)
		return -1;
	if (ev->hist_msgs)
		return NTRACE_INST_MODE_HTM;
	return ev->direct_msgs ? NTRACE_INST_MODE_BTM : 0;
}

/* ---- text ------------------------------------------------------------------ */

struct fmt {
	char *out;
	size_t cap, n;
};

static void fmt_str(struct fmt *f, const char *s)
{
	while (*s) {
		if (f->n + 1 < f->cap)
			f->out[f->n] = *s;
		f->n++;
		s++;
	}
	if (f->cap)
		f->out[f->n < f->cap ? f->n : f->cap - 1] = 0;
}

static void fmt_num(struct fmt *f, const char *name, uint64_t v, bool hex)
{
	char buf[24];
	int i = (int)sizeof(buf) - 1;
	unsigned base = hex ? 16 : 10;

	buf[i] = 0;
	do {
		buf[--i] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (hex) {
		buf[--i] = 'x';
		buf[--i] = '0';
	}
	fmt_str(f, " ");
	fmt_str(f, name);
	fmt_str(f, "=");
	fmt_str(f, buf + i);
}

static const char *field_name(unsigned fld, unsigned tcode)
{
	switch (fld) {
	case F_SYNC:	return "SYNC";
	case F_BTYPE:	return "B-TYPE";
	case F_ETYPE:	return "ETYPE";
	case F_RCODE:	return "RCODE";
	case F_EVCODE:	return "EVCODE";
	case F_CDF:	return "CDF";
	case V_PROCESS:	return "PROCESS";
	case V_ICNT:	return "I-CNT";
	case V_FADDR:	return "F-ADDR";
	case V_UADDR:	return "U-ADDR";
	case V_HIST:
	case V_CHIST:	return "HIST";
	case V_ECODE:	return "ECODE";
	case V_RDATA:	return tcode == NTRACE_TCODE_RESOURCE_FULL ? "RDATA" : "?";
	case V_HREPEAT:	return "HREPEAT";
	default:	return "B-CNT";
	}
}

int ntrace_msg_format(const struct ntrace_config *cfg, const struct ntrace_msg *m,
		      char *out, size_t cap)
{
	struct fmt f = { .out = out, .cap = cap };
	const uint8_t *lay = layout_of(m->tcode);

	fmt_str(&f, ntrace_tcode_name(m->tcode));
	fmt_num(&f, "TCODE", m->tcode, false);
	if (ntrace_src_bits(cfg))
		fmt_num(&f, "SRC", m->src, false);
	for (; lay && *lay != F_END; lay++) {
		unsigned fl = *lay;

		if (fl < V_PROCESS) {
			fmt_num(&f, field_name(fl, m->tcode),
				*fixed_slot((struct ntrace_msg *)m, fl), false);
		} else if (field_present(m, fl)) {
			bool hex = fl == V_FADDR || fl == V_UADDR || fl == V_HIST ||
				   fl == V_CHIST || fl == V_PROCESS || fl == V_ECODE ||
				   (fl == V_RDATA && m->rcode != NTRACE_RCODE_ICNT);

			fmt_num(&f, field_name(fl, m->tcode),
				*var_slot((struct ntrace_msg *)m, fl), hex);
		}
	}
	if (m->tcode == NTRACE_TCODE_OWNERSHIP) {
		unsigned format = ntrace_process_format(m->process);

		fmt_num(&f, "(FORMAT", format, false);
		fmt_num(&f, "PRV", ntrace_process_prv(m->process), false);
		fmt_num(&f, "V", ntrace_process_v(m->process), false);
		if (format >= NTRACE_PROCESS_FORMAT_SCONTEXT)
			fmt_num(&f, "CONTEXT", ntrace_process_context(m->process), true);
		fmt_str(&f, ")");
	}
	if (m->has_tstamp)
		fmt_num(&f, "TSTAMP", m->tstamp, false);
	return (int)f.n;
}
