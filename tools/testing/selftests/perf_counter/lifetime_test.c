// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetime of counters: closing while the watched task runs, closing a
 * group leader under its members, the watched task exiting first, and
 * many cycles of buffers with every kind of writer leaving none behind.
 */

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include "counter_test.h"

/* Upper bound on the waits below; they normally end at once. */
#define MAX_WAIT_STEPS	5000

static void nap(void)
{
	const struct timespec ms = { .tv_nsec = 1000 * 1000 };

	nanosleep(&ms, NULL);
}

/*
 * A child that naps in a loop until killed, bumping @beats (shared
 * memory) after each nap: every nap is a context switch.
 */
static pid_t start_napper(unsigned long *beats)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;) {
			nap();
			__atomic_fetch_add(beats, 1, __ATOMIC_RELAXED);
		}
	}
	return pid;
}

/* Wait until @fd counts more than @than; false if it never does. */
static bool counter_passes(int fd, __u64 than)
{
	int i;

	for (i = 0; i < MAX_WAIT_STEPS; i++) {
		if (counter_value(fd) > than)
			return true;
		nap();
	}
	return false;
}

static unsigned long beats_now(unsigned long *beats)
{
	return __atomic_load_n(beats, __ATOMIC_RELAXED);
}

static bool beats_advance(unsigned long *beats)
{
	unsigned long start = beats_now(beats);
	int i;

	for (i = 0; i < MAX_WAIT_STEPS && beats_now(beats) == start; i++)
		nap();
	return beats_now(beats) != start;
}

/* A software counter of @config on task @pid. */
static int open_on_task(pid_t pid, __u64 config, __u64 read_format)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = read_format;
	return counter_open(&attr, pid, -1, -1, 0);
}

/*
 * The counter lives as long as a file descriptor refers to it: after
 * closing one of two, the other still counts.  Closing the last one
 * removes it while the task runs on, unharmed.
 */
TEST(close_while_counting)
{
	unsigned long *beats;
	int fd, copy, status;
	__u64 value;
	pid_t pid;

	beats = mmap(NULL, sizeof(*beats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, beats);
	pid = start_napper(beats);
	ASSERT_LT(0, pid);

	fd = open_on_task(pid, PERF_COUNT_SW_CONTEXT_SWITCHES, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	copy = dup(fd);
	ASSERT_LE(0, copy);
	ASSERT_TRUE(counter_passes(fd, 0));

	EXPECT_EQ(0, close(fd));
	value = counter_value(copy);
	EXPECT_TRUE(counter_passes(copy, value));
	EXPECT_EQ(0, close(copy));

	EXPECT_TRUE(beats_advance(beats));
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/*
 * Closing a group leader breaks the group up: each member goes on as a
 * counter of its own.  A member reads with PERF_FORMAT_GROUP as a group
 * of one from then on, and still counts.
 */
TEST(close_group_leader)
{
	struct perf_counter_attr attr;
	__u64 group[3], before;
	int leader, member;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	leader = counter_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, leader) TH_LOG("open: %s", strerror(errno));
	member = counter_open(&attr, 0, -1, leader, 0);
	ASSERT_LE(0, member) TH_LOG("open: %s", strerror(errno));

	EXPECT_EQ(0, close(leader));
	ASSERT_EQ(sizeof(group), read(member, group, sizeof(group)));
	EXPECT_EQ(1, group[0]);
	EXPECT_EQ(counter_id(member), group[2]);

	before = group[1];
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	ASSERT_EQ(sizeof(group), read(member, group, sizeof(group)));
	EXPECT_LE(before + FAULT_PAGES, group[1]);
	EXPECT_EQ(0, close(member));
}

/*
 * A counter outlives the task it watches: once the task has exited, the
 * counter keeps the final count and poll() reports POLLHUP.  The child
 * faults only after the counter is on it, when told through a pipe.
 */
TEST(watched_task_exits)
{
	struct counter_reading r, again;
	struct pollfd pfd;
	int go[2], fd;
	pid_t pid;
	char c = 0;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) == 1) {
			touch_fresh_pages(FAULT_PAGES);
			outlast_clock_ticks();
		}
		_exit(0);
	}
	close(go[0]);
	fd = open_on_task(pid, PERF_COUNT_SW_PAGE_FAULTS, FORMAT_TIMES);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));

	ASSERT_TRUE(counter_read(fd, &r));
	EXPECT_LE(FAULT_PAGES, r.value);
	EXPECT_LT(0, r.enabled);
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_TRUE(pfd.revents & POLLHUP);
	ASSERT_TRUE(counter_read(fd, &again));
	EXPECT_EQ(r.value, again.value);
	EXPECT_EQ(r.enabled, again.enabled);
	close(fd);
	close(go[1]);
}

