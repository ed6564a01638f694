// SPDX-License-Identifier: BSD-2-Clause
/* FID 0 and 1, the counter-set arithmetic, the decoder and the ops table. */
#include <limits.h>
#include <string.h>
#include "fixture.h"
#include "../../../lib/pmu/pmu_internal.h"

static void test_num_counters(void)
{
	struct fx f;
	struct fx_opts o = fx_default;

	fx_setup(&f, NULL);
	CHECK_RET(pmu_sbi_num_counters(&f.h), 0, DEF_NR_HW + PMU_FW_COUNTERS,
		  "num_counters: 11 hardware indices (0..10, 1 a hole) + %d "
		  "firmware", PMU_FW_COUNTERS);
	fx_teardown(&f, "num_counters");

	o.counters = 0;
	fx_setup(&f, &o);
	CHECK_RET(pmu_sbi_num_counters(&f.h), 0, PMU_FW_COUNTERS,
		  "num_counters: a hart without counters has only firmware ones");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, 0), SBI_SUCCESS,
		  "get_info: index 0 is then a firmware counter");
	CHECK(pmu_sbi_counter_get_info(&f.h, 0).value & SBI_PMU_CTR_INFO_TYPE_FW,
	      "get_info: ... with the type bit set");
	fx_teardown(&f, "no counters");

	o.counters = BIT(0) | BIT(2) | BIT(3) | BIT(5) | BIT(31);
	fx_setup(&f, &o);
	CHECK_RET(pmu_sbi_num_counters(&f.h), 0, 32 + PMU_FW_COUNTERS,
		  "num_counters: highest counter 31 -> 32 hardware indices");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, 4), SBI_ERR_INVALID_PARAM,
		  "get_info: a counter the hart lacks (4) is a hole");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, 30), SBI_ERR_INVALID_PARAM,
		  "get_info: a counter the hart lacks (30) is a hole");
	CHECK_RET(pmu_sbi_counter_get_info(&f.h, 31), 0,
		  0xC1F | (47UL << 12), "get_info: counter 31 is CSR 0xC1F");
	CHECK_ERR(fx_cfg(&f, 3, 3, 0, EV_DTLB_RD_MISS, 0), SBI_ERR_INVALID_PARAM,
		  "config_matching: a set naming a hole (4) is invalid");
	fx_teardown(&f, "sparse counters");
}

static void test_get_info(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	unsigned long mask = 0;

	fx_setup(&f, NULL);
	CHECK_RET(pmu_sbi_counter_get_info(&f.h, 0), 0, 0xC00 | (63UL << 12),
		  "get_info(0): cycle CSR 0xC00, width 63 (64 bits), hardware");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, 1), SBI_ERR_INVALID_PARAM,
		  "get_info(1): time is no counter: INVALID_PARAM");
	CHECK_RET(pmu_sbi_counter_get_info(&f.h, 2), 0, 0xC02 | (63UL << 12),
		  "get_info(2): instret CSR 0xC02, width 63");
	for (unsigned int i = 3; i < DEF_NR_HW; i++)
		CHECK_RET(pmu_sbi_counter_get_info(&f.h, i), 0,
			  (0xC00 + i) | ((DEF_HPM_BITS - 1UL) << 12),
			  "get_info(%u): CSR 0x%x, width %d = bits - 1", i,
			  0xC00 + i, DEF_HPM_BITS - 1);
	for (unsigned int i = f.fw0; i < f.total; i++)
		CHECK_RET(pmu_sbi_counter_get_info(&f.h, i), 0,
			  SBI_PMU_CTR_INFO_TYPE_FW | (63UL << 12),
			  "get_info(%u): firmware counter (bit XLEN-1), width 63",
			  i);
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, f.total), SBI_ERR_INVALID_PARAM,
		  "get_info(num_counters): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, 64), SBI_ERR_INVALID_PARAM,
		  "get_info(64): INVALID_PARAM");
	CHECK_ERR(pmu_sbi_counter_get_info(&f.h, ULONG_MAX), SBI_ERR_INVALID_PARAM,
		  "get_info(ULONG_MAX): INVALID_PARAM");
	/* Linux: get_info for 0..num_counters-1, errors leave gaps */
	for (unsigned long i = 0; i < pmu_sbi_num_counters(&f.h).value; i++)
		if (!pmu_sbi_counter_get_info(&f.h, i).error)
			mask |= 1UL << i;
	CHECK(mask == f.all && mask == (DEF_COUNTERS |
	      (((1UL << PMU_FW_COUNTERS) - 1) << DEF_NR_HW)),
	      "get_info over 0..num_counters-1 gives every valid counter "
	      "(mask 0x%lx)", mask);
	CHECK(sim_log_count(&f.sim, 'E') + sim_log_count(&f.sim, 'C') +
	      sim_log_count(&f.sim, 'I') + sim_log_count(&f.sim, 'U') == 0,
	      "num_counters/get_info touch no CSR");
	fx_teardown(&f, "get_info");

	for (unsigned int bits = 1; bits <= 64; bits += 21) {
		o.hpm_bits = bits;
		fx_setup(&f, &o);
		CHECK_RET(pmu_sbi_counter_get_info(&f.h, 3), 0,
			  0xC03 | ((bits - 1UL) << 12),
			  "get_info(3): %u-bit counter reports width %u", bits,
			  bits - 1);
		fx_teardown(&f, "width");
	}
	o.hpm_bits = 64;
	fx_setup(&f, &o);
	CHECK_RET(pmu_sbi_counter_get_info(&f.h, 3), 0, 0xC03 | (63UL << 12),
		  "get_info(3): 64-bit counter reports width 63");
	fx_teardown(&f, "width 64");
}

