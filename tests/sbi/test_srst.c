/* SRST extension (EID 0x53525354). The normal run ends in a shutdown
 * (finish()); the bootargs "srst=<mode>" select a run that only does
 * one other kind of reset, which run.sh judges by QEMU's exit. */
#include "hart.h"
#include "test.h"

void test_srst_invalid(void)
{
	/* A firmware that wrongly accepts these ends the run early; run.sh
	 * then misses the summary line and reports it. */
	expect_err(sbi_system_reset(3, SBI_SRST_REASON_NONE),
		   SBI_ERR_INVALID_PARAM, "srst",
		   "system_reset(reserved type 3) returns INVALID_PARAM");
	expect_err(sbi_system_reset(SBI_SRST_TYPE_SHUTDOWN, 2),
		   SBI_ERR_INVALID_PARAM, "srst",
		   "system_reset(shutdown, reserved reason 2) returns "
		   "INVALID_PARAM");
	/*
	 * The binary encoding: reset_type and reset_reason are uint32_t, so
	 * only their low 32 bits count.  A vendor type (0xF0000000-) is
	 * NOT_SUPPORTED on QEMU virt, which is told apart from the
	 * INVALID_PARAM a firmware reading the whole register answers.
	 */
	expect_err(sbi_system_reset(0xF0000000UL, SBI_SRST_REASON_NONE),
		   SBI_ERR_NOT_SUPPORTED, "srst",
		   "system_reset(vendor type f0000000) returns NOT_SUPPORTED");
	expect_err(sbi_system_reset(HI32(1) | 0xF0000000UL,
				    SBI_SRST_REASON_NONE),
		   SBI_ERR_NOT_SUPPORTED, "srst",
		   "system_reset(type 1_f0000000: low 32 bits = vendor type) "
		   "returns NOT_SUPPORTED (32-bit parameter)");
	expect_err(sbi_system_reset(0xF0000000UL, HI32(0x80000000) | 0xE0000000UL),
		   SBI_ERR_NOT_SUPPORTED, "srst",
		   "system_reset(vendor type, reason 80000000_e0000000: low 32 "
		   "bits = implementation reason) returns NOT_SUPPORTED "
		   "(32-bit parameter)");
	expect_err(sbi_system_reset(HI32(0xFFFFFFFF) | 3, SBI_SRST_REASON_NONE),
		   SBI_ERR_INVALID_PARAM, "srst",
		   "system_reset(type ffffffff_00000003: reserved 3) returns "
		   "INVALID_PARAM");
	expect_err(sbi_system_reset(0xF0000000UL, HI32(1) | 2),
		   SBI_ERR_INVALID_PARAM, "srst",
		   "system_reset(vendor type, reason 1_00000002: reserved 2) "
		   "returns INVALID_PARAM");
	expect_err(sbi_call2(SBI_EXT_SRST, SBI_SRST_SYSTEM_RESET + 1, 0, 0),
		   SBI_ERR_NOT_SUPPORTED, "srst",
		   "unknown FID 1 returns NOT_SUPPORTED");
}

static bool word_is(const char *p, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(p, word, n) && (p[n] == '\0' || p[n] == ' ');
}

/* Resets are made with the secondaries running, as an OS would. */
static void start_secondaries_quietly(void)
{
	unsigned int up = start_all_secondaries();

	info("srst", "%u of %u secondary harts running", up, nr_secondaries);
}

void srst_mode(const char *arg)
{
	static const struct {
		const char *word;
		unsigned long type, reason;
		const char *name;
	} modes[] = {
		{ "fail", SBI_SRST_TYPE_SHUTDOWN, SBI_SRST_REASON_SYSFAIL,
		  "shutdown, reason system failure" },
		{ "cold", SBI_SRST_TYPE_COLD_REBOOT, SBI_SRST_REASON_NONE,
		  "cold reboot" },
		{ "warm", SBI_SRST_TYPE_WARM_REBOOT, SBI_SRST_REASON_NONE,
		  "warm reboot" },
		/* the binary encoding: only the low 32 bits of each count */
		{ "fail-upper", HI32(0x80000000) | SBI_SRST_TYPE_SHUTDOWN,
		  HI32(1) | SBI_SRST_REASON_SYSFAIL,
		  "shutdown, reason system failure, upper register bits set" },
	};
	unsigned int i;
	struct sbiret r;

	start_secondaries_quietly();
	if (word_is(arg, "legacy")) {
		info("srst", "calling legacy shutdown (EID 8)");
		sbi_legacy(SBI_LEGACY_SHUTDOWN, 0, 0, 0, 0);
		failf("legacy", "shutdown (EID 8) returned");
		finish();
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!word_is(arg, modes[i].word))
			continue;
		info("srst", "calling system_reset(%s)", modes[i].name);
		r = sbi_system_reset(modes[i].type, modes[i].reason);
		failf("srst", "system_reset(%s) returned (%s)", modes[i].name,
		      ret_str(r));
		finish();
	}
	failf("srst", "unknown bootargs mode srst=%s", arg);
	finish();
}
