// SPDX-License-Identifier: BSD-2-Clause
/*
 * Programming the hardware counters through the hart-access interface.
 *
 * The CSR states of a hardware counter:
 *   unconfigured  programmable: inhibited, mhpmevent = 0 (0 also unmaps the
 *                 event on QEMU 7.2);  cycle/instret: running freely, so
 *                 that S/U-mode rdcycle/rdinstret keep working, and with
 *                 Smcntrpmf mNcfg = 0 (no mode filter).
 *   configured    inhibited (really stopped);  mhpmevent = selector |
 *                 mode inhibits | OF: OF is set so that no overflow
 *                 interrupt can be raised before the counter is started.
 *                 cycle/instret: mNcfg = mode inhibits (Smcntrpmf).
 *   started       not inhibited;  OF cleared at every start, so every
 *                 overflow raises LCOFI again (Linux never clears OF).
 *   stopped       inhibited again; mhpmevent untouched (OF tells whether
 *                 the counter overflowed since its start).
 * mhpmevent is always written before mhpmcounter, and both before the
 * counter is un-inhibited (QEMU binds the event on the mhpmevent write).
 * A started counter that will soon overflow gets its value a second time
 * once it runs (pmu_hw_rewrite_started: QEMU 7.2 arms its overflow timer
 * on the counter write).
 */
#include "pmu_internal.h"

static void event_write(struct pmu_hart *h, unsigned int idx, uint64_t v)
{
	h->ops->event_write(h->ops_ctx, idx, v);
}

/*
 * SBI_PMU_CFG_FLAG_SET_*INH (bits 7:3) in mhpmevent / mNcfg order (62:58).
 * Policy: a caller that filters host modes names the modes it wants to
 * lose; M-mode is then always inhibited too (Linux never names it:
 * "cycles:u" must not count firmware work, and S-mode has no business
 * timing M-mode).  A request without host mode flags counts every host
 * mode, like mcycle itself; VSINH/VUINH alone (perf's default
 * exclude_guest) leave M-mode counted, so Linux 6.1 (no flags) and 6.12
 * (VSINH | VUINH) count the same.  The bits are written wherever the
 * counter has them, also when config_matching took the request for a
 * counter that ignores them (pmu_filter_capable): they cost nothing there.
 */
static uint64_t mode_inhibits(unsigned long cfg_flags)
{
	unsigned long inh = cfg_flags & SBI_PMU_CFG_FLAG_INH_MASK;

	if (!inh)
		return 0;
	if (inh & PMU_INH_HOST)
		inh |= SBI_PMU_CFG_FLAG_SET_MINH;
	return (uint64_t)(inh >> SBI_PMU_CFG_FLAG_INH_SHIFT)
	       << MHPMEVENT_INH_SHIFT;
}

/*
 * The host modes a vendor mode filter (pmu_overflow_ops.filter) does not
 * count in, with mode_inhibits()'s policy: M-mode too when a host mode is
 * named.
 */
static unsigned long vendor_inhibits(unsigned long cfg_flags)
{
	unsigned long inh = cfg_flags & PMU_INH_HOST;

	return inh ? inh | SBI_PMU_CFG_FLAG_SET_MINH : 0;
}

/*
 * The vendor back end at hart init and HSM stop: no counter's overflow
 * interrupt enabled, no mode filter left over from a previous stage.
 */
static void vendor_reset(struct pmu_hart *h, uint64_t prog)
{
	unsigned int idx;

	h->vof->disarm(h->ops_ctx, (uint32_t)pmu_hw_mask(h));
	if (h->vof->filter)
		for_each_bit(idx, prog)
			h->vof->filter(h->ops_ctx, idx, 0);
}

/* Put every implemented counter into the unconfigured state. */
void pmu_hw_reset_all(struct pmu_hart *h)
{
	uint64_t prog = pmu_hw_mask(h) & ~FIXED_COUNTERS;
	uint64_t fixed = pmu_hw_mask(h) & FIXED_COUNTERS;
	uint64_t bits = prog;
	unsigned int idx;

	if (prog)
		h->ops->inhibit_set(h->ops_ctx, (uint32_t)prog);
	if (h->vof)
		vendor_reset(h, prog);
	for_each_bit(idx, bits)
		event_write(h, idx, 0);
	if (h->caps.smcntrpmf) {
		bits = fixed;
		for_each_bit(idx, bits)
			event_write(h, idx, 0);
	}
	if (fixed)
		h->ops->inhibit_clear(h->ops_ctx, (uint32_t)fixed);
}

