/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_FLIGHT_STORE_H
#define __PERF_UTIL_FLIGHT_STORE_H

/*
 * A flight recorder's memory: the records of the last N seconds,
 * within a byte budget, as perf sched daemon keeps them.
 *
 * Records are copied, as the kernel wrote them, into fixed-size chunks.
 * Each chunk holds records of one CPU (one ring buffer) in the order
 * the ring gave them, which is time order; a CPU has a chain of chunks,
 * oldest first, and only its newest chunk is written to.  All chunks
 * also sit on one list in the order they were made.
 *
 * Bounds:
 *  - time: a chunk whose newest record is older than the window is
 *    dropped (prune);
 *  - bytes: a new chunk is made only within max_bytes, counting every
 *    chunk held (one spare included), so the oldest chunk is dropped
 *    first.  Chunks are mapped and unmapped directly, so what is
 *    dropped is given back and the store's resident size never exceeds
 *    max_bytes.
 *
 * Task names of records that were dropped are not lost: a dropped
 * chunk's COMM, FORK and EXIT records are applied to a table of
 * threads, which therefore describes the tasks as they were at the
 * start of what is kept.  It holds the tasks alive at that point
 * (about 40 bytes each), seeded from /proc at start.
 *
 * Walking (for_each) merges the CPUs' chains by time and hands out the
 * records at or after a given time, in place.
 */
#include <stdbool.h>
#include <stddef.h>
#include <perf/types.h>
#include <linux/perf_counter.h>

struct flight_chunk;

struct flight_thread {
	u32 tid;		/* 0: free slot */
	u32 pid;
	char comm[16];
};

struct flight_store {
	u64 max_bytes;
	u64 window_ns;
	size_t chunk_size;
	u32 nr_cpus;			/* slots: records of CPU n go to n */

	/* Where the time and CPU sit, in u64s from the record start. */
	int sample_time, sample_cpu;	/* in a SAMPLE; -1: absent */
	int id_time, id_cpu;		/* in the trailer, from its end */

	struct flight_chunk **newest;	/* per CPU: the chunk written to */
	struct flight_chunk **oldest;	/* per CPU: its chain's start */
	struct flight_chunk *first;	/* all chunks, oldest first */
	struct flight_chunk *last;
	struct flight_chunk *spare;	/* one dropped chunk, for reuse */
	u64 bytes;			/* chunks held, spare included */
	u64 latest;			/* newest record time seen */

	struct {
		u64 records;		/* added */
		u64 dropped_time;	/* chunks dropped out of the window */
		u64 dropped_size;	/* chunks dropped for the byte cap */
		u64 too_late;		/* records older than their chunk */
	} stats;

	struct flight_thread *threads;	/* open addressing by tid */
	u32 threads_mask;
	u32 nr_threads;
};

/*
 * @sample_type of every attr (the same for all, with TIME and CPU, and
 * sample_id_all), @nr_cpus the highest CPU number + 1.  The chunk size
 * follows from @max_bytes and @nr_cpus; -EINVAL when @max_bytes cannot
 * hold two chunks per CPU (flight_store__min_bytes()).
 */
int flight_store__init(struct flight_store *st, u64 sample_type,
		       u32 nr_cpus, u64 max_bytes, u64 window_ns);
void flight_store__exit(struct flight_store *st);
u64 flight_store__min_bytes(u32 nr_cpus);

/* Copy one kernel record in; 0 or -ENOMEM. */
int flight_store__add(struct flight_store *st,
		      const struct perf_counter_header *h);
/* Drop what ended before @now - window. */
void flight_store__prune(struct flight_store *st, u64 now);

/* A record_sink-shaped writer: the COMMs it gets seed the table. */
int flight_store__seed(void *st, const void *rec, size_t len);

typedef int (*flight_record_fn)(void *ctx,
				const struct perf_counter_header *h,
				u64 time);
/* The records at or after @from, in time order; stops on non-zero. */
int flight_store__for_each(const struct flight_store *st, u64 from,
			   flight_record_fn fn, void *ctx);
typedef int (*flight_thread_fn)(void *ctx, const struct flight_thread *t);
/* The tasks as they were when the kept records start. */
int flight_store__walk_threads(const struct flight_store *st,
				  flight_thread_fn fn, void *ctx);

#endif /* __PERF_UTIL_FLIGHT_STORE_H */
