/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A simulated hart PMU behind struct pmu_hart_ops: 32 counters that
 * advance when not inhibited, mhpmevent selectors with OF and mode-inhibit
 * bits (Sscofpmf), mcyclecfg/minstretcfg (Smcntrpmf), mcountinhibit, a
 * width for the programmable counters, and S-mode memory with a forbidden
 * firmware range for the shared-memory hooks.  Every access the library
 * must never make (a counter the hart lacks, counter 1, mNcfg without
 * Smcntrpmf, bits 63:58 without Sscofpmf, memory outside S-mode RAM) is
 * counted in 'illegal'.
 */
#ifndef TALLY_PMU_TEST_SIM_H
#define TALLY_PMU_TEST_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tally/pmu.h>

enum sim_mode { SIM_U, SIM_S, SIM_M, SIM_VU, SIM_VS };

#define SIM_LOG_MAX	4096
#define SIM_RAM_BASE	0x80000000ULL
#define SIM_RAM_SIZE	0x40000ULL	/* 256 KiB */
#define SIM_FW_BASE	0x80000000ULL	/* firmware: S-mode may not use it */
#define SIM_FW_SIZE	0x10000ULL
#define SIM_SMEM	(SIM_FW_BASE + SIM_FW_SIZE)	/* first S-mode page */

struct sim_op {
	char op;		/* 'E' event write, 'C' counter write,
				   'I' inhibit set, 'U' inhibit clear,
				   'R' mem read, 'W' mem write,
				   'A' vendor arm, 'D' vendor disarm,
				   'F' vendor filter (idx, inh) */
	unsigned int idx;
	uint64_t value;		/* value, mask, or address */
};

/*
 * Vendor overflow back ends (no Sscofpmf), as the vendors' manuals and
 * OpenSBI describe them:
 *   T-Head C9xx: mcounterinten (0x7ca) enables counter i's overflow
 *     interrupt, mcounterof (0x7cb) holds its overflow flag, S-mode reads
 *     it as scounterof (0x5c5) only where mcounterwen (0x7c9) is set; an
 *     overflow of an enabled counter makes IRQ 17 pending (mip bit 17).
 *   Andes: mcounterinten (0x7cf), mcounterovf (0x7d4), IRQ 18 (a "slide"
 *     local interrupt, mslideleg bit 18), and mcountermask_m/s/u
 *     (0x7d1..0x7d3): a set bit keeps counter i from counting in that mode.
 * The pending bit stays until S-mode clears it (sim_vendor_ack).
 */
enum sim_vendor { SIM_VENDOR_NONE, SIM_VENDOR_THEAD, SIM_VENDOR_ANDES };

struct sim_hart {
	enum sim_vendor vendor;
	uint32_t v_inten;		/* mcounterinten */
	uint32_t v_of;			/* mcounterof / mcounterovf */
	uint32_t v_wen;			/* T-Head mcounterwen */
	uint32_t v_mask[3];		/* Andes mcountermask_u, _s, _m */
	bool v_pending;			/* mip bit 17 (T-Head) / 18 (Andes) */
	unsigned long v_irqs;		/* vendor overflow interrupts raised */
	unsigned long v_clear_while_pending;	/* flags cleared while pending */

