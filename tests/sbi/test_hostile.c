/*
 * The hostile run (bootargs "hostile"): what no S-mode program may do to
 * M-mode or to another hart, on every hart QEMU starts.
 *
 *  stack pairs  hart s makes a retentive hart_suspend with every register
 *               holding a random value while another hart starts hart
 *               31 - s, which has never run since boot; every register but
 *               a0/a1 must come back (Tally once put the boot stack of
 *               hart 31 - s on the block of hart s's trap frame).
 *  isolation    loads, stores and fetches into the firmware region (every
 *               4 KiB, so every hart's 8 KiB stack block), into the
 *               CLINT (every msip, every mtimecmp, mtime, every 4 KiB)
 *               and, with AIA, into every 4 KiB of the M-level APLIC
 *               domain and of the IMSIC's M-files (every hart's file)
 *               fault with an access fault, on every hart, also on harts
 *               started long after boot and restarted through HSM.
 *  storm        every hart makes random SBI calls (every extension, random
 *               FIDs, arguments from pools of firmware, CLINT, unmapped
 *               and absent-hart values) through regcheck_ecall, which
 *               checks every register but a0/a1 after each call, while
 *               the boot hart stops and restarts harts under it and the
 *               harts suspend themselves.  Afterwards every hart still
 *               gets answers and a firmware counter counts its own calls
 *               exactly while every other hart makes the same call.
 *  max harts    bootargs "fwmaxharts=N": harts N and up, started by QEMU
 *               but beyond the firmware's TALLY_MAX_HARTS, are not
 *               offered (get_status and hart_start: INVALID_PARAM).
 *
 * bootargs: "hostile seed=<n> storm=<calls per hart> fwmaxharts=<n>".
 * Everything random comes from the printed seed.
 */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define CLINT_BASE	0x2000000UL	/* QEMU virt */
#define CLINT_SIZE	0x10000UL
#define FW_STACK_SIZE	8192UL		/* Tally's per-hart stack block */
#define SPEC_ERR_LAST	(-13L)		/* the lowest SBI 3.0 error code */

struct regcheck {
	unsigned long in[32], out[32], saved[32];
};
void regcheck_ecall(struct regcheck *rc);
void fetch_at(unsigned long addr);
extern char storm_trap[];
extern volatile unsigned long storm_trap_info[4];	/* taken, scause, sepc, stval */

/* What each hart did, for the boot hart to report. */
struct hostile_hart {
	struct regcheck rc;
	unsigned long seed;
	unsigned long calls, target;	/* storm calls made / to make */
	unsigned long suspends, reg_bad, err_bad;
	char first_bad[160];		/* the first register or error mismatch */
	unsigned long mask;		/* legacy calls' hart mask, in memory */
	volatile bool stop_req;		/* boot hart: stop at the next call */
	volatile bool storm_done;
	unsigned long iso_ok, iso_bad;	/* isolation probes */
	char iso_first[120];
	/* the call in progress, for the report of a hart that hangs */
	volatile unsigned long cur_eid, cur_fid, cur_a0, cur_a1;
	volatile bool in_call;
	unsigned long fw_count;		/* the exact-count check */
	long fw_err;
	/* the only memory random calls may name: a snapshot area's size */
	unsigned char buf[4096] __attribute__((aligned(4096)));
} __attribute__((aligned(4096)));

static struct hostile_hart hh[MAX_HARTS];
static unsigned long fw_size = 0x80000;	/* from /reserved-memory */
static unsigned long storm_calls = 2000;
static unsigned long pmu_fail_hart = -1UL;	/* bootargs pmufail=<id> */

/* ---- randomness: xorshift64*, one stream per hart ----------------------- */

static unsigned long rnd(unsigned long *s)
{
	unsigned long x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DUL;
}

static unsigned long rnd_below(unsigned long *s, unsigned long n)
{
	return rnd(s) % n;
}

static unsigned long parse_num(const char *p, unsigned long fallback)
{
	unsigned long v = 0;
	int base = 10;

	if (!p)
		return fallback;
	if (p[0] == '0' && p[1] == 'x')
		base = 16, p += 2;
	for (; *p && *p != ' '; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : 99;
		if (d >= base)
			break;
		v = v * base + d;
	}
	return v;
}

/* ---- one checked call ----------------------------------------------------- */

