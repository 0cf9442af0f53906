// SPDX-License-Identifier: GPL-2.0
/*
 * CLOCK_PERF: the posix clock that reads what records are stamped with.
 * A sample's time must lie between two clock_gettime(CLOCK_PERF) reads
 * around the event; the clock can be read and nothing else.  On a
 * kernel without perf_counter the id must be refused, not mistaken for
 * another clock.
 */

#include "counter_test.h"
#include "ring.h"

#include <signal.h>

static bool kernel_has_perf_counter(void)
{
	return access(COUNTER_PARANOID, F_OK) == 0;
}

static __u64 perf_clock_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PERF, &ts))
		return 0;
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Keep to one CPU: the clock is per CPU, comparable across CPUs only roughly. */
static bool pin_to_this_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu >= 0 && pin_to_cpu(cpu);
}

/* The time of the last sample in @r (PERF_SAMPLE_TIME alone); 0 if none. */
static __u64 last_sample_time(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	struct perf_counter_header h;
	__u64 pos = 0, rec[2], time = 0;

	while (pos < head) {
		ring_copy(r, pos, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size == sizeof(rec)) {
			ring_copy(r, pos, rec, sizeof(rec));
			time = rec[1];
		}
		pos += h.size;
	}
	return time;
}

TEST(sample_time_lies_between_clock_reads)
{
	__u64 before, after, stamp;
	struct ring r;
	int fd;

	if (!kernel_has_perf_counter())
		SKIP(return, "no CLOCK_PERF: this kernel has no perf_counter");
	ASSERT_TRUE(pin_to_this_cpu());
	fd = fault_sampler(PERF_SAMPLE_TIME, 0, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	before = perf_clock_ns();
	ASSERT_TRUE(touch_fresh_pages(1));
	after = perf_clock_ns();
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	stamp = last_sample_time(&r);
	ASSERT_NE(0, before);
	ASSERT_NE(0, stamp);
	EXPECT_LE(before, stamp);
	EXPECT_GE(after, stamp);
	ring_unmap(&r);
	close(fd);
}

/* It runs, at a resolution it states, and never backwards on one CPU. */
TEST(clock_perf_reads_forward)
{
	struct timespec res;
	__u64 last = 0, now;
	int i;

	if (!kernel_has_perf_counter())
		SKIP(return, "no CLOCK_PERF: this kernel has no perf_counter");
	ASSERT_TRUE(pin_to_this_cpu());
	ASSERT_EQ(0, clock_getres(CLOCK_PERF, &res));
	EXPECT_EQ(0, res.tv_sec);
	EXPECT_LT(0, res.tv_nsec);
	for (i = 0; i < 1000; i++) {
		now = perf_clock_ns();
		ASSERT_LE(last, now);
		last = now;
	}
	usleep(10 * 1000);
	EXPECT_LE(last + 10 * 1000 * 1000, perf_clock_ns());
}

/* Read-only: no settime, no timers, no sleeps on it. */
TEST(clock_perf_is_read_only)
{
	struct timespec ts = { 0, 1000 };
	struct sigevent ev = { .sigev_notify = SIGEV_NONE };
	timer_t timer;

	if (!kernel_has_perf_counter())
		SKIP(return, "no CLOCK_PERF: this kernel has no perf_counter");
	EXPECT_EQ(-1, clock_settime(CLOCK_PERF, &ts));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, timer_create(CLOCK_PERF, &ev, &timer));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(EOPNOTSUPP, clock_nanosleep(CLOCK_PERF, 0, &ts, NULL));
}

/* Elsewhere the id belongs to no clock: refused, not another clock. */
TEST(clock_perf_is_refused_without_perf_counter)
{
	struct timespec ts;

	if (kernel_has_perf_counter())
		SKIP(return, "this kernel has perf_counter and CLOCK_PERF");
	EXPECT_EQ(-1, clock_gettime(CLOCK_PERF, &ts));
	EXPECT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
