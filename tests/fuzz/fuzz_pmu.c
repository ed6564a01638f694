// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: lib/pmu's whole SBI surface on the simulated hart of
 * tests/unit/pmu (sim.c).
 *
 * The input chooses a hart (counters, width, Sscofpmf, Smcntrpmf, the QEMU
 * quirks), an event map (range, selector and raw rows through the map
 * builder), then a sequence of operations: the nine FIDs (and unknown ones)
 * through pmu_sbi_call() with arbitrary arguments, time passing, firmware
 * events, non-retentive suspend/resume and HSM stop/start.
 *
 * A small reference model keeps the map rows the builder accepted and
 * answers independently which counters can count an event_idx (a linear
 * scan, no bisection, no sorting).  After every call:
 *  - the error is a code of the SBI specification (0 .. -13);
 *  - a call that fails (but counter_stop's ALREADY_STOPPED, which stops
 *    what it can by design) changed no counter: none started or configured;
 *  - counter_config_matching picks a counter of the caller's set that the
 *    model says can count the event, and fails only when the model has no
 *    free candidate (or mode filters / QEMU's one-counter-per-event rule
 *    narrowed the choice);
 *  - event_get_info says "supported" exactly when the model has a counter;
 *  - num_counters, counter_get_info agree with the hart's counters;
 *  - started <= configured <= valid; a started hardware counter is not
 *    inhibited; the library made no access the simulated hart forbids
 *    (sim.illegal == 0: absent counters, counter 1, memory outside S-mode).
 * A broken invariant aborts (libFuzzer saves the input as a crash).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tally/pmu.h>
#include <tally/pmu_fw.h>
#include "../unit/pmu/sim.h"

#define MAX_OPS		96
#define MAX_RANGES	8
#define MAX_RAW		6

struct input {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct input *in, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * i);
	return v;
}

#define u8(in)	((uint8_t)take(in, 1))
#define u32(in)	((uint32_t)take(in, 4))
#define u64(in)	take(in, 8)

/* ---- the reference model -------------------------------------------------- */

struct model {
	struct { uint32_t first, last, counters; } range[MAX_RANGES];
	unsigned int nr_ranges;
	struct { uint64_t invariant, mask; uint32_t counters; } raw[MAX_RAW];
	unsigned int nr_raw;
	uint32_t usable;		/* hart counters, minus time */
	unsigned int nr_hw;
	bool one_counter_per_event;
};

static struct model model;
static struct pmu_map map;
static struct sim_hart sim;
static struct pmu_hart hart;
static struct pmu_hart_config config;

static void fail(const char *what, unsigned long a, unsigned long b)
{
	fprintf(stderr, "fuzz_pmu: invariant broken: %s (0x%lx, 0x%lx)\n", what, a, b);
	abort();
}

#define CHECK(cond, what, a, b)	do { if (!(cond)) fail(what, (unsigned long)(a), (unsigned long)(b)); } while (0)

static uint32_t model_hw(uint32_t event)
{
	uint32_t c = 0;

	for (unsigned int i = 0; i < model.nr_ranges; i++)
		if (event >= model.range[i].first && event <= model.range[i].last)
			c |= model.range[i].counters;
	if (event == SBI_PMU_HW_CPU_CYCLES)
		c |= 1U << 0;
	if (event == SBI_PMU_HW_INSTRUCTIONS)
		c |= 1U << 2;
	return c;
}

static uint32_t model_raw(uint64_t data)
{
	uint32_t c = 0;

	for (unsigned int i = 0; i < model.nr_raw; i++)
		if ((data & model.raw[i].mask) == model.raw[i].invariant)
			c |= model.raw[i].counters;
	return c;
}

static bool fw_code_countable(unsigned long code)
{
	return code < SBI_PMU_FW_STANDARD_COUNT ||
	       (code >= SBI_PMU_FW_IMPL_FIRST &&
		code < SBI_PMU_FW_IMPL_FIRST + SBI_PMU_FW_TALLY_COUNT);
}

