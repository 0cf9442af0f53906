// SPDX-License-Identifier: GPL-2.0
/*
 * Events: open one counter per (cpu, thread), read and control them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <perf/backend.h>
#include <perf/evsel.h>
#include "internal.h"

struct perf_evsel *perf_evsel__new(const struct perf_counter_attr *attr,
				   const char *name)
{
	struct perf_evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->name = strdup(name ? name : "");
	evsel->leader = evsel;
	evsel->nr_members = 1;
	if (!evsel->name) {
		free(evsel);
		return NULL;
	}
	return evsel;
}

void perf_evsel__delete(struct perf_evsel *evsel)
{
	if (!evsel)
		return;
	perf_evsel__close(evsel);
	free(evsel->filter);
	free(evsel->name);
	free(evsel);
}

bool perf_evsel__is_open(const struct perf_evsel *evsel)
{
	return evsel->fd != NULL;
}

int perf_evsel__append_filter(struct perf_evsel *evsel, const char *filter)
{
	char *joined;

	if (!evsel->filter)
		joined = strdup(filter);
	else if (asprintf(&joined, "(%s) && (%s)", evsel->filter, filter) < 0)
		joined = NULL;
	if (!joined)
		return -ENOMEM;
	free(evsel->filter);
	evsel->filter = joined;
	return 0;
}

static int evsel__alloc_tables(struct perf_evsel *evsel, int ncpus,
			       int nthreads)
{
	size_t n = (size_t)ncpus * nthreads, i;

	free(evsel->counts);

	evsel->fd = malloc(n * sizeof(int));
	evsel->id = calloc(n, sizeof(u64));
	evsel->counts = calloc(n, sizeof(*evsel->counts));
	if (!evsel->fd || !evsel->id || !evsel->counts) {
		free(evsel->fd);
		free(evsel->id);
		free(evsel->counts);
		evsel->fd = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		evsel->fd[i] = -1;
	evsel->nr_cpus = ncpus;
	evsel->nr_threads = nthreads;
	return 0;
}

/*
 * Open the event on every (cpu, thread).  A member's counter joins the
 * leader's counter on the same (cpu, thread).  On failure everything this
 * call opened is closed again and -errno returned (also kept in
 * open_errno for the error message).
 */
int perf_evsel__open(struct perf_evsel *evsel, struct perf_cpu_map *cpus,
		     struct perf_thread_map *threads)
{
	struct perf_evsel *leader = evsel->leader;
	int c, t, err;

	evsel->open_errno = 0;
	evsel->filter_failed = false;
	err = evsel__alloc_tables(evsel, cpus->nr, threads->nr);
	if (err)
		return err;
	for (c = 0; c < cpus->nr; c++) {
		for (t = 0; t < threads->nr; t++) {
			int group_fd = -1, fd;

			if (leader != evsel) {
				if (!leader->fd)
					goto fail_errno_einval;
				group_fd = PERF_EVSEL_FD(leader, c, t);
			}
			fd = perf_sys_open(&evsel->attr, threads->tid[t],
					   cpus->cpu[c], group_fd,
					   PERF_FLAG_FD_CLOEXEC);
			if (fd < 0)
				goto fail;
			PERF_EVSEL_FD(evsel, c, t) = fd;
			if (evsel->filter &&
			    ioctl(fd, PERF_COUNTER_IOC_SET_FILTER, evsel->filter)) {
				evsel->filter_failed = true;
				goto fail;
			}
			if (ioctl(fd, PERF_COUNTER_IOC_ID,
				  &evsel->id[c * threads->nr + t]) < 0)
				evsel->id[c * threads->nr + t] = 0;
		}
	}
	return 0;
fail_errno_einval:
	errno = EINVAL;
fail:
	err = errno;
	perf_evsel__close(evsel);
	evsel->open_errno = err;
	return -err;
}

void perf_evsel__close(struct perf_evsel *evsel)
{
	int i;

	if (!evsel->fd)
		return;
	for (i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++)
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
	free(evsel->fd);
	free(evsel->id);
	evsel->fd = NULL;
	evsel->id = NULL;
	/* Counts stay readable after close: they are the result. */
}

int perf_evsel__ioctl(struct perf_evsel *evsel, unsigned long request,
		      unsigned long arg)
{
	int i;

	if (!evsel->fd)
		return 0;
	for (i = 0; i < evsel->nr_cpus * evsel->nr_threads; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], request, arg) < 0)
			return -errno;
	return 0;
}

/* Read one counter with the evsel's own (non-group) read_format. */
int perf_evsel__read(struct perf_evsel *evsel, int cpu_idx, int thread_idx,
		     struct perf_counts_values *out)
{
	u64 buf[8];
	u64 fmt = evsel->attr.read_format & ~PERF_FORMAT_GROUP;
	size_t size = perf_read_format__size(fmt, 1);
	int fd = PERF_EVSEL_FD(evsel, cpu_idx, thread_idx);
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	n = read(fd, buf, size);
	if (n < 0)
		return -errno;
	if ((size_t)n != size)
		return -EIO;
	return perf_read_format__parse(buf, n, fmt, out, 1) == 1 ? 0 : -EIO;
}

/* Refresh evsel->counts from the kernel; closed counters keep old values. */
int perf_evsel__read_all(struct perf_evsel *evsel)
{
	int c, t, err;

	if (!evsel->fd)
		return 0;
	for (c = 0; c < evsel->nr_cpus; c++) {
		for (t = 0; t < evsel->nr_threads; t++) {
			err = perf_evsel__read(evsel, c, t,
					       PERF_EVSEL_COUNTS(evsel, c, t));
			if (err)
				return err;
		}
	}
	return 0;
}

/* Sum over threads for one CPU index, or over everything when cpu_idx < 0. */
void perf_evsel__sum(struct perf_evsel *evsel, int cpu_idx,
		     struct perf_counts_values *sum)
{
	int c, t;

	memset(sum, 0, sizeof(*sum));
	if (!evsel->counts)
		return;
	for (c = 0; c < evsel->nr_cpus; c++) {
		if (cpu_idx >= 0 && c != cpu_idx)
			continue;
		for (t = 0; t < evsel->nr_threads; t++)
			perf_counts__add(sum, PERF_EVSEL_COUNTS(evsel, c, t));
	}
}
