// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kernel's sample ring buffer.
 *
 * Ordering contract with the kernel: the kernel stores a record, then
 * publishes data_head with release semantics.  We load data_head with
 * acquire semantics before touching the data it covers, and store
 * data_tail with release semantics only after we are done with the bytes
 * it gives back, so the kernel never overwrites what we still read.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <perf/mmap.h>

void perf_mmap__setup(struct perf_mmap *map, void *base, size_t data_size)
{
	long page_size = sysconf(_SC_PAGESIZE);

	map->page = base;
	map->data = (unsigned char *)base + page_size;
	map->mask = data_size - 1;
	map->pos = 0;
	map->end = 0;
	map->error = 0;
}

/*
 * Map one control page and @data_pages (a power of two) data pages.  A
 * writable mapping lets us move data_tail, which makes the kernel stop
 * rather than overwrite unread data.
 */
int perf_mmap__map(struct perf_mmap *map, int fd, unsigned int data_pages,
		   bool writable)
{
	long page_size = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(data_pages + 1) * page_size;
	int prot = PROT_READ | (writable ? PROT_WRITE : 0);
	void *base;

	if (!data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	base = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	perf_mmap__setup(map, base, (size_t)data_pages * page_size);
	map->map_len = len;
	map->pos = __atomic_load_n(&map->page->data_tail, __ATOMIC_RELAXED);
	return 0;
}

void perf_mmap__unmap(struct perf_mmap *map)
{
	if (map->map_len)
		munmap(map->page, map->map_len);
	map->map_len = 0;
	map->page = NULL;
}

/* Snapshot the head; -EAGAIN when there is nothing new to read. */
int perf_mmap__read_init(struct perf_mmap *map)
{
	map->end = __atomic_load_n(&map->page->data_head, __ATOMIC_ACQUIRE);
	if (map->error)
		return map->error;
	return map->end == map->pos ? -EAGAIN : 0;
}

/*
 * The next record, or NULL at the snapshot's end or on a malformed size.
 * A record that wraps the end of the buffer is copied so the caller sees
 * it contiguous; the pointer is valid until the next call.
 */
const struct perf_counter_header *perf_mmap__read_event(struct perf_mmap *map)
{
	const struct perf_counter_header *hdr;
	u64 avail = map->end - map->pos;
	u64 off = map->pos & map->mask;
	struct perf_counter_header h;
	size_t first;

	if (map->error || avail < sizeof(h))
		return NULL;
	/* The header itself may straddle the end. */
	first = map->mask + 1 - off;
	if (first >= sizeof(h)) {
		memcpy(&h, map->data + off, sizeof(h));
	} else {
		memcpy(&h, map->data + off, first);
		memcpy((char *)&h + first, map->data, sizeof(h) - first);
	}
	if (h.size < sizeof(h) || h.size > avail || (h.size & 7)) {
		map->error = -EINVAL;
		return NULL;
	}
	if (first >= h.size) {
		hdr = (const void *)(map->data + off);
	} else {
		memcpy(map->copy, map->data + off, first);
		memcpy(map->copy + first, map->data, h.size - first);
		hdr = (const void *)map->copy;
	}
	map->pos += h.size;
	return hdr;
}

/* Give the bytes read so far back to the kernel. */
void perf_mmap__consume(struct perf_mmap *map)
{
	__atomic_store_n(&map->page->data_tail, map->pos, __ATOMIC_RELEASE);
}
