// SPDX-License-Identifier: GPL-2.0
/*
 * What the ring buffer's ABI promises beyond the records themselves:
 * lost samples in PERF_FORMAT_LOST, wakeups of a counter whose output
 * goes to another's buffer, the times of the control page and of
 * PERF_SAMPLE_READ, the mlock limit of unprivileged mappings, and
 * SET_OUTPUT against a concurrent mmap().
 */

#include "counter_test.h"
#include "ring.h"

#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* The lost counts of every LOST record from the tail on; consumes all. */
static __u64 drain_lost(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->page->data_tail, lost = 0, rec[4];
	struct perf_counter_header h;

	while (tail < head) {
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_LOST) {
			ring_copy(r, tail, rec, sizeof(rec));
			lost += rec[2];
		}
		tail += h.size;
	}
	__atomic_store_n(&r->page->data_tail, head, __ATOMIC_RELEASE);
	return lost;
}

/*
 * PERF_FORMAT_LOST: the samples this counter could not write, the same
 * number its LOST records report once there is room again.
 */
TEST(format_lost_counts_dropped_samples)
{
	__u64 values[2], reported;
	struct ring r;
	int fd;

	fd = fault_sampler(PERF_SAMPLE_IP, PERF_FORMAT_LOST, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	/* 16-byte samples: one page holds 256, this drops the rest. */
	touch_fresh_pages(1024);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(values), read(fd, values, sizeof(values)));
	EXPECT_LT(0, values[1]);
	/* Room again: the next sample is preceded by the LOST record. */
	drain_lost(&r);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	touch_fresh_pages(1);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	reported = drain_lost(&r);
	EXPECT_EQ(values[1], reported);
	ring_unmap(&r);
	close(fd);
}

/*
 * A counter sent into another's buffer with SET_OUTPUT is polled on its
 * own fd: its samples must wake that fd.  Both count a child (the ABI
 * wants one task for buffers of per-task counters), which starts to
 * fault after we sleep in poll().
 */
static void fault_after_a_while(void)
{
	usleep(200 * 1000);
	touch_fresh_pages(FAULT_PAGES);
}

TEST(poll_wakes_redirected_counter)
{
	struct perf_counter_attr attr;
	int target, redirected, go;
	struct pollfd p;
	struct ring r;
	pid_t pid;

	pid = fork_held(&go, fault_after_a_while);
	ASSERT_LE(0, pid);
	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.exclude_kernel = 1;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	target = counter_open(&attr, pid, -1, -1, 0);
	ASSERT_LE(0, target) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, target, 8));
	attr.disabled = 0;
	redirected = counter_open(&attr, pid, -1, -1, 0);
	ASSERT_LE(0, redirected) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(redirected, PERF_COUNTER_IOC_SET_OUTPUT, target));
	ASSERT_EQ(1, write(go, "x", 1));
	p.fd = redirected;
	p.events = POLLIN;
	EXPECT_EQ(1, poll(&p, 1, 10000)) TH_LOG("no wakeup");
	waitpid(pid, NULL, 0);
	ring_unmap(&r);
	close(redirected);
	close(target);
	close(go);
}

/* The control page's times, read under its sequence lock. */
static void page_times(struct perf_counter_mmap_page *page, __u64 *enabled,
		       __u64 *running, __u64 *offset, __u32 *index)
{
	__u32 seq;

	do {
		seq = __atomic_load_n(&page->lock, __ATOMIC_ACQUIRE);
		*enabled = page->time_enabled;
		*running = page->time_running;
		*offset = page->offset;
		*index = page->index;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&page->lock, __ATOMIC_RELAXED) != seq);
}

/*
 * The control page carries the counter's times and count as of its
 * last switch: nonzero once it ran, never ahead of read().
 */
TEST(control_page_has_times)
{
	__u64 enabled, running, offset;
	struct counter_reading now;
	__u32 index;
	struct ring r;
	int fd;

	fd = sw_counter_open(PERF_COUNT_SW_TASK_CLOCK, FORMAT_TIMES, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, 1));
	outlast_clock_ticks();
	usleep(10 * 1000);	/* switched out and in again */
	page_times(r.page, &enabled, &running, &offset, &index);
	ASSERT_TRUE(counter_read(fd, &now));
	EXPECT_LT(0, enabled);
	EXPECT_LT(0, running);
	EXPECT_LE(running, enabled);
	EXPECT_LE(enabled, now.enabled);
	EXPECT_LT(0, offset);
	EXPECT_LE(offset, now.value);
	/* No counter user space could read with rdpmc. */
	EXPECT_EQ(0, index);
	ring_unmap(&r);
	close(fd);
}

/*
 * PERF_SAMPLE_READ with the times: each sample carries the times up to
 * its own moment, not those of the last context switch.
 */
