/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP_H
#define __PERF_MMAP_H

#include <perf/types.h>
#include <linux/perf_counter.h>

#define PERF_MMAP_MAX_RECORD 65536	/* header.size is a u16 */

/*
 * A forward ring buffer: the kernel writes at data_head, we read from our
 * position up to the head seen at read_init, then publish data_tail.
 */
struct perf_mmap {
	struct perf_counter_mmap_page *page;
	unsigned char *data;
	u64 mask;		/* data size - 1; the size is a power of two */
	size_t map_len;		/* bytes mapped, 0 when not from mmap() */
	u64 pos;		/* next byte to read */
	u64 end;		/* head seen at read_init */
	int error;		/* -EINVAL after a malformed record */
	unsigned char copy[PERF_MMAP_MAX_RECORD];	/* wrapped records */
};

void perf_mmap__setup(struct perf_mmap *map, void *base, size_t data_size);
int perf_mmap__map(struct perf_mmap *map, int fd, unsigned int data_pages,
		   bool writable);
void perf_mmap__unmap(struct perf_mmap *map);
int perf_mmap__read_init(struct perf_mmap *map);
const struct perf_counter_header *perf_mmap__read_event(struct perf_mmap *map);
void perf_mmap__consume(struct perf_mmap *map);

#endif /* __PERF_MMAP_H */