/* Configure a stopped counter: inhibited, event and filters set, OF set. */
void pmu_hw_configure(struct pmu_hart *h, unsigned int idx,
		      uint64_t selector, unsigned long cfg_flags)
{
	struct pmu_counter *c = &h->counter[idx];
	uint64_t evsel = mode_inhibits(cfg_flags);

	h->ops->inhibit_set(h->ops_ctx, (uint32_t)BIT64(idx));
	h->of_armed &= ~(uint32_t)BIT64(idx);
	h->vof_armed &= ~(uint32_t)BIT64(idx);
	c->selector = selector;
	if (pmu_is_fixed(idx)) {
		c->evsel = evsel;
		if (h->caps.smcntrpmf)
			event_write(h, idx, evsel);
		return;
	}

	if (!h->caps.sscofpmf) {
		evsel = 0;	/* no standard bits 63:58 without Sscofpmf */
		if (h->vof && h->vof->filter) {	/* Andes: by counter */
			c->vinh = (uint8_t)vendor_inhibits(cfg_flags);
			h->vof->filter(h->ops_ctx, idx, c->vinh);
		}
	}
	evsel |= selector;
	if (h->hooks && h->hooks->hw_event_value)
		evsel = h->hooks->hw_event_value(h->hooks_ctx, idx, evsel,
						 cfg_flags);
	evsel &= ~MHPMEVENT_OF;
	c->evsel = evsel;
	event_write(h, idx, 0);		/* unbind the old event (QEMU) */
	event_write(h, idx, evsel | (h->caps.sscofpmf ? MHPMEVENT_OF : 0));
}

/*
 * cycle/instret: lose the mode filter and run freely again.  Not inlined:
 * the common, programmable case then needs no stack frame.
 */
static __attribute__((noinline)) void release_fixed(struct pmu_hart *h,
						    unsigned int idx)
{
	if (h->caps.smcntrpmf)
		event_write(h, idx, 0);
	h->ops->inhibit_clear(h->ops_ctx, (uint32_t)BIT64(idx));
}

/*
 * Back to the unconfigured state.  The counter is stopped (the only
 * caller, counter_stop with RESET, stops it first), so it is inhibited
 * already: a programmable counter only loses its event.  Its of_armed bit
 * may stay: of_armed is only read for configured counters, and
 * pmu_hw_configure() clears it.
 */
void pmu_hw_release(struct pmu_hart *h, unsigned int idx)
{
	if (pmu_is_fixed(idx))
		release_fixed(h, idx);
	else
		event_write(h, idx, 0);
}

/*
 * The vendor back end's counter start (no Sscofpmf): overflow flags
 * cleared and interrupts enabled before the counters run (as with OF);
 * cycle/instret too, their vendor bits are real (OpenSBI arms every
 * hardware counter).  Out of line: the Sscofpmf path stays as it was.
 */
static __attribute__((noinline)) void vendor_start(struct pmu_hart *h,
						   uint64_t hw_set)
{
	h->vof_armed |= (uint32_t)hw_set;
	h->vof->arm(h->ops_ctx, (uint32_t)hw_set);
	h->ops->inhibit_clear(h->ops_ctx, (uint32_t)hw_set);
}

/* ... and its stop: inhibited first, then the interrupts disabled. */
static __attribute__((noinline)) void vendor_stop(struct pmu_hart *h,
						  uint64_t hw_set)
{
	h->ops->inhibit_set(h->ops_ctx, (uint32_t)hw_set);
	h->vof->disarm(h->ops_ctx, (uint32_t)hw_set);
}

/*
 * Start configured counters together: clear OF (the counter values were
 * written by the caller, after the event), then one inhibit write.
 */
void pmu_hw_start(struct pmu_hart *h, uint64_t hw_set)
{
	uint64_t prog = hw_set & ~FIXED_COUNTERS;
	unsigned int idx;

	if (!hw_set)
		return;
	if (!h->caps.sscofpmf) {
		if (h->vof)
			vendor_start(h, hw_set);
		else
			h->ops->inhibit_clear(h->ops_ctx, (uint32_t)hw_set);
		return;
	}
	h->of_armed |= (uint32_t)prog;	/* only here is OF real */
	for_each_bit(idx, prog)
		event_write(h, idx, h->counter[idx].evsel);
	h->ops->inhibit_clear(h->ops_ctx, (uint32_t)hw_set);
}

