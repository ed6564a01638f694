// SPDX-License-Identifier: BSD-2-Clause
/*
 * mmode-plugin: a QEMU TCG plugin that counts the instructions executed in
 * the firmware's address range [lo, hi): on QEMU virt the firmware (Tally
 * or OpenSBI) runs from 0x80000000 and the kernel from 0x80200000, PMP
 * closes the firmware region to S/U-mode, and M-mode runs with physical
 * addresses, so these are exactly the M-mode instructions after the reset
 * ROM.  QEMU's generated code adds one to the counter per such instruction
 * (an inline operation, no callback): exact, and cheap.
 *
 * Markers: a guest program executing the HINT instructions
 *	slti x0, x0, 0x7a1	(0x7a102013, begin)
 *	slti x0, x0, 0x7a2	(0x7a202013, end)
 * (no-ops on every hart; tests/linux/workload.c with WORK_MARK=1) makes the
 * plugin write "MARK B|E <count>" to the out= file, so the M-mode
 * instructions of a window are the difference of two lines.
 *
 * The counter is one shared variable: run QEMU with
 * -accel tcg,thread=single (all harts on one host thread, round-robin),
 * else MTTCG's concurrent inline adds lose counts.
 *
 * Usage: -plugin mmode-plugin.so,lo=0x80000000,hi=0x80200000,out=FILE
 *
 * Debian's QEMU 7.2 ships no qemu-plugin.h: the few functions of the
 * documented plugin API (version 1) used here are declared below, as
 * tools/tally-trace-plugin.c does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the QEMU plugin API (qemu-plugin.h, API version 1), as documented ---- */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv);
QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;
/* ---- end of the API declarations ---- */

#define MARK_BEGIN	0x7a102013u	/* slti x0, x0, 0x7a1 */
#define MARK_END	0x7a202013u	/* slti x0, x0, 0x7a2 */

static uint64_t lo, hi;
static uint64_t mmode_insns;	/* added to by QEMU's generated code */
static FILE *out;

static void mark(unsigned int vcpu, void *which)
{
	(void)vcpu;
	fprintf(out, "MARK %c %llu\n", which == (void *)1 ? 'B' : 'E',
		(unsigned long long)mmode_insns);
	fflush(out);
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		uint32_t word = 0;

		if (pc >= lo && pc < hi) {
			qemu_plugin_register_vcpu_insn_exec_inline(
				insn, QEMU_PLUGIN_INLINE_ADD_U64, &mmode_insns, 1);
			continue;
		}
		if (qemu_plugin_insn_size(insn) != 4)
			continue;
		memcpy(&word, qemu_plugin_insn_data(insn), 4);
		if (word == MARK_BEGIN || word == MARK_END)
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, mark, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)(word == MARK_BEGIN ? 1 : 2));
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	(void)id, (void)p;
	fprintf(out, "TOTAL %llu\n", (unsigned long long)mmode_insns);
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;

	(void)info;
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "lo=", 3))
			lo = strtoull(argv[i] + 3, NULL, 0);
		else if (!strncmp(argv[i], "hi=", 3))
			hi = strtoull(argv[i] + 3, NULL, 0);
		else if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	}
	if (!path || lo >= hi) {
		fprintf(stderr, "mmode-plugin: usage: lo=ADDR,hi=ADDR,out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
