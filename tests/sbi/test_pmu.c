/* PMU extension (EID 0x504D55), part 1: the calls, discovery of the
 * counters, hostile arguments, and the life of a counter (configure,
 * start, stop, reset) on firmware counters, whose counts are exact.
 *
 * A firmware whose impl id is Tally must implement the optional parts
 * (snapshot, event_get_info, its firmware events 256/257); on others
 * they are skipped when reported NOT_SUPPORTED. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

struct pmu_state pmu;

struct sbiret pmu_num_counters(void)
{
	return sbi_call0(SBI_EXT_PMU, PMU_NUM_COUNTERS);
}

struct sbiret pmu_get_info(unsigned long idx)
{
	return sbi_call1(SBI_EXT_PMU, PMU_COUNTER_GET_INFO, idx);
}

struct sbiret pmu_config(unsigned long base, unsigned long mask,
			 unsigned long flags, unsigned long event,
			 uint64_t data)
{
	/* event_data: a4 on RV64; (a4, a5) = (lo, hi) on RV32 */
	return sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_CONFIG_MATCHING, base, mask,
			 flags, event, (unsigned long)data,
			 sizeof(long) == 4 ? (unsigned long)(data >> 32) : 0);
}

struct sbiret pmu_start(unsigned long base, unsigned long mask,
			unsigned long flags, uint64_t value)
{
	/* initial_value: a3 on RV64; (a3, a4) = (lo, hi) on RV32 */
	return sbi_ecall(SBI_EXT_PMU, PMU_COUNTER_START, base, mask, flags,
			 (unsigned long)value,
			 sizeof(long) == 4 ? (unsigned long)(value >> 32) : 0, 0);
}

struct sbiret pmu_stop(unsigned long base, unsigned long mask,
		       unsigned long flags)
{
	return sbi_call3(SBI_EXT_PMU, PMU_COUNTER_STOP, base, mask, flags);
}

struct sbiret pmu_fw_read(unsigned long idx)
{
	return sbi_call1(SBI_EXT_PMU, PMU_COUNTER_FW_READ, idx);
}

struct sbiret pmu_fw_read_hi(unsigned long idx)
{
	return sbi_call1(SBI_EXT_PMU, PMU_COUNTER_FW_READ_HI, idx);
}

struct sbiret pmu_set_shmem(unsigned long lo, unsigned long hi,
			    unsigned long flags)
{
	return sbi_call3(SBI_EXT_PMU, PMU_SNAPSHOT_SET_SHMEM, lo, hi, flags);
}

struct sbiret pmu_event_info(unsigned long lo, unsigned long hi,
			     unsigned long n, unsigned long flags)
{
	return sbi_ecall(SBI_EXT_PMU, PMU_EVENT_GET_INFO, lo, hi, n, flags,
			 0, 0);
}

/* No libgcc here: no __builtin_ctz. */
unsigned long lowest_bit(uint64_t bits)
{
	unsigned long i;

	for (i = 0; i < 64; i++)
		if (bits >> i & 1)
			return i;
	return -1UL;
}

bool pmu_is_hw(unsigned long idx)
{
	return idx < MAX_COUNTERS && (pmu.hw >> idx & 1);
}

bool pmu_is_fw(unsigned long idx)
{
	return idx < MAX_COUNTERS && (pmu.fw >> idx & 1);
}

void pmu_release(unsigned long idx)
{
	pmu_stop(idx, 1, 0);
	pmu_stop(idx, 1, STOP_RESET);
}

void pmu_release_all(void)
{
	unsigned long i;

	for (i = 0; i < pmu.num && i < MAX_COUNTERS; i++)
		if ((pmu.hw | pmu.fw) >> i & 1)
			pmu_release(i);
}

uint32_t dt_counters_for(unsigned long event)
{
	uint32_t mask = 0;
	unsigned int i;

	for (i = 0; i < machine.npmu_rows; i++)
		if (event >= machine.pmu_rows[i].first &&
		    event <= machine.pmu_rows[i].last)
			mask |= machine.pmu_rows[i].counters;
	return mask;
}

bool pmu_read_hw(unsigned long idx, unsigned long *val)
{
	struct hart *h = this_hart();
	unsigned long csr = CTR_INFO_CSR(pmu.info[idx]) - 0xc00;

	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	*val = pmu_csr_read(csr);
	mb();
	h->trap_armed = false;
	return h->trap_cause == 0;
}

