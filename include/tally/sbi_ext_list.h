/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The registry of SBI extensions: one line per extension, sorted by EID
 * (the boot banner lists them so, and the per-hart hooks run in this
 * order).  SBI_EXT(name) names the struct sbi_extension sbi_ext_<name>
 * that the extension's own file defines.  Included by sbi_ecall.c only,
 * with SBI_EXT defined; no include guard.
 */
SBI_EXT(legacy)		/* 0x00 - 0x08 */
SBI_EXT(base)		/* 0x10 */
SBI_EXT(hsm)		/* 0x48534d */
SBI_EXT(pmu)		/* 0x504d55 */
SBI_EXT(sse)		/* 0x535345 */
SBI_EXT(ipi)		/* 0x735049 */
SBI_EXT(dbcn)		/* 0x4442434e */
SBI_EXT(dbtr)		/* 0x44425452 */
SBI_EXT(fwft)		/* 0x46574654 */
SBI_EXT(rfence)		/* 0x52464e43 */
SBI_EXT(srst)		/* 0x53525354 */
SBI_EXT(susp)		/* 0x53555350 */
SBI_EXT(time)		/* 0x54494d45 */
