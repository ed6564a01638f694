// SPDX-License-Identifier: BSD-2-Clause
/*
 * /init of the 32-bit Linux test kernel (tests/linux/build-rv32.sh).
 *
 * Debian has no rv32 C library, so this is freestanding on the kernel
 * tree's own nolibc (tools/include/nolibc, included by the compiler with
 * -include nolibc.h) and there is no perf tool: the PMU checks use
 * perf_event_open directly. Prints one "PASS: ", "FAIL: " or "SKIP: " line
 * per check, then powers off through SBI SRST (reboot(POWER_OFF)).
 *
 * Checks (names prefixed "linux-rv32/"):
 *   init            this program runs as PID 1 on a 32-bit kernel
 *   cpus            every hart is online: tally.cpus=N, else the kernel's
 *                   possible CPUs (fw_payload boots without QEMU -append)
 *   pmu-probe       the kernel's riscv-pmu-sbi driver found the SBI PMU
 *                   (its dmesg lines are printed)
 *   perf-cycles     a hardware counter (through config_matching /
 *   perf-instructions  counter_start's register pairs) counts a busy loop
 *   perf-fw-event   an SBI firmware counter (fw_read) counts set_timer calls:
 *                   CPU-wide on CPU 0 (the timer is armed while this task
 *                   sleeps, when a per-task event is off), the task pinned
 *                   there
 */
#include <linux/perf_event.h>

#define TEST "linux-rv32/"

static char buf[65536];

static void put(const char *s)
{
	write(1, s, strlen(s));
}

/* 64-bit values as decimal without 64-bit division (no libgcc here). */
static void put_u64(unsigned long long v)
{
	char out[24];
	int i = sizeof(out) - 1;

	out[i] = 0;
	do {
		/* v / 10 and v % 10 by 32-bit halves: hi = q1 * 10 + r1 */
		unsigned int hi = v >> 32, lo = (unsigned int)v;
		unsigned int q1 = hi / 10, r1 = hi % 10;
		/* (r1 << 32 | lo) / 10 in two 16-bit steps */
		unsigned int mid = (r1 << 16) | (lo >> 16);
		unsigned int q2 = mid / 10, r2 = mid % 10;
		unsigned int low = (r2 << 16) | (lo & 0xffff);
		unsigned int q3 = low / 10, r3 = low % 10;

		out[--i] = '0' + r3;
		v = ((unsigned long long)q1 << 32) | (q2 << 16) | q3;
	} while (v);
	put(out + i);
}

static void verdict(const char *kind, const char *name, const char *why)
{
	put(kind);
	put(": " TEST);
	put(name);
	if (why) {
		put(" (");
		put(why);
		put(")");
	}
	put("\n");
}

static int failures;

static void pass(const char *name, const char *why)
{
	verdict("PASS", name, why);
}

static void fail(const char *name, const char *why)
{
	verdict("FAIL", name, why);
	failures++;
}

/* 6.1's nolibc has no strstr */
static char *find(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (; *text; text++)
		if (!strncmp(text, word, len))
			return (char *)text;
	return NULL;
}

static int read_file(const char *path, char *out, int size)
{
	int fd = open(path, O_RDONLY, 0), n, got = 0;

	if (fd < 0)
		return -1;
	while (got < size - 1 && (n = read(fd, out + got, size - 1 - got)) > 0)
		got += n;
	close(fd);
	out[got] = 0;
	return got;
}

static int count_word(const char *text, const char *word)
{
	int n = 0;
	const char *p = text;
	size_t len = strlen(word);

	for (; *p; p++)
		if (!strncmp(p, word, len))
			n++;
	return n;
}

