// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace record: runs QEMU with its execution log (-singlestep -d
 * nochain,exec,in_asm) or the TCG plugin tally-trace-plugin.so writing into a
 * FIFO, and feeds what it reads to the encoder (tally-trace-encode.c).  With
 * the plugin and an SRC field, one encoder per hart.
 */
/* fopencookie, F_SETPIPE_SZ */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tally-trace.h"

/*
 * The plugin's stream (tools/tally-trace-plugin.c): instruction IDs in
 * execution order, each ID's address and word sent when QEMU translated it.
 * An executed ID brings its own word into the code map (logged only when it
 * changes what the decoder would see), exactly as tb_executed() does for the
 * log: code_seen[ID] remembers the change count at which the ID's word was
 * last known to be in place, so the common case costs one comparison.
 */
struct plugin_insn {
	uint64_t pc;
	uint32_t word;
	uint32_t seen;		/* image_changes() when last checked + 1 */
	uint32_t seen_hart;	/* several harts: the hart whose view was checked */
	bool defined;
	struct ntrace_insn insn;
};

/*
 * Several harts (record --plugin with an SRC field): one encoder per hart,
 * SRC = the hart (vCPU) index, all writing to hart 0's stream in the order
 * their messages are made.  Each hart's decoder sees only its own code
 * words (another hart may run another process at the same address), so each
 * hart has its own view of the code and its own change log, written to
 * T.ntr.code (hart 0) and T.ntr.code.<hart>, with that hart's indexes.
 */
#define MAX_HARTS 64
struct hart_view {
	uint64_t *keys;		/* halfword address + 1 (0 = empty slot) */
	uint16_t *vals;
	size_t cap, n;
	uint32_t changes;
	struct word_log {
		uint64_t index, addr;
		uint16_t half;
	} *log;
	size_t nlog, caplog;
};
static struct feeder *harts[MAX_HARTS];
static struct hart_view views[MAX_HARTS];

static bool view_set(struct hart_view *v, uint64_t addr, uint16_t half)
{
	size_t i;

	if (2 * (v->n + 1) > v->cap) {
		struct hart_view old = *v;

		v->cap = v->cap ? v->cap * 2 : 1 << 16;
		v->keys = calloc(v->cap, sizeof(*v->keys));
		v->vals = calloc(v->cap, sizeof(*v->vals));
		if (!v->keys || !v->vals)
			exit(2);
		v->n = 0;
		for (size_t j = 0; j < old.cap; j++)
			if (old.keys[j])
				view_set(v, old.keys[j] - 1, old.vals[j]);
		free(old.keys);
		free(old.vals);
	}
	i = (size_t)((addr >> 1) * 0x9e3779b97f4a7c15ull >> 20) & (v->cap - 1);
	while (v->keys[i] && v->keys[i] != addr + 1)
		i = (i + 1) & (v->cap - 1);
	if (v->keys[i] && v->vals[i] == half)
		return false;
	if (!v->keys[i])
		v->n++;
	v->keys[i] = addr + 1;
	v->vals[i] = half;
	return true;
}

static void view_word(struct hart_view *v, uint64_t index, uint64_t pc, uint32_t word, unsigned len)
{
	for (unsigned i = 0; i + 2 <= len; i += 2) {
		uint16_t half = (uint16_t)(word >> (8 * i));

		if (!view_set(v, pc + i, half))
			continue;
		if (v->nlog == v->caplog) {
			v->caplog = v->caplog ? v->caplog * 2 : 4096;
			v->log = realloc(v->log, v->caplog * sizeof(*v->log));
			if (!v->log)
				exit(2);
		}
		v->log[v->nlog++] = (struct word_log){ index, pc + i, half };
		v->changes++;
	}
}

static struct feeder *hart_feeder(struct feeder *fd0, const struct opts *o, unsigned hart)
{
	struct ntrace_config c = trace_cfg;
	struct feeder *fd;
	char path[4096];

	if (harts[hart])
		return harts[hart];
	if (!hart) {
		fd0->enc.cfg.trTeSrcID = 0;
		return harts[0] = fd0;
	}
	fd = calloc(1, sizeof(*fd));
	if (!fd)
		exit(2);
	c.trTeSrcID = (uint16_t)hart;
	ntrace_enc_init(&fd->enc, &c, obuf_sink, &fd0->out);
	if (o->addresses) {
		snprintf(path, sizeof(path), "%s.%u", o->addresses, hart);
		fd->addresses = open_addresses(path, o);
	}
	return harts[hart] = fd;
}

