/* Debug console extension (EID 0x4442434E). Optional: when the probe
 * says it is absent, every check reports SKIP. */
#include "test.h"

static char msg[] = "INFO: dbcn: console_write wrote this line";
static char inbuf[32];

static struct sbiret dbcn(unsigned long fid, unsigned long n,
			  unsigned long lo, unsigned long hi)
{
	return sbi_call3(SBI_EXT_DBCN, fid, n, lo, hi);
}

static void check_valid(void)
{
	unsigned long len = strlen(msg);
	struct sbiret r;

	expect_val(dbcn(SBI_DBCN_WRITE, len, (unsigned long)msg, 0), len,
		   "dbcn", sfmt("console_write of %lu payload bytes returns %lu",
				len, len));
	expect_val(sbi_call1(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, '\n'), 0,
		   "dbcn", "console_write_byte returns 0");
	/* byte is a uint8_t: the bits above it are ignored. run.sh checks
	 * that this line reads "... low 8 bits: OK" in the log. */
	printf("INFO: dbcn: console_write_byte uses the low 8 bits: ");
	r = sbi_call1(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE,
		      HI32(0x64636261) | 0x6100 | 'O');
	sbi_call1(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, HI32(0x80000000) | 0x100 | 'K');
	sbi_call1(SBI_EXT_DBCN, SBI_DBCN_WRITE_BYTE, 0xff00 | '\n');
	expect_val(r, 0, "dbcn",
		   "console_write_byte(upper bits set | 'O') returns 0");
	expect_val(dbcn(SBI_DBCN_READ, 0, (unsigned long)inbuf, 0), 0, "dbcn",
		   "console_read of 0 bytes returns 0");
	/* run.sh feeds QEMU no input. */
	expect_val(dbcn(SBI_DBCN_READ, sizeof(inbuf), (unsigned long)inbuf, 0),
		   0, "dbcn", "console_read without input returns 0 bytes");
}

/* Buffers S-mode may not hand over: the firmware, a range that wraps,
 * a high half on RV64, addresses outside RAM. */
static void check_invalid(void)
{
	static const struct {
		unsigned long len, lo, hi;
		const char *what;
	} bad[] = {
		{ 16, FW_BASE, 0, "in the firmware (0x80000000)" },
		{ 0x2000, -0x1000UL, 0, "wrapping the address space" },
		{ 16, (unsigned long)msg, 1, "with base_addr_hi = 1" },
		{ 16, 0x0, 0, "at 0x0 (outside RAM)" },
		{ 16, 0x1000, 0, "at 0x1000 (outside RAM)" },
	};
	static const struct {
		unsigned long fid;
		const char *name;
	} fids[] = {
		{ SBI_DBCN_WRITE, "console_write" },
		{ SBI_DBCN_READ, "console_read" },
	};
	unsigned int i, f;

	for (f = 0; f < sizeof(fids) / sizeof(fids[0]); f++)
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			expect_err(dbcn(fids[f].fid, bad[i].len, bad[i].lo,
					bad[i].hi),
				   SBI_ERR_INVALID_PARAM, "dbcn",
				   sfmt("%s of a buffer %s returns "
					"INVALID_PARAM", fids[f].name,
					bad[i].what));
}

void test_dbcn(void)
{
	if (!sbi_probe(SBI_EXT_DBCN))
		skip_begin("DBCN not present");
	check_valid();
	check_invalid();
	expect_err(dbcn(SBI_DBCN_WRITE_BYTE + 1, 0, 0, 0),
		   SBI_ERR_NOT_SUPPORTED, "dbcn",
		   "unknown FID 3 returns NOT_SUPPORTED");
	skip_end();
}
