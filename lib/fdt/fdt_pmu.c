// SPDX-License-Identifier: BSD-2-Clause
/*
 * The riscv,pmu devicetree node -> struct pmu_map (see <tally/fdt_pmu.h>).
 *
 * Only libfdt calls present in Linux 6.1's copy of libfdt are used, and the
 * map is reached only through its public builder, so this file builds the
 * same for the firmware and for the host tools and tests.
 */
#include <stdarg.h>
#include <libfdt.h>
#include <tally/fdt_pmu.h>
#include <tally/fdt_validate.h>
#include <tally/sbi_pmu_spec.h>
#if __STDC_HOSTED__
#include <stdio.h>		/* vsnprintf */
#else
#include <tally/console.h>	/* the firmware's vsnprintf */
#endif

#define BIT32(n)	(1U << (n))

static const char *const prop_names[FDT_PMU_NR_PROPS] = {
	[FDT_PMU_PROP_COUNTERS] = "riscv,event-to-mhpmcounters",
	[FDT_PMU_PROP_EVENTS] = "riscv,event-to-mhpmevent",
	[FDT_PMU_PROP_RAW] = "riscv,raw-event-to-mhpmcounters",
};

static const unsigned int row_cells[FDT_PMU_NR_PROPS] = {
	[FDT_PMU_PROP_COUNTERS] = 3,	/* first, last, counters */
	[FDT_PMU_PROP_EVENTS] = 3,	/* event, selector hi, selector lo */
	[FDT_PMU_PROP_RAW] = 5,		/* inv hi, inv lo, mask hi, lo, ctrs */
};

const char *fdt_pmu_prop_name(enum fdt_pmu_prop prop)
{
	return (unsigned int)prop < FDT_PMU_NR_PROPS ? prop_names[prop] : "?";
}

struct parser {
	const void *fdt;
	struct pmu_map *map;
	uint32_t hart_counters;		/* bit 1 always set: see check_absent */
	fdt_pmu_warn_fn warn;
	void *ctx;
	struct fdt_pmu_stats *st;
	unsigned int row_msgs[FDT_PMU_NR_PROPS];	/* row messages per property */
};

/*
 * Row messages per property before the rest are only counted: a map of
 * thousands of bad rows must not print thousands of lines at boot.  One
 * summary line (say_rows_not_listed) follows the property's rows.
 */
#define ROW_MSGS_MAX	8

/* The rows of one property, trailing padding and partial row cut off. */
struct matrix {
	enum fdt_pmu_prop prop;
	const fdt32_t *cells;
	unsigned int nr_rows;
	unsigned int zero_rows;		/* trailing all-zero rows */
	unsigned int extra;		/* cells after the last whole row */
	bool padding;		/* zero cells from row nr_rows to the end */
};

/* ---- messages ----------------------------------------------------------- */

/*
 * Node and property names come from the blob and may hold any byte: a
 * message goes to the boot console, so anything but printable ASCII is
 * shown as '?' (found by tests/fuzz/fuzz_dt.c).
 */
static void send(struct parser *p, char *buf)
{
	for (char *c = buf; *c; c++)
		if (*c < 0x20 || *c > 0x7E)
			*c = '?';
	p->st->warnings++;
	if (p->warn)
		p->warn(p->ctx, buf);
}

static void vappend(char *buf, unsigned int *len, const char *fmt, va_list ap)
{
	int n;

	if (*len >= FDT_PMU_MSG_MAX - 1)
		return;
	n = vsnprintf(buf + *len, FDT_PMU_MSG_MAX - *len, fmt, ap);
	if (n > 0)
		*len += (unsigned int)n;
	if (*len > FDT_PMU_MSG_MAX - 1)
		*len = FDT_PMU_MSG_MAX - 1;
}

static void append(char *buf, unsigned int *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(buf, len, fmt, ap);
	va_end(ap);
}

/* "pmu: <fmt>" */
static void say(struct parser *p, const char *fmt, ...)
{
	char buf[FDT_PMU_MSG_MAX];
	unsigned int len = 0;
	va_list ap;

	append(buf, &len, "pmu: ");
	va_start(ap, fmt);
	vappend(buf, &len, fmt, ap);
	va_end(ap);
	send(p, buf);
}

