// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: the program's code for the decoder and the encoder: ELF files
 * (read by tally-trace-elf.c), raw binaries with a load address, and
 * instruction words captured from a QEMU in_asm log.  Instructions are
 * classified on first use and cached.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

struct seg {
	uint64_t base, size;
	uint8_t *bytes;
	uint8_t *known;			/* code map pages: which halfwords are known */
	struct ntrace_insn *ins;
	uint8_t *done;
	bool page;
	bool all_done;		/* every halfword classified (image_range) */
};

static struct seg *segs;
static size_t nsegs, capsegs;
static struct seg *last_seg;
static void pcache_clear(void);
unsigned image_xlen = 64;

struct sym {
	uint64_t addr, size;
	const char *name;
};
static struct sym *syms;
static size_t nsyms, capsyms;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "tally-trace: out of memory\n");
		exit(2);
	}
	return p;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	return x->base < y->base ? -1 : x->base > y->base;
}

static struct seg *add_seg(uint64_t base, uint64_t size, bool page)
{
	struct seg *s;

	if (nsegs == capsegs) {
		capsegs = capsegs ? capsegs * 2 : 16;
		segs = xrealloc(segs, capsegs * sizeof(*segs));
	}
	s = &segs[nsegs++];
	*s = (struct seg){ .base = base, .size = size, .page = page };
	s->bytes = calloc(1, size + 4);
	s->ins = calloc(size / 2 + 1, sizeof(*s->ins));
	s->done = calloc(size / 2 + 1, 1);
	if (page)
		s->known = calloc(size / 2 + 1, 1);
	if (!s->bytes || !s->ins || !s->done || (page && !s->known)) {
		fprintf(stderr, "tally-trace: out of memory\n");
		exit(2);
	}
	qsort(segs, nsegs, sizeof(*segs), seg_cmp);
	last_seg = NULL;
	pcache_clear();
	for (size_t i = 0; i < nsegs; i++)
		if (segs[i].base == base && segs[i].page == page)
			return &segs[i];
	return NULL;
}

/*
 * Captured code comes in 4 KiB page segments, thousands of them for Linux:
 * a direct-mapped cache of pages wholly served by one segment saves the
 * search on every jump between pages (segs moves when one is added: the
 * cache is cleared then).
 */
#define PCACHE_SIZE 4096
static struct {
	uint64_t page;		/* page address + 1 (0 = empty) */
	struct seg *s;
} pcache[PCACHE_SIZE];

static struct seg *find_seg_slow(uint64_t addr);

static void pcache_clear(void)
{
	memset(pcache, 0, sizeof(pcache));
}

static struct seg *find_seg(uint64_t addr)
{
	uint64_t page = addr & ~0xfffull;
	size_t slot = (size_t)(addr >> 12) & (PCACHE_SIZE - 1);
	struct seg *s;

	if (last_seg && addr - last_seg->base < last_seg->size)
		return last_seg;
	if (pcache[slot].page == page + 1)
		return last_seg = pcache[slot].s;
	s = find_seg_slow(addr);
	if (s && s->base <= page && page + 0x1000 - s->base <= s->size) {
		/* cache it only if no ELF segment shares the page */
		for (size_t i = 0; i < nsegs; i++)
			if (!segs[i].page && &segs[i] != s && segs[i].base < page + 0x1000 &&
			    page < segs[i].base + segs[i].size)
				return s;
		pcache[slot].page = page + 1;
		pcache[slot].s = s;
	}
	return s;
}

static struct seg *find_seg_slow(uint64_t addr)
{
	size_t lo = 0, hi = nsegs;

	/* ELF segments first: they win over captured words */
	for (size_t i = 0; i < nsegs; i++)
		if (!segs[i].page && addr - segs[i].base < segs[i].size)
			return last_seg = &segs[i];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (addr < segs[mid].base)
			hi = mid;
		else if (addr - segs[mid].base >= segs[mid].size)
			lo = mid + 1;
		else if (segs[mid].page)
			return last_seg = &segs[mid];
		else
			break;
	}
	return NULL;
}

