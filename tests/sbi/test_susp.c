/* SUSP extension (EID 0x53555350): system suspend to RAM. Refused while
 * another hart runs, with bad sleep types and with resume addresses
 * S-mode cannot run at; then the boot hart suspends, its timer wakes it,
 * and it must come back at resume_addr with a0 = hartid, a1 = opaque,
 * satp = 0, sstatus.SIE = 0, its PMU counters and FWFT state kept.
 * Run after test_fwft (run "fwft-susp"), which leaves the boot hart's
 * MISALIGNED_EXC_DELEG locked at 1. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define SUSP_RESUMED	1	/* susp_call came back through susp_resume */
#define WAKE_MS		50UL

/* Filled by susp_asm.S: keep the layout in step with its CTX_* offsets. */
struct susp_ctx {
	unsigned long ra, sp, gp, tp, s[12], stvec;
	unsigned long a0, a1, satp, sstatus;	/* found at susp_resume */
};
_Static_assert(__builtin_offsetof(struct susp_ctx, stvec) == 16 * SZREG, "ctx");
_Static_assert(__builtin_offsetof(struct susp_ctx, sstatus) == 20 * SZREG, "ctx");
struct susp_ctx susp_ctx;

long susp_call(unsigned long sleep_type, unsigned long resume_addr,
	       unsigned long opaque) __attribute__((returns_twice));
extern char susp_resume[];

/*
 * system_suspend with the timer armed WAKE_MS ahead as the only wake-up
 * source S-mode enabled (sstatus.SIE clear, so waking takes no trap), so
 * that a suspend that wrongly goes ahead also comes back. Returns the
 * error, or SUSP_RESUMED; *ticks = how long the call took.
 */
static long suspend(unsigned long type, unsigned long addr,
		    unsigned long opaque, unsigned long *ticks)
{
	unsigned long t0, sie = csr_read(CSR_SIE);
	long r;

	local_irq_disable();
	csr_write(CSR_SIE, SIE_STIE);
	t0 = rdtime();
	sbi_set_timer(t0 + ms_to_ticks(WAKE_MS));
	r = susp_call(type, addr, opaque);
	if (ticks)
		*ticks = rdtime() - t0;
	sbi_set_timer(~0ULL);
	csr_write(CSR_SIE, sie);
	local_irq_enable();
	return r;
}

static const char *err_name(long e)
{
	switch (e) {
	case SUSP_RESUMED:		return "a suspend and resume";
	case 0:				return "0";
	case SBI_ERR_NOT_SUPPORTED:	return "NOT_SUPPORTED";
	case SBI_ERR_INVALID_PARAM:	return "INVALID_PARAM";
	case SBI_ERR_DENIED:		return "DENIED";
	case SBI_ERR_INVALID_ADDRESS:	return "INVALID_ADDRESS";
	default:			return sfmt("error %ld", e);
	}
}

static void expect_refused(unsigned long type, unsigned long addr, long want,
			   const char *why)
{
	long r = suspend(type, addr, 0x0bad0bad, NULL);

	check(r == want, "susp",
	      sfmt("system_suspend(%lx, %lx) %s returns %s", type, addr, why,
		   err_name(want)),
	      sfmt("got %s", err_name(r)));
}

static void check_args(void)
{
	const unsigned long entry = (unsigned long)susp_resume;
	const unsigned long ram_end = machine.mem.base + machine.mem.size;
	static const unsigned long bad_types[] = {
		1, 0x7fffffff, 0x80000000, 0xffffffff,
		HI32(0xffffffff) | 1,	/* upper bits; reserved 1 below */
	};
	const unsigned long bad_addrs[] = {
		FW_BASE, FW_BASE + 0x1000, 0, 0x1000, ram_end, ram_end - 2,
		machine.mem.base - 4, ~0UL - 3, entry + 1,
		/* RV32 has no bit 63; bit 31 is set in entry already */
		sizeof(long) == 8 ? HI32(0x80000000) | entry : ram_end + 0x1000,
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++)
		expect_refused(bad_types[i], entry, SBI_ERR_INVALID_PARAM,
			       "(reserved or platform sleep type)");
	for (i = 0; i < sizeof(bad_addrs) / sizeof(bad_addrs[0]); i++)
		expect_refused(SBI_SUSP_SUSPEND_TO_RAM, bad_addrs[i],
			       SBI_ERR_INVALID_ADDRESS,
			       "(firmware, not RAM, straddling its end, odd)");
}

