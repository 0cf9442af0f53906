/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the perf_counter selftests share: the open wrapper that picks the
 * backend, and small routines that make a counter count something known.
 *
 * The tests run against two kernels.  On a kernel with the perf_counter
 * subsystem (it has /proc/sys/kernel/perf_counter_paranoid) they call
 * perf_counter_open(); anywhere else, or when
 * PERF_COUNTER_SELFTEST_BACKEND=event, they call the stock
 * perf_event_open(), whose ABI ours copies.  Passing on the stock kernel
 * is how the tests themselves are shown to be right.
 */
#ifndef _PERF_COUNTER_SELFTEST_H
#define _PERF_COUNTER_SELFTEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_counter.h>

#include "kselftest_harness.h"

/*
 * x86_64 number of perf_counter_open().  Only called when the sysctl says
 * the subsystem is there: stock kernels from 6.5 on give the number to
 * another system call.
 */
#define NR_PERF_COUNTER_OPEN	451

#define COUNTER_PARANOID	"/proc/sys/kernel/perf_counter_paranoid"
#define EVENT_PARANOID		"/proc/sys/kernel/perf_event_paranoid"
#define BACKEND_ENV		"PERF_COUNTER_SELFTEST_BACKEND"

/* Both formats that report time, the usual way to read a counter here. */
#define FORMAT_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* Pages each fault test touches; each first touch is one fault. */
#define FAULT_PAGES	64

/* Decided once per program: the answer cannot change while it runs. */
static inline bool backend_is_counter(void)
{
	static int counter = -1;
	const char *forced;

	if (counter < 0) {
		forced = getenv(BACKEND_ENV);
		counter = !(forced && !strcmp(forced, "event")) &&
			  access(COUNTER_PARANOID, F_OK) == 0;
	}
	return counter;
}

static inline const char *backend_name(void)
{
	return backend_is_counter() ? "perf_counter_open" : "perf_event_open";
}

/* The open system call of the backend; -1 with errno on failure. */
static inline int counter_open(struct perf_counter_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags)
{
	long nr = backend_is_counter() ? NR_PERF_COUNTER_OPEN :
					 __NR_perf_event_open;

	return syscall(nr, attr, pid, cpu, group_fd, flags);
}

static inline void counter_attr_init(struct perf_counter_attr *attr,
				     __u32 type, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

/*
 * Why the hardware-counter cases cannot run here, or NULL: no PMU
 * (cycles says ENOENT), or perf_event_open, whose PMU the model is not
 * and whose refusals are its own.
 */
static inline const char *no_hw_counters(void)
{
	struct perf_counter_attr attr;
	int fd;

	counter_attr_init(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.disabled = 1;
	fd = counter_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == ENOENT)
		return "no hardware PMU (cycles: ENOENT)";
	if (fd >= 0)
		close(fd);
	if (!backend_is_counter())
		return "the PMU model and the backend's refusals are perf_counter_open's";
	return NULL;
}

/* A software counter on the calling task, any CPU, not in a group. */
static inline int sw_counter_open(__u64 config, __u64 read_format,
				  bool disabled)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.read_format = read_format;
	attr.disabled = disabled;
	return counter_open(&attr, 0, -1, -1, 0);
}

/* One counter opened with FORMAT_TIMES, as read() returns it. */
struct counter_reading {
	__u64 value;
	__u64 enabled;
	__u64 running;
};

/* The integer in a (/proc or debugfs) file; -1 if it cannot be read. */
static inline int read_int_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static inline bool write_int_file(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%d\n", v) > 0;
	return fclose(f) == 0 && ok;
}

/* Read a FORMAT_TIMES counter; false unless read() filled the struct. */
static inline bool counter_read(int fd, struct counter_reading *r)
{
	return read(fd, r, sizeof(*r)) == sizeof(*r);
}

/* Read a counter opened without read_format bits; ~0 on failure. */
static inline __u64 counter_value(int fd)
{
	__u64 value;

	if (read(fd, &value, sizeof(value)) != sizeof(value))
		return ~0ULL;
	return value;
}

/* The id PERF_COUNTER_IOC_ID reports; 0 (never a valid id) on failure. */
static inline __u64 counter_id(int fd)
{
	__u64 id = 0;

	if (ioctl(fd, PERF_COUNTER_IOC_ID, &id))
		return 0;
	return id;
}

/* Level of the paranoid sysctl of the backend in use; -100 if unreadable. */
static inline int paranoid_level(void)
{
	const char *path = backend_is_counter() ? COUNTER_PARANOID : EVENT_PARANOID;
	int level = -100;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = -100;
		fclose(f);
	}
	return level;
}

/*
 * Keep the CPU busy for a little while.  A fixed amount of work rather
 * than a fixed time: it costs about a millisecond here, and scales with a
 * slower (emulated) machine instead of failing on it.
 */
static inline void burn_cpu(void)
{
	volatile unsigned long sink = 0;
	unsigned long i;

	for (i = 0; i < 1000000; i++)
		sink += i;
}