const struct ntrace_insn *image_lookup(void *ctx, uint64_t addr)
{
	struct seg *s = find_seg(addr);
	uint64_t off;

	(void)ctx;
	if (!s || (addr & 1))
		return NULL;
	off = (addr - s->base) / 2;
	if (s->known && !s->known[off])
		return NULL;
	if (!s->done[off]) {
		const uint8_t *b = s->bytes + off * 2;
		uint32_t w = b[0] | b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;

		ntrace_isa_decode(w, addr, image_xlen, &s->ins[off]);
		if (s->ins[off].len == 4 && off * 2 + 4 > s->size && !s->page)
			s->ins[off].len = 0;
		s->done[off] = 1;
	}
	return &s->ins[off];
}

/* Decoder fast path: the whole segment, every halfword classified. */
const struct ntrace_insn *image_range(void *ctx, uint64_t addr, uint64_t *base, uint64_t *end)
{
	struct seg *s = find_seg(addr);

	if (!s)
		return NULL;
	if (!s->all_done) {
		for (uint64_t a = s->base; a < s->base + s->size; a += 2)
			if (!image_lookup(ctx, a))
				s->ins[(a - s->base) / 2] = (struct ntrace_insn){ 0 };
		s->all_done = true;
	}
	*base = s->base;
	*end = s->base + (s->size & ~1ull);
	return s->ins;
}

bool image_covers(uint64_t addr)
{
	struct seg *s = find_seg(addr);

	return s && (!s->known || s->known[(addr - s->base) / 2]);
}

/*
 * Captured code (in_asm, Spike logs) changes while a program runs (Linux
 * patches itself, processes share virtual addresses), so every change is
 * logged with the index of the next instruction to execute; the decoder
 * applies the changes as it reaches those indexes (image_apply_words).
 */
struct word_change {
	uint64_t index, addr;
	uint16_t half;
};
static struct word_change *changes;
static size_t nchanges, capchanges, applied;
uint64_t image_word_index;

static void redecode(struct seg *s, uint64_t off)
{
	s->done[off] = 0;
	if (s->all_done && !image_lookup(NULL, s->base + off * 2))
		s->ins[off] = (struct ntrace_insn){ 0 };
}

/* One halfword at (even) addr; true if it changed. */
static bool set_half(uint64_t addr, uint16_t half)
{
	uint64_t page = addr & ~0xfffull, o = addr - page;
	struct seg *s = find_seg(addr);

	if (addr & 1)
		return false;

	if (s && !s->page)
		return false;		/* the ELF image has it */
	if (!s)
		s = add_seg(page, 0x1000, true);
	if (s->known[o / 2] && s->bytes[o] == (uint8_t)half && s->bytes[o + 1] == half >> 8)
		return false;
	s->bytes[o] = (uint8_t)half;
	s->bytes[o + 1] = (uint8_t)(half >> 8);
	s->known[o / 2] = 1;
	redecode(s, o / 2);
	if (o) {
		redecode(s, o / 2 - 1);	/* a 32-bit instruction ending here */
	} else {
		/* the previous page's pad serves a 32-bit instruction at its end */
		for (size_t i = 0; i < nsegs; i++)
			if (segs[i].page && segs[i].base == page - 0x1000) {
				segs[i].bytes[0x1000] = (uint8_t)half;
				segs[i].bytes[0x1001] = (uint8_t)(half >> 8);
				redecode(&segs[i], 0x1000 / 2 - 1);
			}
	}
	return true;
}

static void log_change(uint64_t index, uint64_t addr, uint16_t half)
{
	if (nchanges == capchanges) {
		capchanges = capchanges ? capchanges * 2 : 4096;
		changes = xrealloc(changes, capchanges * sizeof(*changes));
	}
	changes[nchanges++] = (struct word_change){ index, addr, half };
}

void image_add_word(uint64_t addr, uint32_t word, unsigned len)
{
	if ((len != 2 && len != 4) || (addr & 1))
		return;		/* not an instruction word */
	for (unsigned i = 0; i + 2 <= len; i += 2) {
		uint16_t half = (uint16_t)(word >> (8 * i));

		if (set_half(addr + i, half))
			log_change(image_word_index, addr + i, half);
	}
}

/* How many changes have been logged (grows with every change). */
size_t image_changes(void)
{
	return nchanges;
}

/* Writes every captured change: "index address halfword" a line. */
int image_save_words(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	for (size_t i = 0; i < nchanges; i++)
		fprintf(f, "%llu %llx %04x\n", (unsigned long long)changes[i].index,
			(unsigned long long)changes[i].addr, changes[i].half);
	return fclose(f);
}

