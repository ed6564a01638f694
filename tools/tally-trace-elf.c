// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: ELF files (--elf, --syms): the PT_LOAD segments' file bytes
 * and the code symbols, for ELF32 and ELF64 little-endian RISC-V.
 *
 * The file is hostile until checked: every header, table and string is
 * bounds-checked against the file before it is read (sizes and offsets in
 * 64 bits, no sum that can wrap), headers are copied out (no unaligned
 * reads), and the whole file is validated before anything is loaded, so a
 * bad file changes nothing and gets one message saying what is wrong.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

/* More PT_LOAD segments than any program has: refused. */
#define ELF_MAX_LOADS	256

struct elf {
	const uint8_t *b;
	uint64_t n;
	bool is64;
	char *err;
	size_t cap;
};

static int elf_error(struct elf *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int elf_error(struct elf *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->err, e->cap, fmt, ap);
	va_end(ap);
	return -1;
}

/* [off, off + size) lies in the file. */
static bool in_file(const struct elf *e, uint64_t off, uint64_t size)
{
	return off <= e->n && size <= e->n - off;
}

/* Table entry i of count entries of entsize bytes at off: in the file? */
static bool entry_in_file(const struct elf *e, uint64_t off, uint64_t entsize, uint64_t i)
{
	return entsize && i <= (e->n) / entsize && in_file(e, off, 0) &&
	       i * entsize <= e->n - off && entsize <= e->n - off - i * entsize;
}

/* The fields this loader uses, whatever the class. */
struct ehdr {
	uint64_t phoff, shoff;
	unsigned phentsize, phnum, shentsize, shnum, machine;
};
struct phdr {
	uint64_t type, offset, vaddr, filesz;
};
struct shdr {
	uint64_t type, offset, size, link, entsize;
};
struct sym {
	uint64_t name, value, size;
	unsigned info, shndx;
};

static int read_ehdr(struct elf *e, struct ehdr *h)
{
	if (e->n < EI_NIDENT || memcmp(e->b, ELFMAG, SELFMAG))
		return elf_error(e, "not an ELF file");
	if (e->b[EI_CLASS] != ELFCLASS32 && e->b[EI_CLASS] != ELFCLASS64)
		return elf_error(e, "ELF class %u (1 = 32-bit, 2 = 64-bit)", e->b[EI_CLASS]);
	if (e->b[EI_DATA] != ELFDATA2LSB)
		return elf_error(e, "not little-endian (EI_DATA %u)", e->b[EI_DATA]);
	e->is64 = e->b[EI_CLASS] == ELFCLASS64;
	if (e->is64) {
		Elf64_Ehdr x;

		if (e->n < sizeof(x))
			return elf_error(e, "%llu bytes: shorter than the 64-byte ELF64 header",
					 (unsigned long long)e->n);
		memcpy(&x, e->b, sizeof(x));
		*h = (struct ehdr){ x.e_phoff, x.e_shoff, x.e_phentsize, x.e_phnum,
				    x.e_shentsize, x.e_shnum, x.e_machine };
	} else {
		Elf32_Ehdr x;

		if (e->n < sizeof(x))
			return elf_error(e, "%llu bytes: shorter than the 52-byte ELF32 header",
					 (unsigned long long)e->n);
		memcpy(&x, e->b, sizeof(x));
		*h = (struct ehdr){ x.e_phoff, x.e_shoff, x.e_phentsize, x.e_phnum,
				    x.e_shentsize, x.e_shnum, x.e_machine };
	}
	if (h->machine != EM_RISCV)
		return elf_error(e, "not a RISC-V ELF (e_machine %u)", h->machine);
	return 0;
}

