/* Walks the structure block once, keeping a stack of the open nodes.
 * Properties come before subnodes in a blob, so a node's #address-cells
 * is known by the time its children's reg is read; a node is classified
 * when it closes, once all its properties have been seen. */
#include <stddef.h>
#include "console.h"
#include "fdt.h"

#define FDT_MAGIC	0xd00dfeed
#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4
#define FDT_END		9
#define MAX_DEPTH	8

struct node {
	const char *name;
	uint32_t addr_cells, size_cells;	/* for this node's children */
	const uint8_t *reg;
	uint32_t reg_len;
	const char *device_type, *status, *isa;
	bool imsic, aplic, serial;		/* compatible / name */
	uint32_t phandle, msi_parent, ie_irq, irq, guest_bits, num_sources;
};

struct walker {
	const uint8_t *blob;
	uint32_t off, end;		/* cursor in the structure block */
	const char *strings;
	uint32_t strings_len;
	struct node stack[MAX_DEPTH];
	int depth;			/* stack[depth] is the open node */
	struct fdt_info *info;
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t read_cells(const uint8_t *p, uint32_t cells)
{
	uint64_t v = 0;

	while (cells--) {
		v = v << 32 | be32(p);
		p += 4;
	}
	return v;
}

static bool name_is(const char *name, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == '@');
}

/* riscv,isa is "rv64imafdch_zicsr_...": single letters up to the first
 * underscore. */
static bool isa_has_ext(const char *isa, char ext)
{
	for (isa += 4; *isa && *isa != '_'; isa++)
		if (*isa == ext)
			return true;
	return false;
}

/* A multi-letter extension: "_name" followed by '_' or the end. */
bool isa_has_multi(const char *isa, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = isa; *p; p++)
		if (*p == '_' && !strncmp(p + 1, name, n) &&
		    (p[1 + n] == '\0' || p[1 + n] == '_'))
			return true;
	return false;
}

static void add_range(struct fdt_info *info, uint64_t base, uint64_t size)
{
	if (info->nresv < FDT_MAX_RESV) {
		info->resv[info->nresv].base = base;
		info->resv[info->nresv].size = size;
		info->nresv++;
	}
}

static bool enabled(const struct node *n)
{
	return !n->status || !strcmp(n->status, "okay") ||
	       !strcmp(n->status, "ok");
}

static void close_cpu(struct walker *w, const struct node *n,
		      const struct node *parent)
{
	struct fdt_info *info = w->info;
	unsigned long id;

	if (!n->device_type || strcmp(n->device_type, "cpu") || !enabled(n))
		return;
	if (!n->reg || n->reg_len < parent->addr_cells * 4)
		return;
	id = read_cells(n->reg, parent->addr_cells);
	if (!info->ncpus)
		info->cpu_has_sscofpmf = true;
	if (!n->isa || !isa_has_multi(n->isa, "sscofpmf"))
		info->cpu_has_sscofpmf = false;
	if (info->ncpus < FDT_MAX_CPUS)
		info->hartids[info->ncpus] = id;
	info->ncpus++;
	if (id > info->max_hartid)
		info->max_hartid = id;
	if (n->isa && isa_has_ext(n->isa, 'h'))
		info->cpu_has_h = true;
	if (n->isa && !info->cpu_isa)
		info->cpu_isa = n->isa;
}

static void close_regs(struct walker *w, const struct node *n,
		       const struct node *parent, bool memory)
{
	uint32_t entry = (parent->addr_cells + parent->size_cells) * 4;
	uint32_t at;

	if (!n->reg || !entry)
		return;
	for (at = 0; at + entry <= n->reg_len; at += entry) {
		uint64_t base = read_cells(n->reg + at, parent->addr_cells);
		uint64_t size = read_cells(n->reg + at + parent->addr_cells * 4,
					   parent->size_cells);

		if (!memory) {
			add_range(w->info, base, size);
		} else if (!w->info->mem.size) {
			w->info->mem.base = base;
			w->info->mem.size = size;
		}
	}
}

