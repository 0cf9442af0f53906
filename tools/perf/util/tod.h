/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_TOD_H
#define __PERF_UTIL_TOD_H

/*
 * Time of day for event timestamps.
 *
 * A recording made with a chosen clock (attr.use_clockid, perf record
 * -k) or with --tod stores one reference pair in the CLOCK_DATA
 * feature: the same instant read on CLOCK_REALTIME and on the event
 * clock.  That is what Linux perf reads, and all it has: one pair at
 * the start, so a long recording drifts away from the time of day when
 * NTP slews the clock, and jumps when the clock is set.
 *
 * perf record --tod also writes correlation points into the data, one
 * a second and one at once when the time of day was set (struct
 * perf_record_tod_point, event.h).  A reader maps an event time t with
 * the last point p at or before it and the rate of the interval that
 * ended at p:
 *
 *	tod(t) = p.tod + (t - p.clock) * rate
 *
 * Only points before t are used, so live readers and pipes, which do
 * not have the next point yet, print what a file reader prints.  Under
 * a constant slew the rate is exact; when the slew changes, the error
 * is the change times one interval.  A point that follows a setting of
 * the clock (TOD_POINT_STEP) starts over with rate 1.
 */
#include <stdbool.h>
#include <stddef.h>
#include <perf/types.h>

struct perf_header_info;
union perf_event;

/* The time of day was set just before this point: no rate across it. */
#define TOD_POINT_STEP 1U

struct tod_point {
	u64 clock_ns;		/* the event clock */
	u64 tod_ns;		/* CLOCK_REALTIME at the same instant */
	u64 bracket_ns;		/* how long the reading took */
	u32 flags;		/* TOD_POINT_* */
};

/* What a reader maps event times with. */
struct tod {
	bool valid;		/* there is a reference */
	bool start_only;	/* ignore the points, as Linux perf does */
	u64 tod_ns;		/* CLOCK_DATA: CLOCK_REALTIME at the reference */
	u64 clock_ns;		/* CLOCK_DATA: the event clock at the same instant */
	struct tod_point *points;	/* in clock order */
	u32 nr_points;
	u32 alloc;
	u32 hint;		/* the point the last lookup found */
};

/* A clock name as perf record -k takes it, or a number; -1 if unknown. */
int tod_parse_clockid(const char *name);

/* Read @clockid and CLOCK_REALTIME at one instant; 0 or -errno. */
int tod_take_point(int clockid, struct tod_point *p);

/*
 * The CLOCKID and CLOCK_DATA features of a recording whose events are
 * stamped by @clockid, from the point @p.
 */
void tod_set_header(struct perf_header_info *info, int clockid,
		    const struct tod_point *p);

/* The reference stored in a file's header, if it has one. */
void tod_from_header(const struct perf_header_info *info, struct tod *tod);

/* Free the points of @tod. */
void tod_exit(struct tod *tod);

/* Add a point read from the data; 0 or -ENOMEM. */
int tod_add_point(struct tod *tod, const struct tod_point *p);

/* @time of the event clock as nanoseconds since the epoch. */
u64 tod_of(struct tod *tod, u64 time);

/* "HH:MM:SS.uuuuuu" in local time, of nanoseconds since the epoch. */
void tod_format(u64 epoch_ns, char *buf, size_t size);

/* ---- readers: --tod, --tod=start, --no-tod ---- */

enum tod_show {
	TOD_SHOW_AUTO,		/* when the file was recorded with --tod */
	TOD_SHOW_ON,		/* --tod */
	TOD_SHOW_OFF,		/* --no-tod: the event clock */
};

struct tod_choice {
	enum tod_show show;
	bool start_only;	/* --tod=start: CLOCK_DATA alone */
};

struct option;

/* The callback of a reader's --tod[=start] option (value: tod_choice). */
int tod_option(const struct option *opt, const char *arg, int unset);

#define TOD_OPTION_HELP \
	"time of day for event times (default for files recorded with --tod; =start: the start reference alone)"

/*
 * Whether a reader of @name shows the time of day, from @choice and
 * what the file has (@tod, which it sets up for --tod=start): 1, 0, or
 * -EINVAL after saying on stderr, for @cmd, that there is no reference.
 */
int tod_show(const struct tod_choice *choice, struct tod *tod,
	     const char *cmd, const char *name);

/* ---- the correlation point record ---- */

/* Fill @rec (sizeof(struct perf_record_tod_point) bytes) from @p. */
void tod_point_record(const struct tod_point *p, int clockid, void *rec);

/*
 * The point of a record of type PERF_RECORD_HEADER_EVENT_TYPE: 0, or
 * -EINVAL when the record is not one (an obsolete event type record,
 * or a damaged one).
 */
int tod_point_parse(const union perf_event *ev, struct tod_point *p);

/* ---- taking points while recording ---- */

/*
 * Points are taken this often, and the clocks compared at most every
 * TOD_CHECK_NS (which bounds how late a setting of the clock is seen).
 */
#define TOD_INTERVAL_NS 1000000000ULL
#define TOD_CHECK_NS 100000000ULL

struct tod_tracker {
	int clockid;		/* the event clock */
	bool have;		/* last is set */
	u64 next_check;		/* CLOCK_MONOTONIC of the next comparison */
	struct tod_point last;
	struct tod_point *kept;	/* the newest points, a ring */
	u32 keep;		/* its size */
	u32 nr_kept;
	u32 head;		/* where the next one goes */
};

/*
 * Track @clockid against the time of day; keep the newest @keep points
 * for writers that write them later (dumps of overwritable rings, the
 * sched daemon).  0 or -errno.
 */
int tod_tracker__init(struct tod_tracker *t, int clockid, u32 keep);
void tod_tracker__exit(struct tod_tracker *t);

/* Take a point now (and keep it); 0 or -errno. */
int tod_tracker__take(struct tod_tracker *t, struct tod_point *p);

/*
 * Called often (every 100 ms or so): 1 with a new point in @p when one
 * is due, an interval after the last or at once when the time of day
 * was set since (flagged TOD_POINT_STEP); 0 when none is; -errno.
 */
int tod_tracker__poll(struct tod_tracker *t, struct tod_point *p);

/* The kept points, oldest first: @i from 0 to t->nr_kept - 1. */
const struct tod_point *tod_tracker__kept(const struct tod_tracker *t,
					  u32 i);

#endif /* __PERF_UTIL_TOD_H */
