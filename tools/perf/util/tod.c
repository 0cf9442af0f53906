// SPDX-License-Identifier: GPL-2.0
/*
 * Time of day for event timestamps; see tod.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "array.h"
#include "event.h"
#include "header.h"
#include "parse-options.h"
#include "tod.h"

static const struct {
	const char *name;
	int id;
} clock_names[] = {
	{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
	{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
	{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
	{ "tai", CLOCK_TAI },
};

int tod_parse_clockid(const char *name)
{
	size_t i;
	char *end;
	long v;

	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (i = 0; i < ARRAY_SIZE(clock_names); i++)
		if (!strcasecmp(name, clock_names[i].name))
			return clock_names[i].id;
	v = strtol(name, &end, 0);
	return *name && !*end && v >= 0 && v < 64 ? (int)v : -1;
}

static u64 ts_ns(const struct timespec *ts)
{
	return (u64)ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

/*
 * CLOCK_REALTIME read between two reads of the event clock: of a few
 * tries the one with the shortest bracket, its midpoint the reference.
 */
int tod_take_point(int clockid, struct tod_point *p)
{
	struct timespec a, r, b;
	u64 best = ~0ULL;
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < 5; i++) {
		if (clock_gettime(clockid, &a) || clock_gettime(CLOCK_REALTIME, &r) ||
		    clock_gettime(clockid, &b))
			return -errno;
		if (ts_ns(&b) - ts_ns(&a) >= best)
			continue;
		best = ts_ns(&b) - ts_ns(&a);
		p->tod_ns = ts_ns(&r);
		p->clock_ns = ts_ns(&a) + best / 2;
		p->bracket_ns = best;
	}
	return 0;
}

void tod_set_header(struct perf_header_info *info, int clockid,
		    const struct tod_point *p)
{
	struct timespec res = { 0 };

	clock_getres(clockid, &res);
	perf_header_info__set_clock(info, clockid, ts_ns(&res), p->tod_ns,
				    p->clock_ns);
}

void tod_from_header(const struct perf_header_info *info, struct tod *tod)
{
	if (!perf_feat_test(info->features, HEADER_CLOCK_DATA) ||
	    !info->clock_tod_ns)
		return;
	tod->valid = true;
	tod->tod_ns = info->clock_tod_ns;
	tod->clock_ns = info->clock_clockid_ns;
}

void tod_exit(struct tod *tod)
{
	free(tod->points);
	memset(tod, 0, sizeof(*tod));
}

/* Points come in clock order; one that does not is put in its place. */
int tod_add_point(struct tod *tod, const struct tod_point *p)
{
	u32 i;

	/* A dump repeats the point its file began with. */
	for (i = tod->nr_points; i-- > 0 && tod->points[i].clock_ns >= p->clock_ns;)
		if (tod->points[i].clock_ns == p->clock_ns)
			return 0;
	if (array_reserve_one((void **)&tod->points, &tod->alloc,
			      tod->nr_points, sizeof(*p)))
		return -ENOMEM;
	tod->valid = true;
	i = tod->nr_points++;
	while (i && tod->points[i - 1].clock_ns > p->clock_ns) {
		tod->points[i] = tod->points[i - 1];
		i--;
	}
	tod->points[i] = *p;
	return 0;
}

