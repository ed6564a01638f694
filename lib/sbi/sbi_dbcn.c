// SPDX-License-Identifier: BSD-2-Clause
/*
 * Debug console extension "DBCN".  Buffers are S-mode physical addresses:
 * they must lie in RAM, outside the firmware, and must not wrap.
 */
#include <tally/console.h>
#include <tally/platform.h>
#include <tally/sbi.h>

static struct sbiret dbcn_write(unsigned long len, unsigned long lo, unsigned long hi)
{
	const char *buf = (const char *)lo;

	if (!memmap_smode_range_ok(&platform.mem, lo, hi, len))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	console_write(buf, len);	/* under the console lock, as printf */
	return sbi_ok(len);
}

static struct sbiret dbcn_read(unsigned long len, unsigned long lo, unsigned long hi)
{
	char *buf = (char *)lo;
	unsigned long n = 0;
	int c;

	if (!memmap_smode_range_ok(&platform.mem, lo, hi, len))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	while (n < len && (c = console_getc()) >= 0)
		buf[n++] = (char)c;
	return sbi_ok(n);
}

static struct sbiret dbcn_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	switch (fid) {
	case SBI_EXT_DBCN_CONSOLE_WRITE:
		return dbcn_write(args[0], args[1], args[2]);
	case SBI_EXT_DBCN_CONSOLE_READ:
		return dbcn_read(args[0], args[1], args[2]);
	case SBI_EXT_DBCN_CONSOLE_WRITE_BYTE:
		console_write_byte((char)(args[0] & 0xff));
		return sbi_ok(0);
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

static bool dbcn_available(void)
{
	return console_present();
}

const struct sbi_extension sbi_ext_dbcn = {
	.eid_first = SBI_EXT_DBCN,
	.eid_last = SBI_EXT_DBCN,
	.name = "DBCN",
	.available = dbcn_available,
	.handle = dbcn_handle,
};
