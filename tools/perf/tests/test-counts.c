// SPDX-License-Identifier: GPL-2.0
/*
 * read() formats and count scaling, on constructed buffers.
 */
#include <errno.h>
#include <string.h>
#include <perf/counts.h>
#include <linux/perf_counter.h>
#include "tests.h"

#define ENA PERF_FORMAT_TOTAL_TIME_ENABLED
#define RUN PERF_FORMAT_TOTAL_TIME_RUNNING
#define ID PERF_FORMAT_ID
#define LOST PERF_FORMAT_LOST
#define GROUP PERF_FORMAT_GROUP

/*
 * Build the buffer the kernel would return for @fmt with @nr members
 * whose values are 100+i, ids 200+i, lost 300+i, enabled 5000 and
 * running 4000.  Returns its length in bytes.
 */
static size_t build_read_buf(u64 *buf, u64 fmt, int nr)
{
	size_t n = 0;
	int i;

	if (fmt & GROUP)
		buf[n++] = nr;
	else
		buf[n++] = 100;
	if (fmt & ENA)
		buf[n++] = 5000;
	if (fmt & RUN)
		buf[n++] = 4000;
	for (i = 0; i < ((fmt & GROUP) ? nr : 1); i++) {
		if (fmt & GROUP)
			buf[n++] = 100 + i;
		if (fmt & ID)
			buf[n++] = 200 + i;
		if (fmt & LOST)
			buf[n++] = 300 + i;
	}
	return n * sizeof(u64);
}

static int check_format(struct test_ctx *ctx, u64 fmt, int nr)
{
	struct perf_counts_values v[4];
	u64 buf[32];
	size_t len = build_read_buf(buf, fmt, nr);
	int got, i, expect_nr = (fmt & GROUP) ? nr : 1;

	TEST_ASSERT(ctx, len == perf_read_format__size(fmt, nr),
		    "size for format %#llx: %zu vs %zu", (unsigned long long)fmt,
		    len, perf_read_format__size(fmt, nr));
	got = perf_read_format__parse(buf, len, fmt, v, 4);
	TEST_ASSERT(ctx, got == expect_nr, "format %#llx parsed %d values",
		    (unsigned long long)fmt, got);
	for (i = 0; i < got; i++) {
		TEST_ASSERT(ctx, v[i].val == (u64)(100 + i), "value %d", i);
		TEST_ASSERT(ctx, v[i].ena == ((fmt & ENA) ? 5000 : 0), "ena");
		TEST_ASSERT(ctx, v[i].run == ((fmt & RUN) ? 4000 : 0), "run");
		TEST_ASSERT(ctx, v[i].id == ((fmt & ID) ? (u64)(200 + i) : 0),
			    "id of %d with format %#llx", i,
			    (unsigned long long)fmt);
		TEST_ASSERT(ctx, v[i].lost == ((fmt & LOST) ? (u64)(300 + i) : 0),
			    "lost");
	}
	/* One u64 short must be refused, never read past the end. */
	got = perf_read_format__parse(buf, len - sizeof(u64), fmt, v, 4);
	TEST_ASSERT(ctx, got == -EINVAL, "short buffer accepted (%d)", got);
	return TEST_OK;
}

int test__read_format(struct test_ctx *ctx)
{
	u64 fmt, buf[32];
	struct perf_counts_values v[2];
	int nr, ret;

	for (fmt = 0; fmt < 32; fmt++) {
		for (nr = 1; nr <= 3; nr++) {
			ret = check_format(ctx, fmt, nr);
			if (ret)
				return ret;
		}
	}
	/* A group larger than the caller's array is reported, not written. */
	ret = perf_read_format__parse(buf, build_read_buf(buf, GROUP | ID, 3),
				      GROUP | ID, v, 2);
	TEST_ASSERT(ctx, ret == -ENOSPC, "oversized group gave %d", ret);
	/* nr == 0 or an absurd nr is malformed. */
	buf[0] = 0;
	ret = perf_read_format__parse(buf, 8, GROUP, v, 2);
	TEST_ASSERT(ctx, ret == -EINVAL, "empty group gave %d", ret);
	buf[0] = 1000;
	ret = perf_read_format__parse(buf, 16, GROUP, v, 2);
	TEST_ASSERT(ctx, ret == -EINVAL, "huge group gave %d", ret);
	return TEST_OK;
}

static int scale(u64 val, u64 ena, u64 run, struct perf_scaled_count *out)
{
	struct perf_counts_values v = { .val = val, .ena = ena, .run = run };

	perf_counts__scale(&v, true, out);
	return 0;
}

int test__scaling(struct test_ctx *ctx)
{
	struct perf_scaled_count s;
	struct perf_counts_values v = { .val = 7 };

	scale(1000, 500, 500, &s);
	TEST_ASSERT(ctx, s.val == 1000 && !s.scaled && s.run_pct == 100.0 &&
		    s.state == PERF_COUNT_OK, "enabled == running changed the value");
	scale(1000, 800, 500, &s);
	TEST_ASSERT(ctx, s.val == 1600 && s.scaled, "scaled to %llu",
		    (unsigned long long)s.val);
	TEST_ASSERT(ctx, s.run_pct == 62.5, "ran %.2f%%", s.run_pct);
	scale(10, 3, 2, &s);
	TEST_ASSERT(ctx, s.val == 15, "rounding gave %llu",
		    (unsigned long long)s.val);
	scale(1, 3, 2, &s);
	TEST_ASSERT(ctx, s.val == 2, "1.5 rounds to 2, got %llu",
		    (unsigned long long)s.val);
	scale(1000, 800, 0, &s);
	TEST_ASSERT(ctx, s.state == PERF_COUNT_NOT_COUNTED && s.val == 0,
		    "running == 0 must be 'not counted'");
	scale(0, 0, 0, &s);
	TEST_ASSERT(ctx, s.state == PERF_COUNT_NOT_COUNTED,
		    "never enabled must be 'not counted'");
	/* val * ena does not fit in 64 bits; the result does. */
	scale(1ULL << 40, 1ULL << 40, 1ULL << 39, &s);
	TEST_ASSERT(ctx, s.val == 1ULL << 41, "overflow: %llu",
		    (unsigned long long)s.val);
	/* Without time fields the value is taken as is. */
	perf_counts__scale(&v, false, &s);
	TEST_ASSERT(ctx, s.val == 7 && s.state == PERF_COUNT_OK, "no times");
	return TEST_OK;
}
