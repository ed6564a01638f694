/* PMU extension, part 4: the functions that take shared memory. The
 * snapshot area (FID 7, SBI 2.0) and event_get_info (FID 8, SBI 3.0):
 * their addresses are checked, then what the firmware reads and writes
 * there, word by word, against a fill pattern. */
#include "hart.h"
#include "test.h"
#include "test_pmu.h"

#define PAGE		4096UL
#define PATTERN		0xa5a5a5a5a5a5a5a5UL
#define SNAP_WORDS	(PAGE / 8)
#define SNAP_VALUES	64		/* counter_values[] at word 1 */

static volatile uint64_t snap[SNAP_WORDS] __attribute__((aligned(PAGE)));

struct ev_entry {
	uint32_t event_idx;
	uint32_t output;
	uint64_t event_data;
};

static volatile struct ev_entry evs[64] __attribute__((aligned(PAGE)));

static unsigned long snap_pa(void)
{
	return (unsigned long)snap;
}

static unsigned long ram_end(void)
{
	return (unsigned long)(machine.mem.base + machine.mem.size);
}

/* The last page of the reserved range that holds the firmware. */
static unsigned long fw_last_page(void)
{
	unsigned int i;

	for (i = 0; i < machine.nresv; i++)
		if (machine.resv[i].base <= FW_BASE &&
		    FW_BASE - machine.resv[i].base < machine.resv[i].size)
			return (unsigned long)(machine.resv[i].base +
					       machine.resv[i].size - PAGE);
	return FW_BASE;
}

static void snap_fill(void)
{
	unsigned int i;

	snap[0] = 0;
	for (i = 1; i < SNAP_WORDS; i++)
		snap[i] = PATTERN;
	mb();
}

/* Words 1..SNAP_WORDS-1 other than the listed counter_values slots
 * still hold the pattern. */
static bool snap_untouched_except(unsigned long slot_a, unsigned long slot_b)
{
	unsigned long i;

	mb();
	for (i = 1; i < SNAP_WORDS; i++)
		if (i != 1 + slot_a && i != 1 + slot_b && snap[i] != PATTERN)
			return false;
	return true;
}

static void set_timers(unsigned int k)
{
	while (k--)
		sbi_set_timer(~0ULL);
}

static unsigned long config_fw_timer(void)
{
	struct sbiret r = pmu_config(0, pmu.fw, CFG_CLEAR_VALUE,
				     EV_FW(FW_SET_TIMER), 0);

	if (r.error || !pmu_is_fw(r.value)) {
		failf("pmu", "config_matching(SET_TIMER) for the snapshot "
		      "checks (%s)", ret_str(r));
		return -1UL;
	}
	return r.value;
}

/* ---- snapshot_set_shmem: arguments --------------------------------------- */

