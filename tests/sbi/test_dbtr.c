/* Debug triggers extension "DBTR" (EID 0x44425452): every function and
 * every error row of its tables, triggers that really fire on load, store
 * and execute (a breakpoint exception in S-mode, cause 3), hostile
 * configurations refused and never installed, shared memory in the
 * firmware or across the end of RAM refused, and the per-hart state reset
 * by an HSM stop/start.  When the probe says the extension is absent,
 * every check reports SKIP. */
#include "hart.h"
#include "test.h"

#define TYPE_SHIFT	(__riscv_xlen - 4)
#define T1_TYPE(t)	((unsigned long)(t) << TYPE_SHIFT)
#define T1_DMODE	(1UL << (__riscv_xlen - 5))
#define T1_LOAD		(1UL << 0)
#define T1_STORE	(1UL << 1)
#define T1_EXEC		(1UL << 2)
#define T1_U		(1UL << 3)
#define T1_S		(1UL << 4)
#define T1_M		(1UL << 6)
#define T1_CHAIN	(1UL << 11)
#define T1_ACTION(a)	((unsigned long)(a) << 12)
#define MC_SELECT	(1UL << 19)	/* mcontrol: data-value match */
#define MC6_SIZE32	(3UL << 16)	/* mcontrol6 size 3: 32 bits */

#define ST_MAPPED	(1UL << 0)
#define ST_S		(1UL << 2)

#define EXC_BREAKPOINT	3

struct entry {
	unsigned long w0, tdata1, tdata2, tdata3;
};

static struct entry shmem[16] __attribute__((aligned(64)));
static struct entry shmem_sec[16] __attribute__((aligned(64)));
static volatile unsigned long watched, other, sec_watched;
static unsigned long ntrig;

static struct sbiret dbtr(unsigned long fid, unsigned long a0, unsigned long a1,
			  unsigned long a2)
{
	return sbi_call3(SBI_EXT_DBTR, fid, a0, a1, a2);
}

static struct sbiret set_shmem(const void *p)
{
	return dbtr(SBI_DBTR_SET_SHMEM, (unsigned long)p, 0, 0);
}

static struct sbiret install1(unsigned long t1, unsigned long t2, unsigned long t3)
{
	shmem[0] = (struct entry){ 0xdead, t1, t2, t3 };
	mb();
	return dbtr(SBI_DBTR_INSTALL, 1, 0, 0);
}

static struct sbiret update1(unsigned long idx, unsigned long t1, unsigned long t2)
{
	shmem[0] = (struct entry){ idx, t1, t2, 0 };
	mb();
	return dbtr(SBI_DBTR_UPDATE, 1, 0, 0);
}

/* How many triggers are installed, as read_triggers reports them. */
static unsigned long mapped_count(void)
{
	unsigned long n = 0, i;

	/* the spec bounds one read to trig_max - 1 entries: read one by one */
	for (i = 0; i + 1 < ntrig; i++) {
		if (dbtr(SBI_DBTR_READ, i, 1, 0).error)
			return ~0UL;
		n += shmem[0].w0 & ST_MAPPED;
	}
	return n;
}

/* What an armed trap saw: scause (0: no trap), stval and sepc. */
struct hit {
	unsigned long cause, tval, epc;
	unsigned long insn;	/* address of the instruction that ran */
};

static void arm(void)
{
	struct hart *h = this_hart();

	h->trap_cause = 0;
	h->trap_tval = 0;
	h->trap_epc = 0;
	h->trap_armed = true;
	mb();
}

static struct hit disarm(unsigned long insn)
{
	struct hart *h = this_hart();

	mb();
	h->trap_armed = false;
	return (struct hit){ h->trap_cause, h->trap_tval, h->trap_epc, insn };
}

static struct hit do_store(volatile unsigned long *p)
{
	unsigned long insn;

	arm();
	__asm__ __volatile__("lla %0, 1f\n1: " XSTR(REG_S) " zero, 0(%1)"
			     : "=&r"(insn) : "r"(p) : "memory");
	return disarm(insn);
}

static struct hit do_load(volatile unsigned long *p)
{
	unsigned long insn, v;

	arm();
	__asm__ __volatile__("lla %0, 1f\n1: " XSTR(REG_L) " %1, 0(%2)"
			     : "=&r"(insn), "=&r"(v) : "r"(p) : "memory");
	return disarm(insn);
}

/* A 4-byte nop the trap handler steps over, then ret. */
void dbtr_exec_target(void);
__asm__(".pushsection .text\n"
	".option push\n.option norvc\n"
	".globl dbtr_exec_target\n"
	"dbtr_exec_target:\n"
	"	nop\n"
	"	ret\n"
	".option pop\n.popsection\n");

static struct hit do_exec(void)
{
	arm();
	dbtr_exec_target();
	return disarm((unsigned long)dbtr_exec_target);
}

