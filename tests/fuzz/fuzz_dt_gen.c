// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target, structured: the input describes a tree that libfdt's
 * sequential writer then builds, so the parser sees well-formed blobs with
 * hostile contents: a root that is QEMU virt or not, one or two riscv,pmu
 * nodes (top level or under /soc), status strings (okay, ok, disabled,
 * unterminated, empty, arbitrary bytes), the three PMU properties with any
 * byte length (odd lengths, partial rows, zero padding) and any cell values
 * (mostly small, so rows are often valid), unknown properties, and
 * another node after them.  Checks in dt_check.h; the validation must accept
 * every such tree.
 */
#include "dt_check.h"

#define BLOB_MAX	(64 * 1024)

struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t take(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static const char *const props[] = {
	"riscv,event-to-mhpmcounters", "riscv,event-to-mhpmevent",
	"riscv,raw-event-to-mhpmcounters",
};

static const struct { const char *s; int len; } statuses[] = {
	{ "okay", 5 }, { "ok", 3 }, { "disabled", 9 }, { "okay", 4 },
	{ "", 0 }, { "okay\0x", 7 }, { "fail", 5 }, { "ok", 2 },
};

/* One cell: small numbers and the event / counter shapes the rows use. */
static uint32_t cell(struct input *in)
{
	uint8_t k = take(in);

	switch (k >> 5) {
	case 0:
		return k & 0x1F;
	case 1:
		return 0x10000 | (k & 0x1F) | (uint32_t)take(in) << 3;
	case 2:
		return 1U << (take(in) & 31);
	case 3:
		return (uint32_t)take(in) << 3;		/* counter bitmaps */
	case 4:
		return 0xFFFFFFFFU;
	default:
		return (uint32_t)take(in) << 24 | (uint32_t)take(in) << 16 |
		       (uint32_t)take(in) << 8 | take(in);
	}
}

static int pmu_property(void *fdt, struct input *in, const char *name)
{
	uint8_t buf[1024];
	unsigned int len = take(in), ncells;

	if (len & 0x80)		/* a length that is no multiple of 4 */
		len = (len & 0x7F) + 1;
	else
		len = (len & 0x7F) * 4;
	len %= sizeof(buf);
	ncells = (len + 3) / 4;
	for (unsigned int i = 0; i < ncells; i++) {
		fdt32_t c = cpu_to_fdt32(cell(in));

		memcpy(buf + 4 * i, &c, 4 * i + 4 <= len ? 4 : len - 4 * i);
	}
	return fdt_property(fdt, name, buf, (int)len);
}

static int pmu_node(void *fdt, struct input *in, const char *name)
{
	uint8_t k = take(in);
	int err = fdt_begin_node(fdt, name);

	if (!err && (k & 1))
		err = fdt_property_string(fdt, "compatible", (k & 2) ? "riscv,pmu" : "vendor,pmu");
	if (!err && !(k & 1))
		err = fdt_property(fdt, "compatible", "vendor,pmu\0riscv,pmu", 21);
	if (!err && (k & 4))
		err = fdt_property(fdt, "status", statuses[(k >> 3) & 7].s, statuses[(k >> 3) & 7].len);
	for (unsigned int i = 0; !err && i < 3; i++)
		if (take(in) & 1)
			err = pmu_property(fdt, in, props[take(in) % 3]);
	if (!err && (k & 0x40))
		err = fdt_property_u32(fdt, "vendor,unknown", cell(in));
	if (!err && (k & 0x80))	/* a child node inside the PMU node */
		err = fdt_begin_node(fdt, "child") ?: fdt_end_node(fdt);
	return err ?: fdt_end_node(fdt);
}

static int build(void *fdt, struct input *in)
{
	uint8_t k = take(in);
	int err = fdt_create(fdt, BLOB_MAX);

	err = err ?: fdt_finish_reservemap(fdt);
	err = err ?: fdt_begin_node(fdt, "");
	err = err ?: fdt_property_string(fdt, "compatible", (k & 1) ? "riscv-virtio" : "tally,test");
	err = err ?: pmu_node(fdt, in, "pmu");
	if (k & 2) {
		err = err ?: fdt_begin_node(fdt, "soc");
		err = err ?: pmu_node(fdt, in, "pmu@1");
		err = err ?: fdt_end_node(fdt);
	} else if (k & 4) {
		err = err ?: pmu_node(fdt, in, "pmu2");
	}
	if (k & 8) {
		err = err ?: fdt_begin_node(fdt, "after");
		err = err ?: fdt_end_node(fdt);
	}
	err = err ?: fdt_end_node(fdt);
	return err ?: fdt_finish(fdt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t harts[] = { FDT_PMU_ANY_COUNTERS, 0x5, 0x7FFFD, 0x7D };
	static uint8_t work[BLOB_MAX];
	struct input in = { data, size };
	uint32_t counters = harts[take(&in) & 3];
	uint8_t *blob;

	if (build(work, &in))
		return 0;	/* a generator limit, not a finding */
	blob = malloc(fdt_totalsize(work));
	if (!blob)
		return 0;
	memcpy(blob, work, fdt_totalsize(work));
	dt_check_blob(blob, fdt_totalsize(work), counters, true);
	free(blob);
	return 0;
}
