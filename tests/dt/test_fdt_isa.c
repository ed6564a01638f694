// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host tests of the hart set-up's pure part: a cpu node's ISA extensions
 * (lib/fdt/fdt_isa.c: riscv,isa-extensions, else riscv,isa) and the rules
 * of lib/sbi/hart_ext.c that follow from them.  The devicetrees are made
 * here with libfdt, as QEMU 7.2 (riscv,isa only) and QEMU 10/11 (both
 * properties) write them.  One line per check; exit status 1 on failure.
 */
#include <libfdt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <tally/fdt_isa.h>
#include <tally/hart_ext.h>
#include <tally/riscv.h>

static int failures;

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: dt: isa: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures += !ok;
}

static char blob[16384];

/* A tree with one cpu node: riscv,isa (or none) and the list (or none). */
static int make_cpu(const char *isa, const char *const *exts)
{
	char list[2048];
	int len = 0;

	for (int i = 0; exts && exts[i]; i++) {
		strcpy(list + len, exts[i]);
		len += (int)strlen(exts[i]) + 1;
	}
	fdt_create(blob, sizeof(blob));
	fdt_finish_reservemap(blob);
	fdt_begin_node(blob, "");
	fdt_begin_node(blob, "cpus");
	fdt_begin_node(blob, "cpu@0");
	fdt_property_string(blob, "device_type", "cpu");
	if (isa)
		fdt_property_string(blob, "riscv,isa", isa);
	if (exts)
		fdt_property(blob, "riscv,isa-extensions", list, len);
	fdt_end_node(blob);
	fdt_end_node(blob);
	fdt_end_node(blob);
	fdt_finish(blob);
	fdt_open_into(blob, blob, sizeof(blob));
	return fdt_path_offset(blob, "/cpus/cpu@0");
}

struct isa_ctx {
	int node;
};

static bool has(const void *ctx, const char *ext)
{
	return fdt_isa_has(blob, ((const struct isa_ctx *)ctx)->node, ext);
}

/* The bits the plan puts into one CSR (later rules win, as when applied). */
static unsigned long long plan_value(unsigned int plan, unsigned int csr,
				     unsigned long long *field)
{
	unsigned long long v = 0;

	*field = 0;
	for (unsigned int i = 0; i < hart_ext_count; i++)
		if (plan >> i & 1 && hart_ext_rules[i].csr == csr) {
			v = (v & ~hart_ext_rules[i].field) | hart_ext_rules[i].value;
			*field |= hart_ext_rules[i].field;
		}
	return v;
}

static bool plan_names(unsigned int plan, const char *ext)
{
	for (unsigned int i = 0; i < hart_ext_count; i++)
		if (plan >> i & 1 && !strcmp(hart_ext_rules[i].ext, ext))
			return true;
	return false;
}

static void test_string(void)
{
	int cpu = make_cpu("rv64imafdch_zicbom_zicboz_zicsr_svadu", NULL);

	check(fdt_isa_has(blob, cpu, "zicboz") && fdt_isa_has(blob, cpu, "zicbom") &&
	      fdt_isa_has(blob, cpu, "svadu"),
	      "riscv,isa alone (QEMU 7.2): the extensions after underscores are found, the last one too");
	check(!fdt_isa_has(blob, cpu, "zicb") && !fdt_isa_has(blob, cpu, "svad") &&
	      !fdt_isa_has(blob, cpu, "rv64imafdch") && !fdt_isa_has(blob, cpu, "h"),
	      "riscv,isa: a prefix of an extension, the base string and a single letter are not extensions");
	check(!fdt_isa_remove(blob, cpu, "zicbom") &&
	      !strcmp(fdt_getprop(blob, cpu, "riscv,isa", NULL), "rv64imafdch_zicboz_zicsr_svadu"),
	      "riscv,isa: an extension in the middle is removed with its underscore");
	check(!fdt_isa_remove(blob, cpu, "svadu") &&
	      !strcmp(fdt_getprop(blob, cpu, "riscv,isa", NULL), "rv64imafdch_zicboz_zicsr"),
	      "riscv,isa: the last extension is removed");
	check(!fdt_isa_remove(blob, cpu, "zkr") &&
	      !strcmp(fdt_getprop(blob, cpu, "riscv,isa", NULL), "rv64imafdch_zicboz_zicsr"),
	      "riscv,isa: removing one it does not have changes nothing");
}

