/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_RECORD_H
#define __PERF_UTIL_RECORD_H

#include <perf/evlist.h>
#include <perf/mmap.h>

/* Where drained and synthesized records go; returns 0 or -errno. */
typedef int (*record_sink_fn)(void *ctx, const void *buf, size_t len);

struct record_sink {
	record_sink_fn write;
	void *ctx;
};

struct record_stats {
	u64 samples;		/* SAMPLE records written */
	u64 lost;		/* records the kernel dropped (LOST) */
	u64 lost_chunks;	/* LOST records seen */
	u64 records;		/* all records written */
	u64 wakeups;
};

/*
 * One ring per CPU (per thread when counting threads on any CPU); every
 * counter of that CPU (thread) writes into it through SET_OUTPUT.
 */
struct record_rings {
	int nr;
	struct perf_mmap **maps;
	int *fds;
};

int record_rings__mmap(struct record_rings *rings, struct perf_evlist *evlist,
		       unsigned int data_pages);
void record_rings__unmap(struct record_rings *rings);
int record_rings__drain(struct record_rings *rings,
			const struct record_sink *sink,
			struct record_stats *stats);
int record_rings__poll(struct record_rings *rings, int timeout_ms);

/* Records for what existed before counting started, from /proc. */
int record_synthesize_thread(pid_t pid, pid_t tid, size_t id_size,
			     const struct record_sink *sink);
int record_synthesize_process(pid_t pid, size_t id_size,
			      const struct record_sink *sink);
int record_synthesize_task_thread(pid_t tid, size_t id_size,
				  const struct record_sink *sink);
int record_synthesize_all(size_t id_size, const struct record_sink *sink);
int record_synthesize_kernel(size_t id_size, const struct record_sink *sink);

#endif /* __PERF_UTIL_RECORD_H */
