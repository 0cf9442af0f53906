/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_EVSEL_H
#define __PERF_EVSEL_H

#include <sys/types.h>
#include <linux/perf_counter.h>
#include <perf/counts.h>
#include <perf/cpumap.h>
#include <perf/threadmap.h>

/*
 * One event as the user named it, opened as one counter per (cpu, thread)
 * pair of the maps it was opened on.
 */
struct perf_evsel {
	struct perf_counter_attr attr;
	char *name;			/* as written by the user */
	int idx;			/* position in its list */
	struct perf_evsel *leader;	/* itself when it leads (or is alone) */
	int nr_members;			/* group size, for a leader */
	struct perf_evsel *next;

	int nr_cpus;
	int nr_threads;
	int *fd;			/* [cpu][thread], -1 when not open */
	u64 *id;			/* [cpu][thread] kernel ids */
	struct perf_counts_values *counts;	/* [cpu][thread] */
	int open_errno;			/* why the last open failed, or 0 */
	bool filter_failed;		/* open_errno came from the filter */
	char *filter;			/* tracepoint filter, set at open */
};

#define PERF_EVSEL_FD(e, c, t) ((e)->fd[(c) * (e)->nr_threads + (t)])
#define PERF_EVSEL_COUNTS(e, c, t) (&(e)->counts[(c) * (e)->nr_threads + (t)])

struct perf_evsel *perf_evsel__new(const struct perf_counter_attr *attr,
				   const char *name);
void perf_evsel__delete(struct perf_evsel *evsel);
int perf_evsel__open(struct perf_evsel *evsel, struct perf_cpu_map *cpus,
		     struct perf_thread_map *threads);
void perf_evsel__close(struct perf_evsel *evsel);
int perf_evsel__ioctl(struct perf_evsel *evsel, unsigned long request,
		      unsigned long arg);
int perf_evsel__read(struct perf_evsel *evsel, int cpu_idx, int thread_idx,
		     struct perf_counts_values *out);
int perf_evsel__read_all(struct perf_evsel *evsel);
void perf_evsel__sum(struct perf_evsel *evsel, int cpu_idx,
		     struct perf_counts_values *sum);
bool perf_evsel__is_open(const struct perf_evsel *evsel);
/*
 * A tracepoint filter (tracefs syntax, e.g. "common_pid != 42") that
 * every counter of @evsel gets when opened; joined with && to one set
 * before.  Returns 0 or -ENOMEM.
 */
int perf_evsel__append_filter(struct perf_evsel *evsel, const char *filter);

#endif /* __PERF_EVSEL_H */
