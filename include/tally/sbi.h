/* SPDX-License-Identifier: BSD-2-Clause */
/* The SBI core: return type, the extension interface and the dispatcher. */
#ifndef TALLY_SBI_H
#define TALLY_SBI_H

#include <stdbool.h>
#include <stdint.h>
#include <tally/sbi_spec.h>
#include <tally/sbiret.h>

#define TALLY_VERSION_MAJOR	0
#define TALLY_VERSION_MINOR	1
#define TALLY_VERSION_STRING	"0.1.0"

/*
 * The binary encoding (SBI spec, "Binary Encoding"): a parameter the spec
 * types as 32 bits wide (uint32_t) uses only its low 32 bits on RV64; the
 * upper half of the register is ignored, whatever it holds.  Every such
 * parameter is read through this (docs/sbi.md lists them).
 */
static inline unsigned long sbi_arg_u32(unsigned long arg)
{
	return arg & 0xffffffffUL;
}

/*
 * A 64-bit parameter starting at args[i] (binary encoding, "register
 * pairs"): the one register on RV64; on RV32 args[i] holds the lower and
 * args[i + 1] the upper 32 bits.
 */
static inline uint64_t sbi_arg_u64(const unsigned long *args, unsigned int i)
{
#if __riscv_xlen == 32
	return (uint64_t)args[i + 1] << 32 | args[i];
#else
	return args[i];
#endif
}

struct trap_frame;

/*
 * An SBI extension: the EID range it answers, its short name for the boot
 * banner, an optional probe (absent = always available; asked once, at
 * boot, by sbi_ecall_init()) and the handler.
 * The handler gets the function ID and a0..a5; it may look at (or, for the
 * few calls that never return normally, ignore) the trap frame.
 *
 * The per-hart hooks, each optional, run on the hart concerned for every
 * registered extension (available or not: a hook checks what it needs), in
 * the order of sbi_ext_list.h (by EID):
 *   hart_init     every start of the hart (cold boot, warm boot, HSM start),
 *                 after the hart's CSRs, PMP and interrupts are set up
 *   hart_stop     HSM hart_stop, before the hart is STOPPED
 *   hart_suspend  a non-retentive suspend, before the hart waits
 *   hart_resume   its resume, before S-mode runs again
 * An extension's per-hart state is a struct of its own, one field of
 * struct hart_scratch (include/tally/hart.h), reached by this_hart().
 *
 * Each extension defines one of these, named sbi_ext_<name>, in its own
 * file and is registered by one line of include/tally/sbi_ext_list.h.
 */
struct sbi_extension {
	unsigned long eid_first;
	unsigned long eid_last;
	const char *name;
	bool (*available)(void);
	/* optional: asked by probe_extension on the calling hart (per-hart set-up) */
	bool (*hart_available)(void);
	struct sbiret (*handle)(unsigned long fid, const unsigned long *args,
				struct trap_frame *tf);
	void (*hart_init)(void);
	void (*hart_stop)(void);
	void (*hart_suspend)(void);
	void (*hart_resume)(void);
};

/* The registry: sbi_ext_list.h's extensions, sorted by eid_first (sbi_ecall.c). */
extern const struct sbi_extension *const sbi_extensions[];
extern const unsigned long sbi_extension_count;

/* The extension answering eid (available or not), or NULL. */
const struct sbi_extension *sbi_ext_find(unsigned long eid);
/* Asks each extension's available() once; cold boot, before S-mode runs. */
void sbi_ecall_init(void);
/* The slots the ecall path's lookup of eid reads (1: no collision); tests. */
unsigned int sbi_ecall_lookup_slots(unsigned long eid);
/* The per-hart hooks of every extension, in registry order (struct sbi_extension). */
enum sbi_hart_event { SBI_HART_INIT, SBI_HART_STOP, SBI_HART_SUSPEND, SBI_HART_RESUME };
void sbi_ext_hart_event(enum sbi_hart_event ev);
/* Whether the machine has eid: the answer of sbi_ecall_init() (banner). */
bool sbi_ext_available(unsigned long eid);
/* What probe_extension reports on the calling hart: available here too. */
bool sbi_ext_probe(unsigned long eid);
/*
 * An ecall from S-mode, called by the trap entry with mepc already past
 * the ecall; the result goes back in a0/a1 (legacy calls: a1 unchanged).
 */
struct sbiret sbi_ecall_handle(struct trap_frame *tf);

/* What the legacy extensions (sbi_legacy.c) share with their successors. */
struct rfence_request;
struct sbiret sbi_ipi_send_many(unsigned long mask, unsigned long base);	/* sbi_ipi.c */
struct sbiret sbi_rfence_many(unsigned long mask, unsigned long base,
			      const struct rfence_request *r);		/* sbi_rfence.c */
struct sbiret sbi_system_reset(unsigned long type, unsigned long reason);	/* sbi_srst.c */

#endif