uint64_t pmu_read_hw64(unsigned long idx)
{
#if __riscv_xlen == 32
	unsigned long csr = CTR_INFO_CSR(pmu.info[idx]) - 0xc00;
	unsigned long hi, lo;

	do {
		hi = pmu_csr_read_hi(csr);
		if (!pmu_read_hw(idx, &lo))
			return ~0ULL;
	} while (hi != pmu_csr_read_hi(csr));
	return (uint64_t)hi << 32 | lo;
#else
	unsigned long v;

	return pmu_read_hw(idx, &v) ? v : ~0ULL;
#endif
}

/* ---- discovery --------------------------------------------------------- */

/* Appends " <i>" to a list of offenders. */
static void note(char *list, size_t size, unsigned long i)
{
	size_t used = strlen(list);

	if (used + 8 < size)
		snprintf(list + used, size - used, " %lu", i);
}

/* counter_get_info of every index below num_counters: valid (hardware
 * or firmware) or a hole (INVALID_PARAM, which Linux skips: index 1,
 * time, is the usual one). Returns the CSR offsets of the hardware
 * counters whose CSR is 0xC00 + index. */
static uint32_t check_infos(void)
{
	char errs[64] = "", resv[64] = "", csr[64] = "", width[64] = "";
	uint32_t csrs = 0;
	unsigned long i;

	for (i = 0; i < pmu.num; i++) {
		struct sbiret r = pmu_get_info(i);
		unsigned long v = r.value;

		if (r.error == SBI_ERR_INVALID_PARAM) {
			info("pmu", "counter_get_info(%lu) = INVALID_PARAM (a "
			     "hole)", i);
			continue;
		}
		if (r.error) {
			note(errs, sizeof(errs), i);
			continue;
		}
		if (v & CTR_INFO_RESERVED)
			note(resv, sizeof(resv), i);
		pmu.info[i] = v;
		if (v & CTR_INFO_FW) {
			pmu.fw |= 1ULL << i;
			continue;
		}
		pmu.hw |= 1ULL << i;
		if (CTR_INFO_CSR(v) == 0xc00 + i && i < 32)
			csrs |= 1U << i;
		else
			note(csr, sizeof(csr), i);
		/* mcycle/minstret are 64-bit; QEMU's mhpmcounters too. */
		if (CTR_INFO_WIDTH(v) != 63)
			note(width, sizeof(width), i);
	}
	check(!errs[0], "pmu", "counter_get_info(i < num_counters) returns 0 "
	      "or INVALID_PARAM (a hole)", sfmt("other errors for:%s", errs));
	check(!resv[0], "pmu", "counter_get_info: reserved bits [62:18] are 0",
	      sfmt("set for:%s", resv));
	check(!csr[0], "pmu", "counter_get_info: hardware counter i has CSR "
	      "0xC00 + i", sfmt("not for:%s", csr));
	check(!width[0], "pmu", "counter_get_info: hardware counters are 64 "
	      "bits wide (width field 63)", sfmt("not for:%s", width));
	return csrs;
}

static void check_readable(void)
{
	unsigned long i, val, bad = 0, n = 0;

	for (i = 0; i < MAX_COUNTERS; i++) {
		if (!pmu_is_hw(i) || CTR_INFO_CSR(pmu.info[i]) - 0xc00 >= 32)
			continue;
		n++;
		if (!pmu_read_hw(i, &val))
			bad |= 1UL << i;
	}
	check(!bad, "pmu", sfmt("S-mode reads the CSR of all %lu hardware "
				"counters (mcounteren set)", n),
	      sfmt("counters %lx trap", bad));
}