/* "pmu: <property> row <n>: <fmt><tail>", n counted from 1 */
static void say_row(struct parser *p, const struct matrix *m, unsigned int row,
		    const char *tail, const char *fmt, ...)
{
	char buf[FDT_PMU_MSG_MAX];
	unsigned int len = 0;
	va_list ap;

	if (++p->row_msgs[m->prop] > ROW_MSGS_MAX)
		return;		/* counted; say_rows_not_listed sums them up */
	append(buf, &len, "pmu: %s row %u: ", prop_names[m->prop], row + 1);
	va_start(ap, fmt);
	vappend(buf, &len, fmt, ap);
	va_end(ap);
	append(buf, &len, "%s", tail);
	send(p, buf);
}

#define SKIPPED		", row skipped"

/* After a property's rows: how many row messages the cap held back. */
static void say_rows_not_listed(struct parser *p, const struct matrix *m)
{
	unsigned int more = p->row_msgs[m->prop];

	if (more <= ROW_MSGS_MAX)
		return;
	more -= ROW_MSGS_MAX;
	say(p, "%s: ... and %u more row%s with problems, not listed",
	    prop_names[m->prop], more, more == 1 ? "" : "s");
}

static const char *plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}

/* ---- reading a matrix property ------------------------------------------ */

static uint32_t cell(const struct matrix *m, unsigned int row, unsigned int i)
{
	return fdt32_ld(&m->cells[row * row_cells[m->prop] + i]);
}

static uint64_t cell64(const struct matrix *m, unsigned int row, unsigned int i)
{
	return ((uint64_t)cell(m, row, i) << 32) | cell(m, row, i + 1);
}

static bool row_is_zero(const struct matrix *m, unsigned int row)
{
	for (unsigned int i = 0; i < row_cells[m->prop]; i++)
		if (cell(m, row, i))
			return false;
	return true;
}

/*
 * Find the property and its rows.  A property that is not a list of 32-bit
 * cells is ignored (one message).  Zero cells from a row boundary to the
 * end are padding, and a partial last row holding a non-zero cell is
 * dropped: say_tail() reports either with one message after the rows.
 */
static bool read_matrix(struct parser *p, int node, enum fdt_pmu_prop prop,
			struct matrix *m)
{
	const char *name = prop_names[prop];
	unsigned int rc = row_cells[prop], ncells, whole, used;
	int len;

	m->prop = prop;
	m->nr_rows = 0;
	m->cells = fdt_getprop(p->fdt, node, name, &len);
	if (!m->cells) {
		if (len != -FDT_ERR_NOTFOUND)
			say(p, "%s: unreadable (%s), property ignored", name,
			    fdt_strerror(len));
		return false;
	}
	p->st->present[prop] = true;
	if (len == 0) {
		say(p, "%s: empty, property ignored", name);
		return false;
	}
	if (len % 4) {
		say(p, "%s: %d bytes is not a list of 32-bit cells, property ignored",
		    name, len);
		return false;
	}

	ncells = (unsigned int)len / 4;
	whole = ncells / rc;
	m->extra = ncells % rc;
	/* rows up to the last one holding a non-zero cell */
	for (used = ncells; used && !fdt32_ld(&m->cells[used - 1]); used--)
		;
	used = (used + rc - 1) / rc;
	p->st->rows[prop] = whole + (m->extra ? 1 : 0);
	if (used * rc < ncells) {	/* a zero tail starting at a row */
		m->nr_rows = used;
		m->zero_rows = whole - used;
		m->padding = true;
	} else {
		m->nr_rows = whole;
		m->zero_rows = 0;
		m->padding = false;
	}
	return true;
}

/* After the rows: one message for the padding or the partial row. */
static void say_tail(struct parser *p, const struct matrix *m)
{
	const char *name = prop_names[m->prop];
	unsigned int z = m->zero_rows, x = m->extra, row = m->nr_rows + 1;

	if (m->padding && z && x)
		say(p, "%s row %u: trailing zero padding (%u zero row%s + %u stray cell%s), ignored",
		    name, row, z, plural(z), x, plural(x));
	else if (m->padding && z)
		say(p, "%s row %u: trailing zero padding (%u zero row%s), ignored",
		    name, row, z, plural(z));
	else if (m->padding)
		say(p, "%s row %u: trailing zero padding (%u stray cell%s), ignored",
		    name, row, x, plural(x));
	else if (x)
		say(p, "%s row %u: partial row of %u cell%s (a row has %u), ignored",
		    name, row, x, plural(x), row_cells[m->prop]);
}