/* The same index edge cases for config_matching, start and stop. */
static void test_index_edges(void)
{
	struct fx f;
	unsigned long t;

	fx_setup(&f, NULL);
	t = f.total;
	static const struct {
		unsigned long base, mask;
		const char *what;
	} bad[] = {
		{ ULONG_MAX, 1, "base ULONG_MAX" },
		{ ULONG_MAX, ULONG_MAX, "base and mask ULONG_MAX" },
		{ ULONG_MAX - 1, 3, "base ULONG_MAX-1, mask 3 (base + bit wraps)" },
		{ 64, 1, "base 64" },
		{ 0, 0, "mask 0" },
		{ 5, 0, "mask 0 at base 5" },
		{ 0, ULONG_MAX, "mask ~0 (beyond the counters)" },
		{ 0, 1UL << 63, "mask bit 63" },
		{ 1, 1, "counter 1 (time)" },
		{ 0, 3, "mask 0b11 names counter 1" },
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERR(fx_cfg(&f, bad[i].base, bad[i].mask, 0, EV_FW(5), 0),
			  SBI_ERR_INVALID_PARAM, "config_matching: %s: INVALID_PARAM",
			  bad[i].what);
		CHECK_ERR(fx_start(&f, bad[i].base, bad[i].mask, 0, 0),
			  SBI_ERR_INVALID_PARAM, "start: %s: INVALID_PARAM",
			  bad[i].what);
		CHECK_ERR(fx_stop(&f, bad[i].base, bad[i].mask, 0),
			  SBI_ERR_INVALID_PARAM, "stop: %s: INVALID_PARAM",
			  bad[i].what);
	}
	CHECK_ERR(fx_cfg(&f, t, 1, 0, EV_FW(5), 0), SBI_ERR_INVALID_PARAM,
		  "config_matching: base = num_counters: INVALID_PARAM");
	CHECK_ERR(fx_cfg(&f, t - 1, 2, 0, EV_FW(5), 0), SBI_ERR_INVALID_PARAM,
		  "config_matching: base = total-1, mask bit 1 (= total): INVALID_PARAM");
	CHECK_ERR(fx_start(&f, t - 1, 2, 0, 0), SBI_ERR_INVALID_PARAM,
		  "start: base = total-1, mask bit 1: INVALID_PARAM");
	CHECK_ERR(fx_stop(&f, t - 1, 2, 0), SBI_ERR_INVALID_PARAM,
		  "stop: base = total-1, mask bit 1: INVALID_PARAM");
	CHECK_ERR(fx_cfg(&f, 0, 1UL << t, 0, EV_FW(5), 0), SBI_ERR_INVALID_PARAM,
		  "config_matching: base 0, mask bit num_counters: INVALID_PARAM");
	CHECK(f.h.configured == 0 && f.h.started == 0 && f.sim.nlog == 0,
	      "none of the refused calls changed any state or CSR");
	CHECK_RET(fx_cfg(&f, t - 1, 1, 0, EV_FW(5), 0), 0, t - 1,
		  "config_matching: base = total-1, mask 1: the last counter");
	CHECK_ERR(fx_start(&f, t - 1, 1, 0, 0), SBI_SUCCESS,
		  "start: base = total-1, mask 1 starts the last counter");
	CHECK_ERR(fx_stop(&f, t - 2, 3, 0), SBI_ERR_ALREADY_STOPPED,
		  "stop: base = total-2, mask 0b11 is valid (one was not running)");
	CHECK(!(f.h.started & BIT(t - 1)), "... and the last counter stopped");
	CHECK_ERR(fx_stop(&f, 0, f.all, SBI_PMU_STOP_FLAG_RESET),
		  SBI_ERR_ALREADY_STOPPED,
		  "stop: base 0 with every valid counter is valid");
	CHECK(f.h.configured == 0, "... and RESET released everything");
	CHECK_RET(fx_cfg(&f, 3, f.all >> 3, 0, EV_DTLB_RD_MISS, 0), 0, 3,
		  "config_matching: base 3 with the valid counters above it");
	CHECK_RET(fx_cfg(&f, f.fw0, 1, 0, EV_FW(1), 0), 0, f.fw0,
		  "config_matching: base = first firmware counter, mask 1");
	fx_teardown(&f, "index edges");
}

