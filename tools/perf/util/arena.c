// SPDX-License-Identifier: GPL-2.0
/*
 * Bump allocation in large chunks.
 */
#include <stdlib.h>
#include <string.h>
#include "arena.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	size_t size;
	size_t pad;		/* keeps data 16-byte aligned */
	char data[];
};

struct arena {
	struct arena_chunk *head;
	size_t chunk_size;
	size_t bytes;
};

struct arena *arena__new(size_t chunk_size)
{
	struct arena *a = calloc(1, sizeof(*a));

	if (a)
		a->chunk_size = chunk_size ? chunk_size : 1 << 20;
	return a;
}

void arena__delete(struct arena *a)
{
	struct arena_chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *arena__alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c;
	void *p;

	/* No arena (it could not be made): no memory, as for its chunks. */
	if (!a)
		return NULL;
	c = a->head;
	size = (size + 15) & ~(size_t)15;
	if (!c || c->size - c->used < size) {
		size_t n = size > a->chunk_size ? size : a->chunk_size;

		/* calloc: fresh chunks are zero, so objects start zeroed. */
		c = calloc(1, sizeof(*c) + n);
		if (!c)
			return NULL;
		c->size = n;
		c->next = a->head;
		a->head = c;
		a->bytes += n;
	}
	p = c->data + c->used;
	c->used += size;
	return p;
}

char *arena__strdup(struct arena *a, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = arena__alloc(a, len);

	if (p)
		memcpy(p, s, len);
	return p;
}

size_t arena__bytes(const struct arena *a)
{
	return a->bytes;
}
