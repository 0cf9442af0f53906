// SPDX-License-Identifier: GPL-2.0
/*
 * The errors of perf_counter_open(), case by case, on both system calls
 * of the kernel under test: the table of Documentation/perf_counter/
 * design.txt ("Errors"), walked here.  Each row is one mistake (or two,
 * to show which check comes first); perf_event_open() must give the
 * errno the row says, and perf_counter_open() the same unless the row
 * names an intended difference.
 *
 * On a kernel without perf_counter the rows run on perf_event_open()
 * alone, which is how the table itself is shown to match the ABI.
 */

#include "counter_test.h"

#include <limits.h>
#include <sys/resource.h>

/* Groups of the table: what a row opens besides its attr. */
enum target {
	SELF,		/* pid 0, any CPU */
	CPU0,		/* pid -1, CPU 0 (as root) */
};

enum group {
	NO_GROUP,
	BAD_FD,		/* group_fd -2 */
	NOT_A_COUNTER,	/* group_fd of /dev/null */
	LEADER,		/* a plain context-switches leader on SELF */
	LEADER_CPU0,	/* the same leader on CPU 0 */
	LEADER_INHERIT,	/* a leader with attr.inherit */
};

struct errno_row {
	const char		*what;
	void			(*setup)(struct perf_counter_attr *attr);
	enum target		target;
	pid_t			pid;	/* instead of the target's, if not 0 */
	enum group		group;
	unsigned long		flags;
	int			err;	/* the ABI's answer; 0: opens */
	int			ours;	/* perf_counter_open's, if not err */
	/* perf_event_open's answer depends on its config: not compared */
	bool			config_dependent;
};

static void no_change(struct perf_counter_attr *a) { }
static void tiny_size(struct perf_counter_attr *a) { a->size = 8; }
static void reserved_bit(struct perf_counter_attr *a) { a->__reserved_2 = 1U << 15; }
static void unknown_sample_bit(struct perf_counter_attr *a) { a->sample_type = 1ULL << 63; }
static void unknown_type(struct perf_counter_attr *a) { a->type = INT_MAX; }
static void unknown_config(struct perf_counter_attr *a) { a->config = 1000; }
static void period_bit_63(struct perf_counter_attr *a) { a->sample_period = 1ULL << 63; }

static void huge_freq(struct perf_counter_attr *a)
{
	a->freq = 1;
	a->sample_freq = ~0ULL;
}

static void branch_stack(struct perf_counter_attr *a)
{
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_PLM_ALL |
				PERF_SAMPLE_BRANCH_ANY;
}

static void deep_callchain(struct perf_counter_attr *a)
{
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = 65535;
}

static void deep_no_callchain(struct perf_counter_attr *a)
{
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_IP;
	a->sample_max_stack = 65535;
}

static void unknown_type_deep(struct perf_counter_attr *a)
{
	deep_callchain(a);
	unknown_type(a);
}

static void unknown_type_branch(struct perf_counter_attr *a)
{
	branch_stack(a);
	unknown_type(a);
}

static void pinned(struct perf_counter_attr *a) { a->pinned = 1; }
static void exclusive(struct perf_counter_attr *a) { a->exclusive = 1; }
static void inherit(struct perf_counter_attr *a) { a->inherit = 1; }

static const struct errno_row rows[] = {
	/* The order of the checks, first to last. */
	{ "unknown flag, with a bad attr size", tiny_size, SELF, 0, NO_GROUP,
	  1UL << 10, EINVAL, 0 },
	{ "attr size below the first version", tiny_size, SELF, 0, BAD_FD, 0,
	  E2BIG, 0 },
	{ "reserved bit, with a bad group fd", reserved_bit, SELF, 0, BAD_FD, 0,
	  EINVAL, 0 },
	{ "unknown sample_type bit", unknown_sample_bit, SELF, 0, NO_GROUP, 0,
	  EINVAL, 0 },
	{ "sample_freq above the limit, with a bad group fd", huge_freq, SELF,
	  0, BAD_FD, 0, EINVAL, 0 },
	{ "sample_period bit 63", period_bit_63, SELF, 0, NO_GROUP, 0, EINVAL, 0 },
	{ "cgroup flag without a CPU", no_change, SELF, 0, NO_GROUP,
	  PERF_FLAG_PID_CGROUP, EINVAL, 0 },
	{ "invalid group fd, with an unknown type", unknown_type, SELF, 0,
	  BAD_FD, 0, EBADF, 0 },
	{ "group fd that is no counter", no_change, SELF, 0, NOT_A_COUNTER, 0,
	  EBADF, 0 },
	{ "pid -21, with an unknown type", unknown_type, SELF, -21, NO_GROUP,
	  0, ESRCH, 0 },
	{ "leader inherits, member does not, with an unknown type",
	  unknown_type, SELF, 0, LEADER_INHERIT, 0, EINVAL, 0 },
	{ "no task and no CPU, with an unknown type", unknown_type, SELF, -1,
	  NO_GROUP, 0, EINVAL, 0 },
	{ "unknown type", unknown_type, SELF, 0, NO_GROUP, 0, ENOENT, 0 },
	{ "unknown software counter", unknown_config, SELF, 0, NO_GROUP, 0,
	  ENOENT, 0 },
	{ "unknown type, with a too deep call chain", unknown_type_deep, SELF,
	  0, NO_GROUP, 0, ENOENT, 0 },
	{ "unknown type, with a branch stack", unknown_type_branch, SELF, 0,
	  NO_GROUP, 0, ENOENT, 0 },
	{ "branch stack of a software counter", branch_stack, SELF, 0,
	  NO_GROUP, 0, EOPNOTSUPP, 0 },
	{ "sample_max_stack above the limit", deep_callchain, SELF, 0,
	  NO_GROUP, 0, EOVERFLOW, 0 },
	{ "sample_max_stack above the limit, no call chain", deep_no_callchain,
	  SELF, 0, NO_GROUP, 0, 0, 0 },
	{ "group on another CPU than its leader", no_change, SELF, 0,
	  LEADER_CPU0, 0, EINVAL, 0 },
	{ "pinned group member", pinned, SELF, 0, LEADER, 0, EINVAL, 0 },
	{ "exclusive group member", exclusive, SELF, 0, LEADER, 0, EINVAL, 0 },
	{ "inheriting member, leader does not", inherit, SELF, 0, LEADER, 0,
	  EINVAL, 0 },
	{ "a plain counter", no_change, SELF, 0, NO_GROUP, 0, 0, 0 },
	{ "a plain member", no_change, SELF, 0, LEADER, 0, 0, 0 },
	/* Intended differences: features perf_counter does not have. */
	/* EBADF with CONFIG_CGROUP_PERF, EINVAL without */
	{ "cgroup flag with a bad cgroup fd", no_change, CPU0, -2, NO_GROUP,
	  PERF_FLAG_PID_CGROUP, EBADF, EOPNOTSUPP, true },
};