static void note_bad(struct hostile_hart *me, const char *fmt, unsigned long a,
		     unsigned long b, unsigned long c, unsigned long d)
{
	if (!me->first_bad[0])
		snprintf(me->first_bad, sizeof(me->first_bad), fmt, a, b, c, d);
}

/*
 * An ecall with every other register random: returns the result, counts
 * the registers that did not come back in me->reg_bad.
 */
static struct sbiret checked_ecall(struct hostile_hart *me, unsigned long eid,
				   unsigned long fid, const unsigned long *a)
{
	struct regcheck *rc = &me->rc;
	unsigned int i;

	for (i = 1; i < 32; i++)
		rc->in[i] = rnd(&me->seed);
	for (i = 0; i < 6; i++)
		rc->in[10 + i] = a[i];
	rc->in[16] = fid;
	rc->in[17] = eid;
	regcheck_ecall(rc);
	for (i = 1; i < 32; i++) {
		if (i == 10 || i == 11 || rc->out[i] == rc->in[i])
			continue;
		me->reg_bad++;
		note_bad(me, "eid %lx fid %lx: x%lu came back %lx", eid, fid, i,
			 rc->out[i]);
	}
	return (struct sbiret){ (long)rc->out[10], rc->out[11] };
}

/* Interrupts stay masked around checked calls: the registers are not the
 * payload's. sie lets a pending timer or IPI end a retentive suspend. */
static unsigned long quiet_begin(void)
{
	unsigned long sie = csr_read(CSR_SIE);

	local_irq_disable();
	csr_write(CSR_SIE, SIE_SSIE | SIE_STIE);
	csr_write(CSR_STVEC, storm_trap);
	return sie;
}

static void quiet_end(unsigned long sie)
{
	csr_write(CSR_STVEC, trap_vector);
	sbi_set_timer(~0ULL);
	csr_clear(CSR_SIP, SIP_SSIP);
	mb();
	ipi_collect(this_hart());
	csr_write(CSR_SIE, sie);
	local_irq_enable();
}

/* ---- stack pairs ---------------------------------------------------------- */

/* On the suspender: a retentive suspend that another hart's IPI ends (a
 * timer 5 s out is the safety net). value = registers changed. */
static struct sbiret suspend_checked(unsigned long a0, unsigned long a1,
				     unsigned long a2)
{
	struct hostile_hart *me = &hh[this_hartid()];
	unsigned long args[6] = { SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0, 0, 0, 0 };
	unsigned long sie = quiet_begin(), bad = me->reg_bad;
	struct sbiret r;

	(void)a0, (void)a1, (void)a2;
	sbi_set_timer(rdtime() + ms_to_ticks(5000));
	r = checked_ecall(me, SBI_EXT_HSM, SBI_HSM_HART_SUSPEND, args);
	quiet_end(sie);
	if (!r.error)
		r.value = me->reg_bad - bad;
	return r;
}

/* On the helper: once s is suspended, start t and wake s when t is up. */
static struct sbiret start_while_suspended(unsigned long s, unsigned long t,
					   unsigned long unused)
{
	struct sbiret r;
	bool entered;

	(void)unused;
	r = wait_status(s, SBI_HSM_SUSPENDED, 2000);
	if (r.error || r.value != SBI_HSM_SUSPENDED)
		return (struct sbiret){ -2000, r.value };
	r = start_secondary(t, next_opaque(t), &entered);
	if (!r.error && !entered)
		r.error = ERR_NO_ANSWER;
	sbi_send_ipi(1, s);
	return r;
}

static struct sbiret run_on(unsigned long hartid, hart_fn fn, unsigned long a,
			    unsigned long b, unsigned long c, unsigned long ms)
{
	if (hartid == boot_hartid)
		return fn(a, b, c);
	return hart_do(hartid, CMD_CALL, (unsigned long)fn, a, b, c, ms);
}

static bool ensure_running(unsigned long id)
{
	bool entered = harts[id].running;

	if (!entered)
		start_secondary(id, next_opaque(id), &entered);
	return entered;
}

