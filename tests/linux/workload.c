// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tally: workloads with known behaviour for the Linux perf checks
 * (tests/linux). One static binary, /bin/work in the test initramfs; the
 * first argument picks the workload. Each one does exactly what it says
 * and nothing else worth counting, so perf's numbers can be predicted:
 *
 *   work loop N          user-mode loop of exactly 2*N instructions
 *                        (addi + bnez per iteration) after libc's startup
 *   work store-pages N   N fresh, already populated pages: one store each
 *                        (one user-mode dTLB store miss per page)
 *   work load-pages N    the same with one load per page (dTLB load misses)
 *   work kload-pages N   the kernel reads N populated user pages (write(2) of
 *                        the buffer into a tmpfs file): supervisor-mode dTLB
 *                        load misses, almost no user-mode ones
 *   work sleep SECONDS   nanosleep (fractions allowed)
 *   work munmap N        a thread parks on every other online CPU (pinned,
 *                        then blocked: the CPU idles with this mm loaded)
 *                        while the main thread maps, touches and unmaps a
 *                        page N times: each munmap flushes the TLBs of the
 *                        other CPUs (SBI RFENCE remote sfence.vma)
 *   work pingpong N      two processes on two CPUs bounce a byte N times
 *                        through pipes: every wake-up of the idle partner CPU
 *                        is an IPI (SBI IPI send_ipi)
 *   work all-cpus N      one thread per online CPU, pinned, each loading N
 *                        fresh pages: every CPU does measurable work
 *   work switch N        two processes on the same CPU bounce a byte N
 *                        times through pipes: 2N context switches, the
 *                        calling process scheduled out and in N times
 *                        (after 100 turns of warm-up, outside the marks)
 *
 * Pages are mapped with MAP_POPULATE, so the kernel has mapped them before
 * the measured accesses: a user access then costs exactly one TLB refill
 * and no page fault (a fault would add a second refill when the access is
 * retried). Prints nothing on success (but WORK_TIME's line); exit status
 * 0, or 2 on bad usage.
 * WORK_CPU=n in the environment pins the process to CPU n first.
 * WORK_MARK=1 puts the workload between two marker instructions (HINTs:
 * slti x0, x0, 0x7a1 and 0x7a2, no-ops on every hart) that bench's QEMU
 * plugin (bench/mmode-plugin.c) sees, so a benchmark can count what the
 * machine did during the workload and nothing else.
 * WORK_TIME=1 prints, on stderr, the workload's wall time between the same
 * two points and the process's CPU time so far, exec included ("work: time
 * N us, cpu M us"): the sampling soak relates QEMU's timer-driven cycle
 * samples to the CPU time (tests/debian/record-soak.sh).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static void die(const char *what)
{
	fprintf(stderr, "work: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long arg_count(const char *s)
{
	char *end;
	unsigned long n = strtoul(s, &end, 0);

	if (end == s || *end) {
		fprintf(stderr, "work: bad count \"%s\"\n", s);
		exit(2);
	}
	return n;
}

/* Exactly 2 * n user-mode instructions (n >= 1). */
static void do_loop(unsigned long n)
{
	__asm__ volatile("1:\n\taddi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

static volatile char *map_pages(unsigned long n)
{
	void *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

static void store_pages(unsigned long n)
{
	volatile char *p = map_pages(n);
	unsigned long i;

	for (i = 0; i < n; i++)
		p[i * PAGE] = 1;
}

static unsigned long load_pages(unsigned long n)
{
	volatile char *p = map_pages(n);
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += p[i * PAGE];
	return sum;
}

static void kload_pages(unsigned long n)
{
	const char *path = "/tmp/work-kload";
	volatile char *p = map_pages(n);
	size_t done = 0, len = n * PAGE;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		die(path);
	unlink(path);
	while (done < len) {
		ssize_t w = write(fd, (const char *)p + done, len - done);

		if (w <= 0)
			die("write");
		done += (size_t)w;
	}
	close(fd);
}

static void do_sleep(const char *s)
{
	double secs = strtod(s, NULL);
	struct timespec ts = { (time_t)secs,
			       (long)((secs - (double)(time_t)secs) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* CPUs we may run on, in order. */
static int online_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity");
	for (cpu = 0; cpu < CPU_SETSIZE && n < max; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	return n;
}

static int park_pipe[2];
static volatile int parked;

struct worker {
	pthread_t thread;
	int cpu;
	unsigned long pages;
};

/*
 * Run once on the worker's CPU, then block: the CPU idles with this mm
 * still loaded (Linux switches no mm for the idle task), so it stays in
 * the mm's CPU mask and gets every remote TLB flush, without burning host
 * time as a spinning thread would.
 */
static void *parker(void *arg)
{
	struct worker *w = arg;
	char c;

	pin(w->cpu);
	__atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
	while (read(park_pipe[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void *page_loader(void *arg)
{
	struct worker *w = arg;

	pin(w->cpu);
	load_pages(w->pages);
	return NULL;
}

#define MAX_CPUS 64

/* Start one thread for each of the n CPUs. */
static int start_workers(struct worker *w, void *(*fn)(void *),
			 unsigned long pages, const int *cpus, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++, k++) {
		w[k].cpu = cpus[i];
		w[k].pages = pages;
		errno = pthread_create(&w[k].thread, NULL, fn, &w[k]);
		if (errno)
			die("pthread_create");
	}
	return k;
}

static void join_workers(struct worker *w, int k)
{
	while (k--)
		pthread_join(w[k].thread, NULL);
}

static void munmap_storm(unsigned long n)
{
	struct worker w[MAX_CPUS];
	int cpus[MAX_CPUS], ncpu = online_cpus(cpus, MAX_CPUS), k;
	unsigned long i;

	if (pipe(park_pipe))
		die("pipe");
	/* parked threads keep this mm on every other CPU */
	k = start_workers(w, parker, 0, cpus + 1, ncpu - 1);
	pin(cpus[0]);
	while (__atomic_load_n(&parked, __ATOMIC_SEQ_CST) < k)
		usleep(1000);
	usleep(10000); /* until they block */
	for (i = 0; i < n; i++) {
		volatile char *p = map_pages(1);

		p[0] = 1;
		munmap((void *)p, PAGE);
	}
	close(park_pipe[1]);
	join_workers(w, k);
}

static void pingpong(unsigned long n)
{
	int cpus[MAX_CPUS], there[2], back[2], ncpu = online_cpus(cpus, MAX_CPUS);
	unsigned long i;
	char c = 0;
	pid_t pid;

	if (pipe(there) || pipe(back))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		pin(cpus[ncpu > 1 ? 1 : 0]);
		for (i = 0; i < n; i++)
			if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(cpus[0]);
	for (i = 0; i < n; i++)
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			die("pingpong");
	waitpid(pid, NULL, 0);
}

/*
 * The markers of WORK_MARK (HINT encodings: slti x0, x0, imm): main()
 * puts them around a workload, or the workload itself around the part
 * worth measuring (marks_inside).
 */
static int marks_inside;
static struct timespec work_start;

static void mark_begin(void)
{
	if (getenv("WORK_MARK"))
		__asm__ volatile(".4byte 0x7a102013" ::: "memory");
	if (getenv("WORK_TIME"))
		clock_gettime(CLOCK_MONOTONIC, &work_start);
}

static void mark_end(void)
{
	struct timespec t, cpu;

	if (getenv("WORK_MARK"))
		__asm__ volatile(".4byte 0x7a202013" ::: "memory");
	if (getenv("WORK_TIME")) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
		fprintf(stderr, "work: time %lld us, cpu %lld us\n",
			((long long)t.tv_sec - work_start.tv_sec) * 1000000 +
			(t.tv_nsec - work_start.tv_nsec) / 1000,
			(long long)cpu.tv_sec * 1000000 + cpu.tv_nsec / 1000);
	}
}

#define SWITCH_WARMUP 100
/*
 * Both processes on one CPU (the first online one, or WORK_CPU's, where
 * main() pinned us): every turn is a context switch.  The first turns
 * take the copy-on-write faults of the fork (each a TLB flush that goes
 * to every CPU the process ran on); the marks leave them out.
 */
static void context_switches(unsigned long n)
{
	int cpus[MAX_CPUS], there[2], back[2];
	unsigned long i;
	char c = 0;
	pid_t pid;

	if (pipe(there) || pipe(back))
		die("pipe");
	if (!getenv("WORK_CPU") && online_cpus(cpus, MAX_CPUS) > 0)
		pin(cpus[0]);
	pid = fork();		/* the child inherits the pinning */
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (i = 0; i < n + SWITCH_WARMUP; i++)
			if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < n + SWITCH_WARMUP; i++) {
		if (i == SWITCH_WARMUP)
			mark_begin();
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			die("switch");
	}
	mark_end();
	waitpid(pid, NULL, 0);
}

static void usage(void)
{
	fprintf(stderr, "usage: work loop N | store-pages N | load-pages N | "
		"kload-pages N | sleep SECONDS | munmap N | pingpong N | all-cpus N | "
		"switch N\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct worker w[MAX_CPUS];
	int cpus[MAX_CPUS], n;

	if (argc != 3)
		usage();
	/* WORK_CPU=n: run on CPU n only (for experiments) */
	if (getenv("WORK_CPU"))
		pin(atoi(getenv("WORK_CPU")));
	marks_inside = !strcmp(argv[1], "switch");
	if (!marks_inside)
		mark_begin();
	if (!strcmp(argv[1], "loop")) {
		do_loop(arg_count(argv[2]) ?: 1);
	} else if (!strcmp(argv[1], "store-pages")) {
		store_pages(arg_count(argv[2]));
	} else if (!strcmp(argv[1], "load-pages")) {
		load_pages(arg_count(argv[2]));
	} else if (!strcmp(argv[1], "kload-pages")) {
		kload_pages(arg_count(argv[2]));
	} else if (!strcmp(argv[1], "sleep")) {
		do_sleep(argv[2]);
	} else if (!strcmp(argv[1], "munmap")) {
		munmap_storm(arg_count(argv[2]));
	} else if (!strcmp(argv[1], "pingpong")) {
		pingpong(arg_count(argv[2]));
	} else if (!strcmp(argv[1], "all-cpus")) {
		n = online_cpus(cpus, MAX_CPUS);
		join_workers(w, start_workers(w, page_loader, arg_count(argv[2]),
					      cpus, n));
	} else if (!strcmp(argv[1], "switch")) {
		context_switches(arg_count(argv[2]));
	} else {
		usage();
	}
	if (!marks_inside)
		mark_end();
	return 0;
}