TEST(sample_read_times_are_current)
{
	__u64 first[3], second[3], head;
	struct perf_counter_header h;
	struct ring r;
	int fd;

	fd = fault_sampler(PERF_SAMPLE_READ, FORMAT_TIMES, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, 8));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	touch_fresh_pages(1);
	outlast_clock_ticks();
	touch_fresh_pages(1);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	head = __atomic_load_n(&r.page->data_head, __ATOMIC_ACQUIRE);
	ASSERT_LE(2 * (sizeof(h) + sizeof(first)), head);
	ring_copy(&r, 0, &h, sizeof(h));
	ASSERT_EQ(PERF_RECORD_SAMPLE, h.type);
	ring_copy(&r, sizeof(h), first, sizeof(first));
	ring_copy(&r, h.size + sizeof(h), second, sizeof(second));
	EXPECT_EQ(1, first[0]);
	EXPECT_EQ(2, second[0]);
	EXPECT_LT(first[1], second[1]) TH_LOG("enabled stood still");
	EXPECT_LT(first[2], second[2]) TH_LOG("running stood still");
	EXPECT_LE(second[2], second[1]);
	ring_unmap(&r);
	close(fd);
}

#define NOBODY		65534
#define MLOCK_KB	36	/* 9 pages: one buffer of 8 data pages */

static const char *mlock_sysctl(void)
{
	return backend_is_counter() ? "/proc/sys/kernel/perf_counter_mlock_kb" :
				      "/proc/sys/kernel/perf_event_mlock_kb";
}

static int write_int(const char *path, int value)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", value) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int value = -1;

	if (f) {
		if (fscanf(f, "%d", &value) != 1)
			value = -1;
		fclose(f);
	}
	return value;
}

/*
 * As nobody, with no RLIMIT_MEMLOCK of its own: map 9-page buffers
 * until refused.  Exit status: how many fit, then 100 + that if the
 * refusal was not EPERM, 200 if unmapping one did not make room.
 */
static int mappings_that_fit(void)
{
	struct rlimit none = { 0, 0 };
	int fds[64], n, status;
	struct ring rings[64];
	pid_t pid = fork();

	if (pid == 0) {
		if (setrlimit(RLIMIT_MEMLOCK, &none) ||
		    setgid(NOBODY) || setuid(NOBODY))
			_exit(250);
		for (n = 0; n < 64; n++) {
			fds[n] = fault_sampler(PERF_SAMPLE_IP, 0, true);
			if (fds[n] < 0)
				_exit(251);
			if (!ring_map(&rings[n], fds[n], 8))
				break;
		}
		if (n == 64 || errno != EPERM)
			_exit(100 + n);
		if (n > 0) {
			ring_unmap(&rings[0]);
			if (!ring_map(&rings[0], fds[n], 8))
				_exit(200);
		}
		_exit(n);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST(unprivileged_mappings_are_charged)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int saved = read_int(mlock_sysctl());
	int level = paranoid_level();

	if (geteuid())
		SKIP(return, "needs root to set the limit and become nobody");
	if (level < 0 || level > 2)
		SKIP(return, "paranoid level %d: no per-user limit", level);
	ASSERT_LE(0, saved) TH_LOG("%s: %s", mlock_sysctl(), strerror(errno));
	ASSERT_EQ(0, write_int(mlock_sysctl(), MLOCK_KB));
	/* The limit is per CPU online; a buffer costs 8 + 1 pages. */
	EXPECT_EQ(MLOCK_KB / 4 * cpus / 9, mappings_that_fit());
	/* What the exited child had mapped was given back. */
	EXPECT_EQ(MLOCK_KB / 4 * cpus / 9, mappings_that_fit());
	write_int(mlock_sysctl(), saved);
}

/* Two threads, one mmap()ing a counter, one redirecting it. */
struct race {
	int		fd, target;
	int		start;
	int		mapped, redirected;
	void		*base;
};

static void *race_mmap(void *arg)
{
	struct race *race = arg;

	while (!__atomic_load_n(&race->start, __ATOMIC_ACQUIRE))
		;
	race->base = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			  race->fd, 0);
	race->mapped = race->base != MAP_FAILED;
	return NULL;
}

/*
 * A counter either gets a buffer of its own or sends its output to
 * another's, never both: mmap() and SET_OUTPUT racing on it may not
 * both succeed.
 */
/*
 * 2000 rounds of open, thread, mmap, ioctl and close: under the debug
 * kernel's checkers on an emulated CPU, beside a build, that outlasted
 * the harness's 30 s twice in a row, so this test has its own limit.
 */
FIXTURE(race_rounds) {
	int unused;
};

FIXTURE_SETUP(race_rounds)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(race_rounds)
{
}

TEST_F_TIMEOUT(race_rounds, set_output_and_mmap_exclude_each_other, 300)
{
	struct ring target_ring;
	struct race race;
	pthread_t thread;
	int target, i, both = 0;

	target = fault_sampler(PERF_SAMPLE_IP, 0, true);
	ASSERT_LE(0, target);
	ASSERT_TRUE(ring_map(&target_ring, target, 1));
	for (i = 0; i < 2000; i++) {
		memset(&race, 0, sizeof(race));
		race.fd = fault_sampler(PERF_SAMPLE_IP, 0, true);
		ASSERT_LE(0, race.fd);
		ASSERT_EQ(0, pthread_create(&thread, NULL, race_mmap, &race));
		__atomic_store_n(&race.start, 1, __ATOMIC_RELEASE);
		race.redirected = !ioctl(race.fd, PERF_COUNTER_IOC_SET_OUTPUT,
					 target);
		pthread_join(thread, NULL);
		both += race.mapped && race.redirected;
		if (race.mapped)
			munmap(race.base, 2 * 4096);
		close(race.fd);
	}
	EXPECT_EQ(0, both);
	ring_unmap(&target_ring);
	close(target);
}

TEST_HARNESS_MAIN
