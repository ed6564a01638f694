// SPDX-License-Identifier: BSD-2-Clause
/*
 * The AIA's devicetree nodes -> struct aia_desc (see <tally/aia.h>), and
 * the fix-up that hides M-mode's AIA nodes from the next stage.
 *
 * The bindings (Linux 6.12, Documentation/devicetree/bindings/
 * interrupt-controller/riscv,imsics.yaml and riscv,aplic.yaml):
 *  - an IMSIC node ("riscv,imsics") describes one interrupt file per hart
 *    at one privilege level: interrupts-extended names each hart's
 *    interrupt controller with IRQ 11 (M-level files) or 9 (S-level);
 *    entry i's file lies i * 2^riscv,guest-index-bits pages into the reg
 *    regions, taken in order; riscv,num-ids (63..2047, a multiple of 64
 *    minus one), riscv,guest-index-bits (default 0), riscv,hart-index-bits
 *    (default: enough for the entries), riscv,group-index-bits (default 0)
 *    and riscv,group-index-shift (default 24) say how MSI addresses are
 *    built;
 *  - an APLIC node ("riscv,aplic") is one interrupt domain: in direct mode
 *    interrupts-extended names the IRQ (11: M-level, 9: S-level) of each
 *    hart it delivers to, in MSI mode msi-parent names the IMSIC node that
 *    receives its MSIs (whose level is the domain's); riscv,num-sources
 *    (1..1023); riscv,children lists the child domains (child index =
 *    position) and riscv,delegation the triples <child first last> of
 *    sources the domain hands to a child.  QEMU 7.2 spells the latter
 *    riscv,delegate (an older draft of the binding): both are read.
 * Only read-only libfdt lookups are used, so the parser also runs on a
 * tree that failed fdt_validate() (as the other boot-time lookups do).
 */
#include <stdarg.h>
#include <libfdt.h>
#include <tally/aia.h>
#include <tally/fdt_helpers.h>
#include <tally/riscv.h>
#if __STDC_HOSTED__
#include <stdio.h>		/* vsnprintf */
#else
#include <tally/console.h>	/* the firmware's vsnprintf */
#endif

#define IMSIC_PAGE_SHIFT	12
#define IMSIC_GROUP_SHIFT_MIN	24	/* 2 * IMSIC_PAGE_SHIFT: HHXS counts from it */
#define MSICFG_LHXS_MAX		7	/* field widths of xmsiaddrcfgh */
#define MSICFG_LHXW_MAX		15
#define MSICFG_HHXW_MAX		7
#define MSICFG_HHXS_MAX		31
#define MSICFG_PPN_BITS		44	/* 32 in xmsiaddrcfg, 12 in ...h */

#define fdt_for_each_compatible(node, fdt, compat)				\
	for (node = fdt_node_offset_by_compatible(fdt, -1, compat); node >= 0;	\
	     node = fdt_node_offset_by_compatible(fdt, node, compat))

struct parser {
	const void *fdt;
	const struct hart_map *map;
	struct aia_desc *aia;
	fdt_aia_warn_fn warn;
	void *ctx;
	int msgs;
};

/* ---- messages --------------------------------------------------------------- */

/* "aia: <node name>: <fmt>"; names come from the blob: non-printables as '?' */
static void say(struct parser *p, int node, const char *fmt, ...)
{
	char buf[FDT_AIA_MSG_MAX];
	const char *name = fdt_get_name(p->fdt, node, NULL);
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "aia: %.60s: ", name ? name : "?");
	if (n < 0 || n >= (int)sizeof(buf))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	for (char *c = buf; *c; c++)
		if (*c < 0x20 || *c > 0x7E)
			*c = '?';
	p->msgs++;
	if (p->warn)
		p->warn(p->ctx, buf);
}

/* ---- shared readers ---------------------------------------------------------- */

/*
 * interrupts-extended as <intc irq> pairs: the irq all of them name (9 or
 * 11), or 0 when the property is missing, malformed or mixes levels.
 */
