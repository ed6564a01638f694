// SPDX-License-Identifier: BSD-2-Clause
/*
 * The table of lib/sbi/hart_ext.c put into the harts' CSRs.  At cold boot
 * every hart's plan comes from its cpu node (and the boot hart's probe of
 * the CSRs that exist); the boot hart checks that each of its rules
 * sticks, and an extension whose bits do not, or that the firmware
 * withholds, leaves every cpu node's riscv,isa-extensions and riscv,isa:
 * a hart never tells the next stage it has what would trap.  Every hart
 * start (boot, HSM start, non-retentive resume) applies the hart's plan.
 */
#include <libfdt.h>
#include <tally/console.h>
#include <tally/fdt_helpers.h>
#include <tally/fdt_isa.h>
#include <tally/hart.h>
#include <tally/hart_ext.h>
#include <tally/init.h>
#include <tally/string.h>

static unsigned int hart_plan[TALLY_MAX_HARTS];	/* by hart index */
static unsigned int boot_plan;		/* the boot hart's rules */
static unsigned int rules_failed;	/* rules whose bits did not stick there */
static unsigned int withheld_found;	/* bit i: hart_ext_withheld[i] was listed */

#if __riscv_xlen == 32
#define CSR64_READ(lo, hi, okp) ({ bool __ok2;						\
	unsigned long long __v = csr_read_guarded(lo, okp);				\
	__v |= (unsigned long long)csr_read_guarded(hi, &__ok2) << 32;			\
	*(okp) = *(okp) && __ok2; __v; })
#define CSR64_WRITE(lo, hi, v) (csr_write_guarded(lo, (unsigned long)(v)) &&		\
				csr_write_guarded(hi, (unsigned long)((v) >> 32)))
#else
#define CSR64_READ(lo, hi, okp) csr_read_guarded(lo, okp)
#define CSR64_WRITE(lo, hi, v) csr_write_guarded(lo, v)
#endif

/* A rule's CSR as 64 bits; *ok false when it does not exist here. */
static unsigned long long ext_csr_read(unsigned int csr, bool *ok)
{
	switch (csr) {
	case EXT_MENVCFG:	return CSR64_READ(CSR_MENVCFG, CSR_MENVCFGH, ok);
	case EXT_MSTATEEN0:	return CSR64_READ(CSR_MSTATEEN0, CSR_MSTATEEN0H, ok);
	case EXT_MSTATEEN1:	return CSR64_READ(CSR_MSTATEEN0 + 1, CSR_MSTATEEN0H + 1, ok);
	case EXT_MSTATEEN2:	return CSR64_READ(CSR_MSTATEEN0 + 2, CSR_MSTATEEN0H + 2, ok);
	case EXT_MSTATEEN3:	return CSR64_READ(CSR_MSTATEEN0 + 3, CSR_MSTATEEN0H + 3, ok);
	case EXT_MSECCFG:	return CSR64_READ(CSR_MSECCFG, CSR_MSECCFGH, ok);
	case EXT_MSTATUS:	return CSR64_READ(mstatus, CSR_MSTATUSH, ok);
	case EXT_MNSTATUS:	return csr_read_guarded(CSR_MNSTATUS, ok);
	case EXT_MIE:		*ok = true; return csr_read(mie);
	}
	*ok = false;
	return 0;
}

static bool ext_csr_write(unsigned int csr, unsigned long long v)
{
	switch (csr) {
	case EXT_MENVCFG:	return CSR64_WRITE(CSR_MENVCFG, CSR_MENVCFGH, v);
	case EXT_MSTATEEN0:	return CSR64_WRITE(CSR_MSTATEEN0, CSR_MSTATEEN0H, v);
	case EXT_MSTATEEN1:	return CSR64_WRITE(CSR_MSTATEEN0 + 1, CSR_MSTATEEN0H + 1, v);
	case EXT_MSTATEEN2:	return CSR64_WRITE(CSR_MSTATEEN0 + 2, CSR_MSTATEEN0H + 2, v);
	case EXT_MSTATEEN3:	return CSR64_WRITE(CSR_MSTATEEN0 + 3, CSR_MSTATEEN0H + 3, v);
	case EXT_MSECCFG:	return CSR64_WRITE(CSR_MSECCFG, CSR_MSECCFGH, v);
	case EXT_MSTATUS:	return CSR64_WRITE(mstatus, CSR_MSTATUSH, v);
	case EXT_MNSTATUS:	return csr_write_guarded(CSR_MNSTATUS, (unsigned long)v);
	case EXT_MIE:		csr_write(mie, (unsigned long)v); return true;
	}
	return false;
}

