/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_EVLIST_H
#define __PERF_EVLIST_H

#include <perf/evsel.h>

/*
 * The events of one session, in command-line order, with the CPUs and
 * threads they count on.  Opaque: the events are reached through
 * perf_evlist__for_each() or perf_evlist__first().
 */
struct perf_evlist;

#define perf_evlist__for_each(evlist, pos) \
	for ((pos) = perf_evlist__first(evlist); (pos); (pos) = (pos)->next)

struct perf_evlist *perf_evlist__new(void);
void perf_evlist__delete(struct perf_evlist *evlist);
struct perf_evsel *perf_evlist__first(const struct perf_evlist *evlist);
struct perf_evsel *perf_evlist__last(const struct perf_evlist *evlist);
int perf_evlist__nr_entries(const struct perf_evlist *evlist);
struct perf_cpu_map *perf_evlist__cpus(const struct perf_evlist *evlist);
struct perf_thread_map *perf_evlist__threads(const struct perf_evlist *evlist);
void perf_evlist__add(struct perf_evlist *evlist, struct perf_evsel *evsel);
void perf_evlist__set_maps(struct perf_evlist *evlist,
			   struct perf_cpu_map *cpus,
			   struct perf_thread_map *threads);
/*
 * After an open failed with @err: when it was a permission error (the
 * paranoid level forbids the kernel to a user), make every event that
 * counts the kernel count user space only.  True when one changed, and
 * the open is worth a second try.
 */
bool perf_evlist__exclude_kernel_on_eperm(struct perf_evlist *evlist,
					  int err);
/* Count the workload @pid (and, with inherit, its children) alone. */
int perf_evlist__set_workload(struct perf_evlist *evlist, pid_t pid);
int perf_evlist__open(struct perf_evlist *evlist, bool skip_unsupported);
void perf_evlist__close(struct perf_evlist *evlist);
int perf_evlist__enable(struct perf_evlist *evlist);
int perf_evlist__disable(struct perf_evlist *evlist);
int perf_evlist__read(struct perf_evlist *evlist);

#endif /* __PERF_EVLIST_H */
