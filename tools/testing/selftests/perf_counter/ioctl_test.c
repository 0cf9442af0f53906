// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl()s on counter file descriptors: ENABLE, DISABLE, RESET (alone and
 * with PERF_IOC_FLAG_GROUP on a leader), ID, PERIOD and REFRESH.
 * Page-fault counters are used where a count must be known: touching a
 * fresh page is one fault, and nothing else in these tests faults.
 */

#include "counter_test.h"

#include <limits.h>

/* A page-fault leader and two members, all created disabled. */
#define GROUP_SIZE	3

static int open_disabled_group(int *fds)
{
	struct perf_counter_attr attr;
	int i;

	for (i = 0; i < GROUP_SIZE; i++) {
		counter_attr_init(&attr, PERF_TYPE_SOFTWARE,
				  i ? PERF_COUNT_SW_PAGE_FAULTS_MIN :
				      PERF_COUNT_SW_PAGE_FAULTS);
		attr.disabled = 1;
		fds[i] = counter_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

static void read_group(const int *fds, __u64 *values)
{
	int i;

	for (i = 0; i < GROUP_SIZE; i++)
		values[i] = counter_value(fds[i]);
}

/*
 * While disabled a counter neither counts nor ages: value, time enabled
 * and time running all stay as they were, whatever the task does.
 */
TEST(disable_freezes_enable_resumes)
{
	struct counter_reading on, off, later, again;
	int fd;

	fd = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS, FORMAT_TIMES, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	outlast_clock_ticks();
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_TRUE(counter_read(fd, &on));
	EXPECT_LE(FAULT_PAGES, on.value);
	EXPECT_LT(0, on.enabled);

	burn_cpu();
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	ASSERT_TRUE(counter_read(fd, &off));
	EXPECT_EQ(on.value, off.value);
	EXPECT_EQ(on.enabled, off.enabled);
	EXPECT_EQ(on.running, off.running);

	/* Disabling twice is no error and changes nothing. */
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_TRUE(counter_read(fd, &later));
	EXPECT_EQ(on.value, later.value);

	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	outlast_clock_ticks();
	ASSERT_TRUE(counter_read(fd, &again));
	EXPECT_LE(on.value + FAULT_PAGES, again.value);
	EXPECT_LT(on.enabled, again.enabled);
	EXPECT_LT(on.running, again.running);
	close(fd);
}

/* RESET zeroes the count, and only the count: the times go on. */
TEST(reset_zeroes_count)
{
	struct counter_reading before, after;
	int fd;

	fd = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS, FORMAT_TIMES, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));

	/* Stopped: exactly zero, times untouched. */
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_TRUE(counter_read(fd, &before));
	ASSERT_LE(FAULT_PAGES, before.value);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_RESET, 0));
	ASSERT_TRUE(counter_read(fd, &after));
	EXPECT_EQ(0, after.value);
	EXPECT_EQ(before.enabled, after.enabled);
	EXPECT_EQ(before.running, after.running);

	/* Counting: still zero, as nothing faulted since. */
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_RESET, 0));
	ASSERT_TRUE(counter_read(fd, &after));
	EXPECT_EQ(0, after.value);
	EXPECT_LE(before.enabled, after.enabled);

	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	ASSERT_TRUE(counter_read(fd, &after));
	EXPECT_LE(FAULT_PAGES, after.value);
	close(fd);
}

/*
 * PERF_IOC_FLAG_GROUP on the leader applies ENABLE, DISABLE and RESET to
 * every member; without it RESET touches the leader only.
 */