/* Puts bits into the rule's field; whether they read back. */
static bool field_write(const struct hart_ext_rule *r, unsigned long long bits)
{
	bool ok;
	unsigned long long v = ext_csr_read(r->csr, &ok);

	if (!ok || !ext_csr_write(r->csr, (v & ~r->field) | bits))
		return false;
	v = ext_csr_read(r->csr, &ok);
	return ok && (v & r->field) == bits;
}

bool hart_ext_apply(void)
{
	unsigned int rules = hart_plan[this_hart_index()];
	bool all = true;

	for (unsigned int i = 0; i < hart_ext_count; i++) {
		const struct hart_ext_rule *r = &hart_ext_rules[i];

		if ((rules >> i & 1) && !r->check_only && !field_write(r, r->value) &&
		    !r->no_probe)
			all = false;
	}
	return all;
}

/* What a cpu node has: the devicetree's list, and what the boot hart probed. */
struct cpu_isa {
	struct fdt_isa isa;	/* the node's lists (fdt_isa_read) */
	bool in_tree;		/* a cpu node: else what M-mode probed alone */
};

/* The extensions M-mode probes itself (hart_probe_features): their finding. */
static const struct {
	const char *ext;
	const bool *has;
} probes[] = {
	{ "smstateen", &hart_features.has_smstateen },
	{ "ssaia", &hart_features.has_ssaia },
	{ "sstc", &hart_features.has_sstc },
	{ "sscofpmf", &hart_features.has_sscofpmf },
};

