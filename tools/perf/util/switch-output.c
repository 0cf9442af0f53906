// SPDX-License-Identifier: GPL-2.0
/*
 * --switch-output: when to start a new perf.data, what to call the old
 * one, and how many of them to keep.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "switch-output.h"

struct unit {
	const char *name;
	u64 mult;
};

/* Sizes take upper case units, so that "1m" is a minute and "1M" a MiB. */
static const struct unit size_units[] = {
	{ "B", 1 }, { "K", 1ULL << 10 }, { "M", 1ULL << 20 },
	{ "G", 1ULL << 30 },
};

static const struct unit time_units[] = {
	{ "ms", 1000000ULL }, { "s", 1000000000ULL },
	{ "m", 60 * 1000000000ULL }, { "h", 3600 * 1000000000ULL },
	{ "d", 86400 * 1000000000ULL },
};

/* A positive number followed by one of @units; 0 when it is not. */
static u64 parse_value(const char *arg, const struct unit *units, int nr)
{
	unsigned long long v;
	char *end;
	int i;

	if (*arg < '0' || *arg > '9')
		return 0;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || !v)
		return 0;
	for (i = 0; i < nr; i++) {
		if (strcmp(end, units[i].name))
			continue;
		if (v > ~0ULL / units[i].mult)
			return 0;
		return v * units[i].mult;
	}
	return 0;
}

int switch_output__parse(struct switch_output *so, const char *arg)
{
	if (!arg || !strcmp(arg, "signal")) {
		so->trigger = SWITCH_OUTPUT_SIGNAL;
		return 0;
	}
	so->size = parse_value(arg, size_units, ARRAY_SIZE(size_units));
	if (so->size) {
		so->trigger = SWITCH_OUTPUT_SIZE;
		return 0;
	}
	so->period_ns = parse_value(arg, time_units, ARRAY_SIZE(time_units));
	if (so->period_ns) {
		so->trigger = SWITCH_OUTPUT_TIME;
		return 0;
	}
	return -EINVAL;
}

int switch_output__option(const struct option *opt, const char *arg,
			  int unset)
{
	struct switch_output *so = opt->value;

	if (unset) {
		so->trigger = SWITCH_OUTPUT_NONE;
		return 0;
	}
	if (!switch_output__parse(so, arg))
		return 0;
	fprintf(stderr, "--switch-output: '%s' is neither 'signal', a size (100K, 1M, 1G) nor a time (100ms, 2s, 1m, 1h)\n",
		arg);
	return -1;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void switch_output__arm(struct switch_output *so)
{
	so->deadline_ns = now_ns() + so->period_ns;
}

int switch_output__timeout(const struct switch_output *so, int max_ms)
{
	u64 now;

	if (so->trigger != SWITCH_OUTPUT_TIME)
		return max_ms;
	now = now_ns();
	if (now >= so->deadline_ns)
		return 0;
	/* Round up: waking a little early would only wait again. */
	if ((so->deadline_ns - now + 999999) / 1000000 < (u64)max_ms)
		return (so->deadline_ns - now + 999999) / 1000000;
	return max_ms;
}

bool switch_output__due(struct switch_output *so, bool signalled, u64 bytes)
{
	switch (so->trigger) {
	case SWITCH_OUTPUT_SIGNAL:
		return signalled;
	case SWITCH_OUTPUT_SIZE:
		return bytes >= so->size;
	case SWITCH_OUTPUT_TIME:
		if (now_ns() < so->deadline_ns)
			return false;
		switch_output__arm(so);
		return true;
	default:
		return false;
	}
}

int switch_output__timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char date[32];

	if (clock_gettime(CLOCK_REALTIME, &ts) || !localtime_r(&ts.tv_sec, &tm))
		return -errno;
	if (!strftime(date, sizeof(date), "%Y%m%d%H%M%S", &tm))
		return -EINVAL;
	if (snprintf(buf, len, "%s%02ld", date, ts.tv_nsec / 10000000) >=
	    (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * PATH.<timestamp> that does not exist yet: two switches within the same
 * hundredth of a second must not overwrite one another, so the second
 * waits for the next hundredth.
 */
static int new_name(const char *path, char *name, size_t len)
{
	char ts[32];
	struct stat st;
	int tries, err;

	for (tries = 0; tries < 100; tries++) {
		err = switch_output__timestamp(ts, sizeof(ts));
		if (err)
			return err;
		if (snprintf(name, len, "%s.%s", path, ts) >= (int)len)
			return -ENAMETOOLONG;
		if (lstat(name, &st) && errno == ENOENT)
			return 0;
		usleep(10000);
	}
	return -EEXIST;
}

/* Remember @name; beyond max_files the oldest file goes. */
static int keep(struct switch_output *so, const char *name)
{
	char *copy;

	if (!so->max_files)
		return 0;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	if (!so->kept) {
		so->kept = calloc(so->max_files, sizeof(*so->kept));
		if (!so->kept) {
			free(copy);
			return -ENOMEM;
		}
	}
	if (so->nr_kept == so->max_files) {
		if (unlink(so->kept[so->next]) && errno != ENOENT)
			fprintf(stderr, "perf record: cannot remove '%s': %s\n",
				so->kept[so->next], strerror(errno));
		free(so->kept[so->next]);
	} else {
		so->nr_kept++;
	}
	so->kept[so->next] = copy;
	so->next = (so->next + 1) % so->max_files;
	return 0;
}

int switch_output__rotate(struct switch_output *so, const char *path,
			  char *name, size_t len)
{
	int err = new_name(path, name, len);

	if (err)
		return err;
	if (rename(path, name))
		return -errno;
	return keep(so, name);
}

void switch_output__exit(struct switch_output *so)
{
	unsigned int i;

	for (i = 0; i < so->nr_kept; i++)
		free(so->kept[i]);
	free(so->kept);
	so->kept = NULL;
	so->nr_kept = 0;
}
