/* PMU extension, part 2: firmware events counted exactly (on this hart
 * and on the hart at the other end of an IPI or remote fence), events
 * no counter can take, and the counters of a hart that HSM stops and
 * starts again. Work on another hart goes through its mailbox. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define K_CALLS	7	/* calls made while a counter runs */

static struct hart_ecall remote_call;

/* An SBI call made by secondary hart id. */
static struct sbiret on_hart(unsigned long id, unsigned long eid,
			     unsigned long fid, unsigned long a0,
			     unsigned long a1, unsigned long a2,
			     unsigned long a3)
{
	remote_call = (struct hart_ecall){ eid, fid, { a0, a1, a2, a3, 0, 0 } };
	mb();
	return hart_do(id, CMD_ECALL, (unsigned long)&remote_call, 0, 0, 0,
		       2000);
}

/* A firmware counter counting event `code` on hart id (the boot hart
 * or a secondary), from 0. Returns its index or -1 (and FAILs). */
static unsigned long fw_begin(unsigned long id, unsigned long code)
{
	unsigned long idx;
	struct sbiret r;

	if (id == boot_hartid)
		r = pmu_config(0, pmu.fw, CFG_CLEAR_VALUE, EV_FW(code), 0);
	else
		r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_CONFIG_MATCHING, 0,
			    pmu.fw, CFG_CLEAR_VALUE, EV_FW(code));
	if (r.error || !pmu_is_fw(r.value)) {
		failf("pmu", "hart %lu: config_matching(firmware counters, "
		      "firmware event %lu) (%s)", id, code, ret_str(r));
		return -1UL;
	}
	idx = r.value;
	if (id == boot_hartid)
		r = pmu_start(idx, 1, START_SET_INIT_VALUE, 0);
	else
		r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_START, idx, 1,
			    START_SET_INIT_VALUE, 0);
	if (r.error) {
		failf("pmu", "hart %lu: counter_start(%lu) (%s)", id, idx,
		      ret_str(r));
		return -1UL;
	}
	return idx;
}

/* Stops and releases the counter; returns its count or an error. */
static struct sbiret fw_end(unsigned long id, unsigned long idx)
{
	struct sbiret r, v;

	if (id == boot_hartid) {
		r = pmu_stop(idx, 1, 0);
		v = pmu_fw_read(idx);
		pmu_stop(idx, 1, STOP_RESET);
	} else {
		r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_STOP, idx, 1, 0, 0);
		v = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_FW_READ, idx, 0, 0, 0);
		on_hart(id, SBI_EXT_PMU, PMU_COUNTER_STOP, idx, 1, STOP_RESET,
			0);
	}
	if (r.error)
		return r;
	return v;
}

static unsigned long remote_hart(void)
{
	unsigned int i;

	for (i = 0; i < nr_secondaries; i++)
		if (harts[secondaries[i]].running)
			return secondaries[i];
	return -1UL;
}

/* ---- the events ------------------------------------------------------- */

static void act_set_timer(unsigned long remote)
{
	(void)remote;
	sbi_set_timer(~0ULL);
}

static void act_ipi(unsigned long remote)
{
	/* One at a time: the target takes each before the next, so none
	 * merge into one. */
	harts[remote].ipi_mail[boot_hartid] = IPI_NONE;
	mb();
	send_ipi_to(remote);
	WAIT_UNTIL(harts[remote].ipi_mail[boot_hartid] == IPI_SEEN, 1000);
}

static void act_fence_i(unsigned long remote)
{
	sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_FENCE_I, 1UL << remote, 0, 0, 0,
		  0, 0);
}

static void act_sfence_vma(unsigned long remote)
{
	sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA, 1UL << remote, 0,
		  0x80200000, 0x1000, 0, 0);
}

static void act_sfence_vma_asid(unsigned long remote)
{
	sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA_ASID, 1UL << remote, 0,
		  0x80200000, 0x1000, 1, 0);
}

struct fw_case {
	unsigned long sent, received;	/* received = -1: none */
	void (*act)(unsigned long remote);
	const char *name;
};

static const struct fw_case fw_cases[] = {
	{ FW_SET_TIMER, -1UL, act_set_timer, "set_timer" },
	{ FW_IPI_SENT, FW_IPI_RECEIVED, act_ipi, "send_ipi to one other hart" },
	{ FW_FENCE_I_SENT, FW_FENCE_I_RECEIVED, act_fence_i,
	  "remote_fence_i to one other hart" },
	{ FW_SFENCE_VMA_SENT, FW_SFENCE_VMA_RECEIVED, act_sfence_vma,
	  "remote_sfence_vma to one other hart" },
	{ FW_SFENCE_VMA_ASID_SENT, FW_SFENCE_VMA_ASID_RECEIVED,
	  act_sfence_vma_asid, "remote_sfence_vma_asid to one other hart" },
};

