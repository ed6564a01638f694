// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for tally-trace's ELF loader (tools/tally-trace-elf.c)
 * and the code map it fills (tools/tally-trace-image.c): arbitrary bytes
 * as an ELF file must never crash it nor make it read out of bounds (built
 * with -fsanitize=fuzzer,address,undefined).  An accepted file's code and
 * symbols are then looked up as the decoder would (around 0x80000000, where
 * the seeds are linked): symbols, and the decoder's fast path, a window of
 * classified halfwords.
 * The first byte picks --elf (code) or --syms; the rest is the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../../tools/tally-trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	uint8_t *copy;

	if (size < 1)
		return 0;
	/* the loader gets a buffer of exactly the file's size, as read_file gives */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (!elf_load(copy, size - 1, data[0] & 1, err, sizeof(err))) {
		for (uint64_t a = 0x80000000ull; a < 0x80000000ull + 64; a += 2) {
			uint64_t base, end, start;
			const struct ntrace_insn *w;

			if (image_symbol(a, &start))
				image_lookup(NULL, start);
			w = image_range(NULL, a, &base, &end);
			for (uint64_t pc = base; w && pc < end && pc < base + 128; pc += 2)
				if (w[(pc - base) / 2].len > 4)
					abort();
		}
	} else if (!memchr(err, 0, sizeof(err)) || !err[0]) {
		abort();	/* a refused file always says why */
	}
	free(copy);
	image_reset();
	return 0;
}