/*
 * Leaks, counted exactly.  Memory totals (SUnreclaim and the like) move
 * with everything else the kernel does, and under KASAN with its
 * quarantine of freed objects, so a leak can only be told from noise by
 * a margin, and a lucky round hides one.  What can be counted exactly is
 * ring buffers: each is one vmalloc area whose caller, in
 * /proc/vmallocinfo, is perf_counter_buffer_alloc.  A buffer is freed
 * only once every counter that writes into it is gone (the one that
 * mapped it, counters sent into it with SET_OUTPUT, the clones of an
 * inherited counter in child tasks) and it is unmapped: one reference
 * kept too many on any of them keeps the buffer, and the count of
 * buffers does not come back to where it was.
 */
#define CYCLES		200

/* Every page fault of this task and its children, sampled. */
static int open_fault_sampler(void)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.inherit = 1;
	attr.task = 1;
	return counter_open(&attr, 0, -1, -1, 0);
}

/*
 * One of each reference a buffer has: the mapping, the counter that
 * mapped it, a second counter sent into it with SET_OUTPUT, and both
 * counters' clones in a child that faults (writing into the buffer) and
 * exits.  Everything is closed at the end; false if a step failed.
 */
static bool buffer_cycle(long page)
{
	int owner, peer = -1, status;
	bool ok = false;
	void *ring;
	pid_t child;

	owner = open_fault_sampler();
	if (owner < 0)
		return false;
	ring = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED,
		    owner, 0);
	if (ring == MAP_FAILED)
		goto out;
	peer = open_fault_sampler();
	if (peer < 0 || ioctl(peer, PERF_COUNTER_IOC_SET_OUTPUT, owner))
		goto unmap;
	child = fork();
	if (child == 0) {
		touch_fresh_pages(4);
		_exit(0);
	}
	ok = child > 0 && waitpid(child, &status, 0) == child &&
	     WIFEXITED(status) && WEXITSTATUS(status) == 0;
unmap:
	munmap(ring, 2 * page);
out:
	if (peer >= 0)
		close(peer);
	close(owner);
	return ok;
}

TEST(buffer_cycles_do_not_leak)
{
	long page = sysconf(_SC_PAGESIZE);
	int baseline, mapped, fd, first_fd, i;
	void *ring;

	if (!backend_is_counter())
		SKIP(return, "perf_event_open's buffers are not vmalloc areas");
	baseline = live_buffers();
	if (baseline < 0)
		SKIP(return, "%s: %s", VMALLOCINFO, strerror(errno));

	/* The count sees one buffer, or the test could not fail. */
	first_fd = open_fault_sampler();
	ASSERT_LE(0, first_fd) TH_LOG("open: %s", strerror(errno));
	ring = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED,
		    first_fd, 0);
	ASSERT_NE(MAP_FAILED, ring) TH_LOG("mmap: %s", strerror(errno));
	mapped = live_buffers();
	munmap(ring, 2 * page);
	close(first_fd);
	if (mapped == baseline)
		SKIP(return, "%s names no caller (no kallsyms?)", VMALLOCINFO);
	ASSERT_EQ(baseline + 1, mapped);
	ASSERT_EQ(baseline, buffers_down_to(baseline));

	for (i = 0; i < CYCLES; i++)
		ASSERT_TRUE(buffer_cycle(page))
			TH_LOG("cycle %d: %s", i, strerror(errno));
	EXPECT_EQ(baseline, buffers_down_to(baseline))
		TH_LOG("%d buffers of %d cycles are still there",
		       live_buffers() - baseline, CYCLES);

	/* No descriptor leaked either: the lowest free one is reused. */
	fd = sw_counter_open(PERF_COUNT_SW_TASK_CLOCK, FORMAT_TIMES, false);
	EXPECT_EQ(first_fd, fd);
	close(fd);
}

TEST_HARNESS_MAIN