/* A firmware counter (SET_TIMER, running) and a programmable hardware
 * counter (DTLB read misses, stopped at a value S-mode chose): what the
 * PMU has before the suspend must be there after it. (A stopped
 * cycle/instret counter would not do: QEMU 7.2 answers every read after
 * the first with the last value written to it, see test_pmu.c.) */
#define HW_INIT_VALUE	0x123456789abcULL

struct counters {
	unsigned long fw_idx, hw_idx, fw;
	uint64_t hw;
};

static unsigned long programmable_mask(void)
{
	unsigned long num = pmu_num_counters().value, mask = 0;

	for (unsigned long i = 3; i < num && i < 32; i++) {
		struct sbiret r = pmu_get_info(i);

		if (!r.error && !(r.value & CTR_INFO_FW))
			mask |= 1UL << i;
	}
	return mask;
}

static bool counters_setup(struct counters *c)
{
	struct sbiret r;

	r = pmu_config(0, pmu_fw_counter_mask(),
		       CFG_CLEAR_VALUE | CFG_AUTO_START, EV_FW(FW_SET_TIMER), 0);
	if (!check(!r.error, "susp", "PMU: a firmware counter for SET_TIMER",
		   ret_str(r)))
		return false;
	c->fw_idx = r.value;
	r = pmu_config(0, programmable_mask(), 0, EV_DTLB_READ_MISS, 0);
	if (!check(!r.error, "susp", "PMU: a programmable counter for DTLB "
		   "read misses", ret_str(r)))
		return false;
	c->hw_idx = r.value;
	r = pmu_start(c->hw_idx, 1, START_SET_INIT_VALUE, HW_INIT_VALUE);
	if (!r.error)
		r = pmu_stop(c->hw_idx, 1, 0);
	return check(!r.error, "susp", "PMU: DTLB counter started at "
		     "123456789abc and stopped", ret_str(r));
}

static void counters_read(struct counters *c)
{
	c->fw = pmu_fw_read(c->fw_idx).value;
	unsigned long csr = CTR_INFO_CSR(pmu_get_info(c->hw_idx).value) - 0xc00;

	/* the counter is stopped: one read of each half, the moving one first */
	c->hw = pmu_csr_read(csr);
#if __riscv_xlen == 32
	c->hw |= (uint64_t)pmu_csr_read_hi(csr) << 32;
#endif
}

/* DBTR across the suspend: a store trigger S-mode installed still fires
 * after it, and the shared memory is kept (the firmware clears the
 * hardware triggers for the sleep and programs them again on resume). */
static struct { unsigned long w0, tdata1, tdata2, tdata3; }
	dbtr_shmem[4] __attribute__((aligned(64)));
static volatile unsigned long dbtr_watched;

#define DBTR_STORE_S(type)	((type) << (__riscv_xlen - 4) | 1UL << 1 | 1UL << 4)

/* Installs the trigger; its index, or -1 without DBTR. */
static unsigned long dbtr_arm(void)
{
	unsigned long type;
	struct sbiret r;

	if (!sbi_probe(SBI_EXT_DBTR))
		return -1UL;
	type = sbi_call1(SBI_EXT_DBTR, SBI_DBTR_NUM_TRIGGERS,
			 6UL << (__riscv_xlen - 4)).value ? 6 : 2;
	r = sbi_call3(SBI_EXT_DBTR, SBI_DBTR_SET_SHMEM, (unsigned long)dbtr_shmem, 0, 0);
	if (!r.error) {
		dbtr_shmem[0].w0 = 0;
		dbtr_shmem[0].tdata1 = DBTR_STORE_S(type);
		dbtr_shmem[0].tdata2 = (unsigned long)&dbtr_watched;
		dbtr_shmem[0].tdata3 = 0;
		mb();
		r = sbi_call1(SBI_EXT_DBTR, SBI_DBTR_INSTALL, 1);
	}
	return check(!r.error, "susp", "DBTR: a store trigger installed before the "
		     "suspend", ret_str(r)) ? dbtr_shmem[0].w0 : -1UL;
}