/*
 * The IPI and fence events are about other harts ("sent to / received
 * from other HART"): requests a hart makes of itself move none of them.
 * Tally's reading; other firmware is free to count them.
 */
static void check_self_not_counted(void)
{
	static const unsigned long codes[] = {
		FW_IPI_SENT, FW_IPI_RECEIVED,
		FW_SFENCE_VMA_SENT, FW_SFENCE_VMA_RECEIVED,
	};
	unsigned long idx[4], self = 1UL << boot_hartid;
	unsigned int i, k;

	if (!pmu.tally) {
		skip("pmu", "IPIs and fences to self are not counted",
		     "not Tally: implementations differ");
		return;
	}
	for (i = 0; i < 4; i++) {
		idx[i] = fw_begin(boot_hartid, codes[i]);
		if (idx[i] == -1UL) {
			pmu_release_all();
			return;
		}
	}
	for (k = 0; k < K_CALLS; k++) {
		sbi_send_ipi(self, 0);
		sbi_ecall(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA, self, 0,
			  0x80200000, 0x1000, 0, 0);
	}
	csr_clear(CSR_SIP, SIP_SSIP);
	for (i = 0; i < 4; i++)
		expect_val(fw_end(boot_hartid, idx[i]), 0, "pmu",
			   sfmt("firmware event %lu ignores %u IPIs and "
				"sfence.vma requests a hart sends itself",
				codes[i], K_CALLS));
}

static void check_case(const struct fw_case *c, unsigned long remote)
{
	unsigned long s, r = -1UL;
	struct sbiret vs, vr;
	unsigned int k;

	s = fw_begin(boot_hartid, c->sent);
	if (c->received != -1UL)
		r = fw_begin(remote, c->received);
	if (s == -1UL || (c->received != -1UL && r == -1UL)) {
		pmu_release_all();
		return;
	}
	for (k = 0; k < K_CALLS; k++)
		c->act(remote);
	vs = fw_end(boot_hartid, s);
	expect_val(vs, K_CALLS, "pmu",
		   sfmt("firmware event %lu counts %u calls of %s exactly",
			c->sent, K_CALLS, c->name));
	if (c->received == -1UL)
		return;
	vr = fw_end(remote, r);
	expect_val(vr, K_CALLS, "pmu",
		   sfmt("firmware event %lu on hart %lu counts the %u it "
			"received", c->received, remote, K_CALLS));
}

static void illegal_insns(unsigned int k)
{
	while (k--)
		try_read_mhartid();
}

static void access_faults(unsigned int k)
{
	unsigned long v;

	while (k--)
		try_load(FW_BASE, &v);
}

static void base_calls(unsigned int k)
{
	while (k--)
		sbi_call0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);
}

/* Traps S-mode causes that a firmware may take (and count, then pass
 * back to S-mode) or delegate (and never see). Tally takes them. */
static void check_trap_event(unsigned long code, void (*act)(unsigned int),
			     const char *name)
{
	struct sbiret r;
	unsigned long idx;

	idx = fw_begin(boot_hartid, code);
	if (idx == -1UL)
		return;
	act(K_CALLS);
	r = fw_end(boot_hartid, idx);
	if (!r.error && !r.value && !pmu.tally) {
		skip("pmu", sfmt("firmware event %lu counts %s", code, name),
		     "counted 0: the firmware delegates them to S-mode");
		return;
	}
	expect_val(r, K_CALLS, "pmu", sfmt("firmware event %lu counts %u %s "
					   "exactly", code, K_CALLS, name));
}

/* A firmware counter of event code over act(K_CALLS) on this hart,
 * started and stopped around it; -1 if it could not be set up. */
static unsigned long count_over(unsigned long code, void (*act)(unsigned int))
{
	struct sbiret r = pmu_config(0, pmu.fw, CFG_CLEAR_VALUE, EV_FW(code),
				     0);

	if (r.error || !pmu_is_fw(r.value)) {
		failf("pmu", "config_matching(firmware counters, firmware event "
		      "%lu) (%s)", code, ret_str(r));
		return -1UL;
	}
	pmu_start(r.value, 1, START_SET_INIT_VALUE, 0);
	act(K_CALLS);
	r = fw_end(boot_hartid, r.value);
	return r.error ? -1UL : r.value;
}