void test_pmu_discovery(void)
{
	struct sbiret r = pmu_num_counters();
	uint32_t csrs = 0, want = 0;
	unsigned long i, fw_info = 0;
	bool fw_same = true;
	unsigned int row;

	pmu.num = 0;
	if (!check(!r.error && r.value > 0, "pmu",
		   sfmt("num_counters = %lu", r.value),
		   sfmt("got %s, want error=0 value>0", ret_str(r))))
		return;
	pmu.num = r.value;
	if (!check(pmu.num <= MAX_COUNTERS, "pmu",
		   "num_counters <= 64 (what Linux and the snapshot area take)",
		   sfmt("%lu", pmu.num)))
		pmu.num = MAX_COUNTERS;
	csrs = check_infos();
	pmu.hw_prog = pmu.hw & ~7UL;
	pmu.first_fw = lowest_bit(pmu.fw);
	info("pmu", "hardware counters %lx, firmware counters %lx",
	     (unsigned long)pmu.hw, (unsigned long)pmu.fw);

	/* The DT (QEMU's, from pmu-num) names the counters that exist: 0
	 * (cycle), 2 (instret) and 3..2+pmu-num. */
	for (row = 0; row < machine.npmu_rows; row++)
		want |= machine.pmu_rows[row].counters;
	want |= 5;
	check((csrs & ~2U) == want, "pmu",
	      sfmt("hardware counters are exactly cycle, instret and the "
		   "event map's programmable ones (CSRs %x)", want),
	      sfmt("CSRs of valid hardware counters: %x", csrs));
	if (pmu.hw & 2)
		info("pmu", "counter 1 (time) is listed as a hardware counter");

	for (i = 0; i < pmu.num; i++) {
		if (!pmu_is_fw(i))
			continue;
		if (!fw_info)
			fw_info = pmu.info[i];
		else if (CTR_INFO_WIDTH(pmu.info[i]) != CTR_INFO_WIDTH(fw_info))
			fw_same = false;
	}
	if (pmu.fw)
		check(fw_same, "pmu", "all firmware counters have one width",
		      "widths differ");
	if (pmu.tally)
		check(pmu.fw != 0, "pmu", "Tally has firmware counters",
		      "none listed");

	expect_err(pmu_get_info(pmu.num), SBI_ERR_INVALID_PARAM, "pmu",
		   sfmt("counter_get_info(%lu = num_counters) returns "
			"INVALID_PARAM", pmu.num));
	expect_err(pmu_get_info(-1UL), SBI_ERR_INVALID_PARAM, "pmu",
		   "counter_get_info(ULONG_MAX) returns INVALID_PARAM");
	expect_err(pmu_get_info(HI32(1) | (sizeof(long) == 4 ? 0x80000000UL : 0)),
		   SBI_ERR_INVALID_PARAM, "pmu",
		   "counter_get_info(1 << 32) returns INVALID_PARAM (no "
		   "truncation to counter 0)");
	check_readable();
}

/* ---- hostile arguments ------------------------------------------------- */

struct bad_set {
	unsigned long base, mask;
	const char *name;
};

static unsigned int bad_sets(struct bad_set *s)
{
	static char names[6][64];
	unsigned int n = 0;
	unsigned long f = pmu.fw ? pmu.first_fw : 0;

	s[n++] = (struct bad_set){ pmu.num, 1, "base = num_counters" };
	s[n++] = (struct bad_set){ -1UL, 1, "base = ULONG_MAX" };
	s[n++] = (struct bad_set){ -2UL, 3, "base = ULONG_MAX - 1, mask 3 "
						"(wraps to 0)" };
	s[n++] = (struct bad_set){ 64, 1, "base = 64" };
	snprintf(names[0], sizeof(names[0]), "base = 1 << 32 | %lu", f);
	s[n++] = (struct bad_set){ HI32(1) | (sizeof(long) == 4 ? 0x80000000UL : 0) | f,
				   1, names[0] };
	s[n++] = (struct bad_set){ 0, TOP_BIT, "mask bit XLEN-1" };
	s[n++] = (struct bad_set){ 0, -1UL, "mask all ones" };
	snprintf(names[1], sizeof(names[1]), "base %lu, mask 3 (one past the "
		 "last)", pmu.num - 1);
	s[n++] = (struct bad_set){ pmu.num - 1, 3, names[1] };
	if (pmu.num < __riscv_xlen) {
		snprintf(names[2], sizeof(names[2]), "mask bit %lu = "
			 "num_counters", pmu.num);
		s[n++] = (struct bad_set){ 0, 1UL << pmu.num | 1UL << f,
					   names[2] };
	}
	/* A bit that base + bit puts at XLEN: lost by an XLEN-bit shift. */
	if (f > 0 && f < __riscv_xlen) {
		snprintf(names[3], sizeof(names[3]), "base %lu, mask bit %lu "
			 "(counter %u)", f, __riscv_xlen - f, __riscv_xlen);
		s[n++] = (struct bad_set){ f, 1 | 1UL << (__riscv_xlen - f), names[3] };
	}
	if (!(pmu.hw & 2) && (pmu.hw & 5) == 5)
		s[n++] = (struct bad_set){ 0, 7, "counters 0..2, 1 a hole" };
	return n;
}