/* ---- messages for builder errors ---------------------------------------- */

static void say_counters(struct parser *p, const struct matrix *m,
			 unsigned int row, int err, uint32_t counters)
{
	switch (err) {
	case PMU_MAP_ERR_COUNTERS_EMPTY:
		say_row(p, m, row, SKIPPED, "counter bitmap is 0");
		break;
	case PMU_MAP_ERR_COUNTER_TIME:
		say_row(p, m, row, SKIPPED,
			"counters 0x%08x name counter 1 (time), which counts no event",
			counters);
		break;
	case PMU_MAP_ERR_FIXED_COUNTER:
		say_row(p, m, row, SKIPPED,
			m->prop == FDT_PMU_PROP_RAW ?
			"counters 0x%08x name counter 0 or 2, which count only cycles and instructions" :
			"counters 0x%08x name counter 0 or 2 for events other than 0x1 (cycles) / 0x2 (instructions)",
			counters);
		break;
	default:
		say_row(p, m, row, SKIPPED, "%s", pmu_map_strerror(err));
		break;
	}
}

static void say_event(struct parser *p, const struct matrix *m,
		      unsigned int row, int err, const char *what,
		      uint32_t event)
{
	switch (err) {
	case PMU_MAP_ERR_EVENT_WIDTH:
		say_row(p, m, row, SKIPPED,
			"%s 0x%x is wider than 20 bits", what, event);
		break;
	case PMU_MAP_ERR_EVENT_TYPE:
		say_row(p, m, row, SKIPPED,
			"%s 0x%x is of type %u, not a hardware (0) or cache (1) event",
			what, event, (unsigned int)SBI_PMU_EVENT_TYPE(event));
		break;
	case PMU_MAP_ERR_NO_EVENT:
		say_row(p, m, row, SKIPPED,
			"%s 0x0 is SBI_PMU_HW_NO_EVENT", what);
		break;
	}
}

/* Counters the hart lacks (bit 1 never counts as absent: the map refuses it). */
static uint32_t absent(const struct parser *p, uint32_t counters)
{
	return counters & ~p->hart_counters;
}

static void say_absent(struct parser *p, const struct matrix *m,
		       unsigned int row, uint32_t counters)
{
	uint32_t missing = absent(p, counters);

	if (missing == counters)
		say_row(p, m, row, SKIPPED,
			"counters 0x%08x name only counters this hart lacks (it has 0x%08x)",
			counters, p->hart_counters & ~BIT32(PMU_COUNTER_TIME));
	else
		say_row(p, m, row, "",
			"counters 0x%08x name counters this hart lacks (0x%08x), row kept with 0x%08x",
			counters, missing, counters & ~missing);
}

/* Rows a table had no room for: counted, then one message for them all. */
struct table_full {
	unsigned int nr;
	unsigned int first_row;
};

static void say_full(struct parser *p, const struct matrix *m,
		     const struct table_full *full, unsigned int max)
{
	if (!full->nr)
		return;
	say(p, "%s rows %u-%u: table full (%u rows), %u row%s skipped",
	    prop_names[m->prop], full->first_row + 1, m->nr_rows, max,
	    full->nr, plural(full->nr));
}

/* An all-zero row (QEMU pads with them) is reported and skipped. */
static inline bool skip_zero_row(struct parser *p, const struct matrix *m,
				 unsigned int row)
{
	if (!row_is_zero(m, row))
		return false;
	say_row(p, m, row, SKIPPED, "all-zero row");
	return true;
}

/*
 * The outcomes every table shares: the row was stored (reporting the
 * counters the hart lacks, dropped from its bitmap; missing is 0 for
 * selector rows), or the table is full.  False for a row refused for a
 * reason of its own, which the caller reports.
 */