/* Tally's own events: 256 counts every SBI call; 257 every trap into
 * M-mode. Whether 257 includes the ecalls (that 256 already counts) has
 * moved in Tally's docs: either is accepted, consistently. One of the
 * start and stop calls falls inside each window. Codes 256.. mean what
 * each implementation says: only Tally's are checked. */
static void check_tally_events(void)
{
	unsigned long ecalls, traps_e, traps_i, traps_a, extra;

	if (!pmu.tally) {
		skip("pmu", "Tally's firmware events 256 and 257",
		     "not Tally: codes 256.. are implementation-specific");
		return;
	}
	ecalls = count_over(FW_TALLY_ECALLS, base_calls);
	check(ecalls == K_CALLS + 1, "pmu",
	      sfmt("Tally's event 256 counts %u base calls + the start or "
		   "stop call = %u", K_CALLS, K_CALLS + 1),
	      sfmt("counted %ld", (long)ecalls));
	traps_e = count_over(FW_TALLY_TRAPS, base_calls);
	check(traps_e == 0 || traps_e == K_CALLS + 1, "pmu",
	      sfmt("Tally's event 257 over %u base calls: 0 (ecalls left to "
		   "256) or %u (every trap)", K_CALLS, K_CALLS + 1),
	      sfmt("counted %ld", (long)traps_e));
	extra = traps_e ? 1 : 0;
	info("pmu", "Tally's event 257 %s ecalls", extra ? "counts" :
	     "leaves out");
	traps_i = count_over(FW_TALLY_TRAPS, illegal_insns);
	check(traps_i == K_CALLS + extra, "pmu",
	      sfmt("Tally's event 257 counts %u illegal-instruction traps "
		   "(+ %lu for the stop call)", K_CALLS, extra),
	      sfmt("counted %ld", (long)traps_i));
	traps_a = count_over(FW_TALLY_TRAPS, access_faults);
	check(traps_a == K_CALLS + extra, "pmu",
	      sfmt("Tally's event 257 counts %u load access faults (+ %lu "
		   "for the stop call)", K_CALLS, extra),
	      sfmt("counted %ld", (long)traps_a));
}

