// SPDX-License-Identifier: BSD-2-Clause
/*
 * HTIF, the Berkeley host-target interface of Spike and QEMU spike: two
 * 64-bit words, tohost and fromhost.  A request is
 * device << 56 | command << 48 | payload; the host answers in fromhost.
 * Device 0 command 0 with payload (code << 1) | 1 ends the simulation with
 * exit code 'code'; device 1 (console) command 1 writes a character,
 * command 0 asks for one (the answer: fromhost = 1 << 56 | char).
 *
 * The words are written as two 32-bit halves, low first: QEMU acts on the
 * write of tohost's high half, and a bus may split a 64-bit store.
 */
#include <stdint.h>
#include <tally/drivers.h>
#include <tally/sbi_spec.h>

#define HTIF_DEV_SYSTEM		0ULL
#define HTIF_DEV_CONSOLE	1ULL
#define HTIF_CONSOLE_GETC	0ULL
#define HTIF_CONSOLE_PUTC	1ULL
#define HTIF_REQ(dev, cmd, payload)	((dev) << 56 | (cmd) << 48 | (payload))

static volatile uint32_t *htif_tohost, *htif_fromhost;
static int pending = -1;		/* a character that came with a putc's answer */
static int read_asked;

void htif_init(unsigned long tohost_addr, unsigned long fromhost_addr)
{
	htif_tohost = (volatile uint32_t *)tohost_addr;
	htif_fromhost = (volatile uint32_t *)fromhost_addr;
}

static uint64_t word_read(volatile uint32_t *w)
{
	return w[0] | (uint64_t)w[1] << 32;
}

static void word_write(volatile uint32_t *w, uint64_t v)
{
	w[0] = (uint32_t)v;
	w[1] = (uint32_t)(v >> 32);
}

/* Take the host's answer, if any: keep a console character it carries. */
static void poll_fromhost(void)
{
	uint64_t v = word_read(htif_fromhost);

	if (!v)
		return;
	if (v >> 56 == HTIF_DEV_CONSOLE && ((v >> 48) & 0xff) == HTIF_CONSOLE_GETC) {
		pending = (int)(v & 0xff);
		read_asked = 0;
	}
	word_write(htif_fromhost, 0);
}

static void request(uint64_t req)
{
	while (word_read(htif_tohost))
		poll_fromhost();
	word_write(htif_tohost, req);
}

void htif_putc(char c)
{
	request(HTIF_REQ(HTIF_DEV_CONSOLE, HTIF_CONSOLE_PUTC, (unsigned char)c));
	poll_fromhost();
}

int htif_getc(void)
{
	int c;

	poll_fromhost();
	if (pending < 0 && !read_asked) {
		read_asked = 1;
		request(HTIF_REQ(HTIF_DEV_CONSOLE, HTIF_CONSOLE_GETC, 0));
		poll_fromhost();
	}
	c = pending;
	pending = -1;
	return c;
}

/* Shutdown only: exit code 1 for a system failure, else 0. */
void htif_poweroff(unsigned long type, unsigned long reason)
{
	(void)type;
	unsigned long code = reason == SBI_SRST_REASON_SYSFAIL ? 1 : 0;

	request(HTIF_REQ(HTIF_DEV_SYSTEM, 0ULL, code << 1 | 1));
}
