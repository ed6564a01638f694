/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Per-hart scratch area.  mscratch always points at the running hart's
 * scratch while in M-mode, so the trap entry finds its stack there and C code
 * finds its hart with one CSR read.  The first fields are used by assembly.
 */
#ifndef TALLY_HART_H
#define TALLY_HART_H

#include <tally/riscv.h>

#define SCRATCH_TMP0		(0 * REGBYTES)
#define SCRATCH_SMODE_FRAME	(1 * REGBYTES)
#define SCRATCH_GUARD		(2 * REGBYTES)
#define SCRATCH_GUARD_TRAPPED	(3 * REGBYTES)
#define SCRATCH_GUARD_CAUSE	(4 * REGBYTES)

#include <tally/hartmask.h>	/* TALLY_MAX_HARTS */

#define TALLY_STACK_SIZE	8192
/*
 * The scratch's size is a multiple of this: hart_scratch[i] is then a
 * shift (4096 bytes on RV64), where an odd size (3216) costs a multiply on
 * every IPI path.  The padding is bss: 1 KiB or less per hart.
 */
#define HART_SCRATCH_ALIGN	1024
/* the stack of the one hart that reads the hart map at boot (_start) */
#define HART_BOOT_STACK_SIZE	4096

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>
#include <tally/sbi_fwft.h>
#include <tally/pmu.h>
#include <tally/sbi_dbtr.h>
#include <tally/spinlock.h>
#include <tally/sbi_sse.h>

/* A remote fence request, filled by the sender under the target's lock. */
struct rfence_request {
	unsigned long type;		/* SBI_EXT_RFENCE_* function ID */
	unsigned long start;
	unsigned long size;
	unsigned long asid;		/* ASID, or VMID for hfence.gvma_vmid */
	unsigned long vmid;	/* hfence.vvma: the sender's hgatp.VMID */
};

struct hart_scratch {
	/* used by firmware/fw_base.S at the SCRATCH_* offsets (checked below) */
	unsigned long tmp0;
	unsigned long smode_frame;		/* trap frame of traps from S/U: stack top - TF_SIZE */
	volatile unsigned long guard;		/* an M-mode trap is expected */
	volatile unsigned long guard_trapped;	/* ... and it happened */
	volatile unsigned long guard_cause;

	unsigned long hartid;			/* what S-mode and the devicetree call it */
	unsigned long index;			/* its hart index: where its state lives */
	bool present;				/* listed in the devicetree */

	/*
	 * The per-hart state of the SBI extensions: one struct of the
	 * extension's own, declared in its header, one field here, reached by
	 * this_hart() (one CSR read; no index arithmetic on the hot paths).
	 */
	/* FWFT: each feature's value and lock (lib/sbi/sbi_fwft.c); 7 bytes */
	struct fwft_hart fwft;

	/* HSM */
	unsigned long hsm_state;		/* SBI_HSM_STATE_*, atomic */
	struct spinlock hsm_lock;		/* serialises hart_start callers */
	unsigned long start_addr;
	unsigned long start_arg;

	/* IPI: pending request bits (IPI_*), atomic */
	unsigned long ipi_pending;
	struct spinlock rfence_lock;		/* held by the one sender */
	struct rfence_request rfence;
	volatile unsigned long rfence_done;

	/* the SBI PMU state of this hart (lib/pmu) */
	struct pmu_hart pmu;

	/* the debug triggers S-mode installed (lib/sbi/sbi_dbtr.c) */
	struct dbtr_hart dbtr;
	/* SSE: this hart's local events, mask and pending hint (lib/sbi/sbi_sse.c) */
	struct sse_hart sse;
} __attribute__((aligned(HART_SCRATCH_ALIGN)));

/* The assembly's view of struct hart_scratch, checked by the compiler. */
_Static_assert(offsetof(struct hart_scratch, tmp0) == SCRATCH_TMP0, "SCRATCH_TMP0");
_Static_assert(offsetof(struct hart_scratch, smode_frame) == SCRATCH_SMODE_FRAME,
	       "SCRATCH_SMODE_FRAME");
_Static_assert(offsetof(struct hart_scratch, guard) == SCRATCH_GUARD, "SCRATCH_GUARD");
_Static_assert(offsetof(struct hart_scratch, guard_trapped) == SCRATCH_GUARD_TRAPPED,
	       "SCRATCH_GUARD_TRAPPED");