static uint32_t ie_level(const void *fdt, int node, int *entries)
{
	int len;
	const fdt32_t *ie = fdt_getprop(fdt, node, "interrupts-extended", &len);
	uint32_t irq;

	*entries = 0;
	if (!ie || len < 8 || len % 8)
		return 0;
	irq = fdt32_to_cpu(ie[1]);
	for (int i = 1; i < len / 4; i += 2)
		if (fdt32_to_cpu(ie[i]) != irq)
			return 0;
	*entries = len / 8;
	return irq == IRQ_M_EXT || irq == IRQ_S_EXT ? irq : 0;
}

static bool node_is(const void *fdt, int node, const char *compat)
{
	return node >= 0 && !fdt_node_check_compatible(fdt, node, compat);
}

/* The IMSIC node msi-parent names (its first cell), or < 0. */
static int msi_parent(const void *fdt, int node)
{
	int len;
	const fdt32_t *mp = fdt_getprop(fdt, node, "msi-parent", &len);

	if (!mp || len < 4)
		return -FDT_ERR_NOTFOUND;
	return fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(mp[0]));
}

/* M-level: an IMSIC or direct-mode APLIC whose interrupts-extended name
 * IRQ 11, or an MSI-mode APLIC whose msi-parent is such an IMSIC. */
static bool node_is_mlevel(const void *fdt, int node)
{
	int entries, parent;

	if (fdt_getprop(fdt, node, "msi-parent", NULL)) {
		parent = msi_parent(fdt, node);
		return node_is(fdt, parent, "riscv,imsics") &&
		       ie_level(fdt, parent, &entries) == IRQ_M_EXT;
	}
	return ie_level(fdt, node, &entries) == IRQ_M_EXT;
}

/* ---- IMSIC -------------------------------------------------------------------- */

static unsigned int bits_for(unsigned long n)	/* ceil(log2(n)), 0 for n <= 1 */
{
	unsigned int bits = 0;

	while (bits < 8 * sizeof(n) - 1 && (1UL << bits) < n)
		bits++;
	return bits;
}

static bool imsic_geometry(struct parser *p, int node, struct imsic_desc *d)
{
	const void *fdt = p->fdt;
	unsigned int index_bits;

	d->num_ids = fdt_u32(fdt, node, "riscv,num-ids", 0);
	if (d->num_ids < IMSIC_MIN_IDS || d->num_ids > IMSIC_MAX_IDS ||
	    (d->num_ids & IMSIC_MIN_IDS) != IMSIC_MIN_IDS) {
		say(p, node, "riscv,num-ids %u is not 64 * n - 1 in 63..2047: node ignored",
		    d->num_ids);
		return false;
	}
	d->guest_bits = fdt_u32(fdt, node, "riscv,guest-index-bits", 0);
	d->hart_bits = fdt_u32(fdt, node, "riscv,hart-index-bits", bits_for(d->nr_files));
	d->group_bits = fdt_u32(fdt, node, "riscv,group-index-bits", 0);
	d->group_shift = fdt_u32(fdt, node, "riscv,group-index-shift", IMSIC_GROUP_SHIFT_MIN);
	index_bits = IMSIC_PAGE_SHIFT + d->guest_bits + d->hart_bits;
	if (d->guest_bits > MSICFG_LHXS_MAX || d->hart_bits > MSICFG_LHXW_MAX ||
	    d->group_bits > MSICFG_HHXW_MAX || d->group_shift < IMSIC_GROUP_SHIFT_MIN ||
	    d->group_shift - IMSIC_GROUP_SHIFT_MIN > MSICFG_HHXS_MAX ||
	    (d->group_bits && d->group_shift < index_bits) ||
	    d->group_shift + d->group_bits > IMSIC_PAGE_SHIFT + MSICFG_PPN_BITS ||
	    index_bits >= 8 * sizeof(unsigned long) ||
	    bits_for(d->nr_files) > d->hart_bits + d->group_bits) {
		say(p, node, "index bits (guest %u, hart %u, group %u at %u) do not fit "
		    "%lu harts or an APLIC's MSI address: node ignored", d->guest_bits,
		    d->hart_bits, d->group_bits, d->group_shift, d->nr_files);
		return false;
	}
	return true;
}