void pmu_check_alive(const char *after)
{
	struct sbiret r = sbi_call0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);

	check(!r.error && r.value == pmu.spec, "pmu",
	      sfmt("base get_spec_version still answers after %s", after),
	      ret_str(r));
	expect_val(pmu_num_counters(), pmu.num, "pmu",
		   sfmt("num_counters unchanged after %s", after));
}

void test_pmu_args(void)
{
	struct bad_set sets[16];
	unsigned int i, n = bad_sets(sets);
	unsigned long f = pmu.first_fw, fwev = EV_FW(FW_SET_TIMER);
	struct sbiret r;

	for (i = 0; i < n; i++) {
		const struct bad_set *s = &sets[i];

		expect_err(pmu_config(s->base, s->mask, 0, fwev, 0),
			   SBI_ERR_INVALID_PARAM, "pmu",
			   sfmt("config_matching(%s) returns INVALID_PARAM",
				s->name));
		expect_err(pmu_start(s->base, s->mask, 0, 0),
			   SBI_ERR_INVALID_PARAM, "pmu",
			   sfmt("counter_start(%s) returns INVALID_PARAM",
				s->name));
		expect_err(pmu_stop(s->base, s->mask, 0),
			   SBI_ERR_INVALID_PARAM, "pmu",
			   sfmt("counter_stop(%s) returns INVALID_PARAM",
				s->name));
	}
	/* An empty set: no counter is invalid, none can count. */
	r = pmu_config(0, 0, 0, fwev, 0);
	expect_err2(r, SBI_ERR_INVALID_PARAM, SBI_ERR_NOT_SUPPORTED, "pmu",
		    "config_matching(mask 0) returns INVALID_PARAM or "
		    "NOT_SUPPORTED");
	r = pmu_start(0, 0, 0, 0);
	expect_err2(r, SBI_ERR_INVALID_PARAM, 0, "pmu",
		    "counter_start(mask 0) returns INVALID_PARAM or 0");
	r = pmu_stop(0, 0, 0);
	expect_err2(r, SBI_ERR_INVALID_PARAM, 0, "pmu",
		    "counter_stop(mask 0) returns INVALID_PARAM or 0");

	/* Reserved flag bits, on an otherwise good request that must then
	 * have no effect. */
	if (pmu.fw) {
		static const unsigned long cfg_bad[] = { 1UL << 8, TOP_BIT };
		static const unsigned long ss_bad[] = { 1UL << 2, TOP_BIT };

		for (i = 0; i < 2; i++)
			expect_err(pmu_config(f, 1, cfg_bad[i] | CFG_SKIP_MATCH,
					      fwev, 0),
				   SBI_ERR_INVALID_PARAM, "pmu",
				   sfmt("config_matching(flags %lx reserved) "
					"returns INVALID_PARAM", cfg_bad[i]));
		r = pmu_config(f, 1, 0, fwev, 0);
		expect_val(r, f, "pmu", sfmt("counter %lu is still free after "
					     "those (config_matching returns it)",
					     f));
		for (i = 0; i < 2; i++)
			expect_err(pmu_start(f, 1, ss_bad[i], 0),
				   SBI_ERR_INVALID_PARAM, "pmu",
				   sfmt("counter_start(flags %lx reserved) "
					"returns INVALID_PARAM", ss_bad[i]));
		expect_err(pmu_stop(f, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
			   "the counter did not start (counter_stop returns "
			   "ALREADY_STOPPED)");
		expect_err(pmu_start(f, 1, 0, 0), 0, "pmu",
			   "counter_start of it returns 0");
		for (i = 0; i < 2; i++)
			expect_err(pmu_stop(f, 1, ss_bad[i]),
				   SBI_ERR_INVALID_PARAM, "pmu",
				   sfmt("counter_stop(flags %lx reserved) "
					"returns INVALID_PARAM", ss_bad[i]));
		expect_err(pmu_stop(f, 1, 0), 0, "pmu",
			   "the counter is still running (counter_stop "
			   "returns 0)");
		pmu_release(f);
	}

	/* fw_read / fw_read_hi of what is no firmware counter. */
	{
		const struct {
			unsigned long idx;
			const char *name;
		} bad[] = {
			{ pmu.num, "num_counters" },
			{ -1UL, "ULONG_MAX" },
			{ pmu.hw & 1 ? 0 : pmu.num, "0 (cycle, hardware)" },
			{ HI32(1) | (sizeof(long) == 4 ? 0x80000000UL : 0) | f,
			  "1 << 32 (RV32: 1 << 31) | first firmware counter" },
		};

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			if (pmu.spec >= SPEC(2, 0))
				expect_err(pmu_fw_read_hi(bad[i].idx),
					   SBI_ERR_INVALID_PARAM, "pmu",
					   sfmt("counter_fw_read_hi(%s) returns "
						"INVALID_PARAM", bad[i].name));
			expect_err(pmu_fw_read(bad[i].idx),
				   SBI_ERR_INVALID_PARAM, "pmu",
				   sfmt("counter_fw_read(%s) returns "
					"INVALID_PARAM", bad[i].name));
		}
	}
	expect_err(sbi_call0(SBI_EXT_PMU, PMU_EVENT_GET_INFO + 1),
		   SBI_ERR_NOT_SUPPORTED, "pmu",
		   "unknown FID 9 returns NOT_SUPPORTED");
	expect_err(sbi_call0(SBI_EXT_PMU, -1UL), SBI_ERR_NOT_SUPPORTED, "pmu",
		   "unknown FID ULONG_MAX returns NOT_SUPPORTED");
	pmu_check_alive("the hostile arguments");
}

