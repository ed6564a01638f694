// SPDX-License-Identifier: BSD-2-Clause
/* The simulated hart PMU: see sim.h. */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

static void log_op(struct sim_hart *s, char op, unsigned int idx, uint64_t v)
{
	if (s->nlog < SIM_LOG_MAX)
		s->log[s->nlog++] = (struct sim_op){ op, idx, v };
}

/* in_m: the deadlines pass during an M-mode CSR write */
static void timer_expire(struct sim_hart *s, uint32_t bits, bool in_m)
{
	for (unsigned int i = 3; i < 32; i++) {
		if (!(bits & (1U << i)))
			continue;
		s->timer_armed &= ~(1U << i);
		if (s->inhibit & (1U << i))
			continue;	/* QEMU 7.2: lost, not armed again */
		if (s->evt[i] & MHPMEVENT_OF)
			continue;
		if (s->leftover & (1U << i)) {
			s->leftover &= ~(1U << i);	/* swallowed */
			continue;
		}
		if (s->qemu_timer_lost)
			continue;
		if (s->qemu_mode_filter && in_m && (s->evt[i] & MHPMEVENT_MINH)) {
			s->timer_armed |= 1U << i;	/* not wrapped: re-armed */
			continue;
		}
		s->lcofi++;
		s->lcofip = true;
		s->evt[i] |= MHPMEVENT_OF;
	}
}

void sim_timer_expire(struct sim_hart *s)
{
	timer_expire(s, s->timer_armed, false);
}

/* After every CSR write: the deadlines may pass here (expire_after_op). */
static void after_op(struct sim_hart *s)
{
	if (++s->nops == s->expire_after_op)
		sim_timer_expire(s);
}

static bool counter_ok(const struct sim_hart *s, unsigned int idx)
{
	return idx < 32 && idx != 1 && (s->exists & (1U << idx));
}

static uint64_t width_mask(const struct sim_hart *s, unsigned int idx)
{
	if (idx == 0 || idx == 2 || s->hpm_bits >= 64)
		return ~0ULL;
	return (1ULL << s->hpm_bits) - 1;
}

static uint64_t sim_counter_read(void *ctx, unsigned int idx)
{
	struct sim_hart *s = ctx;

	if (!counter_ok(s, idx)) {
		s->illegal++;
		return 0;
	}
	return s->ctr[idx];
}

static void sim_counter_write(void *ctx, unsigned int idx, uint64_t v)
{
	struct sim_hart *s = ctx;

	log_op(s, 'C', idx, v);
	if (!counter_ok(s, idx)) {
		s->illegal++;
		return;
	}
	if (s->hardwired_zero & (1U << idx))
		return;
	s->ctr[idx] = v & width_mask(s, idx);
	if (s->qemu_overflow_timer && s->sscofpmf && idx >= 3 &&
	    ((s->evt[idx] & 0xFFFFF) == 1 || (s->evt[idx] & 0xFFFFF) == 2)) {
		if (s->qemu_leftover && (v >> 62) != 3) {
			s->leftover |= 1U << idx;	/* far: never expires */
		} else {
			s->timer_armed |= 1U << idx;
			if (!(v >> 63) || (s->qemu_leftover && v == ~0ULL))
				timer_expire(s, 1U << idx, true);	/* deadline passed */
		}
	}
	after_op(s);
}

static bool event_ok(const struct sim_hart *s, unsigned int idx)
{
	if (!counter_ok(s, idx))
		return false;
	return idx >= 3 || s->smcntrpmf;
}

static uint64_t sim_event_read(void *ctx, unsigned int idx)
{
	struct sim_hart *s = ctx;

	if (!event_ok(s, idx)) {
		s->illegal++;
		return 0;
	}
	return s->evt[idx];
}

static void sim_event_write(void *ctx, unsigned int idx, uint64_t v)
{
	struct sim_hart *s = ctx;

	log_op(s, 'E', idx, v);
	if (!event_ok(s, idx)) {
		s->illegal++;
		return;
	}
	if (idx >= 3 && !s->sscofpmf && (v & (0x3FULL << 58)))
		s->priv_without_sscofpmf++;
	if ((idx == 0 || idx == 2) && (v & ~MHPMEVENT_INH_MASK))
		s->illegal++;	/* mNcfg has only the five inhibit bits */
	s->evt[idx] = v;
	after_op(s);
}

