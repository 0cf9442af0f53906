// SPDX-License-Identifier: GPL-2.0
/*
 * What the open system call accepts and refuses: attr sizes, flags,
 * invalid attr fields, group and task arguments, per-CPU counters, and
 * counters an unprivileged user may not have.
 */

#include <assert.h>
#include <limits.h>
#include <sys/wait.h>

#include "counter_test.h"

/* The size checks below take our struct to be the newest known one. */
static_assert(sizeof(struct perf_counter_attr) == PERF_ATTR_SIZE_VER7,
	      "struct perf_counter_attr is not PERF_ATTR_SIZE_VER7 bytes");

/* An attr with room behind it, for sizes larger than the struct. */
union big_attr {
	struct perf_counter_attr attr;
	unsigned char bytes[8192];
};

/*
 * A dummy counter's attr of @size bytes.  The bytes after those must not
 * be read: they hold junk (every bit set), which covers reserved fields
 * and flags a kernel that read it would refuse.
 */
static void big_attr_init(union big_attr *big, __u32 size)
{
	__u32 used = size ? size : PERF_ATTR_SIZE_VER0;

	memset(big, 0, sizeof(*big));
	counter_attr_init(&big->attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	if (used < sizeof(big->bytes))
		memset(big->bytes + used, 0xff, sizeof(big->bytes) - used);
	big->attr.size = size;
}

/* Open a dummy counter from @big; the fd is closed, 0 or -errno returned. */
static int try_open(union big_attr *big)
{
	int fd = counter_open(&big->attr, 0, -1, -1, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int try_open_size(__u32 size)
{
	union big_attr big;

	big_attr_init(&big, size);
	return try_open(&big);
}

/*
 * Size 0 stands for PERF_ATTR_SIZE_VER0, from before attr.size existed:
 * the junk from byte 64 on is not looked at.
 */
TEST(attr_size_zero)
{
	EXPECT_EQ(0, try_open_size(0));
}

/* Each size the ABI ever had: accepted, and nothing read beyond it. */
TEST(attr_known_sizes)
{
	static const __u32 sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		EXPECT_EQ(0, try_open_size(sizes[i])) TH_LOG("size %u", sizes[i]);
}

/*
 * A newer program's larger attr is fine while the part the kernel does
 * not know is zero.
 */
TEST(attr_larger_zero_tail)
{
	long page = sysconf(_SC_PAGESIZE);

	EXPECT_EQ(0, try_open_size(sizeof(struct perf_counter_attr) + 8));
	EXPECT_EQ(0, try_open_size(256));
	EXPECT_EQ(0, try_open_size(page));
}

/*
 * The kernel's answer to a size it refuses: E2BIG, with attr.size
 * overwritten by the size the kernel knows.  That is our struct on
 * perf_counter; a stock kernel may know a newer, larger one.
 */
static void expect_size_refused(struct __test_metadata *_metadata,
				union big_attr *big)
{
	__u32 asked = big->attr.size;

	EXPECT_EQ(-E2BIG, try_open(big)) TH_LOG("size %u", asked);
	if (backend_is_counter())
		EXPECT_EQ(sizeof(struct perf_counter_attr), big->attr.size);
	EXPECT_LE(PERF_ATTR_SIZE_VER7, big->attr.size);
	EXPECT_EQ(0, big->attr.size % sizeof(__u64));
	EXPECT_NE(asked, big->attr.size);
}

/* Something set in the tail the kernel does not know must not be lost. */
TEST(attr_larger_nonzero_tail)
{
	union big_attr big;
	__u32 known;

	big_attr_init(&big, 512);
	big.bytes[511] = 1;
	expect_size_refused(_metadata, &big);

	/* The size it answered is one it accepts. */
	known = big.attr.size;
	big_attr_init(&big, known);
	EXPECT_EQ(0, try_open(&big));
}

/*
 * Below PERF_ATTR_SIZE_VER0 no attr ever existed, and above a page is
 * beyond what the kernel reads: both E2BIG, with the size told back.
 */
TEST(attr_size_out_of_bounds)
{
	static const __u32 small[] = { 1, 8, 32, PERF_ATTR_SIZE_VER0 - 1 };
	long page = sysconf(_SC_PAGESIZE);
	union big_attr big;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(small); i++) {
		big_attr_init(&big, small[i]);
		expect_size_refused(_metadata, &big);
	}
	big_attr_init(&big, page + sizeof(__u64));
	expect_size_refused(_metadata, &big);
}

static int open_dummy_flags(unsigned long flags)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	return counter_open(&attr, 0, -1, -1, flags);
}

TEST(flag_cloexec)
{
	int fd;

	fd = open_dummy_flags(PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	fd = open_dummy_flags(0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST(unknown_flags)
{
	static const unsigned long bad[] = { 1UL << 4, 1UL << 31, 1UL << 63, ~0UL };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, open_dummy_flags(bad[i])) TH_LOG("flags %#lx", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("flags %#lx: %s", bad[i], strerror(errno));
	}
}

/*
 * An attr that is wrong in one way, and the error the ABI gives for it.
 * The loop below makes each a software cpu-clock counter unless it
 * says otherwise (type 0, config 0).
 */
struct bad_attr {
	const char *what;
	struct perf_counter_attr attr;
	int err;
};

static const struct bad_attr bad_attrs[] = {
	/*
	 * The top bits of the reserved fields: later kernels than 6.1 give
	 * low bits of __reserved_1 and __reserved_3 a meaning.
	 */
	{ "__reserved_1", { .__reserved_1 = 1ULL << 25 }, EINVAL },
	{ "__reserved_2", { .__reserved_2 = 1U << 15 }, EINVAL },
	{ "__reserved_3", { .__reserved_3 = 1U << 31 }, EINVAL },
	{ "sample_type bit 63", { .sample_type = 1ULL << 63 }, EINVAL },
	{ "read_format bit 63", { .read_format = 1ULL << 63 }, EINVAL },
	{ "read_format PERF_FORMAT_MAX", { .read_format = PERF_FORMAT_MAX }, EINVAL },
	{ "sample_period bit 63", { .sample_period = 1ULL << 63 }, EINVAL },
	{ "sample_freq above the limit",
	  { .freq = 1, .sample_freq = ~0ULL }, EINVAL },
	{ "inherit_thread without inherit", { .inherit_thread = 1 }, EINVAL },
	{ "remove_on_exec with enable_on_exec",
	  { .remove_on_exec = 1, .enable_on_exec = 1 }, EINVAL },
	{ "sigtrap without remove_on_exec", { .sigtrap = 1 }, EINVAL },
	{ "both sample weights",
	  { .sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT }, EINVAL },
	{ "sample_stack_user unaligned",
	  { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 12 }, EINVAL },
	{ "sample_stack_user too big",
	  { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 1 << 16 },
	  EINVAL },
	{ "unknown clockid", { .use_clockid = 1, .clockid = 12345 }, EINVAL },
	/* No PMU takes these: "no such event", not a bad argument. */
	{ "unknown type", { .type = INT_MAX }, ENOENT },
	{ "unknown software counter", { .config = 1000 }, ENOENT },
};

TEST(invalid_fields)
{
	struct perf_counter_attr attr;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad_attrs); i++) {
		attr = bad_attrs[i].attr;
		attr.size = sizeof(attr);
		if (!attr.type)
			attr.type = PERF_TYPE_SOFTWARE;
		fd = counter_open(&attr, 0, -1, -1, 0);
		EXPECT_EQ(-1, fd) TH_LOG("%s accepted", bad_attrs[i].what);
		EXPECT_EQ(bad_attrs[i].err, errno)
			TH_LOG("%s: %s", bad_attrs[i].what, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

TEST(bad_group_fd)
{
	struct perf_counter_attr attr;
	int leader, file;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	file = open("/proc/self/stat", O_RDONLY);
	ASSERT_LE(0, file);
	EXPECT_EQ(-1, counter_open(&attr, 0, -1, file, 0));
	EXPECT_EQ(EBADF, errno) TH_LOG("not a counter: %s", strerror(errno));
	close(file);
	EXPECT_EQ(-1, counter_open(&attr, 0, -1, file, 0));
	EXPECT_EQ(EBADF, errno) TH_LOG("closed fd: %s", strerror(errno));

	/* All members of a group are inherited, or none is. */
	leader = counter_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, leader) TH_LOG("open: %s", strerror(errno));
	attr.inherit = 1;
	EXPECT_EQ(-1, counter_open(&attr, 0, -1, leader, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("mixed inherit: %s", strerror(errno));
	close(leader);
}

/* The pid of a task that is gone: a child we have reaped. */
static pid_t reaped_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

TEST(no_such_task)
{
	struct perf_counter_attr attr;
	pid_t gone = reaped_pid();

	ASSERT_LT(0, gone);
	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	EXPECT_EQ(-1, counter_open(&attr, gone, -1, -1, 0));
	EXPECT_EQ(ESRCH, errno) TH_LOG("%s", strerror(errno));
}

/*
 * Parse a CPU list such as "0-3,5" from @path into @cpus.
 * Returns how many CPUs it holds, or -1.
 */
static int read_cpu_list(const char *path, bool *cpus, int max)
{
	int first, last, n = 0, cpu;
	char sep;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%d", &first) == 1) {
		last = first;
		sep = fgetc(f);
		if (sep == '-') {
			if (fscanf(f, "%d", &last) != 1)
				break;
			sep = fgetc(f);
		}
		for (cpu = first; cpu <= last && cpu < max; cpu++, n++)
			cpus[cpu] = true;
		if (sep != ',')
			break;
	}
	fclose(f);
	return n;
}

#define MAX_CPUS	1024
#define CPU_ONLINE	"/sys/devices/system/cpu/online"
#define CPU_POSSIBLE	"/sys/devices/system/cpu/possible"

static int open_cpu_clock(pid_t pid, int cpu)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	attr.read_format = FORMAT_TIMES;
	return counter_open(&attr, pid, cpu, -1, 0);
}

/*
 * One CPU-wide cpu-clock counter per online CPU: each counts the time
 * its CPU passes, busy or idle, so each is nonzero after a sleep.
 */
TEST(per_cpu_counters)
{
	/* Two ticks or more: the counters' clock may stand still for one. */
	const struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	static bool online[MAX_CPUS];
	struct counter_reading r;
	static int fds[MAX_CPUS];
	int cpu, n;

	if (geteuid())
		SKIP(return, "CPU-wide counters need root");
	n = read_cpu_list(CPU_ONLINE, online, MAX_CPUS);
	ASSERT_LT(0, n);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!online[cpu])
			continue;
		fds[cpu] = open_cpu_clock(-1, cpu);
		ASSERT_LE(0, fds[cpu]) TH_LOG("cpu %d: %s", cpu, strerror(errno));
	}
	nanosleep(&nap, NULL);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!online[cpu])
			continue;
		ASSERT_TRUE(counter_read(fds[cpu], &r));
		EXPECT_LT(0, r.value) TH_LOG("cpu %d", cpu);
		EXPECT_LT(0, r.running) TH_LOG("cpu %d", cpu);
		EXPECT_LE(r.running, r.enabled) TH_LOG("cpu %d", cpu);
		close(fds[cpu]);
	}
}

