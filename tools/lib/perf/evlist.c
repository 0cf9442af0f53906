// SPDX-License-Identifier: GPL-2.0
/*
 * Event lists: the events of one session and the CPUs/threads they watch.
 */
#include <errno.h>
#include <stdlib.h>
#include <perf/evlist.h>
#include "internal.h"

struct perf_evlist *perf_evlist__new(void)
{
	return calloc(1, sizeof(struct perf_evlist));
}

void perf_evlist__delete(struct perf_evlist *evlist)
{
	struct perf_evsel *pos, *next;

	if (!evlist)
		return;
	for (pos = evlist->first; pos; pos = next) {
		next = pos->next;
		perf_evsel__delete(pos);
	}
	perf_cpu_map__put(evlist->cpus);
	perf_thread_map__put(evlist->threads);
	free(evlist);
}

struct perf_evsel *perf_evlist__first(const struct perf_evlist *evlist)
{
	return evlist->first;
}

struct perf_evsel *perf_evlist__last(const struct perf_evlist *evlist)
{
	return evlist->last;
}

int perf_evlist__nr_entries(const struct perf_evlist *evlist)
{
	return evlist->nr;
}

struct perf_cpu_map *perf_evlist__cpus(const struct perf_evlist *evlist)
{
	return evlist->cpus;
}

struct perf_thread_map *perf_evlist__threads(const struct perf_evlist *evlist)
{
	return evlist->threads;
}

void perf_evlist__add(struct perf_evlist *evlist, struct perf_evsel *evsel)
{
	evsel->idx = evlist->nr++;
	evsel->next = NULL;
	if (evlist->last)
		evlist->last->next = evsel;
	else
		evlist->first = evsel;
	evlist->last = evsel;
}

/* The evlist takes ownership of both maps. */
void perf_evlist__set_maps(struct perf_evlist *evlist,
			   struct perf_cpu_map *cpus,
			   struct perf_thread_map *threads)
{
	if (evlist->cpus != cpus)
		perf_cpu_map__put(evlist->cpus);
	if (evlist->threads != threads)
		perf_thread_map__put(evlist->threads);
	evlist->cpus = cpus;
	evlist->threads = threads;
}

bool perf_evlist__exclude_kernel_on_eperm(struct perf_evlist *evlist,
					  int err)
{
	struct perf_evsel *pos;
	bool changed = false;

	if (err != -EACCES && err != -EPERM)
		return false;
	perf_evlist__for_each(evlist, pos) {
		/* A tracepoint is a kernel event: user-only changes nothing. */
		if (pos->attr.exclude_kernel ||
		    pos->attr.type == PERF_TYPE_TRACEPOINT)
			continue;
		pos->attr.exclude_kernel = 1;
		pos->attr.exclude_hv = 1;
		changed = true;
	}
	return changed;
}

int perf_evlist__set_workload(struct perf_evlist *evlist, pid_t pid)
{
	struct perf_thread_map *threads = perf_thread_map__new_tid(pid);

	if (!threads)
		return -ENOMEM;
	perf_evlist__set_maps(evlist, evlist->cpus, threads);
	return 0;
}

/*
 * Open every event.  With @skip_unsupported, an event the kernel or the
 * hardware does not have (ENOENT, EOPNOTSUPP, ENODEV, EINVAL on a raw
 * encoding) is left closed with its open_errno set and the others go on;
 * any other failure aborts.  Returns 0 or the first fatal -errno.
 */
int perf_evlist__open(struct perf_evlist *evlist, bool skip_unsupported)
{
	struct perf_evsel *pos;
	int err;

	perf_evlist__for_each(evlist, pos) {
		err = perf_evsel__open(pos, evlist->cpus, evlist->threads);
		if (!err)
			continue;
		if (skip_unsupported &&
		    (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV ||
		     err == -EINVAL))
			continue;
		perf_evlist__close(evlist);
		return err;
	}
	return 0;
}

void perf_evlist__close(struct perf_evlist *evlist)
{
	struct perf_evsel *pos;

	perf_evlist__for_each(evlist, pos)
		perf_evsel__close(pos);
}

static int evlist__ioctl(struct perf_evlist *evlist, unsigned long request)
{
	struct perf_evsel *pos;
	int err;

	perf_evlist__for_each(evlist, pos) {
		err = perf_evsel__ioctl(pos, request, 0);
		if (err)
			return err;
	}
	return 0;
}

int perf_evlist__enable(struct perf_evlist *evlist)
{
	return evlist__ioctl(evlist, PERF_COUNTER_IOC_ENABLE);
}

int perf_evlist__disable(struct perf_evlist *evlist)
{
	return evlist__ioctl(evlist, PERF_COUNTER_IOC_DISABLE);
}

int perf_evlist__read(struct perf_evlist *evlist)
{
	struct perf_evsel *pos;
	int err;

	perf_evlist__for_each(evlist, pos) {
		err = perf_evsel__read_all(pos);
		if (err)
			return err;
	}
	return 0;
}