/* Logical counters that can count (event_idx, event_data) on this hart. */
static uint64_t model_counters(unsigned long event_idx, uint64_t data)
{
	unsigned long type = SBI_PMU_EVENT_TYPE(event_idx);
	unsigned long code = SBI_PMU_EVENT_CODE(event_idx);
	uint32_t c;

	if (event_idx & ~SBI_PMU_EVENT_IDX_MASK)
		return 0;
	switch (type) {
	case SBI_PMU_EVENT_TYPE_HW:
		c = code ? model_hw((uint32_t)event_idx) : 0;
		break;
	case SBI_PMU_EVENT_TYPE_CACHE:
		c = model_hw((uint32_t)event_idx);
		break;
	case SBI_PMU_EVENT_TYPE_RAW:
		c = code || (data & ~SBI_PMU_RAW_DATA_MASK) ? 0 : model_raw(data);
		break;
	case SBI_PMU_EVENT_TYPE_RAW_V2:
		c = code || (data & ~SBI_PMU_RAW_V2_DATA_MASK) ? 0 : model_raw(data);
		break;
	case SBI_PMU_EVENT_TYPE_FW:	/* no board hooks: no PLATFORM events */
		return fw_code_countable(code) ?
		       (((1ULL << PMU_FW_COUNTERS) - 1) << model.nr_hw) : 0;
	default:
		return 0;
	}
	c &= ~2U;				/* time counts nothing */
	if (event_idx != SBI_PMU_HW_CPU_CYCLES)
		c &= ~1U;
	if (event_idx != SBI_PMU_HW_INSTRUCTIONS)
		c &= ~4U;
	return c & model.usable;
}

static unsigned int model_total(void)
{
	return model.nr_hw + PMU_FW_COUNTERS;
}

static uint64_t model_valid(void)
{
	return (uint64_t)model.usable | (((1ULL << PMU_FW_COUNTERS) - 1) << model.nr_hw);
}

/* The set (base, mask) names, or 0 when the library must refuse it. */
static uint64_t model_set(unsigned long base, unsigned long mask)
{
	uint64_t set = 0;

	if (!mask || base >= model_total())
		return 0;
	for (unsigned int i = 0; i < 64; i++) {
		if (!((mask >> i) & 1))
			continue;
		if (base + i >= model_total() || !((model_valid() >> (base + i)) & 1))
			return 0;
		set |= 1ULL << (base + i);
	}
	return set;
}

/* ---- generating values ------------------------------------------------------ */

static unsigned long event_of(struct input *in)
{
	static const unsigned long types[] = { 0, 1, 2, 3, 15, 15, 0, 1 };
	uint8_t k = u8(in);

	if (k >= 0xF8)
		return (unsigned long)u64(in);		/* anything */
	if (k & 0x80)
		return SBI_PMU_EVENT_IDX(types[k & 7], u8(in) & 0x3F);
	return SBI_PMU_EVENT_IDX(types[k & 7], (k >> 3) & 0xF);
}

/* Register values: mostly small, edges, addresses in and out of S-mode RAM. */
static unsigned long arg(struct input *in)
{
	uint8_t k = u8(in);

	switch (k & 7) {
	case 0:
		return k >> 3;
	case 1:
		return u8(in);
	case 2:
		return ~0UL - (k >> 3);
	case 3:
		return 1UL << (u8(in) & 63);
	case 4:
		return SIM_SMEM + 16UL * u8(in);
	case 5:
		return SIM_FW_BASE + 8UL * u8(in);
	case 6:
		return event_of(in);
	default:
		return (unsigned long)u64(in);
	}
}

/* ---- set-up ----------------------------------------------------------------- */

static void build_map(struct input *in)
{
	unsigned int n;

	memset(&model, 0, sizeof(model));
	pmu_map_init(&map);
	if (u8(in) & 1) {
		model.one_counter_per_event = true;
	}
	n = u8(in) % (MAX_RANGES + 1);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t first = (uint32_t)event_of(in), last = first + (u8(in) & 3);
		uint32_t counters = u32(in);

		if (pmu_map_add_range(&map, first, last, counters) == PMU_MAP_OK &&
		    model.nr_ranges < MAX_RANGES) {
			model.range[model.nr_ranges].first = first;
			model.range[model.nr_ranges].last = last;
			model.range[model.nr_ranges++].counters = counters;
		}
	}
	n = u8(in) % 4;
	for (unsigned int i = 0; i < n; i++)
		pmu_map_add_selector(&map, (uint32_t)event_of(in), u64(in) >> (u8(in) & 63));
	n = u8(in) % (MAX_RAW + 1);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t mask = u64(in) >> (u8(in) & 63), inv = u64(in) & mask;
		uint32_t counters = u32(in);

		if (pmu_map_add_raw(&map, inv, mask, counters) == PMU_MAP_OK) {
			model.raw[model.nr_raw].invariant = inv;
			model.raw[model.nr_raw].mask = mask;
			model.raw[model.nr_raw++].counters = counters;
		}
	}
	pmu_map_freeze(&map);
}