/* Several harts: ends the streams of harts 1.. (hart 0's is fd's). */
static void harts_end(void)
{
	for (unsigned h = 1; h < MAX_HARTS; h++) {
		if (!harts[h])
			continue;
		feed_end(harts[h]);
		if (harts[h]->addresses)
			close_addresses(harts[h]->addresses);
		fprintf(stderr, "tally-trace: hart %u: %llu instructions, %llu messages\n", h,
			(unsigned long long)harts[h]->executed,
			(unsigned long long)harts[h]->enc.messages);
	}
}

/* Several harts: every hart's code log, T.ntr.code and T.ntr.code.<hart>. */
static int harts_write_code(const struct opts *o)
{
	char path[4096];
	int rc = 0;

	for (unsigned h = 0; h < MAX_HARTS; h++) {
		struct hart_view *v = &views[h];
		FILE *f;

		if (!harts[h])
			continue;
		if (!o->out)
			continue;
		if (h)
			snprintf(path, sizeof(path), "%s.code.%u", o->out, h);
		else
			snprintf(path, sizeof(path), "%s.code", o->out);
		f = fopen(path, "w");
		if (!f) {
			rc = 1;
			continue;
		}
		for (size_t i = 0; i < v->nlog; i++)
			fprintf(f, "%llu %llx %04x\n", (unsigned long long)v->log[i].index,
				(unsigned long long)v->log[i].addr, v->log[i].half);
		if (fclose(f))
			rc = 1;
	}
	return rc;
}

static int read_plugin(struct feeder *fd, FILE *in, const struct opts *o)
{
	static uint32_t w[1 << 16];
	static struct plugin_insn *chunks[1 << 16];
	struct plugin_insn **ids = chunks;
	size_t have = 0, pos = 0, part = 0;
	bool eof = false;
	unsigned vcpu = 0;
	bool multi = ntrace_src_bits(&trace_cfg) > 0;	/* one SRC per hart */
	struct feeder *cur = multi ? hart_feeder(fd, o, 0) : fd;
	uint64_t total = 0;

	for (;;) {
		size_t need = 1, got;
		uint32_t x;

		if (pos + 5 > have) {	/* keep at least one whole item */
			memmove(w, w + pos, (have - pos) * sizeof(w[0]) + part);
			have -= pos;
			pos = 0;
			/* read(), not fread(): take what the plugin has sent so far,
			 * even when the guest is idle and sends little */
			do {
				ssize_t r = read(fileno(in), (char *)(w + have) + part,
						 (sizeof(w) / sizeof(w[0]) - have) * sizeof(w[0]) - part);

				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0) {
					eof = true;
					break;
				}
				part += (size_t)r;
			} while (part < sizeof(w[0]));
			got = part / sizeof(w[0]);
			part -= got * sizeof(w[0]);
			have += got;
			if (!have || (eof && pos + 1 > have))
				break;
		}
		x = w[pos];
		if (x == 0xffffffffu) {
			need = 5;
		} else if (x == 0xfffffffeu) {
			need = 2;
		}
		if (pos + need > have)
			break;		/* truncated at the end: QEMU was stopped */
		if (x == 0xffffffffu) {
			uint32_t id = w[pos + 1];

			if (!ids[id >> 16]) {
				/* in chunks that never move: the feeders keep pointers */
				ids[id >> 16] = calloc(1 << 16, sizeof(struct plugin_insn));
				if (!ids[id >> 16])
					exit(2);
			}
			ids[id >> 16][id & 0xffff].pc = w[pos + 2] | (uint64_t)w[pos + 3] << 32;
			ids[id >> 16][id & 0xffff].word = w[pos + 4];
			ids[id >> 16][id & 0xffff].seen = 0;
			ids[id >> 16][id & 0xffff].defined = true;
			ntrace_isa_decode(w[pos + 4], ids[id >> 16][id & 0xffff].pc, trace_cfg.xlen,
					  &ids[id >> 16][id & 0xffff].insn);
		} else if (x == 0xfffffffeu) {
			vcpu = w[pos + 1];
			if (vcpu && !multi) {
				fprintf(stderr, "tally-trace: hart %u ran: give an SRC field (--src-bits) "
					"for a trace of several harts, or use -smp 1\n", vcpu);
				return 1;
			}
			if (vcpu >= MAX_HARTS || vcpu >= 1u << ntrace_src_bits(&trace_cfg)) {
				fprintf(stderr, "tally-trace: hart %u: too many harts for the SRC field\n", vcpu);
				return 1;
			}
			if (multi)
				cur = hart_feeder(fd, o, vcpu);
		} else {
			struct plugin_insn *in_ = ids[x >> 16] ? &ids[x >> 16][x & 0xffff] : NULL;
			uint32_t changes;

			if (!in_ || !in_->defined) {
				fprintf(stderr, "tally-trace: plugin stream: unknown instruction %u\n", x);
				return 1;
			}
			changes = (uint32_t)image_changes() + 1;
			if (in_->seen != changes) {
				image_word_index = fd->executed;
				image_add_word(in_->pc, in_->word, ntrace_isa_len((uint16_t)in_->word));
				in_->seen = (uint32_t)image_changes() + 1;
			}
			if (o->has_stop_at && in_->pc == o->stop_at) {
				fd->stopped = true;
				break;	/* the trace ends before this instruction */
			}
			if (multi) {
				struct hart_view *v = &views[vcpu];

				if (in_->seen_hart != vcpu || in_->seen != v->changes + 1) {
					view_word(v, cur->executed, in_->pc, in_->word, in_->insn.len ? in_->insn.len : 2);
					in_->seen_hart = vcpu;
					in_->seen = v->changes + 1;
				}
				feed_insn(cur, in_->pc, 3, in_->insn.len ? &in_->insn : NULL);
			} else {
				feed(fd, in_->pc, 3);
			}
			if (o->max_instructions && ++total >= o->max_instructions) {
				fd->stopped = true;
				break;
			}
		}
		pos += need;
	}
	return 0;
}

