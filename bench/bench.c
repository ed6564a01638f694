// SPDX-License-Identifier: BSD-2-Clause
/*
 * The S-mode benchmark payload: the cost of each SBI call in instructions.
 *
 * Under QEMU's -icount shift=0 the instret CSR counts every instruction the
 * hart executes, in M-mode too. A call is timed as "csrr instret; ecall;
 * csrr instret" (ecall.S) less the same two reads with nothing between them,
 * REPS times; the minimum and the median are reported.
 *
 * Output, one line each, read by bench/run.sh:
 *   BENCH-BOOT <instret at the first instruction>
 *   BENCH-EMPTY <min> <median>
 *   BENCH <id> ok <min> <median> <samples> <sbi error of the call>
 *   BENCH <id> na <reason>
 *   BENCH-CHECK PASS|FAIL <text>
 *   BENCH-INFO <text>
 *   BENCH-SERIES <mark> <id>
 *   BENCH-DONE <rows measured>
 * then the payload shuts the machine down (SRST, else legacy, else QEMU's
 * test device).
 */
#include <stdbool.h>
#include <stddef.h>
#include "bench.h"

#define REPS		101
#define FAR_FUTURE	(1UL << 40)	/* timer ticks: never fires during the run */
#define CSR_SIP		0x144
#define SIP_SSIP	(1UL << 1)

#define csr_read(csr) ({						\
	unsigned long __v;						\
	__asm__ __volatile__("csrr %0, " #csr : "=r"(__v) : : "memory");	\
	__v; })

static unsigned long empty_cost;
static unsigned long hartid;
static unsigned int rows_measured;
static bool any_failure;

/* Shared memory for event_get_info and the PMU snapshot. */
struct event_info {
	unsigned int event_idx;
	unsigned int output;
	unsigned long event_data;
};
static struct event_info event_info[8] __attribute__((aligned(16)));
static unsigned char snapshot_page[4096] __attribute__((aligned(4096)));

/* ---- series of samples ------------------------------------------------ */

struct series {
	const char *id;
	unsigned long s[REPS];
	unsigned int n;
	long error;		/* answer of the last call measured */
	const char *na;		/* why it was not measured, if it was not */
	long na_err;		/* the answer that stopped it, for "ERROR" */
	unsigned long mark;	/* bench_mark() number, for bench/breakdown.py */
};

static const char *sbi_error_name(long err)
{
	switch (err) {
	case 0: return "SUCCESS";
	case -1: return "FAILED";
	case -2: return "NOT_SUPPORTED";
	case -3: return "INVALID_PARAM";
	case -4: return "DENIED";
	case -5: return "INVALID_ADDRESS";
	case -6: return "ALREADY_AVAILABLE";
	case -7: return "ALREADY_STARTED";
	case -8: return "ALREADY_STOPPED";
	case -9: return "NO_SHMEM";
	default: return "ERROR";
	}
}

static void series_init(struct series *s, const char *id)
{
	static unsigned long marks;

	s->id = id;
	s->mark = marks++ % BENCH_MARKS;
	bprintf("BENCH-SERIES %lu %s\n", s->mark, id);
	s->n = 0;
	s->error = 0;
	s->na = NULL;
	s->na_err = 0;
}

static void series_na(struct series *s, const char *why)
{
	if (!s->na)
		s->na = why;
}

/* Not measured because a call answered err; unnamed errors keep their number. */
static void series_na_err(struct series *s, long err)
{
	if (s->na)
		return;
	s->na = sbi_error_name(err);
	s->na_err = err;
}

/* Times one call; true if it answered one of the expected errors. */
static bool timed(struct series *s, struct bench_call *c, long expect, long expect2)
{
	unsigned long n;

	bench_mark(s->mark);	/* untimed: names the series in a trace */
	n = bench_ecall(c) - empty_cost;

	if (c->error != expect && c->error != expect2) {
		series_na_err(s, c->error);
		return false;
	}
	if (s->n < REPS)
		s->s[s->n++] = n;
	s->error = c->error;
	return true;
}