/* false: the hart was refused (and that was right) */
static bool setup_hart(struct input *in)
{
	uint32_t counters = u32(in);
	uint8_t f = u8(in);
	unsigned int hpm_bits = u8(in) % 66;
	long rc;

	if (f & 0x80)
		counters |= 0x5;	/* mostly with cycle and instret */
	sim_init(&sim, counters, hpm_bits, f & 1, f & 2);
	sim.qemu_filter_bug = f & 4;
	config = (struct pmu_hart_config){
		.map = &map,
		.ops = (f & 8) ? &sim_ops_noshmem : &sim_ops,
		.ops_ctx = &sim,
		.caps = {
			.hartid = 0,
			.counters = counters,
			.hpm_bits = hpm_bits,
			.sscofpmf = f & 1,
			.smcntrpmf = f & 2,
			.quirks = ((f & 4) ? PMU_HART_QUIRK_NO_FILTER_CYCLES_INSTRET : 0) |
				  (model.one_counter_per_event ?
				   PMU_HART_QUIRK_ONE_COUNTER_PER_EVENT : 0),
		},
	};
	memset(&hart, 0, sizeof(hart));
	model.usable = counters & ~2U;
	model.nr_hw = model.usable ? 32 - (unsigned int)__builtin_clz(model.usable) : 0;
	rc = pmu_hart_init(&hart, &config);
	if ((model.usable & ~5U) && (hpm_bits < 1 || hpm_bits > 64)) {
		CHECK(rc == SBI_ERR_INVALID_PARAM, "bad width accepted", hpm_bits, rc);
		return false;
	}
	CHECK(rc == SBI_SUCCESS, "pmu_hart_init refused a good hart", counters, rc);
	return true;
}

/* ---- checks ----------------------------------------------------------------- */

static void check_state(const char *after)
{
	CHECK(sim.illegal == 0, after, sim.illegal, 0);
	CHECK(!(hart.started & ~hart.configured), "started counter not configured",
	      hart.started, hart.configured);
	CHECK(!(hart.configured & ~model_valid()), "configured counter not valid",
	      hart.configured, model_valid());
	for (unsigned int i = 0; i < model.nr_hw; i++)
		if ((hart.started >> i) & 1)
			CHECK(!((sim.inhibit >> i) & 1), "started counter inhibited", i, sim.inhibit);
}

static void check_config(const unsigned long *a, struct sbiret r, uint64_t configured0,
			 uint64_t started0)
{
	unsigned long flags = a[2];
	uint64_t set = model_set(a[0], a[1]);
	uint64_t can = model_counters(a[3], a[4]) & set;
	bool exact = !(flags & (SBI_PMU_CFG_FLAG_SKIP_MATCH | SBI_PMU_CFG_FLAG_INH_MASK)) &&
		     !model.one_counter_per_event;

	if (flags & ~SBI_PMU_CFG_FLAGS_ALL || !set) {
		CHECK(r.error == SBI_ERR_INVALID_PARAM, "config: bad flags/set not refused",
		      flags, r.error);
		return;
	}
	if (r.error) {
		CHECK(r.error == SBI_ERR_NOT_SUPPORTED, "config: unexpected error", a[3], r.error);
		if (exact)
			CHECK(!(can & ~configured0), "config: refused although a counter was free",
			      a[3], can & ~configured0);
		return;
	}
	CHECK(r.value < 64 && ((can >> r.value) & 1), "config: counter cannot count the event",
	      a[3], r.value);
	if (flags & SBI_PMU_CFG_FLAG_SKIP_MATCH)
		CHECK(r.value == (unsigned long)__builtin_ctzll(set) && !((started0 >> r.value) & 1),
		      "config: SKIP_MATCH chose another counter", set, r.value);
	else
		CHECK(!((configured0 >> r.value) & 1), "config: counter already in use",
		      configured0, r.value);
	CHECK((hart.configured >> r.value) & 1, "config: counter not configured", r.value, 0);
	if (flags & SBI_PMU_CFG_FLAG_AUTO_START)
		CHECK((hart.started >> r.value) & 1, "config: AUTO_START did not start", r.value, 0);
}

static void check_event_info(const unsigned long *a, struct sbiret r, bool shmem,
			     uint32_t event, uint64_t data)
{
	uint32_t out;

	if (!shmem) {
		CHECK(r.error == SBI_ERR_NOT_SUPPORTED, "event_get_info without shmem hooks", r.error, 0);
		return;
	}
	if (r.error || a[0] != SIM_SMEM || a[1] || a[2] != 1 || a[3])
		return;
	out = sim_mem_get32(&sim, SIM_SMEM + SBI_PMU_EVENT_INFO_OUTPUT_OFFSET);
	if (event & SBI_PMU_EVENT_INFO_IDX_RESERVED)
		return;		/* refused as a whole above */
	CHECK(!!(out & SBI_PMU_EVENT_INFO_SUPPORTED) == !!model_counters(event, data),
	      "event_get_info disagrees with the model", event, out);
}