static void test_list(void)
{
	static const char *const exts[] = { "i", "m", "a", "zicbom", "zicboz", "zicntr",
					    "svadu", "sscofpmf", "sstc", NULL };
	int cpu = make_cpu("rv64imafdc_zicbom_zicboz_zicntr_svadu_sscofpmf_sstc", exts);
	const char *list;
	int len;

	/* the list wins: Linux reads riscv,isa only without it */
	check(fdt_isa_has(blob, cpu, "zicboz") && fdt_isa_has(blob, cpu, "i") &&
	      !fdt_isa_has(blob, cpu, "zicb"),
	      "riscv,isa-extensions: whole strings only, single letters too");
	check(!fdt_isa_remove(blob, cpu, "zicboz") && !fdt_isa_has(blob, cpu, "zicboz") &&
	      !strcmp(fdt_getprop(blob, cpu, "riscv,isa", NULL),
		      "rv64imafdc_zicbom_zicntr_svadu_sscofpmf_sstc"),
	      "an extension removed from riscv,isa-extensions leaves riscv,isa too");
	list = fdt_getprop(blob, cpu, "riscv,isa-extensions", &len);
	check(len == (int)strlen("i m a zicbom zicntr svadu sscofpmf sstc ") &&
	      !strcmp(list + len - 5, "sstc"),
	      "riscv,isa-extensions keeps the others in order");
	check(!fdt_isa_remove(blob, cpu, "sstc") && !fdt_isa_remove(blob, cpu, "i") &&
	      fdt_isa_has(blob, cpu, "m") && !fdt_isa_has(blob, cpu, "sstc") &&
	      fdt_isa_has(blob, cpu, "sscofpmf"),
	      "the first and the last entries are removed");
}

/* QEMU 10.0's -cpu rv64 (Debian 13): the hart that panicked Linux at boot. */
static void test_plan_qemu10(void)
{
	static const char *const exts[] = { "i", "m", "a", "f", "d", "c", "h", "zic64b",
		"zicbom", "zicbop", "zicboz", "ziccamoa", "ziccif", "zicclsm", "ziccrse",
		"zicntr", "zicsr", "zifencei", "zihintntl", "zihintpause", "zihpm", "zmmul",
		"za64rs", "zaamo", "zalrsc", "zawrs", "zfa", "zca", "zcd", "zba", "zbb", "zbc",
		"zbs", "ssccptr", "sscofpmf", "sscounterenw", "sstc", "sstvala", "sstvecd",
		"ssu64xl", "svade", "svadu", "svvptc", "sdtrig", NULL };
	struct isa_ctx ctx = { make_cpu("rv64imafdch_zicbom_zicboz", exts) };
	unsigned int plan = hart_ext_plan(has, &ctx);
	unsigned long long field, v = plan_value(plan, EXT_MENVCFG, &field);

	check((v & MENVCFG_CBZE) && (v & MENVCFG_CBCFE) &&
	      (v & MENVCFG_CBIE) == MENVCFG_CBIE && (v & MENVCFG_STCE),
	      "QEMU 10 rv64: menvcfg gets CBZE (clear_page's cbo.zero), CBCFE, CBIE=11, STCE");
	check((field & MENVCFG_ADUE) && !(v & MENVCFG_ADUE),
	      "QEMU 10 rv64: Svade and Svadu listed: ADUE off at boot, FWFT turns it on");
	check(!(field & MENVCFG_PBMTE) && !plan_names(plan, "smstateen") &&
	      !plan_names(plan, "zkr"),
	      "QEMU 10 rv64: no rule for what it lacks (Svpbmt, Smstateen, Zkr)");
}

