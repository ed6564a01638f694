// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tally: the init process of the KVM host (tests/kvm).
 *
 * Linux 6.12 with KVM boots on Tally under QEMU with the H extension and
 * this program as /init (an extra initramfs over the perf kernel's own).
 * It runs the kernel's KVM selftests (tools/testing/selftests/kvm, built
 * static by tests/kvm/build.sh into /kvm), each in its own process group
 * with its own timeout, prints one line per test (into the kernel log, see
 * say()), and powers off through SBI SRST.  Lines read by tests/kvm/run.sh:
 *
 *   TALLY-KVM: <name>: PASS: <seconds> s[; <note>]
 *   TALLY-KVM: <name>: SKIP: <seconds> s; <the test's last line>[; <note>]
 *   TALLY-KVM: <name>: FAIL: <seconds> s; <why>: <the test's last line>[; <note>]
 * The note says whether a test was retried, and for sbi_pmu_test how many
 * counter-overflow interrupts the host took meanwhile.
 *   TALLY-KVM-DONE: <pass> passed, <fail> failed, <skip> skipped
 *
 * A test's own output goes to /tmp/<name>.log; the runner prints its last
 * lines after a FAIL or SKIP ("  | ..."). Exit status 0 is a pass, 4
 * (KSFT_SKIP) a skip, anything else or a signal a failure, and so is a
 * test still running at its timeout (its process group is killed).
 *
 * The kernel command line chooses:
 *   tally.kvm=name,name           only these tests (default: every test below)
 *   tally.kvm_args.<name>=a,b,c   other arguments for a test ("-" alone: none)
 *   tally.kvm_timeout.<name>=s    another timeout, in seconds
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KSFT_SKIP	4
#define MAX_ARGS	12

/*
 * The tests, in the order they run.  Arguments reduce what a TCG-emulated
 * nested hart needs many minutes for (docs/kvm.md lists them with timings):
 *   dirty_log_test        -i 3 -m 0: 3 iterations (the least it takes;
 *                         default 32) of one guest mode (P52V48, 4K; the
 *                         default runs every mode), both log modes; and
 *                         64 MiB of guest memory, not 1 GiB, a constant
 *                         of its source that tests/kvm/build.sh sets
 *   demand_paging_test    -b 64M (default 1 GiB of guest memory per vCPU)
 *   kvm_page_table_test   -b 64M (default 1 GiB; 128M took 21 to 33 s a run)
 * set_memory_region_test has no option: adding its 32764 memory slots
 * takes about 300 s, hence its timeout.
 * sbi_pmu_test runs once per subtest, with the other three disabled (-d),
 * so that each subtest has its own line and timeout.  arch_timer is flaky
 * on TCG with any firmware with its default margin (the guest's timer
 * interrupt within 100 us of its deadline, which a TCG vCPU on a loaded
 * host does not promise: it failed twice in a row in the AIA run):
 *   arch_timer            -e 5000: a 5 ms margin (the test's own option
 *                         for this), and a failure is retried once, the
 *                         retry said in the note.
 */
static const struct test {
	const char *name;		/* the line's name */
	const char *prog;		/* under /kvm */
	const char *args[MAX_ARGS];
	int timeout_s;
	int retries;
} tests[] = {
	{ "get-reg-list", "get-reg-list", { 0 }, 120, 0 },
	{ "guest_print_test", "guest_print_test", { 0 }, 300, 0 },
	{ "ebreak_test", "ebreak_test", { 0 }, 60, 0 },
	{ "kvm_create_max_vcpus", "kvm_create_max_vcpus", { 0 }, 300, 0 },
	{ "kvm_binary_stats_test", "kvm_binary_stats_test", { 0 }, 120, 0 },
	{ "steal_time", "steal_time", { 0 }, 120, 0 },
	{ "coalesced_io_test", "coalesced_io_test", { 0 }, 120, 0 },
	{ "set_memory_region_test", "set_memory_region_test", { 0 }, 900, 0 },
	{ "kvm_page_table_test", "kvm_page_table_test", { "-b", "64M", 0 }, 300, 0 },
	{ "demand_paging_test", "demand_paging_test", { "-b", "64M", 0 }, 300, 0 },
	{ "dirty_log_test", "dirty_log_test", { "-i", "3", "-m", "0", 0 }, 900, 0 },
	{ "arch_timer", "arch_timer", { "-e", "5000", 0 }, 300, 1 },
	{ "sbi_pmu_test/basic", "sbi_pmu_test",
	  { "-d", "events", "-d", "snapshot", "-d", "overflow", 0 }, 120, 0 },
	{ "sbi_pmu_test/events", "sbi_pmu_test",
	  { "-d", "basic", "-d", "snapshot", "-d", "overflow", 0 }, 120, 0 },
	{ "sbi_pmu_test/snapshot", "sbi_pmu_test",
	  { "-d", "basic", "-d", "events", "-d", "overflow", 0 }, 120, 0 },
	{ "sbi_pmu_test/overflow", "sbi_pmu_test",
	  { "-d", "basic", "-d", "events", "-d", "snapshot", 0 }, 120, 0 },
};

