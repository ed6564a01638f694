/* TIME extension (EID 0x54494D45). QEMU's rv64 has Sstc, but the tests
 * go through SBI set_timer only: that is what they test. */
#include "hart.h"
#include "test.h"

#define TIMER_DELTA	100000UL	/* ticks: 10 ms at 10 MHz */
#define FAR_FUTURE	(1ULL << 60)

/* Arms the timer at now + TIMER_DELTA with sie.STIE and sstatus.SIE set:
 * the interrupt must arrive, as scause "S timer", and not early. */
void check_timer_irq(const char *ext, struct sbiret (*arm)(uint64_t))
{
	struct hart *h = this_hart();
	unsigned long t0, deadline;
	struct sbiret r;
	bool arrived;

	h->timer_irqs = 0;
	h->irq_cause = 0;
	csr_set(CSR_SIE, SIE_STIE);
	local_irq_enable();
	t0 = rdtime();
	deadline = t0 + TIMER_DELTA;
	r = arm(deadline);
	arrived = WAIT_UNTIL(h->timer_irqs != 0, 1000);
	local_irq_disable();
	csr_clear(CSR_SIE, SIE_STIE);
	arm(~0ULL);

	expect_err(r, 0, ext, "set_timer(now + 100000) returns 0");
	check(arrived && h->irq_cause == (SCAUSE_INTERRUPT | IRQ_S_TIMER), ext,
	      "timer interrupt arrives (scause = interrupt 5) within 1 s",
	      sfmt("got %lu interrupts, scause=%lx", h->timer_irqs,
		   h->irq_cause));
	if (arrived)
		check(h->irq_time >= deadline, ext,
		      "timer interrupt does not arrive before stime_value",
		      sfmt("arrived %lu ticks early", deadline - h->irq_time));
}

/* With sie.STIE clear the interrupt only pends: set_timer(now) must set
 * sip.STIP and set_timer(far future) must clear it again. */
void check_timer_clear(const char *ext, struct sbiret (*arm)(uint64_t))
{
	static const struct {
		uint64_t when;
		const char *name;
	} clears[] = {
		{ -1UL, "set_timer(-1)" },
		{ FAR_FUTURE, "set_timer(1 << 60)" },
	};
	unsigned int i;

	csr_clear(CSR_SIE, SIE_STIE);
	for (i = 0; i < sizeof(clears) / sizeof(clears[0]); i++) {
		bool pending, cleared;

		arm(rdtime());
		pending = WAIT_UNTIL(csr_read(CSR_SIP) & SIP_STIP, 100);
		check(pending, ext, "set_timer(now) sets sip.STIP",
		      sfmt("sip=%lx", csr_read(CSR_SIP)));
		arm(clears[i].when);
		cleared = WAIT_UNTIL(!(csr_read(CSR_SIP) & SIP_STIP), 100);
		check(pending && cleared, ext,
		      sfmt("%s clears a pending sip.STIP", clears[i].name),
		      sfmt("sip=%lx", csr_read(CSR_SIP)));
	}
}

/*
 * The time CSR read into a callee-saved register (s11), with another one
 * (s3) live across it.  On QEMU sifive_u and spike the hart has no time
 * CSR and the firmware emulates the read: it must write any rd and keep
 * every other register (the trap entry's emulation path saves them all).
 */
static void check_time_csr_registers(void)
{
	const unsigned long magic = (unsigned long)0x5a5a1234a5a5ULL;	/* low half on RV32 */
	register unsigned long s11 __asm__("s11");
	register unsigned long s3 __asm__("s3") = magic;
	unsigned long before = rdtime(), after;

	__asm__ __volatile__("csrr %0, time" : "=r"(s11), "+r"(s3) : : "memory");
	after = rdtime();
	check(before <= s11 && s11 <= after, "time",
	      "csrr s11, time: a value between two other reads", NULL);
	check(s3 == magic, "time", "a read of the time CSR keeps s3", NULL);
}

/*
 * The same into t3 and t6, with t4 live across: the firmware's C code never
 * uses t3-t6 (FIXED_REGS), so the emulation path must put them in the frame
 * and back itself, or a read into them leaves the old value.
 */
static void check_time_csr_t3_t6(void)
{
	const unsigned long magic = (unsigned long)0x7e7e4321e7e7ULL;	/* low half on RV32 */
	unsigned long before = rdtime(), after, v3, v6, v4;

	/* one asm: t3-t6 are named only inside it (the compiler may use them) */
	__asm__ __volatile__("li t3, 0\n\tli t6, 0\n\tmv t4, %3\n\t"
			     "csrr t3, time\n\tcsrr t6, time\n\t"
			     "mv %0, t3\n\tmv %1, t6\n\tmv %2, t4"
			     : "=&r"(v3), "=&r"(v6), "=&r"(v4) : "r"(magic)
			     : "t3", "t4", "t6", "memory");
	after = rdtime();
	check(before <= v3 && v3 <= v6 && v6 <= after, "time",
	      "csrr t3, time and csrr t6, time: values between two other reads",
	      sfmt("before %lx t3 %lx t6 %lx after %lx", before, v3, v6, after));
	check(v4 == magic, "time", "a read of the time CSR keeps t4",
	      sfmt("t4 %lx", v4));
}

void test_time(void)
{
	check_time_csr_registers();
	check_time_csr_t3_t6();
	check_timer_irq("time", sbi_set_timer);
	check_timer_clear("time", sbi_set_timer);
	expect_err(sbi_call1(SBI_EXT_TIME, SBI_TIME_SET_TIMER + 1, 0),
		   SBI_ERR_NOT_SUPPORTED, "time",
		   "unknown FID 1 returns NOT_SUPPORTED");
}