static void stack_pairs(void)
{
	unsigned long p, helper = -1UL;

	if (machine.ncpus != 32 || machine.max_hartid != 31) {
		info("stack", "stack-pair checks need harts 0-31 (-smp 32): not run");
		return;
	}
	for (p = 0; p < 16 && helper == -1UL; p++)
		if (p != boot_hartid && 31 - p != boot_hartid)
			helper = p;
	for (p = 0; p < 16; p++) {
		bool boot_in = p == boot_hartid || 31 - p == boot_hartid;
		unsigned long s = boot_in ? boot_hartid : p, t = 31 - s;
		unsigned long h = s == boot_hartid ? helper : boot_hartid;
		struct sbiret r, hr;

		if (!ensure_running(s) || !ensure_running(h)) {
			failf("stack", "hart %lu or %lu did not start", s, h);
			continue;
		}
		if (s == boot_hartid) {
			hart_post(h, CMD_CALL, (unsigned long)start_while_suspended,
				  s, t, 0);
			r = suspend_checked(0, 0, 0);
			hr = hart_result(h, 3000);
		} else {
			hart_post(s, CMD_CALL, (unsigned long)suspend_checked, 0, 0, 0);
			hr = start_while_suspended(s, t, 0);
			r = hart_result(s, 6000);
		}
		check(!hr.error, "stack", sfmt("hart %lu started hart %lu while hart %lu "
		      "was suspended", h, t, s), ret_str(hr));
		check(!r.error && r.value == 0, "stack",
		      sfmt("hart %lu: every register but a0/a1 survives a retentive "
			   "suspend while hart %lu starts (stack blocks %lu/%lu)",
			   s, t, s, t),
		      r.error ? ret_str(r) :
		      sfmt("%lu registers changed, first: %s", r.value, hh[s].first_bad));
		hh[s].first_bad[0] = 0;
	}
}

/* ---- isolation ------------------------------------------------------------ */

static unsigned long try_access(int kind, unsigned long addr)
{
	struct hart *h = this_hart();
	unsigned int v = 0;

	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	if (kind == 0)
		__asm__ __volatile__("lw %0, 0(%1)" : "+r"(v) : "r"(addr) : "memory");
	else if (kind == 1)
		__asm__ __volatile__("sw %0, 0(%1)" :: "r"(~0U), "r"(addr) : "memory");
	else
		fetch_at(addr);
	mb();
	h->trap_armed = false;
	return h->trap_cause;
}

static void probe(struct hostile_hart *me, unsigned long addr)
{
	static const unsigned long want[3] = { EXC_LOAD_ACCESS, EXC_STORE_ACCESS,
					       EXC_INSN_ACCESS };
	static const char *const what[3] = { "load", "store", "fetch" };

	for (int k = 0; k < 3; k++) {
		unsigned long cause = try_access(k, addr);

		if (cause == want[k]) {
			me->iso_ok++;
			continue;
		}
		if (!me->iso_bad++)
			snprintf(me->iso_first, sizeof(me->iso_first),
				 "%s at %lx: scause %lx", what[k], addr, cause);
	}
}

static struct sbiret isolation_probe(unsigned long a0, unsigned long a1,
				     unsigned long a2)
{
	struct hostile_hart *me = &hh[this_hartid()];
	unsigned long a, i;

	(void)a0, (void)a1, (void)a2;
	me->iso_ok = me->iso_bad = 0;
	me->iso_first[0] = 0;
	for (a = 0; a < fw_size; a += 4096)
		probe(me, FW_BASE + a);
	for (a = 0; a < fw_size; a += FW_STACK_SIZE)	/* each stack block's top word */
		probe(me, FW_BASE + a + FW_STACK_SIZE - 8);
	probe(me, FW_BASE + fw_size - 4);
	for (a = 0; a < CLINT_SIZE; a += 4096)
		probe(me, CLINT_BASE + a);
	for (i = 0; i < MAX_HARTS; i++) {
		probe(me, CLINT_BASE + 4 * i);			/* msip */
		probe(me, CLINT_BASE + 0x4000 + 8 * i);		/* mtimecmp */
		probe(me, CLINT_BASE + 0x4000 + 8 * i + 4);
	}
	probe(me, CLINT_BASE + 0xbff8);				/* mtime */
	probe(me, CLINT_BASE + 0xbffc);
	/* AIA: the M-level APLIC domains and IMSIC M-files (whatever the
	 * tree S-mode got says of them: the firmware marks them disabled) */
	for (i = 0; i < machine.naia; i++)
		for (unsigned int r = 0; machine.aia[i].mlevel && r < machine.aia[i].nregs; r++)
			for (a = 0; a < machine.aia[i].regs[r].size; a += 4096)
				probe(me, machine.aia[i].regs[r].base + a);
	return (struct sbiret){ 0, me->iso_bad };
}

