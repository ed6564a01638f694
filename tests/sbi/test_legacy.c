/* Legacy v0.1 extensions (EIDs 0x00-0x08): one EID per call, result in
 * a0. Shutdown (0x08) only runs in its own mode, srst=legacy. */
#include "hart.h"
#include "test.h"

static struct sbiret legacy_set_timer(uint64_t when)
{
	struct sbiret r = { sbi_legacy(SBI_LEGACY_SET_TIMER, (unsigned long)when,
				       sizeof(long) == 4 ? (unsigned long)(when >> 32) : 0,
				       0, 0), 0 };

	return r;
}

static void check_console(void)
{
	static const char line[] = "INFO: legacy: console_putchar wrote this line\n";
	const char *p;
	long worst = 0;

	for (p = line; *p; p++) {
		long e = sbi_legacy(SBI_LEGACY_CONSOLE_PUTCHAR, *p, 0, 0, 0);

		if (e)
			worst = e;
	}
	check(!worst, "legacy", "console_putchar returns 0",
	      sfmt("got error=%ld", worst));
	/* ch is an int, printed as a byte: the bits above the low 8 are
	 * ignored. run.sh checks this line reads "... low 8 bits: OK". */
	printf("INFO: legacy: console_putchar uses the low 8 bits: ");
	sbi_legacy(SBI_LEGACY_CONSOLE_PUTCHAR, HI32(0xffffffff) | 0x4f00 | 'O', 0, 0, 0);
	sbi_legacy(SBI_LEGACY_CONSOLE_PUTCHAR, 0x4100 | 'K', 0, 0, 0);
	sbi_legacy(SBI_LEGACY_CONSOLE_PUTCHAR, HI32(1UL << 8) | 0x10000 | '\n', 0, 0, 0);
	/* run.sh feeds QEMU no input. */
	check(sbi_legacy(SBI_LEGACY_CONSOLE_GETCHAR, 0, 0, 0, 0) == -1,
	      "legacy", "console_getchar returns -1 without input", "got input");
}

/* v0.1 send_ipi/clear_ipi: the mask is passed by address. */
static void check_ipi(void)
{
	unsigned long mask = 1UL << this_hartid();
	long e;

	csr_clear(CSR_SIE, SIE_SSIE);
	csr_clear(CSR_SIP, SIP_SSIP);
	e = sbi_legacy(SBI_LEGACY_SEND_IPI, (unsigned long)&mask, 0, 0, 0);
	check(!e, "legacy", "send_ipi(&self) returns 0", sfmt("got error=%ld", e));
	check(WAIT_UNTIL(csr_read(CSR_SIP) & SIP_SSIP, 100), "legacy",
	      "send_ipi(&self) sets sip.SSIP", "sip.SSIP stayed 0");
	e = sbi_legacy(SBI_LEGACY_CLEAR_IPI, 0, 0, 0, 0);
	check(!e && !(csr_read(CSR_SIP) & SIP_SSIP), "legacy",
	      "clear_ipi returns 0 and clears sip.SSIP",
	      sfmt("got error=%ld sip=%lx", e, csr_read(CSR_SIP)));
	csr_clear(CSR_SIP, SIP_SSIP);
}

static void check_fences(void)
{
	unsigned long mask = 1UL << this_hartid();

	check(!sbi_legacy(SBI_LEGACY_REMOTE_FENCE_I, (unsigned long)&mask, 0, 0, 0),
	      "legacy", "remote_fence_i(&self) returns 0", "nonzero");
	check(!sbi_legacy(SBI_LEGACY_REMOTE_SFENCE_VMA, (unsigned long)&mask,
			  0, 0, 0),
	      "legacy", "remote_sfence_vma(&self, all) returns 0", "nonzero");
	check(!sbi_legacy(SBI_LEGACY_REMOTE_SFENCE_VMA_ASID,
			  (unsigned long)&mask, 0, 0, 0),
	      "legacy", "remote_sfence_vma_asid(&self, all, asid 0) returns 0",
	      "nonzero");
}

/* A hart-mask pointer S-mode cannot read (the firmware's own memory, or
 * no memory at all) must give an error, not an M-mode fault, and the next
 * call must still work. */
static void check_bad_mask_pointer(void)
{
	/* the firmware, a hole in the QEMU virt memory map, the top of the address space */
	static const unsigned long bad[] = { FW_BASE, 0x50000, -8UL };
	unsigned long mask = 1UL << this_hartid();
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long e = sbi_legacy(SBI_LEGACY_SEND_IPI, bad[i], 0, 0, 0);

		check(e == SBI_ERR_INVALID_ADDRESS, "legacy",
		      sfmt("send_ipi(mask pointer %lx) returns INVALID_ADDRESS",
			   bad[i]), sfmt("returned %ld", e));
		e = sbi_legacy(SBI_LEGACY_REMOTE_SFENCE_VMA, bad[i], 0, 0, 0);
		check(e == SBI_ERR_INVALID_ADDRESS, "legacy",
		      sfmt("remote_sfence_vma(mask pointer %lx) returns "
			   "INVALID_ADDRESS", bad[i]), sfmt("returned %ld", e));
	}
	check(!sbi_legacy(SBI_LEGACY_REMOTE_FENCE_I, (unsigned long)&mask, 0, 0, 0),
	      "legacy", "a good call after the bad pointers still works",
	      "nonzero");
	csr_clear(CSR_SIP, SIP_SSIP);
}

/* Runs group() as checks when every EID in [first, last] probes
 * present, else reports them as SKIP. */
static void if_present(unsigned long first, unsigned long last,
		       void (*group)(void))
{
	static char reason[48];
	unsigned long eid;

	for (eid = first; eid <= last; eid++)
		if (!sbi_probe(eid)) {
			snprintf(reason, sizeof(reason),
				 "legacy EID %lu not present", eid);
			skip_begin(reason);
			break;
		}
	group();
	skip_end();
}

static void check_timer(void)
{
	check_timer_irq("legacy", legacy_set_timer);
	check_timer_clear("legacy", legacy_set_timer);
}

void test_legacy(void)
{
	if_present(SBI_LEGACY_CONSOLE_PUTCHAR, SBI_LEGACY_CONSOLE_GETCHAR,
		   check_console);
	if_present(SBI_LEGACY_SET_TIMER, SBI_LEGACY_SET_TIMER, check_timer);
	if_present(SBI_LEGACY_CLEAR_IPI, SBI_LEGACY_SEND_IPI, check_ipi);
	if_present(SBI_LEGACY_REMOTE_FENCE_I, SBI_LEGACY_REMOTE_SFENCE_VMA_ASID,
		   check_fences);
	if_present(SBI_LEGACY_SEND_IPI, SBI_LEGACY_REMOTE_SFENCE_VMA,
		   check_bad_mask_pointer);
}
