/* The ecall helper: a7 = EID, a6 = FID, a0..a5 = arguments; the
 * firmware answers with a0 = error, a1 = value (SBI binary encoding). */
#include "sbi.h"

struct sbiret sbi_ecall(unsigned long eid, unsigned long fid,
			unsigned long a0, unsigned long a1, unsigned long a2,
			unsigned long a3, unsigned long a4, unsigned long a5)
{
	register unsigned long r0 __asm__("a0") = a0;
	register unsigned long r1 __asm__("a1") = a1;
	register unsigned long r2 __asm__("a2") = a2;
	register unsigned long r3 __asm__("a3") = a3;
	register unsigned long r4 __asm__("a4") = a4;
	register unsigned long r5 __asm__("a5") = a5;
	register unsigned long r6 __asm__("a6") = fid;
	register unsigned long r7 __asm__("a7") = eid;
	struct sbiret ret;

	__asm__ __volatile__("ecall"
			     : "+r"(r0), "+r"(r1)
			     : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6),
			       "r"(r7)
			     : "memory");
	ret.error = (long)r0;
	ret.value = r1;
	return ret;
}

long sbi_legacy(unsigned long eid, unsigned long a0, unsigned long a1,
		unsigned long a2, unsigned long a3)
{
	/* v0.1 calls answer in a0 only; a1 may come back changed, which
	 * sbi_ecall already allows for. */
	return sbi_ecall(eid, 0, a0, a1, a2, a3, 0, 0).error;
}

long sbi_probe(unsigned long eid)
{
	struct sbiret r = sbi_call1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, eid);

	return r.error ? 0 : (long)r.value;
}

struct sbiret sbi_set_timer(uint64_t when)
{
	/* stime_value: a0 on RV64; (a0, a1) = (lo, hi) on RV32 */
	return sbi_call2(SBI_EXT_TIME, SBI_TIME_SET_TIMER, (unsigned long)when,
			 sizeof(long) == 4 ? (unsigned long)(when >> 32) : 0);
}

struct sbiret sbi_send_ipi(unsigned long mask, unsigned long base)
{
	return sbi_call2(SBI_EXT_IPI, SBI_IPI_SEND_IPI, mask, base);
}

struct sbiret sbi_hart_start(unsigned long hartid, unsigned long addr,
			     unsigned long opaque)
{
	return sbi_call3(SBI_EXT_HSM, SBI_HSM_HART_START, hartid, addr, opaque);
}

struct sbiret sbi_hart_stop(void)
{
	return sbi_call0(SBI_EXT_HSM, SBI_HSM_HART_STOP);
}

struct sbiret sbi_hart_status(unsigned long hartid)
{
	return sbi_call1(SBI_EXT_HSM, SBI_HSM_HART_GET_STATUS, hartid);
}

struct sbiret sbi_hart_suspend(unsigned long type, unsigned long addr,
			       unsigned long opaque)
{
	return sbi_call3(SBI_EXT_HSM, SBI_HSM_HART_SUSPEND, type, addr, opaque);
}

struct sbiret sbi_system_reset(unsigned long type, unsigned long reason)
{
	return sbi_call2(SBI_EXT_SRST, SBI_SRST_SYSTEM_RESET, type, reason);
}