static bool row_stored_or_full(struct parser *p, const struct matrix *m,
			       unsigned int row, int err, uint32_t counters,
			       uint32_t missing, struct table_full *full)
{
	if (err == PMU_MAP_OK) {
		p->st->loaded[m->prop]++;
		if (missing)
			say_absent(p, m, row, counters);
		return true;
	}
	if (err == PMU_MAP_ERR_FULL) {
		if (!full->nr++)
			full->first_row = row;
		return true;
	}
	return false;
}

/* ---- the three properties ----------------------------------------------- */

static void say_overlap(struct parser *p, const struct matrix *m,
			unsigned int row, uint32_t first, uint32_t last)
{
	struct pmu_map_range r;

	for (unsigned int i = 0; pmu_map_range_at(p->map, i, &r); i++) {
		if (r.first > last || r.last < first)
			continue;
		if (r.first == first && r.last == last)
			say_row(p, m, row, SKIPPED,
				"events 0x%x-0x%x repeat an earlier row",
				first, last);
		else
			say_row(p, m, row, SKIPPED,
				"events 0x%x-0x%x overlap the earlier row 0x%x-0x%x",
				first, last, r.first, r.last);
		return;
	}
	say_row(p, m, row, SKIPPED, "%s", pmu_map_strerror(PMU_MAP_ERR_OVERLAP));
}

static void load_counters(struct parser *p, const struct matrix *m)
{
	struct table_full full = { 0, 0 };
	unsigned int row;

	for (row = 0; row < m->nr_rows; row++) {
		uint32_t first = cell(m, row, 0), last = cell(m, row, 1);
		uint32_t counters = cell(m, row, 2);
		uint32_t missing = absent(p, counters);
		int err;

		if (skip_zero_row(p, m, row))
			continue;
		err = pmu_map_check_range(first, last, counters);
		if (!err && missing == counters) {
			say_absent(p, m, row, counters);
			continue;
		}
		if (!err)
			err = pmu_map_add_range(p->map, first, last,
						counters & ~missing);
		if (row_stored_or_full(p, m, row, err, counters, missing, &full))
			continue;
		switch (err) {
		case PMU_MAP_ERR_EVENT_WIDTH:
		case PMU_MAP_ERR_EVENT_TYPE:
		case PMU_MAP_ERR_NO_EVENT:
			if (pmu_map_check_range(first, first, BIT32(3)) == err)
				say_event(p, m, row, err, "first event", first);
			else
				say_event(p, m, row, err, "last event", last);
			break;
		case PMU_MAP_ERR_RANGE_ORDER:
			say_row(p, m, row, SKIPPED, "first 0x%x > last 0x%x",
				first, last);
			break;
		case PMU_MAP_ERR_RANGE_TYPES:
			say_row(p, m, row, SKIPPED,
				"first 0x%x and last 0x%x are events of different types",
				first, last);
			break;
		case PMU_MAP_ERR_OVERLAP:
			say_overlap(p, m, row, first, last);
			break;
		default:
			say_counters(p, m, row, err, counters);
			break;
		}
	}
	say_full(p, m, &full, PMU_MAP_MAX_RANGES);
	say_tail(p, m);
}

static void load_events(struct parser *p, const struct matrix *m)
{
	struct table_full full = { 0, 0 };
	unsigned int row;

	for (row = 0; row < m->nr_rows; row++) {
		uint32_t event = cell(m, row, 0);
		uint64_t selector = cell64(m, row, 1), old = 0;
		int err;

		if (skip_zero_row(p, m, row))
			continue;
		err = pmu_map_add_selector(p->map, event, selector);
		if (row_stored_or_full(p, m, row, err, 0, 0, &full))
			continue;
		switch (err) {
		case PMU_MAP_ERR_EVENT_WIDTH:
		case PMU_MAP_ERR_EVENT_TYPE:
		case PMU_MAP_ERR_NO_EVENT:
			say_event(p, m, row, err, "event", event);
			break;
		case PMU_MAP_ERR_SELECTOR_ZERO:
			say_row(p, m, row, SKIPPED,
				"selector 0 for event 0x%x counts nothing", event);
			break;
		case PMU_MAP_ERR_SELECTOR_HIGH:
			say_row(p, m, row, SKIPPED,
				"selector 0x%llx sets bits 63:56 (OF and mode inhibits belong to the firmware)",
				(unsigned long long)selector);
			break;
		case PMU_MAP_ERR_NO_COUNTERS:
			say_row(p, m, row, SKIPPED,
				"no riscv,event-to-mhpmcounters row gives counters for event 0x%x",
				event);
			break;
		case PMU_MAP_ERR_DUPLICATE:
			pmu_map_hw_counters(p->map, event, &old);
			say_row(p, m, row, SKIPPED,
				"event 0x%x already has selector 0x%llx",
				event, (unsigned long long)old);
			break;
		default:
			say_row(p, m, row, SKIPPED, "%s", pmu_map_strerror(err));
			break;
		}
	}
	say_full(p, m, &full, PMU_MAP_MAX_SELECTORS);
	say_tail(p, m);
}

