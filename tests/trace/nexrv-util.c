// SPDX-License-Identifier: BSD-2-Clause
/*
 * The NexRv cross-check's helpers (tests/trace/nexrv-xcheck.sh):
 *
 *   nexrv-util same A B
 *       two lists of addresses, one a line, any hex spelling: equal?
 *   nexrv-util cputime OUT CMD...
 *       runs CMD with its stdout to OUT, prints its user + system CPU
 *       seconds (getrusage)
 *   nexrv-util stackcheck PCSEQ
 *       where NexRv's decoder overflows its return stack
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "nexrv-util: %s\n", what);
	exit(2);
}

/*
 * A line's address: hex digits, with or without 0x, in either case (NexRv
 * writes 0x8020010C, tally-trace 8020010c).  Written out, not strtoull: the
 * cross-check compares lists of 6 M lines each some 50 times, and strtoull
 * was most of that time.  Stops at the first character that is no hex digit,
 * as strtoull does.
 */
static uint64_t hex_addr(const char *s)
{
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++) {
		unsigned c = (unsigned char)*s;

		if (c - '0' < 10)
			v = v << 4 | (c - '0');
		else if ((c | 0x20) - 'a' < 6)
			v = v << 4 | ((c | 0x20) - 'a' + 10);
		else
			return v;
	}
}

static int cmd_same(int argc, char **argv)
{
	FILE *a, *b;
	char la[64], lb[64];
	uint64_t line = 0;

	if (argc != 4)
		die("usage: same A B");
	a = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
	b = strcmp(argv[3], "-") ? fopen(argv[3], "r") : stdin;
	if (!a || !b)
		die("cannot open a list");
	for (;;) {
		bool ga = fgets(la, sizeof(la), a) != NULL, gb = fgets(lb, sizeof(lb), b) != NULL;

		line++;
		if (!ga && !gb)
			return 0;
		if (ga && gb && !strcmp(la, lb))
			continue;	/* the same spelling: most lines, and cheaper */
		if (ga != gb || hex_addr(la) != hex_addr(lb)) {
			printf("line %llu: %s <> %s\n", (unsigned long long)line,
			       ga ? strtok(la, "\n") : "(end)", gb ? strtok(lb, "\n") : "(end)");
			return 1;
		}
	}
}

/*
 * ---- stackcheck: where NexRv's decoder overflows its return stack ---------
 *
 * NexRv's decoder keeps its return stack in callStack[32] (NexRv.c), but its
 * push wraps the top index after 32, not 31: the 33rd slot is callStack[32],
 * past the array (on x86-64 with gcc, over callStackTop and callStackCnt),
 * and a pop at slot 0 goes to slot 31.  Pushes move the top, pops only when
 * the stack is not empty, so the top drifts and reaches 32 in long traces,
 * whatever the stream.  This replays the decoder's pushes (every call it
 * walks) and pops (every return) over the executed sequence and prints the
 * number (1-based) of the first instruction that writes callStack[32], 0
 * if none: NexRv cannot be trusted past it in an implicit-return stream.
 */
static int cmd_stackcheck(int argc, char **argv)
{
	uint64_t line_no = 0;
	unsigned top = 0, count = 0;
	FILE *in;
	char line[128];

	if (argc != 3 || !(in = fopen(argv[2], "r")))
		die("usage: stackcheck PCSEQ");
	while (fgets(line, sizeof(line), in)) {
		char *comma = strchr(line, ',');

		if (line[0] == '.' || !comma)
			continue;
		line_no++;
		if (comma[1] == 'C') {
			top = top >= 32 ? 0 : top + 1;
			if (top == 32) {
				printf("%llu\n", (unsigned long long)line_no);
				return 0;
			}
			count += count < 32;
		} else if (comma[1] == 'R' && count) {
			count--;
			top = top == 0 ? 31 : top - 1;
		}
	}
	printf("0\n");
	return 0;
}

/* ---- cputime: a command's CPU time, to the microsecond -------------------- */

static int cmd_cputime(int argc, char **argv)
{
	struct rusage ru;
	int status, fd;
	pid_t pid;

	if (argc < 4)
		die("usage: cputime OUT CMD...");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		die("wait4");
	printf("%.6f\n", (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
			   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "same"))
		return cmd_same(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "cputime"))
		return cmd_cputime(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "stackcheck"))
		return cmd_stackcheck(argc, argv);
	fprintf(stderr, "usage: nexrv-util same|cputime|stackcheck ... (see the source)\n");
	return 2;
}