#define N_TESTS (int)(sizeof(tests) / sizeof(tests[0]))

static char cmdline[4096];
static int kmsg = -1;

/*
 * One line of the runner's output, through the kernel log (/dev/kmsg) when
 * it can: the console prints that by polling, whereas user space's output
 * waits for the UART's interrupt, which QEMU 7.2's APLIC in MSI mode can
 * leave disabled ("irq 11: nobody cared"; docs/porting.md).  run.sh boots
 * with printk.devkmsg=on, so no line is rate-limited away.
 */
static void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	if (kmsg < 0 || write(kmsg, line, n) != n)
		printf("%s\n", line);
}

static void mount_fs(const char *fstype, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(fstype, dir, fstype, 0, NULL) && errno != EBUSY)
		say("tally-kvm: mount %s on %s: %s", fstype, dir, strerror(errno));
}

static void read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, cmdline, sizeof(cmdline) - 1);

	if (fd >= 0)
		close(fd);
	cmdline[n > 0 ? n : 0] = '\0';
}

/* Whether tally.kvm= (if given) names this test. */
static int selected(const char *name)
{
	const char *p = strstr(cmdline, "tally.kvm=");
	size_t len = strlen(name);

	if (!p)
		return 1;
	for (p += strlen("tally.kvm="); *p && *p != ' ' && *p != '\n';) {
		size_t w = strcspn(p, ", \n");

		if (w == len && !strncmp(p, name, len))
			return 1;
		p += w + (p[w] == ',');
	}
	return 0;
}

/* The value of "<key><name>=" on the command line (up to a blank), or NULL. */
static const char *option(const char *key, const char *name, char *buf, size_t size)
{
	char want[96];
	const char *p;
	size_t n;

	snprintf(want, sizeof(want), "%s%s=", key, name);
	for (p = strstr(cmdline, want); p; p = strstr(p + 1, want))
		if (p == cmdline || p[-1] == ' ')
			break;
	if (!p)
		return NULL;
	p += strlen(want);
	n = strcspn(p, " \n");
	snprintf(buf, size, "%.*s", (int)n, p);
	return buf;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void log_path(const struct test *t, char *buf, size_t size)
{
	char *p;

	snprintf(buf, size, "/tmp/%s.log", t->name);
	for (p = buf + strlen("/tmp/"); *p; p++)
		if (*p == '/')
			*p = '-';
}

/* The last 64 KiB of a file, as a string in a static buffer ("" if none). */
static char *read_tail(const char *path, ssize_t *len)
{
	static char text[65536];
	int fd = open(path, O_RDONLY);
	off_t end = fd < 0 ? 0 : lseek(fd, 0, SEEK_END);
	off_t from = end > (off_t)sizeof(text) - 1 ? end - (off_t)sizeof(text) + 1 : 0;
	ssize_t n = fd < 0 ? 0 : pread(fd, text, sizeof(text) - 1, from);

	if (fd >= 0)
		close(fd);
	*len = n > 0 ? n : 0;
	text[*len] = '\0';
	return text;
}

/* The last non-empty line of a test's log (for the verdict line). */
static void last_line(const char *path, char *out, size_t size)
{
	ssize_t n;
	char *text = read_tail(path, &n), *p;

	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
		text[--n] = '\0';
	p = strrchr(text, '\n');
	snprintf(out, size, "%s", p ? p + 1 : (n > 0 ? text : "(no output)"));
}

/* The log's last lines, indented, for a failure or a skip. */
static void show_tail(const char *path, int lines)
{
	ssize_t n;
	char *text = read_tail(path, &n), *p;
	int seen = 0;

	if (!n)
		return;
	for (p = text + n - 1; p > text; p--)
		if (*p == '\n' && p[1] && ++seen > lines)
			break;
	for (p = strtok(p, "\n"); p; p = strtok(NULL, "\n"))
		say("  | %s", p);
}

/*
 * The host's counter-overflow interrupts so far (the "riscv-pmu" line of
 * /proc/interrupts, all CPUs), -1 if none: a guest's counter overflows
 * there first, then KVM injects it into the guest.
 */
static long host_pmu_irqs(void)
{
	static char text[16384];
	int fd = open("/proc/interrupts", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);
	char *line, *p, *end;
	long sum = 0;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strstr(line, "riscv-pmu"))
			continue;
		p = strchr(line, ':');
		while (p && *++p) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end - 1;
		}
		return sum;
	}
	return -1;
}

