// SPDX-License-Identifier: BSD-2-Clause
/*
 * One console lock for every writer (lib/utils/console.c): firmware
 * printf, DBCN console_write and console_write_byte, and the legacy
 * putchar (console_putc) run on several host threads at once over a fake
 * UART that notes when two writers are inside it together and keeps what
 * it was sent.  Every DBCN line and every printf line must come out whole.
 * Before the fix DBCN had a lock of its own and write_byte and putchar
 * none: their bytes landed inside the other writers' lines.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <tally/console.h>
#include "check.h"

/* lib/utils/console.c's printf, renamed (Makefile: CONSOLE_RENAME) */
int tally_printf(const char *fmt, ...) __attribute__((format(__printf__, 1, 2)));

#define ROUNDS		2000
#define LINE_LEN	40
#define OUT_MAX		(ROUNDS * 4 * (LINE_LEN + 2) * 2)

static char out[OUT_MAX];
static int out_len, inside, overlaps;

/* The fake UART: one character at a time, slowly, as an MMIO register. */
static void fake_putc(char c)
{
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) > 1)
		__atomic_add_fetch(&overlaps, 1, __ATOMIC_SEQ_CST);
	int at = __atomic_fetch_add(&out_len, 1, __ATOMIC_SEQ_CST);
	if (at < OUT_MAX)
		out[at] = c;
	for (volatile int spin = 0; spin < 300; spin++)	/* a slow register */
		;
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

static const struct console_device fake_uart = { .name = "fake", .putc = fake_putc };

static char dbcn_line[LINE_LEN + 1];
static pthread_barrier_t start;		/* the writers begin together */

static void *dbcn_writer(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < ROUNDS; i++)
		console_write(dbcn_line, LINE_LEN + 1);
	return NULL;
}

static void *printf_writer(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < ROUNDS; i++)
		tally_printf("%s\n", "PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP");
	return NULL;
}

static void *byte_writer(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < ROUNDS; i++) {
		console_write_byte('b');
		console_putc('c');
	}
	return NULL;
}

/* Every run of 'A' (or 'P') is one whole line: LINE_LEN long, then its end. */
static int broken_lines(char letter, const char *end)
{
	int broken = 0;

	for (int i = 0; i < out_len && i < OUT_MAX; ) {
		if (out[i] != letter) {
			i++;
			continue;
		}
		int n = 0;
		while (i + n < out_len && out[i + n] == letter)
			n++;
		if (n != LINE_LEN || strncmp(out + i + n, end, strlen(end)))
			broken++;
		i += n;
	}
	return broken;
}

int main(void)
{
	pthread_t t[3];

	memset(dbcn_line, 'A', LINE_LEN);
	dbcn_line[LINE_LEN] = '\n';
	CHECK(!console_present() && console_getc() == -1,
	      "console: no device registered: nothing present, getc returns -1");
	console_set_device(&fake_uart);
	CHECK(console_present() && !strcmp(console_name(), "fake"),
	      "console: the registered device is present, named for the banner");
	CHECK(console_getc() == -1, "console: a device without getc reads -1");
	pthread_barrier_init(&start, NULL, 3);
	pthread_create(&t[0], NULL, dbcn_writer, NULL);
	pthread_create(&t[1], NULL, printf_writer, NULL);
	pthread_create(&t[2], NULL, byte_writer, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	CHECK(out_len == ROUNDS * ((LINE_LEN + 1) + (LINE_LEN + 2) + 2),
	      "console: every byte of 3 writers reached the UART (%d)", out_len);
	CHECK(overlaps == 0,
	      "console: printf, DBCN write, write_byte and putchar never inside the UART "
	      "together (%d overlaps)", overlaps);
	CHECK(broken_lines('A', "\n") == 0,
	      "console: every DBCN console_write line came out whole (%d broken)",
	      broken_lines('A', "\n"));
	CHECK(broken_lines('P', "\r\n") == 0,
	      "console: every printf line came out whole (%d broken)",
	      broken_lines('P', "\r\n"));
	return check_failures != 0;
}
