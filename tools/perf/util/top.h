/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_TOP_H
#define __PERF_UTIL_TOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "data.h"
#include "report.h"

/*
 * perf top: our own perf record runs as a child and streams its pipe
 * format to us; a reader thread feeds the records to a report's
 * histograms while the main thread redraws them every few seconds and
 * takes keys.  The histograms are shared under @lock.
 */
struct top {
	/* options */
	struct report r;		/* sort keys, -n, --percent-limit */
	unsigned int delay_secs;	/* -d: between refreshes */
	unsigned int entries;		/* -E; 0: as many as fit */
	bool zero;			/* -z: start afresh each refresh */
	bool hide_kernel;		/* -K */
	bool hide_user;			/* -U */
	const char *target_desc;	/* "all, 2 CPUs", "target_pid: 12" */
	FILE *out;

	/* the recorder and the reader */
	pid_t recorder;
	int fd;				/* its pipe's read end */
	struct perf_session session;
	bool session_open;
	pthread_t reader;
	bool reader_started;
	int reader_err;
	int wake[2];			/* the reader says it is done */

	/* shared with the reader, under lock */
	pthread_mutex_t lock;
	bool reader_done;
	u64 interval_samples;
	u64 interval_kernel;
	u64 interval_exact;
	u64 lost_shown;			/* lost records at the last refresh */
	unsigned int refreshes;
};

/*
 * Run @record_argv (a NULL ended "perf record -o - ..." vector) and show
 * its profile until 'q', SIGINT or the recording's end.  Returns the
 * exit status for perf top.
 */
int top__run(struct top *t, char * const *record_argv);

#endif /* __PERF_UTIL_TOP_H */
