/* Per-hart state shared between harts, and the boot hart's control of
 * the secondaries (smp.c). Only the boot hart prints check results;
 * secondaries report through these fields. */
#ifndef SBI_TEST_HART_H
#define SBI_TEST_HART_H

#define MAX_HARTS	32	/* hart ids the payload has stacks for */
#define STACK_SHIFT	14	/* 16 KiB per hart */

#ifndef __ASSEMBLER__

#include <stdbool.h>
#include "csr.h"
#include "sbi.h"

/* hart.ipi_mail[src] */
#define IPI_NONE	0
#define IPI_SENT	1	/* src wrote this before its send_ipi */
#define IPI_SEEN	2	/* this hart's trap handler took the IPI */

enum hart_cmd {
	CMD_NONE,
	CMD_STOP,		/* hart_stop() */
	CMD_SEND_IPI,		/* arg0 = target hart */
	CMD_SUSPEND,		/* arg0 type, arg1 resume addr, arg2 opaque,
				 * arg3 timer ticks to wake it */
	CMD_ECALL,		/* arg0 = struct hart_ecall *: any SBI call */
	CMD_CALL,		/* arg0 = hart_fn, run with arg1..arg3 on the hart */
};

/* CMD_CALL: a test function run on a secondary for the boot hart. */
typedef struct sbiret (*hart_fn)(unsigned long a, unsigned long b, unsigned long c);

/* CMD_ECALL: the call a secondary makes for the boot hart. */
struct hart_ecall {
	unsigned long eid, fid, a[6];
};

struct hart {
	/* Written by this hart's trap handler. */
	volatile unsigned long timer_irqs, soft_irqs;
	volatile unsigned long irq_cause, irq_time;
	/* Local counter-overflow interrupts (Sscofpmf, irq 13) taken, and
	 * scountovf as the handler found it (it clears sip.LCOFIP only). */
	volatile unsigned long lcofi_irqs, lcofi_scountovf;
	/* A fault a test provokes on purpose: see try_load(). */
	volatile bool trap_armed;
	volatile unsigned long trap_cause, trap_tval, trap_epc;

	/* Mailbox: the boot hart fills cmd and args, then bumps cmd_seq;
	 * the hart answers in ret_* and sets done_seq = cmd_seq. */
	volatile unsigned long cmd, arg[4], cmd_seq, done_seq;
	/* 1 while the hart waits for a command in WFI: hart_post swaps it to
	 * 0 and, if it was 1, wakes the hart with an IPI (smp.c) */
	unsigned long sleeping;
	volatile long ret_error;
	volatile unsigned long ret_value, ret_ticks;

	/* What the hart saw at its last entry (hart_start or a resume
	 * from non-retentive suspend); entries counts them. */
	volatile unsigned long entries;
	volatile unsigned long entry_a0, entry_a1, entry_satp, entry_sstatus;
	volatile unsigned long entry_mhartid_trap;

	volatile int ipi_mail[MAX_HARTS];
	volatile bool faulted;	/* took an unexpected exception */

	/* Boot-hart bookkeeping. */
	bool running;		/* started and reported in */
	bool lost;		/* unusable after a failed check */
};

extern struct hart harts[MAX_HARTS];
extern unsigned long boot_hartid;
/* Usable secondary hart ids (from /cpus, below MAX_HARTS). */
extern unsigned long secondaries[MAX_HARTS];
extern unsigned int nr_secondaries;

/* In start.S. */
extern char secondary_entry[], trap_vector[], park_vector[];
void __attribute__((noreturn)) park(void);

static inline unsigned long this_hartid(void)
{
	unsigned long tp;

	__asm__ __volatile__("mv %0, tp" : "=r"(tp));
	return tp;
}

static inline struct hart *this_hart(void)
{
	return &harts[this_hartid()];
}

void smp_init(void);
/* Mask of the harts running the payload now, boot hart included. */
unsigned long running_mask(void);

/* Boot hart side. Each waits at most ms milliseconds. */
struct sbiret hart_do(unsigned long hartid, unsigned long cmd,
		      unsigned long a0, unsigned long a1, unsigned long a2,
		      unsigned long a3, unsigned long ms);
void hart_post(unsigned long hartid, unsigned long cmd, unsigned long a0,
	       unsigned long a1, unsigned long a2, unsigned long a3);
struct sbiret hart_result(unsigned long hartid, unsigned long ms);
/* true: idle secondaries spin instead of sleeping in WFI, so that no
 * hart_post sends a wake-up IPI: for checks that count IPIs exactly. */
void spin_secondaries(bool on);
/*
 * Waits on another hart are stretched: QEMU runs each hart as a host thread
 * and, with -smp 4 on a loaded 2-core CI machine, a hart can be descheduled
 * for longer than any tidy timeout.  Success returns at once, so only a
 * real failure pays for the margin.
 */
#define CROSS_HART_SLACK	20

/* Waits until hart_get_status(hartid) is want; returns the last answer. */
struct sbiret wait_status(unsigned long hartid, unsigned long want,
			  unsigned long ms);
/* Waits for the hart's entries counter to pass old. */
bool wait_entry(unsigned long hartid, unsigned long old, unsigned long ms);
unsigned long next_opaque(unsigned long hartid);
/* hart_start at secondary_entry, then waits for the hart to report. */
struct sbiret start_secondary(unsigned long hartid, unsigned long opaque,
			      bool *entered);
/* Starts every secondary hart; returns how many arrived. */
unsigned int start_all_secondaries(void);

/* Trap side, also used by the IPI test. */
void ipi_collect(struct hart *h);
/* Marks this hart as the sender in target's ipi_mail, then send_ipi. */
struct sbiret send_ipi_to(unsigned long target);

#endif /* __ASSEMBLER__ */
#endif
