// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tally: the init process of the Linux boot and perf tests (tests/linux).
 *
 * Runs as PID 1 from the built-in initramfs, runs a list of checks, prints
 * one line per check and a final marker, then powers the machine off, which
 * Linux does through the SBI SRST extension (QEMU then exits with status 0).
 *
 * Lines read by tests/linux/boot-test.sh:
 *   TALLY-LINUX-CHECK: <name>: ok
 *   TALLY-LINUX-CHECK: <name>: ok: <note>            (passed, with a remark)
 *   TALLY-LINUX-CHECK: <name>: skip: <why>           (not applicable here)
 *   TALLY-LINUX-CHECK: <name>: FAIL: <reason>
 *   TALLY-LINUX-INIT: ok, <N> cpus online
 *   TALLY-LINUX-INIT: FAIL (<k> of <m> checks failed), <N> cpus online
 *
 * What runs is chosen on the kernel command line:
 *   tally.perf=full     everything that needs no -icount (fw_dynamic run)
 *   tally.perf=icount   exact instruction counts (QEMU -icount shift=0)
 *   tally.perf=count    counting checks only (fw_jump and fw_payload runs;
 *                       also the default, as fw_payload has no -append)
 *   tally.perf=none     only the boot checks
 *   tally.perf=soak     the soak (tests/debian/soak.sh): the boot checks,
 *                       the probe and snapshot, then /soak/run.sh of the
 *                       soak's extra initramfs (tally.soak=SECONDS), perf
 *                       after hotplug and a quiet PMU driver after it
 *   tally.perf=record   the sampling soak (tests/debian/record-soak.sh): the
 *                       boot checks, the probe, perf-record-soak
 *                       (tally.record_runs=N runs of cycles and of dTLB
 *                       sampling, each run's samples on a TALLY-RECORD
 *                       line) and a quiet PMU driver
 *   tally.record_exact=FLOOR  the sampling soak's -icount leg: cycles and
 *                       instructions sampling instead of cycles and dTLB,
 *                       each run at least FLOOR overflow interrupts and
 *                       FLOOR - 1 samples (0: no floor)
 *   tally.perf=aia      the AIA runs (QEMU virt aia=...): the boot checks,
 *                       cycles/instructions, TLB sampling, the IPI and
 *                       remote-fence paths, perf after hotplug, the
 *                       interrupt controllers (tally.aia= says which)
 *   tally.aia=aplic|imsic  the machine's AIA: APLIC alone (direct mode,
 *                       SBI IPIs) or APLIC + IMSIC (MSI mode, IPIs and
 *                       remote fences through the IMSIC's S-files)
 *   tally.pmu_num=N     QEMU's pmu-num (default 16), for the probe check
 *   tally.sscofpmf=optional  the harts may lack Sscofpmf (tests/debian: plain
 *                       -cpu rv64, vendor models, QEMU 10.0 whose overflow
 *                       interrupt never arrives, so the firmware withdraws
 *                       it): where Linux says it has none, the probe passes
 *                       with a note and the checks that need mode filters
 *                       or sampling are skipped. Without it, a missing
 *                       Sscofpmf fails the probe check (the default)
 *   tally.filters=exact  the hart filters cycles and instructions by mode
 *                       (QEMU 10 and 11; with tally.perf=icount, -smp 1):
 *                       perf-mode-cycles-instructions then fails unless the
 *                       filter applies, instructions:u is within 1% of the
 *                       loop, and cycles:u + cycles:k within 5% of cycles
 *   tally.loop_overhead=N  instructions of exec and libc around the loop that
 *                       perf-instructions-exact allows (default 2000000)
 *   tally.demo          the `make run` demonstration instead of checks
 *   tally.hotplug_loop=N  also the hotplug loop: N rounds of CPU hotplug
 *                       and perf (check_hotplug_loop; tests/linux/hotplug-loop.sh)
 *   tally.script        run the commands of /tally-script (one per line,
 *                       blank-separated words, # comments) and show their
 *                       output: give the file in an extra -initrd cpio
 *
 * The perf checks run /bin/perf (Linux 6.1's tools/perf, static) on
 * /bin/work (tests/linux/workload.c), whose behaviour is known exactly.
 * To add a check, write a `static int check_xxx(void)` that returns 0 on
 * success or calls fail() (or skip()) and add it to the checks[] table.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define CPU_SYSFS "/sys/devices/system/cpu"
#define ARRAY_SIZE(a) (int)(sizeof(a) / sizeof((a)[0]))

static char fail_reason[512];
static char check_note[512];
static int check_skipped;

/* Record why the running check failed; returns -1 for `return fail(...)`. */
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
	va_end(ap);
	return -1;
}

/* The check does not apply here; returns 0 for `return skip(...)`. */
static int skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(check_note, sizeof(check_note), fmt, ap);
	va_end(ap);
	check_skipped = 1;
	return 0;
}

/* A remark on a passing check (what was measured). */
static void note(const char *fmt, ...)
{
	va_list ap;
	size_t len = strlen(check_note);

	if (len && len < sizeof(check_note) - 2) {
		strcat(check_note, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(check_note + len, sizeof(check_note) - len, fmt, ap);
	va_end(ap);
}

/* Read a small sysfs/procfs file into buf, without the trailing newline. */
static int read_text(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_text(const char *path, const char *text)
{
	ssize_t n;
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	if (n < 0)
		return -errno;
	return 0;
}

/* A whole (small) file, NUL-terminated, malloc'ed; NULL if unreadable. */
static char *read_file(const char *path)
{
	size_t len = 0, cap = 8192;
	char *buf = malloc(cap);
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			char *bigger = realloc(buf, cap * 2);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Count the CPUs in a kernel cpu list such as "0-3" or "0,2-3". */
static int count_cpu_list(const char *list)
{
	int count = 0;
	const char *p = list;

	while (*p) {
		char *end;
		long first = strtol(p, &end, 10), last = first;

		if (end == p)
			return -1;
		if (*end == '-') {
			p = end + 1;
			last = strtol(p, &end, 10);
			if (end == p || last < first)
				return -1;
		}
		count += (int)(last - first + 1);
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return count;
}

/* Online CPUs as sysfs reports them, or -1. */
static int sysfs_online_cpus(void)
{
	char list[128];

	if (read_text(CPU_SYSFS "/online", list, sizeof(list)))
		return -1;
	return count_cpu_list(list);
}

/* The kernel opens /dev/console for PID 1 only if the initramfs has it. */
static void ensure_console(void)
{
	int fd;

	if (fcntl(STDOUT_FILENO, F_GETFD) >= 0)
		return;
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

static int mount_one(const char *fstype, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(fstype, dir, fstype, 0, NULL) && errno != EBUSY)
		return fail("mount %s on %s: %s", fstype, dir, strerror(errno));
	return 0;
}

/* ---- kernel command line ---------------------------------------------- */

static struct {
	char perf[16];		/* tally.perf=: full, icount, count, aia, none */
	int pmu_num;		/* tally.pmu_num= */
	int demo;		/* tally.demo */
	int script;		/* tally.script */
	char aia[16];		/* tally.aia=: aplic, imsic, or "" (no AIA) */
	int hotplug_loop;	/* tally.hotplug_loop=: rounds, 0 = no loop */
	int sscofpmf_optional;	/* tally.sscofpmf=optional */
	int soak;		/* tally.soak=: seconds of the soak (tally.perf=soak) */
	int filters_exact;	/* tally.filters=exact */
	long loop_overhead;	/* tally.loop_overhead=: LOOP_OVERHEAD_MAX */
	int record_runs;	/* tally.record_runs=: runs of perf-record-soak */
	int record_exact;	/* tally.record_exact=FLOOR: its -icount leg; -1 off */
} opt = { "count", 16, 0, 0, "", 0, 0, 60, 0, 2000000, 100, -1 };

static void parse_cmdline(void)
{
	char line[1024], *word, *save;

	if (read_text("/proc/cmdline", line, sizeof(line)))
		return;
	for (word = strtok_r(line, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		if (!strncmp(word, "tally.perf=", 11))
			snprintf(opt.perf, sizeof(opt.perf), "%s", word + 11);
		else if (!strncmp(word, "tally.pmu_num=", 14))
			opt.pmu_num = atoi(word + 14);
		else if (!strcmp(word, "tally.demo"))
			opt.demo = 1;
		else if (!strcmp(word, "tally.script"))
			opt.script = 1;
		else if (!strncmp(word, "tally.aia=", 10))
			snprintf(opt.aia, sizeof(opt.aia), "%s", word + 10);
		else if (!strncmp(word, "tally.hotplug_loop=", 19))
			opt.hotplug_loop = atoi(word + 19);
		else if (!strncmp(word, "tally.loop_overhead=", 20))
			opt.loop_overhead = atol(word + 20);
		else if (!strcmp(word, "tally.filters=exact"))
			opt.filters_exact = 1;
		else if (!strcmp(word, "tally.sscofpmf=optional"))
			opt.sscofpmf_optional = 1;
		else if (!strncmp(word, "tally.soak=", 11))
			opt.soak = atoi(word + 11);
		else if (!strncmp(word, "tally.record_runs=", 18))
			opt.record_runs = atoi(word + 18);
		else if (!strncmp(word, "tally.record_exact=", 19))
			opt.record_exact = atoi(word + 19);
	}
}

/* ---- running programs ------------------------------------------------- */

#define OUT "/tmp/out"		/* stdout + stderr of the last command */
#define STAT "/tmp/stat.csv"	/* perf stat -x, output */
#define DATA "/tmp/perf.data"	/* perf record output */

/*
 * Run a command given as blank-separated words (printf format; leading
 * NAME=value words set environment variables), with
 * stdout and stderr going to `out` (NULL: the console), killed after
 * `timeout` seconds. Returns the exit status, 128 + signal, or -1.
 */
static int run(const char *out, int timeout, const char *fmt, ...)
{
	char cmd[1024], *argv[64], *save;
	int argc = 0, status;
	va_list ap;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	for (argv[argc] = strtok_r(cmd, " \t", &save); argv[argc] && argc < 63;
	     argv[++argc] = strtok_r(NULL, " \t", &save))
		;
	argv[argc] = NULL;
	if (!argc)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0)
				_exit(127);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		/* leading NAME=value words go into the environment */
		char **args = argv;

		while (args[0] && strchr(args[0], '=') && args[1]) {
			char *eq = strchr(args[0], '=');

			*eq = '\0';
			setenv(args[0], eq + 1, 1);
			args++;
		}
		/* SIGALRM survives exec and kills the command when due. */
		alarm((unsigned int)timeout);
		execvp(args[0], args);
		fprintf(stderr, "exec %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* The first line of the last command's output (for failure messages). */
static const char *out_excerpt(void)
{
	static char line[160];
	char *text = read_file(OUT), *p;

	line[0] = '\0';
	if (!text)
		return "(no output)";
	for (p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		size_t len = strcspn(p, "\n");

		if (len) {
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			break;
		}
	}
	free(text);
	return line[0] ? line : "(no output)";
}

/* ---- perf stat -x, output ---------------------------------------------- */

enum { VAL_OK, VAL_NOT_COUNTED, VAL_NOT_SUPPORTED, VAL_MISSING, VAL_BAD };

static const char *const val_names[] = {
	"counted", "<not counted>", "<not supported>", "missing", "unreadable"
};

/* Whether a CSV event name is the event given to -e: perf 6.1 leaves out
 * the modifier (dTLB-load-misses:u is printed as dTLB-load-misses), perf
 * 6.12 adds the PMU to some with -A ("dTLB-load-misses [cpu]"). */
static int same_event(const char *printed, const char *given)
{
	size_t len = strcspn(given, ":");
	const char *pmu = strstr(printed, " [");
	size_t plen = pmu ? (size_t)(pmu - printed) : strlen(printed);

	return (plen == strlen(given) && !strncmp(printed, given, plen)) ||
	       (plen == len && !strncmp(printed, given, len));
}

/*
 * The value of `event` (as given to -e) on `cpu` ("CPU2" with -A, NULL for
 * aggregated output) in the CSV that `perf stat -x, -o STAT` wrote:
 *   [CPUn,]value,unit,event,run time,percent running,...
 * The first match counts, so one run must not name an event twice.
 */
static int stat_value(const char *event, const char *cpu, double *value)
{
	char *text = read_file(STAT), *line, *save;
	int result = VAL_MISSING;

	*value = 0;
	if (!text)
		return VAL_MISSING;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *field[8] = { 0 }, *p = line;
		int n = 0, base = 0;

		if (line[0] == '#' || !line[0])
			continue;
		while (n < 8) {
			field[n++] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (n > 0 && !strncmp(field[0], "CPU", 3))
			base = 1;
		if (n < base + 3 || !same_event(field[base + 2], event))
			continue;
		if (cpu ? !base || strcmp(field[0], cpu) : base)
			continue;
		if (!strcmp(field[base], "<not counted>")) {
			result = VAL_NOT_COUNTED;
		} else if (!strcmp(field[base], "<not supported>")) {
			result = VAL_NOT_SUPPORTED;
		} else {
			char *end;

			*value = strtod(field[base], &end);
			result = end != field[base] && !*end ? VAL_OK : VAL_BAD;
		}
		break;
	}
	free(text);
	return result;
}

/*
 * perf 7.x exits 1 with "No supported events found" where perf 6.x
 * printed <not supported> for each event (every event refused by the
 * kernel, such as cycles:u without Sscofpmf): write what 6.x wrote.
 */
static int none_supported(const char *events)
{
	char *text = read_file(OUT), list[256], *ev, *save;
	FILE *f;
	int none = text && strstr(text, "No supported events found");

	free(text);
	if (!none || !(f = fopen(STAT, "w")))
		return 0;
	snprintf(list, sizeof(list), "%s", events);
	for (ev = strtok_r(list, ",", &save); ev; ev = strtok_r(NULL, ",", &save))
		fprintf(f, "<not supported>,,%s,0,100.00,,\n", ev);
	fclose(f);
	return 1;
}

/* perf stat -x, on the workload, all events in one run. */
static int perf_stat(const char *flags, const char *events, const char *work)
{
	int status = run(OUT, 120, "perf stat -x, -o " STAT " %s -e %s -- work %s",
			 flags, events, work);

	if (status && !none_supported(events))
		return fail("perf stat %s -e %s -- work %s: exit status %d: %s",
			    flags, events, work, status, out_excerpt());
	return 0;
}

/* Exactly one counted value, or fail() naming the event and what it got. */
static int counted(const char *event, const char *cpu, double *value)
{
	int r = stat_value(event, cpu, value);

	if (r == VAL_OK)
		return 0;
	return fail("%s%s%s: %s", event, cpu ? " on " : "", cpu ? cpu : "",
		    val_names[r]);
}

/* |got - want| <= tolerance * want */
static int within(double got, double want, double tolerance)
{
	return fabs(got - want) <= tolerance * want;
}

/* ---- the kernel log ----------------------------------------------------- */

static char *dmesg(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	char *buf;

	if (size <= 0)
		size = 1 << 17;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* How many times the kernel log says "WARNING: ... at <fn>+". */
static int kernel_warnings_at(const char *fn)
{
	char *log = dmesg(), *p, at[64];
	int n = 0;

	if (!log)
		return 0;
	snprintf(at, sizeof(at), " at %s+", fn);
	for (p = strstr(log, "WARNING: "); p; p = strstr(p + 1, "WARNING: ")) {
		size_t len = strcspn(p, "\n");

		n += memmem(p, len, at, strlen(at)) != NULL;
	}
	free(log);
	return n;
}

/* The running kernel's major.minor as 100 * major + minor (6.12 -> 612). */
static int kernel_version(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return 100 * major + minor;
}

/* Whether the kernel uses Sstc (then Linux never calls SBI set_timer). */
static int kernel_uses_sstc(void)
{
	char *cpuinfo = read_file("/proc/cpuinfo");
	int sstc = cpuinfo && strstr(cpuinfo, "sstc");

	free(cpuinfo);
	return sstc;
}

/* ---- boot checks --------------------------------------------------------- */

/* Mounted first thing in main() (the command line is in /proc). */
static char mount_error[sizeof(fail_reason)];

static void do_mounts(void)
{
	if (mount_one("proc", "/proc") || mount_one("sysfs", "/sys") ||
	    mount_one("devtmpfs", "/dev"))
		snprintf(mount_error, sizeof(mount_error), "%s", fail_reason);
	ensure_console();
}

static int check_mounts(void)
{
	return mount_error[0] ? fail("%s", mount_error) : 0;
}

/* sysfs and glibc's sysconf() must agree on the number of online CPUs. */
static int check_cpus_online(void)
{
	char list[128] = "?";
	int from_sysfs = sysfs_online_cpus();
	long from_sysconf = sysconf(_SC_NPROCESSORS_ONLN);

	read_text(CPU_SYSFS "/online", list, sizeof(list));
	printf("cpus online: %s (sysfs count %d, sysconf %ld)\n",
	       list, from_sysfs, from_sysconf);
	if (from_sysfs < 1)
		return fail("cannot parse " CPU_SYSFS "/online \"%s\"", list);
	if (from_sysfs != from_sysconf)
		return fail("sysfs says %d, sysconf says %ld", from_sysfs,
			    from_sysconf);
	return 0;
}

static int set_cpu_online(int cpu, int online)
{
	char path[64];
	int err;

	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	err = write_text(path, online ? "1" : "0");
	if (err)
		return fail("%s cpu%d: %s", online ? "online" : "offline", cpu,
			    strerror(-err));
	return 0;
}

/*
 * Take the last CPU offline and bring it back: Linux stops the hart with
 * SBI HSM hart_stop and restarts it with hart_start.
 */
static int check_cpu_hotplug(void)
{
	int before = sysfs_online_cpus(), during, after, cpu = before - 1;

	if (before < 2)
		return skip("only %d cpu online", before);
	if (!strcmp(opt.perf, "icount"))
		return skip("CPU offlining hangs under QEMU 7.2 -icount (with "
			    "OpenSBI 1.1 too); tested in the other runs");
	if (set_cpu_online(cpu, 0))
		return -1;
	during = sysfs_online_cpus();
	if (set_cpu_online(cpu, 1))
		return -1;
	after = sysfs_online_cpus();
	printf("cpu hotplug: cpu%d off and on, online %d -> %d -> %d\n",
	       cpu, before, during, after);
	if (during != before - 1)
		return fail("%d cpus online with cpu%d offline, expected %d",
			    during, cpu, before - 1);
	if (after != before)
		return fail("%d cpus online after onlining cpu%d, expected %d",
			    after, cpu, before);
	return 0;
}

/* ---- perf checks --------------------------------------------------------- */

/*
 * Workload sizes. LOOP_N iterations are 2 * LOOP_N user instructions;
 * PAGES fresh pages are 40 MB (the VM has 512 MB).
 */
#define LOOP_N 50000000UL
#define PAGES 10000UL
/*
 * libc startup, exec and exit of /bin/work, in instructions (measured
 * ~0.3M with the project's kernels); tally.loop_overhead= gives another
 * kernel's (Debian's 6.12 and 7.x spend 2.6M counted in every mode:
 * tests/debian/run.sh).
 */
#define LOOP_OVERHEAD_MAX ((double)opt.loop_overhead)

/*
 * What the SBI PMU driver prints when it sees no Sscofpmf: it then refuses
 * sampling and mode filters itself (PERF_PMU_CAP_NO_EXCLUDE).
 */
static int log_says_no_sscofpmf(const char *log)
{
	return strstr(log, "sampling/filtering is not supported") != NULL;
}

/*
 * The driver found the SBI PMU with Sscofpmf, and the counters the
 * firmware reports are those of QEMU's pmu-num: cycle, time, instret and
 * pmu-num programmable ones (time may be left out: it counts no event).
 */
static int check_pmu_probe(void)
{
	char *log = dmesg(), *p;
	int fw = -1, hw = -1, want = opt.pmu_num + 3;

	if (!log)
		return fail("cannot read the kernel log: %s", strerror(errno));
	if (!strstr(log, "SBI PMU extension is available")) {
		free(log);
		return fail("no \"SBI PMU extension is available\" in dmesg: "
			    "Linux found no SBI PMU extension");
	}
	p = strstr(log, "riscv-pmu-sbi: ");
	while (p && sscanf(p, "riscv-pmu-sbi: %d firmware and %d hardware counters",
			   &fw, &hw) != 2)
		p = strstr(p + 1, "riscv-pmu-sbi: ");
	if (log_says_no_sscofpmf(log) && opt.sscofpmf_optional) {
		note("no Sscofpmf: counting only (tally.sscofpmf=optional)");
	} else if (log_says_no_sscofpmf(log)) {
		free(log);
		return fail("Linux says \"Perf sampling/filtering is not "
			    "supported\" (no Sscofpmf seen)");
	}
	free(log);
	if (fw < 0)
		return fail("no \"N firmware and M hardware counters\" in dmesg");
	note("%d firmware and %d hardware counters", fw, hw);
	if (hw != want && hw != want - 1)
		return fail("%d hardware counters for pmu-num=%d, expected %d "
			    "(cycle, time, instret, %d programmable) or %d without time",
			    hw, opt.pmu_num, want, opt.pmu_num, want - 1);
	if (fw < 1)
		return fail("no firmware counters (%d)", fw);
	return 0;
}

/* Under -icount shift=0 instret is exact: the loop's count must show. */
static int check_instructions_exact(void)
{
	double v, want = 2.0 * LOOP_N;
	char work[64];

	snprintf(work, sizeof(work), "loop %lu", LOOP_N);
	if (perf_stat("", "instructions", work) || counted("instructions", NULL, &v))
		return -1;
	note("instructions %.0f for a loop of %.0f", v, want);
	if (v < want || v > want + LOOP_OVERHEAD_MAX)
		return fail("instructions %.0f, expected %.0f (+ at most %.0f of "
			    "exec and libc): off by %+.2f%%", v, want,
			    LOOP_OVERHEAD_MAX, 100.0 * (v - want) / want);
	return 0;
}

/*
 * Without -icount QEMU's cycle and instret counters follow the host's
 * timestamp counter, so only sanity can be asked: both count, neither is
 * a wrapped or uninitialised value, and both are within a wide factor of
 * the loop's 1e8 instructions.
 */
static int check_cycles_instructions(void)
{
	double c, i, want = 2.0 * LOOP_N;
	char work[64];

	snprintf(work, sizeof(work), "loop %lu", LOOP_N);
	if (perf_stat("", "cycles,instructions", work) ||
	    counted("cycles", NULL, &c) || counted("instructions", NULL, &i))
		return -1;
	note("cycles %.0f, instructions %.0f for %.0f instructions", c, i, want);
	if (c < want / 20 || c > want * 100)
		return fail("cycles %.0f for a loop of %.0f instructions", c, want);
	if (i < want / 20 || i > want * 100)
		return fail("instructions %.0f for a loop of %.0f", i, want);
	return 0;
}

/*
 * Linux on harts without Sscofpmf says "Perf sampling/filtering is not
 * supported as sscof extension is not available" and refuses exclude_user
 * and exclude_kernel events itself (PERF_PMU_CAP_NO_EXCLUDE): QEMU
 * sifive_u's U54s.
 */
static int kernel_refuses_mode_filters(void)
{
	char *log = dmesg();
	int refuses = log && log_says_no_sscofpmf(log);

	free(log);
	return refuses;
}

/*
 * tally.sscofpmf=optional and Linux found no Sscofpmf: the checks that
 * need mode filters (:u, :k) or sampling skip, saying so.
 */
static int no_sscofpmf(void)
{
	return opt.sscofpmf_optional && kernel_refuses_mode_filters();
}
#define SKIP_NO_SSCOFPMF() \
	do { \
		if (no_sscofpmf()) \
			return skip("no Sscofpmf: Linux offers no mode filter " \
				    "and no sampling (tally.sscofpmf=optional)"); \
	} while (0)

/*
 * cycles/instructions with :u and :k. QEMU 7.2 cannot filter these by
 * mode. The SBI spec makes the filter flags hints: a firmware may apply
 * them or count every mode (Tally does, and says so in its boot banner:
 * docs/pmu.md, Mode filtering). Both must count: a refusal (<not counted>,
 * <not supported>) leaves perf users and KVM guests without a number.
 * The note says which it was ("filter applied" / "filter not applied"),
 * and tests/linux/boot-test.sh holds that against Tally's banner.
 * The loop runs in user mode, so :k tells them apart: applied, :k holds
 * only the kernel's share, less than 1/20 of the loop, and :u the loop;
 * not applied, :k holds the loop too (at least 1/20 of its instructions:
 * cycles count host ticks without -icount, which vary by 2x between runs;
 * with -icount both instructions counts hold at least the loop). :u = 0
 * is a lie.
 */
/*
 * tally.filters=exact (a hart that filters, under -icount): the filter
 * applied, instructions:u (inst_u) within 1% of the loop, and cycles:u +
 * cycles:k within 5% of the unfiltered cycles of the same workload.
 */
static int filters_exact(int applied, double inst_u, double cyc_u, double cyc_k,
			 const char *work)
{
	double want = 2.0 * LOOP_N, cyc;

	if (!applied)
		return fail("tally.filters=exact: the hart filters by mode, yet "
			    "every mode was counted");
	if (inst_u < want || inst_u > want * 1.01)
		return fail("instructions:u %.0f for a loop of %.0f: off by %+.2f%% "
			    "(at most 1%%)", inst_u, want, 100.0 * (inst_u - want) / want);
	if (perf_stat("", "cycles", work) || counted("cycles", NULL, &cyc))
		return -1;
	note("cycles %.0f, :u + :k %.0f (%+.2f%%)", cyc, cyc_u + cyc_k,
	     100.0 * (cyc_u + cyc_k - cyc) / cyc);
	if (!within(cyc_u + cyc_k, cyc, 0.05))
		return fail("cycles:u %.0f + cycles:k %.0f = %.0f, cycles %.0f: "
			    "more than 5%% apart", cyc_u, cyc_k, cyc_u + cyc_k, cyc);
	return 0;
}

static int check_mode_cycles_instructions(void)
{
	static const char *const events[] = { "cycles", "instructions" };
	double u, k, want = 2.0 * LOOP_N, cyc_u = 0, cyc_k = 0;
	char work[64], ev_u[32], ev_k[32];
	int e, ru, rk, applied = 0, icount = !strcmp(opt.perf, "icount");

	snprintf(work, sizeof(work), "loop %lu", LOOP_N);
	for (e = 0; e < ARRAY_SIZE(events); e++) {
		int exact = icount && !strcmp(events[e], "instructions");

		snprintf(ev_u, sizeof(ev_u), "%s:u", events[e]);
		snprintf(ev_k, sizeof(ev_k), "%s:k", events[e]);
		/* One run each: QEMU counts an event on one counter only. */
		if (perf_stat("", ev_u, work))
			return -1;
		ru = stat_value(ev_u, NULL, &u);
		if (perf_stat("", ev_k, work))
			return -1;
		rk = stat_value(ev_k, NULL, &k);
		if (ru == VAL_NOT_SUPPORTED && rk == VAL_NOT_SUPPORTED &&
		    kernel_refuses_mode_filters())
			return skip("%s and %s <not supported> by the kernel itself: "
				    "without Sscofpmf Linux refuses every mode filter "
				    "(PERF_PMU_CAP_NO_EXCLUDE) before the firmware is asked",
				    ev_u, ev_k);
		if (ru != VAL_OK || rk != VAL_OK)
			return fail("%s %s, %s %s: both must count (the filter "
				    "flags are hints)", ev_u, val_names[ru],
				    ev_k, val_names[rk]);
		note("%s %.0f, %s %.0f", ev_u, u, ev_k, k);
		if (e == 0) {
			cyc_u = u;
			cyc_k = k;
		}
		if (u == 0)
			return fail("%s = 0 for a user-mode loop of %.0f "
				    "instructions (%s = %.0f)", ev_u, want, ev_k, k);
		if (k < want / 20) {
			applied |= 1 << e;
			if (u < want / 20 ||
			    (exact && (u < want || u > want + LOOP_OVERHEAD_MAX)))
				return fail("%s = %.0f for a loop of %.0f", ev_u, u, want);
			continue;
		}
		if (u < want / 20 || (exact && (u < want || k < want)))
			return fail("%s = %.0f, %s = %.0f: the filter is not "
				    "applied, yet they do not hold the %.0f-"
				    "instruction loop", ev_u, u, ev_k, k, want);
	}
	if (applied == 3)
		note("filter applied");
	else if (!applied)
		note("filter not applied (every mode counted)");
	else
		return fail("the filter applies to %s only: %s", events[applied - 1],
			    check_note);
	if (opt.filters_exact)
		return filters_exact(applied == 3, u, cyc_u, cyc_k, work);
	return 0;
}

/*
 * Whether the hart filters the dTLB events by mode, measured once on the
 * store workload (PAGES fresh pages): dTLB-store-misses :u, :k and
 * unfiltered, in separate runs (QEMU counts an event on one counter only).
 * Applied, :u + :k make the unfiltered count. Not applied, :u and :k each
 * hold all of it: a hart without Sscofpmf under a kernel that offers
 * filters anyway (Linux's T-Head erratum, keyed on mvendorid/marchid/mimpid
 * alone, on QEMU 10.0's thead-c906), where the firmware counts every mode
 * as the spec's hints allow and its banner says "PMU mode filters : none".
 */
enum { TLB_UNMEASURED, TLB_FILTERED, TLB_EVERY_MODE };
static struct {
	int state;
	double u, k, all;
} tlb_modes;

static int measure_tlb_modes(void)
{
	char work[64];

	if (tlb_modes.state != TLB_UNMEASURED)
		return 0;
	snprintf(work, sizeof(work), "store-pages %lu", PAGES);
	if (perf_stat("", "dTLB-store-misses:u", work) ||
	    counted("dTLB-store-misses:u", NULL, &tlb_modes.u) ||
	    perf_stat("", "dTLB-store-misses:k", work) ||
	    counted("dTLB-store-misses:k", NULL, &tlb_modes.k) ||
	    perf_stat("", "dTLB-store-misses", work) ||
	    counted("dTLB-store-misses", NULL, &tlb_modes.all))
		return -1;
	tlb_modes.state = within(tlb_modes.u, tlb_modes.all, 0.1) &&
			  within(tlb_modes.k, tlb_modes.all, 0.1) ?
			  TLB_EVERY_MODE : TLB_FILTERED;
	return 0;
}

/* The :u checks of the TLB events skip on a hart that counts every mode. */
#define SKIP_TLB_EVERY_MODE() \
	do { \
		if (measure_tlb_modes()) \
			return -1; \
		if (tlb_modes.state == TLB_EVERY_MODE) \
			return skip("the hart counts dTLB events in every mode " \
				    "(measured: dTLB-store-misses :u %.0f, :k %.0f, " \
				    "unfiltered %.0f; perf-mode-tlb holds it " \
				    "against the banner)", tlb_modes.u, \
				    tlb_modes.k, tlb_modes.all); \
	} while (0)

/* One dTLB store miss per fresh populated page, counted in user mode. */
static int check_dtlb_store(void)
{
	double v;

	SKIP_NO_SSCOFPMF();
	SKIP_TLB_EVERY_MODE();

	v = tlb_modes.u;
	note("dTLB-store-misses:u %.0f for %lu pages", v, PAGES);
	if (!within(v, PAGES, 0.05))
		return fail("dTLB-store-misses:u = %.0f for %lu pages stored "
			    "(allowed 5%%)", v, PAGES);
	return 0;
}

/*
 * Loads: one user-mode dTLB miss per page. The kernel's own misses are
 * many more (QEMU 7.2 empties its whole TLB on every sfence.vma, and Linux
 * issues one per page it maps), so the total only has to be larger.
 * Instruction fetches miss the iTLB too.
 */
static int check_tlb_loads(void)
{
	double u, all, itlb;
	char work[64];

	SKIP_NO_SSCOFPMF();
	SKIP_TLB_EVERY_MODE();

	snprintf(work, sizeof(work), "load-pages %lu", PAGES);
	if (perf_stat("", "dTLB-load-misses:u", work) ||
	    counted("dTLB-load-misses:u", NULL, &u) ||
	    perf_stat("", "dTLB-load-misses,iTLB-load-misses", work) ||
	    counted("dTLB-load-misses", NULL, &all) ||
	    counted("iTLB-load-misses", NULL, &itlb))
		return -1;
	note("dTLB-load-misses:u %.0f (all modes %.0f), iTLB-load-misses %.0f "
	     "for %lu pages", u, all, itlb, PAGES);
	if (!within(u, PAGES, 0.05))
		return fail("dTLB-load-misses:u = %.0f for %lu pages loaded "
			    "(allowed 5%%)", u, PAGES);
	if (all < u)
		return fail("dTLB-load-misses = %.0f, less than its user part "
			    "%.0f", all, u);
	if (itlb < 1)
		return fail("iTLB-load-misses = %.0f", itlb);
	return 0;
}

/*
 * Mode filtering of the TLB events (QEMU honours the inhibit bits there):
 * - storing to PAGES pages: :u + :k of separate runs add up to the
 *   unfiltered count (an ignored UINH or SINH counts a mode twice);
 * - the kernel reading PAGES user pages (write(2)): :k has them all, :u
 *   almost nothing (an ignored SINH puts the kernel's misses into :u).
 * Separate runs because QEMU counts an event on one counter only.
 * On a hart that counts every mode (measure_tlb_modes) :u and :k each
 * hold the whole count, and the note says "filter not applied", which
 * boot-test.sh and tests/debian/boot.sh hold against Tally's banner.
 */
static int check_mode_tlb(void)
{
	double u, k, all, ku, kk;
	char work[64];

	SKIP_NO_SSCOFPMF();
	if (measure_tlb_modes())
		return -1;
	u = tlb_modes.u, k = tlb_modes.k, all = tlb_modes.all;
	snprintf(work, sizeof(work), "kload-pages %lu", PAGES);
	if (perf_stat("", "dTLB-load-misses:u", work) ||
	    counted("dTLB-load-misses:u", NULL, &ku) ||
	    perf_stat("", "dTLB-load-misses:k", work) ||
	    counted("dTLB-load-misses:k", NULL, &kk))
		return -1;
	note("store-pages: dTLB-store-misses :u %.0f + :k %.0f = %.0f, "
	     "unfiltered %.0f", u, k, u + k, all);
	note("kload-pages: dTLB-load-misses :u %.0f, :k %.0f", ku, kk);
	if (kk < PAGES)
		return fail("kload-pages: dTLB-load-misses:k = %.0f, but the "
			    "kernel read %lu user pages", kk, PAGES);
	if (tlb_modes.state == TLB_EVERY_MODE) {
		if (u < PAGES || ku < PAGES)
			return fail("every mode counted, yet :u holds less than "
				    "the %lu pages (store :u %.0f, kload :u %.0f)",
				    PAGES, u, ku);
		note("filter not applied (every mode counted)");
		return 0;
	}
	if (!within(u, PAGES, 0.05))
		return fail("store-pages: dTLB-store-misses:u = %.0f for %lu "
			    "pages", u, PAGES);
	if (k < 1)
		return fail("store-pages: dTLB-store-misses:k = %.0f, but the "
			    "kernel mapped %lu pages", k, PAGES);
	if (!within(u + k, all, 0.1))
		return fail("store-pages: dTLB-store-misses :u %.0f + :k %.0f = "
			    "%.0f, but unfiltered %.0f: a mode is counted twice "
			    "or not at all", u, k, u + k, all);
	if (ku > PAGES / 10)
		return fail("kload-pages: dTLB-load-misses:u = %.0f (:k %.0f) "
			    "while user mode touched none of the %lu pages: "
			    "the kernel's misses leak into :u", ku, kk, PAGES);
	note("filter applied");
	return 0;
}

/* Raw configs of SBI firmware events (Linux 6.1: bit 63 + event code). */
#define FW(code) "r80000000000000" #code
#define FW_SET_TIMER FW(05)
#define FW_IPI_SENT FW(06)
#define FW_IPI_RECEIVED FW(07)
#define FW_SFENCE_VMA_SENT FW(0a)
#define FW_SFENCE_VMA_RECEIVED FW(0b)
#define FW_SFENCE_VMA_ASID_SENT FW(0c)
#define FW_SFENCE_VMA_ASID_RECEIVED FW(0d)
#define FW_TALLY_ECALL "r8000000000000100"
#define FW_TALLY_TRAP "r8000000000000101"

/* SBI set_timer calls while the system sleeps for a second. */
static int check_fw_set_timer(void)
{
	double v;

	if (kernel_uses_sstc())
		return skip("the kernel uses Sstc (stimecmp), not SBI set_timer; "
			    "needs -cpu ...,sstc=false");
	if (perf_stat("-a", FW_SET_TIMER, "sleep 1") ||
	    counted(FW_SET_TIMER, NULL, &v))
		return -1;
	note("SET_TIMER %.0f in 1 s on %d cpus", v, sysfs_online_cpus());
	/* A periodic tick (HZ=250) reprograms the timer on every CPU. */
	if (v < 100)
		return fail("SET_TIMER (" FW_SET_TIMER ") = %.0f during sleep 1 "
			    "system-wide, expected hundreds (HZ=250)", v);
	return 0;
}

/* IPIs sent and received system-wide agree (each send reaches one hart). */
/* ---- AIA ------------------------------------------------------------- */

static int aia_imsic(void)
{
	return !strcmp(opt.aia, "imsic");
}

/*
 * The /proc/interrupts row that mentions `what` ("ttyS0", "Function call
 * interrupts"): its counts summed over the CPUs, and what follows them
 * (chip, hwirq, type, name) in rest; -1 when there is no such row.
 */
static long irq_row(const char *what, char *rest, size_t rest_size)
{
	char *text = read_file("/proc/interrupts"), *line, *save, *p, *end;
	long sum = -1;

	if (rest_size)
		rest[0] = '\0';
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && sum < 0;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strstr(line, what) || !(p = strchr(line, ':')))
			continue;
		for (sum = 0, p++;; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
		while (*p == ' ')
			p++;
		snprintf(rest, rest_size, "%s", p);
	}
	free(text);
	return sum;
}

/*
 * With an IMSIC, Linux sends its IPIs (and so its remote fences) through
 * its own S-files, never through the SBI: the firmware must see none of
 * them, and the IMSIC's function-call IPIs must grow by at least `want`.
 */
static int ipis_bypass_firmware(const char *fw_sent, const char *work, long want)
{
	long before = irq_row("Function call interrupts", NULL, 0), after;
	double sent;

	if (perf_stat("-a", fw_sent, work) || counted(fw_sent, NULL, &sent))
		return -1;
	after = irq_row("Function call interrupts", NULL, 0);
	note("firmware %s %.0f, IMSIC function-call IPIs +%ld", fw_sent, sent,
	     after - before);
	if (sent != 0 || before < 0 || after - before < want)
		return fail("with an IMSIC the firmware counted %.0f (want 0) and "
			    "function-call IPIs grew by %ld (want >= %ld)", sent,
			    after - before, want);
	return 0;
}

static int check_fw_ipi(void)
{
	double sent, recv;

	if (aia_imsic())
		return ipis_bypass_firmware(FW_IPI_SENT, "pingpong 500", 100);
	if (perf_stat("-a", FW_IPI_SENT "," FW_IPI_RECEIVED, "pingpong 500") ||
	    counted(FW_IPI_SENT, NULL, &sent) ||
	    counted(FW_IPI_RECEIVED, NULL, &recv))
		return -1;
	note("IPI_SENT %.0f, IPI_RECEIVED %.0f", sent, recv);
	if (sent < 100 || recv < 100)
		return fail("IPI_SENT = %.0f, IPI_RECEIVED = %.0f for 500 "
			    "cross-CPU wake-ups", sent, recv);
	if (!within(recv, sent, 0.1))
		return fail("IPI_RECEIVED = %.0f does not match IPI_SENT = %.0f",
			    recv, sent);
	return 0;
}

/*
 * Remote sfence.vma: work munmap 1000 unmaps from CPU0 while its threads
 * are parked on the other CPUs, so Linux asks the firmware 1000+ times to
 * fence all CPUs (with the ASID: Linux 6.1 uses ASIDs on QEMU). Every
 * other CPU must receive each request; the sender's count is per call
 * (OpenSBI) or per target hart (Tally), so it must only reach 1000.
 */
static int check_fw_sfence(void)
{
	double s = 0, r, v, min_recv = -1;
	int cpu, n = sysfs_online_cpus();
	char name[16];

	if (n < 2)
		return skip("only %d cpu online", n);
	if (aia_imsic())
		return ipis_bypass_firmware(FW_SFENCE_VMA_ASID_SENT, "munmap 1000", 1000);
	if (perf_stat("-a -A", FW_SFENCE_VMA_SENT "," FW_SFENCE_VMA_RECEIVED ","
		      FW_SFENCE_VMA_ASID_SENT "," FW_SFENCE_VMA_ASID_RECEIVED,
		      "munmap 1000"))
		return -1;
	for (cpu = 0; cpu < n; cpu++) {
		snprintf(name, sizeof(name), "CPU%d", cpu);
		if (counted(FW_SFENCE_VMA_SENT, name, &v))
			return -1;
		s += v;
		if (counted(FW_SFENCE_VMA_ASID_SENT, name, &v))
			return -1;
		s += v;
		if (counted(FW_SFENCE_VMA_RECEIVED, name, &r) ||
		    counted(FW_SFENCE_VMA_ASID_RECEIVED, name, &v))
			return -1;
		r += v;
		note("CPU%d received %.0f", cpu, r);
		if (cpu > 0 && (min_recv < 0 || r < min_recv))
			min_recv = r;
	}
	note("sent %.0f in all (with and without ASID)", s);
	if (s < 1000)
		return fail("SFENCE_VMA(_ASID)_SENT = %.0f for 1000 munmaps with "
			    "threads parked on the other CPUs", s);
	if (min_recv < 1000)
		return fail("a CPU other than the sender received only %.0f "
			    "remote sfence.vma requests for 1000 munmaps", min_recv);
	return 0;
}

/*
 * Tally's own firmware events: 256 = SBI calls handled, 257 = M-mode traps
 * other than ecalls. Every SBI set_timer is an ecall; IPIs are M-mode
 * software interrupts.
 */
static int check_fw_tally(void)
{
	double ecalls, traps, timers, ipis;

	/* 6.1 turns firmware codes >= 22 into EINVAL (contrib/linux/6.1) */
	if (kernel_version() < 612)
		return skip("Linux %d.%d refuses firmware event codes above 21 "
			    "(mainline takes any since f0c9363db2dd)",
			    kernel_version() / 100, kernel_version() % 100);

	if (perf_stat("-a", FW_TALLY_ECALL "," FW_TALLY_TRAP "," FW_SET_TIMER
		      "," FW_IPI_RECEIVED, "pingpong 300") ||
	    counted(FW_TALLY_ECALL, NULL, &ecalls) ||
	    counted(FW_TALLY_TRAP, NULL, &traps) ||
	    counted(FW_SET_TIMER, NULL, &timers) ||
	    counted(FW_IPI_RECEIVED, NULL, &ipis))
		return -1;
	note("ecalls (256) %.0f, traps (257) %.0f, SET_TIMER %.0f, "
	     "IPI_RECEIVED %.0f", ecalls, traps, timers, ipis);
	if (ecalls < 1 || traps < 1)
		return fail("event 256 (SBI calls) = %.0f, 257 (M-mode traps) = "
			    "%.0f during 300 cross-CPU wake-ups", ecalls, traps);
	if (ecalls < timers)
		return fail("event 256 (SBI calls) = %.0f is less than the "
			    "SET_TIMER calls (%.0f) among them", ecalls, timers);
	if (traps < ipis)
		return fail("event 257 (M-mode traps) = %.0f is less than the "
			    "IPIs received (%.0f), each an M-mode software "
			    "interrupt", traps, ipis);
	return 0;
}

/*
 * The samples of the last perf record (into DATA).  perf up to 6.x says
 * "... wrote 0.004 MB /tmp/perf.data (101 samples) ]"; perf 7.x leaves
 * the (...) out (its build-id mmap by default means no pass over the
 * samples), and so does 6.x when there are none: then perf report --stats
 * counts them ("SAMPLE events: 68"; no such line if 0).
 */
static int record_samples(long *samples)
{
	char *text = read_file(OUT), *p;

	*samples = -1;
	if (text && (p = strstr(text, "perf record: Captured and wrote"))) {
		p[strcspn(p, "\n")] = '\0';
		p = strchr(p, '(');
		if (p)
			*samples = strtol(p + 1, NULL, 10);
	}
	free(text);
	if (*samples >= 0)
		return 0;
	if (run(OUT, 120, "perf report -i " DATA " --stats"))
		return fail("perf report --stats: %s", out_excerpt());
	text = read_file(OUT);
	if (text && strstr(text, "TOTAL events:")) {
		p = strstr(text, "SAMPLE events:");
		*samples = p ? strtol(p + 14, NULL, 10) : 0;
	}
	free(text);
	return *samples < 0 ? fail("no sample count from perf record or perf "
				   "report --stats: %s", out_excerpt()) : 0;
}

/* perf report --stdio with its colour escapes removed, into OUT. */
static int perf_report(const char *sort)
{
	int status = run(OUT, 120, "perf report -i " DATA " --stdio --sort %s", sort);
	char *text, *from, *to;
	FILE *f;

	if (status)
		return fail("perf report: exit status %d: %s", status, out_excerpt());
	text = read_file(OUT);
	if (!text)
		return fail("perf report: no output");
	for (from = to = text; *from; from++) {
		if (*from == '\033') {
			from += strcspn(from, "m");
			if (!*from)
				break;
			continue;
		}
		*to++ = *from;
	}
	*to = '\0';
	f = fopen(OUT, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(text);
	return 0;
}

/*
 * Percentages of the samples in the last perf report --sort comm,dso on
 * command work, and on command work in its own binary.
 */
static void report_shares(double *comm_pct, double *dso_pct)
{
	char *text = read_file(OUT), *line, *save;

	*comm_pct = *dso_pct = 0;
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		double pct;
		char comm[64], dso[128];

		if (sscanf(line, " %lf%% %63s %127s", &pct, comm, dso) == 3 &&
		    !strcmp(comm, "work")) {
			*comm_pct += pct;
			if (!strcmp(dso, "work"))
				*dso_pct += pct;
		}
	}
	free(text);
}

/* perf stat then perf record -c 100 of one event on load-pages. */
static int stat_and_record(const char *event, double *misses, long *samples,
			   double *comm_pct, double *dso_pct)
{
	char work[64];
	int status;

	snprintf(work, sizeof(work), "load-pages %lu", PAGES);
	if (perf_stat("", event, work) || counted(event, NULL, misses))
		return -1;
	status = run(OUT, 120, "perf record -N -o " DATA " -e %s -c 100 -- work %s",
		     event, work);
	if (status)
		return fail("perf record -e %s: exit status %d: %s", event,
			    status, out_excerpt());
	if (record_samples(samples) || perf_report("comm,dso"))
		return -1;
	report_shares(comm_pct, dso_pct);
	return 0;
}

/*
 * perf record -c 100 on the TLB event gives one sample per 100 misses of
 * the same workload's perf stat count, and perf report puts them on the
 * workload.
 * - dTLB-load-misses:u: exactly the page loads, all in work's own code;
 *   the samples must be within 10% of misses / 100.
 * - dTLB-load-misses (all modes): taking a sample costs TLB misses of its
 *   own that perf stat never sees: Linux's overflow handler (measured about
 *   8 per sample with OpenSBI 1.1 and with Tally, so +8% at -c 100), plus
 *   the firmware's if it counts M-mode (the SBI calls stop and start the
 *   counter on every sample). So at most 10% fewer and 15% more; with an
 *   AIA interrupt controller (tally.aia=), whose interrupt path reads it
 *   through more pages, 30% more: about 21 per sample with an APLIC in
 *   direct mode (Linux 6.12 built here) and 20.4 with an IMSIC (Debian's
 *   7.2 on QEMU 11.1's rva23s64).
 */
static int check_record_tlb(void)
{
	double mu, m, comm_u, dso_u, comm, dso, extra, over;
	long su, s;

	SKIP_NO_SSCOFPMF();

	if (stat_and_record("dTLB-load-misses:u", &mu, &su, &comm_u, &dso_u) ||
	    stat_and_record("dTLB-load-misses", &m, &s, &comm, &dso))
		return -1;
	extra = s > 0 ? (s * 100.0 - m) / s : 0;
	note(":u: %ld samples for %.0f misses, %.1f%% in work's code", su, mu,
	     dso_u);
	note("all modes: %ld samples for %.0f misses (%+.1f%%, %.1f extra "
	     "misses per sample), %.1f%% in command work", s, m,
	     100.0 * (s * 100.0 - m) / m, extra, comm);
	if (!within((double)su, mu / 100, 0.1))
		return fail("dTLB-load-misses:u -c 100: %ld samples, expected "
			    "%.0f (%.0f misses / 100, allowed 10%%)", su,
			    mu / 100, mu);
	if (dso_u < 90)
		return fail("dTLB-load-misses:u: perf report puts %.1f%% of the "
			    "samples on work's own code, expected all", dso_u);
	over = opt.aia[0] ? 1.3 : 1.15;
	if (s < 0.9 * m / 100 || s > over * m / 100)
		return fail("dTLB-load-misses -c 100: %ld samples, expected "
			    "%.0f (%.0f misses / 100, allowed -10%%..+%.0f%%%s)",
			    s, m / 100, m, 100 * (over - 1),
			    opt.aia[0] ? ", an AIA machine" : "");
	if (comm < 90)
		return fail("dTLB-load-misses: perf report puts %.1f%% of the "
			    "samples on command work, expected all", comm);
	return 0;
}

/*
 * Cycle sampling: QEMU 7.2 raises cycle overflow from a host timer, late
 * but surely; every one of 10 runs must give samples.  (Empty runs were
 * once put down to a late timer and made again; the cause was the
 * firmware's: QEMU 7.2 arms that timer on the mhpmcounter write and drops
 * the overflow when it expires on an inhibited counter, which a vCPU held
 * up between counter_start's write and its un-inhibit made happen.
 * lib/pmu writes a sampling counter again once it runs, pmu_hw.c.)
 *
 * No warm-up: a counting cycles/instructions start (perf stat's, and the
 * cycles:u probe perf record makes first) leaves QEMU's irq_overflow_left
 * on its counter, which swallows that counter's next overflow and re-arms
 * it as much later as the machine has run, so a recording on the same
 * counter and CPU got no sample.  This check once made a short sampling
 * run on every CPU first to use it up; the firmware now flushes it at the
 * sampling start (lib/pmu/pmu_hw.c, PMU_HART_QUIRK_FAR_START_SWALLOWS), and
 * the checks before this one (perf stat of cycles, with :u and :k) leave
 * it behind on purpose.
 */
/*
 * Floors, not "at least one": QEMU 7.2's timer comes late (it assumes
 * 1 GHz, docs/perf.md), so a 100 M-instruction loop at -c 1000000 gives
 * tens of samples, fewer on a loaded host.  Measured with the fix above,
 * Linux 6.12 and 6.1, host load 3 to 16: fewest 14 to 43 in a run, 473 to
 * 636 in 10 runs.  A firmware that loses overflows falls far below both.
 */
#define RECORD_CYCLES_FLOOR_RUN	5
#define RECORD_CYCLES_FLOOR_TOTAL	150

static int check_record_cycles(void)
{
	long samples, total = 0, min = -1;
	int r, status, empty = 0;

	SKIP_NO_SSCOFPMF();

	for (r = 0; r < 10; r++) {
		status = run(OUT, 120, "perf record -N -o " DATA
			     " -e cycles -c 1000000 -- work loop %lu", LOOP_N);
		if (status)
			return fail("perf record (run %d): exit status %d: %s",
				    r + 1, status, out_excerpt());
		if (record_samples(&samples))
			return -1;
		total += samples;
		if (min < 0 || samples < min)
			min = samples;
		empty += samples == 0;
	}
	note("10 runs: %ld samples in all, fewest %ld", total, min);
	if (empty)
		return fail("%d of 10 runs of perf record -e cycles -c 1000000 gave "
			    "no sample (%ld samples in all)", empty, total);
	if (min < RECORD_CYCLES_FLOOR_RUN || total < RECORD_CYCLES_FLOOR_TOTAL)
		return fail("10 runs of perf record -e cycles -c 1000000: fewest %ld "
			    "samples in a run (floor %d), %ld in all (floor %d)", min,
			    RECORD_CYCLES_FLOOR_RUN, total, RECORD_CYCLES_FLOOR_TOTAL);
	return 0;
}

/*
 * The workload's wall time and its process's CPU time (exec included): its
 * "work: time N us, cpu M us" line in OUT (WORK_TIME=1).
 */
static int work_us(long *us, long *cpu_us)
{
	char *text = read_file(OUT), *p;
	int found = text && (p = strstr(text, "work: time ")) &&
		    sscanf(p, "work: time %ld us, cpu %ld us", us, cpu_us) == 2;

	free(text);
	return found ? 0 : fail("no \"work: time N us, cpu M us\" line in: %s",
				out_excerpt());
}

/* Milliseconds since *t0 (CLOCK_MONOTONIC). */
static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * The sampling soak (tally.perf=record; tests/debian/record-soak.sh runs it
 * on each configuration and firmware, and compares firmwares): with no
 * warm-up (the perf stat of the dTLB baseline and perf record's own
 * cycles:u probe come first, as for any user; QEMU's overflow leftover is
 * the firmware's to flush, lib/pmu/pmu_hw.c), tally.record_runs= rounds of
 *   perf record -e cycles -c 1000000 -- work loop LOOP_N
 *   perf record -e dTLB-load-misses:u -c 100 -- work load-pages PAGES
 * or, with tally.record_exact=FLOOR (the soak's -icount leg), of
 *   perf record -e cycles -c 1000000 -- work loop LOOP_N
 *   perf record -e instructions -c 1000000 -- work loop LOOP_N
 * each run's samples on a line of its own:
 *   TALLY-RECORD: cycles|instructions|dtlb <run> <samples> <floor, expected
 *   or 0> <ms> ms
 * (cycles and instructions lines add the riscv-pmu interrupts Linux took
 * during the run, the loop's own wall time and its process's CPU time,
 * WORK_TIME's: without -icount QEMU raises a cycles overflow from a timer
 * of the host's time, so the samples follow the host's speed at that
 * moment: the soak shows them per millisecond of the process's CPU time
 * too, and compares firmwares in its -icount leg)
 * No retry. Fails on an empty cycles run, a cycles run under
 * RECORD_CYCLES_FLOOR_RUN, or a dTLB run more than 10% from the misses
 * perf stat counts for the same workload (measured once before the runs:
 * QEMU raises that overflow exactly, one miss per page in user mode).
 * With tally.record_exact=FLOOR: fails on a cycles or instructions run
 * with fewer than FLOOR overflow interrupts or FLOOR - 1 samples
 * (RECORD_EXACT_PERIODS says why).
 */

/*
 * Under -icount shift=0 QEMU's cycle and instret counters both advance one
 * per instruction and its overflow timer runs on that count, so the loop's
 * own 2 * LOOP_N user instructions are RECORD_EXACT_PERIODS whole periods
 * of 1000000: a run whose overflows all arrive takes at least that many
 * riscv-pmu interrupts (exec and exit add a few more; QEMU 7.2's shared
 * timer adds early ones that carry no overflow). Linux makes a sample of
 * each, except when the interrupt comes after the task was switched out
 * (pmu_sbi_ovf_handler finds no counter in use and returns IRQ_NONE;
 * the event's count still has the period): one sample short, seen in
 * about one run in 100, on 1 hart and on 4, with interrupts to spare.
 * record-soak.sh passes the floor. Without -icount no such exact floor
 * exists: the timer follows the host's time. The exact leg records
 * instructions instead of dTLB misses because a dTLB record aborts QEMU
 * under -icount (docs/benchmarks.md).
 */
#define RECORD_EXACT_PERIODS	(2 * LOOP_N / 1000000)

/* One perf record of event at -c 1000000 over the loop, and its line. */
static int record_loop_run(const char *event, int r, long floor, long *samples,
			   long *irqs)
{
	struct timespec t0;
	long before, loop_us, cpu_us;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	before = irq_row("riscv-pmu", NULL, 0);
	if (run(OUT, 120, "WORK_TIME=1 perf record -N -o " DATA " -e %s "
		"-c 1000000 -- work loop %lu", event, LOOP_N) ||
	    work_us(&loop_us, &cpu_us) || record_samples(samples))
		return fail("perf record -e %s (run %d): %s", event, r,
			    out_excerpt());
	*irqs = irq_row("riscv-pmu", NULL, 0) - before;
	printf("TALLY-RECORD: %s %d %ld %ld %ld ms %ld irqs %ld us %ld us cpu\n",
	       event, r, *samples, floor, ms_since(&t0), *irqs, loop_us, cpu_us);
	return 0;
}

/*
 * tally.record_exact=FLOOR: cycles and instructions runs, each with at
 * least FLOOR overflow interrupts (none lost on the way to S-mode) and at
 * least FLOOR - 1 samples (Linux's switched-out case above).
 */
static int check_record_exact(void)
{
	static const char *const events[] = { "cycles", "instructions" };
	long samples, irqs, floor = opt.record_exact, fewest[2] = { -1, -1 };
	int r, e, low_irqs = 0, low_samples = 0, short_one = 0;

	for (r = 1; r <= opt.record_runs; r++)
		for (e = 0; e < 2; e++) {
			if (record_loop_run(events[e], r, floor, &samples, &irqs))
				return -1;
			low_irqs += irqs < floor;
			low_samples += samples < floor - 1;
			short_one += samples == floor - 1;
			if (fewest[e] < 0 || samples < fewest[e])
				fewest[e] = samples;
		}
	note("%d runs: fewest samples cycles %ld, instructions %ld (floor %ld; "
	     "the loop is %lu periods); %d runs one short with the interrupts "
	     "taken", opt.record_runs, fewest[0], fewest[1], floor,
	     RECORD_EXACT_PERIODS, short_one);
	if (low_irqs || low_samples)
		return fail("of %d runs: %d with fewer than %ld overflow interrupts, "
			    "%d with fewer than %ld samples", 2 * opt.record_runs,
			    low_irqs, floor, low_samples, floor - 1);
	return 0;
}

static int check_record_soak(void)
{
	long samples, irqs, min_cyc = -1, cyc_total = 0;
	int r, empty = 0, low = 0, tlb_off = 0;
	double misses, want;
	char work[64];
	struct timespec t0;

	SKIP_NO_SSCOFPMF();
	if (opt.record_exact >= 0)
		return check_record_exact();
	snprintf(work, sizeof(work), "load-pages %lu", PAGES);
	if (perf_stat("", "dTLB-load-misses:u", work) ||
	    counted("dTLB-load-misses:u", NULL, &misses))
		return -1;
	want = misses / 100;
	for (r = 1; r <= opt.record_runs; r++) {
		if (record_loop_run("cycles", r, 0, &samples, &irqs))
			return -1;
		cyc_total += samples;
		empty += samples == 0;
		low += samples < RECORD_CYCLES_FLOOR_RUN;
		if (min_cyc < 0 || samples < min_cyc)
			min_cyc = samples;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (run(OUT, 120, "perf record -N -o " DATA " -e dTLB-load-misses:u "
			"-c 100 -- work %s", work) || record_samples(&samples))
			return fail("perf record -e dTLB-load-misses:u (run %d): %s",
				    r, out_excerpt());
		printf("TALLY-RECORD: dtlb %d %ld %.0f %ld ms\n", r, samples, want,
		       ms_since(&t0));
		tlb_off += !within((double)samples, want, 0.1);
	}
	note("%d runs: cycles %ld samples in all, fewest %ld, %d empty; "
	     "dTLB-load-misses:u %d of %d within 10%% of %.0f", opt.record_runs,
	     cyc_total, min_cyc, empty, opt.record_runs - tlb_off,
	     opt.record_runs, want);
	if (empty || low)
		return fail("cycles: %d of %d runs empty, %d under %d samples",
			    empty, opt.record_runs, low, RECORD_CYCLES_FLOOR_RUN);
	if (tlb_off)
		return fail("dTLB-load-misses:u -c 100: %d of %d runs more than 10%% "
			    "from %.0f samples", tlb_off, opt.record_runs, want);
	return 0;
}

/* CPUs 1..n-1 offline, then online again (SBI HSM hart_stop, hart_start). */
static int hotplug_all(int n)
{
	int cpu, during;

	for (cpu = 1; cpu < n; cpu++)
		if (set_cpu_online(cpu, 0))
			return -1;
	during = sysfs_online_cpus();
	for (cpu = 1; cpu < n; cpu++)
		if (set_cpu_online(cpu, 1))
			return -1;
	if (during != 1 || sysfs_online_cpus() != n)
		return fail("online cpus: %d -> %d -> %d", n, during,
			    sysfs_online_cpus());
	return 0;
}

/*
 * CPUs 1..n-1 go offline and online again, twice in a row (the second
 * time before perf used them: Linux 6.10+ then disables a snapshot page
 * it never set again), then a system-wide perf stat must count sanely on
 * every CPU, and sampling on a hot-plugged CPU (every stop a
 * TAKE_SNAPSHOT, every overflow an INIT_SNAPSHOT restart there) must give
 * one sample per 100 misses. perf-driver-quiet, after it, checks that the
 * driver never complained ("Stopping counter idx N failed with error
 * -524" is the symptom of a lost snapshot page).
 */
#define HOTPLUG_PAGES 5000UL
/*
 * Every one of the n online CPUs counts sanely: perf stat -a -A of cycles
 * and dTLB-load-misses while a thread pinned to each CPU loads 2000 pages.
 * 2^63 or 0 is what a lost snapshot page reads as.  after: the words of
 * the failure message ("after hotplug", "round 3").  quiet: no notes.
 * A hart without programmable counters (tally.pmu_num=0, which
 * perf-pmu-probe checks against Linux's count) has cycles alone.
 */
static int cpus_count_sanely(int n, const char *after, int quiet)
{
	int tlb = opt.pmu_num > 0;
	double cyc, dtlb = 2000;
	char name[16];

	if (perf_stat("-a -A", tlb ? "cycles,dTLB-load-misses" : "cycles", "all-cpus 2000"))
		return -1;
	for (int cpu = 0; cpu < n; cpu++) {
		snprintf(name, sizeof(name), "CPU%d", cpu);
		if (counted("cycles", name, &cyc) ||
		    (tlb && counted("dTLB-load-misses", name, &dtlb)))
			return -1;
		if (!quiet)
			note("CPU%d cycles %.0f dTLB-load-misses %.0f", cpu, cyc, dtlb);
		if (cyc < 1 || cyc > 1e15 || dtlb < 2000 || dtlb > 1e7)
			return fail("%s, CPU%d counts cycles %.0f and "
				    "dTLB-load-misses %.0f (its thread loads 2000 "
				    "pages)", after, cpu, cyc, dtlb);
	}
	return 0;
}

static int check_hotplug_perf(void)
{
	int n = sysfs_online_cpus(), cpu;
	double mu;
	long samples;
	char name[16];

	SKIP_NO_SSCOFPMF();

	if (n < 2)
		return skip("only %d cpu online", n);
	if (hotplug_all(n) || hotplug_all(n))
		return -1;
	if (cpus_count_sanely(n, "after hotplug", 0))
		return -1;
	cpu = n - 1;
	snprintf(name, sizeof(name), "load-pages %lu", HOTPLUG_PAGES);
	if (run(OUT, 120, "WORK_CPU=%d perf stat -x, -o " STAT " -e "
		"dTLB-load-misses:u -- work %s", cpu, name) ||
	    counted("dTLB-load-misses:u", NULL, &mu))
		return fail("perf stat -e dTLB-load-misses:u on CPU%d after "
			    "hotplug: %s", cpu, out_excerpt());
	if (run(OUT, 120, "WORK_CPU=%d perf record -N -o " DATA " -e "
		"dTLB-load-misses:u -c 100 -- work %s", cpu, name) ||
	    record_samples(&samples))
		return fail("perf record on CPU%d after hotplug: %s", cpu,
			    out_excerpt());
	note("CPU%d after hotplug: %ld samples for %.0f user misses", cpu,
	     samples, mu);
	if (!within((double)samples, mu / 100, 0.1))
		return fail("perf record -e dTLB-load-misses:u -c 100 on CPU%d "
			    "after hotplug: %ld samples, expected %.0f (10%%)",
			    cpu, samples, mu / 100);
	return 0;
}


/*
 * Linux 6.10 and later use the SBI PMU snapshot (FID 7) when the firmware
 * reports SBI >= 2.0: the driver says "SBI PMU snapshot detected" once
 * snapshot_set_shmem succeeded on the boot CPU. Tally reports SBI 3.0 and
 * has the snapshot, so on such a kernel the message must be there (on a
 * firmware without it, the driver falls back to plain SBI calls).
 */
static int check_snapshot(void)
{
	char *log;
	int found, kver = kernel_version();

	if (kver < 610)
		return skip("Linux %d.%d never uses the PMU snapshot", kver / 100,
			    kver % 100);
	log = dmesg();
	if (!log)
		return fail("cannot read the kernel log: %s", strerror(errno));
	found = strstr(log, "SBI PMU snapshot detected") != NULL;
	free(log);
	if (!found)
		return fail("no \"SBI PMU snapshot detected\" in dmesg: the driver "
			    "does not use the firmware's snapshot");
	note("the driver uses the firmware's snapshot page");
	return 0;
}

/*
 * All values of `event` in the CSV of the last perf stat (one per time
 * it was given to -e), with the percentage of the time it ran.
 */
static int stat_all(const char *event, double *value, double *running,
		    int max)
{
	char *text = read_file(STAT), *line, *save;
	int n = 0;

	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char *field[8] = { 0 }, *p = line, *end;
		int k = 0;

		if (line[0] == '#' || !line[0])
			continue;
		while (k < 8) {
			field[k++] = p;
			p = strchr(p, ',');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (k < 6 || !same_event(field[2], event))
			continue;
		value[n] = strtod(field[0], &end);
		if (end == field[0] || *end)
			value[n] = -1;	/* <not counted> and such */
		running[n] = strtod(field[4], NULL);
		n++;
	}
	free(text);
	return n;
}

/*
 * More events than counters: QEMU 7.2 counts an event on one programmable
 * counter only (the firmware knows), so MUX_COPIES copies of the same TLB
 * event take turns on it. The kernel rotates them every tick (each
 * rotation stops one with TAKE_SNAPSHOT and RESET, configures and starts
 * the next); every copy must be scheduled part of the time, and as the
 * turns change in the kernel, the raw (--no-scale) user-mode counts of the
 * copies must add up to the exact count of the pages.
 */
#define MUX_COPIES 4
#define MUX_PAGES 20000UL
static int check_multiplex(void)
{
	double value[MUX_COPIES + 1], running[MUX_COPIES + 1], sum = 0;
	char events[256] = "", work[32];
	int i, n, warned;

	SKIP_NO_SSCOFPMF();
	SKIP_TLB_EVERY_MODE();

	for (i = 0; i < MUX_COPIES; i++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events),
			 "%sdTLB-load-misses:u", i ? "," : "");
	snprintf(work, sizeof(work), "load-pages %lu", MUX_PAGES);
	warned = kernel_warnings_at("ctx_sched_out");
	if (perf_stat("--no-scale", events, work))
		return -1;
	warned = kernel_warnings_at("ctx_sched_out") - warned;
	n = stat_all("dTLB-load-misses:u", value, running, MUX_COPIES + 1);
	if (n != MUX_COPIES)
		return fail("%d values of dTLB-load-misses:u for %d copies: %s", n,
			    MUX_COPIES, out_excerpt());
	for (i = 0; i < n; i++) {
		note("copy %d: %.0f, ran %.1f%%", i + 1, value[i], running[i]);
		if (value[i] < 0 || running[i] <= 0)
			return fail("copy %d of dTLB-load-misses:u was never "
				    "scheduled", i + 1);
		if (running[i] > 99.9)
			return fail("copy %d of dTLB-load-misses:u ran all the time: "
				    "no multiplexing", i + 1);
		sum += value[i];
	}
	note("%.0f in all for %lu pages", sum, MUX_PAGES);
	if (!within(sum, MUX_PAGES, 0.05) && warned)
		return skip("the copies counted %.0f in all for %lu pages, but "
			    "Linux's perf core warned in ctx_sched_out during the "
			    "run (its task context no longer the CPU's: a kernel "
			    "race in perf_event_enable_on_exec, seen on Linux 6.1), "
			    "so the counts say nothing of the firmware", sum, MUX_PAGES);
	if (!within(sum, MUX_PAGES, 0.05))
		return fail("the copies counted %.0f in all, expected %lu (5%%)",
			    sum, MUX_PAGES);
	return 0;
}

/*
 * At the end: the driver never complained about an SBI call. Linux prints
 * "Starting/Stopping counter idx N failed with error E" when
 * counter_start/counter_stop fails with anything but ALREADY_STARTED /
 * ALREADY_STOPPED (such as NO_SHMEM on a CPU whose snapshot page is
 * gone), and "pmu snapshot setup failed" when snapshot_set_shmem fails.
 */
static int check_driver_quiet(void)
{
	char *log = dmesg(), *p, line[160];
	int n = 0;

	if (!log)
		return fail("cannot read the kernel log: %s", strerror(errno));
	line[0] = '\0';
	for (p = strstr(log, "riscv-pmu-sbi: "); p;
	     p = strstr(p + 1, "riscv-pmu-sbi: ")) {
		size_t len = strcspn(p, "\n");

		if (!memmem(p, len, "failed", 6))
			continue;
		if (!n++)
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
	}
	free(log);
	if (n)
		return fail("%d driver errors in dmesg, first: %s", n, line);
	return 0;
}

/*
 * The interrupt controllers Linux found (tally.aia=): no complaint in the
 * log (Linux 6.12 says "already initialized ... error -114" when it is
 * given the M-level IMSIC too, "nobody cared" for an interrupt storm); the
 * console's interrupts arrive through S-mode's APLIC domain (MSI or direct
 * mode); with an IMSIC, Linux's IPIs go through it.  /proc/interrupts is
 * printed for the comparison with other firmware.
 */
static int check_aia(void)
{
	static const char *const complaints[] = { "already initialized", "failed to setup",
						  "nobody cared", "IMSIC global config not found" };
	const char *chip = aia_imsic() ? "APLIC-MSI" : "APLIC-DIRECT";
	const char *found = aia_imsic() ? "providing IPIs" : "interrupts directly connected";
	char *log = dmesg(), *irqs = read_file("/proc/interrupts"), *line, *save, rest[160];
	long uart = irq_row("ttyS0", rest, sizeof(rest)), ipis;
	int ret = 0;

	if (!log || !irqs)
		ret = fail("cannot read the kernel log or /proc/interrupts");
	for (unsigned int i = 0; !ret && i < sizeof(complaints) / sizeof(complaints[0]); i++)
		if (strstr(log, complaints[i]))
			ret = fail("the kernel log says \"%s\"", complaints[i]);
	if (!ret && !strstr(log, found))
		ret = fail("no \"%s\" in the kernel log", found);
	if (!ret && (uart <= 0 || !strstr(rest, chip)))
		ret = fail("ttyS0: %ld interrupts, through \"%s\" (want some, through %s)",
			   uart, rest, chip);
	ipis = irq_row("Function call interrupts", NULL, 0);
	if (!ret)
		note("ttyS0: %ld interrupts through %.*s; function-call IPIs %ld", uart,
		     (int)strcspn(rest, " "), rest, ipis);
	for (line = irqs ? strtok_r(irqs, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		printf("  /proc/interrupts: %s\n", line);
	free(log);
	free(irqs);
	return ret;
}

/*
 * tally.perf=soak: /soak/run.sh (tests/debian/soak-guest.sh, in the extra
 * initramfs of tests/debian/soak.sh) runs Debian's stress-ng for
 * tally.soak= seconds and prints its own SOAK lines on the console, which
 * soak.sh reads; it exits non-zero if stress-ng failed or a CPU stayed
 * offline. perf-after-hotplug and perf-driver-quiet run after it.
 */
static int check_soak(void)
{
	int status;

	if (access("/soak/run.sh", R_OK))
		return fail("no /soak/run.sh (tests/debian/soak.sh gives it)");
	status = run(NULL, opt.soak * 2 + 300, "sh /soak/run.sh %d", opt.soak);
	if (status)
		return fail("sh /soak/run.sh %d: exit status %d", opt.soak, status);
	return 0;
}

/* ---- the hotplug loop (tally.hotplug_loop=N) ----------------------------- */

/*
 * What a round may not leave in the kernel log: a user process killed by
 * a fault (riscv's "unhandled signal", e.g. a segfault in the vDSO), an
 * oops, a BUG or WARNING, a CPU that did not die or start, a counter the
 * PMU driver could not start or stop ("... failed with error N").
 */
static const char *const loop_bad_log[] = {
	"unhandled signal", "segfault", "Oops", "BUG:", "WARNING:",
	"didn't die", "failed to start", "failed to come online",
	"failed with error",
};

/*
 * Counted, not failed: Linux asks for the dying CPU's HSM state right
 * after that CPU said it is dead, before or while its hart_stop call
 * runs, and warns if the answer is STOP_PENDING (3). Harmless (hart_start
 * waits for STOPPED) and a matter of host scheduling under QEMU.
 */
#define LOOP_STOP_RACE "may not have stopped"

static char *loop_log_tail;	/* the kernel log of the last round */
static int loop_stop_races;	/* LOOP_STOP_RACE lines seen */

/*
 * The kernel log since the previous call (read and cleared: the loop runs
 * last, and hundreds of rounds would wrap the ring buffer); NULL if it
 * holds none of loop_bad_log, else the first bad line in `line`.
 */
static const char *loop_log_bad(char *line, size_t size)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n;
	const char *hit = NULL;
	char *p;

	free(loop_log_tail);
	loop_log_tail = malloc(len > 0 ? (size_t)len + 1 : 1);
	if (!loop_log_tail)
		return NULL;
	n = klogctl(4 /* SYSLOG_ACTION_READ_CLEAR */, loop_log_tail, len);
	loop_log_tail[n > 0 ? n : 0] = '\0';
	for (p = loop_log_tail; (p = strstr(p, LOOP_STOP_RACE)); p++)
		loop_stop_races++;
	for (int i = 0; i < ARRAY_SIZE(loop_bad_log) && !hit; i++) {
		p = strstr(loop_log_tail, loop_bad_log[i]);
		if (!p)
			continue;
		while (p > loop_log_tail && p[-1] != '\n')
			p--;
		snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
		hit = line;
	}
	return hit;
}

/* The last `lines` lines of the round's kernel log, on the console. */
static void loop_show_log_tail(int lines)
{
	char *p;

	if (!loop_log_tail)
		return;
	p = loop_log_tail + strlen(loop_log_tail);
	while (p > loop_log_tail && lines >= 0)
		if (*--p == '\n')
			lines--;
	printf("hotplug-loop: kernel log of the failed round (tail):\n%s\n",
	       p == loop_log_tail ? p : p + 1);
}

/* A command of the round: exit status 0 or fail() saying which signal. */
static int loop_run(int round, const char *cmd)
{
	int status = run(OUT, 120, "%s", cmd);

	if (status == 0)
		return 0;
	if (status > 128)
		return fail("round %d: %s: killed by signal %d (%s): %s", round,
			    cmd, status - 128, strsignal(status - 128), out_excerpt());
	return fail("round %d: %s: exit status %d: %s", round, cmd, status,
		    out_excerpt());
}

/*
 * The vDSO's clock under load: one child pinned to each CPU reads
 * CLOCK_MONOTONIC for `ms` milliseconds (a static glibc reads it through
 * the vDSO: rdtime, which traps to the firmware on sifive_u, and the
 * vDSO data page). A reader that finds the kernel halfway through a
 * timekeeping update waits in the vDSO's cpu_relax(): in a Linux 6.1
 * built without CONFIG_JUMP_LABEL that loads an unrelocated GOT slot
 * (0) and faults (docs/perf.md, "The vDSO fault"). Exit status 0 or fail().
 */
static int loop_clock_storm(int round, int n, int ms)
{
	pid_t pid[64];
	int cpu, status, bad = 0;

	for (cpu = 0; cpu < n && cpu < ARRAY_SIZE(pid); cpu++) {
		pid[cpu] = fork();
		if (pid[cpu] == 0) {
			struct timespec t0, t;
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			do
				clock_gettime(CLOCK_MONOTONIC, &t);
			while ((t.tv_sec - t0.tv_sec) * 1000 +
			       (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
			_exit(0);
		}
	}
	while (cpu--) {
		if (pid[cpu] < 0 || waitpid(pid[cpu], &status, 0) < 0)
			bad = bad ? bad : fail("round %d: clock storm: no child on CPU%d",
					       round, cpu);
		else if (WIFSIGNALED(status))
			bad = bad ? bad : fail("round %d: clock storm: the reader on CPU%d "
					       "killed by signal %d (%s)", round, cpu,
					       WTERMSIG(status), strsignal(WTERMSIG(status)));
	}
	return bad;
}

/*
 * One round: CPUs 1..n-1 offline and online again (SBI HSM hart_stop,
 * hart_start), then at once what a wrong fence or a stale translation on
 * a restarted hart would break: perf stat -a (counters on every CPU, a
 * fork and exec, the vDSO's clock), a remote-sfence storm whose threads
 * sit on the restarted CPUs (RFENCE to them), a plain exec of a static
 * binary (its libc reads the vDSO), the vDSO clock read on every CPU.
 */
static int loop_round(int round, int n)
{
	static const char *const cmds[] = {
		"perf stat -a -x, -o " STAT " -e cycles,instructions -- work loop 100000",
		"work munmap 50",
		"work loop 1",
	};
	char line[256], after[32];
	const char *bad;
	int cpu, during;

	for (cpu = 1; cpu < n; cpu++)
		if (set_cpu_online(cpu, 0))
			return -1;
	during = sysfs_online_cpus();
	for (cpu = 1; cpu < n; cpu++)
		if (set_cpu_online(cpu, 1))
			return -1;
	if (during != 1 || sysfs_online_cpus() != n)
		return fail("round %d: online cpus %d -> %d -> %d", round, n,
			    during, sysfs_online_cpus());
	for (int i = 0; i < ARRAY_SIZE(cmds); i++)
		if (loop_run(round, cmds[i]))
			return -1;
	/* not only perf's exit status: every CPU's counts, as check_hotplug_perf */
	snprintf(after, sizeof(after), "round %d", round);
	if (cpus_count_sanely(n, after, 1))
		return -1;
	if (loop_clock_storm(round, n, 300))
		return -1;
	bad = loop_log_bad(line, sizeof(line));
	if (bad)
		return fail("round %d: kernel log: %s", round, bad);
	return 0;
}

/*
 * tally.hotplug_loop=N rounds of loop_round(), stopping at the first
 * failure with the round and the tail of the kernel log. Runs last: it
 * clears the kernel log.
 */
static int check_hotplug_loop(void)
{
	int n = sysfs_online_cpus(), round;
	time_t start = time(NULL);
	char line[256];

	if (n < 2)
		return skip("only %d cpu online", n);
	if (!strcmp(opt.perf, "icount"))
		return skip("CPU offlining hangs under QEMU 7.2 -icount");
	loop_log_bad(line, sizeof(line));	/* the log so far is not the loop's */
	loop_stop_races = 0;
	for (round = 1; round <= opt.hotplug_loop; round++) {
		if (loop_round(round, n)) {
			loop_log_bad(line, sizeof(line));
			loop_show_log_tail(40);
			return -1;
		}
		if (round % 10 == 0 || round == opt.hotplug_loop)
			printf("hotplug-loop: %d of %d rounds ok (%ld s, \"%s\" "
			       "%d times)\n", round, opt.hotplug_loop,
			       (long)(time(NULL) - start), LOOP_STOP_RACE,
			       loop_stop_races);
	}
	note("%d rounds of CPUs 1-%d offline and online, perf stat -a, "
	     "munmap storm, exec, vDSO clock storm, in %ld s; \"%s\" %d times", opt.hotplug_loop,
	     n - 1, (long)(time(NULL) - start), LOOP_STOP_RACE, loop_stop_races);
	return 0;
}

/* ---- the check table ------------------------------------------------------ */

enum {
	SET_BOOT = 1,		/* every run */
	SET_COUNT = 2,		/* tally.perf=count, full */
	SET_FULL = 4,		/* tally.perf=full only */
	SET_ICOUNT = 8,		/* tally.perf=icount only */
	SET_AIA = 16,		/* tally.perf=aia only */
	SET_LOOP = 32,		/* tally.hotplug_loop=N, N > 0 */
	SET_SOAK = 64,		/* tally.perf=soak only */
	SET_RECORD = 128,	/* tally.perf=record only */
	SET_PERF = SET_COUNT | SET_FULL | SET_ICOUNT | SET_AIA,
};

static const struct check {
	const char *name;
	int (*run)(void);
	int sets;
} checks[] = {
	{ "mounts", check_mounts, SET_BOOT },
	{ "cpus-online", check_cpus_online, SET_BOOT },
	{ "cpu-hotplug", check_cpu_hotplug, SET_BOOT },
	{ "perf-pmu-probe", check_pmu_probe, SET_PERF | SET_SOAK | SET_RECORD },
	{ "perf-snapshot", check_snapshot, SET_PERF | SET_SOAK },
	{ "perf-instructions-exact", check_instructions_exact, SET_ICOUNT },
	{ "perf-cycles-instructions", check_cycles_instructions, SET_COUNT | SET_FULL | SET_AIA },
	{ "perf-mode-cycles-instructions", check_mode_cycles_instructions, SET_PERF },
	{ "perf-dtlb-store-misses", check_dtlb_store, SET_COUNT | SET_FULL },
	{ "perf-tlb-load-misses", check_tlb_loads, SET_COUNT | SET_FULL },
	{ "perf-mode-tlb", check_mode_tlb, SET_COUNT | SET_FULL },
	{ "perf-fw-set-timer", check_fw_set_timer, SET_FULL },
	{ "perf-fw-ipi", check_fw_ipi, SET_COUNT | SET_FULL | SET_AIA },
	{ "perf-fw-sfence-vma", check_fw_sfence, SET_COUNT | SET_FULL | SET_AIA },
	{ "perf-fw-tally-256-257", check_fw_tally, SET_COUNT | SET_FULL },
	{ "perf-record-dtlb", check_record_tlb, SET_FULL | SET_AIA },
	{ "perf-record-cycles", check_record_cycles, SET_FULL },
	{ "perf-record-soak", check_record_soak, SET_RECORD },
	{ "soak", check_soak, SET_SOAK },
	{ "perf-after-hotplug", check_hotplug_perf, SET_FULL | SET_AIA | SET_SOAK },
	{ "perf-multiplex", check_multiplex, SET_COUNT | SET_FULL },
	{ "perf-driver-quiet", check_driver_quiet, SET_PERF | SET_SOAK | SET_RECORD },
	{ "aia-interrupts", check_aia, SET_AIA },
	{ "cpu-hotplug-loop", check_hotplug_loop, SET_LOOP },	/* last: clears the log */
};

static int selected_sets(void)
{
	if (!strcmp(opt.perf, "full"))
		return SET_BOOT | SET_FULL;
	if (!strcmp(opt.perf, "icount"))
		return SET_BOOT | SET_ICOUNT;
	if (!strcmp(opt.perf, "none"))
		return SET_BOOT;
	if (!strcmp(opt.perf, "aia"))
		return SET_BOOT | SET_AIA;
	if (!strcmp(opt.perf, "soak"))
		return SET_BOOT | SET_SOAK;
	if (!strcmp(opt.perf, "record"))
		return SET_BOOT | SET_RECORD;
	return SET_BOOT | SET_COUNT;
}

/* ---- demonstration and script mode ---------------------------------------- */

static void show(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	printf("\n# %s\n", cmd);
	run(NULL, 300, "%s", cmd);
}

static void demo(void)
{
	printf("\n=== Tally demo: Linux perf on the SBI PMU extension ===\n");
	printf("Workloads (/bin/work): loop N = 2N user instructions; "
	       "store-pages/load-pages N = one store/load\n"
	       "to each of N fresh pages; munmap N = N unmaps while its threads "
	       "are parked on the other CPUs\n(remote sfence.vma through SBI "
	       "RFENCE). Raw events r80000000000000XX are SBI firmware event XX.\n");
	/*
	 * Cycle sampling first: on QEMU 7.2 a counting cycles/instructions
	 * event (perf stat) makes the next cycle overflow on that counter
	 * and CPU get lost (see check_record_cycles()).
	 */
	show("perf record -N -o " DATA " -e cycles -c 1000000 -- work loop 250000000");
	show("perf report -i " DATA " --stdio --sort comm,dso,sym");
	show("perf stat -e cycles,instructions,dTLB-load-misses,"
	     "dTLB-store-misses,iTLB-load-misses -- work load-pages 10000");
	printf("\n(mode filters: the TLB events honour :u and :k; QEMU 7.2 cannot "
	       "filter cycles/instructions by mode,\n so Tally counts "
	       "instructions:u in every mode, as its boot banner says)\n");
	show("perf stat -e dTLB-store-misses:u,dTLB-load-misses:k "
	     "-- work store-pages 10000");
	show("perf stat -e instructions:u -- work loop 50000000");
	show("perf stat -a -e " FW_IPI_SENT "," FW_IPI_RECEIVED ","
	     FW_SFENCE_VMA_ASID_SENT "," FW_SFENCE_VMA_ASID_RECEIVED ","
	     FW_TALLY_ECALL "," FW_TALLY_TRAP " -- work munmap 1000");
	printf("\n(firmware events: ...06/07 = IPI sent/received, ...0c/0d = "
	       "SFENCE_VMA_ASID sent/received, ...100 = SBI calls\n handled, "
	       "...101 = M-mode traps other than ecalls: Tally's own events "
	       "256 and 257)\n");
	show("perf record -N -o " DATA " -e dTLB-load-misses -c 100 -- "
	     "work load-pages 10000");
	show("perf report -i " DATA " --stdio --sort comm,dso");
	printf("\n=== end of demo ===\n");
}

static void script(void)
{
	char *text = read_file("/tally-script"), *line, *save;

	if (!text) {
		printf("tally.script: no /tally-script in the initramfs\n");
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (isspace((unsigned char)*line))
			line++;
		if (*line && *line != '#')
			show("%s", line);
	}
	free(text);
}

/* ---- main ---------------------------------------------------------------- */

static void wake(int sig)
{
	(void)sig;
}

/*
 * Output to the console is queued for the UART's transmit interrupt, and
 * power-off does not wait for it: CI of 335603c lost the closing marker of
 * one boot (QEMU 11.1 tt-ascalon) though the kernel's own "reboot: Power
 * down" came after it. tcdrain() waits until the queue is sent; a
 * SIGALRM handler (PID 1 ignores signals left at SIG_DFL) bounds the wait.
 */
static void drain_console(void)
{
	struct sigaction sa = { .sa_handler = wake };

	fflush(NULL);
	sigaction(SIGALRM, &sa, NULL);
	alarm(5);
	tcdrain(STDOUT_FILENO);
	alarm(0);
}

static void power_off(void)
{
	drain_console();
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if the kernel could not power off. */
	printf("TALLY-LINUX-INIT: reboot(RB_POWER_OFF) failed: %s\n",
	       strerror(errno));
	fflush(NULL);
	for (;;)
		pause();
}

/*
 * Boot messages are all out by now. Keep later informational printks (CPU
 * hotplug, ...) off the console so they cannot split our marker lines;
 * warnings and errors (level < 5) still show.
 */
static void quiet_console(void)
{
	klogctl(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 5);
}

int main(void)
{
	int i, failed = 0, ran = 0, sets;
	time_t start;

	ensure_console();
	setvbuf(stdout, NULL, _IOLBF, 0);
	quiet_console();
	setenv("PATH", "/bin", 1);
	setenv("HOME", "/tmp", 1);
	/* mounts first: /proc/cmdline says what to run */
	do_mounts();
	parse_cmdline();
	if (opt.demo || opt.script) {
		if (opt.demo)
			demo();
		else
			script();
		power_off();
	}
	sets = selected_sets() | (opt.hotplug_loop > 0 ? SET_LOOP : 0);
	for (i = 0; i < ARRAY_SIZE(checks); i++)
		ran += !!(checks[i].sets & sets);
	printf("TALLY-LINUX-INIT: started, %d checks (tally.perf=%s)\n", ran, opt.perf);

	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		if (!(checks[i].sets & sets))
			continue;
		fail_reason[0] = check_note[0] = '\0';
		check_skipped = 0;
		start = time(NULL);
		if (checks[i].run() != 0) {
			failed++;
			printf("TALLY-LINUX-CHECK: %s: FAIL: %s\n",
			       checks[i].name, fail_reason);
		} else if (check_skipped) {
			printf("TALLY-LINUX-CHECK: %s: skip: %s\n",
			       checks[i].name, check_note);
		} else if (check_note[0]) {
			printf("TALLY-LINUX-CHECK: %s: ok: %s\n",
			       checks[i].name, check_note);
		} else {
			printf("TALLY-LINUX-CHECK: %s: ok\n", checks[i].name);
		}
		if (time(NULL) - start > 5)
			printf("(%s took %ld s)\n", checks[i].name,
			       (long)(time(NULL) - start));
	}

	if (failed)
		printf("TALLY-LINUX-INIT: FAIL (%d of %d checks failed), %d cpus online\n",
		       failed, ran, sysfs_online_cpus());
	else
		printf("TALLY-LINUX-INIT: ok, %d cpus online\n",
		       sysfs_online_cpus());

	power_off();
	return 0;
}