/* Loads changes; those at index 0 apply now, the others as decoding goes. */
static int words_error(const char *path, unsigned long long lineno, const char *why)
{
	fprintf(stderr, "tally-trace: %s:%llu: %s (a line is: index address halfword, "
		"as record writes them)\n", path, lineno, why);
	return -1;
}

/* Loads changes; those at index 0 apply now, the others as decoding goes. */
int image_load_words(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long idx, a, w, last = 0, lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	int rc = 0, end;

	if (!f) {
		fprintf(stderr, "tally-trace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (!rc && getline(&line, &cap, f) > 0) {
		lineno++;
		end = 0;
		if (line[strspn(line, " \t\r\n")] == 0)
			continue;
		if (sscanf(line, "%llu %llx %llx %n", &idx, &a, &w, &end) != 3 || line[end])
			rc = words_error(path, lineno, "not a code change");
		else if (idx < last)
			rc = words_error(path, lineno, "an index before the previous line's");
		else if ((a & 1) || w > 0xffff)
			rc = words_error(path, lineno, "an odd address or a halfword above 0xffff");
		else
			log_change(idx, a, (uint16_t)w);
		last = idx;
	}
	free(line);
	fclose(f);
	applied = 0;
	image_apply_words(2);	/* see exec_cb in tally-trace-decode.c */
	return rc;
}

/* The index of the next change to apply (UINT64_MAX: none left). */
uint64_t image_next_change(void)
{
	return applied < nchanges ? changes[applied].index : UINT64_MAX;
}

/* Applies the changes logged before instruction number index. */
void image_apply_words(uint64_t index)
{
	while (applied < nchanges && changes[applied].index <= index) {
		set_half(changes[applied].addr, changes[applied].half);
		applied++;
	}
}

bool image_words_pending(void)
{
	return applied < nchanges;
}

/* A raw binary loaded at base. */
int image_load_raw(const char *path, uint64_t base)
{
	size_t n;
	uint8_t *b = read_file(path, &n);

	if (!n || base + n - 1 < base) {
		fprintf(stderr, "tally-trace: %s@0x%llx: %s\n", path, (unsigned long long)base,
			n ? "runs past the end of the address space" : "an empty file");
		free(b);
		return -1;
	}
	memcpy(add_seg(base, n, false)->bytes, b, n);
	free(b);
	return 0;
}

void image_add_symbol(uint64_t addr, uint64_t size, const char *name)
{
	if (nsyms == capsyms) {
		capsyms = capsyms ? capsyms * 2 : 1024;
		syms = xrealloc(syms, capsyms * sizeof(*syms));
	}
	syms[nsyms] = (struct sym){ addr, size, strdup(name) };
	if (!syms[nsyms].name) {
		fprintf(stderr, "tally-trace: out of memory\n");
		exit(2);
	}
	nsyms++;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (y->size > 0) - (x->size > 0);	/* sized (function) symbols first */
}

void image_sort_symbols(void)
{
	if (nsyms)
		qsort(syms, nsyms, sizeof(*syms), sym_cmp);
}

/* A segment of size bytes at base, to be filled by the caller (ELF). */
uint8_t *image_add_segment(uint64_t base, uint64_t size)
{
	return add_seg(base, size, false)->bytes;
}

/* Forgets every segment, symbol and captured word (the fuzz targets). */
void image_reset(void)
{
	for (size_t i = 0; i < nsegs; i++) {
		free(segs[i].bytes);
		free(segs[i].known);
		free(segs[i].ins);
		free(segs[i].done);
	}
	for (size_t i = 0; i < nsyms; i++)
		free((char *)syms[i].name);
	free(segs);
	free(syms);
	free(changes);
	segs = NULL;
	syms = NULL;
	changes = NULL;
	nsegs = capsegs = nsyms = capsyms = nchanges = capchanges = applied = 0;
	last_seg = NULL;
	pcache_clear();
	image_word_index = 0;
	image_xlen = 64;
}

/* Function containing addr (nearest symbol at or below), or NULL. */
const char *image_symbol(uint64_t addr, uint64_t *start)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* the first (sized) symbol at that address */
	lo--;
	while (lo && syms[lo - 1].addr == syms[lo].addr)
		lo--;
	if (start)
		*start = syms[lo].addr;
	return syms[lo].name;
}
