// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: helpers every subcommand uses (and the fuzz targets link
 * without the command line): the trace controls in use, files, clocks, the
 * encoder's output buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "tally-trace.h"

struct ntrace_config trace_cfg;

double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- output buffer ---------------------------------------------------------------- */

void obuf_sink(void *ctx, const uint8_t *bytes, size_t n)
{
	struct obuf *o = ctx;

	if (o->n + n > o->cap) {
		o->cap = o->cap ? o->cap * 2 : 1 << 20;
		o->b = realloc(o->b, o->cap);
		if (!o->b) {
			fprintf(stderr, "tally-trace: out of memory\n");
			exit(2);
		}
	}
	memcpy(o->b + o->n, bytes, n);
	o->n += n;
}

/* A whole file (regular, or a pipe) into memory; exits saying why if it cannot. */
uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *b = NULL;
	size_t n = 0, cap = 0, got;

	if (!f || fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tally-trace: %s: %s\n", path,
			f && S_ISDIR(st.st_mode) ? "a directory" : strerror(errno));
		exit(2);
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : (S_ISREG(st.st_mode) && st.st_size > 0 ?
					       (size_t)st.st_size + 1 : 1 << 16);
			b = realloc(b, cap);
			if (!b) {
				fprintf(stderr, "tally-trace: %s: out of memory\n", path);
				exit(2);
			}
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	fclose(f);
	*len = n;
	return b;
}
