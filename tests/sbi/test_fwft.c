/* FWFT extension (EID 0x46574654): set/get of every feature, the error
 * rows of both functions, the lock, the per-hart state across
 * non-retentive suspend and hart_start, and whether
 * MISALIGNED_EXC_DELEG really moves misaligned traps from M-mode to
 * S-mode. Run with the secondaries started (run "fwft-susp"). */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define FW_MISALIGNED_STORE	1
#define ERR_NO_TRAP		(-1002L)	/* local: the access did not trap */
#define WAKE_MS			50

static struct sbiret fwft_get(unsigned long feature)
{
	return sbi_call1(SBI_EXT_FWFT, SBI_FWFT_GET, feature);
}

/* ---- which mode takes a misaligned access ---- */

unsigned long pmu_fw_counter_mask(void)
{
	unsigned long num = pmu_num_counters().value, mask = 0;

	for (unsigned long i = 0; i < num && i < __riscv_xlen; i++) {
		struct sbiret r = pmu_get_info(i);

		if (!r.error && (r.value & CTR_INFO_FW))
			mask |= 1UL << i;
	}
	return mask;
}

/* QEMU performs misaligned plain loads and stores itself but raises
 * address-misaligned on atomics: LR.W for a load (cause 4), AMOADD.W for
 * a store/AMO (cause 6). Returns the scause S-mode saw, 0 if none. */
static unsigned long provoke_misaligned(bool store, unsigned long *tval)
{
	static volatile uint64_t words[2];
	unsigned long addr = (unsigned long)words + 1, val = 0;
	struct hart *h = this_hart();

	h->trap_cause = 0;
	h->trap_tval = 0;
	h->trap_armed = true;
	mb();
	if (store)
		__asm__ __volatile__(".option push\n.option norvc\n"
				     "amoadd.w zero, zero, (%0)\n.option pop"
				     : : "r"(addr) : "memory");
	else
		__asm__ __volatile__(".option push\n.option norvc\n"
				     "lr.w %0, (%1)\n.option pop"
				     : "+r"(val) : "r"(addr) : "memory");
	mb();
	h->trap_armed = false;
	*tval = h->trap_tval == addr;
	return h->trap_cause;
}

/*
 * On the calling hart: provokes one misaligned store (arg 1) or load
 * (arg 0) and counts it with the PMU's firmware events, which only the
 * firmware's trap path increments. value = 1: M-mode took the trap and
 * forwarded it; 0: the trap went straight to S-mode. error ERR_NO_TRAP
 * (value = scause) if S-mode did not see a misaligned trap with stval.
 * Both events are counted: QEMU 7.2 with one hart reports a misaligned
 * AMO as a misaligned load (cause 4), with several as a store (cause 6).
 */
static struct sbiret misaligned_path(unsigned long store, unsigned long b, unsigned long c)
{
	(void)b;
	(void)c;
	unsigned long mask = pmu_fw_counter_mask(), cause = 0, tval_ok = 0, n = 0;
	unsigned long idx[2] = { -1UL, -1UL };
	struct sbiret r = { 0, 0 };

	for (unsigned int i = 0; i < 2 && !r.error; i++) {
		r = pmu_config(0, mask, CFG_CLEAR_VALUE | CFG_AUTO_START,
			       EV_FW(i ? FW_MISALIGNED_STORE : FW_MISALIGNED_LOAD), 0);
		idx[i] = r.value;
	}
	if (!r.error) {
		cause = provoke_misaligned(store, &tval_ok);
		for (unsigned int i = 0; i < 2; i++)
			n += pmu_fw_read(idx[i]).value;
	}
	for (unsigned int i = 0; i < 2; i++)
		if (idx[i] != -1UL)
			pmu_release(idx[i]);
	if (r.error)
		return r;
	if (!(cause == 4 || (store && cause == 6)) || !tval_ok)
		return (struct sbiret){ ERR_NO_TRAP, cause };
	return (struct sbiret){ 0, n };
}

