/* The test harness: reporting, bounded waits, provoked traps. */
#ifndef SBI_TEST_TEST_H
#define SBI_TEST_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include "console.h"
#include "csr.h"
#include "fdt.h"
#include "sbi.h"

/* The firmware region the tests poke at (QEMU virt loads -bios here). */
#define FW_BASE		0x80000000UL

/* Outcomes of work done on another hart that are not SBI errors; they
 * sit far from every SBI error code and print as words, not numbers. */
#define ERR_NO_ANSWER	(-1000L)	/* the hart did not answer in time */
#define ERR_REENTERED	(-1001L)	/* came back at its entry point
					 * instead of returning */

extern struct fdt_info machine;

/* Every check prints one line: PASS/FAIL (or SKIP while a skip reason
 * is set) "<ext>: <what>", and FAIL adds "(<detail>)". */
bool check(bool ok, const char *ext, const char *what, const char *detail);
/* r.error must be want. */
bool expect_err(struct sbiret r, long want, const char *ext, const char *what);
/* r.error must be want1 or want2. */
bool expect_err2(struct sbiret r, long want1, long want2, const char *ext,
		 const char *what);
/* r.error must be 0 and r.value must be want. */
bool expect_val(struct sbiret r, unsigned long want, const char *ext,
		const char *what);
/* A FAIL line formatted into a local buffer: safe on any hart. */
void failf(const char *ext, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void skip(const char *ext, const char *what, const char *why);
/* While set, every check runs but reports SKIP with this reason. */
void skip_begin(const char *why);
void skip_end(void);
void info(const char *ext, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "error=%ld value=%lx", or what a pseudo error means. */
const char *ret_str(struct sbiret r);
/* printf into one of a few rotating static buffers (boot hart only):
 * for building the "what" and "detail" of a check. A result lives for
 * one check call only: keep anything longer in a local buffer. */
const char *sfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where the text after a bootargs word starts, or NULL: "srst=" finds
 * "srst=cold" and returns "cold"; "pmu" matches the word "pmu" only. */
const char *boot_arg(const char *args, const char *word);

/* Prints the summary and shuts the machine down; never returns. */
void __attribute__((noreturn)) finish(void);

unsigned long ms_to_ticks(unsigned long ms);

/* Spins until cond holds or ms milliseconds of rdtime pass; also gives
 * up after a number of spins, in case time itself does not advance.
 * Evaluates to whether cond held. */
#define WAIT_SPINS_PER_MS 100000UL
#define WAIT_UNTIL(cond, ms) ({						\
	unsigned long __end = rdtime() + ms_to_ticks(ms);		\
	unsigned long __spins = (ms) * WAIT_SPINS_PER_MS + 1000;	\
	bool __ok;							\
	while (!(__ok = (cond)) && rdtime() < __end && --__spins)	\
		;							\
	__ok; })

/* Runs a load from addr with the trap handler told to expect a fault.
 * Returns the scause of the fault, or 0 if the load did not trap. */
unsigned long try_load(unsigned long addr, unsigned long *val);
/* Returns the scause of reading mhartid: EXC_ILLEGAL_INSN in S-mode. */
unsigned long try_read_mhartid(void);

/* The test groups, one file each, run in this order by main.c. */
void test_boot(unsigned long hartid, int fdt_err);
void test_base(void);
void test_legacy(void);
void test_time(void);
void test_protect(void);
void test_dbcn(void);
void test_ipi_self(void);
void test_hsm_before_start(void);
void test_hsm_start_all(void);
void test_ipi_all(void);
void test_rfence(void);
void test_hsm_suspend(void);
void test_hsm_stop_start(void);
void test_hsm_start_while_stopping(void);
void test_hsm_fences_across_restart(void);
void test_srst_invalid(void);
void test_hyp(void);
void test_dbtr(void);
/* The FWFT and SUSP run (bootargs "fwft-susp"), in this order. */
void test_fwft(void);
void test_susp(void);
/* The PMU's firmware counters (bit i = counter i), from counter_get_info. */
unsigned long pmu_fw_counter_mask(void);
/* The hostile run (bootargs "hostile"): stacks, isolation, storm. */
void test_hostile(void);
/* The PMU run (bootargs "pmu"): every PMU check (test_pmu*.c). */
void test_pmu(void);
void __attribute__((noreturn)) srst_mode(const char *arg);
/* SSE (test_sse.c): the full run (bootargs "sse") and the main run's part. */
void test_sse(void);
void test_sse_basic(void);
void test_probe(void);
/* The devicetree's extensions that need M-mode's set-up, tried from S-mode (test_isa.c). */
void test_isa(void);
/* AIA (test_aia.c): only on a tree with APLIC/IMSIC nodes. */
void test_aia(unsigned long hartid);

/* Shared by the TIME and legacy tests. */
void check_timer_irq(const char *ext, struct sbiret (*arm)(uint64_t));
void check_timer_clear(const char *ext, struct sbiret (*arm)(uint64_t));

#endif
