// SPDX-License-Identifier: GPL-2.0
/*
 * Bump allocation in large chunks.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arena.h"

#define HUGE_PAGE	(2u << 20)
#define MAX_CHUNK	(32u << 20)

void *big_zalloc(size_t size)
{
	void *p;

	if (size < HUGE_PAGE)
		return calloc(1, size);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* A hint: without transparent huge pages, small pages serve. */
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

void big_free(void *p, size_t size)
{
	if (size < HUGE_PAGE)
		free(p);
	else if (p)
		munmap(p, size);
}

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
		big_free(c, sizeof(*c) + c->size);
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
	size = (size + 7) & ~(size_t)7;
	if (!c || c->size - c->used < size) {
		size_t n = size > a->chunk_size ? size : a->chunk_size;

		/*
		 * Fresh chunks are zero, so objects start zeroed.  Each is
		 * twice the last, up to MAX_CHUNK: a big arena is a few
		 * mappings with huge pages, not thousands of small ones.
		 */
		c = big_zalloc(sizeof(*c) + n);
		if (!c)
			return NULL;
		if (a->chunk_size < MAX_CHUNK)
			a->chunk_size *= 2;
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