static void sort(unsigned long *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		unsigned long x = v[i];
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void series_report(struct series *s)
{
	if (s->na && s->na[0] == 'E')	/* "ERROR": no name for it */
		bprintf("BENCH %s na ERROR %ld\n", s->id, s->na_err);
	else if (s->na || !s->n)
		bprintf("BENCH %s na %s\n", s->id, s->na ? s->na : "not measured");
	if (s->na || !s->n)
		return;
	sort(s->s, s->n);
	bprintf("BENCH %s ok %lu %lu %u %ld\n", s->id, s->s[0], s->s[s->n / 2], s->n,
		s->error);
	rows_measured++;
}

static void check(bool ok, const char *what)
{
	bprintf("BENCH-CHECK %s %s\n", ok ? "PASS" : "FAIL", what);
	if (!ok)
		any_failure = true;
}

/* ---- calls -------------------------------------------------------------- */

static struct bench_call call(unsigned long eid, unsigned long fid, unsigned long a0,
			      unsigned long a1, unsigned long a2, unsigned long a3,
			      unsigned long a4)
{
	struct bench_call c = {
		.arg = { a0, a1, a2, a3, a4, 0 }, .fid = fid, .eid = eid,
	};
	return c;
}

/* An untimed call, for set-up and clean-up. */
static struct bench_call sbi(unsigned long eid, unsigned long fid, unsigned long a0,
			     unsigned long a1, unsigned long a2, unsigned long a3,
			     unsigned long a4)
{
	struct bench_call c = call(eid, fid, a0, a1, a2, a3, a4);

	bench_ecall(&c);
	return c;
}

/* Times the same call REPS times. */
static void measure(struct series *s, struct bench_call tmpl, long expect)
{
	for (unsigned int i = 0; i < REPS; i++) {
		struct bench_call c = tmpl;

		if (!timed(s, &c, expect, expect))
			break;
	}
	series_report(s);
}

/* ---- the benchmarks ----------------------------------------------------- */

static void bench_empty_pair(void)
{
	unsigned long v[REPS];

	for (unsigned int i = 0; i < REPS; i++)
		v[i] = bench_empty();
	sort(v, REPS);
	empty_cost = v[0];
	bprintf("BENCH-EMPTY %lu %lu\n", v[0], v[REPS / 2]);
	check(v[0] > 0, "instret counts in S-mode (an empty rdinstret pair counts > 0)");
	check(v[0] == v[REPS - 1], "an empty rdinstret pair costs the same every time");
}

static void bench_base(bool *has_pmu)
{
	struct series s;
	struct bench_call c;

	c = sbi(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION, 0, 0, 0, 0, 0);
	bprintf("BENCH-INFO spec_version 0x%lx\n", c.value);
	c = sbi(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID, 0, 0, 0, 0, 0);
	bprintf("BENCH-INFO impl_id %lu\n", c.value);
	c = sbi(SBI_EXT_BASE, SBI_BASE_GET_IMPL_VERSION, 0, 0, 0, 0, 0);
	bprintf("BENCH-INFO impl_version 0x%lx\n", c.value);
	c = sbi(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_PMU, 0, 0, 0, 0);
	*has_pmu = c.error == 0 && c.value != 0;
	bprintf("BENCH-INFO pmu %s\n", *has_pmu ? "present" : "absent");

	series_init(&s, "base_spec_version");
	measure(&s, call(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION, 0, 0, 0, 0, 0), 0);
	series_init(&s, "base_probe_pmu");
	measure(&s, call(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_PMU, 0, 0, 0, 0), 0);
	series_init(&s, "unknown_eid");
	measure(&s, call(0x0F000000, 0, 0, 0, 0, 0, 0), SBI_ERR_NOT_SUPPORTED);
}

/* FWFT get of a feature every hart with medeleg has: a value kept per hart. */
static void bench_fwft(void)
{
	struct series s;

	series_init(&s, "fwft_get");
	measure(&s, call(SBI_EXT_FWFT, SBI_FWFT_GET, SBI_FWFT_MISALIGNED_EXC_DELEG,
			 0, 0, 0, 0), 0);
}

static void bench_set_timer(const char *id)
{
	struct series s;

	series_init(&s, id);
	for (unsigned int i = 0; i < REPS; i++) {
		struct bench_call c = call(SBI_EXT_TIME, 0, csr_read(time) + FAR_FUTURE,
					   0, 0, 0, 0);
		if (!timed(&s, &c, 0, 0))
			break;
	}
	series_report(&s);
}

static void bench_ipi_rfence(void)
{
	struct series s;

	series_init(&s, "ipi_self");
	for (unsigned int i = 0; i < REPS; i++) {
		struct bench_call c = call(SBI_EXT_IPI, 0, 1, hartid, 0, 0, 0);
		bool ok = timed(&s, &c, 0, 0);

		__asm__ __volatile__("csrc 0x144, %0" : : "r"(SIP_SSIP) : "memory");
		if (!ok)
			break;
	}
	series_report(&s);
	check(!(csr_read(0x144) & SIP_SSIP), "no supervisor software interrupt left pending");

	series_init(&s, "rfence_sfence_self");
	measure(&s, call(SBI_EXT_RFENCE, SBI_RFENCE_SFENCE_VMA, 1, hartid, 0, 4096, 0), 0);
}

/*
 * SSE: inject the local software event on this hart; it is delivered as
 * the inject returns, its handler (bench_sse_entry) calls complete at
 * once, and the inject's caller resumes. One row: the whole round trip.
 */
void bench_sse_entry(void);

static void bench_sse(void)
{
	struct series s;
	struct bench_call c = sbi(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, SBI_EXT_SSE, 0, 0, 0, 0);

	series_init(&s, "sse_inject_complete");
	if (c.error || !c.value) {
		series_na(&s, "no SSE extension");
		series_report(&s);
		return;
	}
	sbi(SBI_EXT_SSE, SBI_SSE_HART_UNMASK, 0, 0, 0, 0, 0);
	c = sbi(SBI_EXT_SSE, SBI_SSE_REGISTER, SSE_EVENT_LOCAL_SOFTWARE,
		(unsigned long)bench_sse_entry, 0, 0, 0);
	if (!c.error)
		c = sbi(SBI_EXT_SSE, SBI_SSE_ENABLE, SSE_EVENT_LOCAL_SOFTWARE, 0, 0, 0, 0);
	if (c.error) {
		series_na(&s, "register/enable of the local software event failed");
		series_report(&s);
		return;
	}
	measure(&s, call(SBI_EXT_SSE, SBI_SSE_INJECT, SSE_EVENT_LOCAL_SOFTWARE, hartid, 0, 0, 0),
		0);
	sbi(SBI_EXT_SSE, SBI_SSE_DISABLE, SSE_EVENT_LOCAL_SOFTWARE, 0, 0, 0, 0);
	sbi(SBI_EXT_SSE, SBI_SSE_UNREGISTER, SSE_EVENT_LOCAL_SOFTWARE, 0, 0, 0, 0);
	sbi(SBI_EXT_SSE, SBI_SSE_HART_MASK, 0, 0, 0, 0, 0);
}

/* PMU counters as counter_get_info describes them. */
static unsigned long num_counters;
static unsigned long hw_base, hw_mask, fw_base, fw_mask;

static bool pmu_discover(void)
{
	struct bench_call c = sbi(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0);
	bool hw_seen = false, fw_seen = false;

	if (c.error)
		return false;
	num_counters = c.value;
	for (unsigned long i = 0; i < num_counters; i++) {
		c = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_GET_INFO, i, 0, 0, 0, 0);
		if (c.error)
			continue;
		if (c.value & PMU_CTR_INFO_FW) {
			if (!fw_seen)
				fw_base = i, fw_seen = true;
			if (i - fw_base < 64)
				fw_mask |= 1UL << (i - fw_base);
		} else if ((c.value & 0xfff) >= 0xc03 && (c.value & 0xfff) <= 0xc1f) {
			if (!hw_seen)
				hw_base = i, hw_seen = true;
			if (i - hw_base < 64)
				hw_mask |= 1UL << (i - hw_base);
		}
	}
	bprintf("BENCH-INFO pmu counters %lu, programmable base %lu mask 0x%lx, "
		"firmware base %lu mask 0x%lx\n", num_counters, hw_base, hw_mask,
		fw_base, fw_mask);
	return hw_seen && fw_seen;
}