_Static_assert(offsetof(struct hart_scratch, guard_cause) == SCRATCH_GUARD_CAUSE,
	       "SCRATCH_GUARD_CAUSE");

/* Indexed by hart index (include/tally/hartmask.h), as the stacks are. */
extern struct hart_scratch hart_scratch[TALLY_MAX_HARTS];
extern volatile unsigned long hart_map_ready;	/* fw_base.S */
/*
 * _start, on the first hart to arrive, on a stack of its own: fills
 * hart_map from the next stage's devicetree, then sets hart_map_ready.
 */
void hart_map_boot(unsigned long a0, unsigned long a1, unsigned long a2);
/*
 * _start: the hart the flavour names to boot (fw_boot_hart), or -1 for the
 * first to arrive; -1 too when the named hart is not in hart_map.
 */
long hart_boot_choice(unsigned long a0, unsigned long a1, unsigned long a2);

/*
 * Top of the stack block of hart index i (hart_setup.c): the only
 * definition, used by _start for the boot/HSM-wait stack and by cold_boot()
 * for the frame of traps from S-mode.
 */
unsigned long hart_stack_top(unsigned long index);
/* The scratch of hart index i, for _start before .bss is cleared: arithmetic only. */
struct hart_scratch *hart_scratch_of(unsigned long index);
/* Cold boot: every scratch learns its hart and its trap frame. */
void hart_scratch_init(void);

static inline struct hart_scratch *this_hart(void)
{
	return (struct hart_scratch *)csr_read(mscratch);
}

static inline unsigned long this_hartid(void)
{
	return this_hart()->hartid;
}

static inline unsigned long this_hart_index(void)
{
	return this_hart()->index;
}

/* The hart S-mode names by hart id, or NULL: any 64-bit id is safe. */
static inline struct hart_scratch *hart_by_id(unsigned long hartid)
{
	unsigned long index = hart_map_index(&hart_map, hartid);

	if (index == HART_INDEX_NONE || !hart_scratch[index].present)
		return 0;
	return &hart_scratch[index];
}

#if __riscv_xlen == 32
extern unsigned long hart_has_mstatush;	/* fw_base.S: mstatush did not trap */
#endif

/*
 * Smdbltrp: a trap into M-mode sets mstatus.MDT, and a trap taken while it
 * is set is a double trap (an RNMI, or the hart stops).  M-mode clears it
 * before code that may trap on purpose and after each trap it handles.
 * Without Smdbltrp the bit reads 0 and the clear changes nothing.
 */
static inline void hart_mdt_clear(void)
{
#if __riscv_xlen == 32
	if (hart_has_mstatush)
		csr_clear(CSR_MSTATUSH, (unsigned long)(MSTATUS64_MDT >> 32));
#else
	csr_clear(mstatus, MSTATUS64_MDT);
#endif
}

/* The start of an access that may trap on purpose (guard_trapped says if it did). */
static inline void hart_guard_begin(struct hart_scratch *s)
{
	hart_mdt_clear();
	s->guard_trapped = 0;
	s->guard = 1;
}

/*
 * Guarded CSR access: probes of CSRs that may not exist.  An illegal
 * instruction trap taken while guard is set skips the instruction and
 * records the cause instead of killing the machine.
 */
#define csr_read_guarded(csr, okp) ({					\
	struct hart_scratch *__s = this_hart();				\
	unsigned long __v = 0;						\
	hart_guard_begin(__s);						\
	__asm__ __volatile__("csrr %0, " CSR_STR(csr)			\
			     : "+r"(__v) :: "memory");			\
	__s->guard = 0;							\
	*(okp) = !__s->guard_trapped;					\
	__v; })

#define csr_write_guarded(csr, val) ({					\
	struct hart_scratch *__s = this_hart();				\
	unsigned long __v = (unsigned long)(val);			\
	hart_guard_begin(__s);						\
	__asm__ __volatile__("csrw " CSR_STR(csr) ", %0"		\
			     :: "r"(__v) : "memory");			\
	__s->guard = 0;							\
	!__s->guard_trapped; })

#endif /* __ASSEMBLER__ */
#endif
