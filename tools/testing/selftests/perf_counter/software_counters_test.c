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
 * The clocks of a task (task-clock, and cpu-clock opened on a task) count
 * the nanoseconds the task ran while counting, which is also what the
 * counter's own time_running measures: the checks below compare the
 * value with the counter's times and the times with each other, never
 * with a wall clock.
 */

/*
 * A software counter always has room, so on its own task it runs exactly
 * whenever it is enabled: enabled == running, at every read.  While the
 * task burns CPU, value and both times grow; value by the same time as
 * running, apart from where the kernel reads its clock for each (at most
 * a few microseconds per switch; over a busy stretch of several ticks the
 * two cannot be a factor of two apart unless the unit or the span of the
 * count is wrong).  Nothing at all moves while the counter is disabled.
 */
static void check_clock_relations(struct __test_metadata *_metadata,
				  __u64 config)
{
	struct counter_reading r0, r1, r2, r3;
	__u64 value, running;
	int fd;

	fd = sw_counter_open(config, FORMAT_TIMES, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	ASSERT_TRUE(counter_read(fd, &r0));
	outlast_clock_ticks();
	ASSERT_TRUE(counter_read(fd, &r1));
	EXPECT_EQ(r0.enabled, r0.running);
	EXPECT_EQ(r1.enabled, r1.running);
	EXPECT_LT(r0.value, r1.value);
	EXPECT_LT(r0.running, r1.running);
	value = r1.value - r0.value;
	running = r1.running - r0.running;
	EXPECT_LT(running, 2 * value)
		TH_LOG("value grew by %llu ns, running by %llu ns", value, running);
	EXPECT_LT(value, 2 * running)
		TH_LOG("value grew by %llu ns, running by %llu ns", value, running);

	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_TRUE(counter_read(fd, &r2));
	outlast_clock_ticks();
	ASSERT_TRUE(counter_read(fd, &r3));
	EXPECT_EQ(r2.value, r3.value);
	EXPECT_EQ(r2.enabled, r3.enabled);
	EXPECT_EQ(r2.running, r3.running);
	EXPECT_LE(r1.value, r2.value);
	close(fd);
}

TEST(task_clock)
{
	check_clock_relations(_metadata, PERF_COUNT_SW_TASK_CLOCK);
}

TEST(cpu_clock)
{
	check_clock_relations(_metadata, PERF_COUNT_SW_CPU_CLOCK);
}

static bool same_reading(const struct counter_reading *a,
			 const struct counter_reading *b)
{
	return a->value == b->value && a->enabled == b->enabled &&
	       a->running == b->running;
}

/* Rounds of our own burning we give a sleeping task's clock to settle. */
#define SETTLE_ROUNDS	10

/*
 * A clock of another task counts only while that task runs: the child
 * burns, then sleeps in a read of a pipe.  While it sleeps, its clock's
 * value and times stand exactly still however long we burn meanwhile (a
 * clock that counted wall time, or the time of whatever task runs, would
 * move).  Its state says 'S' a moment before it is off the CPU, so the
 * reading is taken again until two in a row, a few ticks apart, agree.
 * Woken, it burns again: the clock moves on from where it stood.
 */
static void check_clock_stops_while_asleep(struct __test_metadata *_metadata,
					   __u64 config)
{
	struct counter_reading asleep, again, done;
	struct perf_counter_attr attr;
	int go[2], fd, i, status;
	pid_t child;
	char c = 0;

	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		outlast_clock_ticks();
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		outlast_clock_ticks();
		_exit(0);
	}
	close(go[0]);
	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = FORMAT_TIMES;
	fd = counter_open(&attr, child, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_TRUE(counter_read(fd, &asleep));
	for (i = 0; i < SETTLE_ROUNDS; i++) {
		while (task_state(child) != 'S')
			usleep(100);
		outlast_clock_ticks();
		ASSERT_TRUE(counter_read(fd, &again));
		if (same_reading(&asleep, &again))
			break;
		asleep = again;
	}
	EXPECT_GT(SETTLE_ROUNDS, i)
		TH_LOG("the clock of a sleeping task moved in %d readings", i);
	EXPECT_LT(0, asleep.value);
	EXPECT_EQ(asleep.enabled, asleep.running);

	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_TRUE(counter_read(fd, &done));
	EXPECT_LT(asleep.value, done.value);
	EXPECT_LT(asleep.running, done.running);
	EXPECT_EQ(done.enabled, done.running);
	close(fd);
	close(go[1]);
}

TEST(task_clock_stops_while_asleep)
{
	check_clock_stops_while_asleep(_metadata, PERF_COUNT_SW_TASK_CLOCK);
}

TEST(cpu_clock_stops_while_asleep)
{
	check_clock_stops_while_asleep(_metadata, PERF_COUNT_SW_CPU_CLOCK);
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

/*
 * Context switches of the calling thread as the scheduler counts them
 * (voluntary and not), or -1.
 */
static long long sched_switches(void)
{
	char line[128];
	long long n, sum = 0;
	int found = 0;
	FILE *f = fopen("/proc/thread-self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "voluntary_ctxt_switches: %lld", &n) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %lld", &n) == 1) {
			sum += n;
			found++;
		}
	}
	fclose(f);
	return found == 2 ? sum : -1;
}

/*
 * The counter's value and the scheduler's count of switches at one
 * moment: both read while this thread runs, when every switch it made
 * is fully accounted in each.  A switch between the two reads of the
 * scheduler's count (we were preempted) would make the pair disagree,
 * so the pair is taken again until both reads agree.
 */
static bool switches_now(int fd, __u64 *counted, long long *sched)
{
	long long before, after;
	int i;

	for (i = 0; i < 100; i++) {
		before = sched_switches();
		*counted = counter_value(fd);
		after = sched_switches();
		if (before < 0 || *counted == ~0ULL)
			return false;
		if (before == after) {
			*sched = before;
			return true;
		}
	}
	return false;
}

/*
 * The counter counts every switch away from this thread, exactly as the
 * scheduler does in /proc: over a stretch in which the thread sleeps
 * naps times in a read of a pipe (each one a switch), the two counts
 * grow by the same number, and by naps at least.
 */
TEST(context_switches)
{
	const int naps = 5;
	__u64 before, after;
	long long sched_before, sched_after;
	int fd, i, pipefd[2], status;
	pid_t child;
	char c;

	if (sched_switches() < 0)
		SKIP(return, "no context switch counts in /proc/thread-self/status");
	ASSERT_EQ(0, pipe(pipefd));
	fd = sw_counter_open(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));

	ASSERT_TRUE(switches_now(fd, &before, &sched_before));
	child = fork();
	ASSERT_LE(0, child);
	if (!child)
		wake_sleeping_parent(getppid(), pipefd[1], naps);
	for (i = 0; i < naps; i++)
		ASSERT_EQ(1, read(pipefd[0], &c, 1));
	ASSERT_TRUE(switches_now(fd, &after, &sched_after));
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);

	EXPECT_EQ(sched_after - sched_before, (long long)(after - before));
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
