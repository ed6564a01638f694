/* Bootargs "probe" (run.sh's probe runs, several CPU models and hart
 * counts): one INFO line per extension with what probe_extension
 * answers, which run.sh compares with the firmware's boot banner; each
 * SBI 3.0 extension offered must work on this hart, and one not offered
 * must answer NOT_SUPPORTED.  With hart ids up to 31 (-smp 32), the
 * hart-id arguments of HSM and SSE at both ends. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define SSE			0x535345
#define SSE_READ_ATTRS		0
#define SSE_WRITE_ATTRS		1
#define SSE_INJECT		7
#define EV_LOCAL_SW		0xffff0000UL
#define EV_GLOBAL_SW		0xffff8000UL
#define EV_PMU			0x00010000UL
#define A_STATUS		0
#define A_PREF_HART		3

static const struct {
	unsigned long eid;
	const char *name;	/* as the banner spells it */
} exts[] = {
	{ SBI_EXT_BASE, "BASE" }, { SBI_EXT_TIME, "TIME" }, { SBI_EXT_IPI, "IPI" },
	{ SBI_EXT_RFENCE, "RFNC" }, { SBI_EXT_HSM, "HSM" }, { SBI_EXT_SRST, "SRST" },
	{ 0x504D55, "PMU" }, { SBI_EXT_DBCN, "DBCN" }, { SBI_EXT_SUSP, "SUSP" },
	{ 0x43505043, "CPPC" }, { 0x4E41434C, "NACL" }, { 0x535441, "STA" },
	{ SSE, "SSE" }, { SBI_EXT_FWFT, "FWFT" }, { SBI_EXT_DBTR, "DBTR" },
	{ 0x4D505859, "MPXY" },
};

static unsigned long attr(unsigned long ev, unsigned long id, long *err)
{
	unsigned long v = -1UL;

	*err = sbi_ecall(SSE, SSE_READ_ATTRS, ev, id, 1, (unsigned long)&v, 0, 0).error;
	return v;
}

/* A programmable counter (mhpmcounter3-31: the ones with an OF bit). */
static bool has_programmable_counter(void)
{
	unsigned long num = pmu_num_counters().value;

	for (unsigned long i = 0; i < num && i < 64; i++) {
		struct sbiret r = pmu_get_info(i);

		if (!r.error && !(r.value & CTR_INFO_FW) && CTR_INFO_CSR(r.value) >= 0xc03)
			return true;
	}
	return false;
}

static void check_offered(void)
{
	bool pmu_event = machine.cpu_has_sscofpmf && has_programmable_counter();
	long err;

	if (sbi_probe(SBI_EXT_FWFT))
		expect_err(sbi_call1(SBI_EXT_FWFT, SBI_FWFT_GET, 0), 0, "probe",
			   "FWFT offered: get(MISALIGNED_EXC_DELEG) works");
	else
		expect_err(sbi_call1(SBI_EXT_FWFT, SBI_FWFT_GET, 0), SBI_ERR_NOT_SUPPORTED,
			   "probe", "FWFT not offered: NOT_SUPPORTED");
	if (sbi_probe(SBI_EXT_DBTR)) {
		struct sbiret r = sbi_call1(SBI_EXT_DBTR, SBI_DBTR_NUM_TRIGGERS, 0);

		check(!r.error && r.value > 0, "probe",
		      "DBTR offered: the hart has triggers (num_triggers > 0)", ret_str(r));
	} else {
		expect_err(sbi_call1(SBI_EXT_DBTR, SBI_DBTR_NUM_TRIGGERS, 0),
			   SBI_ERR_NOT_SUPPORTED, "probe",
			   "DBTR not offered: num_triggers is NOT_SUPPORTED");
	}
	if (sbi_probe(SSE)) {
		attr(EV_LOCAL_SW, A_STATUS, &err);
		expect_err((struct sbiret){ err, 0 }, 0, "probe",
			   "SSE offered: the local software event reads");
		attr(EV_PMU, A_STATUS, &err);
		expect_err((struct sbiret){ err, 0 }, pmu_event ? 0 : SBI_ERR_NOT_SUPPORTED,
			   "probe", pmu_event ?
			   "SSE PMU overflow event with Sscofpmf and counters: supported" :
			   "SSE PMU overflow event without Sscofpmf or without programmable "
			   "counters: NOT_SUPPORTED");
	}
	check(sbi_probe(SBI_EXT_SUSP) == 1, "probe", "SUSP offered", "not offered");
}

/* The highest hart id of the machine (31 with -smp 32). */
static void check_hart_ids(void)
{
	unsigned long max = machine.max_hartid, v;
	struct sbiret r;
	long err;

	info("probe", "hart ids 0..%lu", max);
	expect_val(sbi_hart_status(max), SBI_HSM_STOPPED, "probe",
		   sfmt("hart_get_status(%lu) (the last hart): STOPPED", max));
	expect_err(sbi_hart_status(max + 1), SBI_ERR_INVALID_PARAM, "probe",
		   sfmt("hart_get_status(%lu): INVALID_PARAM", max + 1));
	if (!sbi_probe(SSE))
		return;
	expect_err(sbi_call2(SSE, SSE_INJECT, EV_LOCAL_SW, max), SBI_ERR_FAILED, "probe",
		   sfmt("SSE inject on hart %lu (STOPPED): FAILED", max));
	expect_err(sbi_call2(SSE, SSE_INJECT, EV_LOCAL_SW, max + 1), SBI_ERR_INVALID_PARAM,
		   "probe", sfmt("SSE inject on hart %lu (none): INVALID_PARAM", max + 1));
	v = max;
	expect_err(sbi_ecall(SSE, SSE_WRITE_ATTRS, EV_GLOBAL_SW, A_PREF_HART, 1,
			     (unsigned long)&v, 0, 0), 0, "probe",
		   sfmt("SSE global PREFERRED_HART = %lu", max));
	check(attr(EV_GLOBAL_SW, A_PREF_HART, &err) == max && !err, "probe",
	      sfmt("... reads back %lu", max), "");
	v = max + 1;
	expect_err(sbi_ecall(SSE, SSE_WRITE_ATTRS, EV_GLOBAL_SW, A_PREF_HART, 1,
			     (unsigned long)&v, 0, 0), SBI_ERR_INVALID_PARAM, "probe",
		   sfmt("SSE global PREFERRED_HART = %lu: INVALID_PARAM", max + 1));
	if (max < MAX_HARTS)
		return;
	/* a hart the payload has no stack for parks at its entry (start.S) */
	r = sbi_hart_start(max, (unsigned long)secondary_entry, 0);
	expect_err(r, 0, "probe", sfmt("hart_start(%lu)", max));
	if (!r.error) {
		check(WAIT_UNTIL(sbi_hart_status(max).value == SBI_HSM_STARTED, 20000),
		      "probe", sfmt("hart %lu STARTED", max), "");
		expect_err(sbi_call2(SSE, SSE_INJECT, EV_LOCAL_SW, max), 0, "probe",
			   sfmt("SSE inject on hart %lu (STARTED, masked: stays pending)",
				max));
	}
}

void test_probe(void)
{
	for (unsigned int i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		info("probe", "%s = %ld", exts[i].name, sbi_probe(exts[i].eid));
	check_offered();
	check_hart_ids();
	check(sbi_probe(SBI_EXT_BASE) == 1, "probe", "the firmware still answers", "");
}
