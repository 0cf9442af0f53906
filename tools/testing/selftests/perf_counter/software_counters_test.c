// SPDX-License-Identifier: GPL-2.0
/*
 * Software counters on the calling task: each one counts what the task
 * did while it was enabled, and only that.
 */

#define _GNU_SOURCE
#include <sys/statfs.h>
#include <sys/wait.h>
#include <linux/magic.h>

#include "counter_test.h"

/*
 * A clock of the task (task-clock, or cpu-clock opened on a task) grows
 * with CPU use by about what the scheduler saw used.  Both clocks measure
 * the time this task ran; the factor of two only absorbs where each
 * samples its clock.  A counter that missed most of the burn, or counted
 * in coarse ticks, falls below it.
 */
static void check_clock_follows_cpu(struct __test_metadata *_metadata,
				    __u64 config)
{
	struct counter_reading before, after;
	__u64 cpu_before, cpu_used;
	int fd;

	fd = sw_counter_open(config, FORMAT_TIMES, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	ASSERT_TRUE(counter_read(fd, &before));
	cpu_before = thread_cpu_ns();
	outlast_clock_ticks();
	cpu_used = thread_cpu_ns() - cpu_before;
	ASSERT_TRUE(counter_read(fd, &after));

	EXPECT_LE(cpu_used / 2, after.value - before.value);
	EXPECT_LE(after.running, after.enabled);
	EXPECT_LT(before.running, after.running);
	close(fd);
}

TEST(task_clock)
{
	check_clock_follows_cpu(_metadata, PERF_COUNT_SW_TASK_CLOCK);
}

TEST(cpu_clock)
{
	check_clock_follows_cpu(_metadata, PERF_COUNT_SW_CPU_CLOCK);
}

/*
 * Answer reads of the parent on wfd only once it sleeps in them: a
 * timed sleep may expire before the task leaves the CPU on a slow
 * machine, a read of an empty pipe it waits in cannot.
 */
static void wake_sleeping_parent(pid_t parent, int wfd, int naps)
{
	int i;

	for (i = 0; i < naps; i++) {
		while (task_state(parent) != 'S')
			usleep(100);
		if (write(wfd, "x", 1) != 1)
			_exit(1);
	}
	_exit(0);
}

/* Every read that sleeps takes the task off the CPU: one switch each. */
TEST(context_switches)
{
	const int naps = 3;
	__u64 before, after;
	int fd, i, pipefd[2], status;
	pid_t child;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	fd = sw_counter_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	before = counter_value(fd);
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		wake_sleeping_parent(getppid(), pipefd[1], naps);
	for (i = 0; i < naps; i++)
		ASSERT_EQ(1, read(pipefd[0], &c, 1));
	after = counter_value(fd);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);

	ASSERT_NE(~0ULL, after);
	EXPECT_LE(before + naps, after);
	close(fd);
	close(pipefd[0]);
	close(pipefd[1]);
}

static int first_allowed_cpu(const cpu_set_t *set, int after)
{
	int cpu;

	for (cpu = after + 1; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, set))
			return cpu;
	return -1;
}

/* Run on @cpu only; false if the kernel refused. */
static bool pin_to(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) == 0;
}

/* Taking the CPU a task runs on away from it moves it: a migration. */
TEST(cpu_migrations)
{
	cpu_set_t allowed;
	int fd, a, b;
	__u64 count;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(allowed), &allowed));
	a = first_allowed_cpu(&allowed, -1);
	b = first_allowed_cpu(&allowed, a);
	if (b < 0)
		SKIP(return, "needs two CPUs this task may run on");

	ASSERT_TRUE(pin_to(a));
	fd = sw_counter_open(PERF_COUNT_SW_CPU_MIGRATIONS, 0, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	ASSERT_TRUE(pin_to(b));
	ASSERT_TRUE(pin_to(a));
	count = counter_value(fd);
	EXPECT_LE(2, count);
	EXPECT_NE(~0ULL, count);

	sched_setaffinity(0, sizeof(allowed), &allowed);
	close(fd);
}

/*
 * First touches of anonymous memory: at least one fault per page in the
 * page-faults and minor-faults counters, and never a major fault, as no
 * page has to be read from anywhere.
 */
