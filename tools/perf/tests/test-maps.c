// SPDX-License-Identifier: GPL-2.0
/*
 * CPU and thread maps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/cpumap.h>
#include <perf/threadmap.h>
#include "tests.h"

static int check_list(struct test_ctx *ctx, const char *list,
		      const int *expect, int nr)
{
	struct perf_cpu_map *map = perf_cpu_map__parse(list);
	int i;

	TEST_ASSERT(ctx, map, "'%s' was refused", list);
	TEST_ASSERT(ctx, perf_cpu_map__nr(map) == nr,
		    "'%s' has %d CPUs, not %d", list, perf_cpu_map__nr(map), nr);
	for (i = 0; i < nr; i++) {
		TEST_ASSERT(ctx, perf_cpu_map__cpu(map, i) == expect[i],
			    "'%s'[%d] = %d", list, i, perf_cpu_map__cpu(map, i));
		TEST_ASSERT(ctx, perf_cpu_map__has(map, expect[i]),
			    "'%s' does not have %d", list, expect[i]);
	}
	TEST_ASSERT(ctx, !perf_cpu_map__has(map, expect[nr - 1] + 1),
		    "'%s' has %d", list, expect[nr - 1] + 1);
	TEST_ASSERT(ctx, perf_cpu_map__max(map) == expect[nr - 1],
		    "'%s': highest %d", list, perf_cpu_map__max(map));
	perf_cpu_map__put(map);
	return TEST_OK;
}

int test__cpumap(struct test_ctx *ctx)
{
	static const int a[] = { 0, 2, 3 }, b[] = { 1, 3 }, c[] = { 5 };
	const char *bad[] = { "", "x", "2-1", "1,,2", "1-", "-1", "99999",
			      "1;2" };
	struct perf_cpu_map *map;
	char buf[64];
	FILE *f;
	size_t i;

	if (check_list(ctx, "0,2-3", a, 3) || check_list(ctx, "3,1,1,3", b, 2) ||
	    check_list(ctx, "5", c, 1))
		return TEST_FAIL;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		map = perf_cpu_map__parse(bad[i]);
		TEST_ASSERT(ctx, !map && errno == EINVAL, "'%s' was accepted",
			    bad[i]);
	}
	map = perf_cpu_map__parse("0-2,4,6-7");
	f = fmemopen(buf, sizeof(buf), "w");
	perf_cpu_map__fprintf(map, f);
	fclose(f);
	TEST_ASSERT(ctx, !strcmp(buf, "0-2,4,6-7"), "printed as '%s'", buf);
	perf_cpu_map__put(map);
	map = perf_cpu_map__new_online();
	TEST_ASSERT(ctx, map && perf_cpu_map__nr(map) == sysconf(_SC_NPROCESSORS_ONLN),
		    "online map has %d CPUs", map ? perf_cpu_map__nr(map) : -1);
	perf_cpu_map__put(map);
	return TEST_OK;
}

int test__threadmap(struct test_ctx *ctx)
{
	struct perf_thread_map *map;
	char list[64];

	map = perf_thread_map__new_pid(getpid());
	TEST_ASSERT(ctx, map && perf_thread_map__nr(map) == 1 &&
		    perf_thread_map__pid(map, 0) == getpid(),
		    "our own process should be one thread");
	perf_thread_map__put(map);
	snprintf(list, sizeof(list), "%d,%d", getpid(), getppid());
	map = perf_thread_map__parse_tids(list);
	TEST_ASSERT(ctx, map && perf_thread_map__nr(map) == 2 &&
		    perf_thread_map__pid(map, 1) == getppid(),
		    "tid list");
	perf_thread_map__put(map);
	map = perf_thread_map__parse_pids("999999999");
	TEST_ASSERT(ctx, !map && errno == ESRCH, "missing pid accepted");
	map = perf_thread_map__parse_pids("12x");
	TEST_ASSERT(ctx, !map && errno == EINVAL, "malformed pid accepted");
	return TEST_OK;
}
