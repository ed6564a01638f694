// SPDX-License-Identifier: BSD-2-Clause
/* Dijkstra's shortest paths on a 30x30 grid with random weights (binary heap). */
#include "lib.h"

#define W 30
#define V (W * W)
static uint32_t weight[V], dist[V];
static int heap[V * 4], hn;
static uint32_t hkey[V * 4];

static void heap_push(int v, uint32_t key)
{
	int i = hn++;

	while (i > 0 && hkey[(i - 1) / 2] > key) {
		heap[i] = heap[(i - 1) / 2];
		hkey[i] = hkey[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	heap[i] = v;
	hkey[i] = key;
}

static int heap_pop(uint32_t *key)
{
	int top = heap[0], i = 0, v;
	uint32_t k;

	*key = hkey[0];
	hn--;
	v = heap[hn];
	k = hkey[hn];
	for (;;) {
		int c = 2 * i + 1;

		if (c >= hn)
			break;
		if (c + 1 < hn && hkey[c + 1] < hkey[c])
			c++;
		if (hkey[c] >= k)
			break;
		heap[i] = heap[c];
		hkey[i] = hkey[c];
		i = c;
	}
	heap[i] = v;
	hkey[i] = k;
	return top;
}

static void relax(int u, int v)
{
	uint32_t d = dist[u] + weight[v];

	if (d < dist[v]) {
		dist[v] = d;
		heap_push(v, d);
	}
}

int main(void)
{
	uint64_t sum = 0;

	for (int i = 0; i < V; i++) {
		weight[i] = 1 + (uint32_t)(rnd() % 9);
		dist[i] = 0xffffffffu;
	}
	dist[0] = 0;
	heap_push(0, 0);
	while (hn) {
		uint32_t d;
		int u = heap_pop(&d), x = u % W, y = u / W;

		if (d > dist[u])
			continue;
		if (x > 0)
			relax(u, u - 1);
		if (x < W - 1)
			relax(u, u + 1);
		if (y > 0)
			relax(u, u - W);
		if (y < W - 1)
			relax(u, u + W);
	}
	for (int i = 0; i < V; i += 17)
		sum += dist[i];
	report("dijkstra", sum);
	report("dijkstra corner", dist[V - 1]);
	return 0;
}