	uint32_t exists;		/* bit i: counter i (1 = time) */
	uint32_t hardwired_zero;	/* bit i: counter i exists, reads 0, ignores writes */
	unsigned int hpm_bits;
	bool sscofpmf;
	bool smcntrpmf;
	bool qemu_filter_bug;	/* filters ignored for selectors 1 and 2 */
	/*
	 * QEMU 7.2's overflow of counters with selector 1 or 2 (cycles,
	 * instret): a host timer that every counter write arms, inhibited
	 * or not; when it expires, an inhibited counter loses the overflow
	 * (no OF, no LCOFI, not armed again).  A value below 2^63 has its
	 * deadline in the past: it expires at once.  The deadlines pass when
	 * the test says (sim_timer_expire), or right after the CSR access
	 * number expire_after_op (a vCPU held up there by the host).
	 */
	bool qemu_overflow_timer;
	uint32_t timer_armed;		/* counters with a pending deadline */
	/*
	 * With qemu_overflow_timer, QEMU's irq_overflow_left (7.2 to 11.1):
	 * a value more than 2^62 from overflow leaves a leftover on the
	 * counter (its own deadline never comes), and the counter's next
	 * expiry is swallowed: no OF, no LCOFI, the leftover gone.  The
	 * last value (all ones, overflow 1 ns away) expires at once.
	 */
	bool qemu_leftover;
	uint32_t leftover;		/* counters with a leftover */
	/*
	 * With qemu_overflow_timer, QEMU 9 and later (target/riscv/pmu.c,
	 * pmu_timer_trigger_irq): at expiry the counter's value as its mode
	 * filter counted it is compared with the value written; not wrapped
	 * (a counter inhibited in M-mode, MINH, whose deadline passes during
	 * an M-mode write) re-arms the timer and raises nothing.  And
	 * qemu_timer_lost: no expiry ever raises OF (the event's timer
	 * belongs to another counter: QEMU maps an event to the first
	 * counter configured with it).
	 */
	bool qemu_mode_filter;
	bool qemu_timer_lost;
	bool lcofip;			/* mip.LCOFIP: raised with OF, written by lcofi_write */
	unsigned long lcofi_writes;
	unsigned int nops;		/* CSR writes so far (E, C, I, U) */
	unsigned int expire_after_op;	/* 0: never */
	uint64_t ctr[32];
	uint64_t evt[32];	/* mhpmevent; mcyclecfg/minstretcfg at 0/2 */
	uint32_t inhibit;
	unsigned long lcofi;	/* overflow interrupts raised */
	unsigned long illegal;	/* accesses the library must never make */
	unsigned long priv_without_sscofpmf;
	struct sim_op log[SIM_LOG_MAX];
	unsigned int nlog;
	uint8_t *ram;		/* SIM_RAM_SIZE bytes at SIM_RAM_BASE */
	unsigned long mem_maps;	/* shmem_map calls */
	bool fail_map;		/* shmem_map refuses every range */
};

extern const struct pmu_hart_ops sim_ops;		/* with shmem */
/* The embedder's vendor back ends over the simulated CSRs (ctx: the sim). */
extern const struct pmu_overflow_ops sim_thead_overflow;
extern const struct pmu_overflow_ops sim_andes_overflow;
/* Make the hart a vendor's: its CSRs in a reset state the library must not trust. */
void sim_set_vendor(struct sim_hart *s, enum sim_vendor v);
/* S-mode's overflow handler clears the pending bit (Linux: csrc sip / slip). */
void sim_vendor_ack(struct sim_hart *s);
/* What S-mode reads as scounterof (T-Head 0x5c5, Andes 0x9d4). */
uint32_t sim_vendor_scounterof(const struct sim_hart *s);
extern const struct pmu_hart_ops sim_ops_noshmem;	/* without */

void sim_init(struct sim_hart *s, uint32_t exists, unsigned int hpm_bits,
	      bool sscofpmf, bool smcntrpmf);
void sim_free(struct sim_hart *s);
void sim_tick(struct sim_hart *s, enum sim_mode mode, uint64_t n);
/* QEMU 7.2: the armed overflow deadlines pass now (qemu_overflow_timer). */
void sim_timer_expire(struct sim_hart *s);
void sim_log_clear(struct sim_hart *s);
/* Index of the first log entry >= from with this op and idx, or -1. */
int sim_log_find(const struct sim_hart *s, int from, char op, unsigned int idx);
int sim_log_count(const struct sim_hart *s, char op);
/* Lose every CSR, as a non-retentive suspend does. */
void sim_power_loss(struct sim_hart *s);
uint64_t sim_mem_get64(const struct sim_hart *s, uint64_t addr);
uint32_t sim_mem_get32(const struct sim_hart *s, uint64_t addr);
void sim_mem_put64(struct sim_hart *s, uint64_t addr, uint64_t v);
void sim_mem_put32(struct sim_hart *s, uint64_t addr, uint32_t v);
void sim_mem_fill(struct sim_hart *s, uint8_t byte);

#endif