/* A hart with 32 hardware counters: 32 + PMU_FW_COUNTERS indices. */
static void test_index_full(void)
{
	struct fx f;
	struct fx_opts o = fx_default;
	unsigned long t;

	o.counters = 0xFFFFFFFDU;
	fx_setup(&f, &o);
	t = f.total;
	CHECK(t == 32 + PMU_FW_COUNTERS, "32 hardware counters: %lu logical", t);
	CHECK_RET(fx_cfg(&f, t - 1, 1, 0, EV_FW(6), 0), 0, t - 1,
		  "config_matching: the highest counter (%lu) is usable", t - 1);
	CHECK_ERR(fx_start(&f, t - 1, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE, 7),
		  SBI_SUCCESS, "start: the highest counter");
	pmu_fw_event(&f.h, SBI_PMU_FW_IPI_SENT);
	CHECK_RET(pmu_sbi_counter_fw_read(&f.h, t - 1), 0, 8,
		  "fw_read: the highest counter counts");
	CHECK_ERR(fx_stop(&f, 0, f.all, 0), SBI_ERR_ALREADY_STOPPED,
		  "stop: base 0 with all %lu valid counters", t - 1);
	if (t == 64) {
		CHECK_ERR(fx_stop(&f, 0, ULONG_MAX, 0), SBI_ERR_INVALID_PARAM,
			  "stop: 64 counters, mask ~0 includes the hole 1");
		CHECK_ERR(fx_stop(&f, 2, ULONG_MAX >> 2, 0), SBI_ERR_ALREADY_STOPPED,
			  "stop: 64 counters, base 2 mask ~0>>2 reaches counter 63");
		CHECK_ERR(fx_stop(&f, 2, ULONG_MAX >> 1, 0), SBI_ERR_INVALID_PARAM,
			  "stop: 64 counters, base 2 mask ~0>>1 reaches 64");
	}
	fx_teardown(&f, "32 hardware counters");
}