/* reg: the regions, and the base address every one of them shares. */
static bool imsic_regs(struct parser *p, int node, struct imsic_desc *d)
{
	unsigned long index_mask = (1UL << (IMSIC_PAGE_SHIFT + d->guest_bits + d->hart_bits)) - 1;
	unsigned long group_mask = 0;
	struct memregion *r;

	if (d->group_bits && d->group_shift + d->group_bits <= 8 * sizeof(unsigned long))
		group_mask = ((1UL << d->group_bits) - 1) << d->group_shift;
	for (d->nr_regs = 0; d->nr_regs < IMSIC_MAX_REGS; d->nr_regs++) {
		r = &d->regs[d->nr_regs];
		if (fdt_reg(p->fdt, node, (int)d->nr_regs, &r->base, &r->size))
			break;
		if (!r->size || r->base + r->size < r->base ||
		    (r->base | r->size) & ((1UL << IMSIC_PAGE_SHIFT) - 1) ||
		    (d->nr_regs && (r->base & ~(index_mask | group_mask)) != d->base)) {
			say(p, node, "reg[%u] 0x%lx+0x%lx: not whole pages of one IMSIC: node ignored",
			    d->nr_regs, r->base, r->size);
			return false;
		}
		if (!d->nr_regs)
			d->base = r->base & ~(index_mask | group_mask);
	}
	if (!d->nr_regs)
		say(p, node, "no usable reg: node ignored");
	return d->nr_regs > 0;
}

/* Entry i of interrupts-extended: its file, i files into the reg regions. */
static unsigned long imsic_file_addr(const struct imsic_desc *d, unsigned long i)
{
	unsigned long off;

	if (i > (~0UL >> (IMSIC_PAGE_SHIFT + d->guest_bits)))
		return 0;
	off = i << (IMSIC_PAGE_SHIFT + d->guest_bits);
	for (unsigned int r = 0; r < d->nr_regs; r++) {
		if (off < d->regs[r].size)
			return d->regs[r].base + off;
		off -= d->regs[r].size;
	}
	return 0;
}

static bool imsic_files(struct parser *p, int node, struct imsic_desc *d)
{
	int len;
	const fdt32_t *ie = fdt_getprop(p->fdt, node, "interrupts-extended", &len);

	for (unsigned long i = 0; i < d->nr_files; i++) {
		unsigned long addr = imsic_file_addr(d, i), index = HART_INDEX_NONE;
		long hartid = fdt_hartid_of_intc(p->fdt, fdt32_to_cpu(ie[2 * i]));

		if (!addr) {
			say(p, node, "reg has room for %lu of the %lu harts interrupts-extended "
			    "names: node ignored", i, d->nr_files);
			return false;
		}
		if (hartid >= 0)
			index = hart_map_index(p->map, (unsigned long)hartid);
		if (index == HART_INDEX_NONE)
			continue;	/* not a hart the firmware serves */
		if (d->file[index]) {
			say(p, node, "hart %ld has two files: node ignored", hartid);
			return false;
		}
		d->file[index] = addr;
	}
	return true;
}

static void imsic_parse(struct parser *p, int node)
{
	struct imsic_desc d = { 0 }, *slot;
	int entries;
	uint32_t level = ie_level(p->fdt, node, &entries);

	if (!level) {
		say(p, node, "interrupts-extended missing, malformed or mixing IRQs: "
		    "node ignored");
		return;
	}
	d.mlevel = level == IRQ_M_EXT;
	d.nr_files = (unsigned long)entries;
	slot = d.mlevel ? &p->aia->imsic_m : &p->aia->imsic_s;
	if (slot->present) {
		say(p, node, "a second %s-level IMSIC: ignored", d.mlevel ? "M" : "S");
		return;
	}
	d.phandle = fdt_get_phandle(p->fdt, node);
	if (!imsic_geometry(p, node, &d) || !imsic_regs(p, node, &d) ||
	    !imsic_files(p, node, &d))
		return;
	d.present = true;
	*slot = d;
}