static bool mask_ok(const struct sim_hart *s, uint32_t mask)
{
	return !(mask & 2) && !(mask & ~s->exists);
}

static void sim_inhibit_set(void *ctx, uint32_t mask)
{
	struct sim_hart *s = ctx;

	log_op(s, 'I', 0, mask);
	if (!mask_ok(s, mask))
		s->illegal++;
	s->inhibit |= mask;
	after_op(s);
}

static void sim_inhibit_clear(void *ctx, uint32_t mask)
{
	struct sim_hart *s = ctx;

	log_op(s, 'U', 0, mask);
	if (!mask_ok(s, mask))
		s->illegal++;
	s->inhibit &= ~mask;
	after_op(s);
}

/* S-mode may use [SIM_SMEM, SIM_RAM_BASE + SIM_RAM_SIZE). */
static bool range_ok(uint64_t addr, uint64_t size)
{
	uint64_t end = SIM_RAM_BASE + SIM_RAM_SIZE;

	return addr >= SIM_SMEM && addr < end && size <= end - addr;
}

static void *sim_shmem_map(void *ctx, uint64_t addr, uint64_t size)
{
	struct sim_hart *s = ctx;

	log_op(s, 'M', 0, addr);
	s->mem_maps++;
	if (!range_ok(addr, size) || s->fail_map)
		return NULL;
	return s->ram + (addr - SIM_RAM_BASE);
}

static void sim_lcofi_write(void *ctx, bool pending)
{
	struct sim_hart *s = ctx;

	s->lcofip = pending;
	s->lcofi_writes++;
}

const struct pmu_hart_ops sim_ops = {
	.counter_read = sim_counter_read,
	.counter_write = sim_counter_write,
	.event_read = sim_event_read,
	.event_write = sim_event_write,
	.inhibit_set = sim_inhibit_set,
	.inhibit_clear = sim_inhibit_clear,
	.shmem_map = sim_shmem_map,
	.lcofi_write = sim_lcofi_write,
};

const struct pmu_hart_ops sim_ops_noshmem = {
	.counter_read = sim_counter_read,
	.counter_write = sim_counter_write,
	.event_read = sim_event_read,
	.event_write = sim_event_write,
	.inhibit_set = sim_inhibit_set,
	.inhibit_clear = sim_inhibit_clear,
	.lcofi_write = sim_lcofi_write,
};

void sim_init(struct sim_hart *s, uint32_t exists, unsigned int hpm_bits,
	      bool sscofpmf, bool smcntrpmf)
{
	memset(s, 0, sizeof(*s));
	s->exists = exists | 2;		/* time always exists */
	s->hpm_bits = hpm_bits;
	s->sscofpmf = sscofpmf;
	s->smcntrpmf = smcntrpmf;
	/* reset state: arbitrary, to catch a library that trusts it */
	for (unsigned int i = 0; i < 32; i++) {
		s->ctr[i] = 1000 * i;
		s->evt[i] = i >= 3 ? 0x5A5A : (smcntrpmf ? MHPMEVENT_UINH : 0);
	}
	s->inhibit = 0;
	s->ram = calloc(1, SIM_RAM_SIZE);
	if (!s->ram)
		abort();
}

void sim_free(struct sim_hart *s)
{
	free(s->ram);
	s->ram = NULL;
}

static bool mode_inhibited(uint64_t evt, enum sim_mode mode)
{
	static const unsigned int bit[] = {
		[SIM_U] = 60, [SIM_S] = 61, [SIM_M] = 62,
		[SIM_VU] = 58, [SIM_VS] = 59,
	};

	return (evt >> bit[mode]) & 1;
}

/* Andes mcountermask_*: counter i does not count in this mode. */
static bool vendor_masked(const struct sim_hart *s, unsigned int i,
			  enum sim_mode mode)
{
	unsigned int m = mode == SIM_U || mode == SIM_VU ? 0 :
			 mode == SIM_S || mode == SIM_VS ? 1 : 2;