/* pmu_hw_start() of one counter (idx < nr_hw), without the loop. */
void pmu_hw_start_one(struct pmu_hart *h, unsigned int idx)
{
	if (h->caps.sscofpmf) {
		if (!pmu_is_fixed(idx)) {
			h->of_armed |= (uint32_t)BIT64(idx);
			event_write(h, idx, h->counter[idx].evsel);
		}
	} else if (h->vof) {
		vendor_start(h, BIT64(idx));
		return;
	}
	h->ops->inhibit_clear(h->ops_ctx, (uint32_t)BIT64(idx));
}

/*
 * PMU_HART_QUIRK_FAR_START_SWALLOWS (QEMU 7.2 to 11.1, target/riscv/pmu.c):
 * a write that puts a cycles/instret counter's overflow deadline past
 * INT64_MAX ns (any value more than 2^62 from overflow: perf's counting
 * start 2^63 + 1, the cycles:u probe every perf record makes) leaves
 * irq_overflow_left set on that counter, and nothing clears it but the
 * counter's next timer expiry, which it swallows: the expiry re-arms the
 * timer that many ns later (as long as the machine has run) and raises
 * no overflow.  A sampling start on that counter then gets no sample for
 * the rest of the run: perf record on QEMU 11.1 with 4 harts came back
 * empty in 2 to 3 of 20 runs, each time when the workload ran on the
 * hart where perf had made its probe (traced, docs/perf.md).
 *
 * So lib/pmu remembers which counters it wrote far from overflow, and the
 * first start near overflow (sampling) on such a counter flushes the
 * leftover while M-mode still holds the hart: the counter, running, is
 * written with its last value (overflow 1 ns away) until its OF shows,
 * which takes two expiries, the swallowed one and a real one; then it is
 * stopped, OF and the interrupt it raised are cleared (the interrupt
 * raised again if another counter's overflow is waiting), and the start
 * is made again.  During the flush the counter counts in every mode:
 * QEMU 9 and later raise OF at expiry only when the count as the mode
 * filter made it has wrapped, and a counter inhibited in M-mode (cycles:u,
 * a KVM guest's counters) never wraps there.  Made once per leftover and
 * bounded: PMU_SWALLOW_FLUSH_TRIES writes (QEMU's main loop starved by a
 * loaded host, or the event timed on another counter: QEMU maps an event
 * to the first counter configured with it) and it gives up for good;
 * tried again at every start, it hung a KVM host running its guest's perf
 * record.  Plain requests prefer a counter with no leftover (pmu_sbi.c,
 * choose_counter), so the flush seldom runs at all.  On a hart that
 * overflows by counting, the first write is enough.
 */
#define PMU_SWALLOW_FLUSH_TRIES	(1UL << 20)


/* Does an armed counter other than idx show an overflow still to take? */
static bool other_overflow_pending(const struct pmu_hart *h, unsigned int idx)
{
	uint64_t bits = h->started & h->configured & pmu_hw_of_armed(h) &
			~BIT64(idx);
	unsigned int i;

	for_each_bit(i, bits)
		if (pmu_hw_overflowed(h, i))
			return true;
	return false;
}

/* Rare (once per leftover met by a sampling start): out of line. */
static __attribute__((noinline)) void swallow_flush(struct pmu_hart *h,
						   unsigned int idx, uint64_t v)
{
	uint64_t last = h->caps.hpm_bits >= 64 ? ~0ULL :
			(1ULL << h->caps.hpm_bits) - 1;
	uint32_t bit = (uint32_t)BIT64(idx);
	unsigned long n;
	bool flushed = false;

	h->ops->event_write(h->ops_ctx, idx,
			    h->counter[idx].evsel & ~MHPMEVENT_INH_MASK);
	for (n = 0; n < PMU_SWALLOW_FLUSH_TRIES && !flushed; n++) {
		h->ops->counter_write(h->ops_ctx, idx, last);
		flushed = pmu_hw_overflowed(h, idx);
	}
	h->ops->inhibit_set(h->ops_ctx, bit);
	h->ops->event_write(h->ops_ctx, idx, h->counter[idx].evsel);
	/* cleared first: an overflow after the test below raises it again */
	h->ops->lcofi_write(h->ops_ctx, false);
	if (other_overflow_pending(h, idx))
		h->ops->lcofi_write(h->ops_ctx, true);
	h->ops->counter_write(h->ops_ctx, idx, v);
	h->ops->inhibit_clear(h->ops_ctx, bit);
	h->ops->counter_write(h->ops_ctx, idx, v);
}