static const char *type_name(unsigned long type)
{
	return type == 6 ? "mcontrol6" : "mcontrol";
}

/*
 * A breakpoint exception (scause 3) at the instruction that made the
 * access, before it took effect (timing "before"); stval is the address
 * or 0, both of which the privileged spec allows (QEMU 7.2 writes 0).
 */
static void check_fires(const char *what, struct hit h, unsigned long addr)
{
	check(h.cause == EXC_BREAKPOINT && h.epc == h.insn &&
	      (h.tval == addr || h.tval == 0), "dbtr",
	      sfmt("%s: breakpoint exception, sepc at the access", what),
	      sfmt("scause=%lx sepc=%lx (want %lx) stval=%lx (want %lx or 0)",
		   h.cause, h.epc, h.insn, h.tval, addr));
}

static void check_silent(const char *what, struct hit h)
{
	check(h.cause == 0, "dbtr", what, sfmt("trapped, scause=%lx", h.cause));
}

static void check_num_triggers(unsigned long *types)
{
	struct sbiret r = dbtr(SBI_DBTR_NUM_TRIGGERS, 0, 0, 0);
	unsigned long t;

	ntrig = r.error ? 0 : r.value;
	check(!r.error && ntrig > 0 && ntrig <= 16, "dbtr",
	      sfmt("num_triggers(0) returns trig_max (%lu)", ntrig), ret_str(r));
	*types = 0;
	for (t = 1; t < 16; t++) {	/* tdata1 = 0 asks for trig_max */
		r = dbtr(SBI_DBTR_NUM_TRIGGERS, T1_TYPE(t), 0, 0);
		if (!r.error && r.value)
			*types |= 1UL << t;
		if (t != 2 && t != 6)
			expect_val(r, 0, "dbtr", sfmt("num_triggers(type %lu) is 0", t));
	}
	info("dbtr", "%lu triggers; mcontrol on %lu, mcontrol6 on %lu", ntrig,
	     dbtr(SBI_DBTR_NUM_TRIGGERS, T1_TYPE(2), 0, 0).value,
	     dbtr(SBI_DBTR_NUM_TRIGGERS, T1_TYPE(6), 0, 0).value);
	check(*types & (1UL << 2 | 1UL << 6), "dbtr",
	      "num_triggers finds mcontrol or mcontrol6 triggers", "none");
	expect_val(dbtr(SBI_DBTR_NUM_TRIGGERS, T1_TYPE(6) | T1_S | T1_M, 0, 0), 0,
		   "dbtr", "num_triggers of a config with the M bit is 0");
	expect_val(dbtr(SBI_DBTR_NUM_TRIGGERS, T1_TYPE(2) | T1_DMODE, 0, 0), 0,
		   "dbtr", "num_triggers of a config with dmode is 0");
	expect_val(dbtr(SBI_DBTR_NUM_TRIGGERS, T1_TYPE(2) | T1_ACTION(1), 0, 0), 0,
		   "dbtr", "num_triggers of a config with action 1 (debug mode) is 0");
}