TEST(group_flag)
{
	__u64 v[GROUP_SIZE], w[GROUP_SIZE];
	int fds[GROUP_SIZE], i;

	ASSERT_EQ(0, open_disabled_group(fds)) TH_LOG("open: %s", strerror(errno));

	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	read_group(fds, v);
	for (i = 0; i < GROUP_SIZE; i++)
		EXPECT_LE(FAULT_PAGES, v[i]) TH_LOG("member %d", i);

	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	read_group(fds, w);
	for (i = 0; i < GROUP_SIZE; i++)
		EXPECT_EQ(v[i], w[i]) TH_LOG("member %d counted while disabled", i);

	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_RESET, 0));
	read_group(fds, w);
	EXPECT_EQ(0, w[0]);
	for (i = 1; i < GROUP_SIZE; i++)
		EXPECT_EQ(v[i], w[i]) TH_LOG("member %d reset without the flag", i);

	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_RESET, PERF_IOC_FLAG_GROUP));
	read_group(fds, w);
	for (i = 0; i < GROUP_SIZE; i++)
		EXPECT_EQ(0, w[i]) TH_LOG("member %d", i);

	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	read_group(fds, w);
	for (i = 0; i < GROUP_SIZE; i++)
		EXPECT_LE(FAULT_PAGES, w[i]) TH_LOG("member %d", i);

	for (i = 0; i < GROUP_SIZE; i++)
		close(fds[i]);
}

/* Ids are nonzero, stable, and differ between counters. */
TEST(id)
{
	int a, b;
	__u64 id;

	a = sw_counter_open(PERF_COUNT_SW_DUMMY, 0, false);
	ASSERT_LE(0, a) TH_LOG("open: %s", strerror(errno));
	b = sw_counter_open(PERF_COUNT_SW_DUMMY, 0, false);
	ASSERT_LE(0, b) TH_LOG("open: %s", strerror(errno));

	id = counter_id(a);
	EXPECT_NE(0, id);
	EXPECT_EQ(id, counter_id(a));
	EXPECT_NE(id, counter_id(b));
	EXPECT_NE(0, counter_id(b));

	EXPECT_EQ(-1, ioctl(a, PERF_COUNTER_IOC_ID, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(a);
	close(b);
}

/* Pages touched in the overflow tests: far more than any period used. */
#define OVERFLOW_PAGES	(4 * FAULT_PAGES)

/* A disabled page-fault counter that overflows every @period faults. */
static int open_sampling(__u64 period, bool inherit)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = period;
	attr.disabled = 1;
	attr.inherit = inherit;
	return counter_open(&attr, 0, -1, -1, 0);
}

/*
 * REFRESH(n) enables a sampling counter for n more overflows; at the
 * n-th it disables itself.  The count stops at (or, as the stop takes
 * effect at the end of the overflowing fault, just after) n periods,
 * well short of the pages touched.
 */
TEST(refresh_stops_after_overflows)
{
	const __u64 period = 8;
	__u64 count;
	int fd;

	fd = open_sampling(period, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_REFRESH, 2));
	ASSERT_TRUE(touch_fresh_pages(OVERFLOW_PAGES));

	count = counter_value(fd);
	EXPECT_LE(2 * period, count);
	EXPECT_GT(OVERFLOW_PAGES / 2, count);
	close(fd);
}

/*
 * A clock counter overflows in its own timer, so REFRESH(n) stops it
 * from inside that timer, which must not wait for itself to end (that
 * is a hard lockup).  The count then stays where the n-th overflow left
 * it, however long the task runs on.
 */
TEST(refresh_stops_clock_counters)
{
	static const __u64 clocks[] = {
		PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
	};
	const __u64 period = 100000;	/* ns */
	struct perf_counter_attr attr;
	__u64 stopped, later;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		counter_attr_init(&attr, PERF_TYPE_SOFTWARE, clocks[i]);
		attr.sample_period = period;
		attr.disabled = 1;
		fd = counter_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
		ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_REFRESH, 2));
		outlast_clock_ticks();
		stopped = counter_value(fd);
		outlast_clock_ticks();
		later = counter_value(fd);
		EXPECT_LE(2 * period, stopped) TH_LOG("clock %llu", clocks[i]);
		EXPECT_EQ(stopped, later) TH_LOG("clock %llu", clocks[i]);
		close(fd);
	}
}