enum verdict { PASS, FAIL, SKIP };

/*
 * Runs one test to its end or its timeout; its output in log.  why gets
 * the reason of a failure.
 */
static enum verdict run_once(const struct test *t, const char *log, char *why, size_t size)
{
	char path[128], args[256], secs[16];
	const char *argv[MAX_ARGS + 2] = { path };	/* the test loads its own ELF */
	int timeout_s = option("tally.kvm_timeout.", t->name, secs, sizeof(secs)) ?
			atoi(secs) : t->timeout_s;
	double deadline = now_s() + timeout_s;
	int status = 0, i, fd;
	pid_t pid, done = 0;

	snprintf(path, sizeof(path), "/kvm/%s", t->prog);
	if (option("tally.kvm_args.", t->name, args, sizeof(args))) {
		char *a = strcmp(args, "-") ? strtok(args, ",") : NULL;

		for (i = 1; a && i <= MAX_ARGS; a = strtok(NULL, ","))
			argv[i++] = a;
	} else {
		for (i = 0; t->args[i]; i++)
			argv[i + 1] = t->args[i];
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, size, "fork: %s", strerror(errno));
		return FAIL;
	}
	if (pid == 0) {
		setpgid(0, 0);
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execv(path, (char *const *)argv);
		printf("exec %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	while (now_s() < deadline) {
		done = waitpid(pid, &status, WNOHANG);
		if (done)
			break;
		usleep(100000);
	}
	if (!done) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		snprintf(why, size, "timeout after %d s", timeout_s);
		return FAIL;
	}
	kill(-pid, SIGKILL);	/* threads or children it left behind */
	if (WIFSIGNALED(status)) {
		snprintf(why, size, "killed by signal %d", WTERMSIG(status));
		return FAIL;
	}
	if (WEXITSTATUS(status) == KSFT_SKIP)
		return SKIP;
	if (WEXITSTATUS(status)) {
		snprintf(why, size, "exit status %d", WEXITSTATUS(status));
		return FAIL;
	}
	return PASS;
}

static enum verdict run_test(const struct test *t)
{
	char log[160], why[128] = "", last[256], first[400] = "";
	double start = now_s();
	long irqs = host_pmu_irqs();
	enum verdict v;
	int attempt;

	log_path(t, log, sizeof(log));
	say("tally-kvm: running %s", t->name);
	for (attempt = 0;; attempt++) {
		v = run_once(t, log, why, sizeof(why));
		if (v != FAIL || attempt >= t->retries)
			break;
		last_line(log, last, sizeof(last));
		snprintf(first, sizeof(first), "run %d failed (%s: %s), retried", attempt + 1,
			 why, last);
		show_tail(log, 8);
	}
	last_line(log, last, sizeof(last));
	if (!strncmp(t->name, "sbi_pmu_test", 12) && irqs >= 0) {
		size_t len = strlen(first);

		snprintf(first + len, sizeof(first) - len, "%shost riscv-pmu interrupts +%ld",
			 len ? "; " : "", host_pmu_irqs() - irqs);
	}
	if (v == PASS)
		say("TALLY-KVM: %s: PASS: %.0f s%s%s", t->name, now_s() - start,
		       first[0] ? "; " : "", first);
	else if (v == SKIP)
		say("TALLY-KVM: %s: SKIP: %.0f s; %s%s%s", t->name, now_s() - start, last,
		       first[0] ? "; " : "", first);
	else
		say("TALLY-KVM: %s: FAIL: %.0f s; %s: %s%s%s", t->name, now_s() - start,
		       why, last, first[0] ? "; " : "", first);
	if (v != PASS)
		show_tail(log, v == SKIP ? 3 : 15);
	return v;
}

int main(void)
{
	int count[3] = { 0 }, i;

	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("devtmpfs", "/dev");
	mount_fs("tmpfs", "/tmp");
	setvbuf(stdout, NULL, _IOLBF, 0);
	kmsg = open("/dev/kmsg", O_WRONLY);
	read_cmdline();
	say("TALLY-KVM-START: %d tests, %ld cpus online", N_TESTS,
	       sysconf(_SC_NPROCESSORS_ONLN));
	if (access("/dev/kvm", R_OK | W_OK))
		say("tally-kvm: /dev/kvm: %s", strerror(errno));
	for (i = 0; i < N_TESTS; i++)
		if (selected(tests[i].name))
			count[run_test(&tests[i])]++;
	say("TALLY-KVM-DONE: %d passed, %d failed, %d skipped", count[PASS],
	       count[FAIL], count[SKIP]);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
