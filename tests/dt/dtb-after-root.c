// SPDX-License-Identifier: BSD-2-Clause
/*
 * Makes a malformed devicetree blob for the tests: a copy of IN with one more
 * node *after* the root node's END_NODE token (dtc and fdtput cannot write
 * such a tree).  The node carries compatible = COMPATIBLE, so a search by
 * compatible (fdt_node_offset_by_compatible walks every token) reaches it.
 *
 *   dtb-after-root IN.dtb OUT.dtb NODE-NAME COMPATIBLE
 *
 * This is the shape that made libfdt's fdt_get_path() walk its depth
 * negative and write before its caller's buffer (issue 10, defect 3).
 */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*size = (size_t)n;
out:
	if (f)
		fclose(f);
	return buf;
}

/* Offset of NAME in the strings block, or -1. */
static int string_offset(const char *fdt, const char *name)
{
	const char *s = fdt + fdt_off_dt_strings(fdt);
	unsigned int size = fdt_size_dt_strings(fdt), len = strlen(name) + 1;

	for (unsigned int off = 0; off + len <= size; off += strlen(s + off) + 1)
		if (!memcmp(s + off, name, len))
			return (int)off;
	return -1;
}

static void put32(char **p, uint32_t v)
{
	fdt32_t be = cpu_to_fdt32(v);

	memcpy(*p, &be, 4);
	*p += 4;
}

static void put_padded(char **p, const char *s, unsigned int len)
{
	memcpy(*p, s, len);
	memset(*p + len, 0, ((len + 3) & ~3U) - len);
	*p += ((len + 3) & ~3U);
}

int main(int argc, char **argv)
{
	size_t size;
	char *in, *fdt, tokens[512], *t = tokens;
	unsigned int name_len, value_len, n, struct_end;
	int compat;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: %s IN.dtb OUT.dtb NODE-NAME COMPATIBLE\n", argv[0]);
		return 2;
	}
	name_len = strlen(argv[3]) + 1;
	value_len = strlen(argv[4]) + 1;
	if (name_len + value_len > 400) {
		fprintf(stderr, "dtb-after-root: name or compatible too long\n");
		return 2;
	}
	in = read_file(argv[1], &size);
	if (!in || fdt_check_header(in) || (fdt = malloc(size + 1024)) == NULL ||
	    fdt_open_into(in, fdt, (int)size + 1024)) {
		fprintf(stderr, "dtb-after-root: %s: not a devicetree blob\n", argv[1]);
		return 2;
	}
	compat = string_offset(fdt, "compatible");
	struct_end = fdt_off_dt_struct(fdt) + fdt_size_dt_struct(fdt);
	if (compat < 0 || fdt_off_dt_strings(fdt) != struct_end) {
		fprintf(stderr, "dtb-after-root: %s: unexpected layout\n", argv[1]);
		return 2;
	}

	put32(&t, FDT_BEGIN_NODE);
	put_padded(&t, argv[3], name_len);
	put32(&t, FDT_PROP);
	put32(&t, value_len);
	put32(&t, (uint32_t)compat);
	put_padded(&t, argv[4], value_len);
	put32(&t, FDT_END_NODE);
	n = (unsigned int)(t - tokens);

	/* the new tokens go just before FDT_END; the strings move up */
	memmove(fdt + struct_end + n, fdt + struct_end, fdt_size_dt_strings(fdt));
	memmove(fdt + struct_end - FDT_TAGSIZE + n, fdt + struct_end - FDT_TAGSIZE, FDT_TAGSIZE);
	memcpy(fdt + struct_end - FDT_TAGSIZE, tokens, n);
	fdt_set_size_dt_struct(fdt, fdt_size_dt_struct(fdt) + n);
	fdt_set_off_dt_strings(fdt, fdt_off_dt_strings(fdt) + n);
	fdt_set_totalsize(fdt, fdt_off_dt_strings(fdt) + fdt_size_dt_strings(fdt));

	out = fopen(argv[2], "wb");
	if (!out || fwrite(fdt, 1, fdt_totalsize(fdt), out) != fdt_totalsize(fdt) || fclose(out)) {
		fprintf(stderr, "dtb-after-root: cannot write %s\n", argv[2]);
		return 2;
	}
	free(in);
	free(fdt);
	return 0;
}
