#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Malformed ELF files for tally-trace's ELF loader (tests/trace/tool.sh, and
the seed corpus of tests/trace/fuzz_elf.c): each one breaks one rule the
loader must check before reading, made from a valid little-endian ELF64.

Usage: tests/trace/bad-elf.py <valid ELF64> <output directory>
Writes <name>.elf per case and prints "name: what is wrong" lines.
"""
import os
import struct
import sys

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")   # Elf64_Ehdr
PHDR = struct.Struct("<IIQQQQQQ")           # Elf64_Phdr
SHDR = struct.Struct("<IIQQQQIIQQ")         # Elf64_Shdr
SYM = struct.Struct("<IBBHQQ")              # Elf64_Sym
SHT_SYMTAB, SHT_STRTAB = 2, 3
MASK = (1 << 64) - 1


class Elf:
    def __init__(self, data):
        self.b = bytearray(data)
        f = EHDR.unpack_from(self.b, 0)
        (_, _, _, _, _, self.phoff, self.shoff, _, _, self.phentsize, self.phnum,
         self.shentsize, self.shnum, _) = f

    def ehdr(self, **kw):
        names = ["ident", "type", "machine", "version", "entry", "phoff", "shoff", "flags",
                 "ehsize", "phentsize", "phnum", "shentsize", "shnum", "shstrndx"]
        f = dict(zip(names, EHDR.unpack_from(self.b, 0)))
        f.update(kw)
        EHDR.pack_into(self.b, 0, *[f[n] for n in names])

    def phdr(self, i, **kw):
        names = ["type", "flags", "offset", "vaddr", "paddr", "filesz", "memsz", "align"]
        at = self.phoff + i * self.phentsize
        f = dict(zip(names, PHDR.unpack_from(self.b, at)))
        f.update(kw)
        PHDR.pack_into(self.b, at, *[f[n] for n in names])

    def shdrs(self):
        for i in range(self.shnum):
            yield i, SHDR.unpack_from(self.b, self.shoff + i * self.shentsize)

    def shdr(self, i, **kw):
        names = ["name", "type", "flags", "addr", "offset", "size", "link", "info",
                 "addralign", "entsize"]
        at = self.shoff + i * self.shentsize
        f = dict(zip(names, SHDR.unpack_from(self.b, at)))
        f.update(kw)
        SHDR.pack_into(self.b, at, *[f[n] for n in names])

    def symtab(self):
        return next(i for i, s in self.shdrs() if s[1] == SHT_SYMTAB)

    def first_load(self):
        return next(i for i in range(self.phnum)
                    if PHDR.unpack_from(self.b, self.phoff + i * self.phentsize)[0] == 1)


def cases(src):
    """(name, what is wrong, bytes) for each malformed file."""
    def new():
        return Elf(src)

    e = new()
    yield "ehdr64-short", "56 bytes: the 52-byte check of ELF32 passed an ELF64 header", \
        bytes(e.b[:56])

    e = new()
    e.ehdr(phentsize=8, phnum=1, phoff=len(e.b) - 8)
    yield "phentsize-small", "e_phentsize 8 (a program header is 56 bytes), the last one " \
        "at the file's end", e.b

    e = new()
    e.ehdr(phoff=MASK - 55, phnum=1)
    yield "phoff-wrap", "e_phoff 2^64-56: phoff + phentsize wraps to 0", e.b

    e = new()
    e.phdr(e.first_load(), offset=MASK - 7, filesz=16)
    yield "offset-filesz-wrap", "p_offset 2^64-8 + p_filesz 16 wraps to 8", e.b

    e = new()
    e.shdr(e.symtab(), link=0x10000000)
    yield "shlink-unchecked", "the symbol table's sh_link 2^28 names no section", e.b

    # the string table moved to the file's last 4 bytes, with no NUL; the
    # first code symbol's name starts there
    e = new()
    st = e.symtab()
    strtab = SHDR.unpack_from(e.b, e.shoff + st * e.shentsize)[6]
    e.b += b"abcd"
    e.shdr(strtab, offset=len(e.b) - 4, size=4)
    off, size, ent = [SHDR.unpack_from(e.b, e.shoff + st * e.shentsize)[k] for k in (4, 5, 9)]
    for k in range(1, size // ent):
        name, info, other, shndx, value, ssize = SYM.unpack_from(e.b, off + k * ent)
        if value and shndx not in (0, 0xfff1) and (info & 15) in (0, 2):
            SYM.pack_into(e.b, off + k * ent, 0, info, other, shndx, value, ssize)
    yield "symname-no-nul", "symbol names in a string table with no NUL, at the file's end", e.b

    e = new()
    e.ehdr(shentsize=8, shoff=len(e.b) - 8 * e.shnum)
    yield "shentsize-small", "e_shentsize 8 (a section header is 64 bytes)", e.b

    e = new()
    e.ehdr(shoff=MASK - 63)
    yield "shoff-wrap", "e_shoff 2^64-64: shoff + shentsize wraps to 0", e.b

    e = new()
    st = e.symtab()
    e.shdr(st, entsize=1, offset=len(e.b) - 24, size=24)
    yield "symentsize-small", "sh_entsize 1 (a symbol is 24 bytes), at the file's end", e.b

    e = new()
    e.shdr(e.symtab(), offset=MASK - 7, size=24 * 4)
    yield "symtab-wrap", "the symbol table's sh_offset 2^64-8 + sh_size wraps", e.b

    e = new()
    st = e.symtab()
    strtab = SHDR.unpack_from(e.b, e.shoff + st * e.shentsize)[6]
    e.shdr(strtab, offset=MASK - 0x7f)
    yield "strtab-wrap", "the string table's sh_offset 2^64-128: name offsets wrap", e.b

    e = new()
    e.b[4] = 3
    yield "class-invalid", "EI_CLASS 3 (neither 32- nor 64-bit)", e.b

    e = new()
    e.phdr(e.first_load(), vaddr=MASK - 7)
    yield "segment-wraps", "a PT_LOAD segment at 2^64-8: it runs past the address space", e.b

    e = new()
    phoff = len(e.b)
    load = PHDR.unpack_from(e.b, e.phoff + e.first_load() * e.phentsize)
    for i in range(300):
        e.b += PHDR.pack(1, 5, 0, 0x80000000 + (i << 20), 0, len(src), len(src), 0x1000)
    e.ehdr(phoff=phoff, phnum=300)
    del load
    yield "loads-overlap", "300 PT_LOAD segments, each the whole file", e.b

    e = new()
    e.ehdr(machine=62)
    yield "not-riscv", "e_machine 62 (x86-64)", e.b


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src = open(sys.argv[1], "rb").read()
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, why, data in cases(src):
        with open(os.path.join(sys.argv[2], name + ".elf"), "wb") as f:
            f.write(bytes(data))
        print(f"{name}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