static void isolation(const char *when)
{
	unsigned long id, aia_pages = 0;

	for (unsigned int i = 0; i < machine.naia; i++)
		for (unsigned int r = 0; machine.aia[i].mlevel && r < machine.aia[i].nregs; r++)
			aia_pages += (machine.aia[i].regs[r].size + 4095) / 4096;

	for (id = 0; id < MAX_HARTS; id++) {
		struct sbiret r;

		if (!harts[id].running)
			continue;
		r = run_on(id, isolation_probe, 0, 0, 0, 20000);
		check(!r.error && !hh[id].iso_bad && hh[id].iso_ok, "isolation",
		      sfmt("hart %lu (%s): %lu S-mode loads/stores/fetches into the "
			   "firmware, its stacks, the CLINT%s all fault", id, when,
			   hh[id].iso_ok, aia_pages ? sfmt(" and %lu pages of the M-level APLIC "
							   "and IMSIC", aia_pages) : ""),
		      r.error ? ret_str(r) : sfmt("%lu did not fault as they should, "
						 "first: %s", hh[id].iso_bad,
						 hh[id].iso_first));
	}
}

/* ---- storm ---------------------------------------------------------------- */

static unsigned long nr_harts_fw;	/* harts the firmware offers */

/* An address S-mode may not hand over: firmware, CLINT, unmapped, wrapping. */
static unsigned long bad_addr(unsigned long *s)
{
	switch (rnd_below(s, 6)) {
	case 0: return FW_BASE + (rnd_below(s, fw_size) & ~7UL);
	case 1: return FW_BASE + fw_size - 8 - 8 * rnd_below(s, 4);	/* last words */
	case 2: return CLINT_BASE + (rnd_below(s, CLINT_SIZE) & ~3UL);
	case 3: return rnd_below(s, 0x1000000);			/* below RAM */
	case 4: return -1UL - rnd_below(s, 0x10000);		/* wraps */
	default: return 0x100000000000UL + rnd(s) % 0x1000000;	/* unmapped */
	}
}

/* Any argument: small numbers, hart ids, masks, bad addresses, own buffer. */
static unsigned long any_arg(struct hostile_hart *me)
{
	unsigned long *s = &me->seed;

	switch (rnd_below(s, 8)) {
	case 0: return rnd_below(s, 40);
	case 1: return rnd_below(s, 70);		/* hart ids, absent ones too */
	case 2: return rnd(s);				/* masks with absent harts */
	case 3: return -1UL;
	case 4: return (unsigned long)me->buf + rnd_below(s, 64);
	case 5: return rnd(s) & 0xffffffffUL;
	default: return bad_addr(s);
	}
}

/*
 * A hart set (mask, base) for IPI and RFENCE.  Sets naming other harts
 * make the call wait for each of them, which on 32 harts sharing two host
 * cores is slow: one call in eight names random harts, present or not;
 * the others name only the caller, only absent harts, or nothing.
 */
static void hart_set(struct hostile_hart *me, unsigned long *mask,
		     unsigned long *base)
{
	unsigned long *s = &me->seed;

	switch (rnd_below(s, 8)) {
	case 0:
		return;					/* as any_arg chose */
	case 1: case 2: case 3:
		*mask = 1, *base = this_hartid();	/* itself */
		return;
	case 4: case 5:
		*mask = rnd(s) | 1, *base = 64 + rnd_below(s, 1000);	/* absent */
		return;
	default:
		*mask = 0, *base = rnd_below(s, 64);	/* nobody */
		return;
	}
}