/* An RVA23 hart (QEMU's rva23s64, AIA): every mstateen0 bit S-mode needs. */
static void test_plan_rva23(void)
{
	static const char *const exts[] = { "i", "m", "a", "zicbom", "zicboz", "svpbmt",
		"svadu", "smstateen", "ssstateen", "ssaia", "smaia", "sscsrind", "smcsrind",
		"zkr", "sdtrig", "zicfiss", "zicfilp", "ssnpm", "smdbltrp", "smrnmi", NULL };
	struct isa_ctx ctx = { make_cpu(NULL, exts) };
	unsigned int plan = hart_ext_plan(has, &ctx);
	unsigned long long field, v = plan_value(plan, EXT_MSTATEEN0, &field);

	check(v == (MSTATEEN_SE | MSTATEEN0_ENVCFG | MSTATEEN0_AIA | MSTATEEN0_IMSIC |
		    MSTATEEN0_CSRIND | MSTATEEN0_CONTEXT),
	      "rva23: mstateen0 gets SE0, ENVCFG (senvcfg at every context switch), AIA, "
	      "IMSIC, CSRIND (siselect/sireg), CONTEXT");
	for (unsigned int csr = EXT_MSTATEEN1; csr <= EXT_MSTATEEN3; csr++)
		check(plan_value(plan, csr, &field) == MSTATEEN_SE,
		      "rva23: mstateen%u gets SE", csr - EXT_MSTATEEN0);
	v = plan_value(plan, EXT_MENVCFG, &field);
	check((v & MENVCFG_PBMTE) && (v & MENVCFG_ADUE) &&
	      (field & (MENVCFG_LPE | MENVCFG_SSE | MENVCFG_PMM)) ==
		      (MENVCFG_LPE | MENVCFG_SSE | MENVCFG_PMM) &&
	      !(v & (MENVCFG_LPE | MENVCFG_SSE | MENVCFG_PMM)),
	      "rva23: PBMTE; ADUE on (Svadu without Svade); LPE, SSE, PMM off until FWFT");
	check(plan_value(plan, EXT_MSECCFG, &field) == MSECCFG_SSEED &&
	      field == (MSECCFG_SSEED | MSECCFG_USEED),
	      "rva23: Zkr: mseccfg.SSEED set, USEED clear");
	check(plan_value(plan, EXT_MSTATUS, &field) == 0 && field == MSTATUS64_MDT &&
	      plan_value(plan, EXT_MNSTATUS, &field) == MNSTATUS_NMIE,
	      "rva23: Smdbltrp's MDT cleared, Smrnmi's NMIE set");
}

static void test_plan_rules(void)
{
	static const char *const aia_only[] = { "ssaia", NULL };
	struct isa_ctx ctx = { make_cpu(NULL, aia_only) };
	unsigned long long field;

	check(plan_value(hart_ext_plan(has, &ctx), EXT_MSTATEEN0, &field) == 0 && !field,
	      "Ssaia without Smstateen: mstateen0 is not touched");
	for (unsigned int i = 0; i < hart_ext_count; i++) {
		const struct hart_ext_rule *r = &hart_ext_rules[i];

		if ((r->value & ~r->field) || !r->ext || !r->why ||
		    !(hart_ext_probe_bits(r) & r->field))
			check(false, "rule %u (%s): value inside its field, probe bits, a reason", i,
			      r->ext ? r->ext : "?");
	}
	check(true, "every rule's value lies inside its field, and says why");
}

int main(void)
{
	test_string();
	test_list();
	test_plan_qemu10();
	test_plan_rva23();
	test_plan_rules();
	return failures ? 1 : 0;
}
