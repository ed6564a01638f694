// SPDX-License-Identifier: BSD-2-Clause
/*
 * Tally: the init process of the Linux boot test (tests/linux).
 *
 * Runs as PID 1 from the built-in initramfs, runs a list of checks, prints
 * one line per check and a final marker, then powers the machine off, which
 * Linux does through the SBI SRST extension (QEMU then exits with status 0).
 *
 * Lines read by tests/linux/boot-test.sh:
 *   TALLY-LINUX-CHECK: <name>: ok
 *   TALLY-LINUX-CHECK: <name>: FAIL: <reason>
 *   TALLY-LINUX-INIT: ok, <N> cpus online
 *   TALLY-LINUX-INIT: FAIL (<k> of <m> checks failed), <N> cpus online
 *
 * To add a test, write a `static int check_xxx(void)` that returns 0 on
 * success or calls fail() and add it to the checks[] table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPU_SYSFS "/sys/devices/system/cpu"

static char fail_reason[256];

/* Record why the running check failed; returns -1 for `return fail(...)`. */
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fail_reason, sizeof(fail_reason), fmt, ap);
	va_end(ap);
	return -1;
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

/* ---- checks ----------------------------------------------------------- */

static int check_mounts(void)
{
	if (mount_one("proc", "/proc") || mount_one("sysfs", "/sys") ||
	    mount_one("devtmpfs", "/dev"))
		return -1;
	ensure_console();
	return 0;
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

/*
 * Take the last CPU offline and bring it back: Linux stops the hart with
 * SBI HSM hart_stop and restarts it with hart_start.
 */
static int check_cpu_hotplug(void)
{
	char path[64];
	int before = sysfs_online_cpus(), during, after, cpu = before - 1, err;

	if (before < 2) {
		printf("cpu hotplug: skipped, only %d cpu online\n", before);
		return 0;
	}
	snprintf(path, sizeof(path), CPU_SYSFS "/cpu%d/online", cpu);
	err = write_text(path, "0");
	if (err)
		return fail("offline cpu%d: %s", cpu, strerror(-err));
	during = sysfs_online_cpus();
	err = write_text(path, "1");
	if (err)
		return fail("online cpu%d: %s", cpu, strerror(-err));
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

static const struct check {
	const char *name;
	int (*run)(void);
} checks[] = {
	{ "mounts", check_mounts },
	{ "cpus-online", check_cpus_online },
	{ "cpu-hotplug", check_cpu_hotplug },
};

#define NUM_CHECKS (int)(sizeof(checks) / sizeof(checks[0]))

static void power_off(void)
{
	fflush(NULL);
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
	int i, failed = 0;

	ensure_console();
	setvbuf(stdout, NULL, _IOLBF, 0);
	quiet_console();
	printf("TALLY-LINUX-INIT: started, %d checks\n", NUM_CHECKS);

	for (i = 0; i < NUM_CHECKS; i++) {
		fail_reason[0] = '\0';
		if (checks[i].run() == 0) {
			printf("TALLY-LINUX-CHECK: %s: ok\n", checks[i].name);
		} else {
			failed++;
			printf("TALLY-LINUX-CHECK: %s: FAIL: %s\n",
			       checks[i].name, fail_reason);
		}
	}

	if (failed)
		printf("TALLY-LINUX-INIT: FAIL (%d of %d checks failed), %d cpus online\n",
		       failed, NUM_CHECKS, sysfs_online_cpus());
	else
		printf("TALLY-LINUX-INIT: ok, %d cpus online\n",
		       sysfs_online_cpus());

	power_off();
	return 0;
}