/* A random call that cannot end the run or leave the payload. */
static void random_call(struct hostile_hart *me, unsigned long *eid,
			unsigned long *fid, unsigned long *a)
{
	unsigned long *s = &me->seed;
	static const unsigned long eids[] = {
		0, SBI_EXT_BASE, SBI_EXT_TIME, SBI_EXT_IPI, SBI_EXT_RFENCE,
		SBI_EXT_HSM, SBI_EXT_SRST, SBI_EXT_DBCN, SBI_EXT_PMU, 0x4E41434C,
		0x09, 0xffffffffUL,
	};
	unsigned int i;

	for (i = 0; i < 6; i++)
		a[i] = any_arg(me);
	*eid = eids[rnd_below(s, sizeof(eids) / sizeof(eids[0]))];
	*fid = rnd_below(s, 4) ? rnd_below(s, 10) : rnd(s);
	switch (*eid) {
	case 0:		/* legacy: not putchar (noise), not shutdown */
		*eid = rnd_below(s, 8);
		if (*eid == SBI_LEGACY_CONSOLE_PUTCHAR)
			*eid = SBI_LEGACY_CONSOLE_GETCHAR;
		if (*eid >= SBI_LEGACY_SEND_IPI) {	/* a0: pointer to the mask */
			unsigned long base;

			a[0] = rnd_below(s, 2) ? bad_addr(s) : (unsigned long)&me->mask;
			hart_set(me, &me->mask, &base);
			if (base)
				me->mask = rnd(s);
		}
		break;
	case SBI_EXT_IPI:
	case SBI_EXT_RFENCE:
		hart_set(me, &a[0], &a[1]);
		break;
	case SBI_EXT_HSM:
		if (*fid == SBI_HSM_HART_STOP)
			*fid = SBI_HSM_HART_GET_STATUS;
		if (*fid == SBI_HSM_HART_START)
			a[1] = bad_addr(s);		/* never a real entry point */
		if (*fid == SBI_HSM_HART_SUSPEND) {
			a[1] = bad_addr(s);
			if (rnd_below(s, 4) == 0)
				a[0] = SBI_HSM_SUSPEND_NON_RET_DEFAULT;
			else if ((uint32_t)a[0] == SBI_HSM_SUSPEND_RET_DEFAULT)
				a[0] = 1;	/* retentive ones: see storm_suspend
						 * (suspend_type is 32-bit: the
						 * upper half does not count) */
		}
		break;
	case SBI_EXT_SRST:	/* only types no reset has */
		a[0] = 3 + rnd_below(s, 0xfffffff0UL);
		break;
	case SBI_EXT_PMU:	/* shared memory: this hart's buffer or refused */
		if (*fid == PMU_SNAPSHOT_SET_SHMEM || *fid == PMU_EVENT_GET_INFO) {
			a[0] = rnd_below(s, 2) ? (unsigned long)me->buf : bad_addr(s);
			a[1] = rnd_below(s, 4) ? 0 : rnd(s);
		}
		if (*fid == PMU_EVENT_GET_INFO)
			a[2] = rnd_below(s, 4096 / 16 + 1);
		break;
	case SBI_EXT_DBCN:	/* no output: writes from addresses S-mode lacks */
		if (*fid == SBI_DBCN_WRITE_BYTE)
			*fid = 3 + rnd_below(s, 100);
		if (*fid == SBI_DBCN_WRITE) {
			a[1] = bad_addr(s);
			a[2] = 0;
		}
		break;
	}
}

static void check_error_code(struct hostile_hart *me, unsigned long eid,
			     unsigned long fid, struct sbiret r)
{
	if (eid < 0x10)		/* legacy: a0 is a value */
		return;
	if (r.error > 0 || r.error < SPEC_ERR_LAST) {
		me->err_bad++;
		note_bad(me, "eid %lx fid %lx: error %ld is no SBI error code%s",
			 eid, fid, r.error, (unsigned long)"");
	}
}

/* A real retentive suspend that the timer ends 1 ms later. */
static void storm_suspend(struct hostile_hart *me)
{
	unsigned long a[6] = { rdtime() + ms_to_ticks(1), 0, 0, 0, 0, 0 };

	csr_clear(CSR_SIP, SIP_SSIP);
	checked_ecall(me, SBI_EXT_TIME, SBI_TIME_SET_TIMER, a);
	a[0] = SBI_HSM_SUSPEND_RET_DEFAULT;
	checked_ecall(me, SBI_EXT_HSM, SBI_HSM_HART_SUSPEND, a);
	me->suspends++;
	me->calls += 2;
}

static struct sbiret storm_worker(unsigned long a0, unsigned long a1,
				  unsigned long a2)
{
	struct hostile_hart *me = &hh[this_hartid()];
	unsigned long sie = quiet_begin();

	(void)a0, (void)a1, (void)a2;
	while (me->calls < me->target) {
		unsigned long eid, fid, a[6];
		struct sbiret r;

		if (me->stop_req) {	/* the boot hart restarts us later */
			quiet_end(sie);
			me->stop_req = false;
			mb();
			return sbi_hart_stop();
		}
		if (rnd_below(&me->seed, 512) == 0) {
			storm_suspend(me);
			continue;
		}
		random_call(me, &eid, &fid, a);
		me->cur_eid = eid;
		me->cur_fid = fid;
		me->cur_a0 = a[0];
		me->cur_a1 = a[1];
		me->in_call = true;
		r = checked_ecall(me, eid, fid, a);
		me->in_call = false;
		check_error_code(me, eid, fid, r);
		me->calls++;
	}
	quiet_end(sie);
	me->storm_done = true;
	mb();
	return (struct sbiret){ 0, 0 };
}