static void pmu_release(unsigned long idx)
{
	sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, idx, 1, PMU_STOP_RESET, 0, 0);
}

/* config_matching, start with a value, stop, stop with reset: one cycle per rep. */
static void bench_pmu_lifecycle(void)
{
	struct series cfg, start, stop, reset;

	series_init(&cfg, "pmu_cfg_match_dtlb");
	series_init(&start, "pmu_start_value");
	series_init(&stop, "pmu_stop");
	series_init(&reset, "pmu_stop_reset");
	for (unsigned int i = 0; i < REPS; i++) {
		struct bench_call c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, hw_base,
					   hw_mask, PMU_CFG_FLAG_CLEAR_VALUE,
					   EV_DTLB_READ_MISS, 0);
		unsigned long idx;

		if (!timed(&cfg, &c, 0, 0))
			break;
		idx = c.value;
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_START, idx, 1,
			 PMU_START_SET_INIT_VALUE, 0, 0);
		if (!timed(&start, &c, 0, 0))
			break;
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, idx, 1, 0, 0, 0);
		if (!timed(&stop, &c, 0, 0))
			break;
		c = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_START, idx, 1, 0, 0, 0);
		if (c.error) {
			series_na_err(&reset, c.error);
			break;
		}
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, idx, 1, PMU_STOP_RESET, 0, 0);
		if (!timed(&reset, &c, 0, 0))
			break;
	}
	if (!start.n)
		series_na(&start, "config_matching failed");
	if (!stop.n)
		series_na(&stop, "counter_start failed");
	if (!reset.n)
		series_na(&reset, "counter_stop failed");
	series_report(&cfg);
	series_report(&start);
	series_report(&stop);
	series_report(&reset);
}