/* Whether M-mode's probe found ext; *known: it is one the probe looks for. */
static bool probed(const char *ext, bool *known)
{
	for (unsigned int i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (!strcmp(ext, probes[i].ext)) {
			*known = true;
			return *probes[i].has;
		}
	*known = false;
	return false;
}

/*
 * Whether the rule's bits stick on this hart (the CSR is left as it was),
 * and its extension's own CSR is there where M-mode probes one (a tree may
 * list Sstc on a hart whose stimecmp traps: QEMU 7.2's spike).
 */
static bool rule_sticks(const struct hart_ext_rule *r)
{
	bool ok, known, there = probed(r->ext, &known);
	unsigned long long was;

	if (known && !there)
		return false;
	if (r->no_probe)
		return true;
	was = ext_csr_read(r->csr, &ok);
	if (!ok)
		return false;
	ok = field_write(r, hart_ext_probe_bits(r));
	ext_csr_write(r->csr, was);
	return ok;
}

bool hart_ext_failed(const char *ext)
{
	for (unsigned int i = 0; i < hart_ext_count; i++)
		if (rules_failed >> i & 1 && !strcmp(hart_ext_rules[i].ext, ext))
			return true;
	return false;
}

static bool cpu_has(const void *ctx, const char *ext)
{
	const struct cpu_isa *c = ctx;
	bool known;

	return (c->in_tree && fdt_isa_in(&c->isa, ext)) || probed(ext, &known);
}

/* The rules of one cpu node (node < 0: what M-mode probed alone). */
static unsigned int plan_of(const void *fdt, int node)
{
	struct cpu_isa c = { .in_tree = node >= 0 };

	if (c.in_tree)
		fdt_isa_read(fdt, node, &c.isa);
	return hart_ext_plan(cpu_has, &c);
}

/* Takes ext out of a cpu node, or says why it could not. */
static void remove_ext(void *fdt, int node, const char *ext)
{
	int err = fdt_isa_remove(fdt, node, ext);

	if (err)
		printf("Tally: WARNING: could not remove %s from %s: %s\n", ext,
		       fdt_get_name(fdt, node, NULL), fdt_strerror(err));
}

/* One cpu node loses what failed in its plan and what the firmware withholds. */
static void fix_cpu(void *fdt, int node, unsigned int plan, bool writable)
{
	for (unsigned int i = 0; i < hart_ext_count; i++)
		if ((rules_failed & plan) >> i & 1 && writable &&
		    fdt_isa_has(fdt, node, hart_ext_rules[i].ext))
			remove_ext(fdt, node, hart_ext_rules[i].ext);
	for (unsigned int i = 0; i < hart_ext_withheld_count; i++)
		if (fdt_isa_has(fdt, node, hart_ext_withheld[i].ext)) {
			withheld_found |= 1U << i;
			if (writable)
				remove_ext(fdt, node, hart_ext_withheld[i].ext);
		}
}

/*
 * Each usable cpu node's plan once, into hart_plan[] (indices follow the
 * same nodes: hart_map); the boot hart's is boot_plan (from its probe
 * alone when the tree leaves it out, as hart_map_boot then does).
 */
static void plan_every_cpu(const void *fdt, int cpus)
{
	unsigned long me = this_hartid(), hartid, index;
	bool boot_in_tree = false;
	int node;

	if (cpus >= 0)
		fdt_for_each_subnode(node, fdt, cpus) {
			if (!fdt_cpu_usable(fdt, node, &hartid))
				continue;
			index = hart_map_index(&hart_map, hartid);
			if (index == HART_INDEX_NONE)
				continue;
			hart_plan[index] = plan_of(fdt, node);
			if (hartid == me) {
				boot_plan = hart_plan[index];
				boot_in_tree = true;
			}
		}
	if (!boot_in_tree)
		boot_plan = hart_plan[this_hart_index()] = plan_of(fdt, -1);
}

void hart_ext_cold_init(void *fdt, bool writable)
{
	int cpus = fdt ? fdt_path_offset(fdt, "/cpus") : -1, node;
	unsigned long hartid, index;

	plan_every_cpu(fdt, cpus);
	for (unsigned int i = 0; i < hart_ext_count; i++)
		if (boot_plan >> i & 1 && !rule_sticks(&hart_ext_rules[i]))
			rules_failed |= 1U << i;
	if (cpus >= 0)
		fdt_for_each_subnode(node, fdt, cpus) {
			if (!fdt_cpu_usable(fdt, node, &hartid))
				continue;
			index = hart_map_index(&hart_map, hartid);
			if (index != HART_INDEX_NONE)
				fix_cpu(fdt, node, hart_plan[index], writable);
		}
	for (index = 0; index < TALLY_MAX_HARTS; index++)
		hart_plan[index] &= ~rules_failed;
}

/* Each extension name of the boot hart's plan once, in the table's order. */
static void print_plan_names(unsigned int rules)
{
	for (unsigned int i = 0; i < hart_ext_count; i++) {
		bool first = true;

		if (!(rules >> i & 1))
			continue;
		for (unsigned int j = 0; j < i; j++)
			if (rules >> j & 1 && !strcmp(hart_ext_rules[j].ext, hart_ext_rules[i].ext))
				first = false;
		if (first)
			printf(" %s", hart_ext_rules[i].ext);
	}
}

void hart_ext_print_banner(void)
{
	printf("Hart set-up      :");
	print_plan_names(boot_plan & ~rules_failed);
	if (!(boot_plan & ~rules_failed))
		printf(" nothing to enable");
	printf("\n");
	if (rules_failed) {
		printf("  not usable     :");
		print_plan_names(rules_failed);
		printf(" (a CSR traps or an enable bit does not stick: removed from the devicetree)\n");
	}
	for (unsigned int i = 0; i < hart_ext_withheld_count; i++)
		if (withheld_found >> i & 1)
			printf("  withheld       : %s (%s)\n", hart_ext_withheld[i].ext,
			       hart_ext_withheld[i].why);
}