/* The plugin next to this program: <dir of tally-trace>/tally-trace-plugin.so */
static char *default_plugin(void)
{
	static char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		return NULL;
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "tally-trace-plugin.so");
	return path;
}

/*
 * QEMU 7.2 flushes its log after every translation block, so under
 * -singlestep it makes one write() per instruction.  A reader blocked in
 * read() is woken for each of them: two context switches an instruction,
 * which cost more than QEMU's own work (Tally's 6 M-instruction boot: QEMU
 * and a reader doing nothing else took 18.5 s of CPU, 8.4 s reading in
 * batches; this recording 15.7 s, 11.3 s).  So the log's FIFO is read in
 * batches: the pipe is enlarged, and a read waits (1 ms at a time, 20 ms at
 * most) until it holds half of it.  A slow or idle guest costs at most the
 * 20 ms a read; an ended QEMU (EOF) 20 ms once.
 */
#define FIFO_PIPE_SIZE	(1 << 20)
#define FIFO_WAIT_MS	20

struct fifo_reader {
	int fd;
	int batch;	/* bytes worth waiting for: half the pipe */
};

static ssize_t fifo_read(void *cookie, char *buf, size_t size)
{
	struct fifo_reader *r = cookie;
	const struct timespec ms = { 0, 1000000 };
	ssize_t n;

	for (int waited = 0; waited < FIFO_WAIT_MS; waited++) {
		int avail = 0;

		if (ioctl(r->fd, FIONREAD, &avail) || avail >= r->batch || (size_t)avail >= size)
			break;
		nanosleep(&ms, NULL);
	}
	do
		n = read(r->fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n;
}

static int fifo_close(void *cookie)
{
	struct fifo_reader *r = cookie;
	int rc = close(r->fd);

	free(r);
	return rc;
}

/* Opens QEMU's log FIFO (blocks until QEMU opens it) for batched reading. */
static FILE *fifo_open_batched(const char *path)
{
	cookie_io_functions_t io = { .read = fifo_read, .close = fifo_close };
	struct fifo_reader *r = malloc(sizeof(*r));
	int size;
	FILE *f;

	if (!r)
		return NULL;
	r->fd = open(path, O_RDONLY);
	if (r->fd < 0) {
		free(r);
		return NULL;
	}
	/* best effort: a smaller pipe only makes the batches smaller */
	fcntl(r->fd, F_SETPIPE_SZ, FIFO_PIPE_SIZE);
	size = fcntl(r->fd, F_GETPIPE_SZ);
	r->batch = size > 0 ? size / 2 : 1;
	f = fopencookie(r, "r", io);
	if (!f)
		fifo_close(r);
	return f;
}

/* record: QEMU goes when tally-trace is told to go (timeout, ^C) */
static pid_t qemu_pid;

static void record_signal(int sig)
{
	if (qemu_pid > 0)
		kill(qemu_pid, SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Runs QEMU with its execution log going through a FIFO into the encoder. */
int cmd_record(struct opts *o)
{
	char dir[] = "/tmp/tally-trace-XXXXXX", fifo[64];
	static char plugin_arg[4200];
	struct feeder *fd = malloc(sizeof(*fd));
	int argc = 0, status = 0;
	char **argv;
	double t0 = now_s();
	pid_t pid;
	FILE *in;
	int rc = 0;

	if (!o->qemu || !o->qemu[0] || !o->out || !fd)
		usage();
	if (!mkdtemp(dir))
		return 2;
	snprintf(fifo, sizeof(fifo), "%s/exec.log", dir);
	if (mkfifo(fifo, 0600))
		return 2;
	while (o->qemu[argc])
		argc++;
	argv = calloc((size_t)argc + 8, sizeof(*argv));
	memcpy(argv, o->qemu, (size_t)argc * sizeof(*argv));
	if (o->plugin) {
		const char *so = *o->plugin ? o->plugin : default_plugin();

		bool context = trace_cfg.trTeContext;

		for (int i = 0; i < o->nmore; i++)
			context |= o->more[i].cfg.trTeContext;
		if (context) {
			fprintf(stderr, "tally-trace: --context needs the privilege level, which a "
				"QEMU 7.2 plugin cannot read: record without --plugin\n");
			return 2;
		}
		if (o->nmore && ntrace_src_bits(&trace_cfg)) {
			fprintf(stderr, "tally-trace: --and: one encoder per hart (--plugin with "
				"--src-bits) takes no other encoder\n");
			return 2;
		}
		snprintf(plugin_arg, sizeof(plugin_arg), "%s,out=%s", so ? so : "", fifo);
		argv[argc++] = "-plugin";
		argv[argc++] = plugin_arg;
	} else {
		argv[argc++] = "-singlestep";
		argv[argc++] = "-d";
		argv[argc++] = "nochain,exec,in_asm";
		argv[argc++] = "-D";
		argv[argc++] = fifo;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	qemu_pid = pid;
	signal(SIGTERM, record_signal);
	signal(SIGINT, record_signal);
	/* the plugin writes blocks of 64 KiB already (read_plugin reads them
	 * with read()); the log comes a line at a time, so it is batched */
	in = o->plugin ? fopen(fifo, "r") : fifo_open_batched(fifo);
	feeder_init(fd, o);
	if (in) {
		setvbuf(in, NULL, _IOFBF, 1 << 20);
		if (o->plugin)
			rc = read_plugin(fd, in, o);
		else
			rc = read_log(fd, in, "QEMU's log", o->max_instructions);
		/* close the FIFO first: QEMU may be blocked writing to it */
		fclose(in);
		if (rc) {
			kill(pid, SIGTERM);	/* QEMU, started above */
			waitpid(pid, &status, 0);
			unlink(fifo);
			rmdir(dir);
			if (WIFEXITED(status) && WEXITSTATUS(status))
				fprintf(stderr, "tally-trace: QEMU ended with status %d\n",
					WEXITSTATUS(status));
			return rc;
		}
		if (fd->stopped || (o->max_instructions && fd->executed >= o->max_instructions)) {
			kill(pid, SIGTERM);	/* QEMU, started above */
			status = 0;
			waitpid(pid, NULL, 0);
			pid = -1;
		}
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	unlink(fifo);
	rmdir(dir);
	if (harts[0])
		harts_end();	/* their last messages before the stream is written */
	rc |= feeder_finish(fd, o, now_s() - t0);
	if (harts[0])
		rc |= harts_write_code(o);	/* replaces the (empty) global code log */
	free(fd);
	free(argv);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "tally-trace: QEMU ended with status 0x%x\n", status);
		return rc ? rc : 1;
	}
	return rc;
}