static void load_raw(struct parser *p, const struct matrix *m)
{
	struct table_full full = { 0, 0 };
	unsigned int row;

	for (row = 0; row < m->nr_rows; row++) {
		uint64_t invariant = cell64(m, row, 0), mask = cell64(m, row, 2);
		uint32_t counters = cell(m, row, 4);
		uint32_t missing = absent(p, counters);
		int err;

		if (skip_zero_row(p, m, row))
			continue;
		err = pmu_map_check_raw(invariant, mask, counters);
		if (!err && missing == counters) {
			say_absent(p, m, row, counters);
			continue;
		}
		if (!err)
			err = pmu_map_add_raw(p->map, invariant, mask,
					      counters & ~missing);
		if (row_stored_or_full(p, m, row, err, counters, missing, &full))
			continue;
		switch (err) {
		case PMU_MAP_ERR_RAW_OUTSIDE_MASK:
			say_row(p, m, row, SKIPPED,
				"invariant 0x%llx sets bits 0x%llx outside the mask 0x%llx, so it matches nothing",
				(unsigned long long)invariant,
				(unsigned long long)(invariant & ~mask),
				(unsigned long long)mask);
			break;
		case PMU_MAP_ERR_RAW_HIGH:
			say_row(p, m, row, SKIPPED,
				"invariant 0x%llx sets bits 63:56, which no raw event selector has",
				(unsigned long long)invariant);
			break;
		case PMU_MAP_ERR_DUPLICATE:
			say_row(p, m, row, SKIPPED,
				"invariant 0x%llx with mask 0x%llx repeats an earlier row",
				(unsigned long long)invariant,
				(unsigned long long)mask);
			break;
		case PMU_MAP_ERR_TOO_MANY_MASKS:
			say_row(p, m, row, SKIPPED,
				"mask 0x%llx would be distinct mask number %u (the limit is %u)",
				(unsigned long long)mask,
				PMU_MAP_MAX_RAW_MASKS + 1, PMU_MAP_MAX_RAW_MASKS);
			break;
		default:
			say_counters(p, m, row, err, counters);
			break;
		}
	}
	say_full(p, m, &full, PMU_MAP_MAX_RAW);
	say_tail(p, m);
}

/* ---- the node ------------------------------------------------------------ */

static bool node_enabled(const void *fdt, int node)
{
	int len;
	const char *s = fdt_getprop(fdt, node, "status", &len);

	return !s || (len == 5 && !memcmp(s, "okay", 5)) ||
	       (len == 3 && !memcmp(s, "ok", 3));
}

/*
 * The node's path for a message, or its bare name when the path does not
 * fit.  Only ever called on a tree fdt_validate() accepted: on a malformed
 * structure fdt_get_path() can write outside buf (issue 10, defect 3), so
 * the parser refuses such a tree before looking for nodes.  The result is
 * still never trusted further than its return value says.
 */
static const char *node_path(const void *fdt, int node, char *buf, int size)
{
	const char *name;

	if (size > 0 && fdt_get_path(fdt, node, buf, size) == 0 &&
	    memchr(buf, '\0', (size_t)size))
		return buf;
	name = fdt_get_name(fdt, node, NULL);
	return name ? name : "riscv,pmu node";
}

