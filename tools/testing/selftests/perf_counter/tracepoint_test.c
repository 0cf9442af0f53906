// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint counters (PERF_TYPE_TRACEPOINT): exact counts of calls this
 * program makes, filters, inheritance, per-CPU counting, kprobe and
 * uprobe events, raw samples laid out as the ABI says, the permission
 * raw samples need, and, on a kernel with both system calls, the same
 * counts and byte-equal raw records from perf_counter_open() and
 * perf_event_open() watching one workload at the same time; and records
 * raised in NMI context nesting in task-context writers.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "counter_test.h"
#include "ring.h"

#define CALLS		1000
#define ROUNDS		200
#define RING_PAGES	64
#define MAX_SAMPLES	4096
#define NOBODY		65534

/* Before perf_counter_open() existed: the stock system call, always. */
enum backend { BACKEND_COUNTER, BACKEND_EVENT, NR_BACKENDS };

static const char * const backend_names[] = {
	"perf_counter_open", "perf_event_open",
};

static bool backend_present(enum backend b)
{
	return b == BACKEND_EVENT || access(COUNTER_PARANOID, F_OK) == 0;
}

static int open_on(enum backend b, struct perf_counter_attr *attr, pid_t pid,
		   int cpu)
{
	long nr = b == BACKEND_COUNTER ? NR_PERF_COUNTER_OPEN :
					 __NR_perf_event_open;

	return syscall(nr, attr, pid, cpu, -1, 0);
}

