/* HSM extension (EID 0x48534D): status, start, stop and suspend of the
 * secondary harts, with bad arguments at each step. A hart that stops
 * answering after a failed check is marked lost and left alone. */
#include "hart.h"
#include "test.h"

#define WAKE_MS		150	/* suspend: timer armed this far ahead */
/*
 * The state checks of a suspend: the timer is the safety net, an IPI from
 * the boot hart wakes the hart once it has seen it SUSPENDED.  (Woken by
 * a 150 ms timer, a hart on a loaded host could suspend and wake while the
 * boot hart's vCPU did not run at all: SUSPENDED never seen.)
 */
#define SAFETY_MS	20000

static const char *state_name(unsigned long state)
{
	static const char *const names[] = {
		"STARTED", "STOPPED", "START_PENDING", "STOP_PENDING",
		"SUSPENDED", "SUSPEND_PENDING", "RESUME_PENDING",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

static void expect_status(struct sbiret r, unsigned long want,
			  unsigned long id, const char *when)
{
	expect_val(r, want, "hsm", sfmt("hart_get_status(%lu) %s is %s", id,
					 when, state_name(want)));
}

static void lose(unsigned long id, const char *why)
{
	harts[id].lost = true;
	harts[id].running = false;
	info("hsm", "hart %lu no longer used: %s", id, why);
}

/* What start.S recorded when the hart arrived at secondary_entry. */
static void check_entry(unsigned long id, unsigned long opaque,
			const char *how)
{
	const struct hart *h = &harts[id];

	check(h->entry_a0 == id && h->entry_a1 == opaque, "hsm",
	      sfmt("%s: hart %lu enters with a0 = hartid, a1 = opaque", how, id),
	      sfmt("got a0=%lx a1=%lx, want a0=%lx a1=%lx", h->entry_a0,
		   h->entry_a1, id, opaque));
	check(h->entry_satp == 0 && !(h->entry_sstatus & SSTATUS_SIE), "hsm",
	      sfmt("%s: hart %lu enters with satp = 0, sstatus.SIE = 0", how,
		   id),
	      sfmt("got satp=%lx sstatus=%lx", h->entry_satp,
		   h->entry_sstatus));
	check(h->entry_mhartid_trap == EXC_ILLEGAL_INSN, "hsm",
	      sfmt("%s: hart %lu enters in S-mode (mhartid read traps)", how,
		   id),
	      sfmt("reading mhartid gave scause=%lx", h->entry_mhartid_trap));
}

static void check_start(unsigned long id, const char *when)
{
	unsigned long opaque = next_opaque(id);
	char how[64];
	struct sbiret r;
	bool entered;

	/* Local: sfmt() buffers only live for one check. */
	snprintf(how, sizeof(how), "hart_start %s", when);
	r = start_secondary(id, opaque, &entered);
	if (!expect_err(r, 0, "hsm", sfmt("hart_start(%lu) %s returns 0", id,
					   when)))
		return;
	if (!check(entered, "hsm", sfmt("%s: hart %lu reaches start_addr",
					 how, id),
		   "no sign of it within 1 s")) {
		lose(id, "did not arrive");
		return;
	}
	check_entry(id, opaque, how);
	expect_status(wait_status(id, SBI_HSM_STARTED, 100), SBI_HSM_STARTED,
		      id, how);
}

static void check_stop(unsigned long id)
{
	struct hart *h = &harts[id];

	hart_post(id, CMD_STOP, 0, 0, 0, 0);
	expect_status(wait_status(id, SBI_HSM_STOPPED, 1000), SBI_HSM_STOPPED,
		      id, "after hart_stop");
	/* Still open: the hart never came back from hart_stop. */
	check(h->done_seq != h->cmd_seq, "hsm",
	      sfmt("hart_stop on hart %lu does not return", id),
	      sfmt("it returned error=%ld", h->ret_error));
	h->running = false;
}

/* hart_start of a stopped hart at the firmware's own address. */
static void check_start_in_firmware(unsigned long id)
{
	struct sbiret r = sbi_hart_start(id, FW_BASE, next_opaque(id));

	expect_err(r, SBI_ERR_INVALID_ADDRESS, "hsm",
		   sfmt("hart_start(%lu) at %lx (firmware) returns "
			"INVALID_ADDRESS", id, FW_BASE));
	if (!r.error)
		lose(id, "started inside the firmware");
}

/*
 * bootargs "parked=<id>": the machine has a hart the firmware must keep out
 * of S-mode (QEMU sifive_u: hart 0, the E51, has no S-mode).  It is no
 * HSM target and the devicetree S-mode gets does not offer it.
 */
static void test_hsm_parked_hart(void)
{
	const char *arg = boot_arg(machine.bootargs, "parked=");
	unsigned long id = 0, i;

	if (!arg)
		return;
	for (; *arg >= '0' && *arg <= '9'; arg++)
		id = id * 10 + (unsigned long)(*arg - '0');
	expect_err(sbi_hart_status(id), SBI_ERR_INVALID_PARAM, "hsm",
		   sfmt("hart_get_status(%lu) (parked: no S-mode) returns INVALID_PARAM", id));
	expect_err(sbi_hart_start(id, (unsigned long)secondary_entry, 0),
		   SBI_ERR_INVALID_PARAM, "hsm",
		   sfmt("hart_start(%lu) (parked: no S-mode) returns INVALID_PARAM", id));
	for (i = 0; i < machine.ncpus && machine.hartids[i] != id; i++)
		;
	check(i == machine.ncpus, "hsm",
	      sfmt("the devicetree offers no enabled cpu for parked hart %lu", id), NULL);
	check(boot_hartid != id, "hsm",
	      sfmt("S-mode was not entered on parked hart %lu", id), NULL);
}

void test_hsm_before_start(void)
{
	const unsigned long bad_ids[] = { machine.max_hartid + 1, 1000 };
	unsigned int i;

	expect_status(sbi_hart_status(boot_hartid), SBI_HSM_STARTED,
		      boot_hartid, "(boot hart)");
	for (i = 0; i < nr_secondaries; i++)
		expect_status(sbi_hart_status(secondaries[i]), SBI_HSM_STOPPED,
			      secondaries[i], "before any start");
	for (i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++) {
		expect_err(sbi_hart_status(bad_ids[i]), SBI_ERR_INVALID_PARAM,
			   "hsm", sfmt("hart_get_status(%lu) (no such hart) "
				       "returns INVALID_PARAM", bad_ids[i]));
		expect_err(sbi_hart_start(bad_ids[i],
					  (unsigned long)secondary_entry, 0),
			   SBI_ERR_INVALID_PARAM, "hsm",
			   sfmt("hart_start(%lu) (no such hart) returns "
				"INVALID_PARAM", bad_ids[i]));
	}
	expect_err(sbi_hart_start(boot_hartid, (unsigned long)secondary_entry,
				  0),
		   SBI_ERR_ALREADY_AVAILABLE, "hsm",
		   "hart_start(boot hart) returns ALREADY_AVAILABLE");
	/* the address is checked before the state: an odd one (no mret
	 * reaches it) is refused even for a hart that runs */
	expect_err(sbi_hart_start(boot_hartid, (unsigned long)secondary_entry + 1, 0),
		   SBI_ERR_INVALID_ADDRESS, "hsm",
		   "hart_start at an odd address returns INVALID_ADDRESS");
	expect_err(sbi_hart_start(boot_hartid, -2UL, 0), SBI_ERR_INVALID_ADDRESS, "hsm",
		   "hart_start at 2^64 - 2 returns INVALID_ADDRESS");
	/* On the last secondary: if it does start, the others remain. */
	if (nr_secondaries)
		check_start_in_firmware(secondaries[nr_secondaries - 1]);
	expect_err(sbi_call0(SBI_EXT_HSM, SBI_HSM_HART_SUSPEND + 1),
		   SBI_ERR_NOT_SUPPORTED, "hsm",
		   "unknown FID 4 returns NOT_SUPPORTED");
	test_hsm_parked_hart();
}

void test_hsm_start_all(void)
{
	unsigned int i;

	for (i = 0; i < nr_secondaries; i++)
		if (!harts[secondaries[i]].lost)
			check_start(secondaries[i], "of a stopped hart");
	for (i = 0; i < nr_secondaries; i++)
		if (harts[secondaries[i]].running)
			expect_err(sbi_hart_start(secondaries[i],
					(unsigned long)secondary_entry, 0),
				   SBI_ERR_ALREADY_AVAILABLE, "hsm",
				   sfmt("hart_start(%lu) of a started hart "
					"returns ALREADY_AVAILABLE",
					secondaries[i]));
}

/* Stop and restart every running secondary, twice: state must not leak
 * from one cycle into the next. */
void test_hsm_stop_start(void)
{
	unsigned int cycle, i;

	for (cycle = 1; cycle <= 2; cycle++)
		for (i = 0; i < nr_secondaries; i++) {
			unsigned long id = secondaries[i];
			char when[32];

			if (!harts[id].running)
				continue;
			snprintf(when, sizeof(when), "after stop (cycle %u)",
				 cycle);
			check_stop(id);
			check_start(id, when);
		}
}

/*
 * Linux's CPU hotplug: hart_start as soon as the hart has left STARTED,
 * possibly still in STOP_PENDING.  The stop is committed, so the start
 * must succeed every time (it failed with ALREADY_AVAILABLE when the
 * firmware was caught on its way to STOPPED).
 */
void test_hsm_start_while_stopping(void)
{
	unsigned int i, round, ok;

	for (i = 0; i < nr_secondaries; i++) {
		unsigned long id = secondaries[i];
		struct sbiret r = { 0, 0 };

		if (!harts[id].running)
			continue;
		for (round = 0, ok = 0; round < 50; round++) {
			bool entered;

			hart_post(id, CMD_STOP, 0, 0, 0, 0);
			WAIT_UNTIL((r = sbi_hart_status(id), r.error || r.value != SBI_HSM_STARTED),
				   20000);
			r = start_secondary(id, next_opaque(id), &entered);
			if (r.error || !entered)
				break;
			ok++;
		}
		check(ok == 50, "hsm", sfmt("hart %lu: hart_start right after hart_stop "
			"(STOP_PENDING or STOPPED) succeeds, 50 times", id),
		      sfmt("round %u: %s", ok + 1, ret_str(r)));
		if (ok != 50)
			return;
	}
}

/*
 * Remote fences to a hart that is stopped and started under them: every
 * call must come back on its own.  A caller that saw the target STARTED
 * may raise its request while the target is inside hart_stop, or already
 * on its way back in (two callers contend for the target's mailbox, so
 * one of them waits through the stop), and hart_start comes at once; a
 * start that cleared the target's pending machine IPI without serving
 * the request behind it left that caller spinning until some other IPI
 * reached the target (here: never).
 */
#define RESTART_ROUNDS	200

static volatile bool fence_storm_stop;

static struct sbiret fence_storm(unsigned long target, unsigned long b,
				 unsigned long c)
{
	unsigned long calls = 0;
	struct sbiret r = { 0, 0 };

	(void)b;
	(void)c;
	while (!fence_storm_stop && !r.error) {
		r = sbi_ecall(SBI_EXT_RFENCE, 1 /* REMOTE_SFENCE_VMA */, 1UL << target,
			      0, 0, 0, 0, 0);
		calls++;
	}
	r.value = calls;
	return r;
}

void test_hsm_fences_across_restart(void)
{
	unsigned long target = -1UL, fencers[MAX_HARTS];
	unsigned int i, nf = 0, round, stuck = 0;
	struct sbiret r = { 0, 0 };

	for (i = 0; i < nr_secondaries; i++) {
		if (!harts[secondaries[i]].running)
			continue;
		if (target == -1UL)
			target = secondaries[i];
		else
			fencers[nf++] = secondaries[i];
	}
	if (nf < 2) {
		skip("hsm", "remote fences to a hart stopped and started under them",
		     "needs three running secondaries");
		return;
	}
	fence_storm_stop = false;
	mb();
	for (i = 0; i < nf; i++)
		hart_post(fencers[i], CMD_CALL, (unsigned long)fence_storm, target, 0, 0);
	for (round = 0; round < RESTART_ROUNDS; round++) {
		unsigned long old = harts[target].entries, opaque = next_opaque(target);

		/* hart_start at once, as Linux may: it waits out STOP_PENDING */
		hart_post(target, CMD_STOP, 0, 0, 0, 0);
		WAIT_UNTIL((r = sbi_hart_start(target, (unsigned long)secondary_entry, opaque),
			    r.error != SBI_ERR_ALREADY_AVAILABLE), 20000);
		harts[target].running = !r.error && wait_entry(target, old, 1000);
		if (!harts[target].running)
			break;
	}
	fence_storm_stop = true;
	mb();
	for (i = 0; i < nf; i++) {
		struct sbiret f = hart_result(fencers[i], 500);

		if (f.error != ERR_NO_ANSWER)
			continue;
		/* its request is pending at the target: an IPI makes it serve it */
		stuck++;
		send_ipi_to(target);
		if (hart_result(fencers[i], 1000).error == ERR_NO_ANSWER)
			lose(fencers[i], "stuck in remote_sfence_vma");
	}
	check(round == RESTART_ROUNDS, "hsm",
	      sfmt("hart %lu stopped and started %u times under remote fences", target,
		   RESTART_ROUNDS), sfmt("round %u: %s", round + 1, ret_str(r)));
	check(!stuck, "hsm",
	      sfmt("remote_sfence_vma to hart %lu while it is stopped and started: every "
		   "call returns without another IPI to it", target),
	      sfmt("%u of %u callers waited until the target got an S-mode IPI: their "
		   "request was left pending at its start", stuck, nf));
}

/* ---- hart_suspend, all on one secondary hart ---- */

static struct sbiret suspend_on(unsigned long id, unsigned long type,
				unsigned long addr, unsigned long opaque,
				unsigned long wake_ms)
{
	struct sbiret r = hart_do(id, CMD_SUSPEND, type, addr, opaque,
				  ms_to_ticks(wake_ms), 1000 + wake_ms);

	if (r.error == ERR_NO_ANSWER)
		lose(id, "no answer after hart_suspend");
	return r;
}

/* type: RETENTIVE_DEFAULT, possibly with upper register bits set (the
 * binary encoding: suspend_type is a uint32_t, its upper half ignored). */
static void check_retentive(unsigned long id, unsigned long type)
{
	struct sbiret r;

	hart_post(id, CMD_SUSPEND, type, 0, 0, ms_to_ticks(SAFETY_MS));
	expect_status(wait_status(id, SBI_HSM_SUSPENDED, WAKE_MS),
		      SBI_HSM_SUSPENDED, id,
		      sfmt("in retentive suspend (type %lx)", type));
	send_ipi_to(id);
	r = hart_result(id, 1000 + WAKE_MS);
	expect_err(r, 0, "hsm", sfmt("hart_suspend(retentive, type %lx) on "
				     "hart %lu returns 0 once an IPI wakes "
				     "it", type, id));
	if (r.error == ERR_NO_ANSWER) {
		lose(id, "did not wake from retentive suspend");
		return;
	}
	info("hsm", "retentive suspend lasted %lu ticks (woken by an IPI)",
	     harts[id].ret_ticks);
	expect_status(wait_status(id, SBI_HSM_STARTED, 100), SBI_HSM_STARTED,
		      id, "after retentive suspend");
}

/* type: NON_RETENTIVE_DEFAULT, possibly with upper register bits set. */
static void check_non_retentive(unsigned long id, unsigned long type)
{
	unsigned long opaque = next_opaque(id), old = harts[id].entries;
	bool resumed;
	struct sbiret r;

	hart_post(id, CMD_SUSPEND, type, (unsigned long)secondary_entry,
		  opaque, ms_to_ticks(SAFETY_MS));
	expect_status(wait_status(id, SBI_HSM_SUSPENDED, WAKE_MS),
		      SBI_HSM_SUSPENDED, id,
		      sfmt("in non-retentive suspend (type %lx)", type));
	send_ipi_to(id);
	resumed = wait_entry(id, old, 1000 + WAKE_MS);
	r = hart_result(id, 10);
	check(resumed && r.error == ERR_REENTERED, "hsm",
	      sfmt("hart_suspend(non-retentive, type %lx) on hart %lu resumes "
		   "at resume_addr", type, id),
	      resumed ? ret_str(r) : "no resume");
	if (!resumed) {
		if (r.error == ERR_NO_ANSWER)
			lose(id, "did not resume");
		return;
	}
	check_entry(id, opaque, "non-retentive resume");
	expect_status(wait_status(id, SBI_HSM_STARTED, 100), SBI_HSM_STARTED,
		      id, "after non-retentive resume");
}

/* A timer is armed for each, so a firmware that wrongly suspends the
 * hart anyway still gets it back. */
static void check_bad_types(unsigned long id)
{
	/* the last of each: upper register bits set, low 32 bits decide */
	static const unsigned long reserved[] = {
		0x00000001, 0x80000001, 0x0fffffff, 0x8fffffff,
		HI32(0xffffffff) | 1,
	};
	static const unsigned long platform[] = {
		0x10000000, 0x90000000, 0x7fffffff, 0xffffffff,
		HI32(1) | 0x90000000,
	};
	unsigned int i;
	struct sbiret r;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]) &&
		    !harts[id].lost; i++)
		expect_err(suspend_on(id, reserved[i],
				      (unsigned long)secondary_entry,
				      next_opaque(id), 20),
			   SBI_ERR_INVALID_PARAM, "hsm",
			   sfmt("hart_suspend(reserved type %lx) returns "
				"INVALID_PARAM", reserved[i]));
	for (i = 0; i < sizeof(platform) / sizeof(platform[0]) &&
		    !harts[id].lost; i++) {
		/* "platform-specific and unimplemented": INVALID_PARAM
		 * (NOT_SUPPORTED is for an implemented one) */
		r = suspend_on(id, platform[i], (unsigned long)secondary_entry,
			       next_opaque(id), 20);
		expect_err(r, SBI_ERR_INVALID_PARAM, "hsm",
			   sfmt("hart_suspend(platform type %lx, none implemented) "
				"returns INVALID_PARAM", platform[i]));
	}
}

