// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug: counters of a CPU that goes offline stop counting and
 * say so through time_running (time_enabled goes on), and count again
 * once the CPU is back; a counter closed while its CPU is offline is
 * gone for good.  Needs root and a second CPU that can go offline.
 *
 * perf_event_open takes such counters off for good instead (they read
 * as disabled from then on): these tests are for perf_counter_open.
 */

#include "counter_test.h"

#define HOTPLUG_CPU	1
#define ONLINE_FILE	"/sys/devices/system/cpu/cpu1/online"

static int set_online(int online)
{
	int fd = open(ONLINE_FILE, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, online ? "1" : "0", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

static void nap(void)
{
	const struct timespec t = { .tv_nsec = 30 * 1000 * 1000 };

	nanosleep(&t, NULL);
}

static int open_cpu_clock(bool sampling)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.read_format = FORMAT_TIMES;
	if (sampling) {
		attr.sample_period = 100000;
		attr.sample_type = PERF_SAMPLE_IP;
	}
	return counter_open(&attr, -1, HOTPLUG_CPU, -1, 0);
}

FIXTURE(hotplug) {
	int fd;
};

FIXTURE_SETUP(hotplug)
{
	self->fd = -1;
	if (geteuid())
		SKIP(return, "CPU hotplug needs root");
	if (!backend_is_counter())
		SKIP(return, "perf_event_open drops counters of an offline CPU");
	if (access(ONLINE_FILE, W_OK))
		SKIP(return, "CPU %d cannot go offline", HOTPLUG_CPU);
}

FIXTURE_TEARDOWN(hotplug)
{
	set_online(1);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(hotplug, counter_pauses_while_its_cpu_is_offline)
{
	struct counter_reading before, off, later, back;

	self->fd = open_cpu_clock(false);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
	nap();
	ASSERT_TRUE(counter_read(self->fd, &before));
	ASSERT_EQ(0, set_online(0)) TH_LOG("offline: %s", strerror(errno));
	nap();
	ASSERT_TRUE(counter_read(self->fd, &off));
	nap();
	ASSERT_TRUE(counter_read(self->fd, &later));
	/* Enabled all along, running and counting only while online. */
	EXPECT_LT(off.enabled, later.enabled);
	EXPECT_EQ(off.running, later.running);
	EXPECT_EQ(off.value, later.value);
	EXPECT_LE(before.running, off.running);
	EXPECT_LT(off.running, off.enabled);
	ASSERT_EQ(0, set_online(1)) TH_LOG("online: %s", strerror(errno));
	nap();
	ASSERT_TRUE(counter_read(self->fd, &back));
	EXPECT_LT(later.running, back.running);
	EXPECT_LT(later.value, back.value);
	EXPECT_LE(back.running, back.enabled);
}

/* Open while offline is refused, as for a CPU that never came up. */
TEST_F(hotplug, open_on_an_offline_cpu_is_enodev)
{
	ASSERT_EQ(0, set_online(0));
	EXPECT_EQ(-1, open_cpu_clock(false));
	EXPECT_EQ(ENODEV, errno) TH_LOG("%s", strerror(errno));
}

/*
 * Sampling clocks (a timer each) closed while their CPU is offline,
 * then the CPU back with new counters on it: nothing of the old ones
 * may be left on the CPU's context.
 */
TEST_F(hotplug, close_while_offline_leaves_nothing_behind)
{
	struct counter_reading r;
	int fds[8], i;

	for (i = 0; i < 8; i++) {
		fds[i] = open_cpu_clock(i & 1);
		ASSERT_LE(0, fds[i]) TH_LOG("open: %s", strerror(errno));
	}
	nap();
	ASSERT_EQ(0, set_online(0));
	for (i = 0; i < 8; i++)
		close(fds[i]);
	ASSERT_EQ(0, set_online(1));
	self->fd = open_cpu_clock(true);
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
	nap();
	ASSERT_TRUE(counter_read(self->fd, &r));
	EXPECT_LT(0, r.value);
	EXPECT_EQ(r.enabled, r.running);
}

TEST_HARNESS_MAIN