static const char *tracefs(void)
{
	static const char * const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (access(path, F_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

/* The number file @path holds; -1 if it cannot be read. */
static long read_number(const char *path)
{
	long n = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/* The id of tracefs event @sys:@name; -1 if there is none. */
static long tp_id(const char *sys, const char *name)
{
	char path[256];

	if (!tracefs())
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs(), sys, name);
	return read_number(path);
}

/* Append @line to tracefs file @file; 0 or -errno. */
static int tracefs_write(const char *file, const char *line)
{
	char path[256];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", tracefs(), file);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -errno;
	if (write(fd, line, strlen(line)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* A disabled tracepoint counter; sampling every record with @sample_type. */
static void tp_attr(struct perf_counter_attr *attr, long id, __u64 sample_type)
{
	counter_attr_init(attr, PERF_TYPE_TRACEPOINT, id);
	attr->disabled = 1;
	if (sample_type) {
		attr->sample_period = 1;
		attr->sample_type = sample_type;
		attr->wakeup_events = 1;
	}
}

static void make_getppid_calls(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/*
 * @rounds round trips with a child over two pipes, both tasks on one
 * CPU: the parent stops running at least once a round, so it switches
 * out at least @rounds times.
 */
static bool ping_pong(int rounds)
{
	int to_child[2], to_parent[2], i, status;
	char byte = 0;
	pid_t pid;

	if (pipe(to_child) || pipe(to_parent) || !pin_to_cpu(0))
		return false;
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < rounds; i++) {
			if (read(to_child[0], &byte, 1) != 1 ||
			    write(to_parent[1], &byte, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; pid > 0 && i < rounds; i++) {
		if (write(to_child[1], &byte, 1) != 1 ||
		    read(to_parent[0], &byte, 1) != 1)
			break;
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	pin_to_cpu(-1);
	return pid > 0 && i == rounds && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

#define SKIP_WITHOUT_EVENT(id, sys, name)				\
	do {								\
		if ((id) < 0)						\
			SKIP(return, "no tracepoint %s:%s (tracefs: %s)", \
			     sys, name, tracefs() ? tracefs() : "none"); \
	} while (0)

#define SKIP_WITHOUT_BOTH()						\
	do {								\
		if (!backend_present(BACKEND_COUNTER))			\
			SKIP(return, "needs a kernel with perf_counter_open"); \
	} while (0)

/* @hit(CALLS) hits tracefs event @sys:@name CALLS times: on each backend. */
static void expect_exact_count(struct __test_metadata *_metadata,
			      const char *sys, const char *name,
			      void (*hit)(int n))
{
	long id = tp_id(sys, name);
	struct perf_counter_attr attr;
	enum backend b;
	int fd;

	ASSERT_LE(0, id) TH_LOG("%s:%s has no id", sys, name);
	for (b = 0; b < NR_BACKENDS; b++) {
		if (!backend_present(b))
			continue;
		tp_attr(&attr, id, 0);
		fd = open_on(b, &attr, 0, -1);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", backend_names[b], strerror(errno));
		ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
		hit(CALLS);
		ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
		EXPECT_EQ(CALLS, counter_value(fd)) TH_LOG("%s", backend_names[b]);
		close(fd);
	}
}

/* Every sys_enter_getppid record is counted, on each backend. */
TEST(syscall_tracepoint_counts_exactly)
{
	SKIP_WITHOUT_EVENT(tp_id("syscalls", "sys_enter_getppid"),
			   "syscalls", "sys_enter_getppid");
	expect_exact_count(_metadata, "syscalls", "sys_enter_getppid",
			   make_getppid_calls);
}

/*
 * A filter keeps exactly the matching records: raw_syscalls:sys_enter
 * fires for every system call, "id == 110" only for getppid.  A second
 * filter is refused, as are bad syntax and a filter on a software counter.
 */
TEST(filter_keeps_matching_records)
{
	long id = tp_id("raw_syscalls", "sys_enter");
	struct perf_counter_attr attr;
	char getppid_only[32];
	enum backend b;
	int fd, sw;

	SKIP_WITHOUT_EVENT(id, "raw_syscalls", "sys_enter");
	snprintf(getppid_only, sizeof(getppid_only), "id == %d", SYS_getppid);
	for (b = 0; b < NR_BACKENDS; b++) {
		if (!backend_present(b))
			continue;
		tp_attr(&attr, id, 0);
		fd = open_on(b, &attr, 0, -1);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", backend_names[b], strerror(errno));
		EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_SET_FILTER, "id ==== 1"));
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s: bad syntax", backend_names[b]);
		ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_SET_FILTER, getppid_only))
			TH_LOG("%s: %s", backend_names[b], strerror(errno));
		EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_SET_FILTER, "id == 1"));
		EXPECT_EQ(EEXIST, errno) TH_LOG("%s: second filter", backend_names[b]);
		ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
		make_getppid_calls(CALLS);
		syscall(SYS_getpid);
		ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
		EXPECT_EQ(CALLS, counter_value(fd)) TH_LOG("%s", backend_names[b]);
		close(fd);

		counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
		sw = open_on(b, &attr, 0, -1);
		ASSERT_LE(0, sw);
		EXPECT_EQ(-1, ioctl(sw, PERF_COUNTER_IOC_SET_FILTER, "id == 1"));
		EXPECT_EQ(EINVAL, errno) TH_LOG("%s: software", backend_names[b]);
		close(sw);
	}
}

/* Children's calls reach an inherited counter once they have exited. */
TEST(inherited_counter_adds_children)
{
	long id = tp_id("syscalls", "sys_enter_getppid");
	struct counter_reading r;
	struct perf_counter_attr attr;
	enum backend b;
	int fd, i, status;
	pid_t pid;

	SKIP_WITHOUT_EVENT(id, "syscalls", "sys_enter_getppid");
	for (b = 0; b < NR_BACKENDS; b++) {
		if (!backend_present(b))
			continue;
		tp_attr(&attr, id, 0);
		attr.inherit = 1;
		attr.read_format = FORMAT_TIMES;
		fd = open_on(b, &attr, 0, -1);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", backend_names[b], strerror(errno));
		ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
		for (i = 0; i < 3; i++) {
			pid = fork();
			if (pid == 0) {
				make_getppid_calls(CALLS);
				_exit(0);
			}
			ASSERT_LT(0, pid);
			waitpid(pid, &status, 0);
		}
		make_getppid_calls(7);
		outlast_clock_ticks();
		ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
		ASSERT_TRUE(counter_read(fd, &r));
		EXPECT_EQ(3 * CALLS + 7, r.value) TH_LOG("%s", backend_names[b]);
		EXPECT_LT(0, r.running);
		EXPECT_LE(r.running, r.enabled);
		close(fd);
	}
}

/* A CPU's counter sees what runs there, and nothing of another CPU. */
TEST(cpu_counter_counts_its_cpu)
{
	long id = tp_id("syscalls", "sys_enter_getppid");
	struct perf_counter_attr attr;
	char filter[64];
	enum backend b;
	int fd;

	SKIP_WITHOUT_EVENT(id, "syscalls", "sys_enter_getppid");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	snprintf(filter, sizeof(filter), "common_pid == %d", getpid());
	for (b = 0; b < NR_BACKENDS; b++) {
		if (!backend_present(b))
			continue;
		tp_attr(&attr, id, 0);
		fd = open_on(b, &attr, -1, 1);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", backend_names[b], strerror(errno));
		ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_SET_FILTER, filter));
		ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
		ASSERT_TRUE(pin_to_cpu(1));
		make_getppid_calls(CALLS);
		ASSERT_TRUE(pin_to_cpu(0));
		make_getppid_calls(CALLS / 2);
		pin_to_cpu(-1);
		ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
		EXPECT_EQ(CALLS, counter_value(fd)) TH_LOG("%s", backend_names[b]);
		close(fd);
	}
}

/*
 * Both system calls count the same workload at the same time: every
 * getppid, and every switch out of this task during a ping-pong.
 */
TEST(both_backends_count_the_same)
{
	long getppid_id = tp_id("syscalls", "sys_enter_getppid");
	long switch_id = tp_id("sched", "sched_switch");
	struct perf_counter_attr attr;
	int fd[NR_BACKENDS][2];
	__u64 n[NR_BACKENDS][2];
	enum backend b;
	int i;

	SKIP_WITHOUT_BOTH();
	SKIP_WITHOUT_EVENT(getppid_id, "syscalls", "sys_enter_getppid");
	SKIP_WITHOUT_EVENT(switch_id, "sched", "sched_switch");
	for (b = 0; b < NR_BACKENDS; b++) {
		tp_attr(&attr, getppid_id, 0);
		fd[b][0] = open_on(b, &attr, 0, -1);
		tp_attr(&attr, switch_id, 0);
		fd[b][1] = open_on(b, &attr, 0, -1);
		ASSERT_LE(0, fd[b][0]) TH_LOG("%s", backend_names[b]);
		ASSERT_LE(0, fd[b][1]) TH_LOG("%s", backend_names[b]);
	}
	for (b = 0; b < NR_BACKENDS; b++)
		for (i = 0; i < 2; i++)
			ioctl(fd[b][i], PERF_COUNTER_IOC_ENABLE, 0);
	make_getppid_calls(CALLS);
	ASSERT_TRUE(ping_pong(ROUNDS));
	for (b = NR_BACKENDS; b-- > 0;)
		for (i = 2; i-- > 0;)
			ioctl(fd[b][i], PERF_COUNTER_IOC_DISABLE, 0);
	for (b = 0; b < NR_BACKENDS; b++)
		for (i = 0; i < 2; i++) {
			n[b][i] = counter_value(fd[b][i]);
			close(fd[b][i]);
		}
	EXPECT_EQ(CALLS, n[BACKEND_COUNTER][0]);
	EXPECT_EQ(CALLS, n[BACKEND_EVENT][0]);
	EXPECT_LE(ROUNDS, n[BACKEND_COUNTER][1]);
	EXPECT_EQ(n[BACKEND_EVENT][1], n[BACKEND_COUNTER][1]);
}

/* One sample as the test asks for it: IP, TID, TIME, CPU, PERIOD, RAW. */
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)

struct sample {
	__u16	misc;
	__u16	size;
	__u64	ip;
	__u32	pid, tid;
	__u32	cpu;
	__u64	period;
	__u32	raw_size;
	__u8	raw[512];
};

struct samples {
	unsigned int	nr;
	unsigned int	other;		/* records that are no sample */
	unsigned int	bad;		/* samples that do not parse */
	struct sample	s[MAX_SAMPLES];
};

static void parse_sample(struct samples *out, const __u64 *body,
			 const struct perf_counter_header *h)
{
	struct sample *s = &out->s[out->nr];
	const __u8 *end = (const __u8 *)h + h->size;

	s->misc = h->misc;
	s->size = h->size;
	s->ip = body[0];
	s->pid = body[1];
	s->tid = body[1] >> 32;
	s->cpu = body[3];
	s->period = body[4];
	memcpy(&s->raw_size, &body[5], sizeof(s->raw_size));
	/* The u32 size and the record fill the rest, to the byte. */
	if ((const __u8 *)&body[5] + 4 + s->raw_size != end ||
	    s->raw_size > sizeof(s->raw)) {
		out->bad++;
		return;
	}
	memcpy(s->raw, (const __u8 *)&body[5] + 4, s->raw_size);
	out->nr++;
}

static void read_samples(struct ring *r, struct samples *out)
{
	__u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->page->data_tail;
	union {
		struct perf_counter_header h;
		__u64 words[8192];
	} rec;

	while (tail < head && out->nr < MAX_SAMPLES) {
		ring_copy(r, tail, &rec.h, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h)) {
			out->bad++;
			break;
		}
		ring_copy(r, tail, &rec, rec.h.size);
		if (rec.h.type == PERF_RECORD_SAMPLE)
			parse_sample(out, &rec.words[1], &rec.h);
		else
			out->other++;
		tail += rec.h.size;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

struct sampling {
	int		fd[NR_BACKENDS];
	struct ring	ring[NR_BACKENDS];
	struct samples	*got[NR_BACKENDS];
};

static bool sampling_open(struct sampling *sm, long id)
{
	struct perf_counter_attr attr;
	enum backend b;

	for (b = 0; b < NR_BACKENDS; b++) {
		tp_attr(&attr, id, SAMPLE_TYPE);
		sm->fd[b] = open_on(b, &attr, 0, -1);
		if (sm->fd[b] < 0 || !ring_map(&sm->ring[b], sm->fd[b], RING_PAGES))
			return false;
		sm->got[b] = calloc(1, sizeof(*sm->got[b]));
		if (!sm->got[b])
			return false;
	}
	for (b = 0; b < NR_BACKENDS; b++)
		ioctl(sm->fd[b], PERF_COUNTER_IOC_ENABLE, 0);
	return true;
}

static void sampling_close(struct sampling *sm)
{
	enum backend b;

	for (b = NR_BACKENDS; b-- > 0;)
		ioctl(sm->fd[b], PERF_COUNTER_IOC_DISABLE, 0);
	for (b = 0; b < NR_BACKENDS; b++) {
		read_samples(&sm->ring[b], sm->got[b]);
		ring_unmap(&sm->ring[b]);
		close(sm->fd[b]);
	}
}

static void sampling_free(struct sampling *sm)
{
	free(sm->got[BACKEND_COUNTER]);
	free(sm->got[BACKEND_EVENT]);
}

#define HEAD_FAILED()	(!_metadata->passed)

/*
 * The samples of both system calls, one by one: the same registers,
 * task, CPU and period, and the raw record byte for byte (it is the
 * same record, built once by the tracepoint).  Only the time differs.
 */
static void expect_same_samples(struct __test_metadata *_metadata,
				struct sampling *sm, long id)
{
	struct samples *c = sm->got[BACKEND_COUNTER], *e = sm->got[BACKEND_EVENT];
	unsigned int i;
	__u16 type;

	EXPECT_EQ(0, c->bad);
	EXPECT_EQ(0, e->bad);
	EXPECT_EQ(0, c->other);
	ASSERT_EQ(e->nr, c->nr);
	for (i = 0; i < c->nr; i++) {
		const struct sample *a = &c->s[i], *b = &e->s[i];

		ASSERT_EQ(b->size, a->size) TH_LOG("sample %u", i);
		EXPECT_EQ(b->misc, a->misc) TH_LOG("sample %u", i);
		EXPECT_EQ(b->ip, a->ip) TH_LOG("sample %u", i);
		EXPECT_EQ(b->pid, a->pid) TH_LOG("sample %u", i);
		EXPECT_EQ(b->tid, a->tid) TH_LOG("sample %u", i);
		EXPECT_EQ(b->cpu, a->cpu) TH_LOG("sample %u", i);
		EXPECT_EQ(b->period, a->period) TH_LOG("sample %u", i);
		ASSERT_EQ(b->raw_size, a->raw_size) TH_LOG("sample %u", i);
		EXPECT_EQ(0, memcmp(a->raw, b->raw, a->raw_size))
			TH_LOG("sample %u: raw records differ", i);
		/* The u32 size and the record end on a u64 boundary. */
		EXPECT_EQ(0, (4 + a->raw_size) % 8);
		/* The record starts with its common_type: the event id. */
		memcpy(&type, a->raw, sizeof(type));
		EXPECT_EQ(id, type);
		if (HEAD_FAILED())
			return;
	}
}

TEST(raw_samples_equal_across_backends)
{
	long getppid_id = tp_id("syscalls", "sys_enter_getppid");
	long switch_id = tp_id("sched", "sched_switch");
	struct sampling sm;
	int nr, pid;
	unsigned int i;

	SKIP_WITHOUT_BOTH();
	SKIP_WITHOUT_EVENT(getppid_id, "syscalls", "sys_enter_getppid");
	SKIP_WITHOUT_EVENT(switch_id, "sched", "sched_switch");

	ASSERT_TRUE(sampling_open(&sm, getppid_id)) TH_LOG("%s", strerror(errno));
	make_getppid_calls(ROUNDS);
	sampling_close(&sm);
	EXPECT_EQ(ROUNDS, sm.got[BACKEND_COUNTER]->nr);
	expect_same_samples(_metadata, &sm, getppid_id);
	/* sys_enter_getppid: __syscall_nr at offset 8, after the common fields. */
	for (i = 0; i < sm.got[BACKEND_COUNTER]->nr; i++) {
		memcpy(&nr, sm.got[BACKEND_COUNTER]->s[i].raw + 8, sizeof(nr));
		memcpy(&pid, sm.got[BACKEND_COUNTER]->s[i].raw + 4, sizeof(pid));
		EXPECT_EQ(SYS_getppid, nr);
		EXPECT_EQ(getpid(), pid);
		/* The registers of a system call are the user's. */
		EXPECT_EQ(PERF_RECORD_MISC_USER, sm.got[BACKEND_COUNTER]->s[i].misc &
			  PERF_RECORD_MISC_CPUMODE_MASK);
	}
	sampling_free(&sm);

	ASSERT_TRUE(sampling_open(&sm, switch_id)) TH_LOG("%s", strerror(errno));
	ASSERT_TRUE(ping_pong(ROUNDS));
	sampling_close(&sm);
	EXPECT_LE(ROUNDS, sm.got[BACKEND_COUNTER]->nr);
	expect_same_samples(_metadata, &sm, switch_id);
	sampling_free(&sm);
}

/*
 * A record that stands for many events (sched_stat_runtime counts the
 * nanoseconds its task ran) is one sample when PERF_SAMPLE_PERIOD is
 * asked for, whatever sample_period says, and its period is the count:
 * one sample per nanosecond would flood the buffer (and lose the other
 * records of a perf sched recording).
 */
TEST(weighted_record_is_one_sample)
{
	long runtime_id = tp_id("sched", "sched_stat_runtime");
	struct samples *got;
	struct sampling sm;
	__u64 runtime;
	unsigned int i;

	SKIP_WITHOUT_BOTH();
	SKIP_WITHOUT_EVENT(runtime_id, "sched", "sched_stat_runtime");

	ASSERT_TRUE(sampling_open(&sm, runtime_id)) TH_LOG("%s", strerror(errno));
	ASSERT_TRUE(ping_pong(ROUNDS));
	sampling_close(&sm);
	got = sm.got[BACKEND_COUNTER];
	EXPECT_LT(0, got->nr);
	EXPECT_EQ(0, got->bad);
	EXPECT_EQ(0, got->other) TH_LOG("records other than samples (THROTTLE?)");
	/*
	 * The two counters start and stop a moment apart, and a tick's
	 * record may fall in between: the same number of samples but for
	 * one at either end.
	 */
	EXPECT_GE(sm.got[BACKEND_EVENT]->nr + 2, got->nr);
	EXPECT_GE(got->nr + 2, sm.got[BACKEND_EVENT]->nr);
	/* comm[16], pid, then the u64 runtime: the record's count. */
	for (i = 0; i < got->nr; i++) {
		memcpy(&runtime, got->s[i].raw + 32, sizeof(runtime));
		EXPECT_EQ(runtime, got->s[i].period) TH_LOG("sample %u", i);
		/* Records differ (vruntime grows): a repeated one is a flood. */
		if (i)
			EXPECT_NE(0, memcmp(got->s[i].raw, got->s[i - 1].raw,
					    got->s[i].raw_size))
				TH_LOG("sample %u repeats the record of the last", i);
		if (HEAD_FAILED())
			break;
	}
	sampling_free(&sm);
}

/* Raw records are kernel data: the permission sampling them needs. */
static int open_as_nobody(long id, __u64 sample_type)
{
	struct perf_counter_attr attr;
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(100);
		tp_attr(&attr, id, sample_type);
		fd = counter_open(&attr, 0, -1, -1, 0);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static bool write_paranoid(const char *path, int level)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%d\n", level) > 0;
	return fclose(f) == 0 && ok;
}

TEST(raw_samples_need_permission)
{
	long switch_id = tp_id("sched", "sched_switch");
	long getppid_id = tp_id("syscalls", "sys_enter_getppid");
	const char *path = backend_is_counter() ? COUNTER_PARANOID : EVENT_PARANOID;
	int level = paranoid_level();

	SKIP_WITHOUT_EVENT(switch_id, "sched", "sched_switch");
	SKIP_WITHOUT_EVENT(getppid_id, "syscalls", "sys_enter_getppid");
	if (getuid() != 0)
		SKIP(return, "needs root to change users and the paranoid level");
	/* Level 1: kernel-mode counting on one's own tasks is allowed. */
	ASSERT_TRUE(write_paranoid(path, 1)) TH_LOG("%s: %s", path, strerror(errno));
	EXPECT_EQ(0, open_as_nobody(switch_id, 0));
	EXPECT_EQ(EPERM, open_as_nobody(switch_id, SAMPLE_TYPE));
	EXPECT_EQ(0, open_as_nobody(switch_id, SAMPLE_TYPE & ~PERF_SAMPLE_RAW));
	/* System call records are marked safe for anybody on their own task. */
	EXPECT_EQ(0, open_as_nobody(getppid_id, SAMPLE_TYPE));
	ASSERT_TRUE(write_paranoid(path, -1));
	EXPECT_EQ(0, open_as_nobody(switch_id, SAMPLE_TYPE));
	ASSERT_TRUE(write_paranoid(path, level));
}

/* A function for a uprobe to hit; noinline so that it has an address. */
static __attribute__((noinline)) int uprobe_target(int x)
{
	asm volatile("" : : : "memory");
	return x + 1;
}

/* The file offset of @addr in the executable mapping that holds it. */
static long exe_offset(unsigned long addr, char *file, size_t len)
{
	unsigned long start, end, pgoff;
	char line[512], perms[8];
	long off = -1;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %511s", &start, &end,
			   perms, &pgoff, file) != 5)
			continue;
		if (addr >= start && addr < end && perms[2] == 'x') {
			off = addr - start + pgoff;
			break;
		}
	}
	fclose(f);
	file[len - 1] = 0;
	return off;
}

