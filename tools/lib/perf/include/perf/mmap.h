/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP_H
#define __PERF_MMAP_H

#include <perf/types.h>
#include <linux/perf_counter.h>

#define PERF_MMAP_MAX_RECORD 65536	/* header.size is a u16 */

/*
 * A ring buffer.  Forward: the kernel writes at data_head, we read from
 * our position up to the head seen at read_init, then publish data_tail.
 *
 * Backward (attr.write_backward, mapped read-only): the kernel moves
 * data_head down before each record and overwrites the oldest data;
 * read_init_backward takes a snapshot of what was written since the
 * previous one (at most one buffer), read_event returns it oldest
 * first, and consume marks it read.  Pause the output around it.
 */
struct perf_mmap {
	struct perf_counter_mmap_page *page;
	unsigned char *data;
	u64 mask;		/* data size - 1; the size is a power of two */
	size_t map_len;		/* bytes mapped, 0 when not from mmap() */
	int fd;			/* the counter mapped, -1 when unknown */
	u64 pos;		/* next byte to read; backward: previous head */
	u64 end;		/* head seen at read_init */
	int error;		/* -EINVAL after a malformed record */
	bool backward;		/* a backward snapshot is being read */
	u32 nr_recs;		/* backward: records of it left to read */
	u32 *recs;		/* backward: their offsets from end */
	unsigned char copy[PERF_MMAP_MAX_RECORD];	/* wrapped records */
};

void perf_mmap__setup(struct perf_mmap *map, void *base, size_t data_size);
int perf_mmap__map(struct perf_mmap *map, int fd, unsigned int data_pages,
		   bool writable);
void perf_mmap__unmap(struct perf_mmap *map);
int perf_mmap__read_init(struct perf_mmap *map);
int perf_mmap__read_init_backward(struct perf_mmap *map);
const struct perf_counter_header *perf_mmap__read_event(struct perf_mmap *map);
void perf_mmap__consume(struct perf_mmap *map);

/*
 * Stop (pause true) or restart the kernel's writing into the ring
 * (PERF_COUNTER_IOC_PAUSE_OUTPUT); records meanwhile are counted as
 * lost.  Returns 0 or -errno.
 */
int perf_mmap__pause(struct perf_mmap *map, bool pause);

#endif /* __PERF_MMAP_H */
