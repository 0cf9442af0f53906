// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat arithmetic and output lines, on constructed values.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <perf/parse-events.h>
#include "tests.h"
#include "../util/stat.h"

int test__stats(struct test_ctx *ctx)
{
	const double vals[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats s = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vals); i++)
		stats__update(&s, vals[i]);
	TEST_ASSERT(ctx, stats__mean(&s) == 5.0, "mean %f", stats__mean(&s));
	/* sample variance 32/7; standard error sqrt(32/7/8) */
	TEST_ASSERT(ctx, fabs(stats__stddev_of_mean(&s) - sqrt(32.0 / 56)) < 1e-12,
		    "stddev of mean %f", stats__stddev_of_mean(&s));
	TEST_ASSERT(ctx, fabs(stats__rel_stddev_pct(&s) -
			      100 * sqrt(32.0 / 56) / 5) < 1e-9, "relative");
	return TEST_OK;
}

static void print_line(struct perf_evsel *e, u64 val, u64 ena, u64 run,
		       const char *sep, char *buf, size_t size)
{
	struct perf_counts_values c = { .val = val, .ena = ena, .run = run };
	struct stat_value v = { .evsel = e, .cpu = -1, .supported = true };
	struct stat_output o = { .csv_sep = sep, .run_count = 1 };
	struct stat_metric m;

	o.out = fmemopen(buf, size, "w");
	perf_counts__scale(&c, true, &v.count);
	v.mean = v.count.val;
	v.run_ns = run;
	stat__metric(&v, &v, 1, 2e6, &m);
	stat__print_value(&o, &v, &m);
	fclose(o.out);
}

int test__stat_output(struct test_ctx *ctx)
{
	struct perf_counter_attr attr = { .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK };
	struct perf_evsel *clock = perf_evsel__new(&attr, "task-clock");
	struct perf_evsel *cs;
	char buf[512];

	attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	cs = perf_evsel__new(&attr, "cs");
	print_line(clock, 1000000, 2000000, 2000000, NULL, buf, sizeof(buf));
	pr_test(ctx, "%s", buf);
	TEST_ASSERT(ctx, strstr(buf, "              1.00 msec task-clock") &&
		    strstr(buf, "#    0.500 CPUs utilized") &&
		    !strstr(buf, "%)"), "clock line: '%s'", buf);
	/* Multiplexed: ran 5 of 8 units, scaled by 8/5, shows 62.50%. */
	print_line(cs, 500, 8000, 5000, NULL, buf, sizeof(buf));
	pr_test(ctx, "%s", buf);
	TEST_ASSERT(ctx, strstr(buf, "               800      cs") &&
		    strstr(buf, "(62.50%)"), "multiplexed line: '%s'", buf);
	print_line(cs, 500, 8000, 0, NULL, buf, sizeof(buf));
	TEST_ASSERT(ctx, strstr(buf, "<not counted>      cs"), "'%s'", buf);
	print_line(cs, 500, 8000, 5000, ",", buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf, "800,,cs,5000,62.50,,\n"), "CSV: '%s'",
		    buf);
	print_line(clock, 1000000, 2000000, 2000000, ";", buf, sizeof(buf));
	TEST_ASSERT(ctx, !strcmp(buf,
		    "1.00;msec;task-clock;2000000;100.00;0.500;CPUs utilized\n"),
		    "CSV: '%s'", buf);
	perf_evsel__delete(clock);
	perf_evsel__delete(cs);
	return TEST_OK;
}