/* A firmware counter counting SET_TIMER: fw_read, and set_timer while it runs. */
static void bench_pmu_fw(void)
{
	struct series rd;
	struct bench_call c;
	unsigned long idx, before, after;

	series_init(&rd, "pmu_fw_read");
	c = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, fw_base, fw_mask,
		PMU_CFG_FLAG_CLEAR_VALUE, EV_FW_SET_TIMER, 0);
	if (c.error) {
		series_na_err(&rd, c.error);
		series_report(&rd);
		bprintf("BENCH time_set_timer_fw na %s\n", rd.na);
		check(false, "config_matching finds a firmware counter for SET_TIMER");
		return;
	}
	idx = c.value;
	c = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_START, idx, 1, PMU_START_SET_INIT_VALUE, 0, 0);
	check(c.error == 0, "a firmware counter for SET_TIMER starts");

	before = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ, idx, 0, 0, 0, 0).value;
	bench_set_timer("time_set_timer_fw");
	after = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ, idx, 0, 0, 0, 0).value;
	bprintf("BENCH-INFO fw counter %lu counted %lu set_timer calls\n", idx, after - before);
	check(after - before == REPS, "the SET_TIMER firmware counter counts every set_timer");

	measure(&rd, call(SBI_EXT_PMU, SBI_PMU_COUNTER_FW_READ, idx, 0, 0, 0, 0), 0);
	pmu_release(idx);
}

/*
 * Linux 6.10+'s overflow handler with the snapshot: counter_stop(0, used,
 * TAKE_SNAPSHOT), then counter_start(XLEN * XLEN, used, INIT_SNAPSHOT),
 * the base Tally reads as 0 (lib/pmu/pmu_linux_compat.c); used is the
 * one counter idx here.
 */