/*
 * After a start that wrote v to the running counter idx (Sscofpmf hart):
 * a sampling value (near overflow) tests one bit, the common case.  Only
 * a cycles/instret event is timed: the leftover stays with a counter that
 * samples another event (QEMU has no timer to expire for it, so a flush
 * there could never see OF) until the counter samples one of those two.
 */
static void swallow_check(struct pmu_hart *h, unsigned int idx, uint64_t v)
{
	unsigned int top = h->caps.hpm_bits - 1;
	uint32_t bit = (uint32_t)BIT64(idx);

	if (!(h->swallow_armed & bit) && !pmu_selector_timed(h, idx))
		return;					/* the common case */
	if (top >= 1 && ((v >> (top - 1)) & 3) == 3) {	/* near: sampling */
		if ((h->swallow_armed & bit) && pmu_selector_timed(h, idx)) {
			swallow_flush(h, idx, v);
			h->swallow_armed &= ~bit;
		}
		return;
	}
	if (pmu_selector_timed(h, idx) && h->ops->lcofi_write)
		h->swallow_armed |= bit;
}

/*
 * QEMU 7.2 raises the overflow of a cycles or instret counter from a host
 * timer that the mhpmcounter write arms, running or not (target/riscv:
 * write_mhpmcounter -> riscv_pmu_setup_timer, deadline now + (2^64 -
 * value) ns).  When it expires, a counter that is still inhibited loses
 * that overflow (pmu_timer_trigger_irq returns early: no OF, no LCOFI),
 * and nothing arms the timer again: not the mcountinhibit write, only the
 * next counter write.  counter_start writes the value while the counter is
 * inhibited (so that a real hart cannot overflow from the stale value
 * first), then clears OF and un-inhibits; a vCPU thread held up between
 * the two for longer than the deadline (1 ms at perf record -c 1000000;
 * a loaded host stalled it 1.1 to 5.5 ms right there) loses the overflow,
 * and a CPU-bound task then gets no sample until its next context switch:
 * perf record on Linux 6.12 came back with no sample, or stopped sampling
 * half-way (docs/perf.md, Sampling).
 *
 * So after the start, each started programmable counter whose new value
 * lies within half its range of overflow (top implemented bit set: what a
 * sampling start sets, -period; perf's counting starts sit at half) is
 * written again with that value, now running with OF clear: on QEMU that
 * arms the timer where its expiry raises the overflow; on a real hart it
 * puts back the value the counter just had (the few M-mode events since
 * the un-inhibit are not counted).  Values further from overflow are
 * written once: they cannot overflow soon, and QEMU 7.2 raises a spurious
 * overflow at once for a value below 2^63 written to a running counter.
 * Only with Sscofpmf: without it nothing overflows.  set: started
 * counters whose value this start wrote (pmu_counter_write keeps it).
 */
/* One started programmable counter whose value is v (Sscofpmf hart). */
static inline void rewrite_counter(struct pmu_hart *h, unsigned int idx, uint64_t v)
{
	if ((v >> (h->caps.hpm_bits - 1)) & 1)
		h->ops->counter_write(h->ops_ctx, idx, v);
	if (h->caps.quirks & PMU_HART_QUIRK_FAR_START_SWALLOWS)
		swallow_check(h, idx, v);
}

static void rewrite_set(struct pmu_hart *h, uint64_t set, bool read_back)
{
	uint64_t bits = set & pmu_hw_mask(h) & ~FIXED_COUNTERS;
	unsigned int idx;

	if (!h->caps.sscofpmf)
		return;
	for_each_bit(idx, bits) {
		if (read_back && !pmu_selector_timed(h, idx))
			continue;
		rewrite_counter(h, idx, read_back ?
				h->ops->counter_read(h->ops_ctx, idx) :
				h->counter[idx].value);
	}
}

void pmu_hw_rewrite_started(struct pmu_hart *h, uint64_t set)
{
	rewrite_set(h, set, false);
}

/* pmu_hw_rewrite_started() of one counter, without the loop. */
void pmu_hw_rewrite_counter(struct pmu_hart *h, unsigned int idx)
{
	if (h->caps.sscofpmf && idx < h->nr_hw && !pmu_is_fixed(idx) &&
	    (pmu_hw_mask(h) >> idx & 1))
		rewrite_counter(h, idx, h->counter[idx].value);
}