static void call_uprobe_target(int n)
{
	volatile int sink = 0;
	int i;

	for (i = 0; i < n; i++)
		sink = uprobe_target(sink);
}

TEST(kprobe_event_counts_calls)
{
	char path[256];

	if (!tracefs())
		SKIP(return, "no tracefs");
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs());
	if (access(path, W_OK))
		SKIP(return, "no kprobe events (CONFIG_KPROBE_EVENTS) or not root");
	tracefs_write("kprobe_events", "-:pctest/getppid\n");
	ASSERT_EQ(0, tracefs_write("kprobe_events",
				   "p:pctest/getppid __x64_sys_getppid\n"));
	expect_exact_count(_metadata, "pctest", "getppid", make_getppid_calls);
	EXPECT_EQ(0, tracefs_write("kprobe_events", "-:pctest/getppid\n"));
}

TEST(uprobe_event_counts_calls)
{
	char path[256], file[512], line[700];
	long off;

	if (!tracefs())
		SKIP(return, "no tracefs");
	snprintf(path, sizeof(path), "%s/uprobe_events", tracefs());
	if (access(path, W_OK))
		SKIP(return, "no uprobe events (CONFIG_UPROBE_EVENTS) or not root");
	off = exe_offset((unsigned long)uprobe_target, file, sizeof(file));
	ASSERT_LE(0, off) TH_LOG("uprobe_target not in an executable mapping");
	snprintf(line, sizeof(line), "p:pctest/target %s:0x%lx\n", file, off);
	tracefs_write("uprobe_events", "-:pctest/target\n");
	ASSERT_EQ(0, tracefs_write("uprobe_events", line)) TH_LOG("%s", line);
	expect_exact_count(_metadata, "pctest", "target", call_uprobe_target);
	EXPECT_EQ(0, tracefs_write("uprobe_events", "-:pctest/target\n"));
}

