// SPDX-License-Identifier: BSD-2-Clause
/*
 * A cpu node's ISA extensions, as Linux reads them: the riscv,isa-extensions
 * string list, else (older trees, QEMU 7.2) the riscv,isa string
 * ("rv64imafdch_zicsr_zicboz_..."), whose multi-letter extensions follow
 * underscores.  fdt_isa_remove() takes an extension out of both, so that a
 * hart never tells the next stage it has what the firmware could not make
 * usable (lib/sbi/hart_ext.c).
 */
#include <libfdt.h>
#include <tally/fdt_isa.h>

#define ISA_PROP	"riscv,isa"
#define ISA_EXT_PROP	"riscv,isa-extensions"

/* The edited copy of a property: cold boot only, one hart (not on its stack). */
static char buf[FDT_ISA_MAX_LEN];

/* Whether the string list prop (len bytes) holds name. */
static bool list_has(const char *prop, int len, const char *name)
{
	return prop && len > 0 && fdt_stringlist_contains(prop, len, name);
}

/* The start of extension name in the riscv,isa string, or NULL. */
static const char *isa_string_find(const char *isa, int len, const char *name)
{
	size_t n = strlen(name);
	const char *end, *p;

	if (!isa || len <= 0 || !n)
		return NULL;
	end = memchr(isa, '\0', (size_t)len);
	if (!end)
		return NULL;		/* not a string */
	for (p = strchr(isa, '_'); p; p = strchr(p + 1, '_'))
		if ((size_t)(end - (p + 1)) >= n && !strncmp(p + 1, name, n) &&
		    (p[1 + n] == '_' || p[1 + n] == '\0'))
			return p + 1;
	return NULL;
}

void fdt_isa_read(const void *fdt, int cpu, struct fdt_isa *isa)
{
	isa->list = fdt_getprop(fdt, cpu, ISA_EXT_PROP, &isa->list_len);
	isa->string = isa->list ? NULL : fdt_getprop(fdt, cpu, ISA_PROP, &isa->string_len);
}

bool fdt_isa_in(const struct fdt_isa *isa, const char *name)
{
	if (isa->list)
		return list_has(isa->list, isa->list_len, name);
	return isa_string_find(isa->string, isa->string_len, name) != NULL;
}

bool fdt_isa_has(const void *fdt, int cpu, const char *name)
{
	struct fdt_isa isa;

	fdt_isa_read(fdt, cpu, &isa);
	return fdt_isa_in(&isa, name);
}

/* The list without name, written back in place (it only shrinks). */
static int list_remove(void *fdt, int cpu, const char *name)
{
	int len, out = 0;
	const char *prop = fdt_getprop(fdt, cpu, ISA_EXT_PROP, &len);

	if (!list_has(prop, len, name))
		return 0;
	if (len > (int)sizeof(buf))
		return -FDT_ERR_NOSPACE;
	for (int i = 0; i < len;) {
		const char *s = prop + i;
		int n = (int)strnlen(s, (size_t)(len - i)) + 1;

		if (strcmp(s, name)) {
			memcpy(buf + out, s, (size_t)n);
			out += n;
		}
		i += n;
	}
	return fdt_setprop(fdt, cpu, ISA_EXT_PROP, buf, out);
}

/* riscv,isa without "_name" (same length or shorter: set in place). */
static int string_remove(void *fdt, int cpu, const char *name)
{
	int len;
	const char *prop = fdt_getprop(fdt, cpu, ISA_PROP, &len), *at;
	size_t cut = strlen(name) + 1;	/* the name and the '_' before it */

	at = isa_string_find(prop, len, name);
	if (!at)
		return 0;
	if (len > (int)sizeof(buf))
		return -FDT_ERR_NOSPACE;
	memcpy(buf, prop, (size_t)(at - 1 - prop));
	memcpy(buf + (at - 1 - prop), at - 1 + cut, (size_t)len - (size_t)(at - 1 - prop) - cut);
	return fdt_setprop(fdt, cpu, ISA_PROP, buf, len - (int)cut);
}

int fdt_isa_remove(void *fdt, int cpu, const char *name)
{
	int err = list_remove(fdt, cpu, name);

	return err ? err : string_remove(fdt, cpu, name);
}