/* ---- APLIC -------------------------------------------------------------------- */

static void msicfg_of(const struct imsic_desc *im, struct aplic_msicfg *cfg)
{
	cfg->base_ppn = im->base >> IMSIC_PAGE_SHIFT;
	cfg->lhxs = im->guest_bits;
	cfg->lhxw = im->hart_bits;
	cfg->hhxw = im->group_bits;
	cfg->hhxs = im->group_shift - IMSIC_GROUP_SHIFT_MIN;
}

/* Child index of a phandle in riscv,children, or -1. */
static int child_index(const fdt32_t *children, int nr, uint32_t phandle)
{
	for (int i = 0; i < nr; i++)
		if (fdt32_to_cpu(children[i]) == phandle)
			return i;
	return -1;
}

static bool aplic_delegations(struct parser *p, int node, struct aplic_desc *d)
{
	int len, clen, nr_children;
	const fdt32_t *del = fdt_getprop(p->fdt, node, "riscv,delegation", &len);
	const fdt32_t *children = fdt_getprop(p->fdt, node, "riscv,children", &clen);

	if (!del)	/* QEMU 7.2's name for it */
		del = fdt_getprop(p->fdt, node, "riscv,delegate", &len);
	nr_children = children && clen > 0 ? clen / 4 : 0;
	d->nr_children = (unsigned int)nr_children;
	if (!del)
		return true;
	if (len % 12 || len / 12 > APLIC_MAX_DELEGATIONS) {
		say(p, node, "riscv,delegation: %d bytes, not 1..%d triples: domain ignored",
		    len, APLIC_MAX_DELEGATIONS);
		return false;
	}
	for (int i = 0; i < len / 12; i++) {
		uint32_t first = fdt32_to_cpu(del[3 * i + 1]), last = fdt32_to_cpu(del[3 * i + 2]);
		int child = child_index(children, nr_children, fdt32_to_cpu(del[3 * i]));

		if (child < 0 || child >= 1024 || !first || first > last ||
		    last > d->num_sources) {
			say(p, node, "riscv,delegation triple %d (child 0x%x, sources %u-%u): "
			    "no such child or sources: domain ignored", i + 1,
			    fdt32_to_cpu(del[3 * i]), first, last);
			return false;
		}
		d->deleg[d->nr_delegations++] =
			(struct aplic_delegation){ .first = first, .last = last,
						   .child = (unsigned int)child };
	}
	return true;
}

/* msi-parent or interrupts-extended: the domain's mode and level. */
static bool aplic_mode(struct parser *p, int node, struct aplic_desc *d, bool *mlevel)
{
	int entries, parent;
	uint32_t level;

	if (fdt_getprop(p->fdt, node, "msi-parent", NULL)) {
		parent = msi_parent(p->fdt, node);
		level = node_is(p->fdt, parent, "riscv,imsics") ?
			ie_level(p->fdt, parent, &entries) : 0;
		if (!level) {
			say(p, node, "msi-parent is not an IMSIC node: domain ignored");
			return false;
		}
		d->msi_mode = true;
	} else {
		level = ie_level(p->fdt, node, &entries);
		if (!level) {
			say(p, node, "neither msi-parent nor a valid interrupts-extended: "
			    "domain ignored");
			return false;
		}
		d->nr_idcs = (unsigned int)entries;
	}
	*mlevel = level == IRQ_M_EXT;
	return true;
}

