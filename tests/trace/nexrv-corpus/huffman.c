// SPDX-License-Identifier: BSD-2-Clause
/*
 * Huffman coding of a skewed 6 KiB text: symbol counts, the tree built by
 * repeatedly taking the two lightest nodes, code lengths by walking up,
 * canonical codes, then encoding into a bit buffer.
 */
#include "lib.h"

#define LEN 6144
static uint8_t text[LEN], outbits[LEN];
static uint32_t count[256];
static int parent[512], weight_of[512], alive[512], nodes;
static uint8_t codelen[256];
static uint32_t code[256];

static int lightest(void)
{
	int best = -1;

	for (int i = 0; i < nodes; i++)
		if (alive[i] && (best < 0 || weight_of[i] < weight_of[best]))
			best = i;
	alive[best] = 0;
	return best;
}

int main(void)
{
	uint64_t bits = 0;
	int live = 0;
	size_t pos = 0;

	for (int i = 0; i < LEN; i++) {
		uint64_t r = rnd();
		/* a skewed alphabet: low letters much more often */
		text[i] = (uint8_t)('a' + (r & 7) * ((r >> 3) & 3) / 3 + ((r >> 5) % 3 == 0 ? (r >> 8) % 16 : 0));
	}
	for (int i = 0; i < LEN; i++)
		count[text[i]]++;
	for (int s = 0; s < 256; s++) {
		weight_of[s] = (int)count[s];
		alive[s] = count[s] != 0;
		parent[s] = -1;
		live += alive[s];
	}
	nodes = 256;
	while (live > 1) {
		int a = lightest(), b = lightest();

		weight_of[nodes] = weight_of[a] + weight_of[b];
		alive[nodes] = 1;
		parent[nodes] = -1;
		parent[a] = parent[b] = nodes;
		nodes++;
		live--;
	}
	for (int s = 0; s < 256; s++) {
		int d = 0;

		if (!count[s])
			continue;
		for (int n = s; parent[n] >= 0; n = parent[n])
			d++;
		codelen[s] = (uint8_t)(d ? d : 1);
	}
	/* canonical codes: by length, then symbol */
	{
		uint32_t next = 0;

		for (int l = 1; l < 32; l++) {
			for (int s = 0; s < 256; s++)
				if (count[s] && codelen[s] == l)
					code[s] = next++;
			next <<= 1;
		}
	}
	for (int i = 0; i < LEN; i++) {
		uint8_t s = text[i];

		for (int b = codelen[s] - 1; b >= 0; b--) {
			if (code[s] >> b & 1)
				outbits[pos >> 3] |= (uint8_t)(1 << (pos & 7));
			pos++;
		}
		bits += codelen[s];
	}
	report("huffman bits", bits);
	report("huffman byte", outbits[pos / 16]);
	return 0;
}