/* A counter must watch a task, a CPU, or both. */
TEST(no_task_no_cpu)
{
	EXPECT_EQ(-1, open_cpu_clock(-1, -1));
	EXPECT_EQ(EINVAL, errno) TH_LOG("%s", strerror(errno));
}

/*
 * CPU numbers beyond the possible ones, for a task or CPU-wide: EINVAL.
 * (CPU-wide as root: unprivileged, permission is refused first.)
 */
TEST(cpu_out_of_range)
{
	static bool possible[MAX_CPUS];
	int bad[3], i, last;

	ASSERT_LT(0, read_cpu_list(CPU_POSSIBLE, possible, MAX_CPUS));
	for (last = MAX_CPUS - 1; last > 0 && !possible[last]; last--)
		;
	bad[0] = last + 1;
	bad[1] = INT_MAX;
	bad[2] = -2;
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(-1, open_cpu_clock(0, bad[i])) TH_LOG("cpu %d", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("cpu %d: %s", bad[i], strerror(errno));
		if (geteuid())
			continue;
		EXPECT_EQ(-1, open_cpu_clock(-1, bad[i])) TH_LOG("cpu %d", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("cpu %d: %s", bad[i], strerror(errno));
	}
}

/* A CPU that could exist but is offline has no counters: ENODEV. */
TEST(cpu_offline)
{
	static bool possible[MAX_CPUS], online[MAX_CPUS];
	int cpu;

	if (geteuid())
		SKIP(return, "CPU-wide counters need root");
	ASSERT_LT(0, read_cpu_list(CPU_POSSIBLE, possible, MAX_CPUS));
	ASSERT_LT(0, read_cpu_list(CPU_ONLINE, online, MAX_CPUS));
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (possible[cpu] && !online[cpu])
			break;
	if (cpu == MAX_CPUS)
		SKIP(return, "every possible CPU is online");
	EXPECT_EQ(-1, open_cpu_clock(-1, cpu));
	EXPECT_EQ(ENODEV, errno) TH_LOG("cpu %d: %s", cpu, strerror(errno));
}

#define NOBODY	65534

/* How the unprivileged child ended; its exit status. */
enum {
	CHILD_REFUSED = 0,	/* EACCES, as the ABI wants */
	CHILD_NO_SETUID,
	CHILD_OWN_FAILED,	/* could not count even itself */
	CHILD_ACCEPTED,
	CHILD_OTHER_ERRNO,
};

/*
 * User-only counting (exclude_kernel, exclude_hv) of a software clock:
 * what paranoid levels up to 2 allow anybody on their own tasks.
 */
static int open_user_only(pid_t pid, int cpu)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return counter_open(&attr, pid, cpu, -1, 0);
}

