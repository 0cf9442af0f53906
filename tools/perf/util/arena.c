// SPDX-License-Identifier: GPL-2.0
/*
 * Bump allocation in large chunks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "arena.h"

#define HUGE_PAGE	(2u << 20)
/* From half a huge page on, a whole one serves (arena.h). */
#define BIG_MIN		(HUGE_PAGE / 2)
#define MAX_CHUNK	(32u << 20)

static size_t huge_round(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
}

/*
 * @size bytes (a multiple of HUGE_PAGE) that start on a huge page
 * boundary: the kernel backs with huge pages only the aligned 2 MiB
 * ranges of a mapping, and most mappings start off them.
 */
static void *huge_map(size_t size)
{
	size_t span = size + HUGE_PAGE, head;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	head = huge_round((uintptr_t)p) - (uintptr_t)p;
	if (head)
		munmap(p, head);
	munmap(p + head + size, span - head - size);
	p += head;
	/* A hint: without transparent huge pages, small pages serve. */
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

size_t big_size(size_t size)
{
	return size < BIG_MIN ? size : huge_round(size);
}

void *big_zalloc(size_t size)
{
	if (size < BIG_MIN)
		return calloc(1, size);
	return huge_map(huge_round(size));
}

void big_free(void *p, size_t size)
{
	if (size < BIG_MIN)
		free(p);
	else if (p)
		munmap(p, huge_round(size));
}

void *big_realloc(void *p, size_t old_size, size_t size)
{
	void *q;

	if (size < BIG_MIN && old_size < BIG_MIN)
		return realloc(p, size);
	/* Both in one mapping of the same whole huge pages. */
	if (size >= BIG_MIN && old_size >= BIG_MIN &&
	    huge_round(size) == huge_round(old_size))
		return p;
	q = big_zalloc(size);
	if (!q)
		return NULL;
	if (p)
		memcpy(q, p, old_size < size ? old_size : size);
	big_free(p, old_size);
	return q;
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
		size_t n = size + sizeof(*c);

		/*
		 * Fresh chunks are zero, so objects start zeroed.  Each is
		 * twice the last, up to MAX_CHUNK: a big arena is a few
		 * mappings with huge pages, not thousands of small ones.
		 * The header is inside the chunk's size, so a chunk fills
		 * whole huge pages and does not start another for 32 bytes.
		 */
		if (n < a->chunk_size)
			n = a->chunk_size;
		n = big_size(n);
		c = big_zalloc(n);
		if (!c)
			return NULL;
		if (a->chunk_size < MAX_CHUNK)
			a->chunk_size *= 2;
		c->size = n - sizeof(*c);
		c->next = a->head;
		a->head = c;
		a->bytes += c->size;
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