/* The last point at or before @time, or -1; most lookups hit the hint. */
static int find_point(struct tod *tod, u64 time)
{
	u32 lo = 0, hi = tod->nr_points, h = tod->hint;

	if (h < hi && tod->points[h].clock_ns <= time &&
	    (h + 1 == hi || tod->points[h + 1].clock_ns > time))
		return h;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (tod->points[mid].clock_ns <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	tod->hint = lo - 1;
	return lo - 1;
}

/*
 * The time of day that passed during @elapsed of the event clock after
 * point @i: @elapsed at the rate of the interval that ended at @i.  A
 * rate off by more than 1% is no slew (NTP slews by 0.05% at most) but
 * a setting of the clock that was not caught: it counts as 1.
 */
static s64 tod_elapsed(const struct tod *tod, u32 i, s64 elapsed)
{
	const struct tod_point *p = &tod->points[i], *prev;
	s64 dclock, dtod;

	if (!i || (p->flags & TOD_POINT_STEP))
		return elapsed;
	prev = p - 1;
	dclock = p->clock_ns - prev->clock_ns;
	dtod = p->tod_ns - prev->tod_ns;
	if (dclock <= 0 || dtod <= 0 || dtod - dclock > dclock / 100 ||
	    dclock - dtod > dclock / 100)
		return elapsed;
	return (__int128)elapsed * dtod / dclock;
}

u64 tod_of(struct tod *tod, u64 time)
{
	int i;

	if (tod->start_only || !tod->nr_points)
		return tod->tod_ns + (s64)(time - tod->clock_ns);
	i = find_point(tod, time);
	if (i < 0)	/* before the first point: its offset */
		return tod->points[0].tod_ns +
		       (s64)(time - tod->points[0].clock_ns);
	return tod->points[i].tod_ns +
	       tod_elapsed(tod, i, time - tod->points[i].clock_ns);
}

void tod_format(u64 epoch_ns, char *buf, size_t size)
{
	time_t sec = epoch_ns / 1000000000;
	struct tm tm;

	if (!localtime_r(&sec, &tm)) {
		snprintf(buf, size, "??:??:??.??????");
		return;
	}
	snprintf(buf, size, "%02d:%02d:%02d.%06llu", tm.tm_hour, tm.tm_min,
		 tm.tm_sec, (unsigned long long)(epoch_ns % 1000000000 / 1000));
}

/* ---- readers ---- */

int tod_option(const struct option *opt, const char *arg, int unset)
{
	struct tod_choice *c = opt->value;

	c->start_only = false;
	if (unset) {
		c->show = TOD_SHOW_OFF;
		return 0;
	}
	c->show = TOD_SHOW_ON;
	if (!arg)
		return 0;
	if (strcmp(arg, "start")) {
		fprintf(stderr, "--tod takes no value or 'start', not '%s'\n",
			arg);
		return -1;
	}
	c->start_only = true;
	return 0;
}

int tod_show(const struct tod_choice *choice, struct tod *tod,
	     const char *cmd, const char *name)
{
	tod->start_only = choice->start_only;
	switch (choice->show) {
	case TOD_SHOW_OFF:
		return 0;
	case TOD_SHOW_AUTO:
		return tod->nr_points > 0;
	default:
		break;
	}
	if (tod->valid && (tod->tod_ns || !choice->start_only))
		return 1;
	fprintf(stderr, "%s: %s has no time-of-day reference (CLOCK_DATA): record with --tod or -k/--clockid\n",
		cmd, name);
	return -EINVAL;
}

/* ---- the correlation point record ---- */

void tod_point_record(const struct tod_point *p, int clockid, void *rec)
{
	struct perf_record_tod_point *r = rec;

	memset(r, 0, sizeof(*r));
	r->header.type = PERF_RECORD_HEADER_EVENT_TYPE;
	r->header.size = sizeof(*r);
	r->magic = PERF_TOD_POINT_MAGIC;
	r->clock_ns = p->clock_ns;
	r->tod_ns = p->tod_ns;
	r->bracket_ns = p->bracket_ns;
	r->clockid = clockid;
	r->flags = p->flags;
}

int tod_point_parse(const union perf_event *ev, struct tod_point *p)
{
	const struct perf_record_tod_point *r = (const void *)ev;

	if (ev->header.type != PERF_RECORD_HEADER_EVENT_TYPE ||
	    ev->header.size < sizeof(*r) || r->magic != PERF_TOD_POINT_MAGIC)
		return -EINVAL;
	p->clock_ns = r->clock_ns;
	p->tod_ns = r->tod_ns;
	p->bracket_ns = r->bracket_ns;
	p->flags = r->flags;
	return 0;
}

/* ---- taking points while recording ---- */

int tod_tracker__init(struct tod_tracker *t, int clockid, u32 keep)
{
	memset(t, 0, sizeof(*t));
	t->clockid = clockid;
	if (!keep)
		return 0;
	t->kept = calloc(keep, sizeof(*t->kept));
	if (!t->kept)
		return -ENOMEM;
	t->keep = keep;
	return 0;
}

void tod_tracker__exit(struct tod_tracker *t)
{
	free(t->kept);
	memset(t, 0, sizeof(*t));
}

static void tracker_keep(struct tod_tracker *t, const struct tod_point *p)
{
	t->last = *p;
	t->have = true;
	if (!t->keep)
		return;
	t->kept[t->head] = *p;
	t->head = (t->head + 1) % t->keep;
	if (t->nr_kept < t->keep)
		t->nr_kept++;
}

int tod_tracker__take(struct tod_tracker *t, struct tod_point *p)
{
	int err = tod_take_point(t->clockid, p);

	if (!err)
		tracker_keep(t, p);
	return err;
}

/*
 * Was the time of day set between the last point and @p?  Slews move
 * it by 0.1% of the time passed at the very most; allow that, and 1 ms
 * for the readings themselves.
 */
static bool tod_was_set(const struct tod_point *last,
			const struct tod_point *p)
{
	s64 dclock = p->clock_ns - last->clock_ns;
	s64 off = (s64)(p->tod_ns - last->tod_ns) - dclock;
	s64 allowed = 1000000 + (dclock > 0 ? dclock : -dclock) / 1000;

	return off > allowed || -off > allowed;
}

/* Is a comparison due?  Cheap: CLOCK_MONOTONIC is read in the vDSO. */
static bool tracker_check_due(struct tod_tracker *t)
{
	struct timespec ts;
	u64 now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts_ns(&ts);
	if (now < t->next_check)
		return false;
	t->next_check = now + TOD_CHECK_NS;
	return true;
}

int tod_tracker__poll(struct tod_tracker *t, struct tod_point *p)
{
	int err;

	if (!t->have)
		return tod_tracker__take(t, p) ?: 1;
	if (!tracker_check_due(t))
		return 0;
	err = tod_take_point(t->clockid, p);
	if (err)
		return err;
	if (tod_was_set(&t->last, p))
		p->flags |= TOD_POINT_STEP;
	else if (p->clock_ns - t->last.clock_ns < TOD_INTERVAL_NS)
		return 0;
	tracker_keep(t, p);
	return 1;
}

const struct tod_point *tod_tracker__kept(const struct tod_tracker *t,
					  u32 i)
{
	u32 oldest = (t->head + t->keep - t->nr_kept) % t->keep;

	return &t->kept[(oldest + i) % t->keep];
}
