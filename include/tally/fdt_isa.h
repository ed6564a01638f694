/* SPDX-License-Identifier: BSD-2-Clause */
/* A cpu node's ISA extensions: riscv,isa-extensions, else riscv,isa (lib/fdt/fdt_isa.c). */
#ifndef TALLY_FDT_ISA_H
#define TALLY_FDT_ISA_H

#include <stdbool.h>

/* The longest riscv,isa or riscv,isa-extensions that can be edited. */
#define FDT_ISA_MAX_LEN	4096

/* Whether the cpu node lists the extension (lower case, as in the binding). */
bool fdt_isa_has(const void *fdt, int cpu, const char *name);

/*
 * The same for many names: the node's properties looked up once
 * (fdt_isa_read), then each name searched in them (fdt_isa_in).  Valid
 * until the tree is written.
 */
struct fdt_isa {
	const char *list;	/* riscv,isa-extensions, or NULL */
	const char *string;	/* else riscv,isa, or NULL */
	int list_len, string_len;
};
void fdt_isa_read(const void *fdt, int cpu, struct fdt_isa *isa);
bool fdt_isa_in(const struct fdt_isa *isa, const char *name);
/* Takes the extension out of both properties: 0, or a -FDT_ERR_* code. */
int fdt_isa_remove(void *fdt, int cpu, const char *name);

#endif