/*
 * Tracepoints in NMI context while task-context writers hold the buffer.
 * Per CPU, one buffer takes the raw samples of every system call entry
 * there and of every NMI handler run (nmi:nmi_handler, raised in NMI
 * context), while a thread on each CPU makes system calls and the
 * kernel's test NMIs (debugfs perf_counter/test_nmi) hit it.  Every
 * record must be whole, on its CPU, of its counter and event, and the
 * samples plus the records reported lost must equal what the counters
 * counted: nothing is torn and nothing vanishes.
 */
#define TEST_NMI	"/sys/kernel/debug/perf_counter/test_nmi"
#define NMI_CPUS	8
#define NMI_RING_PAGES	64
#define NMI_ROUNDS	2000
#define NMI_SAMPLE_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)
/* pid/tid, time, id, cpu, period, then the raw size */
#define NMI_FIXED	5

struct nmi_cpu {
	int		fd[2];		/* sys_enter, nmi_handler */
	__u64		id[2];
	long		tp[2];
	struct ring	ring;
	__u64		samples[2], lost, bad;
	char		first_bad[96];
};

static volatile int nmi_test_stop;

static void nmi_bad(struct nmi_cpu *c, const struct perf_counter_header *h,
		    const char *why)
{
	if (!c->bad++)
		snprintf(c->first_bad, sizeof(c->first_bad),
			 "type %u size %u: %s", h->type, h->size, why);
}