static void bench_linux_overflow(unsigned long idx)
{
	const unsigned long restart_base = (unsigned long)__riscv_xlen * __riscv_xlen;
	struct series stop, start;
	struct bench_call c;

	series_init(&stop, "pmu_ovf_stop_snapshot");
	series_init(&start, "pmu_ovf_restart_snapshot");
	for (unsigned int i = 0; i < REPS; i++) {
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, 0, 1UL << idx,
			 PMU_STOP_TAKE_SNAPSHOT, 0, 0);
		if (!timed(&stop, &c, 0, 0))
			break;
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_START, restart_base, 1UL << idx,
			 PMU_START_INIT_SNAPSHOT, 0, 0);
		if (!timed(&start, &c, 0, 0))
			break;
	}
	series_report(&stop);
	series_report(&start);
}

static void bench_pmu_snapshot(void)
{
	struct series stop, start;
	struct bench_call c;
	unsigned long idx;

	series_init(&stop, "pmu_snapshot_stop");
	series_init(&start, "pmu_snapshot_start");
	c = sbi(SBI_EXT_PMU, SBI_PMU_SNAPSHOT_SET_SHMEM, (unsigned long)snapshot_page, 0, 0, 0, 0);
	if (c.error) {
		series_na_err(&stop, c.error);
		series_na_err(&start, c.error);
		goto out;
	}
	c = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, hw_base, hw_mask,
		PMU_CFG_FLAG_CLEAR_VALUE, EV_DTLB_READ_MISS, 0);
	if (c.error) {
		series_na(&stop, "config_matching failed");
		series_na(&start, "config_matching failed");
		goto off;
	}
	idx = c.value;
	sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_START, idx, 1, 0, 0, 0);
	for (unsigned int i = 0; i < REPS; i++) {
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_STOP, idx, 1, PMU_STOP_TAKE_SNAPSHOT, 0, 0);
		if (!timed(&stop, &c, 0, 0))
			break;
		c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_START, idx, 1, PMU_START_INIT_SNAPSHOT, 0, 0);
		if (!timed(&start, &c, 0, 0))
			break;
	}
	series_report(&stop);
	series_report(&start);
	bench_linux_overflow(idx);
	pmu_release(idx);
	sbi(SBI_EXT_PMU, SBI_PMU_SNAPSHOT_SET_SHMEM, ~0UL, ~0UL, 0, 0, 0);
	return;
off:
	sbi(SBI_EXT_PMU, SBI_PMU_SNAPSHOT_SET_SHMEM, ~0UL, ~0UL, 0, 0, 0);
out:
	series_report(&stop);
	series_report(&start);
	bprintf("BENCH pmu_ovf_stop_snapshot na no snapshot\n");
	bprintf("BENCH pmu_ovf_restart_snapshot na no snapshot\n");
}

static void bench_pmu_event_info(void)
{
	static const unsigned int events[8] = {
		EV_HW_CPU_CYCLES, EV_HW_INSTRUCTIONS, EV_HW_CACHE_REFERENCES,
		EV_DTLB_READ_MISS, EV_DTLB_WRITE_MISS, EV_ITLB_READ_MISS,
		EV_FW_SET_TIMER, EV_FW_IPI_SENT,
	};
	struct series s;

	for (unsigned int i = 0; i < 8; i++)
		event_info[i] = (struct event_info){ .event_idx = events[i] };
	series_init(&s, "pmu_event_info8");
	measure(&s, call(SBI_EXT_PMU, SBI_PMU_EVENT_GET_INFO, (unsigned long)event_info, 0,
			 8, 0, 0), 0);
	if (!s.na) {
		bprintf("BENCH-INFO event_get_info supported:");
		for (unsigned int i = 0; i < 8; i++)
			bprintf(" 0x%x=%u", event_info[i].event_idx, event_info[i].output & 1);
		bprintf("\n");
	}
}

/* A raw (type 2) event: the last row of bench/run.sh's big map. On QEMU's
 * stock map no row matches and the firmware may answer NOT_SUPPORTED. */