	return s->vendor == SIM_VENDOR_ANDES && ((s->v_mask[m] >> i) & 1);
}

/* A counter wrapped: its vendor flag, and the interrupt if enabled. */
static void vendor_overflow(struct sim_hart *s, unsigned int i)
{
	if (s->vendor == SIM_VENDOR_NONE)
		return;
	s->v_of |= 1U << i;
	if (s->v_inten & (1U << i)) {
		if (!s->v_pending)
			s->v_irqs++;
		s->v_pending = true;
	}
}

/* n events of every kind happen in this mode. */
void sim_tick(struct sim_hart *s, enum sim_mode mode, uint64_t n)
{
	for (unsigned int i = 0; i < 32; i++) {
		uint64_t mask = width_mask(s, i), old, sel;

		if (i == 1 || !(s->exists & (1U << i)) || (s->inhibit & (1U << i)))
			continue;
		if (vendor_masked(s, i, mode))
			continue;
		if (i == 0 || i == 2) {
			if (s->smcntrpmf && mode_inhibited(s->evt[i], mode))
				continue;
			old = s->ctr[i];
			s->ctr[i] += n;
			if (s->ctr[i] < old)
				vendor_overflow(s, i);
			continue;
		}
		sel = s->evt[i] & ~MHPMEVENT_PRIV_BITS;
		if (!sel)
			continue;	/* no event: nothing counts */
		if (s->sscofpmf && mode_inhibited(s->evt[i], mode) &&
		    !(s->qemu_filter_bug && ((sel & 0xFFFFF) == 1 ||
					     (sel & 0xFFFFF) == 2)))
			continue;
		old = s->ctr[i];
		s->ctr[i] = (old + n) & mask;
		if (n > mask - old) {		/* wrapped */
			vendor_overflow(s, i);
			if (s->sscofpmf) {
				if (!(s->evt[i] & MHPMEVENT_OF))
					s->lcofi++;
				s->evt[i] |= MHPMEVENT_OF;
			}
		}
	}
}

void sim_log_clear(struct sim_hart *s)
{
	s->nlog = 0;
}

int sim_log_find(const struct sim_hart *s, int from, char op, unsigned int idx)
{
	for (unsigned int i = from < 0 ? 0 : (unsigned int)from; i < s->nlog; i++) {
		const struct sim_op *o = &s->log[i];

		if (o->op != op)
			continue;
		if (op == 'I' || op == 'U' || op == 'A' || op == 'D') {
			if (o->value & (1ULL << idx))
				return (int)i;
		} else if (op == 'R' || op == 'W' || o->idx == idx) {
			return (int)i;
		}
	}
	return -1;
}

int sim_log_count(const struct sim_hart *s, char op)
{
	int n = 0;

	for (unsigned int i = 0; i < s->nlog; i++)
		n += s->log[i].op == op;
	return n;
}

void sim_power_loss(struct sim_hart *s)
{
	s->timer_armed = 0;
	if (s->vendor != SIM_VENDOR_NONE)
		sim_set_vendor(s, s->vendor);
	for (unsigned int i = 0; i < 32; i++) {
		s->ctr[i] = 0xDEAD0000ULL + i;
		s->evt[i] = 0;
	}
	s->inhibit = 0;
}

uint64_t sim_mem_get64(const struct sim_hart *s, uint64_t addr)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | s->ram[addr - SIM_RAM_BASE + (unsigned int)i];
	return v;
}

uint32_t sim_mem_get32(const struct sim_hart *s, uint64_t addr)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | s->ram[addr - SIM_RAM_BASE + (unsigned int)i];
	return v;
}

void sim_mem_put64(struct sim_hart *s, uint64_t addr, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		s->ram[addr - SIM_RAM_BASE + (unsigned int)i] = (uint8_t)v;
}

void sim_mem_put32(struct sim_hart *s, uint64_t addr, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		s->ram[addr - SIM_RAM_BASE + (unsigned int)i] = (uint8_t)v;
}

void sim_mem_fill(struct sim_hart *s, uint8_t byte)
{
	memset(s->ram, byte, SIM_RAM_SIZE);
}

/* ---- vendor overflow back ends --------------------------------------- */