static int cmdline_int(const char *key, int fallback)
{
	char line[512];
	const char *p;
	int v = 0;

	if (read_file("/proc/cmdline", line, sizeof(line)) < 0)
		return fallback;
	p = find(line, key);
	if (!p)
		return fallback;
	for (p += strlen(key); *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return v;
}

static void check_init(void)
{
	if (getpid() == 1 && sizeof(long) == 4)
		pass("init", "PID 1, 32-bit");
	else
		fail("init", "not PID 1 on a 32-bit kernel");
}

/* The last number of /sys/devices/system/cpu/possible ("0-3") plus one. */
static int possible_cpus(void)
{
	char line[64];
	int n = 0, v = 0;

	if (read_file("/sys/devices/system/cpu/possible", line, sizeof(line)) < 0)
		return 1;
	for (char *p = line; *p; p++) {
		if (*p >= '0' && *p <= '9')
			v = v * 10 + (*p - '0');
		else {
			n = v;
			v = 0;
		}
	}
	return (v ? v : n) + 1;
}

static void check_cpus(void)
{
	int want = cmdline_int("tally.cpus=", possible_cpus());
	int got;

	if (read_file("/proc/cpuinfo", buf, sizeof(buf)) < 0) {
		fail("cpus", "cannot read /proc/cpuinfo");
		return;
	}
	got = count_word(buf, "processor");
	if (got == want)
		pass("cpus", "every hart online");
	else
		fail("cpus", "online CPUs differ from tally.cpus=");
}

/* The kernel log (syslog READ_ALL); prints the riscv-pmu-sbi lines. */
static void check_pmu_probe(void)
{
	int n = my_syscall3(__NR_syslog, 3, buf, sizeof(buf) - 1);
	char *line, *next;
	int found = 0;

	if (n < 0) {
		fail("pmu-probe", "syslog failed");
		return;
	}
	buf[n] = 0;
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		if (find(line, "riscv-pmu-sbi")) {
			put("INFO: dmesg: ");
			put(line);
			put("\n");
			if (find(line, "hardware counters"))
				found = 1;
		}
	}
	if (found)
		pass("pmu-probe", "SBI PMU driver probed");
	else
		fail("pmu-probe", "no 'riscv-pmu-sbi: ... hardware counters' line");
}

/* pid 0, cpu -1: this task anywhere; pid -1, cpu N: all of CPU N */
static int perf_open(unsigned int type, unsigned long long config, int pid,
		     int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_kernel = 0;
	return my_syscall5(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
}

static volatile unsigned int sink;

static void busy(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		sink += i;
}

/* Counts `work` with one event; -1 if it cannot be opened or read. */
static long long count(unsigned int type, unsigned long long config,
		       void (*work)(void), int cpu)
{
	unsigned long long value = 0;
	int fd = perf_open(type, config, cpu < 0 ? 0 : -1, cpu);

	if (fd < 0)
		return -1;
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &value, sizeof(value)) != sizeof(value))
		value = -1;
	close(fd);
	return value;
}

static void work_loop(void)
{
	busy(2000000);
}

/* set_timer through the kernel: sleeping arms the SBI timer (Sstc is off). */
static void work_sleep(void)
{
	/* rv32 has only the 64-bit time syscalls: struct __kernel_timespec */
	struct { long long sec, nsec; } ts = { 0, 1000000 };

	for (int i = 0; i < 20; i++)
		my_syscall4(__NR_clock_nanosleep_time64, 1, 0, &ts, 0);
}

static void pin_to_cpu0(void)
{
	unsigned long mask = 1;

	my_syscall3(__NR_sched_setaffinity, 0, sizeof(mask), &mask);
}

static void check_count(const char *name, unsigned int type,
			unsigned long long config, void (*work)(void), int cpu,
			unsigned long long at_least)
{
	long long v = count(type, config, work, cpu);

	if (v < 0) {
		fail(name, "perf_event_open or read failed");
		return;
	}
	put("INFO: ");
	put(name);
	put(" = ");
	put_u64(v);
	put("\n");
	if ((unsigned long long)v >= at_least)
		pass(name, "counted");
	else
		fail(name, "count too small");
}

int main(void)
{
	mount("proc", "/proc", "proc", 0, 0);
	mount("sysfs", "/sys", "sysfs", 0, 0);
	check_init();
	check_cpus();
	check_pmu_probe();
	/* 2,000,000 iterations of several instructions each */
	check_count("perf-instructions", PERF_TYPE_HARDWARE,
		    PERF_COUNT_HW_INSTRUCTIONS, work_loop, -1, 4000000);
	check_count("perf-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
		    work_loop, -1, 1000);
	/* firmware event 5 = SBI_PMU_FW_SET_TIMER, raw config bit 63 */
	pin_to_cpu0();
	check_count("perf-fw-event", PERF_TYPE_RAW, (1ULL << 63) | 5,
		    work_sleep, 0, 1);
	put(failures ? "INFO: linux-rv32 checks failed\n" : "INFO: linux-rv32 checks done\n");
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	for (;;)
		;
}