/*
 * As user nobody, first open a counter on itself (which must work, or
 * the refusal below would prove nothing), then the one of @pid/@cpu,
 * which must be refused with EACCES.  Runs in a child; returns how that
 * child ended.
 */
static int unprivileged_open(pid_t pid, int cpu)
{
	int status, fd;
	pid_t child;

	child = fork();
	if (child < 0)
		return -1;
	if (child == 0) {
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(CHILD_NO_SETUID);
		fd = open_user_only(0, -1);
		if (fd < 0)
			_exit(CHILD_OWN_FAILED);
		close(fd);
		fd = open_user_only(pid, cpu);
		if (fd >= 0)
			_exit(CHILD_ACCEPTED);
		_exit(errno == EACCES ? CHILD_REFUSED : CHILD_OTHER_ERRNO);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Whether pid 1 belongs to the user the unprivileged tests run as. */
static bool init_is_nobody(void)
{
	char line[128];
	bool nobody = false;
	unsigned int uid;
	FILE *f = fopen("/proc/1/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u", &uid) == 1)
			nobody = uid == NOBODY;
	if (f)
		fclose(f);
	return nobody;
}

/* Counting another user's task takes ptrace rights over it. */
TEST(unprivileged_other_task)
{
	int level = paranoid_level();

	if (geteuid())
		SKIP(return, "needs root to become an unprivileged user");
	if (level > 2)
		SKIP(return, "paranoid level %d refuses users everything", level);
	if (init_is_nobody())
		SKIP(return, "pid 1 runs as the unprivileged user");
	EXPECT_EQ(CHILD_REFUSED, unprivileged_open(1, -1));
}

/* From paranoid level 1 on, CPU-wide counting needs privilege. */
TEST(unprivileged_cpu_wide)
{
	int level = paranoid_level();

	if (geteuid())
		SKIP(return, "needs root to become an unprivileged user");
	if (level < 1 || level > 2)
		SKIP(return, "paranoid level %d, not 1 or 2", level);
	EXPECT_EQ(CHILD_REFUSED, unprivileged_open(-1, 0));
}

TEST_HARNESS_MAIN
