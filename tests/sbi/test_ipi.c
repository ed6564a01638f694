/* IPI extension (EID 0x735049): IPIs arrive as supervisor software
 * interrupts (sip.SSIP). */
#include "hart.h"
#include "test.h"

/* With sie.SSIE clear the IPI only pends, so the test can watch sip. */
static void check_self(unsigned long mask, unsigned long base,
		       const char *what)
{
	struct sbiret r;
	bool pending;

	csr_clear(CSR_SIP, SIP_SSIP);
	r = sbi_send_ipi(mask, base);
	expect_err(r, 0, "ipi", sfmt("send_ipi(%s) returns 0", what));
	pending = WAIT_UNTIL(csr_read(CSR_SIP) & SIP_SSIP, 100);
	check(pending, "ipi", sfmt("send_ipi(%s) sets sip.SSIP here", what),
	      sfmt("sip=%lx", csr_read(CSR_SIP)));
	csr_clear(CSR_SIP, SIP_SSIP);
	check(!(csr_read(CSR_SIP) & SIP_SSIP), "ipi",
	      "S-mode clears sip.SSIP", sfmt("sip=%lx", csr_read(CSR_SIP)));
}

static void check_invalid(void)
{
	unsigned long beyond = machine.max_hartid + 1;

	expect_err(sbi_send_ipi(1, 1000), SBI_ERR_INVALID_PARAM, "ipi",
		   "send_ipi(mask 1, base 1000) returns INVALID_PARAM");
	expect_err(sbi_send_ipi(1, beyond), SBI_ERR_INVALID_PARAM, "ipi",
		   sfmt("send_ipi(mask 1, base %lu = last hart + 1) returns "
			"INVALID_PARAM", beyond));
	if (beyond < 64)
		expect_err(sbi_send_ipi(1UL << beyond | 1UL << boot_hartid, 0),
			   SBI_ERR_INVALID_PARAM, "ipi",
			   sfmt("send_ipi(base 0, mask naming hart %lu) "
				"returns INVALID_PARAM", beyond));
	expect_err(sbi_call2(SBI_EXT_IPI, SBI_IPI_SEND_IPI + 1, 0, 0),
		   SBI_ERR_NOT_SUPPORTED, "ipi",
		   "unknown FID 1 returns NOT_SUPPORTED");
	csr_clear(CSR_SIP, SIP_SSIP);	/* if one of them got through */
}

void test_ipi_self(void)
{
	unsigned long self = this_hartid();

	csr_clear(CSR_SIE, SIE_SSIE);
	check_self(1UL << self, 0, sfmt("mask 1 << %lu, base 0", self));
	check_self(1, self, sfmt("mask 1, base %lu", self));
	check_self(0, -1UL, "base -1: all harts");
	check_invalid();
}

/* Has `from` send an IPI to `to` and waits for `to` to take it. */
static bool ipi_pair(unsigned long from, unsigned long to, long *error)
{
	struct sbiret r;

	harts[to].ipi_mail[from] = IPI_NONE;
	mb();
	if (from == boot_hartid)
		r = send_ipi_to(to);
	else
		r = hart_do(from, CMD_SEND_IPI, to, 0, 0, 0, 100);
	*error = r.error;
	return !r.error && WAIT_UNTIL(harts[to].ipi_mail[from] == IPI_SEEN, 2000);
}

/* Every running hart sends one IPI to every other one, one at a time
 * so that each arrival is known to come from that sender. */
void test_ipi_all(void)
{
	unsigned long mask = running_mask(), from, to;
	unsigned int sent = 0, seen = 0;
	char missing[120] = "";
	size_t used = 0;

	if (!(mask & (mask - 1))) {
		skip("ipi", "IPIs between all harts", "only one hart running");
		return;
	}
	csr_set(CSR_SIE, SIE_SSIE);
	local_irq_enable();
	for (from = 0; from < MAX_HARTS; from++) {
		for (to = 0; to < MAX_HARTS; to++) {
			long error;

			if (from == to || !(mask >> from & 1) || !(mask >> to & 1))
				continue;
			sent++;
			if (ipi_pair(from, to, &error)) {
				seen++;
			} else if (used + 24 < sizeof(missing)) {
				used += snprintf(missing + used,
						 sizeof(missing) - used,
						 " %lu->%lu(error=%ld)", from,
						 to, error);
			}
		}
	}
	local_irq_disable();
	csr_clear(CSR_SIE, SIE_SSIE);
	check(seen == sent, "ipi",
	      sfmt("all %u IPIs between the running harts (mask %lx) arrive",
		   sent, mask),
	      sfmt("got %u of %u, missing:%s", seen, sent, missing));
}
