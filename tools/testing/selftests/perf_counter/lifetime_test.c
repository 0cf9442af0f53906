// SPDX-License-Identifier: GPL-2.0
/*
 * Lifetime of counters: closing while the watched task runs, closing a
 * group leader under its members, the watched task exiting first, and
 * many open/close cycles leaving no memory behind.
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

/* Kernel memory that is not reclaimable, in kB; 0 if unknown. */
static long unreclaimable_slab_kb(void)
{
	char line[128];
	long kb = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

#define CYCLES		1000
#define ROUNDS		5

/*
 * Each counter costs the kernel well over 256 bytes of unreclaimable
 * memory (the counter and its file).  Leaking one per cycle would grow
 * it by at least 250 kB over CYCLES cycles; allow 128 kB.
 */
#define LEAK_BOUND_KB	128

/* Open and close a counter CYCLES times; false if an open failed. */
static bool open_close_cycles(void)
{
	int i, fd;

	for (i = 0; i < CYCLES; i++) {
		fd = sw_counter_open(PERF_COUNT_SW_TASK_CLOCK, FORMAT_TIMES, false);
		if (fd < 0)
			return false;
		close(fd);
	}
	return true;
}

/*
 * A closed file is freed after an RCU grace period: give the frees of
 * the cycles just run the time to happen, so that a round is measured
 * by what it kept, not by what was still on its way out.
 */
static void settle_deferred_frees(void)
{
	usleep(200 * 1000);
}

/*
 * A first, unmeasured round grows the slab caches to what the cycles
 * need at once (freed counters may wait for an RCU grace period before
 * their memory is reused).  After it, a round that leaks nothing needs
 * no new slab pages.  Other work on the machine moves the numbers too,
 * but only a leak moves them up in every round: the test passes on the
 * first round that stays under the bound.
 */
TEST(open_close_cycles_do_not_leak)
{
	long before, growth = 0;
	int round, first_fd, fd;

	if (!unreclaimable_slab_kb())
		SKIP(return, "no SUnreclaim in /proc/meminfo");
	first_fd = sw_counter_open(PERF_COUNT_SW_TASK_CLOCK, FORMAT_TIMES, false);
	ASSERT_LE(0, first_fd) TH_LOG("open: %s", strerror(errno));
	close(first_fd);
	ASSERT_TRUE(open_close_cycles()) TH_LOG("open: %s", strerror(errno));

	for (round = 0; round < ROUNDS; round++) {
		settle_deferred_frees();
		before = unreclaimable_slab_kb();
		ASSERT_TRUE(open_close_cycles()) TH_LOG("open: %s", strerror(errno));
		settle_deferred_frees();
		growth = unreclaimable_slab_kb() - before;
		if (growth < LEAK_BOUND_KB)
			break;
	}
	EXPECT_GT(LEAK_BOUND_KB, growth)
		TH_LOG("SUnreclaim grew by %ld kB in each of %d rounds", growth, ROUNDS);

	/* No descriptor leaked either: the lowest free one is reused. */
	fd = sw_counter_open(PERF_COUNT_SW_TASK_CLOCK, FORMAT_TIMES, false);
	EXPECT_EQ(first_fd, fd);
	close(fd);
}

TEST_HARNESS_MAIN
