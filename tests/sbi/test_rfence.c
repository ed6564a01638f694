/* RFENCE extension (EID 0x52464E43): remote fences on this hart, on all
 * harts, on the running harts by mask; bad masks; the hypervisor fences. */
#include "hart.h"
#include "test.h"

struct target {
	unsigned long mask, base;
	const char *name;
};

struct fence {
	unsigned long fid, start, size, asid;
	const char *name;
};

static const struct fence fences[] = {
	{ SBI_RFENCE_FENCE_I, 0, 0, 0, "remote_fence_i" },
	{ SBI_RFENCE_SFENCE_VMA, 0, 0, 0, "remote_sfence_vma(whole: 0, 0)" },
	{ SBI_RFENCE_SFENCE_VMA, 0, -1UL, 0, "remote_sfence_vma(whole: 0, -1)" },
	{ SBI_RFENCE_SFENCE_VMA, 0x80200000, 0x2000, 0,
	  "remote_sfence_vma(range 0x80200000 + 0x2000)" },
	{ SBI_RFENCE_SFENCE_VMA_ASID, 0, -1UL, 1,
	  "remote_sfence_vma_asid(whole, asid 1)" },
	{ SBI_RFENCE_SFENCE_VMA_ASID, 0x80200000, 0x1000, 0,
	  "remote_sfence_vma_asid(range, asid 0)" },
};

static struct sbiret rfence(const struct fence *f, unsigned long mask,
			    unsigned long base)
{
	return sbi_ecall(SBI_EXT_RFENCE, f->fid, mask, base, f->start, f->size,
			 f->asid, 0);
}

static void check_fences(void)
{
	char running[32];
	const struct target targets[] = {
		{ 1UL << boot_hartid, 0, "self" },
		{ 0, -1UL, "all harts (base -1)" },
		{ running_mask(), 0, running },
	};
	const unsigned long beyond = machine.max_hartid + 1;
	unsigned int f, t;

	snprintf(running, sizeof(running), "running harts (mask %lx)",
		 running_mask());
	for (f = 0; f < sizeof(fences) / sizeof(fences[0]); f++) {
		for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++)
			expect_err(rfence(&fences[f], targets[t].mask,
					  targets[t].base), 0, "rfence",
				   sfmt("%s on %s returns 0", fences[f].name,
					targets[t].name));
		expect_err(rfence(&fences[f], 1, 1000), SBI_ERR_INVALID_PARAM,
			   "rfence", sfmt("%s with base 1000 returns "
					  "INVALID_PARAM", fences[f].name));
		expect_err(rfence(&fences[f], 1, beyond), SBI_ERR_INVALID_PARAM,
			   "rfence", sfmt("%s with base %lu (last hart + 1) "
					  "returns INVALID_PARAM",
					  fences[f].name, beyond));
	}
}

/* Without the H extension these must be NOT_SUPPORTED; with it the
 * firmware may implement them (0) or not (NOT_SUPPORTED). */
static void check_hfences(void)
{
	static const char *const names[] = {
		"remote_hfence_gvma_vmid", "remote_hfence_gvma",
		"remote_hfence_vvma_asid", "remote_hfence_vvma",
	};
	unsigned long fid;

	for (fid = SBI_RFENCE_HFENCE_GVMA_VMID; fid <= SBI_RFENCE_HFENCE_VVMA;
	     fid++) {
		struct sbiret r = sbi_ecall(SBI_EXT_RFENCE, fid,
					    1UL << boot_hartid, 0, 0, 0, 0, 0);
		const char *name = names[fid - SBI_RFENCE_HFENCE_GVMA_VMID];

		if (machine.cpu_has_h)
			expect_err2(r, 0, SBI_ERR_NOT_SUPPORTED, "rfence",
				    sfmt("%s (FID %lu, H present) returns %s",
					 name, fid, r.error ? "NOT_SUPPORTED"
							    : "0"));
		else
			expect_err(r, SBI_ERR_NOT_SUPPORTED, "rfence",
				   sfmt("%s (FID %lu, no H) returns "
					"NOT_SUPPORTED", name, fid));
	}
}

void test_rfence(void)
{
	check_fences();
	check_hfences();
	expect_err(sbi_call2(SBI_EXT_RFENCE, SBI_RFENCE_HFENCE_VVMA + 1, 0, -1UL),
		   SBI_ERR_NOT_SUPPORTED, "rfence",
		   "unknown FID 7 returns NOT_SUPPORTED");
}
