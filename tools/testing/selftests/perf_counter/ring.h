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

/* A record's size is 16 bits: no record is larger. */
#define RING_RECORD_MAX 65536

typedef void (*ring_record_fn)(const struct perf_counter_header *h,
			       bool broken, void *arg);

/*
 * Consume the records published in @r, in order, each copied out whole
 * for @fn.  A header no record can have (shorter than a header, not a
 * multiple of 8, or reaching past data_head) ends the walk: @fn sees it
 * with @broken set, and all that is published is consumed.
 */
static inline void ring_walk(struct ring *r, ring_record_fn fn, void *arg)
{
	__u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->page->data_tail;
	union {
		struct perf_counter_header h;
		char bytes[RING_RECORD_MAX];
	} rec;

	while (tail < head) {
		ring_copy(r, tail, &rec.h, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h) || rec.h.size % 8 ||
		    tail + rec.h.size > head) {
			fn(&rec.h, true, arg);
			tail = head;
			break;
		}
		ring_copy(r, tail, rec.bytes, rec.h.size);
		fn(&rec.h, false, arg);
		tail += rec.h.size;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

#endif /* _PERF_COUNTER_SELFTEST_RING_H */