static long open_on(bool ours, struct perf_counter_attr *attr, pid_t pid,
		    int cpu, int group_fd, unsigned long flags)
{
	return syscall(ours ? NR_PERF_COUNTER_OPEN : __NR_perf_event_open,
		       attr, pid, cpu, group_fd, flags);
}

/* The group fd a row asks for, opened on the same system call. */
static int group_fd_of(bool ours, enum group group)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE,
			  PERF_COUNT_SW_CONTEXT_SWITCHES);
	switch (group) {
	case NO_GROUP:
		return -1;
	case BAD_FD:
		return -2;
	case NOT_A_COUNTER:
		return open("/dev/null", O_RDONLY);
	case LEADER:
		return open_on(ours, &attr, 0, -1, -1, 0);
	case LEADER_CPU0:
		return open_on(ours, &attr, 0, 0, -1, 0);
	case LEADER_INHERIT:
		attr.inherit = 1;
		return open_on(ours, &attr, 0, -1, -1, 0);
	}
	return -1;
}

/* Open a row's counter on one system call; 0 or the errno it gave. */
static int row_errno(bool ours, const struct errno_row *row)
{
	struct perf_counter_attr attr;
	int group, fd, err = 0;
	pid_t pid = row->target == CPU0 ? -1 : 0;
	int cpu = row->target == CPU0 ? 0 : -1;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE,
			  PERF_COUNT_SW_CONTEXT_SWITCHES);
	attr.exclude_kernel = 1;
	row->setup(&attr);
	if (row->pid)
		pid = row->pid == -1 ? -1 : row->pid;
	group = group_fd_of(ours, row->group);
	if (group < -2 || (group == -1 && row->group != NO_GROUP))
		return -1000 - errno;
	fd = open_on(ours, &attr, pid, cpu, group, row->flags);
	if (fd < 0)
		err = errno;
	else
		close(fd);
	if (group >= 0)
		close(group);
	return err;
}

static bool have_perf_counter(void)
{
	return access(COUNTER_PARANOID, F_OK) == 0;
}

TEST(errno_table_on_both_system_calls)
{
	unsigned int i;
	int got;

	if (geteuid())
		SKIP(return, "the table's CPU-wide rows need root");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct errno_row *row = &rows[i];
		int ours = row->ours ? row->ours : row->err;

		got = row_errno(false, row);
		if (!row->config_dependent) {
			EXPECT_EQ(row->err, got)
				TH_LOG("perf_event_open, %s: %s, not %s",
				       row->what, strerror(got),
				       strerror(row->err));
		}
		if (!have_perf_counter())
			continue;
		got = row_errno(true, row);
		EXPECT_EQ(ours, got)
			TH_LOG("perf_counter_open, %s: %s, not %s", row->what,
			       strerror(got), strerror(ours));
	}
}

/* read() into less room than the read format takes: ENOSPC. */
TEST(read_too_small_is_enospc)
{
	__u64 values[4];
	int fd;

	fd = sw_counter_open(PERF_COUNT_SW_TASK_CLOCK, FORMAT_TIMES, false);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(-1, read(fd, values, 2 * sizeof(__u64)));
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, read(fd, values, 0));
	EXPECT_EQ(ENOSPC, errno) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(3 * sizeof(__u64), read(fd, values, sizeof(values)));
	close(fd);
}

/* The largest read a group may need: 16 KiB, as for perf events. */
#define GROUP_READ_MAX	(16 * 1024)

/*
 * A group grows until its read() would pass GROUP_READ_MAX bytes; the
 * member that would pass it is refused with E2BIG.
 */
TEST(group_size_is_bounded)
{
	__u64 format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | FORMAT_TIMES;
	/* nr, enabled, running, then a value and an id per member */
	unsigned int max = (GROUP_READ_MAX / 8 - 3) / 2;
	struct perf_counter_attr attr;
	static int fds[2048];
	struct rlimit files = { 4096, 4096 };
	unsigned int n;
	int err = 0;

	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &files));
	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	attr.read_format = format;
	fds[0] = counter_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fds[0]) TH_LOG("open: %s", strerror(errno));
	for (n = 1; n < ARRAY_SIZE(fds); n++) {
		fds[n] = counter_open(&attr, 0, -1, fds[0], 0);
		if (fds[n] < 0) {
			err = errno;
			break;
		}
	}
	EXPECT_EQ(max, n) TH_LOG("members: %u", n);
	EXPECT_EQ(E2BIG, err) TH_LOG("%s", strerror(err));
	while (n--)
		close(fds[n]);
}

TEST_HARNESS_MAIN
