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
#include "header.h"
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
int tod_take_reference(int clockid, struct tod *tod)
{
	struct timespec a, r, b;
	u64 best = ~0ULL;
	int i;

	for (i = 0; i < 5; i++) {
		if (clock_gettime(clockid, &a) || clock_gettime(CLOCK_REALTIME, &r) ||
		    clock_gettime(clockid, &b))
			return -errno;
		if (ts_ns(&b) - ts_ns(&a) >= best)
			continue;
		best = ts_ns(&b) - ts_ns(&a);
		tod->tod_ns = ts_ns(&r);
		tod->clock_ns = ts_ns(&a) + best / 2;
	}
	tod->valid = true;
	return 0;
}

int tod_set_header(struct perf_header_info *info, int clockid)
{
	struct timespec res = { 0 };
	struct tod tod;
	int err = tod_take_reference(clockid, &tod);

	if (err)
		return err;
	clock_getres(clockid, &res);
	perf_header_info__set_clock(info, clockid, ts_ns(&res), tod.tod_ns,
				    tod.clock_ns);
	return 0;
}

void tod_from_header(const struct perf_header_info *info, struct tod *tod)
{
	memset(tod, 0, sizeof(*tod));
	if (!perf_feat_test(info->features, HEADER_CLOCK_DATA) ||
	    !info->clock_tod_ns)
		return;
	tod->valid = true;
	tod->tod_ns = info->clock_tod_ns;
	tod->clock_ns = info->clock_clockid_ns;
}

u64 tod_of(const struct tod *tod, u64 time)
{
	return tod->tod_ns + (s64)(time - tod->clock_ns);
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