static void check_path(unsigned long id, bool delegated, const char *when)
{
	static const char *const kinds[] = { "load", "store" };

	for (unsigned long store = 0; store < 2; store++) {
		struct sbiret r = id == boot_hartid ? misaligned_path(store, 0, 0) :
			hart_do(id, CMD_CALL, (unsigned long)misaligned_path,
				store, 0, 0, 1000);

		check(!r.error && r.value == !delegated, "fwft",
		      sfmt("hart %lu %s: a misaligned %s reaches S-mode %s", id,
			   when, kinds[store],
			   delegated ? "directly (delegated)" :
				       "forwarded by M-mode"),
		      r.error == ERR_NO_TRAP ?
			sfmt("S-mode saw scause=%lx", r.value) :
			sfmt("%s (firmware event count)", ret_str(r)));
	}
}

/* ---- calls on another hart ---- */

static struct sbiret remote_fwft(unsigned long id, unsigned long fid,
				 unsigned long feature, unsigned long value,
				 unsigned long flags)
{
	struct hart_ecall c = { SBI_EXT_FWFT, fid, { feature, value, flags } };

	if (id == boot_hartid)
		return sbi_call3(SBI_EXT_FWFT, fid, feature, value, flags);
	return hart_do(id, CMD_ECALL, (unsigned long)&c, 0, 0, 0, 1000);
}

static void expect_get(unsigned long id, unsigned long feature,
		       unsigned long want, const char *when)
{
	expect_val(remote_fwft(id, SBI_FWFT_GET, feature, 0, 0), want, "fwft",
		   sfmt("hart %lu %s: get(%lx) = %lu", id, when, feature, want));
}

static void expect_set(unsigned long id, unsigned long feature,
		       unsigned long value, unsigned long flags, long want,
		       const char *when)
{
	static const char *const names[] = {
		[0] = "0", [2] = "NOT_SUPPORTED", [3] = "INVALID_PARAM",
		[4] = "DENIED", [14] = "DENIED_LOCKED",
	};

	expect_err(remote_fwft(id, SBI_FWFT_SET, feature, value, flags), want,
		   "fwft", sfmt("hart %lu %s: set(%lx, %lx, flags %lx) returns %s",
				id, when, feature, value, flags, names[-want]));
}

/* ---- the groups ---- */

static void check_reserved(void)
{
	/* the ends of each range; the last two: upper register bits set,
	 * the low 32 bits (reserved 6, platform 0x40000000) decide */
	static const unsigned long ids[] = {
		0x6, 0x3fffffff, 0x40000000, 0x7fffffff, 0x80000000,
		0xbfffffff, 0xc0000000, 0xffffffff, HI32(0xffffffff) | 6,
		HI32(1) | 0x40000000,
	};

	for (unsigned int i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct sbiret r = fwft_get(ids[i]);

		check(r.error == SBI_ERR_DENIED && r.value == 0, "fwft",
		      sfmt("get(%lx) (reserved or platform-specific) returns "
			   "DENIED, value 0", ids[i]), ret_str(r));
		expect_set(boot_hartid, ids[i], 1, 0, SBI_ERR_DENIED, "");
		expect_set(boot_hartid, ids[i], 0, FWFT_FLAG_LOCK,
			   SBI_ERR_DENIED, "");
	}
}

/* Features 1-5 need ISA extensions QEMU 7.2 does not have: the firmware
 * must find that out and say NOT_SUPPORTED; a hart whose riscv,isa names
 * the extension must let them be set and read back. */