static void nmi_check_sample(struct nmi_cpu *c, int cpu, const __u64 *v,
			     const struct perf_counter_header *h)
{
	__u32 raw_size;
	__u16 type;
	int k;

	memcpy(&raw_size, &v[NMI_FIXED], sizeof(raw_size));
	if (sizeof(*h) + NMI_FIXED * 8 + 4 + raw_size != h->size ||
	    raw_size < 8)
		return nmi_bad(c, h, "raw size and record size disagree");
	k = v[2] == c->id[0] ? 0 : v[2] == c->id[1] ? 1 : -1;
	if (k < 0)
		return nmi_bad(c, h, "sample of another counter");
	if ((__u32)v[3] != cpu || v[4] != 1)
		return nmi_bad(c, h, "wrong cpu or period");
	/* The record starts with its event's id (common_type). */
	memcpy(&type, (const char *)&v[NMI_FIXED] + 4, sizeof(type));
	if (type != c->tp[k])
		return nmi_bad(c, h, "raw record of another event");
	c->samples[k]++;
}

static void nmi_drain(struct nmi_cpu *c, int cpu)
{
	__u64 head = __atomic_load_n(&c->ring.page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = c->ring.page->data_tail;
	union {
		struct perf_counter_header h;
		__u64 words[512];
	} rec;

	while (tail < head) {
		ring_copy(&c->ring, tail, &rec.h, sizeof(rec.h));
		if (rec.h.size < sizeof(rec.h) || rec.h.size % 8 ||
		    rec.h.size > sizeof(rec) || tail + rec.h.size > head) {
			nmi_bad(c, &rec.h, "header breaks the ring");
			break;
		}
		ring_copy(&c->ring, tail, &rec, rec.h.size);
		if (rec.h.type == PERF_RECORD_SAMPLE)
			nmi_check_sample(c, cpu, &rec.words[1], &rec.h);
		else if (rec.h.type == PERF_RECORD_LOST)
			c->lost += rec.words[2];
		else
			nmi_bad(c, &rec.h, "neither a sample nor lost");
		tail += rec.h.size;
	}
	__atomic_store_n(&c->ring.page->data_tail, tail, __ATOMIC_RELEASE);
}

static void *nmi_writer(void *arg)
{
	pin_to_cpu((long)arg);
	while (!nmi_test_stop)
		syscall(SYS_getppid);
	return NULL;
}

/* From each CPU in turn, NMIs to the others: -errno or 0. */
static void *nmi_sender(void *arg)
{
	long nr_cpus = (long)arg, round, err = 0;
	char line[16];
	int fd;

	fd = open(TEST_NMI, O_WRONLY);
	if (fd < 0)
		return (void *)(long)-errno;
	snprintf(line, sizeof(line), "%d", NMI_ROUNDS / 10);
	for (round = 0; round < 10 * nr_cpus && !err; round++) {
		pin_to_cpu(round % nr_cpus);
		if (write(fd, line, strlen(line)) < 0)
			err = -errno;
	}
	close(fd);
	return (void *)err;
}

static bool nmi_cpu_open(struct nmi_cpu *c, int cpu)
{
	struct perf_counter_attr attr;
	int k;

	c->tp[0] = tp_id("raw_syscalls", "sys_enter");
	c->tp[1] = tp_id("nmi", "nmi_handler");
	for (k = 0; k < 2; k++) {
		tp_attr(&attr, c->tp[k], NMI_SAMPLE_TYPE);
		attr.sample_id_all = 1;
		attr.wakeup_events = 0;
		c->fd[k] = counter_open(&attr, -1, cpu, -1, 0);
		if (c->fd[k] < 0)
			return false;
		c->id[k] = counter_id(c->fd[k]);
	}
	return ring_map(&c->ring, c->fd[0], NMI_RING_PAGES) &&
	       ioctl(c->fd[1], PERF_COUNTER_IOC_SET_OUTPUT, c->fd[0]) == 0;
}

TEST(nmi_tracepoints_nest_in_task_writers)
{
	long nr_cpus = sysconf(_SC_NPROCESSORS_ONLN), before, sent, cpu;
	pthread_t writers[NMI_CPUS], sender;
	struct nmi_cpu *cpus;
	__u64 counted, nmi_counted = 0;
	void *err;
	int k;

	if (tp_id("nmi", "nmi_handler") < 0 || tp_id("raw_syscalls", "sys_enter") < 0)
		SKIP(return, "no nmi:nmi_handler or raw_syscalls:sys_enter event");
	before = read_number(TEST_NMI);
	if (before < 0)
		SKIP(return, "no %s: a kernel without the perf_counter test NMIs",
		     TEST_NMI);
	if (nr_cpus < 2 || nr_cpus > NMI_CPUS)
		SKIP(return, "needs 2 to %d CPUs, not %ld", NMI_CPUS, nr_cpus);
	cpus = calloc(nr_cpus, sizeof(*cpus));
	ASSERT_NE(NULL, cpus);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		ASSERT_TRUE(nmi_cpu_open(&cpus[cpu], cpu))
			TH_LOG("cpu %ld: %s", cpu, strerror(errno));
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (k = 0; k < 2; k++)
			ioctl(cpus[cpu].fd[k], PERF_COUNTER_IOC_ENABLE, 0);

	for (cpu = 0; cpu < nr_cpus; cpu++)
		ASSERT_EQ(0, pthread_create(&writers[cpu], NULL, nmi_writer,
					    (void *)cpu));
	ASSERT_EQ(0, pthread_create(&sender, NULL, nmi_sender,
				    (void *)nr_cpus));
	while (pthread_tryjoin_np(sender, &err) == EBUSY) {
		for (cpu = 0; cpu < nr_cpus; cpu++)
			nmi_drain(&cpus[cpu], cpu);
		usleep(1000);
	}
	nmi_test_stop = 1;
	for (cpu = 0; cpu < nr_cpus; cpu++)
		pthread_join(writers[cpu], NULL);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (k = 0; k < 2; k++)
			ioctl(cpus[cpu].fd[k], PERF_COUNTER_IOC_DISABLE, 0);
	sent = read_number(TEST_NMI) - before;
	EXPECT_EQ(0, (long)err) TH_LOG("sending NMIs: %s", strerror(-(long)err));

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct nmi_cpu *c = &cpus[cpu];

		nmi_drain(c, cpu);
		counted = counter_value(c->fd[0]) + counter_value(c->fd[1]);
		nmi_counted += counter_value(c->fd[1]);
		TH_LOG("cpu %ld: %llu + %llu samples, %llu lost, %llu counted",
		       cpu, c->samples[0], c->samples[1], c->lost, counted);
		EXPECT_EQ(0, c->bad) TH_LOG("cpu %ld: %s", cpu, c->first_bad);
		EXPECT_EQ(counted, c->samples[0] + c->samples[1] + c->lost);
		EXPECT_LT(0, c->samples[0]);
		EXPECT_LT(0, c->samples[1]);
		ring_unmap(&c->ring);
		close(c->fd[1]);
		close(c->fd[0]);
	}
	/* Each of our NMIs ran at least our handler. */
	EXPECT_LE(sent, (long)nmi_counted);
	EXPECT_EQ(NMI_ROUNDS * nr_cpus * (nr_cpus - 1), sent);
	free(cpus);
}

TEST_HARNESS_MAIN