/* After the storm, on every hart at once: the firmware still answers, and
 * a firmware counter of set_timer calls counts this hart's calls exactly. */
static struct sbiret exact_count(unsigned long n, unsigned long a1,
				 unsigned long a2)
{
	struct hostile_hart *me = &hh[this_hartid()];
	struct sbiret r;
	unsigned long ctr, i, all;

	(void)a1, (void)a2;
	me->fw_count = 0;
	r = sbi_call0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);
	if (r.error)
		return r;
	r = sbi_call0(SBI_EXT_PMU, PMU_NUM_COUNTERS);
	if (r.error)
		return r;
	for (all = 0, i = 0; i < r.value && i < 64; i++)	/* the valid counters */
		if (!sbi_call1(SBI_EXT_PMU, PMU_COUNTER_GET_INFO, i).error)
			all |= 1UL << i;
	sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_STOP, 0, all, STOP_RESET, 0, 0, 0);
	r = sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_CONFIG_MATCHING, 0, all,
		      CFG_CLEAR_VALUE | CFG_AUTO_START, EV_FW(FW_SET_TIMER), 0, 0);
	if (r.error)
		return r;
	ctr = r.value;
	for (i = 0; i < n; i++)
		sbi_set_timer(~0ULL);
	sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_STOP, ctr, 1, 0, 0, 0, 0);
	r = sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_FW_READ, ctr, 0, 0, 0, 0, 0);
	sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_STOP, ctr, 1, STOP_RESET, 0, 0, 0);
	me->fw_count = r.value;
	return r;
}