static void check_refused(void)
{
	static const struct {
		unsigned long event;
		const char *name;
	} evs[] = {
		{ EV(0, 0), "0 (SBI_PMU_HW_NO_EVENT)" },
		{ EV_HW_CYCLES | 1UL << 20, "cycles with bit 20 set" },
		{ EV_HW_CYCLES | HI32(1) | (sizeof(long) == 4 ? 1UL << 31 : 0),
		  "cycles with bit 32 (RV32: 31) set" },
		{ EV(4, 1), "type 4 (reserved)" },
		{ EV(14, 5), "type 14 (reserved)" },
		{ EV_CACHE(3, 3, 1), "dTLB with reserved op 3" },
		{ EV_CACHE(7, 0, 1), "cache id 7 (reserved)" },
		{ EV_FW(FW_STANDARD_COUNT), "firmware code 22 (reserved)" },
		{ EV_FW(255), "firmware code 255 (reserved)" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct sbiret r = pmu_config(0, pmu.hw | pmu.fw, 0,
					     evs[i].event, 0);

		expect_err(r, SBI_ERR_NOT_SUPPORTED, "pmu",
			   sfmt("config_matching(event %s) returns "
				"NOT_SUPPORTED", evs[i].name));
		if (!r.error && r.value < MAX_COUNTERS)
			pmu_release(r.value);
	}
	/* The QEMU DT maps no other general event. */
	{
		unsigned long code;
		unsigned int wrong = 0;
		char list[80] = "";
		size_t used = 0;

		for (code = 3; code <= 10; code++) {
			struct sbiret r = pmu_config(0, pmu.hw, 0, EV(0, code),
						     0);

			if (r.error == SBI_ERR_NOT_SUPPORTED)
				continue;
			wrong++;
			used += snprintf(list + used, sizeof(list) - used,
					 " %lu:%ld", code, r.error);
			if (!r.error)
				pmu_release(r.value);
		}
		check(!wrong, "pmu", "config_matching of general events 3..10 "
		      "(not in the DT) returns NOT_SUPPORTED",
		      sfmt("got code:error%s", list));
	}
}

void test_pmu_fw_events(void)
{
	unsigned long remote = remote_hart();
	unsigned int i;

	check_refused();
	if (!pmu.fw) {
		skip("pmu", "firmware event counts", "no firmware counters");
		return;
	}
	spin_secondaries(true);	/* no wake-up IPI in the counts */
	csr_set(CSR_SIE, SIE_SSIE);
	local_irq_enable();
	for (i = 0; i < sizeof(fw_cases) / sizeof(fw_cases[0]); i++) {
		if (fw_cases[i].received != -1UL && remote == -1UL) {
			skip("pmu", fw_cases[i].name, "no secondary running");
			continue;
		}
		check_case(&fw_cases[i], remote);
	}
	local_irq_disable();
	csr_clear(CSR_SIE, SIE_SSIE);
	check_self_not_counted();
	check_trap_event(FW_ILLEGAL_INSN, illegal_insns,
			 "S-mode illegal instructions (mhartid reads)");
	check_trap_event(FW_ACCESS_LOAD, access_faults,
			 "S-mode load access faults (loads from 0x80000000)");
	check_tally_events();
	pmu_release_all();
	spin_secondaries(false);
}

/* ---- HSM stop / start ------------------------------------------------- */

/* Counters a hart had running when it stopped are gone when it starts
 * again: neither running, nor holding their value, nor taken. */
void test_pmu_hsm(void)
{
	unsigned long id = remote_hart(), f, c = -1UL;
	struct sbiret r;
	bool entered;
	unsigned int k;

	if (id == -1UL || !pmu.fw) {
		skip("pmu", "counters across HSM stop/start",
		     id == -1UL ? "no secondary running" : "no firmware counters");
		return;
	}
	f = fw_begin(id, FW_SET_TIMER);
	if (f == -1UL)
		return;
	for (k = 0; k < 3; k++)
		on_hart(id, SBI_EXT_TIME, SBI_TIME_SET_TIMER, -1UL, 0, 0, 0);
	r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_FW_READ, f, 0, 0, 0);
	expect_val(r, 3, "pmu", sfmt("hart %lu: its SET_TIMER counter %lu "
				     "counts its 3 calls", id, f));
	r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_CONFIG_MATCHING, 0, pmu.hw,
		    CFG_CLEAR_VALUE | CFG_AUTO_START, EV_HW_INSTRUCTIONS);
	if (check(!r.error && pmu_is_hw(r.value), "pmu",
		  sfmt("hart %lu: config_matching(instructions, AUTO_START) "
		       "returns a hardware counter", id), ret_str(r)))
		c = r.value;

	hart_post(id, CMD_STOP, 0, 0, 0, 0);
	r = wait_status(id, SBI_HSM_STOPPED, 1000);
	harts[id].running = false;
	if (!check(!r.error && r.value == SBI_HSM_STOPPED, "pmu",
		   sfmt("hart %lu stops with counters running", id),
		   ret_str(r)))
		return;
	start_secondary(id, next_opaque(id), &entered);
	if (!check(entered, "pmu", sfmt("hart %lu starts again", id),
		   "did not arrive"))
		return;

	/* Not running: ALREADY_STOPPED, or INVALID_PARAM from a firmware
	 * that calls a counter without an event invalid. */
	r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_STOP, f, 1, 0, 0);
	expect_err2(r, SBI_ERR_ALREADY_STOPPED, SBI_ERR_INVALID_PARAM, "pmu",
		    sfmt("after HSM stop/start, firmware counter %lu is not "
			 "running (counter_stop returns ALREADY_STOPPED or "
			 "INVALID_PARAM)", f));
	r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_FW_READ, f, 0, 0, 0);
	check((!r.error && !r.value) || r.error == SBI_ERR_INVALID_PARAM,
	      "pmu", sfmt("after HSM stop/start, counter %lu lost its count "
			  "(counter_fw_read = 0, or INVALID_PARAM: no event)",
			  f), ret_str(r));
	r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_CONFIG_MATCHING, f, 1, 0,
		    EV_FW(FW_SET_TIMER));
	expect_val(r, f, "pmu", sfmt("after HSM stop/start, counter %lu is free "
				     "(config_matching with mask = it returns "
				     "it)", f));
	if (c != -1UL) {
		r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_STOP, c, 1, 0, 0);
		expect_err2(r, SBI_ERR_ALREADY_STOPPED, SBI_ERR_INVALID_PARAM,
			    "pmu", sfmt("after HSM stop/start, hardware counter "
					"%lu is not running", c));
		r = on_hart(id, SBI_EXT_PMU, PMU_COUNTER_CONFIG_MATCHING, c, 1,
			    0, EV_HW_INSTRUCTIONS);
		expect_val(r, c, "pmu", sfmt("after HSM stop/start, counter %lu "
					     "is free", c));
		on_hart(id, SBI_EXT_PMU, PMU_COUNTER_STOP, c, 1, STOP_RESET, 0);
	}
	on_hart(id, SBI_EXT_PMU, PMU_COUNTER_STOP, f, 1, STOP_RESET, 0);
}
