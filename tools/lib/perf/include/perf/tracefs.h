/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_TRACEFS_H
#define __PERF_TRACEFS_H

#include <stddef.h>

/*
 * Where tracefs is mounted: /sys/kernel/tracing, else the debugfs path.
 * When neither has events and we may mount, tracefs is mounted on the
 * first.  NULL when no tracefs can be had (errno says why).
 */
const char *tracefs_path(void);

/* Path of a file below the tracefs mount, or -errno. */
int tracefs_file(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The id of tracepoint subsys:name, or -ENOENT / -errno. */
int tracefs_event_id(const char *subsys, const char *name);

/*
 * Call @cb for every tracepoint whose "subsys:name" matches the fnmatch
 * pattern @glob (NULL: all), in sorted order.  Stops on a non-zero return
 * and passes it on.
 */
int tracefs_walk_events(const char *glob,
			   int (*cb)(const char *subsys, const char *name,
				     void *data),
			   void *data);

#endif /* __PERF_TRACEFS_H */
