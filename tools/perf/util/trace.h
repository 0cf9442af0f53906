/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_TRACE_H
#define __PERF_UTIL_TRACE_H

/*
 * perf trace: syscalls from raw_syscalls:sys_enter/sys_exit samples, one
 * line per call (time, duration, comm/tid, name(args) = ret), and a
 * summary per thread.  Live tracing and replay read the same perf.data
 * stream through trace__run(), so both print the same lines.
 *
 * A task's syscall table (64- or 32-bit) follows from its executable:
 * the ELF class of the first executable file it maps after exec (a
 * MMAP2 record; with --symfs, that file under the symfs), inherited
 * at fork.  Live, a task with no such record is looked up in /proc.
 */
#include <stdbool.h>
#include <stdio.h>
#include <perf/types.h>
#include "tod.h"

struct perf_session;

enum trace_time {
	TRACE_TIME_RELATIVE,	/* ms since the first event */
	TRACE_TIME_PERF,	/* -T: ms of the event clock */
	TRACE_TIME_TOD,		/* -TT: HH:MM:SS.uuuuuu */
};

struct trace_opts {
	bool lines;		/* a line per syscall (not -s) */
	bool summary;		/* -s, -S */
	enum trace_time time;
	double duration_ms;	/* --duration: longer calls only */
	bool failure;		/* --failure: failed calls only */
	/*
	 * -e: syscall names or globs, !name excludes; and tracepoints
	 * (GROUP:NAME, probes too), printed as events beside the calls.
	 */
	const char *syscalls;
	const char *pids;	/* --pid: these processes only */
	const char *comms;	/* --comm: these commands only */
	bool live;		/* tasks may be looked up in /proc */
	struct tod_choice tod;	/* -TT: on; --tod=start: the start alone */
};

/*
 * Check what @o names (syscalls of -e exist in a table, pids are
 * numbers); NULL when fine, else a message.
 */
const char *trace_opts__check(const struct trace_opts *o);

/* -e's item @item names a tracepoint (GROUP:NAME), not a syscall. */
bool trace__is_event(const char *item);
/*
 * Calls @fn with each tracepoint that -e names (@list: the -e string),
 * to have them recorded; stops on non-zero.
 */
typedef int (*trace_event_fn)(const char *event, void *arg);
int trace__walk_events(const char *list, trace_event_fn fn, void *arg);

/*
 * Read the records of @s in time order and print to @out.  Returns 0,
 * or 1 after printing why to stderr (a file without raw_syscalls
 * events, or a read error).
 */
int trace__run(const struct trace_opts *o, struct perf_session *s,
	       FILE *out);

#endif /* __PERF_UTIL_TRACE_H */