static int read_phdr(struct elf *e, const struct ehdr *h, unsigned i, struct phdr *p)
{
	size_t need = e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);

	if (h->phentsize < need)
		return elf_error(e, "e_phentsize %u: a program header is %zu bytes", h->phentsize, need);
	if (!entry_in_file(e, h->phoff, h->phentsize, i))
		return elf_error(e, "program header %u (e_phoff 0x%llx, %u bytes each) is past "
				 "the end of the file (%llu bytes)", i, (unsigned long long)h->phoff,
				 h->phentsize, (unsigned long long)e->n);
	if (e->is64) {
		Elf64_Phdr x;

		memcpy(&x, e->b + h->phoff + (uint64_t)i * h->phentsize, sizeof(x));
		*p = (struct phdr){ x.p_type, x.p_offset, x.p_vaddr, x.p_filesz };
	} else {
		Elf32_Phdr x;

		memcpy(&x, e->b + h->phoff + (uint64_t)i * h->phentsize, sizeof(x));
		*p = (struct phdr){ x.p_type, x.p_offset, x.p_vaddr, x.p_filesz };
	}
	return 0;
}

static int read_shdr(struct elf *e, const struct ehdr *h, uint64_t i, struct shdr *s)
{
	size_t need = e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);

	if (h->shentsize < need)
		return elf_error(e, "e_shentsize %u: a section header is %zu bytes", h->shentsize, need);
	if (i >= h->shnum)
		return elf_error(e, "section %llu: there are %u", (unsigned long long)i, h->shnum);
	if (!entry_in_file(e, h->shoff, h->shentsize, i))
		return elf_error(e, "section header %llu (e_shoff 0x%llx) is past the end of the "
				 "file (%llu bytes)", (unsigned long long)i,
				 (unsigned long long)h->shoff, (unsigned long long)e->n);
	if (e->is64) {
		Elf64_Shdr x;

		memcpy(&x, e->b + h->shoff + i * h->shentsize, sizeof(x));
		*s = (struct shdr){ x.sh_type, x.sh_offset, x.sh_size, x.sh_link, x.sh_entsize };
	} else {
		Elf32_Shdr x;

		memcpy(&x, e->b + h->shoff + i * h->shentsize, sizeof(x));
		*s = (struct shdr){ x.sh_type, x.sh_offset, x.sh_size, x.sh_link, x.sh_entsize };
	}
	return 0;
}

/* Symbol k of a symbol table section already checked to be in the file. */
static void read_sym(const struct elf *e, const struct shdr *t, uint64_t k, struct sym *s)
{
	const uint8_t *p = e->b + t->offset + k * t->entsize;

	if (e->is64) {
		Elf64_Sym x;

		memcpy(&x, p, sizeof(x));
		*s = (struct sym){ x.st_name, x.st_value, x.st_size, x.st_info, x.st_shndx };
	} else {
		Elf32_Sym x;

		memcpy(&x, p, sizeof(x));
		*s = (struct sym){ x.st_name, x.st_value, x.st_size, x.st_info, x.st_shndx };
	}
}

/* The PT_LOAD segments with file bytes: checked, then loaded. */
static int load_segments(struct elf *e, const struct ehdr *h, bool code)
{
	struct phdr loads[ELF_MAX_LOADS];
	uint64_t top = e->is64 ? UINT64_MAX : UINT32_MAX, total = 0;
	unsigned nloads = 0;

	for (unsigned i = 0; i < h->phnum; i++) {
		struct phdr p;

		if (read_phdr(e, h, i, &p))
			return -1;
		if (p.type != PT_LOAD || !p.filesz)
			continue;
		if (!in_file(e, p.offset, p.filesz))
			return elf_error(e, "program header %u: its %llu bytes at offset 0x%llx run "
					 "past the end of the file (%llu bytes)", i,
					 (unsigned long long)p.filesz, (unsigned long long)p.offset,
					 (unsigned long long)e->n);
		if (p.vaddr > top || p.filesz - 1 > top - p.vaddr)
			return elf_error(e, "program header %u: 0x%llx + %llu bytes runs past the "
					 "end of the address space", i, (unsigned long long)p.vaddr,
					 (unsigned long long)p.filesz);
		if (nloads == ELF_MAX_LOADS)
			return elf_error(e, "more than %u PT_LOAD segments", ELF_MAX_LOADS);
		total += p.filesz;
		if (total > e->n)
			return elf_error(e, "the PT_LOAD segments load more bytes than the file "
					 "has (%llu): they overlap", (unsigned long long)e->n);
		loads[nloads++] = p;
	}
	for (unsigned i = 0; code && i < nloads; i++)
		memcpy(image_add_segment(loads[i].vaddr, loads[i].filesz), e->b + loads[i].offset,
		       loads[i].filesz);
	return 0;
}

