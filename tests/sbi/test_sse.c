/* The SSE extension (EID 0x535345): every function and error row, the
 * state machine, masking, priorities, delivery on this and other harts,
 * the saved interrupted state, the PMU overflow event from a real
 * counter overflow, and hostile inputs. Run with bootargs "sse" on a
 * Sscofpmf CPU (run.sh); test_sse_basic() runs in the main run. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define SSE			0x535345
#define SSE_READ_ATTRS		0
#define SSE_WRITE_ATTRS		1
#define SSE_REGISTER		2
#define SSE_UNREGISTER		3
#define SSE_ENABLE		4
#define SSE_DISABLE		5
#define SSE_COMPLETE		6
#define SSE_INJECT		7
#define SSE_HART_UNMASK		8
#define SSE_HART_MASK		9

#define EV_LOCAL_SW		0xffff0000UL
#define EV_GLOBAL_SW		0xffff8000UL
#define EV_PMU			0x00010000UL

#define A_STATUS		0
#define A_PRIORITY		1
#define A_CONFIG		2
#define A_PREF_HART		3
#define A_ENTRY_PC		4
#define A_ENTRY_ARG		5
#define A_SEPC			6
#define A_FLAGS			7
#define A_A6			8
#define A_A7			9
#define NR_ATTRS		10

#define ST_UNUSED		0
#define ST_REGISTERED		1
#define ST_ENABLED		2
#define ST_RUNNING		3
#define ST_PENDING		(1UL << 2)
#define ST_INJECT		(1UL << 3)

#define SBI_ERR_INVALID_STATE	-10
#define SBI_ERR_BAD_RANGE	-11

#define PAT(n)			(0x5a5a000000000000UL + (n) * 0x10101UL)

/* What the handler does besides recording. */
enum { MODE_RECORD, MODE_RUNNING_CHECKS, MODE_SET_A6A7, MODE_PMU, MODE_HOLD };

struct sse_ctx {
	unsigned long event;
	unsigned int mode;
	struct sse_ctx *inject_next;	/* inject this one from the next run */
	volatile unsigned long runs;
	volatile unsigned long hartid, sstatus, sepc, status;
	volatile unsigned long regs[32];	/* at entry, regs[2] = sp */
	volatile unsigned long attrs[4];	/* INTERRUPTED_* read in the handler */
	volatile long errs[16];
	volatile unsigned long scountovf;
	volatile bool next_ran_inside, next_pending;
	volatile bool hold, held;	/* MODE_HOLD: runs until hold is cleared */
};

static struct sse_ctx ctx_local, ctx_global, ctx_pmu;

/* The order handlers ran in (boot hart tests only). */
static volatile unsigned long order[8];
static volatile unsigned int norder;

void sse_entry(void);
void sse_entry_own_stack(void);
void sse_regs_probe(unsigned long event, unsigned long hartid, unsigned long *out);
extern char sse_probe_resume[];	/* the pc after sse_regs_probe's ecall */
void sse_handler(struct sse_ctx *c, unsigned long hartid, unsigned long *regs);

static struct sbiret sse_read(unsigned long ev, unsigned long base, unsigned long n,
			      const void *buf)
{
	return sbi_ecall(SSE, SSE_READ_ATTRS, ev, base, n, (unsigned long)buf, 0, 0);
}

static struct sbiret sse_write(unsigned long ev, unsigned long base, unsigned long n,
			       const void *buf)
{
	return sbi_ecall(SSE, SSE_WRITE_ATTRS, ev, base, n, (unsigned long)buf, 0, 0);
}

static struct sbiret sse_write1(unsigned long ev, unsigned long attr, unsigned long v)
{
	unsigned long val = v;

	return sse_write(ev, attr, 1, &val);
}

static unsigned long sse_attr(unsigned long ev, unsigned long attr)
{
	unsigned long v = -1UL;
	struct sbiret r = sse_read(ev, attr, 1, &v);

	return r.error ? -1UL : v;
}

static struct sbiret sse_register(unsigned long ev, unsigned long pc, unsigned long arg)
{
	return sbi_call3(SSE, SSE_REGISTER, ev, pc, arg);
}

static struct sbiret sse_call(unsigned long fid, unsigned long ev)
{
	return sbi_call1(SSE, fid, ev);
}

static struct sbiret sse_inject(unsigned long ev, unsigned long hart)
{
	return sbi_call2(SSE, SSE_INJECT, ev, hart);
}

static unsigned long sse_state(unsigned long ev)
{
	return sse_attr(ev, A_STATUS) & 3;
}

void sse_handler(struct sse_ctx *c, unsigned long hartid, unsigned long *regs)
{
	unsigned long buf[4], v;
	unsigned int i;

	/*
	 * The order of entry, before any call: an SSE call here would let a
	 * pending event that outranks this one run first, nested, and be
	 * recorded first, however the firmware chose.
	 */
	if (hartid == boot_hartid && norder < 8)
		order[norder++] = c->event;
	c->hartid = hartid;
	c->sstatus = csr_read(CSR_SSTATUS);
	c->sepc = csr_read(CSR_SEPC);
	for (i = 0; i < 32; i++)
		c->regs[i] = regs[i];
	c->status = sse_attr(c->event, A_STATUS);
	if (!sse_read(c->event, A_SEPC, 4, buf).error)
		for (i = 0; i < 4; i++)
			c->attrs[i] = buf[i];

	switch (c->mode) {
	case MODE_RUNNING_CHECKS:
		c->errs[0] = sse_register(c->event, (unsigned long)sse_entry, 0).error;
		c->errs[1] = sse_call(SSE_UNREGISTER, c->event).error;
		c->errs[2] = sse_call(SSE_ENABLE, c->event).error;
		c->errs[3] = sse_call(SSE_DISABLE, c->event).error;
		c->errs[4] = sse_write1(c->event, A_PRIORITY, 1).error;
		c->errs[5] = sse_write1(c->event, A_CONFIG, 0).error;
		c->errs[6] = sse_write1(c->event, A_FLAGS, 1UL << 6).error;
		c->errs[7] = sse_write1(c->event, A_FLAGS, 1UL << 32).error;
		/* every flag bit the spec defines can be written and read back */
		c->errs[8] = sse_write1(c->event, A_FLAGS, 0x3f).error;
		c->errs[9] = sse_attr(c->event, A_FLAGS) != 0x3f;
		/* the four INTERRUPTED_* at once, then the saved ones back */
		v = 0x1234;
		c->errs[10] = sse_write1(c->event, A_SEPC, v).error ||
			      sse_attr(c->event, A_SEPC) != v;
		c->errs[11] = sse_write(c->event, A_SEPC, 4, buf).error;
		c->errs[12] = sse_attr(c->event, A_SEPC) != buf[0] ||
			      sse_attr(c->event, A_FLAGS) != buf[1];
		c->errs[13] = sse_write1(c->event, A_PREF_HART, hartid).error;
		break;
	case MODE_SET_A6A7:
		sse_write1(c->event, A_A6, 0xa6a6);
		sse_write1(c->event, A_A7, 0xa7a7);
		break;
	case MODE_PMU:
		c->scountovf = csr_read(CSR_SCOUNTOVF);
		break;
	case MODE_HOLD: {
		unsigned long t0 = rdtime();

		c->held = true;
		mb();
		while (c->hold && rdtime() - t0 < ms_to_ticks(60000))
			mb();
		break;
	}
	}
	if (c->inject_next) {
		struct sse_ctx *n = c->inject_next;
		unsigned long before = n->runs;

		c->inject_next = 0;	/* once: the test sets it for one run */

		sse_inject(n->event, hartid);
		c->next_ran_inside = n->runs != before;
		c->next_pending = (sse_attr(n->event, A_STATUS) & ST_PENDING) != 0;
	}
	mb();
	c->runs++;
	mb();
}

/* register + (global: preferred hart) + priority + enable */
static bool sse_setup(struct sse_ctx *c, unsigned long prio, unsigned long hart)
{
	struct sbiret r = sse_register(c->event, (unsigned long)sse_entry, (unsigned long)c);

	if (!r.error && (c->event & 0x8000))
		r = sse_write1(c->event, A_PREF_HART, hart);
	if (!r.error)
		r = sse_write1(c->event, A_PRIORITY, prio);
	if (!r.error)
		r = sse_call(SSE_ENABLE, c->event);
	if (r.error)
		failf("sse", "set-up of event %lx: %s", c->event, ret_str(r));
	return !r.error;
}

static void sse_teardown(unsigned long ev)
{
	if (sse_state(ev) == ST_ENABLED)
		sse_call(SSE_DISABLE, ev);
	sse_write1(ev, A_PRIORITY, 0);
	sse_write1(ev, A_CONFIG, 0);
	sse_call(SSE_UNREGISTER, ev);
}

/* ---- ids, mask, attributes -------------------------------------------------- */

/* Every function that takes an event id answers want for ev. */
static void ids_answer(unsigned long ev, long want, const char *why)
{
	unsigned long v = 0;
	struct sbiret r[7];
	bool ok = true;
	unsigned int i;

	r[0] = sse_read(ev, A_STATUS, 1, &v);
	r[1] = sse_write(ev, A_PRIORITY, 1, &v);
	r[2] = sse_register(ev, (unsigned long)sse_entry, 0);
	r[3] = sse_call(SSE_UNREGISTER, ev);
	r[4] = sse_call(SSE_ENABLE, ev);
	r[5] = sse_call(SSE_DISABLE, ev);
	r[6] = sse_inject(ev, boot_hartid);
	for (i = 0; i < 7; i++)
		ok &= r[i].error == want;
	check(ok, "sse", sfmt("event %lx (%s): read, write, register, unregister, "
			      "enable, disable, inject all return %ld", ev, why, want),
	      sfmt("%ld %ld %ld %ld %ld %ld %ld", r[0].error, r[1].error, r[2].error,
		   r[3].error, r[4].error, r[5].error, r[6].error));
}