static void test_decoder(void)
{
	struct fx f;
	unsigned long a[6];

	fx_setup(&f, NULL);
	memset(a, 0, sizeof(a));
	CHECK_RET(pmu_sbi_call(&f.h, SBI_EXT_PMU_NUM_COUNTERS, a), 0, f.total,
		  "ecall FID 0: num_counters");
	a[0] = 3;
	CHECK_RET(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_GET_INFO, a), 0,
		  0xC03 | (47UL << 12), "ecall FID 1: get_info(a0)");
	a[0] = 0; a[1] = DEF_PROG; a[2] = SBI_PMU_CFG_FLAG_CLEAR_VALUE;
	a[3] = EV_RAW2; a[4] = 0xABCDEF;
	CHECK_RET(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_CFG_MATCH, a), 0, 6,
		  "ecall FID 2: config_matching(a0..a4), event_data in a4");
	a[0] = 6; a[1] = 1; a[2] = SBI_PMU_START_FLAG_SET_INIT_VALUE;
	a[3] = 0x123456789ULL; a[4] = 0;
	CHECK_ERR(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_START, a), SBI_SUCCESS,
		  "ecall FID 3: start(a0..a3)");
	CHECK(f.sim.ctr[6] == 0x123456789ULL,
	      "ecall FID 3: initial_value from a3 (64-bit on RV64)");
	a[0] = 6; a[1] = 1; a[2] = 0;
	CHECK_ERR(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_STOP, a), SBI_SUCCESS,
		  "ecall FID 4: stop(a0..a2)");
	a[0] = 0; a[1] = 1UL << f.fw0; a[2] = 0; a[3] = EV_FW(4); a[4] = 0;
	CHECK_RET(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_CFG_MATCH, a), 0, f.fw0,
		  "ecall FID 2: firmware event");
	a[0] = f.fw0;
	CHECK_RET(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_FW_READ, a), 0, 0,
		  "ecall FID 5: fw_read(a0)");
	CHECK_RET(pmu_sbi_call(&f.h, SBI_EXT_PMU_COUNTER_FW_READ_HI, a), 0, 0,
		  "ecall FID 6: fw_read_hi(a0) is 0 on RV64");
	a[0] = SIM_SMEM; a[1] = 0; a[2] = 0;
	CHECK_ERR(pmu_sbi_call(&f.h, SBI_EXT_PMU_SNAPSHOT_SET_SHMEM, a),
		  SBI_SUCCESS, "ecall FID 7: snapshot_set_shmem(a0..a2)");
	a[0] = SIM_SMEM + 0x1000; a[1] = 0; a[2] = 1; a[3] = 0;
	CHECK_ERR(pmu_sbi_call(&f.h, SBI_EXT_PMU_EVENT_GET_INFO, a),
		  SBI_SUCCESS, "ecall FID 8: event_get_info(a0..a3)");
	CHECK_ERR(pmu_sbi_call(&f.h, 9, a), SBI_ERR_NOT_SUPPORTED,
		  "ecall FID 9: NOT_SUPPORTED");
	CHECK_ERR(pmu_sbi_call(&f.h, ULONG_MAX, a), SBI_ERR_NOT_SUPPORTED,
		  "ecall FID ULONG_MAX: NOT_SUPPORTED");

	CHECK(pmu_sbi_ops.num_counters == pmu_sbi_num_counters &&
	      pmu_sbi_ops.counter_get_info == pmu_sbi_counter_get_info &&
	      pmu_sbi_ops.counter_config_matching == pmu_sbi_counter_config_matching &&
	      pmu_sbi_ops.counter_start == pmu_sbi_counter_start &&
	      pmu_sbi_ops.counter_stop == pmu_sbi_counter_stop &&
	      pmu_sbi_ops.counter_fw_read == pmu_sbi_counter_fw_read &&
	      pmu_sbi_ops.counter_fw_read_hi == pmu_sbi_counter_fw_read_hi &&
	      pmu_sbi_ops.snapshot_set_shmem == pmu_sbi_snapshot_set_shmem &&
	      pmu_sbi_ops.event_get_info == pmu_sbi_event_get_info,
	      "the ops table names the nine functions");
	CHECK_RET(pmu_sbi_ops.num_counters(&f.h), 0, f.total,
		  "a call through the ops table");
	fx_teardown(&f, "decoder");
}

/* The bit scans lib/pmu uses instead of libgcc's (PMU_PORTABLE_BITOPS). */
static void test_bitops(void)
{
	bool ok = true;

	for (unsigned int i = 0; i < 64; i++) {
		uint64_t one = 1ULL << i;
		uint64_t above = ~0ULL << i;
		uint64_t below = one | 1;

		ok &= pmu_ctz64(one) == i && pmu_ctz64(above) == i &&
		      pmu_fls64(one) == i && pmu_fls64(below) == i &&
		      pmu_fls64(one | (one - 1)) == i;
	}
	for (uint64_t x = 0x9E3779B97F4A7C15ULL, n = 0; n < 1000; n++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		ok &= pmu_ctz64(x) == (unsigned int)__builtin_ctzll(x) &&
		      pmu_fls64(x) == 63 - (unsigned int)__builtin_clzll(x);
	}
	CHECK(ok, "bit scans (%s) agree with the compiler's on every single-bit pattern and 1000 random values",
#ifdef PMU_PORTABLE_BITOPS
	      "portable, as on RISC-V without Zbb"
#else
	      "builtin"
#endif
	      );
}

void test_basic(void)
{
	test_bitops();
	test_num_counters();
	test_get_info();
	test_index_edges();
	test_index_full();
	test_decoder();
}