/*
 * Stay busy until the clock of time_enabled and time_running has surely
 * moved.  That clock (local_clock()) is clamped to the last tick plus one
 * tick where the TSC is unstable, as on emulated CPUs, so it can stand
 * still for a whole tick however much work is done: 20 ms of
 * CLOCK_MONOTONIC is two ticks or more at any HZ.
 */
static inline void outlast_clock_ticks(void)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		burn_cpu();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000000000LL +
		 (now.tv_nsec - start.tv_nsec) < 20000000LL);
}

/*
 * A child held at the start: it runs @body and exits once a byte is
 * written to *go, so that the caller can open counters on it first.
 * Returns its pid, or -1 (nothing to clean up) on failure.
 */
static inline pid_t fork_held(int *go, void (*body)(void))
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(1);
		body();
		_exit(0);
	}
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return -1;
	}
	*go = fds[1];
	return pid;
}

/* CPU time the calling thread has used, from the scheduler, in ns. */
static inline __u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline char task_state(pid_t pid)
{
	char path[64], buf[512], *paren;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	paren = strrchr(buf, ')');
	return paren && paren[1] ? paren[2] : 0;
}

/*
 * Map @pages fresh anonymous pages and write to each, in order: one
 * page fault apiece, as anonymous memory is populated only on first
 * touch, one base page at a time once huge pages (of any size) are
 * ruled out.  Returns the mapping (the caller unmaps it), or NULL.
 */
static inline char *touch_new_pages(unsigned int pages)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;
	char *mem;

	mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return NULL;
	/* Fails harmlessly on kernels without transparent huge pages. */
	madvise(mem, pages * page, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		((volatile char *)mem)[i * page] = 1;
	return mem;
}

/* The same, unmapped again; false when the mapping failed. */
static inline bool touch_fresh_pages(unsigned int pages)
{
	char *mem = touch_new_pages(pages);

	if (!mem)
		return false;
	munmap(mem, pages * sysconf(_SC_PAGESIZE));
	return true;
}

/*
 * Ring buffers alive in the subsystem: each is one vmalloc area whose
 * caller, in /proc/vmallocinfo, is perf_counter_buffer_alloc, so a
 * leaked buffer shows exactly where memory totals would only drift.
 */
#define VMALLOCINFO	"/proc/vmallocinfo"
#define BUFFER_CALLER	"perf_counter_buffer_alloc+"
/* The last frees wait for an RCU grace period and a work item. */
#define MAX_FREE_WAITS	2000

/* Live ring buffers of the subsystem; -1 if vmallocinfo is unreadable. */
static inline int live_buffers(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(VMALLOCINFO, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, BUFFER_CALLER))
			n++;
	fclose(f);
	return n;
}

/* Wait until the buffers are down to @count again; the number left. */
static inline int buffers_down_to(int count)
{
	int i, n = live_buffers();

	for (i = 0; i < MAX_FREE_WAITS && n > count; i++) {
		usleep(1000);
		n = live_buffers();
	}
	return n;
}

/*
 * Run the calling thread on @cpu only (-1: on every CPU again).  The
 * raw system call with a plain mask: the tests that use this need not
 * see glibc's cpu_set_t, which only _GNU_SOURCE before <sched.h> gives.
 */
static inline bool pin_to_cpu(int cpu)
{
	unsigned long mask[16];

	memset(mask, cpu < 0 ? 0xff : 0, sizeof(mask));
	if (cpu >= 0) {
		if (cpu >= (int)(8 * sizeof(mask)))
			return false;
		mask[cpu / (8 * sizeof(long))] = 1UL << (cpu % (8 * sizeof(long)));
	}
	return syscall(SYS_sched_setaffinity, 0, sizeof(mask), mask) == 0;
}

/* A sampler of every user page fault of the calling task, not open. */
static inline void fault_sampler_attr(struct perf_counter_attr *attr,
				      __u64 sample_type, __u64 read_format,
				      bool disabled)
{
	counter_attr_init(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = sample_type;
	attr->read_format = read_format;
	attr->exclude_kernel = 1;
	attr->disabled = disabled;
	attr->wakeup_events = 1;
}

static inline int fault_sampler(__u64 sample_type, __u64 read_format,
				bool disabled)
{
	struct perf_counter_attr attr;

	fault_sampler_attr(&attr, sample_type, read_format, disabled);
	return counter_open(&attr, 0, -1, -1, 0);
}

/*
 * Every program starts with this test, so that its TAP output names the
 * backend in use; it also checks that the backend is there at all (on a
 * perf_counter kernel, that system call 451 is ours).
 */
TEST(backend)
{
	int fd;

	ksft_print_msg("backend: %s\n", backend_name());
	/* The harness ends each test with _exit(), which flushes nothing. */
	fflush(stdout);
	fd = sw_counter_open(PERF_COUNT_SW_DUMMY, 0, true);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", backend_name(), strerror(errno));
	close(fd);
}

#endif /* _PERF_COUNTER_SELFTEST_H */
