/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SWITCH_OUTPUT_H
#define __PERF_UTIL_SWITCH_OUTPUT_H

/*
 * When a recording closes its file and starts the next one
 * (--switch-output), and what the closed files are called: NAME is
 * renamed to NAME.<YYYYMMDDHHMMSScc>, the local time of the switch to
 * the hundredth of a second, as Linux perf names them.  With a limit
 * (--switch-max-files) only the newest files are kept.
 */
#include <perf/types.h>
#include "parse-options.h"

enum switch_output_trigger {
	SWITCH_OUTPUT_NONE,
	SWITCH_OUTPUT_SIGNAL,		/* SIGUSR2 */
	SWITCH_OUTPUT_SIZE,		/* bytes of records written */
	SWITCH_OUTPUT_TIME,		/* a period elapsed */
};

struct switch_output {
	enum switch_output_trigger trigger;
	u64 size;			/* SIZE: bytes */
	u64 period_ns;			/* TIME */
	u64 deadline_ns;		/* TIME: on CLOCK_MONOTONIC */
	bool timestamp;			/* rename to NAME.<timestamp> */
	unsigned int max_files;		/* 0: keep them all */
	char **kept;			/* the newest files, a ring */
	unsigned int nr_kept;
	unsigned int next;		/* the oldest once the ring is full */
};

/*
 * "signal" (also for NULL, the option without a value), a size with a
 * unit B, K, M or G ("100K", "1G"), or a time with a unit ms, s, m, h
 * or d ("100ms", "2s", "1h").  0 or -EINVAL.
 */
int switch_output__parse(struct switch_output *so, const char *arg);

/* parse-options callback for --switch-output[=...]; opt->value is so. */
int switch_output__option(const struct option *opt, const char *arg,
			  int unset);

/* Start the TIME period from now. */
void switch_output__arm(struct switch_output *so);

/* How long to wait at most (ms) so a TIME switch is not late. */
int switch_output__timeout(const struct switch_output *so, int max_ms);

/*
 * Whether to switch now: @signalled (SIGUSR2 came), @bytes written to
 * the current file, or the period is over (which re-arms it).
 */
bool switch_output__due(struct switch_output *so, bool signalled, u64 bytes);

/* "YYYYMMDDHHMMSScc" of the local time now; 0 or -errno. */
int switch_output__timestamp(char *buf, size_t len);

/*
 * Rename the finished @path to @path.<timestamp> (a name not taken
 * yet), put the new name in @name, and with max_files remove the oldest
 * of those renamed before beyond the limit.  0 or -errno.
 */
int switch_output__rotate(struct switch_output *so, const char *path,
			  char *name, size_t len);

void switch_output__exit(struct switch_output *so);

#endif /* __PERF_UTIL_SWITCH_OUTPUT_H */