/* ---- the life of a counter, on firmware counters ----------------------- */

static void set_timers(unsigned int k)
{
	while (k--)
		sbi_set_timer(~0ULL);
}

/* config_matching over all firmware counters; -1 if it failed. */
static unsigned long config_fw(unsigned long code, unsigned long flags,
			       const char *what)
{
	struct sbiret r = pmu_config(0, pmu.fw, flags, EV_FW(code), 0);

	if (!check(!r.error && pmu_is_fw(r.value), "pmu",
		   sfmt("config_matching(firmware counters, %s) returns a "
			"firmware counter", what),
		   ret_str(r)))
		return -1UL;
	return r.value;
}

static void check_fw_value(unsigned long idx, unsigned long want,
			   const char *what)
{
	expect_val(pmu_fw_read(idx), want, "pmu",
		   sfmt("counter_fw_read(%lu) = %lu %s", idx, want, what));
}

static void lifecycle_basic(void)
{
	unsigned long f, g;
	struct sbiret r;

	f = config_fw(FW_SET_TIMER, CFG_CLEAR_VALUE, "SET_TIMER, CLEAR_VALUE");
	if (f == -1UL)
		return;
	check_fw_value(f, 0, "after CLEAR_VALUE");
	expect_err(pmu_stop(f, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
		   "counter_stop of a configured, unstarted counter returns "
		   "ALREADY_STOPPED");
	set_timers(2);
	check_fw_value(f, 0, "(no counting before counter_start)");
	expect_err(pmu_start(f, 1, START_SET_INIT_VALUE, 0), 0, "pmu",
		   "counter_start(SET_INIT_VALUE 0) returns 0");
	expect_err(pmu_start(f, 1, 0, 0), SBI_ERR_ALREADY_STARTED, "pmu",
		   "counter_start of a started counter returns ALREADY_STARTED");
	set_timers(5);
	check_fw_value(f, 5, "after 5 set_timer calls");
	expect_err(pmu_start(f, 1, START_SET_INIT_VALUE, 1000),
		   SBI_ERR_ALREADY_STARTED, "pmu",
		   "counter_start(SET_INIT_VALUE 1000) of a started counter "
		   "returns ALREADY_STARTED");
	check_fw_value(f, 5, "(the refused start did not set 1000)");
	expect_err(pmu_stop(f, 1, 0), 0, "pmu", "counter_stop returns 0");
	expect_err(pmu_stop(f, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
		   "counter_stop again returns ALREADY_STOPPED");
	set_timers(3);
	check_fw_value(f, 5, "(a stopped counter does not count)");
	if (pmu.spec >= SPEC(2, 0))
		expect_val(pmu_fw_read_hi(f), 0, "pmu",
			   "counter_fw_read_hi of a small count = 0");
	else
		expect_err(pmu_fw_read_hi(f), SBI_ERR_NOT_SUPPORTED, "pmu",
			   "counter_fw_read_hi (SBI 2.0) returns NOT_SUPPORTED "
			   "from an older firmware");
	expect_err(pmu_start(f, 1, 0, 0), 0, "pmu",
		   "counter_start without SET_INIT_VALUE returns 0");
	set_timers(2);
	pmu_stop(f, 1, 0);
	check_fw_value(f, 7, "(counting resumed from 5)");
	pmu_start(f, 1, START_SET_INIT_VALUE, 1000);
	set_timers(2);
	pmu_stop(f, 1, 0);
	check_fw_value(f, 1002, "(SET_INIT_VALUE 1000, then 2 calls)");
	/* Across 2^32: the initial value is a register pair on RV32, and
	 * fw_read gives bits XLEN-1:0 of 0x1_00000001, fw_read_hi the rest. */
	if (pmu.spec >= SPEC(2, 0)) {
		pmu_start(f, 1, START_SET_INIT_VALUE, 0xffffffffULL);
		set_timers(2);
		pmu_stop(f, 1, 0);
		expect_val(pmu_fw_read(f), (unsigned long)0x100000001ULL, "pmu",
			   "SET_INIT_VALUE 2^32 - 1, then 2 calls: counter_fw_read "
			   "= the low XLEN bits of 0x100000001");
		expect_val(pmu_fw_read_hi(f), sizeof(long) == 4 ? 1 : 0, "pmu",
			   "... and counter_fw_read_hi = bits 63:32 on RV32, 0 "
			   "on RV64");
	}

	/* Configured but unstarted counters are in use: Linux takes the
	 * index it gets as its own. */
	g = config_fw(FW_SET_TIMER, 0, "SET_TIMER again");
	if (g != -1UL) {
		check(g != f, "pmu", "a second config_matching picks another "
		      "counter than the configured one",
		      sfmt("both got %lu", f));
		pmu_release(g);
	}
	/* RESET releases: the counter can be matched again. */
	expect_err(pmu_stop(f, 1, STOP_RESET), SBI_ERR_ALREADY_STOPPED, "pmu",
		   "counter_stop(RESET) of a stopped counter returns "
		   "ALREADY_STOPPED");
	r = pmu_config(f, 1, 0, EV_FW(FW_SET_TIMER), 0);
	expect_val(r, f, "pmu", "after counter_stop(RESET) config_matching "
		   "(mask = that counter only) gets it again");
	pmu_start(f, 1, 0, 0);
	expect_err(pmu_stop(f, 1, STOP_RESET), 0, "pmu",
		   "counter_stop(RESET) of a running counter returns 0");
	r = pmu_config(f, 1, CFG_CLEAR_VALUE, EV_FW(FW_SET_TIMER), 0);
	expect_val(r, f, "pmu", "and it is free again");
	pmu_release(f);

	/* SKIP_MATCH takes the first counter of the set, AUTO_START starts
	 * it; CLEAR_VALUE zeroes it. */
	r = pmu_config(f, 1, CFG_SKIP_MATCH | CFG_AUTO_START | CFG_CLEAR_VALUE,
		       EV_FW(FW_SET_TIMER), 0);
	expect_val(r, f, "pmu", sfmt("config_matching(base %lu, SKIP_MATCH | "
				     "AUTO_START | CLEAR_VALUE) returns %lu",
				     f, f));
	if (!r.error) {
		expect_err(pmu_start(f, 1, 0, 0), SBI_ERR_ALREADY_STARTED,
			   "pmu", "AUTO_START started it (counter_start "
			   "returns ALREADY_STARTED)");
		set_timers(3);
		expect_err(pmu_stop(f, 1, 0), 0, "pmu",
			   "counter_stop of the auto-started counter returns 0");
		check_fw_value(f, 3, "(AUTO_START | CLEAR_VALUE, 3 calls)");
	}
	pmu_release(f);
}

/* A multi-counter start that fails must change nothing. */
static void lifecycle_atomic(void)
{
	unsigned long a, b, lo, m;
	struct sbiret r;

	a = config_fw(FW_SET_TIMER, CFG_CLEAR_VALUE, "SET_TIMER (a)");
	b = config_fw(FW_SET_TIMER, CFG_CLEAR_VALUE, "SET_TIMER (b)");
	if (a == -1UL || b == -1UL || a == b) {
		skip("pmu", "multi-counter start checks",
		     "two firmware counters needed");
		goto out;
	}
	lo = a < b ? a : b;
	m = 1UL << (a - lo) | 1UL << (b - lo);
	expect_err(pmu_start(a, 1, 0, 0), 0, "pmu", "counter_start(a) returns 0");
	r = pmu_start(lo, m, 0, 0);
	expect_err(r, SBI_ERR_ALREADY_STARTED, "pmu",
		   sfmt("counter_start(base %lu, mask %lx) with a (%lu) running "
			"returns ALREADY_STARTED", lo, m, a));
	set_timers(4);
	check_fw_value(b, 0, "(b was not started by the refused call)");
	expect_err(pmu_stop(b, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
		   "b is not running (counter_stop returns ALREADY_STOPPED)");
	check_fw_value(a, 4, "(a kept counting)");
	pmu_stop(a, 1, 0);

	/* With an invalid counter in the set. */
	if (pmu.num - lo < __riscv_xlen) {
		m = 1UL << (a - lo) | 1UL << (pmu.num - lo);
		expect_err(pmu_start(lo, m, 0, 0), SBI_ERR_INVALID_PARAM,
			   "pmu", sfmt("counter_start(base %lu, mask %lx: a and "
				       "counter %lu = num_counters) returns "
				       "INVALID_PARAM", lo, m, pmu.num));
		expect_err(pmu_stop(a, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
			   "and did not start a");
	}
	/* With a counter that has no event: b, after a RESET. */
	pmu_stop(b, 1, STOP_RESET);
	m = 1UL << (a - lo) | 1UL << (b - lo);
	r = pmu_start(lo, m, 0, 0);
	check(r.error != 0, "pmu", "counter_start(a and an unconfigured "
	      "counter) returns an error", ret_str(r));
	if (r.error)
		expect_err(pmu_stop(a, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
			   "and did not start a");
out:
	pmu_release_all();
}

/* Hardware counters through the same calls: cycles / instructions. */
static void lifecycle_hw(void)
{
	static const struct {
		unsigned long event;
		const char *name;
	} evs[] = {
		{ EV_HW_CYCLES, "cycles" },
		{ EV_HW_INSTRUCTIONS, "instructions" },
	};
	unsigned int e;

	for (e = 0; e < 2; e++) {
		uint32_t can = dt_counters_for(evs[e].event);
		unsigned long c, v1, v2;
		volatile unsigned long spin;
		struct sbiret r;

		r = pmu_config(0, pmu.hw, CFG_CLEAR_VALUE, evs[e].event, 0);
		if (!check(!r.error && pmu_is_hw(r.value) &&
			   (can >> r.value & 1), "pmu",
			   sfmt("config_matching(hardware counters, %s) returns "
				"a counter the DT lists for it (%x)",
				evs[e].name, can), ret_str(r)))
			continue;
		c = r.value;
		info("pmu", "%s: counter %lu", evs[e].name, c);
		expect_err(pmu_start(c, 1, START_SET_INIT_VALUE, 0), 0, "pmu",
			   sfmt("counter_start(%s counter %lu) returns 0",
				evs[e].name, c));
		for (spin = 0; spin < 20000; spin++)
			;
		pmu_read_hw(c, &v1);
		expect_err(pmu_stop(c, 1, 0), 0, "pmu",
			   sfmt("counter_stop(%s counter %lu) returns 0",
				evs[e].name, c));
		/* One read after the stop, as Linux does: QEMU 7.2 answers
		 * later reads of a stopped cycle/instret counter with the
		 * last value written to it. */
		pmu_read_hw(c, &v2);
		check(v1 >= 20000 && v1 < HI32(1UL << 8) - 1, "pmu",
		      sfmt("%s counter counts a 20000-iteration loop from 0",
			   evs[e].name), sfmt("read %lu", v1));
		check(v2 >= v1 && v2 < HI32(1UL << 8) - 1, "pmu",
		      sfmt("%s counter read after counter_stop has the count",
			   evs[e].name),
		      sfmt("running %lu, stopped %lu", v1, v2));
		pmu_release(c);
	}
}

void test_pmu_lifecycle(void)
{
	if (!pmu.fw) {
		skip("pmu", "firmware counter lifecycle checks",
		     "no firmware counters");
	} else {
		lifecycle_basic();
		lifecycle_atomic();
	}
	lifecycle_hw();
	pmu_check_alive("the lifecycle checks");
}