static void close_aia(struct walker *w, const struct node *n, const struct node *parent)
{
	struct fdt_info *info = w->info;
	struct aia_node *a;
	uint32_t entry = (parent->addr_cells + parent->size_cells) * 4, at;

	if (info->naia == FDT_MAX_AIA || !n->reg || !entry)
		return;
	a = &info->aia[info->naia++];
	a->imsic = n->imsic;
	a->enabled = enabled(n);
	a->phandle = n->phandle;
	a->msi_parent = n->msi_parent;
	a->msi = !n->imsic && n->msi_parent;
	a->irq = n->ie_irq;
	a->guest_bits = n->guest_bits;
	a->num_sources = n->num_sources;
	for (at = 0; at + entry <= n->reg_len && a->nregs < FDT_MAX_AIA_REGS; at += entry) {
		a->regs[a->nregs].base = read_cells(n->reg + at, parent->addr_cells);
		a->regs[a->nregs].size = read_cells(n->reg + at + parent->addr_cells * 4,
						    parent->size_cells);
		a->nregs++;
	}
}

/* After the walk: an MSI-mode APLIC is at its msi-parent IMSIC's level. */
static void classify_aia(struct fdt_info *info)
{
	for (unsigned int i = 0; i < info->naia; i++) {
		struct aia_node *a = &info->aia[i];

		a->mlevel = a->irq == 11;
		for (unsigned int j = 0; a->msi && j < info->naia; j++)
			if (info->aia[j].imsic && info->aia[j].phandle == a->msi_parent)
				a->mlevel = info->aia[j].irq == 11;
	}
}

static void close_node(struct walker *w)
{
	const struct node *n = &w->stack[w->depth];
	const struct node *parent = &w->stack[w->depth - 1];

	if (w->depth == 2 && !strcmp(parent->name, "cpus"))
		close_cpu(w, n, parent);
	else if (w->depth == 1 && name_is(n->name, "memory") &&
		 n->device_type && !strcmp(n->device_type, "memory"))
		close_regs(w, n, parent, true);
	else if (w->depth == 2 && !strcmp(parent->name, "reserved-memory"))
		close_regs(w, n, parent, false);
	else if (n->imsic || n->aplic)
		close_aia(w, n, parent);
	else if (n->serial && n->irq && !w->info->uart_irq && n->reg &&
		 n->reg_len >= parent->addr_cells * 4) {
		w->info->uart_base = read_cells(n->reg, parent->addr_cells);
		w->info->uart_irq = n->irq;
	}
}

/* Does a compatible string list hold this string? */
static bool compat_has(const uint8_t *val, uint32_t len, const char *want)
{
	uint32_t at = 0, n = strlen(want);

	while (at + n < len) {
		if (!strcmp((const char *)val + at, want))
			return true;
		while (at < len && val[at])
			at++;
		at++;
	}
	return false;
}

/* QEMU 7.2 pads the property with a zero triple and two stray cells:
 * keep whole, non-zero triples only. */
static void take_pmu_rows(struct fdt_info *info, const uint8_t *val,
			  uint32_t len)
{
	uint32_t at;

	for (at = 0; at + 12 <= len; at += 12) {
		struct pmu_row row = { be32(val + at), be32(val + at + 4),
				       be32(val + at + 8) };

		if ((row.first || row.last || row.counters) &&
		    info->npmu_rows < FDT_MAX_PMU_ROWS)
			info->pmu_rows[info->npmu_rows++] = row;
	}
}

static void take_prop(struct walker *w, const char *name,
		      const uint8_t *val, uint32_t len)
{
	struct node *n = &w->stack[w->depth];
	/* String properties must be NUL-terminated inside the blob. */
	const char *str = (len && val[len - 1] == '\0') ? (const char *)val : NULL;

	if (!strcmp(name, "#address-cells") && len == 4)
		n->addr_cells = be32(val);
	else if (!strcmp(name, "#size-cells") && len == 4)
		n->size_cells = be32(val);
	else if (!strcmp(name, "reg")) {
		n->reg = val;
		n->reg_len = len;
	} else if (!strcmp(name, "device_type"))
		n->device_type = str;
	else if (!strcmp(name, "status"))
		n->status = str;
	else if (!strcmp(name, "riscv,isa"))
		n->isa = str;
	else if (!strcmp(name, "riscv,event-to-mhpmcounters"))
		take_pmu_rows(w->info, val, len);
	else if (!strcmp(name, "compatible") && str) {
		n->imsic = compat_has(val, len, "riscv,imsics");
		n->aplic = compat_has(val, len, "riscv,aplic");
		n->serial = compat_has(val, len, "ns16550a");
	} else if (!strcmp(name, "phandle") && len == 4)
		n->phandle = be32(val);
	else if (!strcmp(name, "msi-parent") && len >= 4)
		n->msi_parent = be32(val);
	else if (!strcmp(name, "interrupts-extended") && len >= 8)
		n->ie_irq = be32(val + 4);
	else if (!strcmp(name, "interrupts") && len >= 4)
		n->irq = be32(val);
	else if (!strcmp(name, "riscv,guest-index-bits") && len == 4)
		n->guest_bits = be32(val);
	else if (!strcmp(name, "riscv,num-sources") && len == 4)
		n->num_sources = be32(val) < 1024 ? be32(val) : 1023;
	else if (w->depth == 1 && !strcmp(n->name, "cpus") &&
		 !strcmp(name, "timebase-frequency") && (len == 4 || len == 8))
		w->info->timebase = read_cells(val, len / 4);
	else if (w->depth == 1 && !strcmp(n->name, "chosen") &&
		 !strcmp(name, "bootargs") && str)
		w->info->bootargs = str;
}

