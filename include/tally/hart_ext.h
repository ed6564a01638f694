/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ISA extensions M-mode must enable before S-mode may use them, as one
 * table: extension -> CSR and bits (lib/sbi/hart_ext.c; docs/porting.md
 * has it with the spec section of each row).
 */
#ifndef TALLY_HART_EXT_H
#define TALLY_HART_EXT_H

#include <stdbool.h>

/* The M-mode CSRs the rules write, each seen as 64 bits (RV32: its h half). */
enum hart_ext_csr {
	EXT_MENVCFG,
	EXT_MSTATEEN0,
	EXT_MSTATEEN1,
	EXT_MSTATEEN2,
	EXT_MSTATEEN3,
	EXT_MSECCFG,
	EXT_MSTATUS,	/* mstatus, mstatush */
	EXT_MNSTATUS,	/* XLEN bits */
	EXT_MIE,	/* XLEN bits: only checked (check_only) */
	EXT_CSRS
};

struct hart_ext_rule {
	const char *ext;		/* the extension, as the devicetree names it */
	const char *with;		/* only if the hart also has this one (or NULL) */
	const char *without;		/* only if the hart does not have this one */
	unsigned char csr;		/* enum hart_ext_csr */
	bool no_probe;			/* the field is not written to see if it sticks */
	bool check_only;		/* only checked at cold boot: nothing to apply */
	unsigned long long field;	/* the bits the rule owns */
	unsigned long long value;	/* what it puts there at every hart start */
	const char *why;		/* what S-mode uses it for; the spec's section */
};

extern const struct hart_ext_rule hart_ext_rules[];
extern const unsigned int hart_ext_count;

/*
 * Extensions the firmware keeps from the next stage whatever the hardware
 * has: their devicetree entries are removed, and the banner says why.
 */
struct hart_ext_withheld {
	const char *ext;
	const char *why;
};
extern const struct hart_ext_withheld hart_ext_withheld[];
extern const unsigned int hart_ext_withheld_count;

/* Which extensions a hart has: its devicetree's, and those M-mode probed. */
typedef bool (*hart_ext_has_fn)(const void *ctx, const char *ext);

/* The rules that apply to a hart (bit i: hart_ext_rules[i]). */
unsigned int hart_ext_plan(hart_ext_has_fn has, const void *ctx);
/* The bits a rule writes to see if its field sticks (value, or the whole field). */
unsigned long long hart_ext_probe_bits(const struct hart_ext_rule *r);

/*
 * Cold boot, boot hart (lib/sbi/hart_setup.c): plans every hart from its
 * cpu node, applies the boot hart's rules and checks that they stick, and
 * removes from every cpu node an extension whose rule did not; the banner
 * line comes from hart_ext_print_banner().
 */
void hart_ext_cold_init(void *fdt, bool tree_writable);
/* Every hart start: the calling hart's rules into its CSRs; false if one did not stick. */
bool hart_ext_apply(void);
/* Whether the boot hart's rules for ext failed (cold boot, after hart_ext_cold_init). */
bool hart_ext_failed(const char *ext);
void hart_ext_print_banner(void);

#endif
