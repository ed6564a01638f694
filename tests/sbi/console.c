/* Console output and the string helpers a freestanding build lacks. */
#include <stdint.h>
#include "console.h"
#include "csr.h"
#include "sbi.h"

static bool console_dbcn;

/* Owner of the console lock is hartid + 1, so 0 means free. A hart that
 * already owns it (a trap taken while printing) may print again. */
static volatile unsigned long console_owner;
#define CONSOLE_LOCK_TICKS	50000000UL	/* 5 s at QEMU's 10 MHz */
static unsigned int console_depth;

static unsigned long my_owner_id(void)
{
	unsigned long tp;

	__asm__ __volatile__("mv %0, tp" : "=r"(tp));
	return tp + 1;
}

static void console_lock(void)
{
	unsigned long me = my_owner_id(), free_id;
	unsigned long give_up = rdtime() + CONSOLE_LOCK_TICKS;

	if (console_owner == me) {
		console_depth++;
		return;
	}
	/* Bounded: a hart that died holding the lock (a fault while
	 * printing) must not silence the others. */
	do {
		free_id = 0;
		if (__atomic_compare_exchange_n(&console_owner, &free_id, me,
						false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
	} while (rdtime() < give_up);
	console_owner = me;
	console_depth = 1;
}

static void console_unlock(void)
{
	if (--console_depth == 0)
		__atomic_store_n(&console_owner, 0, __ATOMIC_RELEASE);
}

void console_init(bool use_dbcn)
{
	console_dbcn = use_dbcn;
}

const char *console_backend(void)
{
	return console_dbcn ? "DBCN write_byte" : "legacy console_putchar";
}

static void putc_raw(char c)
{
	if (console_dbcn)
		sbi_call1(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, (uint8_t)c);
	else
		sbi_legacy(SBI_LEGACY_CONSOLE_PUTCHAR, (uint8_t)c, 0, 0, 0);
}

/* Formatting: %[0][width][l]{d,i,u,x,s,c,p,%}, enough for the tests. */
struct sink {
	char *buf;		/* NULL: print to the console */
	size_t size, len;
};

static void emit(struct sink *s, char c)
{
	if (!s->buf)
		putc_raw(c);
	else if (s->len + 1 < s->size)
		s->buf[s->len] = c;
	s->len++;
}

static void emit_num(struct sink *s, unsigned long long v, unsigned base,
		     bool neg, int width, char pad)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		tmp[n++] = '-';
	for (; width > n; width--)
		emit(s, pad);
	while (n)
		emit(s, tmp[--n]);
}

static void format(struct sink *s, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		char pad = ' ';
		int width = 0;
		bool is_long = false, is_llong = false;
		unsigned long u;
		long v;
		const char *str;

		if (*fmt != '%') {
			emit(s, *fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = *fmt++;
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		if (*fmt == 'l') {
			is_long = true;
			fmt++;
		}
		if (is_long && *fmt == 'l') {	/* %llu, %llx: 64-bit on RV32 */
			is_llong = true;
			fmt++;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			v = is_long ? va_arg(ap, long) : va_arg(ap, int);
			u = v < 0 ? -(unsigned long)v : (unsigned long)v;
			emit_num(s, u, 10, v < 0, width, pad);
			break;
		case 'u':
		case 'x':
			if (is_llong) {
				emit_num(s, va_arg(ap, unsigned long long),
					 *fmt == 'u' ? 10 : 16, false, width, pad);
				break;
			}
			u = is_long ? va_arg(ap, unsigned long)
				    : va_arg(ap, unsigned int);
			emit_num(s, u, *fmt == 'u' ? 10 : 16, false, width, pad);
			break;
		case 'p':
			emit(s, '0');
			emit(s, 'x');
			emit_num(s, (unsigned long)va_arg(ap, void *), 16, false,
				 width, pad);
			break;
		case 's':
			str = va_arg(ap, const char *);
			for (str = str ? str : "(null)"; *str; str++)
				emit(s, *str);
			break;
		case 'c':
			emit(s, (char)va_arg(ap, int));
			break;
		case '%':
			emit(s, '%');
			break;
		default:	/* unknown conversion: show it, do not guess */
			emit(s, '%');
			if (!*fmt)
				return;
			emit(s, *fmt);
		}
	}
}

void vprintf(const char *fmt, va_list ap)
{
	struct sink s = { 0 };

	console_lock();
	format(&s, fmt, ap);
	console_unlock();
}

void printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { buf, size, 0 };

	format(&s, fmt, ap);
	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	return (int)s.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, SIZE_MAX);
}

/* GCC may emit calls to memset/memcpy for struct copies and clears. */
void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}