/* set_shmem's table, and what needs shared memory before it is set. */
static void check_shmem(void)
{
	unsigned long ram_end = machine.mem.base + machine.mem.size;
	unsigned long need = ntrig * sizeof(struct entry);
	static const struct { unsigned long lo, hi; const char *what; } bad[] = {
		{ FW_BASE, 0, "in the firmware (0x80000000)" },
		{ FW_BASE + 0x1000, 0, "inside the firmware (0x80001000)" },
		{ 0x1000, 0, "outside RAM (0x1000)" },
		{ -8UL, 0, "wrapping the address space" },
		{ (unsigned long)shmem, 1, "with shmem_phys_hi = 1" },
	};
	unsigned int i;

	expect_err(dbtr(SBI_DBTR_SET_SHMEM, -1UL, -1UL, 0), SBI_SUCCESS, "dbtr",
		   "set_shmem(-1, -1) disables shared memory");
	expect_err(dbtr(SBI_DBTR_READ, 0, 1, 0), SBI_ERR_NO_SHMEM, "dbtr",
		   "read_triggers without shared memory: NO_SHMEM");
	expect_err(dbtr(SBI_DBTR_INSTALL, 1, 0, 0), SBI_ERR_NO_SHMEM, "dbtr",
		   "install_triggers without shared memory: NO_SHMEM");
	expect_err(dbtr(SBI_DBTR_UPDATE, 1, 0, 0), SBI_ERR_NO_SHMEM, "dbtr",
		   "update_triggers without shared memory: NO_SHMEM");
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, (unsigned long)shmem, 0, 1),
		   SBI_ERR_INVALID_PARAM, "dbtr", "set_shmem with flags 1: INVALID_PARAM");
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, -1UL, -1UL, TOP_BIT),
		   SBI_ERR_INVALID_PARAM, "dbtr",
		   "set_shmem(-1, -1) with flags bit XLEN-1: INVALID_PARAM");
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, (unsigned long)shmem + SZREG / 2, 0, 0),
		   SBI_ERR_INVALID_PARAM, "dbtr",
		   sfmt("set_shmem not XLEN/8-byte aligned (+%d): INVALID_PARAM",
			SZREG / 2));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_err(dbtr(SBI_DBTR_SET_SHMEM, bad[i].lo, bad[i].hi, 0),
			   SBI_ERR_INVALID_ADDRESS, "dbtr",
			   sfmt("set_shmem %s: INVALID_ADDRESS", bad[i].what));
	/* trig_max * 32 bytes: the last 8 bytes of RAM hold too few */
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, ram_end - 8, 0, 0), SBI_ERR_INVALID_ADDRESS,
		   "dbtr", sfmt("set_shmem straddling the end of RAM (%lx): "
				"INVALID_ADDRESS", ram_end - 8));
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, FW_BASE - 8, 0, 0), SBI_ERR_INVALID_ADDRESS,
		   "dbtr", "set_shmem running into the firmware: INVALID_ADDRESS");
	expect_err(dbtr(SBI_DBTR_READ, 0, 1, 0), SBI_ERR_NO_SHMEM, "dbtr",
		   "a refused set_shmem leaves shared memory disabled");
	/* accepted but never used: the end of RAM may hold the devicetree */
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, ram_end - need, 0, 0), SBI_SUCCESS, "dbtr",
		   "set_shmem ending exactly at the end of RAM is accepted");
	expect_err(set_shmem(shmem), SBI_SUCCESS, "dbtr",
		   "set_shmem of a payload buffer succeeds");
}