static void check_isa_features(void)
{
	static const char *const isa_names[] = {
		[FWFT_LANDING_PAD] = "zicfilp", [FWFT_SHADOW_STACK] = "zicfiss",
		[FWFT_DOUBLE_TRAP] = "ssdbltrp",
		[FWFT_PTE_AD_HW_UPDATING] = "svadu",
		[FWFT_POINTER_MASKING_PMLEN] = "ssnpm",
	};

	for (unsigned long f = FWFT_LANDING_PAD;
	     f <= FWFT_POINTER_MASKING_PMLEN; f++) {
		bool has = machine.cpu_isa &&
			   isa_has_multi(machine.cpu_isa, isa_names[f]);

		if (has) {
			expect_get(boot_hartid, f, 0, "(reset value)");
			expect_set(boot_hartid, f, 0, 0, 0, "");
			expect_set(boot_hartid, f, 2, 0, SBI_ERR_INVALID_PARAM,
				   "");
			continue;
		}
		{
			struct sbiret r = fwft_get(f);

			/* "In case of failure, the content of sbiret.value is zero" */
			check(r.error == SBI_ERR_NOT_SUPPORTED && r.value == 0, "fwft",
			      sfmt("get(%lu) (hart has no %s) returns NOT_SUPPORTED, "
				   "value 0", f, isa_names[f]), ret_str(r));
		}
		expect_err(fwft_get(HI32(0x80000000) | f), SBI_ERR_NOT_SUPPORTED,
			   "fwft", sfmt("get(%lx) (upper bits, feature %lu) "
					"returns NOT_SUPPORTED", HI32(0x80000000) | f, f));
		expect_set(boot_hartid, f, 0, 0, SBI_ERR_NOT_SUPPORTED,
			   sfmt("(no %s)", isa_names[f]));
		expect_set(boot_hartid, f, 1, FWFT_FLAG_LOCK,
			   SBI_ERR_NOT_SUPPORTED, sfmt("(no %s)", isa_names[f]));
	}
}