static void storm(unsigned long seed)
{
	unsigned long id, total = 0, bad = 0, errs = 0, susp = 0, churn = 0;
	unsigned long rs = seed ^ 0xc0ffee;
	unsigned long start = rdtime();
	unsigned int nharts = 0;
	struct sbiret boot_r;

	for (id = 0; id < MAX_HARTS; id++) {
		if (!harts[id].running)
			continue;
		hh[id].seed = (seed + 1) * 0x9E3779B97F4A7C15UL ^ (id << 32) ^ id;
		hh[id].target = storm_calls;
		hh[id].calls = 0;
		hh[id].storm_done = false;
		if (id != boot_hartid)
			hart_post(id, CMD_CALL, (unsigned long)storm_worker, 0, 0, 0);
	}
	/* The boot hart storms in slices, and after each stops and restarts
	 * a random worker (which carries on from where it was). */
	while (hh[boot_hartid].calls < storm_calls) {
		unsigned long step = storm_calls / 10 < 30 ? 30 : storm_calls / 10;
		unsigned long slice = hh[boot_hartid].calls + (step > 500 ? 500 : step);
		unsigned long busy[MAX_HARTS];
		unsigned int n = 0;
		struct sbiret r;
		bool entered;

		hh[boot_hartid].target = slice < storm_calls ? slice : storm_calls;
		storm_worker(0, 0, 0);
		for (id = 0; id < MAX_HARTS; id++)
			if (harts[id].running && id != boot_hartid && !hh[id].storm_done)
				busy[n++] = id;
		if (!n)
			continue;
		id = busy[rnd_below(&rs, n)];
		hh[id].stop_req = true;
		mb();
		/*
		 * The worker may be on its last call: it then ends its storm
		 * without looking at stop_req again (storm_done), and there is
		 * nothing to stop.  Before this, such a race (about one run in
		 * five when the boot hart is not hart 0) was reported as a
		 * hart that "did not stop".
		 */
		WAIT_UNTIL((r = sbi_hart_status(id),
			    hh[id].storm_done ||
			    (!r.error && r.value == SBI_HSM_STOPPED)),
			   3000 * CROSS_HART_SLACK);
		mb();
		if (hh[id].storm_done && !(!r.error && r.value == SBI_HSM_STOPPED)) {
			hh[id].stop_req = false;
			continue;
		}
		if (r.error || r.value != SBI_HSM_STOPPED) {
			failf("storm", "hart %lu did not stop when asked (%s); "
			      "S-mode trap under the storm: %lx scause %lx sepc %lx "
			      "stval %lx", id, ret_str(r), storm_trap_info[0],
			      storm_trap_info[1], storm_trap_info[2],
			      storm_trap_info[3]);
			info("storm", "hart %lu: %lu calls made, %s eid %lx fid %lx "
			     "a0 %lx a1 %lx", id, hh[id].calls,
			     hh[id].in_call ? "inside" : "last",
			     hh[id].cur_eid, hh[id].cur_fid, hh[id].cur_a0,
			     hh[id].cur_a1);
			harts[id].running = false;
			continue;
		}
		r = start_secondary(id, next_opaque(id), &entered);
		if (r.error || !entered) {
			failf("storm", "hart %lu did not restart (%s)", id, ret_str(r));
			continue;
		}
		churn++;
		hart_post(id, CMD_CALL, (unsigned long)storm_worker, 0, 0, 0);
	}
	for (id = 0; id < MAX_HARTS; id++)
		if (harts[id].running && id != boot_hartid &&
		    !WAIT_UNTIL(hh[id].storm_done, 600000)) {
			failf("storm", "hart %lu did not finish its calls (%lu made)",
			      id, hh[id].calls);
			harts[id].running = false;
		}
	for (id = 0; id < MAX_HARTS; id++) {
		if (!harts[id].running)
			continue;
		total += hh[id].calls;
		nharts++;
		bad += hh[id].reg_bad;
		errs += hh[id].err_bad;
		susp += hh[id].suspends;
		if (hh[id].reg_bad || hh[id].err_bad)
			failf("storm", "hart %lu: %lu registers changed, %lu bad error "
			      "codes; first: %s", id, hh[id].reg_bad, hh[id].err_bad,
			      hh[id].first_bad);
	}
	info("storm", "seed %lu: %lu calls on %u harts (%lu each), %lu retentive "
	     "suspends, %lu stop/start cycles, %lu ms", seed, total,
	     nharts, storm_calls, susp, churn,
	     (rdtime() - start) / ms_to_ticks(1));
	check(!bad, "storm", sfmt("%lu random SBI calls: every register but a0/a1 "
	      "preserved by every call", total), sfmt("%lu registers changed", bad));
	check(!errs, "storm", "every answer is an SBI error code",
	      sfmt("%lu calls answered something else", errs));
	check(churn > 0, "storm", sfmt("harts stopped and restarted under the storm "
	      "(%lu times)", churn), "none");

	/* Every hart at once: exact counts, no hart counting another's calls. */
	for (id = 0; id < MAX_HARTS; id++)
		if (harts[id].running && id != boot_hartid)
			hart_post(id, CMD_CALL, (unsigned long)exact_count,
				  100 + id * 7, 0, 0);
	boot_r = exact_count(100 + boot_hartid * 7, 0, 0);
	for (id = 0; id < MAX_HARTS; id++) {
		struct sbiret r;

		if (!harts[id].running)
			continue;
		r = id == boot_hartid ? boot_r : hart_result(id, 20000);
		if (id == pmu_fail_hart) {
			expect_err(r, SBI_ERR_NOT_SUPPORTED, "storm", sfmt("hart %lu "
				   "still answers, NOT_SUPPORTED for its failed PMU", id));
			continue;
		}
		check(!r.error && hh[id].fw_count == 100 + id * 7, "storm",
		      sfmt("hart %lu still answers and its set_timer firmware counter "
			   "counts exactly its own %lu calls", id, 100 + id * 7),
		      r.error ? ret_str(r) : sfmt("counted %lu", hh[id].fw_count));
	}
}

/* ---- a hart whose PMU set-up failed (TALLY_TEST_PMU_FAIL_HART) ---------- */

static struct sbiret pmu_probe_all(unsigned long a0, unsigned long a1,
				   unsigned long a2)
{
	struct hostile_hart *me = &hh[this_hartid()];
	unsigned long fid, args[6], bad = 0, i;
	struct sbiret r;

	(void)a0, (void)a1, (void)a2;
	me->fw_err = sbi_probe(SBI_EXT_PMU);
	for (fid = 0; fid < 12; fid++) {
		for (i = 0; i < 6; i++)
			args[i] = any_arg(me);
		if (fid == PMU_SNAPSHOT_SET_SHMEM || fid == PMU_EVENT_GET_INFO)
			args[0] = (unsigned long)me->buf, args[1] = 0;
		r = sbi_ecall(SBI_EXT_PMU, fid, args[0], args[1], args[2], args[3],
			      args[4], args[5]);
		bad += r.error != SBI_ERR_NOT_SUPPORTED;
	}
	return (struct sbiret){ 0, bad };
}