static void test_ids(void)
{
	static const unsigned long invalid[] = {
		0x2, 0x3fff, 0x4000, 0x7fff, 0x8001, 0xbfff, 0xc000, 0xffff,
		0x10001, 0x14000, 0x18000, 0x1c000, 0x1ffff, 0x20000, 0x100001,
		0x10c000, 0xffff0001, 0xffff4000, 0xffff8001, 0xffffc000,
		0xffffffff, 0x7fffffff,
	};
	static const unsigned long unsupported[] = {
		0x0, 0x1, 0x8000, 0x100000, 0x108000,
	};
	unsigned int i;

	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		ids_answer(invalid[i], SBI_ERR_INVALID_PARAM, "reserved or undefined");
	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		ids_answer(unsupported[i], SBI_ERR_NOT_SUPPORTED,
			   "standard, not raised on this platform");
	/* event_id is 32-bit: the upper half of a0 is ignored */
	expect_err(sse_read(EV_LOCAL_SW | 1UL << 32, A_STATUS, 1, (unsigned long[1]){0}),
		   0, "sse", "event 0x1ffff0000 reads as 0xffff0000 (32-bit event_id)");
	ids_answer(0x100000002UL, SBI_ERR_INVALID_PARAM, "0x2 with bit 32 set");
	/* an unknown function */
	expect_err(sbi_call0(SSE, 10), SBI_ERR_NOT_SUPPORTED, "sse", "FID 10 is NOT_SUPPORTED");
	expect_err(sbi_call0(SSE, -1UL), SBI_ERR_NOT_SUPPORTED, "sse", "FID -1 is NOT_SUPPORTED");
}

/* event_id is 32-bit: the whole life of an event, each call with
 * another upper half (after the reset-value checks: it leaves attributes) */
static void test_ids_upper(void)
{
	struct sse_ctx *c = &ctx_local;
	struct sbiret r;

	c->runs = 0;
	c->mode = MODE_RECORD;
	r = sse_register(EV_LOCAL_SW | 1UL << 32, (unsigned long)sse_entry,
			 (unsigned long)c);
	if (!r.error)
		r = sse_call(SSE_ENABLE, EV_LOCAL_SW | 0xffffffff00000000UL);
	if (!r.error)
		r = sse_inject(EV_LOCAL_SW | 1UL << 63, boot_hartid);
	check(!r.error && c->runs == 1 && sse_state(EV_LOCAL_SW) == ST_ENABLED, "sse",
	      "register, enable, inject with upper bits in event_id: handled "
	      "(32-bit event_id)", sfmt("%s runs %lu", ret_str(r), c->runs));
	r = sse_call(SSE_DISABLE, EV_LOCAL_SW | 0x8000000000000000UL);
	if (!r.error)
		r = sse_call(SSE_UNREGISTER, EV_LOCAL_SW | 0x100000000UL);
	check(!r.error && sse_state(EV_LOCAL_SW) == ST_UNUSED, "sse",
	      "disable, unregister with upper bits in event_id", ret_str(r));
}

static void test_mask(void)
{
	expect_err(sbi_call0(SSE, SSE_HART_MASK), SBI_ERR_ALREADY_STOPPED, "sse",
		   "hart_mask at boot: ALREADY_STOPPED (events start masked)");
	expect_err(sbi_call0(SSE, SSE_HART_UNMASK), 0, "sse", "hart_unmask");
	expect_err(sbi_call0(SSE, SSE_HART_UNMASK), SBI_ERR_ALREADY_STARTED, "sse",
		   "hart_unmask twice: ALREADY_STARTED");
	expect_err(sbi_call0(SSE, SSE_HART_MASK), 0, "sse", "hart_mask");
	expect_err(sbi_call0(SSE, SSE_HART_MASK), SBI_ERR_ALREADY_STOPPED, "sse",
		   "hart_mask twice: ALREADY_STOPPED");
	expect_err(sbi_call0(SSE, SSE_HART_UNMASK), 0, "sse", "hart_unmask again");
}

static unsigned long attr_buf[NR_ATTRS + 2] __attribute__((aligned(8)));