static const uint8_t *take(struct walker *w, uint32_t len)
{
	const uint8_t *p = w->blob + w->off;

	if (len > w->end - w->off)
		return NULL;
	w->off += (len + 3) & ~3U;
	if (w->off > w->end)
		w->off = w->end;
	return p;
}

static int begin_node(struct walker *w)
{
	const char *name = (const char *)w->blob + w->off;
	uint32_t len = 0;
	struct node *n;

	while (w->off + len < w->end && name[len])
		len++;
	if (!take(w, len + 1) || ++w->depth >= MAX_DEPTH)
		return -1;
	n = &w->stack[w->depth];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->addr_cells = 2;	/* devicetree spec defaults */
	n->size_cells = 1;
	return 0;
}

static int prop(struct walker *w)
{
	const uint8_t *hdr = take(w, 8), *val;
	uint32_t len, nameoff;

	if (!hdr || w->depth < 0)
		return -1;
	len = be32(hdr);
	nameoff = be32(hdr + 4);
	val = take(w, len);
	if (!val || nameoff >= w->strings_len)
		return -1;
	take_prop(w, w->strings + nameoff, val, len);
	return 0;
}

static int walk(struct walker *w)
{
	for (;;) {
		const uint8_t *tok = take(w, 4);

		if (!tok)
			return -1;
		switch (be32(tok)) {
		case FDT_BEGIN_NODE:
			if (begin_node(w))
				return -1;
			break;
		case FDT_END_NODE:
			if (w->depth < 0)
				return -1;
			if (w->depth > 0)
				close_node(w);
			w->depth--;
			break;
		case FDT_PROP:
			if (prop(w))
				return -1;
			break;
		case FDT_NOP:
			break;
		case FDT_END:
			return w->depth == -1 ? 0 : -1;
		default:
			return -1;
		}
	}
}

static void read_memrsv(const uint8_t *blob, uint32_t off, uint32_t total,
			struct fdt_info *info)
{
	for (; off + 16 <= total; off += 16) {
		uint64_t base = read_cells(blob + off, 2);
		uint64_t size = read_cells(blob + off + 8, 2);

		if (!base && !size)
			break;
		add_range(info, base, size);
	}
}

int fdt_parse(const void *fdt, struct fdt_info *info)
{
	const uint8_t *blob = fdt;
	struct walker w;
	uint32_t total, off_struct, off_strings, off_rsv;

	memset(info, 0, sizeof(*info));
	info->bootargs = "";
	if (!blob || ((uintptr_t)blob & 3) || be32(blob) != FDT_MAGIC)
		return -1;
	total = be32(blob + 4);
	off_struct = be32(blob + 8);
	off_strings = be32(blob + 12);
	off_rsv = be32(blob + 16);
	if (off_struct >= total || off_strings >= total || off_rsv >= total)
		return -1;

	memset(&w, 0, sizeof(w));
	w.blob = blob;
	w.off = off_struct;
	w.end = be32(blob + 36) <= total - off_struct ?
		off_struct + be32(blob + 36) : total;
	w.strings = (const char *)blob + off_strings;
	w.strings_len = total - off_strings;
	w.depth = -1;
	w.info = info;
	read_memrsv(blob, off_rsv, total, info);
	/* the free bytes after the last block (strings, or the structure) */
	{
		uint32_t end_strings = off_strings + be32(blob + 32), end = w.end;

		if (end_strings > end)
			end = end_strings;
		info->free_at_end = end <= total ? total - end : 0;
	}
	if (walk(&w))
		return -1;
	classify_aia(info);
	return 0;
}
