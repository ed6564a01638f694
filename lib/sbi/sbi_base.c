// SPDX-License-Identifier: BSD-2-Clause
/* Base extension (EID 0x10): versions, IDs and extension probing. */
#include <tally/riscv.h>
#include <tally/sbi.h>

static struct sbiret base_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	switch (fid) {
	case SBI_EXT_BASE_GET_SPEC_VERSION:
		return sbi_ok(((unsigned long)SBI_SPEC_VERSION_MAJOR << SBI_SPEC_VERSION_MAJOR_SHIFT) |
			      SBI_SPEC_VERSION_MINOR);
	case SBI_EXT_BASE_GET_IMP_ID:
		return sbi_ok(SBI_IMPL_ID_TALLY);
	case SBI_EXT_BASE_GET_IMP_VERSION:
		return sbi_ok((TALLY_VERSION_MAJOR << 16) | TALLY_VERSION_MINOR);
	case SBI_EXT_BASE_PROBE_EXT:
		return sbi_ok(sbi_ext_probe(args[0]) ? 1 : 0);
	case SBI_EXT_BASE_GET_MVENDORID:
		return sbi_ok(csr_read(mvendorid));
	case SBI_EXT_BASE_GET_MARCHID:
		return sbi_ok(csr_read(marchid));
	case SBI_EXT_BASE_GET_MIMPID:
		return sbi_ok(csr_read(mimpid));
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

const struct sbi_extension sbi_ext_base = {
	.eid_first = SBI_EXT_BASE,
	.eid_last = SBI_EXT_BASE,
	.name = "BASE",
	.handle = base_handle,
};