/* An M-level domain in MSI mode: where its and its children's MSIs go. */
static void aplic_msi_config(struct parser *p, int node, struct aplic_desc *d)
{
	const struct imsic_desc *m = &p->aia->imsic_m, *s = &p->aia->imsic_s;
	int parent = msi_parent(p->fdt, node);

	if (m->present && m->phandle && parent >= 0 &&
	    fdt_get_phandle(p->fdt, parent) == m->phandle) {
		d->has_mmsi = true;
		msicfg_of(m, &d->mmsi);
	} else {
		say(p, node, "msi-parent is not the M-level IMSIC in use: "
		    "M-level MSI address left unset");
	}
	if (s->present && d->nr_children) {
		d->has_smsi = true;
		msicfg_of(s, &d->smsi);
	}
}

static void aplic_parse(struct parser *p, int node)
{
	struct aplic_desc d = { 0 };
	struct aia_desc *aia = p->aia;
	bool mlevel;

	if (fdt_reg(p->fdt, node, 0, &d.base, &d.size) || !d.size) {
		say(p, node, "no usable reg: domain ignored");
		return;
	}
	d.num_sources = fdt_u32(p->fdt, node, "riscv,num-sources", 0);
	if (!d.num_sources || d.num_sources > APLIC_MAX_SOURCES) {
		say(p, node, "riscv,num-sources %u not in 1..%u: domain ignored",
		    d.num_sources, APLIC_MAX_SOURCES);
		return;
	}
	if (!aplic_mode(p, node, &d, &mlevel))
		return;
	if (!mlevel) {	/* S-mode's own: not touched, only recorded */
		if (aia->nr_slevel_aplics < AIA_MAX_SLEVEL_APLICS)
			aia->slevel[aia->nr_slevel_aplics] = (struct aplic_slevel){
				.base = d.base, .size = d.size,
				.num_sources = d.num_sources, .msi_mode = d.msi_mode };
		aia->nr_slevel_aplics++;
		return;
	}
	if (!aplic_delegations(p, node, &d))
		return;
	if (d.msi_mode)
		aplic_msi_config(p, node, &d);
	if (aia->nr_aplics == AIA_MAX_MLEVEL_APLICS) {
		say(p, node, "more than %d M-level domains: ignored", AIA_MAX_MLEVEL_APLICS);
		return;
	}
	aia->aplic[aia->nr_aplics++] = d;
}

/* ---- entry points ------------------------------------------------------------- */

int fdt_aia_parse(const void *fdt, const struct hart_map *map, struct aia_desc *aia,
		  fdt_aia_warn_fn warn, void *ctx)
{
	struct parser p = { .fdt = fdt, .map = map, .aia = aia, .warn = warn, .ctx = ctx };
	int node;

	*aia = (struct aia_desc){ 0 };
	/* the IMSICs first: an MSI-mode APLIC's level and addresses are theirs */
	fdt_for_each_compatible(node, fdt, "riscv,imsics")
		if (fdt_node_enabled(fdt, node))
			imsic_parse(&p, node);
	fdt_for_each_compatible(node, fdt, "riscv,aplic")
		if (fdt_node_enabled(fdt, node))
			aplic_parse(&p, node);
	return p.msgs;
}

/* The first enabled M-level IMSIC or APLIC node, or < 0. */
static int next_mlevel_node(const void *fdt)
{
	static const char *const compat[] = { "riscv,imsics", "riscv,aplic" };
	int node;

	for (unsigned int i = 0; i < 2; i++)
		fdt_for_each_compatible(node, fdt, compat[i])
			if (fdt_node_enabled(fdt, node) && node_is_mlevel(fdt, node))
				return node;
	return -FDT_ERR_NOTFOUND;
}

int fdt_aia_fixup(void *fdt)
{
	int node, err, marked = 0;

	if (next_mlevel_node(fdt) < 0)
		return 0;
	err = fdt_open_into(fdt, fdt, fdt_totalsize(fdt) + 512);
	/* a node once disabled no longer matches: each pass marks one more */
	while (!err && (node = next_mlevel_node(fdt)) >= 0 && marked < 64) {
		err = fdt_setprop_string(fdt, node, "status", "disabled");
		marked++;
	}
	if (!err)
		err = fdt_pack(fdt);
	return err ? err : marked;
}