static void sbi_call(struct input *in, unsigned long fid)
{
	unsigned long a[6];
	uint64_t configured0 = hart.configured, started0 = hart.started;
	uint32_t event = 0;
	uint64_t data = 0;
	bool shmem = config.ops == &sim_ops;
	struct sbiret r;

	for (unsigned int i = 0; i < 6; i++)
		a[i] = arg(in);
	if (fid == SBI_EXT_PMU_EVENT_GET_INFO && (u8(in) & 1)) {
		/* one entry in S-mode memory, described by the input */
		event = (uint32_t)event_of(in);
		data = arg(in);
		a[0] = SIM_SMEM, a[1] = 0, a[2] = 1, a[3] = 0;
		sim_mem_put32(&sim, SIM_SMEM, event);
		sim_mem_put32(&sim, SIM_SMEM + 4, 0xFFFFFFFF);
		sim_mem_put64(&sim, SIM_SMEM + 8, data);
	}

	r = pmu_sbi_call(&hart, fid, a);

	CHECK(r.error <= 0 && r.error >= SBI_ERR_IO, "not an SBI error code", fid, r.error);
	if (r.error && !(fid == SBI_EXT_PMU_COUNTER_STOP && r.error == SBI_ERR_ALREADY_STOPPED)) {
		CHECK(hart.started == started0, "a failed call started or stopped a counter",
		      fid, hart.started ^ started0);
		CHECK(hart.configured == configured0, "a failed call changed a configuration",
		      fid, hart.configured ^ configured0);
	}
	switch (fid) {
	case SBI_EXT_PMU_NUM_COUNTERS:
		CHECK(!r.error && r.value == model_total(), "num_counters", r.value, model_total());
		break;
	case SBI_EXT_PMU_COUNTER_GET_INFO:
		CHECK(!r.error == (a[0] < model_total() && ((model_valid() >> a[0]) & 1)),
		      "counter_get_info validity", a[0], r.error);
		break;
	case SBI_EXT_PMU_COUNTER_CFG_MATCH:
		check_config(a, r, configured0, started0);
		break;
	case SBI_EXT_PMU_COUNTER_START:
	case SBI_EXT_PMU_COUNTER_STOP:
		if (!model_set(a[0], a[1]))
			CHECK(r.error == SBI_ERR_INVALID_PARAM, "start/stop: bad set accepted",
			      a[0], a[1]);
		break;
	case SBI_EXT_PMU_COUNTER_FW_READ:
	case SBI_EXT_PMU_COUNTER_FW_READ_HI:
		if (!(a[0] < model_total() && ((model_valid() >> a[0]) & 1)))
			CHECK(r.error == SBI_ERR_INVALID_PARAM, "fw_read: bad counter accepted",
			      a[0], r.error);
		break;
	case SBI_EXT_PMU_SNAPSHOT_SET_SHMEM:
		if (!shmem)
			CHECK(r.error == SBI_ERR_NOT_SUPPORTED, "snapshot without shmem hooks",
			      r.error, 0);
		break;
	case SBI_EXT_PMU_EVENT_GET_INFO:
		check_event_info(a, r, shmem, event, data);
		break;
	default:
		CHECK(r.error == SBI_ERR_NOT_SUPPORTED, "unknown FID answered", fid, r.error);
		break;
	}
	check_state("illegal hart access in an SBI call");
}

static void run(struct input *in)
{
	static const enum sim_mode modes[] = { SIM_U, SIM_S, SIM_M, SIM_VU, SIM_VS };

	for (unsigned int n = 0; n < MAX_OPS && in->n; n++) {
		uint8_t op = u8(in);

		switch (op % 16) {
		case 9:
			sim_tick(&sim, modes[u8(in) % 5], u64(in) >> (u8(in) & 63));
			break;
		case 10:
			pmu_fw_event(&hart, (unsigned int)arg(in));
			break;
		case 11:	/* non-retentive suspend: the CSRs are lost */
			pmu_hart_suspend(&hart);
			sim_power_loss(&sim);
			pmu_hart_resume_nonretentive(&hart);
			break;
		case 12:	/* HSM stop, then start again */
			pmu_hart_stop(&hart);
			CHECK(!hart.configured && !hart.started, "stop left counters", hart.configured, 0);
			CHECK(pmu_hart_init(&hart, &config) == SBI_SUCCESS, "restart refused", 0, 0);
			break;
		case 13:
			sbi_call(in, 9 + u8(in));	/* an unknown FID */
			break;
		default:	/* 0..8, and more often config/start/stop */
			sbi_call(in, op % 16 < 9 ? op % 16 : 2 + op % 3);
			break;
		}
		check_state("illegal hart access");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	build_map(&in);
	if (setup_hart(&in))
		run(&in);
	sim_free(&sim);
	return 0;
}