/* scause of a store to dbtr_watched (0: no trap). */
static unsigned long dbtr_store_cause(void)
{
	struct hart *h = this_hart();

	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	dbtr_watched = 1;
	mb();
	h->trap_armed = false;
	return h->trap_cause;
}

static void dbtr_check_kept(unsigned long idx)
{
	struct sbiret r;

	if (idx == -1UL)
		return;
	check(dbtr_store_cause() == 3, "susp",
	      "resume: S-mode's debug trigger still fires (breakpoint on the store)",
	      "no breakpoint");
	dbtr_shmem[0].w0 = 0xdead;
	r = sbi_call2(SBI_EXT_DBTR, SBI_DBTR_READ, idx, 1);
	check(!r.error && dbtr_shmem[0].tdata2 == (unsigned long)&dbtr_watched &&
	      (dbtr_shmem[0].w0 & 1), "susp",
	      "resume: DBTR shared memory kept, read_triggers shows the trigger",
	      sfmt("%s state %lx", ret_str(r), dbtr_shmem[0].w0));
	sbi_call2(SBI_EXT_DBTR, SBI_DBTR_UNINSTALL, idx, 1);
	sbi_call3(SBI_EXT_DBTR, SBI_DBTR_SET_SHMEM, -1UL, -1UL, 0);
}

static void check_resume(unsigned long type)
{
	unsigned long opaque = 0x5eed5eed00000000UL | type, ticks = 0;
	struct counters before, after;
	long r;
	unsigned int i;

	unsigned long dbtr_idx;

	if (!counters_setup(&before))
		return;
	dbtr_idx = dbtr_arm();
	if (dbtr_idx != -1UL)
		check(dbtr_store_cause() == 3, "susp", "DBTR: it fires before the suspend",
		      "no breakpoint");
	after = before;		/* the indices */
	susp_ctx.a0 = susp_ctx.a1 = -1UL;
	susp_ctx.satp = susp_ctx.sstatus = -1UL;
	/* suspend() arms the timer (one SET_TIMER) before the call */
	counters_read(&before);
	before.fw++;
	r = suspend(type, (unsigned long)susp_resume, opaque, &ticks);
	counters_read(&after);
	after.fw--;		/* suspend() disarms the timer after the call */
	if (!check(r == SUSP_RESUMED, "susp",
		   sfmt("system_suspend(%lx) suspends and resumes at "
			"resume_addr", type),
		   sfmt("returned %s", err_name(r))))
		return;
	check(susp_ctx.a0 == boot_hartid && susp_ctx.a1 == opaque, "susp",
	      "resume: a0 = hartid, a1 = opaque",
	      sfmt("a0=%lx a1=%lx", susp_ctx.a0, susp_ctx.a1));
	check(susp_ctx.satp == 0 && !(susp_ctx.sstatus & SSTATUS_SIE), "susp",
	      "resume: satp = 0, sstatus.SIE = 0",
	      sfmt("satp=%lx sstatus=%lx", susp_ctx.satp, susp_ctx.sstatus));
	check(ticks >= ms_to_ticks(WAKE_MS), "susp",
	      sfmt("the hart slept until its timer (%lu ms) woke it", WAKE_MS),
	      sfmt("back after %lu ticks", ticks));
	check(after.fw == before.fw && after.hw == before.hw &&
	      before.hw >= HW_INIT_VALUE, "susp",
	      "resume: PMU counters kept (firmware SET_TIMER, stopped DTLB "
	      "counter)", sfmt("fw %lu -> %lu, DTLB %llx -> %llx", before.fw,
			       after.fw, (unsigned long long)before.hw,
			       (unsigned long long)after.hw));
	expect_val(sbi_hart_status(boot_hartid), SBI_HSM_STARTED, "susp",
		   "resume: the hart is STARTED");
	for (i = 0; i < nr_secondaries; i++)
		expect_val(sbi_hart_status(secondaries[i]), SBI_HSM_STOPPED,
			   "susp", sfmt("resume: hart %lu still STOPPED",
					secondaries[i]));
	expect_val(sbi_call1(SBI_EXT_FWFT, SBI_FWFT_GET,
			     FWFT_MISALIGNED_EXC_DELEG), 1, "susp",
		   "resume: FWFT MISALIGNED_EXC_DELEG still 1");
	expect_err(sbi_call3(SBI_EXT_FWFT, SBI_FWFT_SET,
			     FWFT_MISALIGNED_EXC_DELEG, 0, 0),
		   SBI_ERR_DENIED_LOCKED, "susp",
		   "resume: FWFT lock kept (set returns DENIED_LOCKED)");
	dbtr_check_kept(dbtr_idx);
	pmu_release(before.fw_idx);
	pmu_release(before.hw_idx);
}

