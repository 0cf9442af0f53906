/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_TOD_H
#define __PERF_UTIL_TOD_H

/*
 * Time of day for event timestamps.  A recording made with a chosen
 * clock (attr.use_clockid, perf record -k) stores one reference pair in
 * the CLOCK_DATA feature: the same instant read on CLOCK_REALTIME and
 * on that clock.  Event times then map to the time of day by offset.
 */
#include <stdbool.h>
#include <stddef.h>
#include <perf/types.h>

struct perf_header_info;

struct tod {
	bool valid;
	u64 tod_ns;		/* CLOCK_REALTIME at the reference */
	u64 clock_ns;		/* the event clock at the same instant */
};

/* A clock name as perf record -k takes it, or a number; -1 if unknown. */
int tod_parse_clockid(const char *name);

/* Take a reference pair for @clockid now; 0 or -errno. */
int tod_take_reference(int clockid, struct tod *tod);

/*
 * The CLOCKID and CLOCK_DATA features of a recording whose events are
 * stamped by @clockid, with a reference taken now; 0 or -errno.
 */
int tod_set_header(struct perf_header_info *info, int clockid);

/* The reference stored in a file's header, if it has one. */
void tod_from_header(const struct perf_header_info *info, struct tod *tod);

/* @time of the event clock as nanoseconds since the epoch. */
u64 tod_of(const struct tod *tod, u64 time);

/* "HH:MM:SS.uuuuuu" in local time, of nanoseconds since the epoch. */
void tod_format(u64 epoch_ns, char *buf, size_t size);

#endif /* __PERF_UTIL_TOD_H */