static void check_misaligned_boot(void)
{
	const unsigned long f = FWFT_MISALIGNED_EXC_DELEG;
	static const unsigned long bad_values[] = {
		2, 0xffffffff, HI32(1) | 2, ~0UL,
	};
	static const unsigned long bad_flags[] = { 2, HI32(1) | 2, ~0UL };
	unsigned int i;

	expect_get(boot_hartid, f, 0, "(reset value)");
	for (i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		expect_set(boot_hartid, f, bad_values[i], 0,
			   SBI_ERR_INVALID_PARAM, "(bad value)");
	for (i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++)
		expect_set(boot_hartid, f, 1, bad_flags[i],
			   SBI_ERR_INVALID_PARAM, "(reserved flag bits)");
	expect_get(boot_hartid, f, 0, "after refused sets");
	check_path(boot_hartid, false, "at reset");

	expect_set(boot_hartid, f, 1, 0, 0, "");
	expect_get(boot_hartid, f, 1, "after set 1");
	check_path(boot_hartid, true, "after set 1");
	expect_set(boot_hartid, f, 1, 0, 0, "(same value again)");

	/* feature is a uint32_t: the upper half of the register is ignored */
	expect_set(boot_hartid, HI32(1) | f, 0, 0, 0, "(upper bits)");
	expect_get(boot_hartid, HI32(0xffffffff) | f, 0, "(upper bits)");
	check_path(boot_hartid, false, "after set 0");
}

static void check_lock_on(unsigned long id)
{
	const unsigned long f = FWFT_MISALIGNED_EXC_DELEG;

	expect_get(id, f, 0, "(reset value, another hart's value is not seen)");
	expect_set(id, f, 1, FWFT_FLAG_LOCK, 0, "(lock)");
	expect_set(id, f, 0, 0, SBI_ERR_DENIED_LOCKED, "(locked)");
	expect_set(id, f, 0, FWFT_FLAG_LOCK, SBI_ERR_DENIED_LOCKED,
		   "(locked)");
	expect_set(id, f, 1, 0, SBI_ERR_DENIED_LOCKED,
		   "(locked, same value)");
	expect_set(id, HI32(1) | f, 0, 0, SBI_ERR_DENIED_LOCKED,
		   "(locked, upper bits)");
	expect_get(id, f, 1, "(locked)");
	check_path(id, true, "locked at 1");
}

/* Non-retentive suspend keeps feature values and locks (SBI spec). */
static void check_non_retentive(unsigned long id)
{
	unsigned long old = harts[id].entries;
	bool resumed;

	hart_post(id, CMD_SUSPEND, SBI_HSM_SUSPEND_NON_RET_DEFAULT,
		  (unsigned long)secondary_entry, next_opaque(id),
		  ms_to_ticks(WAKE_MS));
	resumed = wait_entry(id, old, 1000 + WAKE_MS);
	if (!check(resumed, "fwft", sfmt("hart %lu resumes from non-retentive "
					 "suspend", id), "it did not")) {
		harts[id].lost = true;
		harts[id].running = false;
		return;
	}
	hart_result(id, 10);
	expect_get(id, FWFT_MISALIGNED_EXC_DELEG, 1, "after non-retentive suspend");
	expect_set(id, FWFT_MISALIGNED_EXC_DELEG, 0, 0, SBI_ERR_DENIED_LOCKED,
		   "after non-retentive suspend");
	check_path(id, true, "after non-retentive suspend");
}

/* hart_start is a hart reset: values back to reset, locks gone. */
static void check_restart(unsigned long id)
{
	bool entered;

	hart_post(id, CMD_STOP, 0, 0, 0, 0);
	if (!check(!wait_status(id, SBI_HSM_STOPPED, 1000).error, "fwft",
		   sfmt("hart %lu stops", id), "hart_get_status failed"))
		return;
	harts[id].running = false;
	start_secondary(id, next_opaque(id), &entered);
	if (!check(entered, "fwft", sfmt("hart %lu restarts", id), "it did not"))
		return;
	expect_get(id, FWFT_MISALIGNED_EXC_DELEG, 0, "after stop/start");
	check_path(id, false, "after stop/start");
	expect_set(id, FWFT_MISALIGNED_EXC_DELEG, 1, 0, 0,
		   "after stop/start (lock gone)");
	expect_set(id, FWFT_MISALIGNED_EXC_DELEG, 0, 0, 0,
		   "after stop/start (lock gone)");
}

void test_fwft(void)
{
	unsigned long id = -1UL;
	unsigned int i;

	if (!check(sbi_probe(SBI_EXT_FWFT) == 1, "fwft",
		   "probe_extension(FWFT) returns 1", "not offered"))
		return;
	expect_err(sbi_call1(SBI_EXT_FWFT, SBI_FWFT_GET + 1, 0),
		   SBI_ERR_NOT_SUPPORTED, "fwft",
		   "unknown FID 2 returns NOT_SUPPORTED");
	check_reserved();
	check_isa_features();
	check_misaligned_boot();

	info("fwft", "%u of %u secondary harts running", start_all_secondaries(),
	     nr_secondaries);
	for (i = 0; i < nr_secondaries && id == -1UL; i++)
		if (harts[secondaries[i]].running)
			id = secondaries[i];
	if (id == -1UL) {
		skip("fwft", "lock and reset checks on a secondary hart",
		     "no secondary hart running");
	} else {
		check_lock_on(id);
		/* locks are per hart: the boot hart is still free */
		expect_set(boot_hartid, FWFT_MISALIGNED_EXC_DELEG, 0, 0, 0,
			   "(another hart's lock)");
		check_non_retentive(id);
		if (harts[id].running)
			check_restart(id);
	}
	/* Locked at 1 on the boot hart for the rest of the run: the SUSP
	 * checks see that it survives a system suspend. */
	expect_set(boot_hartid, FWFT_MISALIGNED_EXC_DELEG, 1, FWFT_FLAG_LOCK, 0,
		   "(lock for the SUSP checks)");
	expect_set(boot_hartid, FWFT_MISALIGNED_EXC_DELEG, 0, 0,
		   SBI_ERR_DENIED_LOCKED, "(locked)");
}
