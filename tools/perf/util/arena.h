/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_ARENA_H
#define __PERF_UTIL_ARENA_H

#include <stddef.h>

/*
 * A bump allocator: many small objects with one lifetime, freed at once.
 * No per-object header, no free().  Objects are 8-byte aligned.
 */
struct arena;

struct arena *arena__new(size_t chunk_size);
void arena__delete(struct arena *arena);
void *arena__alloc(struct arena *arena, size_t size);	/* zeroed; NULL arena: NULL */
char *arena__strdup(struct arena *arena, const char *s);
size_t arena__bytes(const struct arena *arena);

/*
 * Zeroed memory for big tables and buffers: from 1 MiB on, a mapping of
 * its own, of whole 2 MiB huge pages and aligned to them, with
 * transparent huge pages asked for.  One fault then maps 2 MiB where
 * 512 would each map 4 KiB (and there are fewer TLB misses).
 * big_free() needs the size given.
 */
void *big_zalloc(size_t size);
void big_free(void *p, size_t size);
/* The bytes big_zalloc(@size) really gives: all of them may be used. */
size_t big_size(size_t size);
/*
 * @p (of @old_size bytes from big_zalloc() or big_realloc(), or NULL)
 * resized to @size, as realloc() would: the bytes beyond @old_size are
 * not promised to be zero.  NULL, with @p kept, without memory.
 */
void *big_realloc(void *p, size_t old_size, size_t size);

#endif /* __PERF_UTIL_ARENA_H */