static void test_attrs(unsigned long ev, const char *name)
{
	bool global = ev & 0x8000;
	unsigned long one[NR_ATTRS], v, ram_end = machine.mem.base + machine.mem.size;
	struct sbiret r;
	bool ok = true;
	unsigned int i;

	r = sse_read(ev, 0, NR_ATTRS, attr_buf);
	expect_err(r, 0, "sse", sfmt("%s: read all 10 attributes", name));
	for (i = 0; i < NR_ATTRS; i++) {
		one[i] = sse_attr(ev, i);
		ok &= one[i] == attr_buf[i];
	}
	check(ok, "sse", sfmt("%s: one read of 10 = ten reads of 1", name), "differ");
	check((attr_buf[A_STATUS] & ~ST_INJECT) == 0 && attr_buf[A_PRIORITY] == 0 &&
	      attr_buf[A_CONFIG] == 0 && attr_buf[A_ENTRY_PC] == 0 &&
	      attr_buf[A_ENTRY_ARG] == 0 && attr_buf[A_SEPC] == 0 &&
	      attr_buf[A_FLAGS] == 0 && attr_buf[A_A6] == 0 && attr_buf[A_A7] == 0,
	      "sse", sfmt("%s: reset values are 0 (STATUS: UNUSED)", name),
	      sfmt("status %lx prio %lx", attr_buf[0], attr_buf[1]));
	check((attr_buf[A_STATUS] & ST_INJECT) == ST_INJECT, "sse",
	      sfmt("%s: STATUS.inject set (every event of Tally is injectable)", name),
	      sfmt("status %lx", attr_buf[A_STATUS]));
	if (!global)
		check(attr_buf[A_PREF_HART] == boot_hartid, "sse",
		      sfmt("%s: PREFERRED_HART of a local event is the calling hart", name),
		      sfmt("%lx", attr_buf[A_PREF_HART]));

	/* read-only attributes, and write errors by value and state */
	expect_err(sse_write1(ev, A_STATUS, 0), SBI_ERR_DENIED, "sse",
		   sfmt("%s: STATUS is read-only (DENIED)", name));
	expect_err(sse_write1(ev, A_ENTRY_PC, 0), SBI_ERR_DENIED, "sse",
		   sfmt("%s: ENTRY_PC is read-only (DENIED)", name));
	expect_err(sse_write1(ev, A_ENTRY_ARG, 0), SBI_ERR_DENIED, "sse",
		   sfmt("%s: ENTRY_ARG is read-only (DENIED)", name));
	if (global) {
		expect_err(sse_write1(ev, A_PREF_HART, 0xffffffffUL), SBI_ERR_INVALID_PARAM,
			   "sse", sfmt("%s: PREFERRED_HART 0xffffffff: INVALID_PARAM", name));
		expect_err(sse_write1(ev, A_PREF_HART, machine.max_hartid + 1),
			   SBI_ERR_INVALID_PARAM, "sse",
			   sfmt("%s: PREFERRED_HART max hart + 1: INVALID_PARAM", name));
		expect_err(sse_write1(ev, A_PREF_HART, 1UL << 32 | boot_hartid),
			   SBI_ERR_INVALID_PARAM, "sse",
			   sfmt("%s: PREFERRED_HART with bit 32: INVALID_PARAM", name));
		expect_err(sse_write1(ev, A_PREF_HART, boot_hartid), 0, "sse",
			   sfmt("%s: PREFERRED_HART = this hart", name));
	} else {
		expect_err(sse_write1(ev, A_PREF_HART, boot_hartid), SBI_ERR_DENIED, "sse",
			   sfmt("%s: PREFERRED_HART of a local event is read-only", name));
	}
	expect_err(sse_write1(ev, A_PRIORITY, 1UL << 32), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: PRIORITY 2^32: INVALID_PARAM", name));
	expect_err(sse_write1(ev, A_CONFIG, ~1UL), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: CONFIG with reserved bits: INVALID_PARAM", name));
	expect_err(sse_write1(ev, A_CONFIG, 2), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: CONFIG bit 1: INVALID_PARAM", name));
	for (i = A_SEPC; i <= A_A7; i++)
		expect_err(sse_write1(ev, i, 1), SBI_ERR_INVALID_STATE, "sse",
			   sfmt("%s: INTERRUPTED attribute %u outside RUNNING: "
				"INVALID_STATE", name, i));
	expect_err(sse_write1(ev, A_PRIORITY, 0xffffffffUL), 0, "sse",
		   sfmt("%s: PRIORITY 0xffffffff in UNUSED", name));
	/* the first error by attribute id; nothing written on error */
	one[0] = 7;
	one[1] = 2;
	expect_err(sse_write(ev, A_PRIORITY, 2, one), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: PRIORITY 7 + CONFIG 2: INVALID_PARAM", name));
	check(sse_attr(ev, A_PRIORITY) == 0xffffffffUL, "sse",
	      sfmt("%s: ... and PRIORITY is left unchanged", name),
	      sfmt("%lx", sse_attr(ev, A_PRIORITY)));
	one[0] = 0;
	one[1] = 0;
	expect_err(sse_write(ev, A_STATUS, 2, one), SBI_ERR_DENIED, "sse",
		   sfmt("%s: STATUS + PRIORITY: DENIED (STATUS first)", name));
	expect_err(sse_write(ev, A_PRIORITY, 2, one), 0, "sse",
		   sfmt("%s: PRIORITY + CONFIG = 0, 0", name));

	/* counts and ids at the ends of the range */
	expect_err(sse_read(ev, A_STATUS, 0, &v), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: read attr_count 0: INVALID_PARAM", name));
	expect_err(sse_write(ev, A_PRIORITY, 0, &v), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: write attr_count 0: INVALID_PARAM", name));
	expect_err(sse_read(ev, A_A7, 1, &v), 0, "sse",
		   sfmt("%s: read attribute 9 (the last)", name));
	expect_err(sse_read(ev, 10, 1, &v), SBI_ERR_BAD_RANGE, "sse",
		   sfmt("%s: read attribute 10: BAD_RANGE", name));
	expect_err(sse_write(ev, 10, 1, &v), SBI_ERR_BAD_RANGE, "sse",
		   sfmt("%s: write attribute 10: BAD_RANGE", name));
	expect_err(sse_read(ev, A_A7, 2, attr_buf), SBI_ERR_BAD_RANGE, "sse",
		   sfmt("%s: read attributes 9..10: BAD_RANGE", name));
	expect_err(sse_read(ev, 0, 11, attr_buf), SBI_ERR_BAD_RANGE, "sse",
		   sfmt("%s: read 11 attributes: BAD_RANGE", name));
	expect_err(sse_read(ev, 0xffffffffUL, 1, &v), SBI_ERR_BAD_RANGE, "sse",
		   sfmt("%s: read attribute 0xffffffff: BAD_RANGE", name));
	expect_err(sse_read(ev, 1, 0xffffffffUL, attr_buf), SBI_ERR_BAD_RANGE, "sse",
		   sfmt("%s: base 1 + count 0xffffffff (wraps 32 bits): BAD_RANGE", name));
	expect_err(sse_read(ev, 0xffffffffUL, 0xffffffffUL, attr_buf), SBI_ERR_BAD_RANGE,
		   "sse", sfmt("%s: base and count 0xffffffff: BAD_RANGE", name));
	/* base_attr_id and attr_count are 32-bit */
	expect_err(sse_read(ev, 1UL << 32 | A_PRIORITY, 1UL << 32 | 1, &v), 0, "sse",
		   sfmt("%s: attr id and count with bit 32 set read attribute 1", name));

	/* the buffer: aligned, in RAM, never the firmware */
	expect_err(sse_read(ev, A_STATUS, 1, (char *)attr_buf + 1), SBI_ERR_INVALID_ADDRESS,
		   "sse", sfmt("%s: misaligned output buffer: INVALID_ADDRESS", name));
	expect_err(sse_write(ev, A_PRIORITY, 1, (char *)attr_buf + 4),
		   SBI_ERR_INVALID_ADDRESS, "sse",
		   sfmt("%s: misaligned input buffer: INVALID_ADDRESS", name));
	expect_err(sse_read(ev, A_STATUS, 1, (void *)FW_BASE), SBI_ERR_INVALID_ADDRESS,
		   "sse", sfmt("%s: output buffer in the firmware: INVALID_ADDRESS", name));
	expect_err(sse_read(ev, A_STATUS, NR_ATTRS, (void *)(FW_BASE - 8)),
		   SBI_ERR_INVALID_ADDRESS, "sse",
		   sfmt("%s: output buffer running into the firmware: INVALID_ADDRESS",
			name));
	expect_err(sse_write(ev, A_PRIORITY, 1, (void *)(FW_BASE + 0x1000)),
		   SBI_ERR_INVALID_ADDRESS, "sse",
		   sfmt("%s: input buffer in the firmware: INVALID_ADDRESS", name));
	expect_err(sse_read(ev, A_STATUS, 2, (void *)(ram_end - 8)),
		   SBI_ERR_INVALID_ADDRESS, "sse",
		   sfmt("%s: buffer straddling the end of RAM: INVALID_ADDRESS", name));
	expect_err(sse_write(ev, A_SEPC, 4, (void *)(ram_end - 24)), SBI_ERR_INVALID_ADDRESS,
		   "sse", sfmt("%s: input buffer straddling the end of RAM: INVALID_ADDRESS",
			       name));
	expect_err(sse_read(ev, A_STATUS, NR_ATTRS, (void *)(-8UL * NR_ATTRS + 8)),
		   SBI_ERR_INVALID_ADDRESS, "sse",
		   sfmt("%s: buffer wrapping past 2^64: INVALID_ADDRESS", name));
	expect_err(sse_read(ev, A_STATUS, 1, (void *)ram_end), SBI_ERR_INVALID_ADDRESS,
		   "sse", sfmt("%s: buffer past the end of RAM: INVALID_ADDRESS", name));
	expect_err(sse_read(ev, A_STATUS, 1, (void *)-8UL), SBI_ERR_INVALID_ADDRESS,
		   "sse", sfmt("%s: buffer at 2^64 - 8: INVALID_ADDRESS", name));
	expect_err(sbi_ecall(SSE, SSE_READ_ATTRS, ev, A_STATUS, 1, (unsigned long)attr_buf,
			     1, 0), SBI_ERR_INVALID_ADDRESS, "sse",
		   sfmt("%s: output_phys_hi = 1: INVALID_ADDRESS", name));
	check(sse_attr(ev, A_STATUS) != -1UL && sbi_probe(SSE), "sse",
	      sfmt("%s: the firmware still answers after the hostile buffers", name),
	      "no answer");
}

/* ---- the state machine ---------------------------------------------------------- */


static void test_states(struct sse_ctx *c, const char *name)
{
	unsigned long ev = c->event, entry = (unsigned long)sse_entry;
	unsigned long ram_end = machine.mem.base + machine.mem.size;

	/* UNUSED */
	expect_err(sse_call(SSE_UNREGISTER, ev), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s UNUSED: unregister: INVALID_STATE", name));
	expect_err(sse_call(SSE_ENABLE, ev), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s UNUSED: enable: INVALID_STATE", name));
	expect_err(sse_call(SSE_DISABLE, ev), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s UNUSED: disable: INVALID_STATE", name));
	expect_err(sse_register(ev, entry + 1, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with an odd entry: INVALID_PARAM", name));
	expect_err(sse_register(ev, FW_BASE, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with the entry in the firmware: INVALID_PARAM", name));
	expect_err(sse_register(ev, 0x1000, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with the entry outside RAM: INVALID_PARAM", name));
	expect_err(sse_register(ev, ram_end, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with the entry at the end of RAM: INVALID_PARAM",
			name));
	expect_err(sse_register(ev, -2UL, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with the entry at 2^64 - 2: INVALID_PARAM", name));
	expect_err(sse_register(ev, 1UL << 63 | entry, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with the entry | bit 63: INVALID_PARAM", name));
	expect_err(sse_register(ev, ram_end - 2, 0), SBI_ERR_INVALID_PARAM, "sse",
		   sfmt("%s: register with the entry straddling the end of RAM: "
			"INVALID_PARAM", name));
	check(sse_state(ev) == ST_UNUSED && sbi_probe(SSE), "sse",
	      sfmt("%s: still UNUSED (the firmware answers)", name), "moved");

	/* REGISTERED */
	expect_err(sse_register(ev, entry, (unsigned long)c), 0, "sse",
		   sfmt("%s: register", name));
	check(sse_state(ev) == ST_REGISTERED && sse_attr(ev, A_ENTRY_PC) == entry &&
	      sse_attr(ev, A_ENTRY_ARG) == (unsigned long)c, "sse",
	      sfmt("%s: REGISTERED, ENTRY_PC and ENTRY_ARG as given", name),
	      sfmt("status %lx", sse_attr(ev, A_STATUS)));
	expect_err(sse_register(ev, entry, 0), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s REGISTERED: register: INVALID_STATE", name));
	expect_err(sse_call(SSE_DISABLE, ev), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s REGISTERED: disable: INVALID_STATE", name));
	expect_err(sse_write1(ev, A_PRIORITY, 3), 0, "sse",
		   sfmt("%s REGISTERED: PRIORITY writable", name));
	expect_err(sse_write1(ev, A_SEPC, 3), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s REGISTERED: INTERRUPTED_SEPC: INVALID_STATE", name));
	expect_err(sse_call(SSE_UNREGISTER, ev), 0, "sse",
		   sfmt("%s: unregister -> UNUSED", name));
	check(sse_state(ev) == ST_UNUSED, "sse", sfmt("%s: UNUSED again", name), "");
	sse_register(ev, entry, (unsigned long)c);

	/* ENABLED */
	expect_err(sse_call(SSE_ENABLE, ev), 0, "sse", sfmt("%s: enable", name));
	check(sse_state(ev) == ST_ENABLED, "sse", sfmt("%s: ENABLED", name), "");
	expect_err(sse_register(ev, entry, 0), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s ENABLED: register: INVALID_STATE", name));
	expect_err(sse_call(SSE_UNREGISTER, ev), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s ENABLED: unregister: INVALID_STATE", name));
	expect_err(sse_call(SSE_ENABLE, ev), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s ENABLED: enable: INVALID_STATE", name));
	expect_err(sse_write1(ev, A_PRIORITY, 1), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s ENABLED: PRIORITY: INVALID_STATE", name));
	expect_err(sse_write1(ev, A_CONFIG, 1), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s ENABLED: CONFIG: INVALID_STATE", name));
	if (ev & 0x8000)
		expect_err(sse_write1(ev, A_PREF_HART, boot_hartid), SBI_ERR_INVALID_STATE,
			   "sse", sfmt("%s ENABLED: PREFERRED_HART: INVALID_STATE", name));
	expect_err(sse_write1(ev, A_A6, 1), SBI_ERR_INVALID_STATE, "sse",
		   sfmt("%s ENABLED: INTERRUPTED_A6: INVALID_STATE", name));
	expect_err(sbi_call0(SSE, SSE_COMPLETE), 0, "sse",
		   sfmt("%s: complete with nothing running: SUCCESS", name));
	check(sse_state(ev) == ST_ENABLED, "sse",
	      sfmt("%s: ... and the event stays ENABLED", name), "");

	/* RUNNING (every event is injectable, the PMU overflow too) */
	{
		c->mode = MODE_RUNNING_CHECKS;
		c->runs = 0;
		expect_err(sse_inject(ev, boot_hartid), 0, "sse", sfmt("%s: inject", name));
		c->mode = MODE_RECORD;
		check(c->runs == 1, "sse",
		      sfmt("%s: handled before inject returned", name),
		      sfmt("%lu runs", c->runs));
		check((c->status & 3) == ST_RUNNING && !(c->status & ST_PENDING), "sse",
		      sfmt("%s: RUNNING in the handler, not pending", name),
		      sfmt("status %lx", c->status));
		check(c->errs[0] == SBI_ERR_INVALID_STATE && c->errs[1] == SBI_ERR_INVALID_STATE &&
		      c->errs[2] == SBI_ERR_INVALID_STATE && c->errs[3] == SBI_ERR_INVALID_STATE,
		      "sse", sfmt("%s RUNNING: register, unregister, enable, disable: "
				  "INVALID_STATE", name),
		      sfmt("%ld %ld %ld %ld", c->errs[0], c->errs[1], c->errs[2], c->errs[3]));
		check(c->errs[4] == SBI_ERR_INVALID_STATE && c->errs[5] == SBI_ERR_INVALID_STATE,
		      "sse", sfmt("%s RUNNING: PRIORITY, CONFIG: INVALID_STATE", name),
		      sfmt("%ld %ld", c->errs[4], c->errs[5]));
		check(c->errs[6] == SBI_ERR_INVALID_PARAM && c->errs[7] == SBI_ERR_INVALID_PARAM,
		      "sse", sfmt("%s RUNNING: INTERRUPTED_FLAGS bit 6 / bit 32: "
				  "INVALID_PARAM", name),
		      sfmt("%ld %ld", c->errs[6], c->errs[7]));
		check(!c->errs[8] && !c->errs[9], "sse",
		      sfmt("%s RUNNING: INTERRUPTED_FLAGS 0x3f written and read back", name),
		      sfmt("%ld %ld", c->errs[8], c->errs[9]));
		check(!c->errs[10] && !c->errs[11] && !c->errs[12], "sse",
		      sfmt("%s RUNNING: INTERRUPTED_* written, read back, restored", name),
		      sfmt("%ld %ld %ld", c->errs[10], c->errs[11], c->errs[12]));
		check(c->errs[13] == ((ev & 0x8000) ? SBI_ERR_INVALID_STATE : SBI_ERR_DENIED),
		      "sse", sfmt("%s RUNNING: PREFERRED_HART: %s", name,
				  (ev & 0x8000) ? "INVALID_STATE" : "DENIED"),
		      sfmt("%ld", c->errs[13]));
		check(sse_state(ev) == ST_ENABLED, "sse",
		      sfmt("%s: complete -> ENABLED", name), "");
	}

	/* back to REGISTERED and UNUSED */
	expect_err(sse_call(SSE_DISABLE, ev), 0, "sse", sfmt("%s: disable", name));
	check(sse_state(ev) == ST_REGISTERED, "sse", sfmt("%s: REGISTERED", name), "");
	expect_err(sse_call(SSE_UNREGISTER, ev), 0, "sse", sfmt("%s: unregister", name));
	check(sse_state(ev) == ST_UNUSED && sse_attr(ev, A_PRIORITY) == 3, "sse",
	      sfmt("%s: UNUSED, PRIORITY kept", name), "");
	sse_write1(ev, A_PRIORITY, 0);
}

/* ---- delivery on this hart --------------------------------------------------------- */

static void test_entry_state(void)
{
	struct sse_ctx *c = &ctx_local;
	unsigned long out[32], ss, sepc_before = 0x8badf00dUL & ~1UL;
	bool ok = true;
	unsigned int i;

	if (!sse_setup(c, 0, boot_hartid))
		return;
	/* SPP = 1, SPIE = 1, SIE = 1 as interrupted; a known sepc */
	csr_set(CSR_SSTATUS, SSTATUS_SPP | SSTATUS_SPIE);
	csr_write(CSR_SEPC, sepc_before);
	c->runs = 0;
	local_irq_enable();
	sse_regs_probe(c->event, boot_hartid, out);
	ss = csr_read(CSR_SSTATUS);
	local_irq_disable();
	check(c->runs == 1, "sse", "entry: the injected event ran once", sfmt("%lu", c->runs));
	check(c->hartid == boot_hartid && c->regs[17] == (unsigned long)c, "sse",
	      "entry: a6 = hart id, a7 = ENTRY_ARG",
	      sfmt("a6=%lx a7=%lx", c->regs[16], c->regs[17]));
	for (i = 1; i < 32; i++) {
		if (i == 2 || i == 4 || i == 16 || i == 17)
			continue;
		if (i == 10 || i == 11)
			ok &= c->regs[i] == 0;	/* inject's a0/a1: error 0, value 0 */
		else
			ok &= c->regs[i] == PAT(i);
	}
	check(ok, "sse", "entry: every other register as interrupted (a0/a1 = inject's result)",
	      "a register differs");
	check((c->sstatus & SSTATUS_SPP) && (c->sstatus & SSTATUS_SPIE) &&
	      !(c->sstatus & SSTATUS_SIE), "sse",
	      "entry: sstatus.SPP = 1 (S interrupted), SPIE = old SIE = 1, SIE = 0",
	      sfmt("sstatus=%lx", c->sstatus));
	check(c->attrs[0] == sepc_before && c->attrs[1] == 3 && c->attrs[2] == SSE_INJECT &&
	      c->attrs[3] == SSE, "sse",
	      "entry: INTERRUPTED_SEPC = old sepc, FLAGS = SPP|SPIE, A6 = 7, A7 = SSE EID",
	      sfmt("%lx %lx %lx %lx", c->attrs[0], c->attrs[1], c->attrs[2], c->attrs[3]));
	check(c->sepc == (unsigned long)sse_probe_resume, "sse",
	      "entry: sepc = the pc after the inject ecall", sfmt("sepc=%lx", c->sepc));
	ok = out[10] == 0 && out[11] == 0 && out[16] == SSE_INJECT && out[17] == SSE;
	for (i = 1; i < 32; i++)
		if (i != 2 && i != 4 && i != 10 && i != 11 && i != 16 && i != 17)
			ok &= out[i] == PAT(i);
	check(ok, "sse", "complete: every register back, a6/a7 as before, a0/a1 = inject's result",
	      sfmt("a0=%lx a1=%lx a6=%lx a7=%lx", out[10], out[11], out[16], out[17]));
	check((ss & SSTATUS_SIE) && (ss & SSTATUS_SPIE) && (ss & SSTATUS_SPP) &&
	      csr_read(CSR_SEPC) == sepc_before, "sse",
	      "complete: SIE, SPIE, SPP and sepc restored",
	      sfmt("sstatus=%lx sepc=%lx", ss, csr_read(CSR_SEPC)));

	/* SIE = 0, SPP = 0, SPIE = 0 interrupted */
	csr_clear(CSR_SSTATUS, SSTATUS_SPP | SSTATUS_SPIE);
	sse_regs_probe(c->event, boot_hartid, out);
	ss = csr_read(CSR_SSTATUS);
	check(c->runs == 2 && c->attrs[1] == 0 && !(c->sstatus & SSTATUS_SPIE) &&
	      (c->sstatus & SSTATUS_SPP), "sse",
	      "entry with SIE = SPIE = SPP = 0: FLAGS 0, SPIE 0, SPP 1 (from S)",
	      sfmt("flags=%lx sstatus=%lx", c->attrs[1], c->sstatus));
	check(!(ss & (SSTATUS_SIE | SSTATUS_SPIE | SSTATUS_SPP)), "sse",
	      "complete: SIE, SPIE, SPP back to 0", sfmt("sstatus=%lx", ss));

	/* the handler changes INTERRUPTED_A6/A7: complete resumes with them */
	c->mode = MODE_SET_A6A7;
	sse_regs_probe(c->event, boot_hartid, out);
	c->mode = MODE_RECORD;
	check(out[16] == 0xa6a6 && out[17] == 0xa7a7 && out[8] == PAT(8), "sse",
	      "complete: a6/a7 from INTERRUPTED_A6/A7 written by the handler",
	      sfmt("a6=%lx a7=%lx", out[16], out[17]));

	/* one-shot: complete leaves it REGISTERED */
	sse_call(SSE_DISABLE, c->event);
	sse_write1(c->event, A_CONFIG, 1);
	sse_call(SSE_ENABLE, c->event);
	c->runs = 0;
	sse_inject(c->event, boot_hartid);
	check(c->runs == 1 && sse_state(c->event) == ST_REGISTERED, "sse",
	      "one-shot event: handled, then REGISTERED", sfmt("runs %lu state %lu", c->runs,
							       sse_state(c->event)));
	sse_write1(c->event, A_CONFIG, 0);
	sse_call(SSE_ENABLE, c->event);

	/* masked: pending until hart_unmask, which delivers it */
	sbi_call0(SSE, SSE_HART_MASK);
	c->runs = 0;
	expect_err(sse_inject(c->event, boot_hartid), 0, "sse", "inject while masked");
	check(c->runs == 0 && (sse_attr(c->event, A_STATUS) & ST_PENDING), "sse",
	      "masked: not handled, STATUS.pending set",
	      sfmt("runs %lu status %lx", c->runs, sse_attr(c->event, A_STATUS)));
	sbi_call0(SSE, SSE_HART_UNMASK);
	check(c->runs == 1 && c->attrs[2] == SSE_HART_UNMASK &&
	      !(sse_attr(c->event, A_STATUS) & ST_PENDING), "sse",
	      "hart_unmask delivers it (INTERRUPTED_A6 = 8), pending cleared",
	      sfmt("runs %lu a6 %lx", c->runs, c->attrs[2]));

	/* disabled: pending until enable */
	sse_call(SSE_DISABLE, c->event);
	c->runs = 0;
	expect_err(sse_inject(c->event, boot_hartid), 0, "sse", "inject while REGISTERED");
	check(c->runs == 0 && (sse_attr(c->event, A_STATUS) & ST_PENDING), "sse",
	      "REGISTERED: not handled, pending", sfmt("runs %lu", c->runs));
	sse_call(SSE_ENABLE, c->event);
	check(c->runs == 1 && c->attrs[2] == SSE_ENABLE, "sse",
	      "enable delivers the pending event (INTERRUPTED_A6 = 4)",
	      sfmt("runs %lu a6 %lx", c->runs, c->attrs[2]));
	/* unregister forgets a pending event */
	sbi_call0(SSE, SSE_HART_MASK);
	sse_inject(c->event, boot_hartid);
	sse_call(SSE_DISABLE, c->event);
	sse_call(SSE_UNREGISTER, c->event);
	sbi_call0(SSE, SSE_HART_UNMASK);
	check(!(sse_attr(c->event, A_STATUS) & ST_PENDING) && c->runs == 1, "sse",
	      "unregister clears the pending flag", "");
	/* injecting the running event again: it runs again after complete */
	if (!sse_setup(c, 0, boot_hartid))
		return;
	c->runs = 0;
	c->inject_next = c;
	sse_inject(c->event, boot_hartid);
	c->inject_next = 0;
	check(c->runs == 2 && !c->next_ran_inside && c->next_pending, "sse",
	      "the running event injected again: pending, runs after its complete",
	      sfmt("runs %lu inside %d pending %d", c->runs, c->next_ran_inside,
		   c->next_pending));
	sse_teardown(c->event);
}

/* ---- priorities ------------------------------------------------------------------ */

static void prio_pair(unsigned long plocal, unsigned long pglobal, unsigned long first,
		      const char *what)
{
	struct sse_ctx *l = &ctx_local, *g = &ctx_global;

	if (!sse_setup(l, plocal, boot_hartid) || !sse_setup(g, pglobal, boot_hartid))
		goto out;
	sbi_call0(SSE, SSE_HART_MASK);
	norder = 0;
	sse_inject(l->event, boot_hartid);
	sse_inject(g->event, boot_hartid);
	check(norder == 0, "sse", sfmt("%s: nothing runs while masked", what), "");
	sbi_call0(SSE, SSE_HART_UNMASK);
	check(norder == 2 && order[0] == first && order[1] != first, "sse",
	      sfmt("%s: after unmask, %lx first", what, first),
	      sfmt("%u ran: %lx %lx", norder, order[0], order[1]));
out:
	sse_teardown(l->event);
	sse_teardown(g->event);
}

static void test_priorities(void)
{
	struct sse_ctx *l = &ctx_local, *g = &ctx_global;

	prio_pair(10, 5, EV_GLOBAL_SW, "local prio 10, global prio 5");
	prio_pair(5, 10, EV_LOCAL_SW, "local prio 5, global prio 10");
	prio_pair(7, 7, EV_LOCAL_SW, "same priority: the lower event id");
	prio_pair(0xffffffffUL, 0, EV_GLOBAL_SW, "prio 0xffffffff is the lowest");

	/* a higher-priority event injected from a handler preempts it */
	if (sse_setup(l, 10, boot_hartid) && sse_setup(g, 5, boot_hartid)) {
		l->inject_next = g;
		l->runs = g->runs = 0;
		sse_inject(l->event, boot_hartid);
		check(l->runs == 1 && g->runs == 1 && l->next_ran_inside && !l->next_pending,
		      "sse", "higher priority injected in a handler runs at once (nested)",
		      sfmt("inside %d pending %d", l->next_ran_inside, l->next_pending));
		l->inject_next = 0;
		/* a lower one waits for the running one to complete */
		g->inject_next = l;
		l->runs = g->runs = 0;
		sse_inject(g->event, boot_hartid);
		check(l->runs == 1 && g->runs == 1 && !g->next_ran_inside && g->next_pending,
		      "sse", "lower priority injected in a handler waits for its complete",
		      sfmt("inside %d pending %d runs %lu", g->next_ran_inside, g->next_pending,
			   l->runs));
		g->inject_next = 0;
	}
	sse_teardown(l->event);
	sse_teardown(g->event);
	/* equal priority, higher id: does not preempt */
	if (sse_setup(l, 3, boot_hartid) && sse_setup(g, 3, boot_hartid)) {
		l->inject_next = g;
		l->runs = g->runs = 0;
		sse_inject(l->event, boot_hartid);
		check(g->runs == 1 && !l->next_ran_inside, "sse",
		      "equal priority does not preempt a running event", "");
		l->inject_next = 0;
	}
	sse_teardown(l->event);
	sse_teardown(g->event);
}

/* ---- other harts ----------------------------------------------------------------- */

static struct sse_ctx ctx_remote[MAX_HARTS];

static struct sbiret remote(unsigned long h, unsigned long fid, unsigned long a0,
			    unsigned long a1, unsigned long a2)
{
	struct hart_ecall call = { SSE, fid, { a0, a1, a2, 0, 0, 0 } };

	return hart_do(h, CMD_ECALL, (unsigned long)&call, 0, 0, 0, 3000);
}

static void test_remote(void)
{
	struct sse_ctx *g = &ctx_global;
	unsigned int i;

	for (i = 0; i < nr_secondaries; i++) {
		unsigned long h = secondaries[i];
		struct sse_ctx *c = &ctx_remote[h];
		struct sbiret r;
		bool ran;

		if (!harts[h].running)
			continue;
		c->event = EV_LOCAL_SW;
		c->runs = 0;
		r = remote(h, SSE_HART_UNMASK, 0, 0, 0);
		expect_err(r, 0, "sse", sfmt("hart %lu: hart_unmask", h));
		r = remote(h, SSE_REGISTER, EV_LOCAL_SW, (unsigned long)sse_entry,
			   (unsigned long)c);
		if (!r.error)
			r = remote(h, SSE_ENABLE, EV_LOCAL_SW, 0, 0);
		expect_err(r, 0, "sse", sfmt("hart %lu: registers and enables the local event", h));
		check(sse_state(EV_LOCAL_SW) == ST_UNUSED, "sse",
		      sfmt("hart %lu's local event is its own (UNUSED here)", h), "");
		expect_err(sse_inject(EV_LOCAL_SW, h), 0, "sse",
			   sfmt("inject the local event on hart %lu", h));
		ran = WAIT_UNTIL(c->runs == 1, 3000);
		check(ran && c->hartid == h, "sse",
		      sfmt("hart %lu handles it (a6 = its hart id)", h),
		      sfmt("runs %lu a6 %lu", c->runs, c->hartid));
		/* masked there: pending until it unmasks */
		remote(h, SSE_HART_MASK, 0, 0, 0);
		sse_inject(EV_LOCAL_SW, h);
		ran = WAIT_UNTIL(c->runs != 1, 20);
		check(!ran, "sse", sfmt("hart %lu masked: not handled", h), "");
		remote(h, SSE_HART_UNMASK, 0, 0, 0);
		check(WAIT_UNTIL(c->runs == 2, 3000), "sse",
		      sfmt("hart %lu: handled once it unmasks", h), sfmt("runs %lu", c->runs));
		r = remote(h, SSE_DISABLE, EV_LOCAL_SW, 0, 0);
		if (!r.error)
			r = remote(h, SSE_UNREGISTER, EV_LOCAL_SW, 0, 0);
		expect_err(r, 0, "sse", sfmt("hart %lu: disables and unregisters", h));
	}
	expect_err(sse_inject(EV_LOCAL_SW, machine.max_hartid + 1), SBI_ERR_INVALID_PARAM,
		   "sse", "inject on hart max + 1: INVALID_PARAM");
	expect_err(sse_inject(EV_LOCAL_SW, -1UL), SBI_ERR_INVALID_PARAM, "sse",
		   "inject on hart -1: INVALID_PARAM");
	expect_err(sse_inject(EV_LOCAL_SW, 1UL << 32 | boot_hartid), SBI_ERR_INVALID_PARAM,
		   "sse", "inject on hart 2^32 + boot hart: INVALID_PARAM (hart_id is XLEN)");

	/* the global event, on each hart as preferred hart, several times */
	if (sse_register(g->event, (unsigned long)sse_entry, (unsigned long)g).error)
		return;
	for (i = 0; i < nr_secondaries; i++) {
		unsigned long h = secondaries[i], n;
		const char *why = 0;
		bool ok = true;

		if (!harts[h].running)
			continue;
		remote(h, SSE_HART_UNMASK, 0, 0, 0);
		sse_write1(g->event, A_PREF_HART, h);
		sse_call(SSE_ENABLE, g->event);
		/* waits of 10 s: a loaded host may leave a hart's thread unscheduled */
		for (n = 1; n <= 20 && ok; n++) {
			long err;

			g->runs = 0;
			g->hartid = -1UL;
			err = sse_inject(g->event, boot_hartid).error;
			why = err ? "inject failed" : 0;
			if (!why && !WAIT_UNTIL(g->runs != 0, 10000))
				why = "not handled";
			if (!why && (g->runs != 1 || g->hartid != h))
				why = "handled twice or elsewhere";
			if (!why && !WAIT_UNTIL(sse_state(g->event) == ST_ENABLED, 10000))
				why = "not ENABLED again";
			ok = !why;
		}
		check(ok, "sse", sfmt("global event with PREFERRED_HART %lu: 20 injects, each "
				      "handled there, back to ENABLED", h),
		      sfmt("inject %lu: %s (runs %lu on hart %lx, status %lx)", n - 1, why,
			   g->runs, g->hartid, sse_attr(g->event, A_STATUS)));
		sse_call(SSE_DISABLE, g->event);
		remote(h, SSE_HART_MASK, 0, 0, 0);
	}
	sse_call(SSE_UNREGISTER, g->event);
}

/* HSM stop and start: the hart's SSE state starts afresh (UNUSED, masked). */
static void test_hsm_reset(void)
{
	unsigned long h = nr_secondaries ? secondaries[0] : -1UL, st = 0;
	struct sbiret r;
	bool entered;

	if (h == -1UL || !harts[h].running) {
		skip("sse", "HSM stop/start resets the hart's events", "no secondary hart");
		return;
	}
	remote(h, SSE_HART_UNMASK, 0, 0, 0);
	r = remote(h, SSE_REGISTER, EV_LOCAL_SW, (unsigned long)sse_entry,
		   (unsigned long)&ctx_remote[h]);
	if (!r.error)
		r = remote(h, SSE_ENABLE, EV_LOCAL_SW, 0, 0);
	expect_err(r, 0, "sse", sfmt("hart %lu: local event registered and enabled", h));
	if (machine.cpu_has_sscofpmf) {
		r = remote(h, SSE_REGISTER, EV_PMU, (unsigned long)sse_entry,
			   (unsigned long)&ctx_remote[h]);
		if (!r.error)
			r = remote(h, SSE_ENABLE, EV_PMU, 0, 0);
		expect_err(r, 0, "sse", sfmt("hart %lu: PMU overflow event registered and "
					     "enabled", h));
	}
	hart_post(h, CMD_STOP, 0, 0, 0, 0);
	r = wait_status(h, SBI_HSM_STOPPED, 1000);
	harts[h].running = false;
	if (!check(!r.error && r.value == SBI_HSM_STOPPED, "sse",
		   sfmt("hart %lu stops with the event enabled", h), ret_str(r)))
		return;
	expect_err(sse_inject(EV_LOCAL_SW, h), SBI_ERR_FAILED, "sse",
		   sfmt("inject on stopped hart %lu: FAILED", h));
	start_secondary(h, next_opaque(h), &entered);
	if (!check(entered, "sse", sfmt("hart %lu starts again", h), "did not arrive"))
		return;
	{	/* read_attrs on that hart: the buffer is the fourth argument */
		struct hart_ecall call = { SSE, SSE_READ_ATTRS,
					   { EV_LOCAL_SW, A_STATUS, 1, (unsigned long)&st, 0, 0 } };

		st = -1UL;
		r = hart_do(h, CMD_ECALL, (unsigned long)&call, 0, 0, 0, 3000);
	}
	check(!r.error && (st & 3) == ST_UNUSED, "sse",
	      sfmt("hart %lu after stop/start: its local event is UNUSED", h),
	      sfmt("%s status %lx", ret_str(r), st));
	if (machine.cpu_has_sscofpmf) {
		struct hart_ecall call = { SSE, SSE_READ_ATTRS,
					   { EV_PMU, A_STATUS, 1, (unsigned long)&st, 0, 0 } };

		st = -1UL;
		r = hart_do(h, CMD_ECALL, (unsigned long)&call, 0, 0, 0, 3000);
		check(!r.error && (st & 3) == ST_UNUSED, "sse",
		      sfmt("hart %lu after stop/start: its PMU overflow event is UNUSED", h),
		      sfmt("%s status %lx", ret_str(r), st));
	}
	expect_err(remote(h, SSE_HART_MASK, 0, 0, 0), SBI_ERR_ALREADY_STOPPED, "sse",
		   sfmt("hart %lu after stop/start: events masked again", h));
}

/*
 * A global event RUNNING on another hart h, as this hart sees it: RUNNING,
 * and every call that needs another state, or the running hart, refused.
 */
static void test_global_running_elsewhere(unsigned long h)
{
	struct sse_ctx *g = &ctx_global;
	unsigned long ev = g->event, v = 0x1000;
	struct sbiret r;
	bool held;

	remote(h, SSE_HART_UNMASK, 0, 0, 0);
	g->mode = MODE_HOLD;
	g->hold = true;
	g->held = false;
	g->runs = 0;
	r = sse_register(ev, (unsigned long)sse_entry, (unsigned long)g);
	if (!r.error)
		r = sse_write1(ev, A_PREF_HART, h);
	if (!r.error)
		r = sse_call(SSE_ENABLE, ev);
	if (!r.error)
		r = sse_inject(ev, boot_hartid);
	held = !r.error && WAIT_UNTIL(g->held, 10000);
	if (check(held && (sse_attr(ev, A_STATUS) & 3) == ST_RUNNING, "sse",
		  sfmt("global event RUNNING on hart %lu (its handler holds)", h),
		  sfmt("%s held %d status %lx", ret_str(r), held, sse_attr(ev, A_STATUS)))) {
		for (unsigned int a = A_SEPC; a <= A_A7; a++)
			expect_err(sse_write(ev, a, 1, &v), SBI_ERR_INVALID_STATE, "sse",
				   sfmt("RUNNING on hart %lu: INTERRUPTED attribute %u written "
					"by another hart: INVALID_STATE", h, a));
		expect_err(sse_register(ev, (unsigned long)sse_entry, 0), SBI_ERR_INVALID_STATE,
			   "sse", "RUNNING elsewhere: register: INVALID_STATE");
		expect_err(sse_call(SSE_UNREGISTER, ev), SBI_ERR_INVALID_STATE, "sse",
			   "RUNNING elsewhere: unregister: INVALID_STATE");
		expect_err(sse_call(SSE_ENABLE, ev), SBI_ERR_INVALID_STATE, "sse",
			   "RUNNING elsewhere: enable: INVALID_STATE");
		expect_err(sse_call(SSE_DISABLE, ev), SBI_ERR_INVALID_STATE, "sse",
			   "RUNNING elsewhere: disable: INVALID_STATE");
		expect_err(sse_write1(ev, A_PRIORITY, 1), SBI_ERR_INVALID_STATE, "sse",
			   "RUNNING elsewhere: PRIORITY: INVALID_STATE");
		expect_err(sse_write1(ev, A_PREF_HART, boot_hartid), SBI_ERR_INVALID_STATE,
			   "sse", "RUNNING elsewhere: PREFERRED_HART: INVALID_STATE");
		expect_err(sbi_call0(SSE, SSE_COMPLETE), 0, "sse",
			   "complete on a hart where nothing runs: SUCCESS ...");
		check((sse_attr(ev, A_STATUS) & 3) == ST_RUNNING && !g->runs, "sse",
		      sfmt("... and the event stays RUNNING on hart %lu", h),
		      sfmt("status %lx runs %lu", sse_attr(ev, A_STATUS), g->runs));
	}
	g->hold = false;
	mb();
	check(WAIT_UNTIL(g->runs == 1 && (sse_attr(ev, A_STATUS) & 3) == ST_ENABLED, 10000),
	      "sse", sfmt("hart %lu completes it: ENABLED", h),
	      sfmt("runs %lu status %lx", g->runs, sse_attr(ev, A_STATUS)));
	g->mode = MODE_RECORD;
	sse_call(SSE_DISABLE, ev);
	sse_call(SSE_UNREGISTER, ev);
	remote(h, SSE_HART_MASK, 0, 0, 0);
}

/* ---- events for a hart in HSM suspend --------------------------------------------- */

/* The fallback wake-up of the suspends below: far beyond the event's. */
#define WAKE_FALLBACK_MS	20000UL

/* The first running secondary, or -1. */
static unsigned long running_secondary(void)
{
	for (unsigned int i = 0; i < nr_secondaries; i++)
		if (harts[secondaries[i]].running)
			return secondaries[i];
	return -1UL;
}

/* Puts hart h in HSM suspend (its timer armed WAKE_FALLBACK_MS ahead). */
static bool suspend_remote(unsigned long h, unsigned long type, unsigned long opaque,
			   const char *what)
{
	struct sbiret r;

	hart_post(h, CMD_SUSPEND, type, (unsigned long)secondary_entry, opaque,
		  ms_to_ticks(WAKE_FALLBACK_MS));
	r = wait_status(h, SBI_HSM_SUSPENDED, 1000);
	return check(!r.error && r.value == SBI_HSM_SUSPENDED, "sse",
		     sfmt("hart %lu in %s suspend", h, what), ret_str(r));
}

/* Retentive: the event wakes the hart; the suspend call returns 0 well
 * before the hart's timer, and the handler ran (at the ecall's return). */
static void wake_retentive(unsigned long h, struct sse_ctx *c, const char *what)
{
	struct sbiret r;
	bool ran;

	if (!suspend_remote(h, 0, 0, "retentive"))
		return;
	expect_err(sse_inject(c->event, h), 0, "sse",
		   sfmt("inject %s for hart %lu (SUSPENDED)", what, h));
	ran = WAIT_UNTIL(c->runs == 1, 10000);
	check(ran && c->hartid == h, "sse",
	      sfmt("%s wakes hart %lu from retentive suspend; handled there", what, h),
	      sfmt("runs %lu a6 %lu", c->runs, c->hartid));
	r = hart_result(h, 1000);
	check(!r.error && harts[h].ret_ticks < ms_to_ticks(WAKE_FALLBACK_MS), "sse",
	      sfmt("hart %lu: hart_suspend returns 0 before its timer", h),
	      sfmt("%s after %lu ticks", ret_str(r), harts[h].ret_ticks));
	if (r.error)
		harts[h].lost = true;
}

/*
 * An event that is not deliverable (the hart masked, or the event only
 * REGISTERED) leaves the hart asleep; an IPI (do_suspend enables SSIE)
 * then wakes it, and the event runs once deliverable.
 */
static void no_wake(unsigned long h, struct sse_ctx *c, bool masked)
{
	const char *why = masked ? "hart masked" : "event REGISTERED";
	struct sbiret r;

	c->runs = 0;
	if (!suspend_remote(h, 0, 0, "retentive"))
		return;
	expect_err(sse_inject(EV_LOCAL_SW, h), 0, "sse",
		   sfmt("inject the local event for hart %lu (%s)", h, why));
	WAIT_UNTIL(c->runs != 0, 200);
	r = sbi_hart_status(h);
	check(!c->runs && !r.error && r.value == SBI_HSM_SUSPENDED, "sse",
	      sfmt("%s: hart %lu stays in suspend, the event is not handled", why, h),
	      sfmt("runs %lu, %s", c->runs, ret_str(r)));
	send_ipi_to(h);
	r = hart_result(h, 1000);
	expect_err(r, 0, "sse", sfmt("hart %lu woken by an IPI instead", h));
	if (r.error) {
		harts[h].lost = true;
		return;
	}
	check(!c->runs, "sse", sfmt("%s: still not handled after the resume", why),
	      sfmt("runs %lu", c->runs));
	r = remote(h, masked ? SSE_HART_UNMASK : SSE_ENABLE, EV_LOCAL_SW, 0, 0);
	check(!r.error && WAIT_UNTIL(c->runs == 1, 10000), "sse",
	      sfmt("hart %lu: handled once %s", h, masked ? "it unmasks" : "enabled"),
	      sfmt("%s runs %lu", ret_str(r), c->runs));
}

static void test_suspend_wake(void)
{
	unsigned long h = running_secondary(), opaque, old;
	struct sse_ctx *c, *g = &ctx_global;
	struct sbiret r;
	bool ran;

	if (h == -1UL) {
		skip("sse", "events wake a hart in HSM suspend", "no secondary hart");
		return;
	}
	c = &ctx_remote[h];
	*c = (struct sse_ctx){ .event = EV_LOCAL_SW };
	remote(h, SSE_HART_UNMASK, 0, 0, 0);	/* ALREADY_STARTED is fine */
	r = remote(h, SSE_REGISTER, EV_LOCAL_SW, (unsigned long)sse_entry_own_stack,
		   (unsigned long)c);
	if (!r.error)
		r = remote(h, SSE_ENABLE, EV_LOCAL_SW, 0, 0);
	if (!expect_err(r, 0, "sse", sfmt("hart %lu: local event registered and enabled", h)))
		return;

	if (machine.cpu_has_sscofpmf) {
		r = remote(h, SSE_REGISTER, EV_PMU, (unsigned long)sse_entry_own_stack,
			   (unsigned long)c);
		if (!r.error)
			r = remote(h, SSE_ENABLE, EV_PMU, 0, 0);
		expect_err(r, 0, "sse", sfmt("hart %lu: PMU overflow event enabled too", h));
	}
	/* retentive, the local event injected from this hart */
	wake_retentive(h, c, "the local event");
	if (harts[h].lost)
		return;

	/* non-retentive: the handler interrupts resume_addr, a0/a1 as the
	 * resume gives them, and the hart then goes on from resume_addr */
	c->runs = 0;
	old = harts[h].entries;
	opaque = next_opaque(h);
	if (!suspend_remote(h, 0x80000000UL, opaque, "non-retentive"))
		return;
	expect_err(sse_inject(EV_LOCAL_SW, h), 0, "sse",
		   sfmt("inject the local event for hart %lu (non-retentive SUSPENDED)", h));
	ran = WAIT_UNTIL(c->runs == 1, 10000);
	check(ran && c->hartid == h && c->sepc == (unsigned long)secondary_entry &&
	      c->regs[10] == h && c->regs[11] == opaque, "sse",
	      sfmt("the local event wakes hart %lu from non-retentive suspend: handled "
		   "at resume_addr with a0 = hartid, a1 = opaque", h),
	      sfmt("runs %lu a6 %lu sepc %lx a0 %lx a1 %lx", c->runs, c->hartid, c->sepc,
		   c->regs[10], c->regs[11]));
	ran = wait_entry(h, old, 1000);
	check(ran && harts[h].entry_a0 == h && harts[h].entry_a1 == opaque, "sse",
	      sfmt("hart %lu then resumes at resume_addr (a0, a1 kept by the handler)", h),
	      sfmt("entered %d a0 %lx a1 %lx", ran, harts[h].entry_a0, harts[h].entry_a1));
	r = hart_result(h, 1000);
	check(r.error == ERR_REENTERED, "sse",
	      sfmt("hart %lu: its suspend ended through resume_addr", h), ret_str(r));
	if (!ran) {
		harts[h].lost = true;
		return;
	}
	{	/* the event is the hart's still: ENABLED after its complete */
		unsigned long st = -1UL;
		struct hart_ecall call = { SSE, SSE_READ_ATTRS,
					   { EV_LOCAL_SW, A_STATUS, 1, (unsigned long)&st, 0, 0 } };

		r = hart_do(h, CMD_ECALL, (unsigned long)&call, 0, 0, 0, 3000);
		check(!r.error && (st & 3) == ST_ENABLED, "sse",
		      sfmt("hart %lu after the non-retentive suspend: local event ENABLED", h),
		      sfmt("%s status %lx", ret_str(r), st));
	}
	if (machine.cpu_has_sscofpmf) {
		unsigned long st = -1UL;
		struct hart_ecall call = { SSE, SSE_READ_ATTRS,
					   { EV_PMU, A_STATUS, 1, (unsigned long)&st, 0, 0 } };

		r = hart_do(h, CMD_ECALL, (unsigned long)&call, 0, 0, 0, 3000);
		check(!r.error && (st & 3) == ST_ENABLED, "sse",
		      sfmt("hart %lu after the non-retentive suspend: PMU overflow event "
			   "ENABLED", h), sfmt("%s status %lx", ret_str(r), st));
		remote(h, SSE_DISABLE, EV_PMU, 0, 0);
		remote(h, SSE_UNREGISTER, EV_PMU, 0, 0);
	}
	/* not deliverable: no wake-up */
	remote(h, SSE_HART_MASK, 0, 0, 0);
	no_wake(h, c, true);
	if (harts[h].lost)
		return;
	remote(h, SSE_DISABLE, EV_LOCAL_SW, 0, 0);
	no_wake(h, c, false);
	if (harts[h].lost)
		return;
	remote(h, SSE_DISABLE, EV_LOCAL_SW, 0, 0);
	remote(h, SSE_UNREGISTER, EV_LOCAL_SW, 0, 0);

	/* retentive, the global event with hart h as its PREFERRED_HART */
	g->runs = 0;
	g->mode = MODE_RECORD;
	r = sse_register(g->event, (unsigned long)sse_entry, (unsigned long)g);
	if (!r.error)
		r = sse_write1(g->event, A_PREF_HART, h);
	if (!r.error)
		r = sse_call(SSE_ENABLE, g->event);
	if (expect_err(r, 0, "sse", sfmt("global event enabled, PREFERRED_HART %lu", h)))
		wake_retentive(h, g, "the global event");
	sse_call(SSE_DISABLE, g->event);
	sse_call(SSE_UNREGISTER, g->event);
	remote(h, SSE_HART_MASK, 0, 0, 0);
}

/* ---- the PMU overflow event --------------------------------------------------------- */

static uint64_t snap_page[512] __attribute__((aligned(4096)));

static void pmu_overflow_once(struct sse_ctx *c, unsigned long ctr, unsigned int round)
{
	struct hart *h = this_hart();
	unsigned long irqs = h->lcofi_irqs, ovf;
	struct sbiret r;

	c->runs = 0;
	c->scountovf = 0;
	r = pmu_start(ctr, 1, START_SET_INIT_VALUE, -8UL);
	pmu_tlb_probe(pmu_tlb_buf(), 16, 0, ctr);
	WAIT_UNTIL(c->runs != 0, 1000);
	ovf = csr_read(CSR_SCOUNTOVF);
	check(!r.error && c->runs == 1 && (c->scountovf >> ctr & 1), "sse",
	      sfmt("PMU overflow %u: counter %lu wraps, SSE event handled once, "
		   "scountovf bit set in the handler", round, ctr),
	      sfmt("%s runs %lu scountovf %lx", ret_str(r), c->runs, c->scountovf));
	check(h->lcofi_irqs == irqs && !(csr_read(CSR_SIP) & SIP_LCOFIP), "sse",
	      sfmt("PMU overflow %u: no supervisor LCOFI, sip.LCOFIP clear", round),
	      sfmt("irqs %lu sip %lx", h->lcofi_irqs - irqs, csr_read(CSR_SIP)));
	check(ovf >> ctr & 1, "sse",
	      sfmt("PMU overflow %u: the OF bit stays set after the event", round),
	      sfmt("scountovf %lx", ovf));
	if (round == 1) {
		pmu_stop(ctr, 1, 0);
		return;
	}
	/* the snapshot's overflow bitmap says the same */
	snap_page[0] = 0;
	r = pmu_set_shmem((unsigned long)snap_page, 0, 0);
	if (!r.error)
		r = pmu_stop(ctr, 1, STOP_TAKE_SNAPSHOT);
	check(!r.error && (snap_page[0] & 1), "sse",
	      sfmt("PMU overflow %u: counter_stop TAKE_SNAPSHOT: overflow bitmap bit 0 "
		   "(counter %lu) set", round, ctr),
	      sfmt("%s bitmap %lx", ret_str(r), (unsigned long)snap_page[0]));
	pmu_set_shmem(-1UL, -1UL, 0);
}

/*
 * Both local events pending at once (the hart masked: the PMU overflow
 * and an inject of the local software event), ranked when the hart is
 * unmasked: the lower PRIORITY value first, whichever event it is.
 */
static void pmu_with_local(struct sse_ctx *c, unsigned long ctr, unsigned long pmu_prio,
			   unsigned long local_prio, unsigned long first)
{
	struct sse_ctx *l = &ctx_local;
	unsigned long st = 0;
	struct sbiret r;

	r = sse_call(SSE_DISABLE, c->event);
	if (!r.error)
		r = sse_write1(c->event, A_PRIORITY, pmu_prio);
	if (!r.error)
		r = sse_call(SSE_ENABLE, c->event);
	if (r.error || !sse_setup(l, local_prio, boot_hartid)) {
		failf("sse", "PMU and local events: set-up (%s)", ret_str(r));
		goto out;
	}
	l->mode = MODE_RECORD;
	sbi_call0(SSE, SSE_HART_MASK);
	norder = 0;
	c->runs = l->runs = 0;
	sse_inject(l->event, boot_hartid);
	pmu_start(ctr, 1, START_SET_INIT_VALUE, -8UL);
	pmu_tlb_probe(pmu_tlb_buf(), 16, 0, ctr);
	WAIT_UNTIL((st = sse_attr(c->event, A_STATUS)) & ST_PENDING, 1000);
	check((st & ST_PENDING) && (sse_attr(l->event, A_STATUS) & ST_PENDING) && norder == 0,
	      "sse", sfmt("PMU prio %lu, local prio %lu: both pending while masked",
			  pmu_prio, local_prio),
	      sfmt("status %lx %lx ran %u", st, sse_attr(l->event, A_STATUS), norder));
	sbi_call0(SSE, SSE_HART_UNMASK);
	check(norder == 2 && order[0] == first && order[1] != first, "sse",
	      sfmt("PMU prio %lu, local prio %lu: after unmask, %lx first", pmu_prio,
		   local_prio, first),
	      sfmt("%u ran: %lx %lx", norder, order[0], order[1]));
	pmu_stop(ctr, 1, 0);
out:
	sse_teardown(l->event);
}

static void test_pmu_event(void)
{
	struct sse_ctx *c = &ctx_pmu;
	struct hart *h = this_hart();
	unsigned long ctr, irqs, ovf;
	struct sbiret r;

	r = pmu_config(0, 0x7fff8UL, CFG_CLEAR_VALUE | CFG_SET_MINH, EV_DTLB_READ_MISS, 0);
	if (r.error) {
		failf("sse", "no counter for dTLB read misses (%s)", ret_str(r));
		return;
	}
	ctr = r.value;
	c->mode = MODE_PMU;
	/* as an OS would: the overflow interrupt enabled before the event */
	csr_set(CSR_SIE, SIE_LCOFIE);
	if (!sse_setup(c, 0, boot_hartid))
		return;
	pmu_paging_on();
	local_irq_enable();
	/* injected (kernel developers test their handler so): no counter overflows */
	irqs = h->lcofi_irqs;
	ovf = csr_read(CSR_SCOUNTOVF);
	c->runs = 0;
	c->scountovf = ~ovf;
	expect_err(sse_inject(EV_PMU, boot_hartid), 0, "sse",
		   "PMU overflow event: sse_inject returns 0");
	check(c->runs == 1 && c->scountovf == ovf && h->lcofi_irqs == irqs, "sse",
	      "... handled once before inject returned, scountovf in the handler "
	      "as before (no OF bit set by the inject), no supervisor LCOFI",
	      sfmt("runs %lu scountovf %lx (before %lx) irqs %lu", c->runs,
		   c->scountovf, ovf, h->lcofi_irqs - irqs));
	pmu_overflow_once(c, ctr, 1);
	pmu_overflow_once(c, ctr, 2);	/* restarting clears OF: a second one comes */
	pmu_with_local(c, ctr, 0, 5, EV_PMU);
	pmu_with_local(c, ctr, 7, 3, EV_LOCAL_SW);
	/* disabled: the overflow is the supervisor interrupt again */
	sse_call(SSE_DISABLE, c->event);
	irqs = h->lcofi_irqs;
	c->runs = 0;
	pmu_start(ctr, 1, START_SET_INIT_VALUE, -8UL);
	pmu_tlb_probe(pmu_tlb_buf(), 16, 0, ctr);
	WAIT_UNTIL(h->lcofi_irqs != irqs, 1000);
	check(h->lcofi_irqs == irqs + 1 && c->runs == 0, "sse",
	      "PMU event disabled: the overflow is a supervisor LCOFI again",
	      sfmt("irqs %lu runs %lu", h->lcofi_irqs - irqs, c->runs));
	pmu_stop(ctr, 1, 0);
	local_irq_disable();
	csr_clear(CSR_SIE, SIE_LCOFIE);
	pmu_paging_off();
	pmu_release(ctr);
	sse_call(SSE_UNREGISTER, c->event);
	c->mode = MODE_RECORD;
}

/* ---- the runs ------------------------------------------------------------------------ */

/* In the main run (no Sscofpmf): present, and the PMU event answers. */
/*
 * A board's own events (sbi_sse_add_event), on the image built with
 * TALLY_TEST_SSE_EVENTS=1 (platform/virt/board.c): 0x4001 injectable,
 * 0x4002 not; 0x4001 again, 0xc001 (global) and 0x4003 (a third) refused.
 */
#define EV_BOARD_A		0x4001UL
#define EV_BOARD_B		0x4002UL
static struct sse_ctx ctx_board;

static void test_board_events(void)
{
	struct sse_ctx *c = &ctx_board;
	struct sbiret r;
	unsigned long v = 0;

	expect_err(sse_read(EV_BOARD_A, A_STATUS, 1, &v), 0, "sse",
		   "board event 0x4001 (added by the board): STATUS reads");
	check(v == ST_UNUSED + ST_INJECT, "sse", "board event 0x4001 starts UNUSED, injectable",
	      sfmt("status 0x%lx", v));
	expect_err(sse_read(EV_BOARD_B, A_STATUS, 1, &v), 0, "sse",
		   "board event 0x4002: STATUS reads (the duplicate 0x4001 took no slot)");
	ids_answer(0x4003, SBI_ERR_INVALID_PARAM, "board event 0x4003 refused: no slot left");
	ids_answer(0xc001, SBI_ERR_INVALID_PARAM, "global id 0xc001 refused as a board event");
	check((sse_attr(EV_BOARD_A, A_STATUS) & ST_INJECT) &&
	      !(sse_attr(EV_BOARD_B, A_STATUS) & ST_INJECT), "sse",
	      "STATUS.inject: 0x4001 injectable, 0x4002 not", "");
	expect_err(sse_inject(EV_BOARD_B, boot_hartid), SBI_ERR_INVALID_PARAM, "sse",
		   "inject of the non-injectable board event: INVALID_PARAM");
	c->event = EV_BOARD_A;
	c->runs = 0;
	c->mode = MODE_RECORD;
	r = sse_register(EV_BOARD_A, (unsigned long)sse_entry, (unsigned long)c);
	if (!r.error)
		r = sse_call(SSE_ENABLE, EV_BOARD_A);
	if (!r.error)
		r = sse_call(SSE_HART_UNMASK, 0);
	if (!r.error)
		r = sse_inject(EV_BOARD_A, boot_hartid);
	check(!r.error && c->runs == 1 && sse_state(EV_BOARD_A) == ST_ENABLED, "sse",
	      "board event 0x4001: register, enable, inject: delivered and completed",
	      sfmt("%s runs %lu", ret_str(r), c->runs));
	sbi_call0(SSE, SSE_HART_MASK);
	r = sse_call(SSE_DISABLE, EV_BOARD_A);
	if (!r.error)
		r = sse_call(SSE_UNREGISTER, EV_BOARD_A);
	check(!r.error && sse_state(EV_BOARD_A) == ST_UNUSED, "sse",
	      "board event 0x4001: disable, unregister", ret_str(r));
}

void test_sse_basic(void)
{
	if (!sbi_probe(SSE)) {
		check(false, "sse", "probe_extension(SSE) = 1", "0");
		return;
	}
	check(true, "sse", "probe_extension(SSE) = 1", "");
	ids_answer(EV_PMU, machine.cpu_has_sscofpmf ? 0 : SBI_ERR_NOT_SUPPORTED,
		   machine.cpu_has_sscofpmf ? "PMU overflow, Sscofpmf" :
		   "PMU overflow without Sscofpmf");
}

void test_sse(void)
{
	unsigned int up;

	ctx_local.event = EV_LOCAL_SW;
	ctx_global.event = EV_GLOBAL_SW;
	ctx_pmu.event = EV_PMU;
	if (!sbi_probe(SSE)) {
		check(false, "sse", "probe_extension(SSE) = 1", "0");
		return;
	}
	if (boot_arg(machine.bootargs, "board-events")) {
		test_board_events();
		return;
	}
	test_mask();
	test_ids();
	test_attrs(EV_LOCAL_SW, "local software");
	test_attrs(EV_GLOBAL_SW, "global software");
	if (machine.cpu_has_sscofpmf)
		test_attrs(EV_PMU, "PMU overflow");
	test_states(&ctx_local, "local software");
	test_states(&ctx_global, "global software");
	if (machine.cpu_has_sscofpmf)
		test_states(&ctx_pmu, "PMU overflow");
	test_entry_state();
	test_priorities();
	test_ids_upper();
	up = start_all_secondaries();
	info("sse", "%u secondary harts running", up);
	check(up >= 1, "sse", "secondary harts started for the remote tests", "none");
	test_remote();
	test_hsm_reset();
	if (running_secondary() != -1UL)
		test_global_running_elsewhere(running_secondary());
	test_suspend_wake();
	if (machine.cpu_has_sscofpmf)
		test_pmu_event();
	else
		skip("sse", "PMU overflow delivered as an SSE event", "no Sscofpmf");
	check(sbi_probe(SSE) && sse_state(EV_LOCAL_SW) == ST_UNUSED &&
	      sse_state(EV_GLOBAL_SW) == ST_UNUSED, "sse",
	      "the firmware still answers; every event UNUSED again", "");
}