/* The first enabled riscv,pmu node; later enabled ones are reported. */
static int find_node(struct parser *p)
{
	char path[64], other[64];
	int node, found = -FDT_ERR_NOTFOUND;

	for (node = fdt_node_offset_by_compatible(p->fdt, -1, FDT_PMU_COMPATIBLE);
	     node >= 0;
	     node = fdt_node_offset_by_compatible(p->fdt, node, FDT_PMU_COMPATIBLE)) {
		if (!node_enabled(p->fdt, node))
			continue;
		if (found < 0) {
			found = node;
			continue;
		}
		say(p, "%s: another riscv,pmu node, ignored (using %s)",
		    node_path(p->fdt, node, other, sizeof(other)),
		    node_path(p->fdt, found, path, sizeof(path)));
	}
	return found;
}

static bool known_property(const char *name)
{
	static const char *const known[] = {
		"compatible", "status", "phandle", "linux,phandle", "name",
		"riscv,event-to-mhpmcounters", "riscv,event-to-mhpmevent",
		"riscv,raw-event-to-mhpmcounters",
	};

	for (unsigned int i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(name, known[i]))
			return true;
	return false;
}

static void check_properties(struct parser *p, int node)
{
	char path[64];
	int prop;

	fdt_for_each_property_offset(prop, p->fdt, node) {
		const char *name;
		int len;

		if (!fdt_getprop_by_offset(p->fdt, prop, &name, &len) || !name)
			continue;
		if (!known_property(name))
			say(p, "%s: unknown property %s, ignored",
			    node_path(p->fdt, node, path, sizeof(path)), name);
	}
}

static void parse_node(struct parser *p, int node)
{
	struct matrix counters, events, raw;
	bool has_counters, has_events;

	check_properties(p, node);

	/* Ranges first: a selector needs a range giving its event counters. */
	has_counters = read_matrix(p, node, FDT_PMU_PROP_COUNTERS, &counters);
	if (has_counters) {
		load_counters(p, &counters);
		say_rows_not_listed(p, &counters);
	}

	has_events = read_matrix(p, node, FDT_PMU_PROP_EVENTS, &events);
	if (has_events && !p->st->present[FDT_PMU_PROP_COUNTERS]) {
		say(p, "riscv,event-to-mhpmevent needs riscv,event-to-mhpmcounters (binding dependency): %u row%s ignored",
		    events.nr_rows, plural(events.nr_rows));
	} else if (has_events) {
		load_events(p, &events);
		say_rows_not_listed(p, &events);
	}
	p->st->default_selectors = p->st->present[FDT_PMU_PROP_COUNTERS] &&
				   !p->st->present[FDT_PMU_PROP_EVENTS];

	if (read_matrix(p, node, FDT_PMU_PROP_RAW, &raw)) {
		load_raw(p, &raw);
		say_rows_not_listed(p, &raw);
	}
}

int fdt_pmu_parse_stats(const void *fdt, struct pmu_map *map,
			uint32_t hart_counters, fdt_pmu_warn_fn warn, void *ctx,
			struct fdt_pmu_stats *stats)
{
	struct fdt_pmu_stats local;
	struct parser p = {
		.fdt = fdt,
		.map = map,
		.hart_counters = hart_counters | BIT32(PMU_COUNTER_TIME),
		.warn = warn,
		.ctx = ctx,
		.st = stats ? stats : &local,
	};
	int err;

	memset(p.st, 0, sizeof(*p.st));
	p.st->node = -FDT_ERR_NOTFOUND;
	pmu_map_init(map);

	err = fdt ? fdt_check_header(fdt) : -FDT_ERR_BADMAGIC;
	if (err) {
		p.st->fdt_invalid = true;
		say(&p, "no valid devicetree (%s): only cycles and instructions can be counted",
		    fdt_strerror(err));
	} else if ((err = fdt_validate(fdt, fdt_totalsize(fdt))) != 0) {
		/* nothing is looked up in a tree whose nesting is broken */
		p.st->fdt_invalid = true;
		say(&p, "devicetree structure invalid (%s): riscv,pmu node not read, only cycles and instructions can be counted",
		    fdt_strerror(err));
	} else {
		p.st->node = find_node(&p);
		if (p.st->node >= 0)
			parse_node(&p, p.st->node);
	}
	pmu_map_freeze(map);
	return (int)p.st->warnings;
}

int fdt_pmu_parse(const void *fdt, struct pmu_map *map, uint32_t hart_counters,
		  fdt_pmu_warn_fn warn, void *ctx)
{
	return fdt_pmu_parse_stats(fdt, map, hart_counters, warn, ctx, NULL);
}