static void pmu_failed_hart(void)
{
	unsigned long id = pmu_fail_hart;
	struct sbiret r;

	if (id == -1UL)
		return;
	if (id >= MAX_HARTS || !ensure_running(id)) {
		failf("pmufail", "hart %lu (PMU set-up failed) did not start", id);
		return;
	}
	hh[id].seed = 0x5eed + id;
	r = run_on(id, pmu_probe_all, 0, 0, 0, 5000);
	check(!r.error && hh[id].fw_err == 0, "pmufail", sfmt("hart %lu, whose PMU "
	      "set-up failed: probe_extension(PMU) = 0", id),
	      r.error ? ret_str(r) : "probe says PMU");
	check(!r.error && !r.value, "pmufail", sfmt("hart %lu: every PMU FID (7 "
	      "and 8 included) answers NOT_SUPPORTED, no fault", id),
	      r.error ? ret_str(r) : sfmt("%lu answers differ", r.value));
	if (id != boot_hartid)
		check(sbi_probe(SBI_EXT_PMU) == 1, "pmufail", sfmt("boot hart %lu "
		      "still has its PMU", boot_hartid), "probe says no");
}

/* ---- TALLY_MAX_HARTS ------------------------------------------------------ */

static void max_harts(unsigned long fwmax, bool check_beyond)
{
	unsigned int i, beyond = 0;

	nr_harts_fw = 0;
	for (i = 0; i < machine.ncpus && i < FDT_MAX_CPUS; i++) {
		unsigned long id = machine.hartids[i];
		struct sbiret r;

		if (id < fwmax) {
			nr_harts_fw++;
			continue;
		}
		beyond++;
		if (!check_beyond)
			continue;
		r = sbi_hart_status(id);
		expect_err(r, SBI_ERR_INVALID_PARAM, "maxharts",
			   sfmt("hart_get_status(%lu), beyond TALLY_MAX_HARTS=%lu: "
				"INVALID_PARAM", id, fwmax));
		r = sbi_hart_start(id, (unsigned long)secondary_entry, 0);
		expect_err(r, SBI_ERR_INVALID_PARAM, "maxharts",
			   sfmt("hart_start(%lu), beyond TALLY_MAX_HARTS=%lu: "
				"INVALID_PARAM", id, fwmax));
		r = sbi_send_ipi(1, id);
		expect_err(r, SBI_ERR_INVALID_PARAM, "maxharts",
			   sfmt("send_ipi to hart %lu, beyond TALLY_MAX_HARTS: "
				"INVALID_PARAM", id));
	}
	if (check_beyond)
		check(beyond > 0, "maxharts", sfmt("QEMU started %u harts beyond "
		      "TALLY_MAX_HARTS=%lu", beyond, fwmax), "none: run with more harts");
}

void test_hostile(void)
{
	unsigned long seed = parse_num(boot_arg(machine.bootargs, "seed="), 1);
	unsigned long fwmax = parse_num(boot_arg(machine.bootargs, "fwmaxharts="),
					MAX_HARTS);
	unsigned int i, up = 0;

	pmu_fail_hart = parse_num(boot_arg(machine.bootargs, "pmufail="), -1UL);
	storm_calls = parse_num(boot_arg(machine.bootargs, "storm="), storm_calls);
	for (i = 0; i < machine.nresv; i++)
		if (machine.resv[i].base == FW_BASE)
			fw_size = machine.resv[i].size;
	info("hostile", "seed %lu, %u harts, firmware region %lx+%lx, %lu storm "
	     "calls per hart", seed, machine.ncpus, FW_BASE, fw_size, storm_calls);
	max_harts(fwmax, boot_arg(machine.bootargs, "fwmaxharts=") != NULL);
	stack_pairs();
	for (i = 0; i < nr_secondaries; i++) {
		unsigned long id = secondaries[i];
		bool entered = harts[id].running;

		if (id < fwmax && !entered)
			start_secondary(id, next_opaque(id), &entered);
		up += entered;
	}
	check(up == (nr_harts_fw ? nr_harts_fw - 1 : 0), "hostile",
	      sfmt("%u secondary harts running", up),
	      sfmt("want %lu", nr_harts_fw - 1));
	isolation("started after boot");
	pmu_failed_hart();
	if (!storm_calls)
		return;
	storm(seed);
	isolation("after the storm's stops and restarts");
}
