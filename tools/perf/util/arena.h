/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_ARENA_H
#define __PERF_UTIL_ARENA_H

#include <stddef.h>

/*
 * A bump allocator: many small objects with one lifetime, freed at once.
 * No per-object header, no free().
 */
struct arena;

struct arena *arena__new(size_t chunk_size);
void arena__delete(struct arena *arena);
void *arena__alloc(struct arena *arena, size_t size);	/* zeroed; NULL arena: NULL */
char *arena__strdup(struct arena *arena, const char *s);
size_t arena__bytes(const struct arena *arena);

#endif /* __PERF_UTIL_ARENA_H */