void sim_set_vendor(struct sim_hart *s, enum sim_vendor v)
{
	s->vendor = v;
	/* reset state: arbitrary (not the cycle/instret bits of the masks) */
	s->v_inten = s->exists & ~2U;
	s->v_of = 0;
	s->v_wen = 0;
	for (unsigned int m = 0; m < 3; m++)
		s->v_mask[m] = v == SIM_VENDOR_ANDES ? 0x5A5A5A58U : 0;
	s->v_pending = false;
}

void sim_vendor_ack(struct sim_hart *s)
{
	s->v_pending = false;
}

uint32_t sim_vendor_scounterof(const struct sim_hart *s)
{
	/* T-Head: "if the corresponding bit [of mcounterwen] is not set to 1,
	 * scounterof will always read as 0" (OpenSBI, thead_c9xx_pmu.c) */
	return s->vendor == SIM_VENDOR_THEAD ? s->v_of & s->v_wen : s->v_of;
}

static bool vendor_ok(struct sim_hart *s, enum sim_vendor v, uint32_t mask)
{
	if (s->vendor != v || (mask & ~s->exists) || (mask & 2)) {
		s->illegal++;
		return false;
	}
	return true;
}

/* counter start: the flag cleared unless the interrupt is pending (OpenSBI) */
static void arm(struct sim_hart *s, enum sim_vendor v, uint32_t mask)
{
	log_op(s, 'A', 0, mask);
	if (!vendor_ok(s, v, mask))
		return;
	if (!s->v_pending)
		s->v_of &= ~mask;
	else if (s->v_of & mask)
		s->v_clear_while_pending++;	/* kept: S-mode still reads it */
	if (v == SIM_VENDOR_THEAD)
		s->v_wen |= mask;
	s->v_inten |= mask;
}

static void disarm(struct sim_hart *s, enum sim_vendor v, uint32_t mask)
{
	log_op(s, 'D', 0, mask);
	if (vendor_ok(s, v, mask))
		s->v_inten &= ~mask;
}

static void thead_arm(void *ctx, uint32_t mask)
{
	arm(ctx, SIM_VENDOR_THEAD, mask);
}

static void thead_disarm(void *ctx, uint32_t mask)
{
	disarm(ctx, SIM_VENDOR_THEAD, mask);
}

static uint32_t thead_flags(void *ctx)
{
	struct sim_hart *s = ctx;

	if (s->vendor != SIM_VENDOR_THEAD)
		s->illegal++;
	return s->v_of;
}

static void andes_arm(void *ctx, uint32_t mask)
{
	arm(ctx, SIM_VENDOR_ANDES, mask);
}

static void andes_disarm(void *ctx, uint32_t mask)
{
	disarm(ctx, SIM_VENDOR_ANDES, mask);
}

static uint32_t andes_flags(void *ctx)
{
	struct sim_hart *s = ctx;

	if (s->vendor != SIM_VENDOR_ANDES)
		s->illegal++;
	return s->v_of;
}

static void andes_filter(void *ctx, unsigned int idx, unsigned long inh)
{
	struct sim_hart *s = ctx;
	static const unsigned long bit[3] = {
		SBI_PMU_CFG_FLAG_SET_UINH, SBI_PMU_CFG_FLAG_SET_SINH,
		SBI_PMU_CFG_FLAG_SET_MINH,
	};

	log_op(s, 'F', idx, inh);
	if (!vendor_ok(s, SIM_VENDOR_ANDES, 1U << idx) || idx < 3 ||
	    (inh & ~(bit[0] | bit[1] | bit[2]))) {
		s->illegal++;
		return;
	}
	for (unsigned int m = 0; m < 3; m++) {
		if (inh & bit[m])
			s->v_mask[m] |= 1U << idx;
		else
			s->v_mask[m] &= ~(1U << idx);
	}
}

const struct pmu_overflow_ops sim_thead_overflow = {
	.arm = thead_arm,
	.disarm = thead_disarm,
	.flags = thead_flags,
};

const struct pmu_overflow_ops sim_andes_overflow = {
	.arm = andes_arm,
	.disarm = andes_disarm,
	.flags = andes_flags,
	.filter = andes_filter,
};
