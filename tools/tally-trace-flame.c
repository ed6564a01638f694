// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace profile --svg: a flame graph, one box per function on a call
 * stack, as wide as the instructions it and its callees executed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

struct flame_node {
	const char *name;
	uint64_t total;
	int parent, child, sibling;
};

struct flame {
	struct flame_node *n;
	int count, cap;
};

static int flame_child(struct flame *fl, int parent, const char *name)
{
	int i;

	for (i = parent >= 0 ? fl->n[parent].child : -1; i >= 0; i = fl->n[i].sibling)
		if (fl->n[i].name == name || !strcmp(fl->n[i].name, name))
			return i;
	if (fl->count == fl->cap) {
		fl->cap = fl->cap ? fl->cap * 2 : 1024;
		fl->n = realloc(fl->n, (size_t)fl->cap * sizeof(*fl->n));
	}
	i = fl->count++;
	fl->n[i] = (struct flame_node){ name, 0, parent, -1, fl->n[parent].child };
	fl->n[parent].child = i;
	return i;
}

void flame_add(struct flame *fl, const char *const *stack, int depth, uint64_t n)
{
	int node = 0;

	fl->n[0].total += n;
	for (int i = 0; i < depth; i++) {
		node = flame_child(fl, node, stack[i]);
		fl->n[node].total += n;
	}
}

static void svg_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

static void flame_draw(FILE *f, struct flame *fl, int node, double x, int depth, double scale,
		       int height)
{
	double w = (double)fl->n[node].total * scale;
	double cx = x;
	int y = height - 20 * (depth + 1);
	unsigned h = 0;

	if (w < 0.5)
		return;
	for (const char *s = fl->n[node].name; *s; s++)
		h = h * 31 + (unsigned char)*s;
	fprintf(f, "<g><title>");
	svg_text(f, fl->n[node].name);
	fprintf(f, " (%llu instructions)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"19\" fill=\"rgb(%u,%u,60)\" rx=\"2\"/>", (unsigned long long)fl->n[node].total,
		x, y, w, 200 + h % 55, 80 + (h >> 8) % 140);
	if (w > 40) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" font-family=\"monospace\">",
			x + 3, y + 14);
		for (int i = 0; fl->n[node].name[i] && i < (int)(w / 7) - 1; i++)
			svg_text(f, (char[]){ fl->n[node].name[i], 0 });
		fprintf(f, "</text>");
	}
	fprintf(f, "</g>\n");
	for (int c = fl->n[node].child; c >= 0; c = fl->n[c].sibling) {
		flame_draw(f, fl, c, cx, depth + 1, scale, height);
		cx += (double)fl->n[c].total * scale;
	}
}

static int flame_depth(struct flame *fl, int node)
{
	int best = 0;

	for (int c = fl->n[node].child; c >= 0; c = fl->n[c].sibling) {
		int d = flame_depth(fl, c);

		if (d > best)
			best = d;
	}
	return best + 1;
}

int flame_write(struct flame *fl, const char *path, const char *title)
{
	FILE *f = fopen(path, "w");
	int height, width = 1200;

	if (!f)
		return -1;
	height = 20 * (flame_depth(fl, 0) + 1) + 30;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text x=\"10\" y=\"18\" font-size=\"14\" font-family=\"sans-serif\">", width, height);
	svg_text(f, title);
	fprintf(f, "</text>\n");
	if (fl->n[0].total)
		flame_draw(f, fl, 0, 10, 0, (double)(width - 20) / (double)fl->n[0].total, height);
	fprintf(f, "</svg>\n");
	return fclose(f);
}

/* An empty graph: its root "all" holds every instruction. */
struct flame *flame_new(void)
{
	struct flame *fl = calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	fl->cap = 1024;
	fl->n = calloc((size_t)fl->cap, sizeof(*fl->n));
	if (!fl->n) {
		free(fl);
		return NULL;
	}
	fl->n[0] = (struct flame_node){ "all", 0, -1, -1, -1 };
	fl->count = 1;
	return fl;
}

void flame_free(struct flame *fl)
{
	if (fl)
		free(fl->n);
	free(fl);
}
