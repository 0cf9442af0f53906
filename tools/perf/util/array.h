/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_ARRAY_H
#define __PERF_UTIL_ARRAY_H

#include <errno.h>
#include <stdlib.h>
#include <perf/types.h>

/*
 * Make room for one more element in a growable array (*@ptr holding
 * *@alloc elements of @size bytes, @nr in use): doubles, starting at 8.
 */
static inline int array_reserve_one(void **ptr, u32 *alloc, u32 nr,
				    size_t size)
{
	u32 n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 8;
	p = realloc(*ptr, (size_t)n * size);
	if (!p)
		return -ENOMEM;
	*ptr = p;
	*alloc = n;
	return 0;
}

/*
 * The slot of @key in an open-addressing table of @size slots (a power
 * of two): Fibonacci hashing, the high bits of the product.
 */
static inline u32 hash_slot(u64 key, u32 size)
{
	return (u32)((key * 0x9e3779b97f4a7c15ULL) >> 32) & (size - 1);
}

#endif /* __PERF_UTIL_ARRAY_H */