static void start_stopped_secondaries(void)
{
	bool entered;

	for (unsigned int i = 0; i < nr_secondaries; i++)
		if (!harts[secondaries[i]].running && !harts[secondaries[i]].lost)
			start_secondary(secondaries[i],
					next_opaque(secondaries[i]), &entered);
}

/* A hart in HSM retentive suspend is not STOPPED either. */
static void check_denied_suspended(void)
{
	unsigned long id = -1UL;
	struct sbiret r;

	for (unsigned int i = 0; i < nr_secondaries && id == -1UL; i++)
		if (harts[secondaries[i]].running)
			id = secondaries[i];
	if (id == -1UL) {
		skip("susp", "DENIED while a hart is SUSPENDED", "none runs");
		return;
	}
	/* its timer is only a fallback: an IPI wakes it after the check (a
	 * short timer could end the suspend before a loaded host looks) */
	hart_post(id, CMD_SUSPEND, SBI_HSM_SUSPEND_RET_DEFAULT, 0, 0,
		  ms_to_ticks(20000));
	r = wait_status(id, SBI_HSM_SUSPENDED, 300);
	if (check(!r.error && r.value == SBI_HSM_SUSPENDED, "susp",
		  sfmt("hart %lu in retentive suspend", id), ret_str(r)))
		expect_refused(SBI_SUSP_SUSPEND_TO_RAM,
			       (unsigned long)susp_resume, SBI_ERR_DENIED,
			       sfmt("(hart %lu SUSPENDED)", id));
	send_ipi_to(id);
	r = hart_result(id, 1300);
	expect_err(r, 0, "susp", sfmt("hart %lu back from its suspend", id));
	if (r.error) {
		harts[id].running = false;
		harts[id].lost = true;
	}
}

static void stop_secondaries(void)
{
	for (unsigned int i = 0; i < nr_secondaries; i++) {
		unsigned long id = secondaries[i];

		if (!harts[id].running)
			continue;
		hart_post(id, CMD_STOP, 0, 0, 0, 0);
		expect_val(wait_status(id, SBI_HSM_STOPPED, 1000),
			   SBI_HSM_STOPPED, "susp",
			   sfmt("hart %lu stopped for the suspend", id));
		harts[id].running = false;
	}
}

void test_susp(void)
{
	if (!check(sbi_probe(SBI_EXT_SUSP) == 1, "susp",
		   "probe_extension(SUSP) returns 1", "not offered"))
		return;
	expect_err(sbi_call3(SBI_EXT_SUSP, SBI_SUSP_SYSTEM_SUSPEND + 1, 0,
			     (unsigned long)susp_resume, 0),
		   SBI_ERR_NOT_SUPPORTED, "susp",
		   "unknown FID 1 returns NOT_SUPPORTED");
	start_stopped_secondaries();
	if (running_mask() != 1UL << boot_hartid)
		expect_refused(SBI_SUSP_SUSPEND_TO_RAM,
			       (unsigned long)susp_resume, SBI_ERR_DENIED,
			       "(other harts running)");
	else
		skip("susp", "DENIED while other harts run", "none runs");
	check_denied_suspended();
	stop_secondaries();
	check_args();
	check_resume(SBI_SUSP_SUSPEND_TO_RAM);
	/* sleep_type is a uint32_t: the upper half is ignored */
	check_resume(HI32(1) | SBI_SUSP_SUSPEND_TO_RAM);
	check_resume(HI32(0xffffffff) | SBI_SUSP_SUSPEND_TO_RAM);
}
