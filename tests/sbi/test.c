/* Reporting and the small helpers every test group uses. */
#include "hart.h"
#include "test.h"

struct fdt_info machine;

static unsigned long passed, failed, skipped;
static const char *skip_reason;

#define SFMT_BUFS	16
#define SFMT_LEN	200

const char *sfmt(const char *fmt, ...)
{
	static char bufs[SFMT_BUFS][SFMT_LEN];
	static unsigned int next;
	char *buf = bufs[next++ % SFMT_BUFS];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, SFMT_LEN, fmt, ap);
	va_end(ap);
	return buf;
}

void skip(const char *ext, const char *what, const char *why)
{
	__atomic_fetch_add(&skipped, 1, __ATOMIC_RELAXED);
	printf("SKIP: %s: %s (%s)\n", ext, what, why);
}

void skip_begin(const char *why)
{
	skip_reason = why;
}

void skip_end(void)
{
	skip_reason = NULL;
}

bool check(bool ok, const char *ext, const char *what, const char *detail)
{
	if (skip_reason) {
		skip(ext, what, skip_reason);
		return false;
	}
	if (ok) {
		__atomic_fetch_add(&passed, 1, __ATOMIC_RELAXED);
		printf("PASS: %s: %s\n", ext, what);
	} else {
		__atomic_fetch_add(&failed, 1, __ATOMIC_RELAXED);
		printf("FAIL: %s: %s (%s)\n", ext, what, detail ? detail : "");
	}
	return ok;
}

void failf(const char *ext, const char *fmt, ...)
{
	char buf[SFMT_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	__atomic_fetch_add(&failed, 1, __ATOMIC_RELAXED);
	printf("FAIL: %s: %s\n", ext, buf);
}

const char *ret_str(struct sbiret r)
{
	if (r.error == ERR_NO_ANSWER)
		return "no answer from the hart in time";
	if (r.error == ERR_REENTERED)
		return "hart came back at its entry point instead of returning";
	return sfmt("error=%ld value=%lx", r.error, r.value);
}

bool expect_err(struct sbiret r, long want, const char *ext, const char *what)
{
	return check(r.error == want, ext, what,
		     sfmt("got %s, want error=%ld", ret_str(r), want));
}

bool expect_err2(struct sbiret r, long want1, long want2, const char *ext,
		 const char *what)
{
	return check(r.error == want1 || r.error == want2, ext, what,
		     sfmt("got %s, want error=%ld or %ld", ret_str(r), want1,
			  want2));
}

bool expect_val(struct sbiret r, unsigned long want, const char *ext,
		const char *what)
{
	return check(r.error == 0 && r.value == want, ext, what,
		     sfmt("got %s, want error=0 value=%lx", ret_str(r), want));
}

void info(const char *ext, const char *fmt, ...)
{
	char buf[SFMT_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("INFO: %s: %s\n", ext, buf);
}

unsigned long ms_to_ticks(unsigned long ms)
{
	unsigned long hz = machine.timebase ? machine.timebase : 10000000UL;

	return ms * (hz / 1000);
}

void finish(void)
{
	struct sbiret r;

	local_irq_disable();
	printf("INFO: summary: %lu skipped\n", skipped);
	printf("%lu passed, %lu failed\n", passed, failed);
	r = sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_NONE);
	if (r.error == SBI_ERR_NOT_SUPPORTED) {
		/* a board that cannot power off (QEMU sifive_u): QEMU's
		 * -no-reboot turns a reboot into the end of the run */
		printf("INFO: srst: shutdown NOT_SUPPORTED: cold reboot instead\n");
		r = sbi_system_reset(SBI_SRST_TYPE_COLD_REBOOT, SBI_SRST_REASON_NONE);
	}
	/* Still here: say so after the summary, then try the legacy call
	 * so that the run at least ends. */
	printf("FAIL: srst: system_reset(shutdown, none) returned (%s)\n",
	       ret_str(r));
	sbi_legacy(SBI_LEGACY_SHUTDOWN, 0, 0, 0, 0);
	park();
}

unsigned long try_load(unsigned long addr, unsigned long *val)
{
	struct hart *h = this_hart();
	unsigned long v = 0;

	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	__asm__ __volatile__(XSTR(REG_L) " %0, 0(%1)" : "+r"(v) : "r"(addr) : "memory");
	mb();
	h->trap_armed = false;
	*val = v;
	return h->trap_cause;
}

unsigned long try_read_mhartid(void)
{
	struct hart *h = this_hart();
	unsigned long v = 0;

	h->trap_cause = 0;
	h->trap_armed = true;
	mb();
	__asm__ __volatile__("csrr %0, mhartid" : "+r"(v) : : "memory");
	mb();
	h->trap_armed = false;
	return h->trap_cause;
}
