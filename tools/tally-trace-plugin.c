// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace-plugin: a QEMU TCG plugin, the fast trace source of
 * `tally-trace record --plugin`.  It reports every executed guest
 * instruction, in execution order, to tally-trace through a FIFO; tally-trace
 * turns them into ingress-port records and N-Trace messages.
 *
 * Debian's QEMU 7.2 loads plugins but ships no qemu-plugin.h, so the few
 * functions and types of the documented plugin API (version 1, QEMU 7.2)
 * used here are declared below; QEMU resolves them when it loads the plugin.
 *
 * Stream (little-endian 32-bit words, written in 64 KiB blocks):
 *   ID                      instruction ID executed (ID < 0xfffffff0)
 *   0xffffffff ID LO HI W   ID is the instruction at address HI:LO whose
 *                           word (low 16 bits if compressed) is W; sent when
 *                           QEMU translates it, before its first execution
 *   0xfffffffe V            the following instructions ran on vCPU V
 * QEMU calls an instruction's callback before the instruction executes: an
 * instruction that raises an exception is reported too (as -d exec reports
 * it).  An instruction re-executed after an -icount I/O restart is reported
 * once (QEMU instruments only its memory accesses then).
 *
 * With count=ADDR instead of out=FIFO the plugin traces nothing: QEMU's
 * generated code adds one to a counter per executed instruction (an inline
 * operation, no callback), and at the first execution of ADDR the plugin
 * prints how many instructions ran before it and ends QEMU: the independent
 * instruction count the trace suite compares with a recorded trace.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the QEMU plugin API (qemu-plugin.h, API version 1), as documented ---- */
typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

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

#define MARK_INSN	0xffffffffu
#define MARK_VCPU	0xfffffffeu
#define ID_LIMIT	0xfffffff0u
#define BUF_WORDS	16384

static int out_fd = -1;
static uint32_t buf[BUF_WORDS];
static unsigned nbuf;
static uint32_t next_id;
static unsigned cur_vcpu;
static bool count_mode;
static uint64_t count_stop, counted;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* vCPU threads share buf (MTTCG) */

static void lock_buf(void)
{
	pthread_mutex_lock(&lock);
}

static void unlock_buf(void)
{
	pthread_mutex_unlock(&lock);
}

static void flush(void)
{
	const char *p = (const char *)buf;
	size_t left = nbuf * sizeof(buf[0]);

	while (left && out_fd >= 0) {
		ssize_t n = write(out_fd, p, left);

		if (n <= 0) {		/* the reader stopped: nothing more to say */
			close(out_fd);
			out_fd = -1;
			break;
		}
		p += n;
		left -= (size_t)n;
	}
	nbuf = 0;
}

/* Room for n words (called with the lock held). */
static void reserve(unsigned n)
{
	if (nbuf + n > BUF_WORDS)
		flush();
}

static void insn_exec(unsigned int vcpu, void *userdata)
{
	lock_buf();
	reserve(3);
	if (vcpu != cur_vcpu) {
		buf[nbuf++] = MARK_VCPU;
		buf[nbuf++] = vcpu;
		cur_vcpu = vcpu;
	}
	buf[nbuf++] = (uint32_t)(uintptr_t)userdata;
	unlock_buf();
}

static void count_reached(unsigned int vcpu, void *userdata)
{
	(void)userdata;
	fprintf(stderr, "tally-trace-plugin: %llu instructions before 0x%llx (vCPU %u)\n",
		(unsigned long long)counted, (unsigned long long)count_stop, vcpu);
	fflush(stderr);
	_exit(0);
}

static void tb_count(struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		/* the callback first: it runs before this instruction's count */
		if (qemu_plugin_insn_vaddr(insn) == count_stop)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, count_reached,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &counted, 1);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (count_mode) {
		tb_count(tb);
		return;
	}
	lock_buf();
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *d = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		uint32_t w = 0;

		for (size_t b = 0; b < size && b < 4; b++)
			w |= (uint32_t)d[b] << (8 * b);
		if (next_id >= ID_LIMIT) {
			fprintf(stderr, "tally-trace-plugin: too many translations\n");
			exit(1);
		}
		reserve(5);
		buf[nbuf++] = MARK_INSN;
		buf[nbuf++] = next_id;
		buf[nbuf++] = (uint32_t)va;
		buf[nbuf++] = (uint32_t)(va >> 32);
		buf[nbuf++] = w;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)next_id);
		next_id++;
	}
	unlock_buf();
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	lock_buf();
	flush();
	if (out_fd >= 0)
		close(out_fd);
	out_fd = -1;
	unlock_buf();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;

	if (info->version.cur < 1 || info->version.min > 1) {
		fprintf(stderr, "tally-trace-plugin: QEMU plugin API %d..%d, need 1\n",
			info->version.min, info->version.cur);
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		if (!strncmp(argv[i], "count=", 6)) {
			count_mode = true;
			count_stop = strtoull(argv[i] + 6, NULL, 16);
		}
	}
	if (count_mode) {
		qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
		return 0;
	}
	if (!path) {
		fprintf(stderr, "tally-trace-plugin: usage: -plugin tally-trace-plugin.so,out=FIFO|count=ADDR\n");
		return -1;
	}
	out_fd = open(path, O_WRONLY);
	if (out_fd < 0) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
