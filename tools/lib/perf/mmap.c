// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kernel's sample ring buffer.
 *
 * Ordering contract with the kernel, in one picture.  Left, a writer in
 * the kernel (rb_reserve() and rb_commit() in our kernel's
 * kernel/perf_counter/ring_buffer.c; perf_output_begin() and
 * perf_output_put_handle() in Linux); right, this reader:
 *
 *   kernel writer                        perf reader
 *   -------------                        -----------
 *   tail = READ_ONCE(data_tail)    (1)
 *   full barrier, then reuse space
 *   up to tail: write the record
 *   full barrier                   (2)
 *   WRITE_ONCE(data_head, head)  ---->   end = load_acquire(data_head)  (3)
 *                                        read the records in [pos, end)
 *                                (4) <-- store_release(data_tail, pos)
 *
 *   (2) pairs with (3): every byte of a record below a data_head we
 *       see is written.  Our kernel publishes data_head only when the
 *       outermost writer in flight completes, so it never covers a
 *       record a nested writer (an NMI) is still filling.
 *   (4) pairs with (1): the kernel writes over bytes we gave back only
 *       after we stopped reading them; without a writable mapping
 *       there is no data_tail to wait for, and it overwrites.
 *
 * A backward ring has no data_tail the kernel waits for: it is mapped
 * read-only and the kernel overwrites its oldest records.  The reader
 * pauses the output (PAUSE_OUTPUT) around a snapshot instead.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <perf/mmap.h>

void perf_mmap__setup(struct perf_mmap *map, void *base, size_t data_size)
{
	long page_size = sysconf(_SC_PAGESIZE);

	map->page = base;
	map->data = (unsigned char *)base + page_size;
	map->mask = data_size - 1;
	map->fd = -1;
	map->pos = 0;
	map->end = 0;
	map->error = 0;
	map->backward = false;
	map->nr_recs = 0;
	map->recs = NULL;
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
	map->fd = fd;
	map->pos = __atomic_load_n(&map->page->data_tail, __ATOMIC_RELAXED);
	return 0;
}

void perf_mmap__unmap(struct perf_mmap *map)
{
	if (map->map_len)
		munmap(map->page, map->map_len);
	map->map_len = 0;
	map->page = NULL;
	free(map->recs);
	map->recs = NULL;
	map->nr_recs = 0;
}

/* Snapshot the head; -EAGAIN when there is nothing new to read. */
int perf_mmap__read_init(struct perf_mmap *map)
{
	map->backward = false;
	map->end = __atomic_load_n(&map->page->data_head, __ATOMIC_ACQUIRE);
	if (map->error)
		return map->error;
	return map->end == map->pos ? -EAGAIN : 0;
}

/* The header at @pos, which may straddle the end of the data area. */
static void read_header(const struct perf_mmap *map, u64 pos,
			struct perf_counter_header *h)
{
	u64 off = pos & map->mask;
	size_t first = map->mask + 1 - off;

	if (first >= sizeof(*h)) {
		memcpy(h, map->data + off, sizeof(*h));
	} else {
		memcpy(h, map->data + off, first);
		memcpy((char *)h + first, map->data, sizeof(*h) - first);
	}
}

/*
 * The record of @size bytes at @pos, in place, or copied when it wraps
 * the end of the buffer so the caller sees it contiguous.
 */
static const struct perf_counter_header *record_at(struct perf_mmap *map,
						   u64 pos, size_t size)
{
	u64 off = pos & map->mask;
	size_t first = map->mask + 1 - off;

	if (first >= size)
		return (const void *)(map->data + off);
	memcpy(map->copy, map->data + off, first);
	memcpy(map->copy + first, map->data, size - first);
	return (const void *)map->copy;
}

static bool bad_size(u16 size)
{
	return size < sizeof(struct perf_counter_header) || (size & 7);
}

/*
 * The next record of a backward snapshot: the offsets were found newest
 * first, so the last one found is the oldest.
 */
static const struct perf_counter_header *read_backward(struct perf_mmap *map)
{
	struct perf_counter_header h;
	u64 pos;

	if (!map->nr_recs)
		return NULL;
	pos = map->end + map->recs[--map->nr_recs];
	read_header(map, pos, &h);
	return record_at(map, pos, h.size);
}

/*
 * The next record, or NULL at the snapshot's end or on a malformed size.
 * A record that wraps the end of the buffer is copied so the caller sees
 * it contiguous; the pointer is valid until the next call.
 */
const struct perf_counter_header *perf_mmap__read_event(struct perf_mmap *map)
{
	u64 avail = map->end - map->pos;
	struct perf_counter_header h;
	u64 pos = map->pos;

	if (map->backward)
		return read_backward(map);
	if (map->error || avail < sizeof(h))
		return NULL;
	read_header(map, pos, &h);
	if (bad_size(h.size) || h.size > avail) {
		map->error = -EINVAL;
		return NULL;
	}
	map->pos += h.size;
	return record_at(map, pos, h.size);
}

/*
 * How many bytes below the previous snapshot's head may hold records of
 * this one: those written since, but never more than the buffer, whose
 * older bytes the newest records have overwritten.
 */
static u64 backward_span(const struct perf_mmap *map)
{
	u64 written = map->pos - map->end;	/* the head moves down */

	return written > map->mask + 1 ? map->mask + 1 : written;
}

/*
 * Snapshot a backward ring, newest record first: it starts at data_head,
 * each record's size leads to the next older one.  The walk ends at the
 * previous snapshot, at a size of zero (bytes never written), at a
 * malformed size, or before a record that does not fit in one buffer
 * (its end is under the newest records).  -EAGAIN when nothing new.
 */
int perf_mmap__read_init_backward(struct perf_mmap *map)
{
	struct perf_counter_header h;
	u64 span, off = 0;

	map->backward = true;
	map->nr_recs = 0;
	map->end = __atomic_load_n(&map->page->data_head, __ATOMIC_ACQUIRE);
	if (map->end == map->pos)
		return -EAGAIN;
	/* At most one record per 8 bytes of buffer. */
	if (!map->recs) {
		map->recs = malloc((map->mask + 1) / 8 * sizeof(*map->recs));
		if (!map->recs)
			return -ENOMEM;
	}
	span = backward_span(map);
	while (off + sizeof(h) <= span) {
		read_header(map, map->end + off, &h);
		if (bad_size(h.size) || off + h.size > span)
			break;
		map->recs[map->nr_recs++] = off;
		off += h.size;
	}
	return 0;
}

/* Give the bytes read so far back to the kernel. */
void perf_mmap__consume(struct perf_mmap *map)
{
	/* A backward ring is read-only: only remember where we were. */
	if (map->backward) {
		map->pos = map->end;
		map->nr_recs = 0;
		return;
	}
	__atomic_store_n(&map->page->data_tail, map->pos, __ATOMIC_RELEASE);
}

int perf_mmap__pause(struct perf_mmap *map, bool pause)
{
	if (ioctl(map->fd, PERF_COUNTER_IOC_PAUSE_OUTPUT, pause ? 1 : 0) < 0)
		return -errno;
	return 0;
}