TEST(page_faults_anonymous)
{
	int all, minor, major;

	all = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS, 0, false);
	ASSERT_LE(0, all) TH_LOG("open: %s", strerror(errno));
	minor = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, false);
	ASSERT_LE(0, minor) TH_LOG("open: %s", strerror(errno));
	major = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, false);
	ASSERT_LE(0, major) TH_LOG("open: %s", strerror(errno));

	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));

	EXPECT_LE(FAULT_PAGES, counter_value(all));
	EXPECT_LE(FAULT_PAGES, counter_value(minor));
	EXPECT_EQ(0, counter_value(major));
	close(all);
	close(minor);
	close(major);
}

/* Write a file of @pages pages into @dir and drop it from the page cache. */
static int cold_file(const char *dir, unsigned int pages, long page)
{
	char path[256], *buf;
	unsigned int i;
	int fd;

	snprintf(path, sizeof(path), "%s/perf_counter_majflt.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	buf = calloc(1, page);
	for (i = 0; buf && i < pages; i++)
		if (write(fd, buf, page) != page)
			break;
	free(buf);
	if (i != pages || fsync(fd) ||
	    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Whether none of the @len bytes at @mem is in memory. */
static bool none_resident(void *mem, size_t len, long page)
{
	unsigned char vec[FAULT_PAGES];
	size_t i;

	if (len / page > sizeof(vec) || mincore(mem, len, vec))
		return false;
	for (i = 0; i < len / page; i++)
		if (vec[i] & 1)
			return false;
	return true;
}

/*
 * Touching a file mapping whose pages are not in the page cache has to
 * read them: a major fault (read-ahead may bring in the rest at once).
 * Only possible where files live on a device, not in RAM.
 */
TEST(page_faults_major)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = FAULT_PAGES * page;
	volatile char *mem;
	struct statfs fs;
	int file, major;
	unsigned int i;
	__u64 count;

	if (statfs(".", &fs) || fs.f_type == TMPFS_MAGIC ||
	    fs.f_type == RAMFS_MAGIC)
		SKIP(return, "the working directory is not on a block device");
	file = cold_file(".", FAULT_PAGES, page);
	if (file < 0)
		SKIP(return, "cannot write a file in the working directory");
	mem = mmap(NULL, len, PROT_READ, MAP_SHARED, file, 0);
	ASSERT_NE(MAP_FAILED, mem);
	if (!none_resident((void *)mem, len, page))
		SKIP(return, "the page cache kept the file");

	major = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, false);
	ASSERT_LE(0, major) TH_LOG("open: %s", strerror(errno));
	for (i = 0; i < FAULT_PAGES; i++)
		(void)mem[i * page];

	count = counter_value(major);
	EXPECT_LE(1, count);
	EXPECT_GE(FAULT_PAGES, count);
	munmap((void *)mem, len);
	close(major);
	close(file);
}

/* Open a counter, give it CPU use and faults to count, and read it. */
static void read_after_work(struct __test_metadata *_metadata, __u64 config,
			    bool disabled, struct counter_reading *r)
{
	int fd;

	fd = sw_counter_open(config, FORMAT_TIMES, disabled);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	outlast_clock_ticks();
	ASSERT_TRUE(touch_fresh_pages(FAULT_PAGES));
	ASSERT_TRUE(counter_read(fd, r));
	close(fd);
}

/* The dummy counter exists to carry records; its count stays zero. */
TEST(dummy_counts_nothing)
{
	struct counter_reading r;

	read_after_work(_metadata, PERF_COUNT_SW_DUMMY, false, &r);
	EXPECT_EQ(0, r.value);
	EXPECT_LT(0, r.enabled);
}

/* Nothing counts, and no time passes, while a counter is disabled. */
TEST(disabled_counts_nothing)
{
	struct counter_reading r;

	read_after_work(_metadata, PERF_COUNT_SW_PAGE_FAULTS, true, &r);
	EXPECT_EQ(0, r.value);
	EXPECT_EQ(0, r.enabled);
	EXPECT_EQ(0, r.running);
}

TEST_HARNESS_MAIN
