// SPDX-License-Identifier: BSD-2-Clause
#include <libfdt.h>
#include <tally/fdt_helpers.h>

static uint64_t read_cells(const fdt32_t *p, int cells)
{
	uint64_t v = 0;

	for (int i = 0; i < cells; i++)
		v = (v << 32) | fdt32_to_cpu(p[i]);
	return v;
}

int fdt_reg(const void *fdt, int node, int index, unsigned long *addr, unsigned long *size)
{
	int parent = fdt_parent_offset(fdt, node), len;
	int ac = fdt_address_cells(fdt, parent), sc = fdt_size_cells(fdt, parent);
	const fdt32_t *reg = fdt_getprop(fdt, node, "reg", &len);
	uint64_t a, s;

	if (!reg || ac < 1 || ac > 2 || sc < 0 || sc > 2)
		return -FDT_ERR_BADVALUE;
	if (len < (index + 1) * (ac + sc) * 4)
		return -FDT_ERR_NOTFOUND;
	reg += index * (ac + sc);
	a = read_cells(reg, ac);
	s = read_cells(reg + ac, sc);
	/* RV32: a range beyond 4 GiB cannot be reached, so it is not used */
	if (a > ~0UL || s > ~0UL)
		return -FDT_ERR_BADVALUE;
	*addr = (unsigned long)a;
	if (size)
		*size = (unsigned long)s;
	return 0;
}

uint32_t fdt_u32(const void *fdt, int node, const char *prop, uint32_t fallback)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, prop, &len);

	return p && len == 4 ? fdt32_to_cpu(*p) : fallback;
}

const char *fdt_string_prop(const void *fdt, int node, const char *prop)
{
	int len;
	const char *s = fdt_getprop(fdt, node, prop, &len);

	return s && len > 0 && memchr(s, '\0', (size_t)len) ? s : NULL;
}

bool fdt_node_enabled(const void *fdt, int node)
{
	const char *s = fdt_string_prop(fdt, node, "status");

	if (!s)		/* absent, or not a terminated string: then disabled */
		return !fdt_getprop(fdt, node, "status", NULL);
	return !strcmp(s, "okay") || !strcmp(s, "ok");
}

bool fdt_cpu_usable(const void *fdt, int node, unsigned long *hartid)
{
	const char *type = fdt_string_prop(fdt, node, "device_type");

	return type && !strcmp(type, "cpu") && fdt_node_enabled(fdt, node) &&
	       !fdt_reg(fdt, node, 0, hartid, NULL);
}

long fdt_hartid_of_intc(const void *fdt, uint32_t phandle)
{
	int intc = fdt_node_offset_by_phandle(fdt, phandle);
	int cpu = intc >= 0 ? fdt_parent_offset(fdt, intc) : -1;
	unsigned long hartid;

	if (cpu < 0 || fdt_reg(fdt, cpu, 0, &hartid, NULL))
		return -1;
	return (long)hartid;
}

const char *const fdt_clint_compat[] = { "riscv,clint0", "sifive,clint0", NULL };
const char *const fdt_mswi_compat[] = { "riscv,aclint-mswi", NULL };

bool fdt_has_mswi(const void *fdt)
{
	return fdt_find_compatible(fdt, fdt_clint_compat) >= 0 ||
	       fdt_find_compatible(fdt, fdt_mswi_compat) >= 0;
}

int fdt_find_compatible(const void *fdt, const char *const *compat)
{
	for (; *compat; compat++) {
		int node = -1;
		while ((node = fdt_node_offset_by_compatible(fdt, node, *compat)) >= 0)
			if (fdt_node_enabled(fdt, node))
				return node;
	}
	return -FDT_ERR_NOTFOUND;
}

/*
 * Linux 6.1's fdt_path_offset() resolves a leading alias by calling itself
 * on the alias's value, whatever it is: an alias naming itself (serial0 =
 * "serial0", a tree fdt_validate() accepts) recursed until the M-mode stack
 * overflowed.  Here an alias is resolved once, and only to a full path.
 */
int fdt_path_node(const void *fdt, const char *path)
{
	char full[128];
	const char *rest = path, *alias;
	int aliases, len;
	size_t n, m;

	if (path[0] == '/')
		return fdt_path_offset(fdt, path);
	while (*rest && *rest != '/')
		rest++;
	aliases = fdt_path_offset(fdt, "/aliases");
	alias = aliases < 0 ? NULL : fdt_getprop_namelen(fdt, aliases, path, (int)(rest - path), &len);
	if (!alias || len <= 0 || alias[0] != '/' || !memchr(alias, '\0', (size_t)len))
		return -FDT_ERR_BADPATH;
	n = strlen(alias);
	m = strlen(rest);
	if (n + m >= sizeof(full))
		return -FDT_ERR_BADPATH;
	memcpy(full, alias, n);
	memcpy(full + n, rest, m + 1);
	return fdt_path_offset(fdt, full);
}
