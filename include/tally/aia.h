/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Advanced Interrupt Architecture's devices as a devicetree describes
 * them (Linux's bindings riscv,imsics.yaml and riscv,aplic.yaml):
 * lib/fdt/fdt_aia.c fills these from the tree, lib/utils/imsic.c and
 * lib/utils/aplic.c program the hardware from them, and the generic
 * platform connects the two (platform/generic/fdt_platform.c: the APLIC
 * domains; fdt_driver.c: the IMSIC's M-files as IPI device).  Plain data:
 * the parser is also built into host tests and the fuzz targets.
 */
#ifndef TALLY_AIA_H
#define TALLY_AIA_H

#include <stdbool.h>
#include <stdint.h>
#include <tally/hartmask.h>
#include <tally/memregion.h>

#define IMSIC_MAX_REGS		4	/* reg regions (groups) of one IMSIC node */
#define APLIC_MAX_CHILDREN	8	/* riscv,children read */
#define APLIC_MAX_DELEGATIONS	8	/* riscv,delegation triples read */
#define AIA_MAX_MLEVEL_APLICS	4	/* M-level APLIC domains set up */
#define AIA_MAX_SLEVEL_APLICS	4	/* S-level APLIC domains recorded */
#define APLIC_MAX_SOURCES	1023	/* the architecture's limit */
/*
 * The 4 KiB page of an APLIC domain that holds setipnum_le (0x2000) and
 * setipnum_be (0x2004); the rest of it is reserved (genmsi and the
 * targets start at 0x3000).
 */
#define APLIC_SETIPNUM_PAGE	0x2000
#define IMSIC_MIN_IDS		63
#define IMSIC_MAX_IDS		2047
/*
 * The interrupt identity the firmware takes in every hart's M-file for its
 * IPIs (the M-files are M-mode's alone: S-mode's own IDs live in S-files).
 */
#define IMSIC_IPI_ID		1

/* An IMSIC node: one interrupt file per hart, all at one privilege level. */
struct imsic_desc {
	bool present;
	bool mlevel;		/* interrupts-extended names IRQ 11, else 9 */
	uint32_t phandle;
	unsigned int num_ids;	/* riscv,num-ids */
	unsigned int guest_bits, hart_bits, group_bits, group_shift;
	unsigned long base;	/* the address with every index bit clear */
	unsigned int nr_regs;
	struct memregion regs[IMSIC_MAX_REGS];
	unsigned long nr_files;	/* interrupts-extended entries */
	/* by hart index: the address of the hart's file, 0 when none */
	unsigned long file[TALLY_MAX_HARTS];
};

/* An APLIC xmsiaddrcfg/xmsiaddrcfgh pair: how an MSI address is built. */
struct aplic_msicfg {
	unsigned long base_ppn;	/* the IMSIC's base >> 12 */
	unsigned int lhxs;	/* guest index bits */
	unsigned int lhxw;	/* hart index bits */
	unsigned int hhxs;	/* group index shift - 24 */
	unsigned int hhxw;	/* group index bits */
};

/* Sources first..last go to child domain number child (riscv,children order). */
struct aplic_delegation {
	uint32_t first, last;
	unsigned int child;
};

/* An M-level APLIC domain: what the firmware programs. */
struct aplic_desc {
	unsigned long base, size;
	unsigned int num_sources;	/* riscv,num-sources */
	bool msi_mode;			/* msi-parent, else interrupts-extended */
	unsigned int nr_idcs;		/* direct mode: its harts' IDCs */
	unsigned int nr_children;
	unsigned int nr_delegations;
	struct aplic_delegation deleg[APLIC_MAX_DELEGATIONS];
	/* MSI mode: the M-level files (mmsiaddrcfg) and, when S-level
	 * children deliver MSIs too, the S-level files (smsiaddrcfg) */
	bool has_mmsi, has_smsi;
	struct aplic_msicfg mmsi, smsi;
};

/*
 * An S-level APLIC domain: S-mode's own.  The firmware never programs it;
 * it only needs to know where it is for a board quirk (the QEMU 7.2
 * setipnum emulation, platform/generic/fdt_platform.c).
 */
struct aplic_slevel {
	unsigned long base, size;
	unsigned int num_sources;	/* riscv,num-sources */
	bool msi_mode;			/* msi-parent, else interrupts-extended */
};

/* Everything the firmware needs of a tree's AIA devices. */
struct aia_desc {
	struct imsic_desc imsic_m;	/* the M-level IMSIC (present or not) */
	struct imsic_desc imsic_s;	/* the S-level IMSIC */
	unsigned int nr_aplics;		/* M-level APLIC domains */
	struct aplic_desc aplic[AIA_MAX_MLEVEL_APLICS];
	unsigned int nr_slevel_aplics;	/* S-level domains seen (left to S-mode) */
	/* the first AIA_MAX_SLEVEL_APLICS of them */
	struct aplic_slevel slevel[AIA_MAX_SLEVEL_APLICS];
};

/* Longest message handed to the callback, with its terminating NUL */
#define FDT_AIA_MSG_MAX		200
/* Receives one complete message ("aia: ...", no newline) per problem. */
typedef void (*fdt_aia_warn_fn)(void *ctx, const char *msg);

/*
 * Read the tree's enabled IMSIC and APLIC nodes into *aia.  Harts are
 * named by their index in *map (the hart map of the same tree).  A node
 * that breaks the binding is reported (one message) and left out; the
 * firmware then treats it as absent.  Returns the number of messages.
 */
int fdt_aia_parse(const void *fdt, const struct hart_map *map, struct aia_desc *aia,
		  fdt_aia_warn_fn warn, void *ctx);

/*
 * The next stage's tree: every M-level IMSIC and APLIC node (those
 * fdt_aia_parse() would call M-level) gets status = "disabled", as
 * OpenSBI does, so that S-mode neither probes nor maps M-mode's devices.
 * Returns how many nodes it marked, or a negative libfdt error.
 */
int fdt_aia_fixup(void *fdt);

#endif
