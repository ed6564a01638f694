/* BASE extension (EID 0x10): versions, ids, probing. */
#include "test.h"

static const char *impl_name(unsigned long id)
{
	static const char *const names[] = {
		"BBL", "OpenSBI", "Xvisor", "KVM", "RustSBI", "Diosix",
		"Coffer", "Xen Project", "PolarFire HSS", "coreboot",
		"oreboot", "bhyve",
	};

	return id < sizeof(names) / sizeof(names[0]) ? names[id] : "unknown";
}

static struct sbiret base_call(unsigned long fid)
{
	return sbi_call0(SBI_EXT_BASE, fid);
}

static void check_versions(void)
{
	struct sbiret r = base_call(SBI_BASE_GET_SPEC_VERSION);
	unsigned long major = (r.value >> 24) & 0x7f, minor = r.value & 0xffffff;

	/* v0.1 firmware has no BASE at all; 0.2 is the first with it. */
	check(!r.error && (major > 0 || minor >= 2), "base",
	      sfmt("get_spec_version = %lu.%lu (>= 0.2)", major, minor),
	      sfmt("got %s, want error=0 and version >= 0.2", ret_str(r)));

	r = base_call(SBI_BASE_GET_IMPL_ID);
	check(!r.error, "base", sfmt("get_impl_id = %lu (%s)", r.value,
				     impl_name(r.value)),
	      sfmt("got %s, want error=0", ret_str(r)));
	r = base_call(SBI_BASE_GET_IMPL_VERSION);
	check(!r.error, "base", sfmt("get_impl_version = %lx", r.value),
	      sfmt("got %s, want error=0", ret_str(r)));
}

static void check_machine_ids(void)
{
	static const struct {
		unsigned long fid;
		const char *name;
	} ids[] = {
		{ SBI_BASE_GET_MVENDORID, "get_mvendorid" },
		{ SBI_BASE_GET_MARCHID, "get_marchid" },
		{ SBI_BASE_GET_MIMPID, "get_mimpid" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct sbiret r = base_call(ids[i].fid);

		check(!r.error, "base", sfmt("%s = %lx", ids[i].name, r.value),
		      sfmt("got %s, want error=0", ret_str(r)));
	}
}

static void check_probe(unsigned long eid, const char *name, bool required)
{
	struct sbiret r = sbi_call1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, eid);
	const char *what = sfmt("probe_extension(%s) is nonzero", name);

	if (!required && !r.error && !r.value) {
		skip("base", what, "optional extension absent");
		return;
	}
	check(!r.error && r.value, "base", what,
	      sfmt("got %s, want error=0 value!=0", ret_str(r)));
}

static void check_probes(void)
{
	check_probe(SBI_EXT_TIME, "TIME", true);
	check_probe(SBI_EXT_IPI, "IPI", true);
	check_probe(SBI_EXT_RFENCE, "RFENCE", true);
	check_probe(SBI_EXT_HSM, "HSM", true);
	check_probe(SBI_EXT_SRST, "SRST", true);
	check_probe(SBI_EXT_DBCN, "DBCN", false);
	check_probe(SBI_LEGACY_SET_TIMER, "legacy set_timer", true);
	check_probe(SBI_LEGACY_CONSOLE_PUTCHAR, "legacy console_putchar", true);
	check_probe(SBI_LEGACY_CONSOLE_GETCHAR, "legacy console_getchar", true);
	check_probe(SBI_LEGACY_SHUTDOWN, "legacy shutdown", true);
	/* The legacy IPI and fence calls are optional: test_legacy skips
	 * what is absent. */
	expect_val(sbi_call1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, 0x12345678),
		   0, "base", "probe_extension(0x12345678) is 0");
}

void test_base(void)
{
	check_versions();
	check_machine_ids();
	check_probes();
	expect_err(base_call(SBI_BASE_GET_MIMPID + 1), SBI_ERR_NOT_SUPPORTED,
		   "base", "unknown FID 7 returns NOT_SUPPORTED");
	expect_err(sbi_call0(0x12345678, 0), SBI_ERR_NOT_SUPPORTED, "base",
		   "unknown EID 0x12345678 returns NOT_SUPPORTED");
	info("base", "PMU probe = %ld", sbi_probe(0x504D55));
}
