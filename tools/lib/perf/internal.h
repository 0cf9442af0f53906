/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __LIBPERF_INTERNAL_H
#define __LIBPERF_INTERNAL_H

/*
 * The layouts behind libperf's opaque types.  Only libperf's own files
 * include this: callers go through the accessors of the public headers,
 * so a map or a list can change its representation without touching
 * them (design.txt, "libperf: what callers see").
 */
#include <sys/types.h>
#include <perf/evlist.h>

struct perf_cpu_map {
	int nr;
	int cpu[];		/* ascending, no duplicates; {-1}: any CPU */
};

struct perf_thread_map {
	int nr;
	pid_t tid[];		/* {-1}: any thread (per-CPU counting) */
};

struct perf_evlist {
	struct perf_evsel *first;
	struct perf_evsel *last;
	int nr;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
};

#endif /* __LIBPERF_INTERNAL_H */