/* A symbol's name: NUL-terminated inside its string table, else NULL. */
static const char *sym_name(const struct elf *e, const struct shdr *str, uint64_t name)
{
	const char *s;

	if (name >= str->size)
		return NULL;
	s = (const char *)e->b + str->offset + name;
	return memchr(s, 0, str->size - name) ? s : NULL;
}

/* Code symbols of one symbol table (absolute ones, SHN_ABS, are constants). */
static int load_symtab(struct elf *e, const struct ehdr *h, uint64_t index, const struct shdr *t,
		       bool check_only)
{
	size_t need = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	struct shdr str;

	if (t->entsize < need)
		return elf_error(e, "section %llu: symbol entries of %llu bytes (%zu needed)",
				 (unsigned long long)index, (unsigned long long)t->entsize, need);
	if (!in_file(e, t->offset, t->size))
		return elf_error(e, "section %llu: the symbol table (%llu bytes at 0x%llx) runs "
				 "past the end of the file", (unsigned long long)index,
				 (unsigned long long)t->size, (unsigned long long)t->offset);
	if (t->link >= h->shnum)
		return elf_error(e, "section %llu: sh_link %llu names no section (there are %u)",
				 (unsigned long long)index, (unsigned long long)t->link, h->shnum);
	if (read_shdr(e, h, t->link, &str))
		return -1;
	if (str.type != SHT_STRTAB || !in_file(e, str.offset, str.size))
		return elf_error(e, "section %llu: its string table (section %llu) is not one in "
				 "the file", (unsigned long long)index, (unsigned long long)t->link);
	for (uint64_t k = 1; k < t->size / t->entsize; k++) {
		struct sym s;
		const char *name;
		unsigned type;

		read_sym(e, t, k, &s);
		type = ELF64_ST_TYPE(s.info);
		if ((type != STT_FUNC && type != STT_NOTYPE) || !s.value ||
		    s.shndx == SHN_ABS || s.shndx == SHN_UNDEF)
			continue;
		name = sym_name(e, &str, s.name);
		if (!name)
			return elf_error(e, "symbol %llu of section %llu: its name (at %llu) has no "
					 "end inside the string table (%llu bytes)",
					 (unsigned long long)k, (unsigned long long)index,
					 (unsigned long long)s.name, (unsigned long long)str.size);
		if (!check_only && name[0] && name[0] != '$' && strncmp(name, ".L", 2))
			image_add_symbol(s.value, s.size, name);
	}
	return 0;
}

static int load_symbols(struct elf *e, const struct ehdr *h, bool check_only)
{
	if (!h->shnum)
		return 0;
	for (uint64_t i = 0; i < h->shnum; i++) {
		struct shdr s;

		if (read_shdr(e, h, i, &s))
			return -1;
		if (s.type == SHT_SYMTAB && load_symtab(e, h, i, &s, check_only))
			return -1;
	}
	return 0;
}

int elf_load(const uint8_t *b, size_t n, bool code, char *err, size_t cap)
{
	struct elf e = { .b = b, .n = n, .err = err, .cap = cap };
	struct ehdr h;

	/* everything checked before anything is loaded */
	if (read_ehdr(&e, &h) || load_segments(&e, &h, false) || load_symbols(&e, &h, true))
		return -1;
	if (code)
		image_xlen = e.is64 ? 64 : 32;
	load_segments(&e, &h, code);
	load_symbols(&e, &h, false);
	image_sort_symbols();
	return 0;
}

/* An ELF file (code: its PT_LOAD segments too, and the XLEN). */
static int load_elf_file(const char *path, bool code)
{
	char err[256];
	size_t n;
	uint8_t *b = read_file(path, &n);
	int rc = elf_load(b, n, code, err, sizeof(err));

	free(b);
	if (rc)
		fprintf(stderr, "tally-trace: %s: %s\n", path, err);
	return rc;
}

int image_load_elf(const char *path)
{
	return load_elf_file(path, true);
}

/* Symbols only: for code that changes at run time (Linux), whose bytes
 * must come from the captured words. */
int image_load_symbols(const char *path)
{
	return load_elf_file(path, false);
}
