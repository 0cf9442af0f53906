/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_WORKLOAD_H
#define __PERF_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>
#include <sys/resource.h>

/*
 * A command run under perf: forked first and held before exec so that
 * counters can be attached to its pid, then released.
 */
struct workload {
	pid_t pid;
	int go_fd;	/* write end: releasing the child */
	int err_fd;	/* read end: the child's exec errno, or EOF */
	int status;	/* wait status once reaped */
	struct rusage rusage;	/* its resource use once reaped */
	int exec_errno;	/* why exec failed, 0 when it did not */
	bool reaped;
};

/*
 * The command's standard output is perf's standard error: where perf's
 * standard output carries data (perf record -o -).
 */
#define WORKLOAD_STDOUT_TO_STDERR	1U

int workload__prepare(struct workload *wl, const char **argv,
		      unsigned int flags);
int workload__start(struct workload *wl);
int workload__wait(struct workload *wl, bool *interrupted);
bool workload__poll(struct workload *wl);
int workload__exit_code(const struct workload *wl);
void workload__kill(struct workload *wl);

#endif /* __PERF_WORKLOAD_H */