/*
 * REFRESH adds to the overflows left; sums past INT_MAX stay at INT_MAX
 * instead of wrapping.  INT_MAX twice and 3 more wrapped would leave one
 * overflow: the counter would stop after the first period.
 */
TEST(refresh_saturates)
{
	const __u64 period = 4;
	__u64 count;
	int fd;

	fd = open_sampling(period, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_REFRESH, INT_MAX));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_REFRESH, INT_MAX));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_REFRESH, 3));
	ASSERT_TRUE(touch_fresh_pages(OVERFLOW_PAGES));
	count = counter_value(fd);
	EXPECT_LE(OVERFLOW_PAGES, count);
	close(fd);
}

/*
 * PERIOD changes the period of a sampling counter: set to 32, one
 * overflow under REFRESH(1) needs 32 faults, not the 4 it was opened
 * with.
 */
TEST(period_changes_period)
{
	__u64 period = 32;
	__u64 count;
	int fd;

	fd = open_sampling(4, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_PERIOD, &period));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_REFRESH, 1));
	ASSERT_TRUE(touch_fresh_pages(OVERFLOW_PAGES));

	count = counter_value(fd);
	EXPECT_LE(period, count);
	EXPECT_GT(OVERFLOW_PAGES / 2, count);
	close(fd);
}

/* Expect ioctl(@fd, @cmd, @arg) to fail with @err. */
#define EXPECT_IOCTL_ERRNO(err, fd, cmd, arg) do {			\
	EXPECT_EQ(-1, ioctl(fd, cmd, arg));				\
	EXPECT_EQ(err, errno) TH_LOG("%s", strerror(errno));		\
} while (0)

TEST(period_errors)
{
	__u64 zero = 0, huge = 1ULL << 63, fine = 100;
	int sampling, counting;

	sampling = open_sampling(4, false);
	ASSERT_LE(0, sampling) TH_LOG("open: %s", strerror(errno));
	counting = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS, 0, true);
	ASSERT_LE(0, counting) TH_LOG("open: %s", strerror(errno));

	EXPECT_IOCTL_ERRNO(EINVAL, sampling, PERF_COUNTER_IOC_PERIOD, &zero);
	EXPECT_IOCTL_ERRNO(EINVAL, sampling, PERF_COUNTER_IOC_PERIOD, &huge);
	EXPECT_IOCTL_ERRNO(EFAULT, sampling, PERF_COUNTER_IOC_PERIOD, NULL);
	EXPECT_IOCTL_ERRNO(EINVAL, counting, PERF_COUNTER_IOC_PERIOD, &fine);
	EXPECT_EQ(0, ioctl(sampling, PERF_COUNTER_IOC_PERIOD, &fine));
	close(sampling);
	close(counting);
}

/* REFRESH wants a sampling counter that is not inherited. */
TEST(refresh_errors)
{
	int inherited, counting;

	inherited = open_sampling(4, true);
	ASSERT_LE(0, inherited) TH_LOG("open: %s", strerror(errno));
	counting = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS, 0, true);
	ASSERT_LE(0, counting) TH_LOG("open: %s", strerror(errno));

	EXPECT_IOCTL_ERRNO(EINVAL, inherited, PERF_COUNTER_IOC_REFRESH, 1);
	EXPECT_IOCTL_ERRNO(EINVAL, counting, PERF_COUNTER_IOC_REFRESH, 1);
	close(inherited);
	close(counting);
}

/* An ioctl command that is not a counter command. */
TEST(unknown_ioctl)
{
	int fd;

	fd = sw_counter_open(PERF_COUNT_SW_DUMMY, 0, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_IOCTL_ERRNO(ENOTTY, fd, _IO('$', 0x7f), 0);
	close(fd);
}

TEST_HARNESS_MAIN
