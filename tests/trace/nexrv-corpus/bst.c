// SPDX-License-Identifier: BSD-2-Clause
/*
 * Binary search tree of 2000 random keys (nodes from a pool): recursive
 * insert, iterative lookup, recursive in-order walk and height.
 */
#include "lib.h"

struct node {
	uint32_t key;
	struct node *left, *right;
};

#define NODES 2000
static struct node pool[NODES];
static int used;

static struct node *insert(struct node *t, uint32_t key)
{
	if (!t) {
		struct node *n = &pool[used++];

		n->key = key;
		return n;
	}
	if (key < t->key)
		t->left = insert(t->left, key);
	else if (key > t->key)
		t->right = insert(t->right, key);
	return t;
}

static int lookup(const struct node *t, uint32_t key)
{
	while (t) {
		if (key == t->key)
			return 1;
		t = key < t->key ? t->left : t->right;
	}
	return 0;
}

static uint64_t walk(const struct node *t, uint64_t acc)
{
	if (!t)
		return acc;
	acc = walk(t->left, acc);
	acc = acc * 31 + t->key;
	return walk(t->right, acc);
}

static int height(const struct node *t)
{
	int l, r;

	if (!t)
		return 0;
	l = height(t->left);
	r = height(t->right);
	return 1 + (l > r ? l : r);
}

int main(void)
{
	struct node *root = 0;
	uint64_t hits = 0;

	for (int i = 0; i < NODES; i++)
		root = insert(root, (uint32_t)(rnd() % 50000));
	for (uint32_t k = 0; k < 50000; k += 13)
		hits += (uint64_t)lookup(root, k);
	report("bst hits", hits);
	report("bst walk", walk(root, 0));
	report("bst height", (uint64_t)height(root));
	return 0;
}