static void snapshot_no_shmem(const char *when)
{
	unsigned long f = config_fw_timer();

	if (f == -1UL)
		return;
	pmu_start(f, 1, START_SET_INIT_VALUE, 0);
	expect_err(pmu_stop(f, 1, STOP_TAKE_SNAPSHOT), SBI_ERR_NO_SHMEM, "pmu",
		   sfmt("%s: counter_stop(TAKE_SNAPSHOT) returns NO_SHMEM", when));
	expect_err(pmu_stop(f, 1, 0), 0, "pmu",
		   sfmt("%s: and left the counter running", when));
	expect_err(pmu_start(f, 1, START_INIT_SNAPSHOT, 0), SBI_ERR_NO_SHMEM,
		   "pmu", sfmt("%s: counter_start(INIT_SNAPSHOT) returns "
			       "NO_SHMEM", when));
	expect_err(pmu_stop(f, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
		   sfmt("%s: and did not start the counter", when));
	pmu_release(f);
}

static void snapshot_bad_args(void)
{
	const struct {
		unsigned long lo, hi, flags;
		long want;
		const char *name;
	} bad[] = {
		{ snap_pa() + 8, 0, 0, SBI_ERR_INVALID_PARAM,
		  "page + 8 (misaligned)" },
		{ snap_pa() + 0x800, 0, 0, SBI_ERR_INVALID_PARAM,
		  "page + 0x800 (misaligned)" },
		{ -1UL, 0, 0, SBI_ERR_INVALID_PARAM,
		  "lo = all-ones, hi = 0 (misaligned)" },
		{ snap_pa(), 0, 1, SBI_ERR_INVALID_PARAM, "flags 1" },
		{ snap_pa(), 0, TOP_BIT, SBI_ERR_INVALID_PARAM,
		  "flags bit XLEN-1" },
		{ -1UL, -1UL, 1, SBI_ERR_INVALID_PARAM,
		  "all-ones (disable) with flags 1" },
		{ FW_BASE, 0, 0, SBI_ERR_INVALID_ADDRESS,
		  "0x80000000 (the firmware)" },
		{ fw_last_page(), 0, 0, SBI_ERR_INVALID_ADDRESS,
		  "the firmware's last reserved page" },
		{ snap_pa(), 1, 0, SBI_ERR_INVALID_ADDRESS,
		  "hi = 1 (beyond 2^64)" },
		{ 0, -1UL, 0, SBI_ERR_INVALID_ADDRESS,
		  "lo = 0, hi = all-ones" },
		{ 0x1000, 0, 0, SBI_ERR_INVALID_ADDRESS, "0x1000 (not RAM)" },
		{ 0x10000000, 0, 0, SBI_ERR_INVALID_ADDRESS,
		  "0x10000000 (the UART)" },
		{ ram_end(), 0, 0, SBI_ERR_INVALID_ADDRESS,
		  "the end of RAM" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_err(pmu_set_shmem(bad[i].lo, bad[i].hi, bad[i].flags),
			   bad[i].want, "pmu",
			   sfmt("snapshot_set_shmem(%s) returns %s",
				bad[i].name, bad[i].want == SBI_ERR_INVALID_PARAM
				? "INVALID_PARAM" : "INVALID_ADDRESS"));
}

/* ---- snapshot: what lands where ------------------------------------------ */

static void snapshot_fw(void)
{
	unsigned long f = config_fw_timer(), g, lo, base;
	struct sbiret r;

	if (f == -1UL)
		return;
	snap_fill();
	pmu_start(f, 1, START_SET_INIT_VALUE, 0);
	set_timers(4);
	r = pmu_stop(f, 1, STOP_TAKE_SNAPSHOT);
	expect_err(r, 0, "pmu", "counter_stop(TAKE_SNAPSHOT) returns 0");
	check(snap[1] == 4, "pmu", sfmt("TAKE_SNAPSHOT (base %lu): "
					"counter_values[0] = 4", f),
	      sfmt("%lx", (unsigned long)snap[1]));
	check(snap[0] == 0, "pmu", "TAKE_SNAPSHOT: no overflow bit",
	      sfmt("bitmap %lx", (unsigned long)snap[0]));
	check(snap_untouched_except(0, 0), "pmu", "TAKE_SNAPSHOT writes no "
	      "other counter_values slot and nothing of the reserved area",
	      "a word changed");

	/* Slots are relative to counter_idx_base. */
	base = f >= 2 ? f - 2 : f;
	snap_fill();
	pmu_start(f, 1, START_SET_INIT_VALUE, 10);
	set_timers(3);
	r = pmu_stop(base, 1UL << (f - base), STOP_TAKE_SNAPSHOT);
	check(!r.error && snap[1 + f - base] == 13 &&
	      snap_untouched_except(f - base, f - base), "pmu",
	      sfmt("counter_stop(base %lu, mask %lx, TAKE_SNAPSHOT) writes "
		   "counter_values[%lu] = 13 only", base, 1UL << (f - base),
		   f - base),
	      sfmt("%s, values[0..2] = %lx %lx %lx", ret_str(r),
		   (unsigned long)snap[1], (unsigned long)snap[2],
		   (unsigned long)snap[3]));

	/* INIT_SNAPSHOT reads the start values; a plain stop writes
	 * nothing. */
	snap_fill();
	snap[1] = 1000;
	mb();
	r = pmu_start(f, 1, START_INIT_SNAPSHOT, 0);
	expect_err(r, 0, "pmu", "counter_start(INIT_SNAPSHOT) returns 0");
	set_timers(3);
	pmu_stop(f, 1, 0);
	expect_val(pmu_fw_read(f), 1003, "pmu", "INIT_SNAPSHOT started the "
		   "counter from counter_values[0] = 1000 (then 3 calls)");
	check(snap[1] == 1000 && snap_untouched_except(0, 0), "pmu",
	      "counter_start / counter_stop without the flags leave the "
	      "snapshot area alone", sfmt("values[0] = %lx",
					  (unsigned long)snap[1]));
	expect_err(pmu_start(f, 1, START_INIT_SNAPSHOT | START_SET_INIT_VALUE,
			     5),
		   SBI_ERR_INVALID_PARAM, "pmu",
		   "counter_start(INIT_SNAPSHOT | SET_INIT_VALUE) (mutually "
		   "exclusive) returns INVALID_PARAM");
	expect_err(pmu_stop(f, 1, 0), SBI_ERR_ALREADY_STOPPED, "pmu",
		   "and did not start the counter");

	/* Two counters in one call. */
	g = config_fw_timer();
	if (g != -1UL && g != f) {
		unsigned long a = f < g ? f : g, b = f < g ? g : f;

		lo = a ? a - 1 : a;
		snap_fill();
		snap[1 + a - lo] = 100;
		snap[1 + b - lo] = 200;
		mb();
		r = pmu_start(lo, 1UL << (a - lo) | 1UL << (b - lo),
			      START_INIT_SNAPSHOT, 0);
		set_timers(2);
		pmu_stop(lo, 1UL << (a - lo) | 1UL << (b - lo),
			 STOP_TAKE_SNAPSHOT);
		check(!r.error && snap[1 + a - lo] == 102 &&
		      snap[1 + b - lo] == 202 &&
		      snap_untouched_except(a - lo, b - lo), "pmu",
		      sfmt("counters %lu and %lu (base %lu): INIT_SNAPSHOT 100 "
			   "and 200, 2 calls, TAKE_SNAPSHOT: 102 and 202", a, b,
			   lo),
		      sfmt("%s, got %lx and %lx", ret_str(r),
			   (unsigned long)snap[1 + a - lo],
			   (unsigned long)snap[1 + b - lo]));
	}
	pmu_release_all();
}

static void snapshot_hw(void)
{
	uint64_t prog = pmu.hw & dt_counters_for(EV_DTLB_READ_MISS);
	unsigned long minh = pmu.sscofpmf ? CFG_SET_MINH : 0, c, f, base, v;
	struct tlb_count n;
	struct sbiret r;

	r = pmu_config(0, prog, CFG_CLEAR_VALUE | minh, EV_DTLB_READ_MISS, 0);
	if (r.error || !(prog >> r.value & 1)) {
		failf("pmu", "config_matching(dTLB read) for the snapshot "
		      "checks (%s)", ret_str(r));
		return;
	}
	c = r.value;
	pmu_paging_on();
	snap_fill();
	snap[1] = 0x10000;
	mb();
	r = pmu_start(c, 1, START_INIT_SNAPSHOT, 0);
	n = pmu_tlb_probe(pmu_tlb_buf(), 1, 0, c);
	pmu_stop(c, 1, STOP_TAKE_SNAPSHOT);
	pmu_read_hw(c, &v);
	check(!r.error && n.delta == 1 && n.value - 1 >= 0x10000 &&
	      n.value - 1 < (minh ? 0x10001 : 0x11000), "pmu",
	      sfmt("hardware counter %lu: INIT_SNAPSHOT loads 0x10000", c),
	      sfmt("%s, 0x%lx before the probe", ret_str(r),
		   n.value - n.delta));
	check(snap[1] == v && v >= n.value, "pmu",
	      sfmt("hardware counter %lu: TAKE_SNAPSHOT stores the value "
		   "S-mode then reads (%lx)", c, v),
	      sfmt("stored %lx", (unsigned long)snap[1]));

	/* An overflow, with a firmware counter that has none in the same
	 * call. */
	f = config_fw_timer();
	if (f == -1UL)
		goto out;
	base = c - 1;
	pmu_start(f, 1, START_SET_INIT_VALUE, 0);
	snap_fill();
	snap[1 + 1] = -4ULL;
	mb();
	r = pmu_start(base, 2, START_INIT_SNAPSHOT, 0);
	n = pmu_tlb_probe(pmu_tlb_buf(), 16, 0, c);
	pmu_stop(base, 1UL << 1 | 1UL << (f - base), STOP_TAKE_SNAPSHOT);
	pmu_read_hw(c, &v);
	if (pmu.sscofpmf)
		check(snap[0] == 2, "pmu",
		      sfmt("counter %lu wrapped: TAKE_SNAPSHOT (base %lu) sets "
			   "overflow bit 1 only", c, base),
		      sfmt("%s, bitmap %lx", ret_str(r),
			   (unsigned long)snap[0]));
	else
		check(snap[0] == 0, "pmu",
		      sfmt("counter %lu wrapped, no Sscofpmf: the overflow "
			   "bitmap stays 0", c),
		      sfmt("%s, bitmap %lx", ret_str(r),
			   (unsigned long)snap[0]));
	check(snap[1 + 1] == v && v < 0x1000 && snap[1 + f - base] == 0 &&
	      snap_untouched_except(1, f - base), "pmu",
	      "and stores the wrapped value and the firmware counter's 0",
	      sfmt("values[1] = %lx (reads %lx), values[%lu] = %lx",
		   (unsigned long)snap[2], v, f - base,
		   (unsigned long)snap[1 + f - base]));
	csr_clear(CSR_SIP, SIP_LCOFIP);
out:
	pmu_paging_off();
	pmu_release_all();
}

/*
 * Linux 6.12's driver, call for call: perf's default exclude_guest arrives
 * as VSINH | VUINH on every event (cycles and firmware events must still
 * get a counter), the overflow handler stops the used counters with
 * TAKE_SNAPSHOT and restarts them with counter_start(4096, used,
 * INIT_SNAPSHOT) (a loop variable left at 64, times 64). No counter has
 * that index: INVALID_PARAM, nothing started, the page not read, and a
 * firmware counter running beside it undisturbed.
 */
/*
 * Linux 6.10+'s overflow restart, counter_start(XLEN * XLEN, used,
 * INIT_SNAPSHOT), which Tally reads as base 0 unless built strict
 * (lib/pmu/pmu_linux_compat.c).  Counter c is stopped and configured.
 */
#define RESTART_BASE	((unsigned long)__riscv_xlen * __riscv_xlen)

static void linux_restart_compat(unsigned long c)
{
	uint64_t a;

	expect_err(pmu_start(RESTART_BASE, 1UL << c, START_SET_INIT_VALUE, 0),
		   SBI_ERR_INVALID_PARAM, "pmu", "Linux compat: base XLEN*XLEN "
		   "with SET_INIT_VALUE (not the signature): INVALID_PARAM");
	expect_err(pmu_start(RESTART_BASE, (1UL << c) | 2, START_INIT_SNAPSHOT, 0),
		   SBI_ERR_INVALID_PARAM, "pmu", "Linux compat: base XLEN*XLEN "
		   "naming counter 1 (not the signature): INVALID_PARAM");
	expect_err(pmu_start(RESTART_BASE, 1UL << c, START_INIT_SNAPSHOT, 0),
		   0, "pmu", "Linux compat: Linux 6.10+'s restart "
		   "counter_start(XLEN*XLEN, used, INIT_SNAPSHOT) returns 0 "
		   "(read as base 0)");
	a = pmu_read_hw64(c);
	/* the counter follows the host clock without -icount: see below */
	check(a >= PATTERN && a - PATTERN < 0x40000000, "pmu",
	      "... started from counter_values[c] of the page",
	      sfmt("counter %llx", (unsigned long long)a));
	expect_err(pmu_start(RESTART_BASE, 1UL << c, START_INIT_SNAPSHOT, 0),
		   SBI_ERR_INVALID_PARAM, "pmu", "Linux compat: the same call "
		   "on the running counter: INVALID_PARAM");
	pmu_stop(c, 1, 0);
}

static void snapshot_linux612(void)
{
	const unsigned long guest = CFG_SET_VSINH | CFG_SET_VUINH;
	unsigned long c, f, fw0, fw1;
	uint64_t a;
	struct sbiret r;

	r = pmu_config(0, pmu.hw | pmu.fw, guest, EV_HW_CYCLES, 0);
	if (!check(!r.error && (pmu.hw >> r.value & 1), "pmu",
		   "Linux 6.12: cycles with VSINH|VUINH (perf's default "
		   "exclude_guest) gets a hardware counter", ret_str(r)))
		return;
	c = r.value;
	r = pmu_config(0, pmu.fw, guest | CFG_CLEAR_VALUE, EV_FW(FW_SET_TIMER), 0);
	if (!check(!r.error && (pmu.fw >> r.value & 1), "pmu",
		   "Linux 6.12: firmware SET_TIMER with VSINH|VUINH gets a "
		   "firmware counter", ret_str(r)))
		goto out;
	f = r.value;
	pmu_start(c, 1, START_SET_INIT_VALUE, 0);
	pmu_start(f, 1, START_SET_INIT_VALUE, 0);
	snap_fill();
	r = pmu_stop(0, 1UL << c, STOP_TAKE_SNAPSHOT);
	a = snap[1 + c];
	check(!r.error && a && a != PATTERN, "pmu",
	      "Linux 6.12 overflow handler: stop(0, used, TAKE_SNAPSHOT)",
	      sfmt("%s, values[%lu] = %llx", ret_str(r), c,
		   (unsigned long long)a));
	snap_fill();
	if (!pmu.strict) {
		linux_restart_compat(c);
		goto out;
	}
	fw0 = pmu_fw_read(f).value;
	expect_err(pmu_start(RESTART_BASE, 1UL << c, START_INIT_SNAPSHOT, 0),
		   SBI_ERR_INVALID_PARAM, "pmu",
		   "strict: Linux 6.12 restart: counter_start(XLEN*XLEN, used, "
		   "INIT_SNAPSHOT) returns INVALID_PARAM");
	expect_err(pmu_start(64, 1, START_INIT_SNAPSHOT, 0),
		   SBI_ERR_INVALID_PARAM, "pmu",
		   "counter_start(64, 1, INIT_SNAPSHOT) returns INVALID_PARAM");
	expect_err(pmu_start(pmu.num, 1, 0, 0), SBI_ERR_INVALID_PARAM, "pmu",
		   "counter_start(num_counters, 1) returns INVALID_PARAM");
	set_timers(3);
	fw1 = pmu_fw_read(f).value;
	check(snap_untouched_except(-1UL, -1UL) && fw1 == fw0 + 3, "pmu",
	      "... the page untouched, the firmware counter counts on",
	      sfmt("SET_TIMER %lu -> %lu", fw0, fw1));
	/* Not started: a start of it alone is no ALREADY_STARTED. */
	expect_err(pmu_start(c, 1, 0, 0), 0, "pmu",
		   "... and the counter was not started: starting it alone "
		   "returns 0");
	pmu_stop(c, 1, 0);
	snap[1 + c] = PATTERN;
	mb();
	expect_err(pmu_start(0, 1UL << c, START_INIT_SNAPSHOT, 0), 0, "pmu",
		   "the restart with base 0 (fixed kernel) returns 0");
	a = pmu_read_hw64(c);
	/*
	 * Without -icount the counter follows the host's clock: a loaded
	 * host moved it 10 M counts between start and read (2^30: about a
	 * second), while a start from any other value is far off PATTERN.
	 */
	check(a >= PATTERN && a - PATTERN < 0x40000000, "pmu",
	      "... from the page's value", sfmt("counter %llx", (unsigned long long)a));
out:
	pmu_release_all();
}

/* ---- CPU hotplug: the page of a hart that stopped and came back --------- */

static volatile uint64_t hp_page[SNAP_WORDS] __attribute__((aligned(PAGE)));

/* On the secondary: what Linux does when the CPU goes offline/online. */
static struct sbiret hp_set_page(unsigned long disable, unsigned long b,
				 unsigned long c)
{
	struct sbiret r = pmu_set_shmem((unsigned long)hp_page, 0, 0);

	(void)b, (void)c;
	if (!r.error && disable)
		r = pmu_set_shmem(-1UL, -1UL, 0);
	return r;
}

/* On the secondary: a refused snapshot_set_shmem (misaligned). */
static struct sbiret hp_forget(unsigned long a, unsigned long b, unsigned long c)
{
	(void)a, (void)b, (void)c;
	return pmu_set_shmem((unsigned long)hp_page + 8, 0, 0);
}

/* On the secondary: a cycles counter stopped with TAKE_SNAPSHOT. */
static struct sbiret hp_take_snapshot(unsigned long a, unsigned long b,
				      unsigned long c)
{
	struct sbiret r = pmu_config(0, pmu.hw, 0, EV_HW_CYCLES, 0);
	unsigned long idx = r.value;

	(void)a, (void)b, (void)c;
	if (r.error)
		return r;
	hp_page[1] = PATTERN;
	mb();
	pmu_start(idx, 1, START_SET_INIT_VALUE, 0x1000);
	r = pmu_stop(idx, 1, STOP_TAKE_SNAPSHOT);
	mb();
	if (!r.error)
		r.value = hp_page[1] != PATTERN && hp_page[1] >= 0x1000;
	pmu_stop(idx, 1, STOP_RESET);
	return r;
}

static bool hp_restart(unsigned long id)
{
	struct sbiret r;
	bool entered;

	hart_post(id, CMD_STOP, 0, 0, 0, 0);
	r = wait_status(id, SBI_HSM_STOPPED, 1000);
	harts[id].running = false;
	if (r.error || r.value != SBI_HSM_STOPPED)
		return false;
	start_secondary(id, next_opaque(id), &entered);
	return entered;
}

/*
 * Linux 6.10+ disables a CPU's page when the CPU goes offline and never
 * sets it again when it comes back (pmu_linux_compat.c): Tally takes the
 * page of before at the first TAKE_SNAPSHOT, unless built strict.  A
 * disable that no HSM stop follows gets NO_SHMEM in both builds.
 */
static void snapshot_hotplug(void)
{
	unsigned long id = -1UL;
	struct sbiret r;
	unsigned int i;

	for (i = 0; i < nr_secondaries && id == -1UL; i++)
		if (harts[secondaries[i]].running)
			id = secondaries[i];
	if (id == -1UL) {
		skip("pmu", "snapshot page across CPU hotplug", "no secondary running");
		return;
	}
	r = hart_do(id, CMD_CALL, (unsigned long)hp_set_page, 1, 0, 0, 2000);
	expect_err(r, 0, "pmu", sfmt("hart %lu: snapshot_set_shmem(page), then "
				     "(-1, -1) (Linux CPU offline)", id));
	r = hart_do(id, CMD_CALL, (unsigned long)hp_take_snapshot, 0, 0, 0, 2000);
	expect_err(r, SBI_ERR_NO_SHMEM, "pmu", sfmt("hart %lu: disabled, no HSM "
		   "stop: TAKE_SNAPSHOT returns NO_SHMEM", id));
	if (!check(hp_restart(id), "pmu", sfmt("hart %lu stops and starts again "
					       "(Linux CPU online)", id), ""))
		return;
	r = hart_do(id, CMD_CALL, (unsigned long)hp_take_snapshot, 0, 0, 0, 2000);
	if (pmu.strict)
		expect_err(r, SBI_ERR_NO_SHMEM, "pmu", sfmt("strict: hart %lu "
			   "back without a new page: TAKE_SNAPSHOT returns "
			   "NO_SHMEM", id));
	else
		check(!r.error && r.value == 1, "pmu", sfmt("Linux compat: hart "
		      "%lu back without a new page: TAKE_SNAPSHOT writes the "
		      "page of before", id), ret_str(r));
	/* leave the secondary with no page and none parked: a refused set forgets */
	hart_do(id, CMD_CALL, (unsigned long)hp_set_page, 1, 0, 0, 2000);
	hart_do(id, CMD_CALL, (unsigned long)hp_forget, 0, 0, 0, 2000);
}

void test_pmu_snapshot(void)
{
	struct sbiret r;

	if (pmu.spec < SPEC(2, 0)) {
		expect_err(pmu_set_shmem(snap_pa(), 0, 0), SBI_ERR_NOT_SUPPORTED,
			   "pmu", "snapshot_set_shmem (SBI 2.0) returns "
			   "NOT_SUPPORTED from an older firmware");
		return;
	}
	if (pmu.fw)
		snapshot_no_shmem("before snapshot_set_shmem");
	r = pmu_set_shmem(snap_pa(), 0, 0);
	if (r.error == SBI_ERR_NOT_SUPPORTED && !pmu.tally) {
		skip("pmu", "snapshot checks", "snapshot_set_shmem returns "
		     "NOT_SUPPORTED (optional)");
		return;
	}
	if (!expect_err(r, 0, "pmu", "snapshot_set_shmem(a RAM page, 0, 0) "
			"returns 0"))
		return;
	snapshot_bad_args();
	expect_err(pmu_set_shmem(snap_pa(), 0, 0), 0, "pmu",
		   "snapshot_set_shmem of the page again returns 0");
	if (pmu.fw)
		snapshot_fw();
	snapshot_hw();
	if (pmu.fw && pmu.num <= 64)
		snapshot_linux612();
	if (pmu.tally && pmu.hw_prog)
		snapshot_hotplug();
	expect_err(pmu_set_shmem(-1UL, -1UL, 0), 0, "pmu",
		   "snapshot_set_shmem(all-ones, all-ones) (disable) returns 0");
	if (pmu.fw)
		snapshot_no_shmem("after disabling");
	pmu_check_alive("the snapshot checks");
}

/* ---- event_get_info ------------------------------------------------------ */

struct ev_case {
	unsigned long event;
	uint64_t data;
};

static const struct ev_case ev_cases[] = {
	{ EV(0, 1), 0 }, { EV(0, 2), 0 }, { EV(0, 3), 0 }, { EV(0, 4), 0 },
	{ EV(0, 5), 0 }, { EV(0, 6), 0 }, { EV(0, 7), 0 }, { EV(0, 8), 0 },
	{ EV(0, 9), 0 }, { EV(0, 10), 0 },
	{ EV_CACHE(0, 0, 0), 0 }, { EV_CACHE(0, 0, 1), 0 },
	{ EV_CACHE(3, 0, 0), 0 }, { EV_DTLB_READ_MISS, 0 },
	{ EV_DTLB_WRITE_MISS, 0 }, { EV_ITLB_READ_MISS, 0 },
	{ EV_CACHE(5, 0, 1), 0 },
	{ EV_RAW, 0x10019 }, { EV_RAW_V2, 0x10019 }, { EV_RAW, 0x1234 },
	{ EV_FW(0), 0 }, { EV_FW(1), 0 }, { EV_FW(2), 0 }, { EV_FW(3), 0 },
	{ EV_FW(4), 0 }, { EV_FW(5), 0 }, { EV_FW(6), 0 }, { EV_FW(7), 0 },
	{ EV_FW(8), 0 }, { EV_FW(9), 0 }, { EV_FW(10), 0 }, { EV_FW(11), 0 },
	{ EV_FW(12), 0 }, { EV_FW(13), 0 }, { EV_FW(14), 0 }, { EV_FW(15), 0 },
	{ EV_FW(16), 0 }, { EV_FW(17), 0 }, { EV_FW(18), 0 }, { EV_FW(19), 0 },
	{ EV_FW(20), 0 }, { EV_FW(21), 0 },
	{ EV_FW(22), 0 }, { EV_FW(255), 0 },
	{ EV_FW(FW_TALLY_ECALLS), 0 }, { EV_FW(FW_TALLY_TRAPS), 0 },
	{ EV_FW(258), 0 }, { EV_FW(FW_PLATFORM), 0 },
};

#define NR_EV_CASES (sizeof(ev_cases) / sizeof(ev_cases[0]))

static void ev_fill(const struct ev_case *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		evs[i].event_idx = (uint32_t)c[i].event;
		evs[i].output = 0xffffffffU;
		evs[i].event_data = c[i].data;
	}
	mb();
}

/* The output word of the entry for event, after ev_fill(ev_cases). */
static uint32_t ev_out(unsigned long event)
{
	unsigned int i;

	for (i = 0; i < NR_EV_CASES; i++)
		if (ev_cases[i].event == event && !ev_cases[i].data)
			return evs[i].output;
	return 0xffffffffU;
}

/* Whether config_matching can place the event: the two must agree. */
static bool can_configure(unsigned long event, uint64_t data)
{
	struct sbiret r = pmu_config(0, pmu.hw | pmu.fw, 0, event, data);

	if (!r.error && r.value < MAX_COUNTERS)
		pmu_release(r.value);
	return !r.error;
}

static void event_info_entries(void)
{
	char bad[160] = "", odd[160] = "", moved[80] = "";
	size_t nb = 0, no = 0, nm = 0;
	unsigned int i, supported = 0;
	struct sbiret r;

	ev_fill(ev_cases, NR_EV_CASES);
	r = pmu_event_info((unsigned long)evs, 0, NR_EV_CASES, 0);
	if (!expect_err(r, 0, "pmu", sfmt("event_get_info(%u entries) returns 0",
					 (unsigned int)NR_EV_CASES)))
		return;
	for (i = 0; i < NR_EV_CASES; i++) {
		const struct ev_case *c = &ev_cases[i];
		uint32_t out = evs[i].output;
		bool want;

		if (evs[i].event_idx != (uint32_t)c->event ||
		    evs[i].event_data != c->data)
			nm += snprintf(moved + nm, sizeof(moved) - nm, " %u", i);
		if (out > 1) {
			no += snprintf(odd + no, sizeof(odd) - no, " %lx:%x",
				       c->event, out);
			continue;
		}
		supported += out;
		want = can_configure(c->event, c->data);
		/* Types 0 and 1 follow the event map. */
		if (EV_TYPE(c->event) <= 1 &&
		    want != !!(dt_counters_for(c->event) & pmu.hw))
			want = !want, nb += snprintf(bad + nb, sizeof(bad) - nb,
						     " %lx:map", c->event);
		if (out != want)
			nb += snprintf(bad + nb, sizeof(bad) - nb, " %lx:%u",
				       c->event, out);
	}
	check(!nm, "pmu", "event_get_info leaves event_idx and event_data "
	      "alone", sfmt("entries changed:%s", moved));
	check(!no, "pmu", "event_get_info writes output = 0 or 1 for every "
	      "valid event", sfmt("event:output%s", odd));
	check(!nb, "pmu", sfmt("event_get_info output (%u supported) agrees "
			       "with config_matching and the event map",
			       supported),
	      sfmt("event:output%s", bad));
	check(ev_out(EV_HW_CYCLES) == 1 && ev_out(EV_HW_INSTRUCTIONS) == 1 &&
	      ev_out(EV_DTLB_READ_MISS) == 1, "pmu",
	      "event_get_info: cycles, instructions and dTLB read misses are "
	      "supported", "not all");
	check(ev_out(EV_FW(FW_SET_TIMER)) == 1, "pmu", "event_get_info: "
	      "firmware event SET_TIMER is supported",
	      sfmt("output %x", ev_out(EV_FW(FW_SET_TIMER))));
	if (pmu.tally)
		check(ev_out(EV_FW(FW_TALLY_ECALLS)) == 1 &&
		      ev_out(EV_FW(FW_TALLY_TRAPS)) == 1, "pmu",
		      "event_get_info: Tally's firmware events 256 and 257 are "
		      "supported", sfmt("outputs %x %x",
					ev_out(EV_FW(FW_TALLY_ECALLS)),
					ev_out(EV_FW(FW_TALLY_TRAPS))));
}

static void event_info_bad(void)
{
	static const struct ev_case reserved_types[] = {
		{ EV(4, 1), 0 }, { EV(14, 5), 0 },
	};
	static const struct ev_case reserved_bit[] = {
		{ EV_HW_CYCLES, 0 }, { EV_HW_CYCLES | 1UL << 20, 0 },
	};
	const struct {
		unsigned long lo, hi, n, flags;
		long want;
		const char *name;
	} bad[] = {
		{ (unsigned long)evs + 8, 0, 1, 0, SBI_ERR_INVALID_PARAM,
		  "entries + 8 (not 16-byte aligned)" },
		{ (unsigned long)evs, 0, 1, 1, SBI_ERR_INVALID_PARAM,
		  "flags 1" },
		{ FW_BASE, 0, 1, 0, SBI_ERR_INVALID_ADDRESS,
		  "0x80000000 (the firmware)" },
		{ (unsigned long)evs, 1, 1, 0, SBI_ERR_INVALID_ADDRESS,
		  "hi = 1" },
		{ 0x1000, 0, 1, 0, SBI_ERR_INVALID_ADDRESS, "0x1000 (not RAM)" },
		{ ram_end() - 16, 0, 2, 0, SBI_ERR_INVALID_ADDRESS,
		  "2 entries from 16 bytes before the end of RAM" },
		{ (unsigned long)evs, 0, 1UL << (__riscv_xlen - 4), 0,
		  SBI_ERR_INVALID_ADDRESS, "2^(XLEN-4) entries (16 * n wraps to 0)" },
		{ (unsigned long)evs, 0, -1UL, 0, SBI_ERR_INVALID_ADDRESS,
		  "ULONG_MAX entries" },
	};
	unsigned int i;
	struct sbiret r;

	ev_fill(reserved_types, 2);
	r = pmu_event_info((unsigned long)evs, 0, 2, 0);
	check(!r.error && evs[0].output != 1 && evs[1].output != 1 &&
	      !(evs[0].output != 0 && evs[0].output != 0xffffffffU) &&
	      !(evs[1].output != 0 && evs[1].output != 0xffffffffU), "pmu",
	      "event_get_info(reserved event types 4, 14) returns 0 and "
	      "reports neither supported",
	      sfmt("%s, outputs %x %x", ret_str(r), evs[0].output,
		   evs[1].output));
	ev_fill(reserved_bit, 2);
	expect_err(pmu_event_info((unsigned long)evs, 0, 2, 0),
		   SBI_ERR_INVALID_PARAM, "pmu",
		   "event_get_info with event_idx bit 20 set in an entry "
		   "returns INVALID_PARAM");
	ev_fill(ev_cases, 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_err(pmu_event_info(bad[i].lo, bad[i].hi, bad[i].n,
					  bad[i].flags),
			   bad[i].want, "pmu",
			   sfmt("event_get_info(%s) returns %s", bad[i].name,
				bad[i].want == SBI_ERR_INVALID_PARAM ?
				"INVALID_PARAM" : "INVALID_ADDRESS"));
	r = pmu_event_info((unsigned long)evs, 0, 0, 0);
	expect_err2(r, 0, SBI_ERR_INVALID_PARAM, "pmu",
		    "event_get_info(0 entries) returns 0 or INVALID_PARAM");
}

void test_pmu_event_info(void)
{
	struct sbiret r;

	if (pmu.spec < SPEC(3, 0)) {
		ev_fill(ev_cases, 1);
		expect_err(pmu_event_info((unsigned long)evs, 0, 1, 0),
			   SBI_ERR_NOT_SUPPORTED, "pmu",
			   "event_get_info (SBI 3.0) returns NOT_SUPPORTED from "
			   "an older firmware");
		return;
	}
	ev_fill(ev_cases, 1);
	r = pmu_event_info((unsigned long)evs, 0, 1, 0);
	if (r.error == SBI_ERR_NOT_SUPPORTED && !pmu.tally) {
		skip("pmu", "event_get_info checks", "NOT_SUPPORTED (optional)");
		return;
	}
	event_info_entries();
	event_info_bad();
	pmu_check_alive("the event_get_info checks");
}