/*
 * A start without a value (Linux's restart, without the snapshot, of the
 * counters that did not overflow: counter_start(idx, mask, 0)) on a QEMU
 * hart (PMU_HART_QUIRK_FAR_START_SWALLOWS): QEMU 7.2 lost the overflow
 * whose timer expired while the counter was stopped, and the un-inhibit
 * does not arm it again, so each started cycles/instret counter near
 * overflow is written its own value once it runs (QEMU 10 and 11 arm at
 * the un-inhibit: a second arming changes nothing there).  set: started
 * counters.
 */
void pmu_hw_rearm_started(struct pmu_hart *h, uint64_t set)
{
	rewrite_set(h, set, true);
}

/*
 * Stop started counters.  vof_armed is 0 on a Sscofpmf hart (and on one
 * without a vendor back end): the vendor test costs that path one load
 * and a branch.
 */
void pmu_hw_stop(struct pmu_hart *h, uint64_t hw_set)
{
	if (h->vof_armed & hw_set)
		vendor_stop(h, hw_set);
	else if (hw_set)
		h->ops->inhibit_set(h->ops_ctx, (uint32_t)hw_set);
}

/* OF of a counter of pmu_hw_of_armed(h): set since its start? */
bool pmu_hw_overflowed(const struct pmu_hart *h, unsigned int idx)
{
	return (h->ops->event_read(h->ops_ctx, idx) & MHPMEVENT_OF) != 0;
}

/* The vendor flag of a counter of h->vof_armed: overflowed since its start? */
__attribute__((noinline)) bool pmu_hw_vendor_overflowed(
	const struct pmu_hart *h, unsigned int idx)
{
	return (h->vof->flags(h->ops_ctx) >> idx) & 1;
}

/*
 * After a non-retentive suspend every CSR is lost: rebuild them from the
 * state.  Configured counters get their event back (Linux only restarts
 * them with SET_INIT_VALUE, it does not configure them again) and the
 * values pmu_hart_suspend() saved; started ones run again.  OF is set on
 * stopped counters (as at configure time) and restored on started ones.
 * Unconfigured cycle/instret get their value back and run freely again.
 */
void pmu_hw_reprogram(struct pmu_hart *h)
{
	uint64_t hw = pmu_hw_mask(h);
	uint64_t configured = h->configured & hw;
	uint64_t running = h->started & configured;
	uint64_t free_fixed = hw & FIXED_COUNTERS & ~configured;
	uint64_t restored = h->saved & hw;
	uint64_t bits = hw;
	unsigned int idx;

	if (hw)
		h->ops->inhibit_set(h->ops_ctx, (uint32_t)hw);
	for_each_bit(idx, bits) {
		uint64_t evsel = 0;

		if (configured & BIT64(idx))
			evsel = h->counter[idx].evsel;
		if (pmu_is_fixed(idx)) {
			if (h->caps.smcntrpmf)
				event_write(h, idx, evsel);
			continue;
		}
		if ((configured & BIT64(idx)) && h->caps.sscofpmf &&
		    (!(running & BIT64(idx)) || (h->saved_of & BIT64(idx))))
			evsel |= MHPMEVENT_OF;
		event_write(h, idx, evsel);
	}
	bits = restored;
	for_each_bit(idx, bits)
		h->ops->counter_write(h->ops_ctx, idx, h->counter[idx].value);
	h->saved = 0;
	h->saved_of = 0;
	if (h->vof) {
		/*
		 * The vendor CSRs were lost too: no interrupt enabled, and the
		 * running counters armed again (a flag set before the suspend
		 * is lost: the vendor CSRs have no way to set one).
		 */
		vendor_reset(h, hw & ~FIXED_COUNTERS);
		bits = configured & ~FIXED_COUNTERS;
		if (h->vof->filter)
			for_each_bit(idx, bits)
				h->vof->filter(h->ops_ctx, idx,
					       h->counter[idx].vinh);
		if (running)
			h->vof->arm(h->ops_ctx, (uint32_t)running);
	}
	if (running | free_fixed)
		h->ops->inhibit_clear(h->ops_ctx,
				      (uint32_t)(running | free_fixed));
	/* as counter_start: armed again while running (QEMU 7.2) */
	pmu_hw_rewrite_started(h, running & restored);
}
