/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A counter's mmap ring buffer as the selftests read it: one control
 * page and 2^n data pages, records copied out whole even where they wrap.
 */
#ifndef _PERF_COUNTER_SELFTEST_RING_H
#define _PERF_COUNTER_SELFTEST_RING_H

#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_counter.h>

struct ring {
	int				fd;
	struct perf_counter_mmap_page	*page;
	char				*data;
	size_t				size;
};

/* Mapped read-only, the kernel cannot see a tail and overwrites. */
static inline bool ring_map_prot(struct ring *r, int fd, unsigned int pages,
				 bool writable)
{
	long page = sysconf(_SC_PAGESIZE);
	int prot = PROT_READ | (writable ? PROT_WRITE : 0);
	void *base;

	base = mmap(NULL, (pages + 1) * page, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return false;
	r->fd = fd;
	r->page = base;
	r->data = (char *)base + page;
	r->size = pages * page;
	return true;
}

static inline bool ring_map(struct ring *r, int fd, unsigned int pages)
{
	return ring_map_prot(r, fd, pages, true);
}

static inline void ring_unmap(struct ring *r)
{
	munmap(r->page, r->size + sysconf(_SC_PAGESIZE));
}

/* Copy the record at @pos out of the ring, undoing a wrap. */
static inline void ring_copy(struct ring *r, __u64 pos, void *dst, size_t len)
{
	size_t off = pos & (r->size - 1);
	size_t first = len < r->size - off ? len : r->size - off;

	memcpy(dst, r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

#endif /* _PERF_COUNTER_SELFTEST_RING_H */
