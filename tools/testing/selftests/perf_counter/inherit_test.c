// SPDX-License-Identifier: GPL-2.0
/*
 * attr.inherit: a counter opened with it is copied into every child the
 * task forks, and the child's counts and times are added to it when the
 * child exits.  Without it, children are not counted.
 */

#include <sys/wait.h>

#include "counter_test.h"

/* What the child reports about itself, measured by its own counter. */
struct child_report {
	struct counter_reading own;
	int ok;
};

/*
 * Fork a child that opens a counter of @config on itself, does the work
 * of a page-fault or CPU-time test, and writes what that counter saw to
 * @report.  Waits for (and reaps) the child; false if any step failed.
 */
static bool run_counted_child(__u64 config, struct child_report *report)
{
	int pipefd[2], status, fd;
	pid_t pid;

	memset(report, 0, sizeof(*report));
	if (pipe(pipefd))
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		close(pipefd[0]);
		fd = sw_counter_open(config, FORMAT_TIMES, false);
		if (config == PERF_COUNT_SW_TASK_CLOCK)
			burn_cpu();
		else
			touch_fresh_pages(FAULT_PAGES);
		report->ok = fd >= 0 && counter_read(fd, &report->own);
		if (write(pipefd[1], report, sizeof(*report)) != sizeof(*report))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], report, sizeof(*report)) != sizeof(*report))
		report->ok = 0;
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return false;
	return report->ok;
}

static int open_inherited(__u64 config, bool inherit)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = FORMAT_TIMES;
	attr.inherit = inherit;
	return counter_open(&attr, 0, -1, -1, 0);
}

/*
 * Two counters of @config on the parent, one inherited and one not, read
 * nested (inherited first and last), so that the parent's own share in
 * the inherited one is at least that in the other.  What separates them
 * is then at least the child's counts, value and times: the child was
 * counted from fork to exit, a span that holds what its own counter saw.
 * A counter without inherit that counted the child too shows no gap.
 */
static void check_child_is_added(struct __test_metadata *_metadata,
				 __u64 config)
{
	struct counter_reading with0, without0, with1, without1;
	struct child_report child;
	int with, without;

	with = open_inherited(config, true);
	ASSERT_LE(0, with) TH_LOG("open: %s", strerror(errno));
	without = open_inherited(config, false);
	ASSERT_LE(0, without) TH_LOG("open: %s", strerror(errno));

	/*
	 * Page faults on the result buffers must not fall between two
	 * reads: touch them first, and again after fork() made the stack
	 * copy-on-write.
	 */
	memset(&without1, 0, sizeof(without1));
	memset(&with1, 0, sizeof(with1));
	ASSERT_TRUE(counter_read(with, &with0));
	ASSERT_TRUE(counter_read(without, &without0));
	ASSERT_TRUE(run_counted_child(config, &child));
	memset(&without1, 0, sizeof(without1));
	memset(&with1, 0, sizeof(with1));
	ASSERT_TRUE(counter_read(without, &without1));
	ASSERT_TRUE(counter_read(with, &with1));

	ASSERT_LT(0, child.own.value);
	EXPECT_LE(without1.value - without0.value + child.own.value,
		  with1.value - with0.value);
	EXPECT_LE(without1.enabled - without0.enabled + child.own.enabled,
		  with1.enabled - with0.enabled);
	EXPECT_LE(without1.running - without0.running + child.own.running,
		  with1.running - with0.running);
	close(with);
	close(without);
}

TEST(child_task_clock_with_inherit)
{
	check_child_is_added(_metadata, PERF_COUNT_SW_TASK_CLOCK);
}

TEST(child_page_faults_with_inherit)
{
	check_child_is_added(_metadata, PERF_COUNT_SW_PAGE_FAULTS);
}

/* Each child adds its counts on exit: with two children, both are in. */
TEST(every_child_is_added)
{
	struct counter_reading before, after;
	struct child_report first, second;
	int fd;

	fd = open_inherited(PERF_COUNT_SW_PAGE_FAULTS, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(counter_read(fd, &before));
	ASSERT_TRUE(run_counted_child(PERF_COUNT_SW_PAGE_FAULTS, &first));
	ASSERT_TRUE(run_counted_child(PERF_COUNT_SW_PAGE_FAULTS, &second));
	ASSERT_TRUE(counter_read(fd, &after));

	EXPECT_LE(before.value + first.own.value + second.own.value, after.value);
	close(fd);
}

TEST_HARNESS_MAIN