static void bench_pmu_raw(void)
{
	struct series s;

	series_init(&s, "pmu_cfg_match_raw");
	for (unsigned int i = 0; i < REPS; i++) {
		struct bench_call c = call(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, hw_base,
					   hw_mask, PMU_CFG_FLAG_CLEAR_VALUE, EV_RAW,
					   RAW_MAP_LOOKUP);

		if (!timed(&s, &c, 0, SBI_ERR_NOT_SUPPORTED))
			break;
		if (c.error == 0) {
			sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_START, c.value, 1, 0, 0, 0);
			pmu_release(c.value);
		}
	}
	series_report(&s);
}

static void bench_pmu(bool has_pmu)
{
	static const char *const rows[] = {
		"pmu_num_counters", "pmu_get_info", "pmu_cfg_match_dtlb", "pmu_start_value",
		"pmu_stop", "pmu_stop_reset", "pmu_fw_read", "time_set_timer_fw",
		"pmu_snapshot_stop", "pmu_snapshot_start", "pmu_event_info8",
		"pmu_cfg_match_raw",
	};
	struct series s;

	if (!has_pmu || !pmu_discover()) {
		const char *why = has_pmu ? "no programmable or firmware counters"
					  : "NOT_SUPPORTED";

		if (!has_pmu) {
			struct bench_call c = sbi(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0);

			check(c.error == SBI_ERR_NOT_SUPPORTED,
			      "PMU absent: its calls answer NOT_SUPPORTED");
		}
		for (unsigned int i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
			bprintf("BENCH %s na %s\n", rows[i], why);
		return;
	}
	series_init(&s, "pmu_num_counters");
	measure(&s, call(SBI_EXT_PMU, SBI_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0), 0);
	series_init(&s, "pmu_get_info");
	measure(&s, call(SBI_EXT_PMU, SBI_PMU_COUNTER_GET_INFO, hw_base, 0, 0, 0, 0), 0);
	bench_pmu_lifecycle();
	bench_pmu_fw();
	bench_pmu_snapshot();
	bench_pmu_event_info();
	bench_pmu_raw();
	/* every counter this run used must be free again */
	{
		struct bench_call c = sbi(SBI_EXT_PMU, SBI_PMU_COUNTER_CFG_MATCH, hw_base,
					  hw_mask, PMU_CFG_FLAG_CLEAR_VALUE,
					  EV_DTLB_READ_MISS, 0);

		check(c.error == 0, "a programmable counter is still free after the run");
		if (c.error == 0)
			pmu_release(c.value);
	}
}

static void __attribute__((noreturn)) shutdown(void)
{
	sbi(SBI_EXT_SRST, 0, 0, 0, 0, 0, 0);
	sbi(SBI_LEGACY_SHUTDOWN, 0, 0, 0, 0, 0, 0);
	/* QEMU virt's test device, if the firmware could not */
	*(volatile unsigned int *)0x100000UL = 0x5555;
	for (;;)
		__asm__ __volatile__("wfi");
}

void bench_trap(unsigned long scause, unsigned long sepc, unsigned long stval)
{
	bprintf("\nBENCH-CHECK FAIL unexpected trap: scause 0x%lx sepc 0x%lx stval 0x%lx\n",
		scause, sepc, stval);
	shutdown();
}

void __attribute__((noreturn)) bench_main(unsigned long hart, unsigned long fdt,
					  unsigned long boot_instret)
{
	bool has_pmu;

	hartid = hart;
	bprintf("\nBENCH-BOOT %lu\n", boot_instret);
	bprintf("BENCH-INFO hart %lu, devicetree 0x%lx, %u repetitions\n", hart, fdt, REPS);
	bench_empty_pair();
	bench_base(&has_pmu);
	bench_fwft();
	bench_set_timer("time_set_timer");
	bench_ipi_rfence();
	bench_pmu(has_pmu);
	bench_sse();
	/* leave no timer armed */
	sbi(SBI_EXT_TIME, 0, ~0UL, 0, 0, 0, 0);
	bprintf("BENCH-DONE %u %s\n", rows_measured, any_failure ? "with failures" : "ok");
	shutdown();
}