void test_hsm_suspend(void)
{
	unsigned long id = -1UL;
	unsigned int i;

	for (i = 0; i < nr_secondaries && id == -1UL; i++)
		if (harts[secondaries[i]].running)
			id = secondaries[i];
	if (id == -1UL) {
		skip("hsm", "hart_suspend checks", "no secondary hart running");
		return;
	}
	check_retentive(id, SBI_HSM_SUSPEND_RET_DEFAULT);
	if (!harts[id].lost)
		check_retentive(id, HI32(0x80000000) | SBI_HSM_SUSPEND_RET_DEFAULT);
	if (!harts[id].lost)
		check_retentive(id, HI32(1) | SBI_HSM_SUSPEND_RET_DEFAULT);
	if (!harts[id].lost)
		check_non_retentive(id, SBI_HSM_SUSPEND_NON_RET_DEFAULT);
	if (!harts[id].lost)
		check_non_retentive(id, HI32(0x80000000) |
				    SBI_HSM_SUSPEND_NON_RET_DEFAULT);
	if (!harts[id].lost)
		check_bad_types(id);
	if (!harts[id].lost)
		expect_err(suspend_on(id, SBI_HSM_SUSPEND_NON_RET_DEFAULT,
				      (unsigned long)secondary_entry + 1,
				      next_opaque(id), 20),
			   SBI_ERR_INVALID_ADDRESS, "hsm",
			   "hart_suspend(non-retentive) resuming at an odd address "
			   "returns INVALID_ADDRESS");
	/* Last: a firmware that accepts it loses the hart for good. */
	if (!harts[id].lost)
		expect_err(suspend_on(id, SBI_HSM_SUSPEND_NON_RET_DEFAULT,
				      FW_BASE, next_opaque(id), 20),
			   SBI_ERR_INVALID_ADDRESS, "hsm",
			   sfmt("hart_suspend(non-retentive) resuming at %lx "
				"(firmware) returns INVALID_ADDRESS", FW_BASE));
}