static void check_read_range(void)
{
	unsigned long i;

	memset(shmem, 0xa5, sizeof(shmem));
	expect_err(dbtr(SBI_DBTR_READ, 0, ntrig - 1, 0), SBI_SUCCESS, "dbtr",
		   sfmt("read_triggers(0, %lu) succeeds", ntrig - 1));
	for (i = 0; i + 1 < ntrig && !shmem[i].w0 && !shmem[i].tdata1; i++)
		;
	check(i + 1 == ntrig, "dbtr", "read_triggers: no trigger installed at first",
	      sfmt("entry %lu: state %lx tdata1 %lx", i, shmem[i].w0, shmem[i].tdata1));
	expect_err(dbtr(SBI_DBTR_READ, ntrig, 0, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "read_triggers with base = trig_max: BAD_RANGE");
	expect_err(dbtr(SBI_DBTR_READ, 0, ntrig, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "read_triggers with base + count = trig_max: BAD_RANGE (spec's >=)");
	expect_err(dbtr(SBI_DBTR_READ, ntrig - 1, 1, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "read_triggers(trig_max - 1, 1): BAD_RANGE");
	expect_err(dbtr(SBI_DBTR_READ, 1, -1UL, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "read_triggers(1, ~0) (base + count wraps): BAD_RANGE");
	expect_err(dbtr(SBI_DBTR_READ, -1UL, 2, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "read_triggers(~0, 2): BAD_RANGE");
}

/* Hostile or malformed configurations: refused, nothing installed. */
static void check_install_refused(unsigned long type)
{
	static const struct { unsigned long t1; long err; const char *what; } bad[] = {
		{ T1_M, SBI_ERR_INVALID_PARAM, "the M bit (fire in M-mode)" },
		{ T1_ACTION(1), SBI_ERR_INVALID_PARAM, "action 1 (enter debug mode)" },
		{ T1_ACTION(2), SBI_ERR_INVALID_PARAM, "action 2 (trace on)" },
		{ T1_ACTION(15), SBI_ERR_INVALID_PARAM, "action 15" },
		{ T1_DMODE, SBI_ERR_INVALID_PARAM, "dmode = 1" },
		{ T1_CHAIN, SBI_ERR_INVALID_PARAM, "chain = 1 on the last entry" },
	};
	static const unsigned long bad_types[] = { 0, 1, 3, 4, 5, 7, 8, 12, 15 };
	unsigned int i;

	expect_err(dbtr(SBI_DBTR_INSTALL, ntrig, 0, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "install_triggers(trig_max): BAD_RANGE");
	expect_err(dbtr(SBI_DBTR_INSTALL, -1UL, 0, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "install_triggers(~0): BAD_RANGE");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sbiret r = install1(T1_TYPE(type) | T1_STORE | T1_S | bad[i].t1,
					   (unsigned long)&watched, 0);

		check(r.error == bad[i].err && r.value == 0 && shmem[0].w0 == 0xdead,
		      "dbtr", sfmt("install %s with %s: INVALID_PARAM, value 0, idx "
				   "not written", type_name(type), bad[i].what),
		      sfmt("%s, word0 %lx", ret_str(r), shmem[0].w0));
	}
	for (i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++)
		expect_err(install1(T1_TYPE(bad_types[i]) | T1_STORE | T1_S,
				    (unsigned long)&watched, 0),
			   SBI_ERR_INVALID_PARAM, "dbtr",
			   sfmt("install of trigger type %lu: INVALID_PARAM", bad_types[i]));
	expect_val(sbi_call1(SBI_EXT_DBTR, SBI_DBTR_READ, 0), 0, "dbtr",
		   "read_triggers(0, 0) succeeds");
	expect_val((struct sbiret){ 0, mapped_count() }, 0, "dbtr",
		   "after the refused installs no trigger is installed");
	check_silent("a store after the refused installs does not trap",
		     do_store(&watched));
}

/* Load, store and execute triggers of one type, with read, disable,
 * enable, update and uninstall along the way. */
static void check_fire(unsigned long type)
{
	const char *tn = type_name(type);
	/* mcontrol6 with size 32 bits, as a conformance suite installs it */
	unsigned long t1 = T1_TYPE(type) | T1_STORE | T1_S | (type == 6 ? MC6_SIZE32 : 0);
	unsigned long idx;
	struct hit hit;
	struct sbiret r;

	r = install1(t1, (unsigned long)&watched, 0);
	idx = shmem[0].w0;
	if (!check(!r.error && idx < ntrig, "dbtr",
		   sfmt("install a %s store trigger: SUCCESS, trig_idx written", tn),
		   sfmt("%s, word0 %lx", ret_str(r), idx)))
		return;
	expect_err(dbtr(SBI_DBTR_READ, idx, 1, 0), SBI_SUCCESS, "dbtr",
		   "read_triggers of the installed trigger");
	check(shmem[0].w0 == (ST_S | ST_MAPPED) && shmem[0].tdata1 == t1 &&
	      shmem[0].tdata2 == (unsigned long)&watched && shmem[0].tdata3 == 0,
	      "dbtr", sfmt("read_triggers: state S|MAPPED, tdata1..3 as installed (%s)", tn),
	      sfmt("state %lx tdata1 %lx tdata2 %lx tdata3 %lx", shmem[0].w0,
		   shmem[0].tdata1, shmem[0].tdata2, shmem[0].tdata3));
	hit = do_store(&watched);
	check_fires(sfmt("%s store trigger fires on a store", tn), hit,
		    (unsigned long)&watched);
	check_silent(sfmt("%s store trigger: a load does not trap", tn),
		     do_load(&watched));
	check_silent(sfmt("%s store trigger: a store elsewhere does not trap", tn),
		     do_store(&other));
	/* the firmware writing the watched shared memory: M bit clear, no trap */
	if (install1(T1_TYPE(type) | T1_STORE | T1_S, (unsigned long)&shmem[0].w0,
		     0).error == 0) {
		unsigned long shm_idx = shmem[0].w0;

		expect_err(dbtr(SBI_DBTR_READ, 0, 1, 0), SBI_SUCCESS, "dbtr",
			   "read_triggers into memory S-mode watches for stores: "
			   "the firmware's own stores do not trap");
		expect_err(dbtr(SBI_DBTR_UNINSTALL, shm_idx, 1, 0), SBI_SUCCESS, "dbtr",
			   "uninstall the trigger on the shared memory");
	}

	expect_err(dbtr(SBI_DBTR_DISABLE, idx, 1, 0), SBI_SUCCESS, "dbtr",
		   "disable_triggers of the installed trigger");
	check_silent(sfmt("%s: disabled trigger does not fire", tn),
		     do_store(&watched));
	dbtr(SBI_DBTR_READ, idx, 1, 0);
	check(shmem[0].w0 == (ST_S | ST_MAPPED) && shmem[0].tdata1 == (t1 & ~T1_S),
	      "dbtr", "read after disable: modes cleared in tdata1, kept in the state",
	      sfmt("state %lx tdata1 %lx", shmem[0].w0, shmem[0].tdata1));
	expect_err(dbtr(SBI_DBTR_ENABLE, idx, 1, 0), SBI_SUCCESS, "dbtr",
		   "enable_triggers of the disabled trigger");
	hit = do_store(&watched);
	check_fires(sfmt("%s: re-enabled trigger fires again", tn), hit,
		    (unsigned long)&watched);

	/* update: the same trigger now watches loads of another variable */
	expect_err(update1(idx, T1_TYPE(type) | T1_LOAD | T1_S, (unsigned long)&other),
		   SBI_SUCCESS, "dbtr", "update_triggers to a load trigger");
	hit = do_load(&other);
	check_fires(sfmt("%s load trigger fires on a load", tn), hit,
		    (unsigned long)&other);
	check_silent(sfmt("%s load trigger: a store does not trap", tn),
		     do_store(&other));
	check_silent(sfmt("%s: after update the old address is not watched", tn),
		     do_store(&watched));
	expect_err(update1(idx, T1_TYPE(type) | T1_LOAD | T1_S | T1_M, 0),
		   SBI_ERR_INVALID_PARAM, "dbtr", "update_triggers adding the M bit: INVALID_PARAM");
	expect_err(update1(idx, T1_TYPE(type) | T1_LOAD | T1_S | T1_ACTION(1), 0),
		   SBI_ERR_INVALID_PARAM, "dbtr", "update_triggers with action 1: INVALID_PARAM");
	expect_err(update1(idx, T1_TYPE(type == 2 ? 6 : 2) | T1_LOAD | T1_S, 0),
		   SBI_ERR_INVALID_PARAM, "dbtr", "update_triggers changing the type: INVALID_PARAM");
	expect_err(update1(idx, T1_TYPE(type) | T1_LOAD | T1_S | T1_CHAIN, 0),
		   SBI_ERR_INVALID_PARAM, "dbtr", "update_triggers changing chain: INVALID_PARAM");
	expect_err(update1(ntrig, T1_TYPE(type) | T1_LOAD | T1_S, 0),
		   SBI_ERR_INVALID_PARAM, "dbtr", "update_triggers with trig_idx = trig_max: INVALID_PARAM");
	expect_err(update1(idx ^ 1, T1_TYPE(type) | T1_LOAD | T1_S, 0),
		   SBI_ERR_FAILED, "dbtr", "update_triggers of a trigger not installed: FAILED");
	expect_err(dbtr(SBI_DBTR_UPDATE, ntrig, 0, 0), SBI_ERR_BAD_RANGE, "dbtr",
		   "update_triggers(trig_max): BAD_RANGE");
	hit = do_load(&other);
	check_fires(sfmt("%s: refused updates left the trigger as it was", tn),
		    hit, (unsigned long)&other);

	/* execute */
	expect_err(update1(idx, T1_TYPE(type) | T1_EXEC | T1_S,
			   (unsigned long)dbtr_exec_target),
		   SBI_SUCCESS, "dbtr", "update_triggers to an execute trigger");
	hit = do_exec();
	check_fires(sfmt("%s execute trigger fires on executing the address", tn),
		    hit, (unsigned long)dbtr_exec_target);
	check_silent(sfmt("%s execute trigger: a load of the address does not trap", tn),
		     do_load((volatile unsigned long *)dbtr_exec_target));

	expect_err(dbtr(SBI_DBTR_UNINSTALL, idx, 1, 0), SBI_SUCCESS, "dbtr",
		   "uninstall_triggers of the trigger");
	check_silent(sfmt("%s: uninstalled trigger does not fire", tn), do_exec());
	dbtr(SBI_DBTR_READ, idx, 1, 0);
	check(shmem[0].w0 == 0, "dbtr", "read after uninstall: state 0",
	      sfmt("state %lx", shmem[0].w0));
	expect_err(update1(idx, T1_TYPE(type) | T1_LOAD | T1_S, 0), SBI_ERR_FAILED, "dbtr",
		   "update_triggers after uninstall: FAILED");
	check_silent(sfmt("%s: the refused update installed nothing", tn),
		     do_load(&other));
}

/* uninstall / enable / disable: idx_base and idx_mask rows. */
static void check_mask_rows(unsigned long type)
{
	static const struct { unsigned long fid; const char *name; } fids[] = {
		{ SBI_DBTR_UNINSTALL, "uninstall" },
		{ SBI_DBTR_ENABLE, "enable" },
		{ SBI_DBTR_DISABLE, "disable" },
	};
	unsigned long idx;
	unsigned int f;

	for (f = 0; f < 3; f++) {
		const char *n = fids[f].name;

		expect_err(dbtr(fids[f].fid, 0, 1, 0), SBI_ERR_INVALID_PARAM, "dbtr",
			   sfmt("%s_triggers of a trigger not installed: INVALID_PARAM", n));
		expect_err(dbtr(fids[f].fid, ntrig, 1, 0), SBI_ERR_INVALID_PARAM, "dbtr",
			   sfmt("%s_triggers(trig_max, 1): INVALID_PARAM", n));
		expect_err(dbtr(fids[f].fid, -1UL, 1, 0), SBI_ERR_INVALID_PARAM, "dbtr",
			   sfmt("%s_triggers(~0, 1): INVALID_PARAM", n));
		expect_err(dbtr(fids[f].fid, 1, TOP_BIT, 0), SBI_ERR_INVALID_PARAM, "dbtr",
			   sfmt("%s_triggers(1, 1 << (XLEN-1)) (base + bit wraps): INVALID_PARAM", n));
		expect_err(dbtr(fids[f].fid, 5, 0, 0), SBI_SUCCESS, "dbtr",
			   sfmt("%s_triggers with an empty mask: SUCCESS", n));
	}
	if (install1(T1_TYPE(type) | T1_STORE | T1_S, (unsigned long)&watched, 0).error)
		return;
	idx = shmem[0].w0;
	/* one bad index in the mask: nothing done to the good one */
	expect_err(dbtr(SBI_DBTR_UNINSTALL, idx, 1UL | 1UL << ntrig, 0),
		   SBI_ERR_INVALID_PARAM, "dbtr",
		   "uninstall_triggers with one index beyond trig_max: INVALID_PARAM");
	expect_err(dbtr(SBI_DBTR_DISABLE, 0, (1UL << idx) | (1UL << (idx ^ 1)), 0),
		   SBI_ERR_INVALID_PARAM, "dbtr",
		   "disable_triggers with one trigger not installed: INVALID_PARAM");
	check_fires("the refused uninstall and disable left the trigger armed",
		    do_store(&watched), (unsigned long)&watched);
	expect_err(dbtr(SBI_DBTR_UNINSTALL, 0, 1UL << idx, 0), SBI_SUCCESS, "dbtr",
		   "uninstall_triggers(0, 1 << idx)");
	expect_err(dbtr(SBI_DBTR_ENABLE, idx, 1, 0), SBI_ERR_INVALID_PARAM, "dbtr",
		   "enable_triggers after uninstall: INVALID_PARAM (spec table)");
	check_silent("enable after uninstall re-armed nothing", do_store(&watched));
}

/* Every trigger taken: the next install has none to map (FAILED). */
static void check_full(unsigned long type)
{
	unsigned long i, got = 0;
	struct sbiret r;

	for (i = 0; i < ntrig; i++) {
		r = install1(T1_TYPE(type) | T1_STORE | T1_S, (unsigned long)&watched, 0);
		if (r.error)
			break;
		got |= 1UL << shmem[0].w0;
	}
	check(i == ntrig && got == (1UL << ntrig) - 1, "dbtr",
	      sfmt("%lu single installs take trig_idx 0..%lu", ntrig, ntrig - 1),
	      sfmt("stopped at %lu (%s), indices %lx", i, ret_str(r), got));
	r = install1(T1_TYPE(type) | T1_LOAD | T1_S, (unsigned long)&other, 0);
	check(r.error == SBI_ERR_FAILED && r.value == 0, "dbtr",
	      "install with every trigger taken: FAILED, value 0", ret_str(r));
	check_silent("the failed install put no load trigger anywhere",
		     do_load(&other));
	expect_err(dbtr(SBI_DBTR_UNINSTALL, 0, got, 0), SBI_SUCCESS, "dbtr",
		   "uninstall_triggers of all of them at once");
	check_silent("no trigger fires after uninstalling all", do_store(&watched));
}

/* A bit the hart does not implement: NOT_SUPPORTED and nothing left behind
 * (QEMU 7.2 drops mcontrol's select and tdata3); a hart that has them
 * may accept the configuration. */
static void check_unimplemented(unsigned long type)
{
	unsigned long extra = type == 2 ? MC_SELECT : 0;
	struct sbiret r;

	r = install1(T1_TYPE(type) | T1_STORE | T1_S | extra, (unsigned long)&watched,
		     extra ? 0 : 1);
	if (r.error == SBI_SUCCESS) {
		info("dbtr", "this hart keeps %s", extra ? "mcontrol.select" : "tdata3");
		dbtr(SBI_DBTR_UNINSTALL, shmem[0].w0, 1, 0);
		return;
	}
	check(r.error == SBI_ERR_NOT_SUPPORTED && r.value == 0, "dbtr",
	      sfmt("install with %s the hart drops: NOT_SUPPORTED",
		   extra ? "mcontrol.select" : "tdata3 = 1"), ret_str(r));
	check_silent("the refused install left no trigger behind", do_store(&watched));
	expect_val((struct sbiret){ 0, mapped_count() }, 0, "dbtr",
		   "read_triggers: nothing installed after NOT_SUPPORTED");
}

/*
 * Bit 22 is mcontrol's sizehi[1] but mcontrol6's hit0: the firmware drops
 * S-mode's hit bits, and must not take mcontrol's size bit for one.
 */
static void check_bit22(unsigned long type)
{
	unsigned long t1 = T1_TYPE(type) | T1_STORE | T1_S | (1UL << 22);
	struct sbiret r = install1(t1, (unsigned long)&watched, 0);
	unsigned long idx = shmem[0].w0, got = 0;

	if (!r.error) {
		/* the first free trigger, 0: within the spec's read bound */
		got = dbtr(SBI_DBTR_READ, idx, 1, 0).error ? ~0UL : shmem[0].tdata1;
		dbtr(SBI_DBTR_UNINSTALL, idx, 1, 0);
	}
	if (type == 6)
		check(!r.error && got == (t1 & ~(1UL << 22)), "dbtr",
		      "install mcontrol6 with hit0 set: SUCCESS, the hit bit dropped",
		      sfmt("%s, tdata1 %lx", ret_str(r), got));
	else
		check(r.error == SBI_ERR_NOT_SUPPORTED || (!r.error && got == t1), "dbtr",
		      "install mcontrol with sizehi bit 22: NOT_SUPPORTED (QEMU drops "
		      "sizehi) or kept as given, never cleared silently",
		      sfmt("%s, tdata1 %lx", ret_str(r), got));
}

/*
 * Batches of two: a bad second entry installs nothing (not even the good
 * first one), and a chain gets two consecutive triggers.  The spec bounds
 * a batch to trig_max - 1 entries, so this needs 3 triggers.
 */
static void check_batch(unsigned long type)
{
	unsigned long t1 = T1_TYPE(type) | T1_STORE | T1_S;
	struct sbiret r;

	if (ntrig < 3) {
		skip("dbtr", "batches of two entries: bad second entry, chain",
		     sfmt("needs 3 triggers, the hart has %lu", ntrig));
		return;
	}
	shmem[0] = (struct entry){ 0xdead, t1, (unsigned long)&watched, 0 };
	shmem[1] = (struct entry){ 0xdead, t1 | T1_M, (unsigned long)&other, 0 };
	r = dbtr(SBI_DBTR_INSTALL, 2, 0, 0);
	check(r.error == SBI_ERR_INVALID_PARAM && r.value == 1 && shmem[0].w0 == 0xdead,
	      "dbtr", "batch [good, M bit]: INVALID_PARAM, value 1, nothing written",
	      sfmt("%s, word0 %lx", ret_str(r), shmem[0].w0));
	check_silent("the refused batch did not install its good first entry",
		     do_store(&watched));
	shmem[0] = (struct entry){ 0xdead, t1 | T1_CHAIN, (unsigned long)&watched, 0 };
	shmem[1] = (struct entry){ 0xdead, t1, (unsigned long)&watched, 0 };
	r = dbtr(SBI_DBTR_INSTALL, 2, 0, 0);
	if (r.error == SBI_ERR_NOT_SUPPORTED) {
		check(r.value == 0, "dbtr", "chained batch on a hart without chain: "
		      "NOT_SUPPORTED at entry 0", ret_str(r));
		return;
	}
	check(!r.error && shmem[1].w0 == shmem[0].w0 + 1, "dbtr",
	      "a chain of two gets consecutive trig_idx",
	      sfmt("%s, idx %lx %lx", ret_str(r), shmem[0].w0, shmem[1].w0));
	if (!r.error)
		dbtr(SBI_DBTR_UNINSTALL, shmem[0].w0, 3, 0);
}

/* CMD_CALL on a secondary: a store to sec_watched; value = scause (0: none). */
static struct sbiret sec_store(unsigned long a, unsigned long b, unsigned long c)
{
	(void)a;
	(void)b;
	(void)c;
	return (struct sbiret){ 0, do_store(&sec_watched).cause };
}

/*
 * Non-retentive HSM suspend of hart id with a store trigger installed:
 * the trigger and the shared memory are the hart's still when it resumes
 * (the firmware clears the hardware triggers for the suspend, as a real
 * non-retentive state loses them, and programs them again on resume).
 */
static void check_suspend_kept(unsigned long id)
{
	struct hart_ecall c = { SBI_EXT_DBTR, SBI_DBTR_READ, { 0, 1 } };
	unsigned long old = harts[id].entries;
	struct sbiret r;

	r = hart_do(id, CMD_CALL, (unsigned long)sec_store, 0, 0, 0, 100);
	check(!r.error && r.value == EXC_BREAKPOINT, "dbtr",
	      sfmt("hart %lu: its store trigger fires there", id), ret_str(r));
	hart_post(id, CMD_SUSPEND, 0x80000000UL, (unsigned long)secondary_entry,
		  next_opaque(id), ms_to_ticks(20));
	if (!check(wait_entry(id, old, 1000), "dbtr",
		   sfmt("hart %lu: non-retentive suspend, resumed by its timer", id),
		   "did not come back")) {
		harts[id].lost = true;
		return;
	}
	hart_result(id, 100);
	r = hart_do(id, CMD_CALL, (unsigned long)sec_store, 0, 0, 0, 100);
	check(!r.error && r.value == EXC_BREAKPOINT, "dbtr",
	      sfmt("hart %lu after a non-retentive suspend: the trigger still fires", id),
	      ret_str(r));
	shmem_sec[0].w0 = 0xdead;
	c.a[0] = shmem_sec[1].w0;	/* the trig_idx install wrote */
	r = hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 100);
	check(!r.error && shmem_sec[0].w0 == (ST_S | ST_MAPPED) &&
	      shmem_sec[0].tdata2 == (unsigned long)&sec_watched, "dbtr",
	      sfmt("hart %lu after the suspend: shared memory kept, read_triggers "
		   "shows the trigger as installed", id),
	      sfmt("%s, state %lx tdata2 %lx", ret_str(r), shmem_sec[0].w0,
		   shmem_sec[0].tdata2));
}

/* Per-hart state: a secondary's trigger does not fire on the boot hart,
 * and an HSM stop/start forgets its triggers and shared memory. */
static void check_secondary(unsigned long type)
{
	struct hart_ecall c = { SBI_EXT_DBTR, SBI_DBTR_SET_SHMEM,
				{ (unsigned long)shmem_sec } };
	unsigned long id = -1UL;
	unsigned int i;
	bool entered;
	struct sbiret r;

	for (i = 0; i < nr_secondaries; i++)
		if (harts[secondaries[i]].running && !harts[secondaries[i]].lost)
			id = secondaries[i];
	if (id == -1UL) {
		skip("dbtr", "per-hart state and reset on HSM start", "no running secondary");
		return;
	}
	r = hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 100);
	expect_err(r, SBI_SUCCESS, "dbtr", sfmt("hart %lu: set_shmem", id));
	shmem_sec[0] = (struct entry){ 0, T1_TYPE(type) | T1_STORE | T1_S,
				       (unsigned long)&sec_watched, 0 };
	c.fid = SBI_DBTR_INSTALL;
	c.a[0] = 1;
	r = hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 100);
	expect_err(r, SBI_SUCCESS, "dbtr", sfmt("hart %lu: install a store trigger", id));
	check_silent("a trigger installed on another hart does not fire on this one",
		     do_store(&sec_watched));
	shmem_sec[1].w0 = shmem_sec[0].w0;
	if (!r.error)
		check_suspend_kept(id);
	if (harts[id].lost)
		return;

	hart_post(id, CMD_STOP, 0, 0, 0, 0);
	r = wait_status(id, SBI_HSM_STOPPED, 1000);
	if (!check(!r.error && r.value == SBI_HSM_STOPPED, "dbtr",
		   sfmt("hart %lu stops", id), ret_str(r)))
		return;
	r = start_secondary(id, next_opaque(id), &entered);
	if (!check(!r.error && entered, "dbtr", sfmt("hart %lu starts again", id),
		   ret_str(r)))
		return;
	c.fid = SBI_DBTR_READ;
	c.a[0] = 0;
	c.a[1] = 1;
	r = hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 100);
	expect_err(r, SBI_ERR_NO_SHMEM, "dbtr",
		   "after HSM stop/start the hart's shared memory is forgotten");
	c.fid = SBI_DBTR_SET_SHMEM;
	c.a[0] = (unsigned long)shmem_sec;
	c.a[1] = 0;
	hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 100);
	c.fid = SBI_DBTR_READ;
	c.a[0] = 0;
	c.a[1] = 1;
	shmem_sec[0].w0 = 0xdead;
	r = hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 100);
	check(!r.error && shmem_sec[0].w0 == 0, "dbtr",
	      "after HSM stop/start the hart's triggers are uninstalled",
	      sfmt("%s, state %lx", ret_str(r), shmem_sec[0].w0));
}

void test_dbtr(void)
{
	unsigned long types, type;

	if (!sbi_probe(SBI_EXT_DBTR)) {
		skip("dbtr", "every DBTR check", "DBTR not available");
		return;
	}
	check_num_triggers(&types);
	if (!ntrig)
		return;
	expect_err(dbtr(8, 0, 0, 0), SBI_ERR_NOT_SUPPORTED, "dbtr",
		   "function 8 (not in the spec): NOT_SUPPORTED");
	check_shmem();
	check_read_range();
	for (type = 2; type <= 6; type += 4) {
		if (!(types & (1UL << type))) {
			skip("dbtr", sfmt("%s triggers", type_name(type)), "none on this hart");
			continue;
		}
		check_install_refused(type);
		check_fire(type);
		check_mask_rows(type);
		check_full(type);
		check_unimplemented(type);
		check_bit22(type);
	}
	check_batch(types & (1UL << 6) ? 6 : 2);
	check_secondary(types & (1UL << 6) ? 6 : 2);
	expect_err(dbtr(SBI_DBTR_SET_SHMEM, -1UL, -1UL, 0), SBI_SUCCESS, "dbtr",
		   "set_shmem(-1, -1) at the end");
}
