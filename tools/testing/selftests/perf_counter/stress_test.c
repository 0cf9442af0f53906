// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling under churn: threads burning CPU and faulting on both CPUs,
 * threads and processes created and reaped all the time, clocks sampling
 * at 10 kHz and every fault and switch sampled, all of it written into
 * one buffer through inheritance and SET_OUTPUT while it is read.  Every
 * record must parse; the kernel's own checks (lockdep, KASAN, with the
 * debug kernel) watch the rest on the console.
 *
 * A second test tears everything down while the writers run: buffers
 * unmapped and counters closed under the feet of their inherited clones
 * and of CPU-wide counters sampling in interrupts on both CPUs, children
 * forked with the counters and exiting, the last reference to a buffer
 * dropped (SET_OUTPUT back to none) while a task on the other CPU
 * writes through it, and CPU 1 taken offline and back all the while.
 * What it checks is that the kernel survives it cleanly: a buffer, or
 * the counter that owns it, freed while a writer still uses it is what
 * KASAN reports on the console of the debug kernel.
 *
 * A third test, where there is a hardware PMU (the PMU model of test
 * kernels), adds cycles sampling on every CPU, written from the PMU's
 * NMI into the buffers the CPU's timer interrupt and scheduler write
 * into, and accounts for every overflow the NMI handler took.
 *
 * PERF_COUNTER_STRESS_SECONDS sets how long each test runs (default 5;
 * 'make vmcheck STRESS=1' runs 300, ten minutes in all).
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>

#include "counter_test.h"

#define BUFFER_PAGES	16
#define WORKERS		4
#define MAX_COUNTERS	4
/* The task counters and three a CPU, on up to four CPUs. */
#define MAX_IDS		16

static volatile int stop_workers;

static void *short_thread(void *arg)
{
	burn_cpu();
	return NULL;
}

/* Burn, fault, and start and reap a thread and a process per round. */
static void *worker(void *arg)
{
	pthread_t t;
	pid_t child;

	while (!stop_workers) {
		burn_cpu();
		touch_fresh_pages(8);
		if (!pthread_create(&t, NULL, short_thread, NULL))
			pthread_join(t, NULL);
		child = fork();
		if (child == 0) {
			touch_fresh_pages(4);
			_exit(0);
		}
		if (child > 0)
			waitpid(child, NULL, 0);
		usleep(50);
	}
	return NULL;
}

struct stress {
	__u64	ids[MAX_IDS];
	__u64	id_samples[MAX_IDS];	/* samples read, by counter */
	int	nr_ids;
	long	nr_cpus;
	__u64	samples, lost, side_band, throttle, bad;
	char	first_bad[128];
};

#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_CALLCHAIN)
/* ip, pid/tid, time, id, cpu, period, then the chain's nr */
#define SAMPLE_FIXED	7
/* sample_id_all: pid/tid, time, id, cpu */
#define ID_FIELDS	4

static void mark_bad(struct stress *s, const struct perf_counter_header *h,
		     const char *why)
{
	if (!s->bad++)
		snprintf(s->first_bad, sizeof(s->first_bad),
			 "type %u size %u: %s", h->type, h->size, why);
}

/* Where @id is in s->ids, or -1. */
static int id_index(const struct stress *s, __u64 id)
{
	int i;

	for (i = 0; i < s->nr_ids; i++)
		if (s->ids[i] == id)
			return i;
	return -1;
}

static void check_sample(struct stress *s, const struct perf_counter_header *h)
{
	const __u64 *v = (const __u64 *)(h + 1);
	__u64 nr = v[6];
	int idx;

	if (h->size < sizeof(*h) + SAMPLE_FIXED * 8 || nr > 127 + 2 ||
	    h->size != sizeof(*h) + (SAMPLE_FIXED + nr) * 8)
		return mark_bad(s, h, "sample size and chain length disagree");
	idx = id_index(s, v[3]);
	if (idx < 0)
		return mark_bad(s, h, "sample of an unknown counter");
	if ((__u32)v[4] >= s->nr_cpus)
		return mark_bad(s, h, "sample from a CPU that is not there");
	if (!v[5])
		return mark_bad(s, h, "sample with period 0");
	s->id_samples[idx]++;
	s->samples++;
}

/* The fixed body size of a side-band record type, -1 if variable. */
static int side_band_body(__u32 type)
{
	switch (type) {
	case PERF_RECORD_LOST:
		return 16;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return 24;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return 24;
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return -1;
	}
	return -2;
}

static void check_record(struct stress *s, const struct perf_counter_header *h)
{
	const __u64 *v = (const __u64 *)(h + 1);
	int body;

	if (h->type == PERF_RECORD_SAMPLE)
		return check_sample(s, h);
	body = side_band_body(h->type);
	if (body == -2)
		return mark_bad(s, h, "unknown record type");
	if (body >= 0 && h->size != sizeof(*h) + body + ID_FIELDS * 8)
		return mark_bad(s, h, "wrong size for its type");
	if (body < 0 && h->size < sizeof(*h) + 16 + ID_FIELDS * 8)
		return mark_bad(s, h, "record too short for its type");
	/* sample_id_all: the id is the last field but the cpu. */
	if (id_index(s, v[(h->size - sizeof(*h)) / 8 - 2]) < 0)
		return mark_bad(s, h, "side-band record of an unknown counter");
	if (h->type == PERF_RECORD_LOST)
		s->lost += v[1];
	else if (h->type == PERF_RECORD_THROTTLE)
		s->throttle++;
	else
		s->side_band++;
}

/* Read everything published; false once a record is corrupt. */
static bool drain(struct perf_counter_mmap_page *page, char *data,
		  size_t size, struct stress *s)
{
	__u64 head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = page->data_tail;
	static union {
		struct perf_counter_header h;
		char bytes[65536];
	} rec;
	size_t off, first;

	while (tail < head) {
		off = tail & (size - 1);
		first = size - off < sizeof(rec.h) ? size - off : sizeof(rec.h);
		memcpy(&rec.h, data + off, first);
		memcpy((char *)&rec.h + first, data, sizeof(rec.h) - first);
		if (rec.h.size < sizeof(rec.h) || rec.h.size % 8 ||
		    tail + rec.h.size > head) {
			mark_bad(s, &rec.h, "header breaks the ring");
			return false;
		}
		first = size - off < rec.h.size ? size - off : rec.h.size;
		memcpy(rec.bytes, data + off, first);
		memcpy(rec.bytes + first, data, rec.h.size - first);
		check_record(s, &rec.h);
		tail += rec.h.size;
	}
	__atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
	return true;
}

static int open_stress_counter(__u64 config, __u64 period, bool side_band)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.sample_period = period;
	attr.sample_type = SAMPLE_TYPE;
	attr.sample_id_all = 1;
	attr.read_format = PERF_FORMAT_LOST;
	attr.inherit = 1;
	attr.disabled = 1;
	attr.wakeup_events = 16;
	attr.comm = side_band;
	attr.mmap = side_band;
	attr.task = side_band;
	return counter_open(&attr, 0, -1, -1, 0);
}

static __u64 monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned int stress_seconds(void)
{
	const char *env = getenv("PERF_COUNTER_STRESS_SECONDS");

	/* Well inside the test's time-out, also on an emulated CPU. */
	return env && atoi(env) > 0 && atoi(env) <= 300 ? atoi(env) : 5;
}

#define MAX_RATE_PATH	"/proc/sys/kernel/perf_counter_max_sample_rate"

/*
 * A fixture for its time-out (a run may be longer than 30 s), and to
 * restore the sample rate limit a test raised, however the test ends.
 */
FIXTURE(stress) {
	int	saved_rate;	/* -1: not changed */
};

FIXTURE_SETUP(stress)
{
	self->saved_rate = -1;
}

FIXTURE_TEARDOWN(stress)
{
	if (self->saved_rate >= 0)
		write_int_file(MAX_RATE_PATH, self->saved_rate);
}

TEST_F_TIMEOUT(stress, churn_on_both_cpus_keeps_every_record_whole, 600)
{
	static const __u64 configs[MAX_COUNTERS][2] = {
		{ PERF_COUNT_SW_CPU_CLOCK, 100000 },
		{ PERF_COUNT_SW_TASK_CLOCK, 100000 },
		{ PERF_COUNT_SW_PAGE_FAULTS, 1 },
		{ PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	};
	long page_size = sysconf(_SC_PAGESIZE);
	struct stress s = { .nr_cpus = sysconf(_SC_NPROCESSORS_ONLN) };
	pthread_t workers[WORKERS];
	int fds[MAX_COUNTERS], i;
	unsigned int seconds = stress_seconds();
	struct perf_counter_mmap_page *page;
	__u64 start;
	void *base;

	if (!backend_is_counter())
		SKIP(return, "perf_event_open maps no inherited per-task counter");
	for (i = 0; i < MAX_COUNTERS; i++) {
		fds[i] = open_stress_counter(configs[i][0], configs[i][1], !i);
		ASSERT_LE(0, fds[i]) TH_LOG("open: %s", strerror(errno));
		s.ids[s.nr_ids++] = counter_id(fds[i]);
	}
	base = mmap(NULL, (BUFFER_PAGES + 1) * page_size,
		    PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
	ASSERT_NE(MAP_FAILED, base) TH_LOG("mmap: %s", strerror(errno));
	page = base;
	for (i = 1; i < MAX_COUNTERS; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_COUNTER_IOC_SET_OUTPUT, fds[0]));
	for (i = 0; i < MAX_COUNTERS; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_COUNTER_IOC_ENABLE, 0));

	for (i = 0; i < WORKERS; i++)
		ASSERT_EQ(0, pthread_create(&workers[i], NULL, worker, NULL));
	start = monotonic_ns();
	while (monotonic_ns() - start < seconds * 1000000000ULL) {
		if (!drain(page, (char *)base + page_size,
			   BUFFER_PAGES * page_size, &s))
			break;
		usleep(1000);
	}
	stop_workers = 1;
	for (i = 0; i < WORKERS; i++)
		pthread_join(workers[i], NULL);
	for (i = 0; i < MAX_COUNTERS; i++)
		ioctl(fds[i], PERF_COUNTER_IOC_DISABLE, 0);
	drain(page, (char *)base + page_size, BUFFER_PAGES * page_size, &s);

	TH_LOG("%u s: %llu samples, %llu lost, %llu side-band, %llu throttled",
	       seconds, s.samples, s.lost, s.side_band, s.throttle);
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.first_bad);
	EXPECT_LT(0, s.samples);
	EXPECT_LT(0, s.side_band);
	munmap(base, (BUFFER_PAGES + 1) * page_size);
	for (i = 0; i < MAX_COUNTERS; i++)
		close(fds[i]);
}

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static volatile int stop_hotplug;

static bool write_online(int fd, char c)
{
	return pwrite(fd, &c, 1, 0) == 1;
}

/*
 * Take CPU 1 offline and back, over and over, with a little work in
 * between each way; counts the completed cycles in *arg.
 */
static void *hotplug_cycles(void *arg)
{
	unsigned long *cycles = arg;
	int fd = open(CPU1_ONLINE, O_WRONLY);

	if (fd < 0)
		return NULL;
	while (!stop_hotplug) {
		if (!write_online(fd, '0'))
			break;
		burn_cpu();
		if (!write_online(fd, '1'))
			break;
		burn_cpu();
		(*cycles)++;
	}
	write_online(fd, '1');
	close(fd);
	return NULL;
}

/*
 * A buffer of @pages data pages on @fd; NULL if mmap() failed.  Mapped
 * read-only it overwrites: every record is written whole, never refused
 * for want of room, however long nobody reads.
 */
static void *map_buffer(int fd, unsigned int pages, int prot)
{
	void *base = mmap(NULL, (pages + 1) * sysconf(_SC_PAGESIZE),
			  prot, MAP_SHARED, fd, 0);

	return base == MAP_FAILED ? NULL : base;
}

static void unmap_buffer(void *base, unsigned int pages)
{
	if (base)
		munmap(base, (pages + 1) * sysconf(_SC_PAGESIZE));
}

/*
 * A CPU-wide clock sampling at 10 kHz on @cpu, and every switch there,
 * into one buffer, writing from the timer interrupt and the scheduler.
 * -1 where the CPU is offline just now.
 */
static int open_cpu_sampler(int cpu, __u64 config, __u64 period)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, config);
	attr.sample_period = period;
	attr.sample_type = SAMPLE_TYPE;
	attr.sample_id_all = 1;
	attr.wakeup_events = 1;
	return counter_open(&attr, -1, cpu, -1, 0);
}

/* What one round of teardown opened. */
struct teardown_round {
	int	task_fds[MAX_COUNTERS];
	void	*task_buffer;
	int	cpu_fds[2][2];
	void	*cpu_buffers[2];
	pid_t	children[WORKERS];
};

static void open_round(struct teardown_round *r)
{
	static const __u64 task_configs[MAX_COUNTERS][2] = {
		{ PERF_COUNT_SW_TASK_CLOCK, 100000 },
		{ PERF_COUNT_SW_CPU_CLOCK, 100000 },
		{ PERF_COUNT_SW_PAGE_FAULTS, 1 },
		{ PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	};
	int i, cpu;

	for (i = 0; i < MAX_COUNTERS; i++) {
		r->task_fds[i] = open_stress_counter(task_configs[i][0],
						     task_configs[i][1], !i);
		if (i && r->task_fds[i] >= 0 && r->task_fds[0] >= 0)
			ioctl(r->task_fds[i], PERF_COUNTER_IOC_SET_OUTPUT,
			      r->task_fds[0]);
	}
	r->task_buffer = r->task_fds[0] < 0 ? NULL :
			 map_buffer(r->task_fds[0], 2, PROT_READ | PROT_WRITE);
	for (i = 0; i < MAX_COUNTERS; i++)
		if (r->task_fds[i] >= 0)
			ioctl(r->task_fds[i], PERF_COUNTER_IOC_ENABLE, 0);

	for (cpu = 0; cpu < 2; cpu++) {
		r->cpu_fds[cpu][0] = open_cpu_sampler(cpu,
						      PERF_COUNT_SW_CPU_CLOCK,
						      100000);
		r->cpu_fds[cpu][1] = open_cpu_sampler(cpu,
						      PERF_COUNT_SW_CONTEXT_SWITCHES,
						      1);
		r->cpu_buffers[cpu] = r->cpu_fds[cpu][0] < 0 ? NULL :
				      map_buffer(r->cpu_fds[cpu][0], 1,
						 PROT_READ | PROT_WRITE);
		if (r->cpu_fds[cpu][0] >= 0 && r->cpu_fds[cpu][1] >= 0)
			ioctl(r->cpu_fds[cpu][1], PERF_COUNTER_IOC_SET_OUTPUT,
			      r->cpu_fds[cpu][0]);
	}
}

/* Children that inherit the task counters: they burn, fault and fork. */
static void fork_writers(struct teardown_round *r)
{
	int i, j;

	for (i = 0; i < WORKERS; i++) {
		r->children[i] = fork();
		if (r->children[i] == 0) {
			for (j = 0; j < 4; j++) {
				burn_cpu();
				touch_fresh_pages(8);
				if (fork() == 0) {
					touch_fresh_pages(4);
					_exit(0);
				}
				wait(NULL);
			}
			_exit(0);
		}
	}
}

static void close_fds(int *fds, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/*
 * Let go of the counters and buffers of a round, while the children may
 * still write through their clones and the CPU-wide counters sample:
 * the mapping first or the counters first, as @round says.
 */
static void release_round(struct teardown_round *r, unsigned long round)
{
	int cpu;

	if (round & 1) {
		unmap_buffer(r->task_buffer, 2);
		close_fds(r->task_fds, MAX_COUNTERS);
	} else {
		close_fds(r->task_fds, MAX_COUNTERS);
		unmap_buffer(r->task_buffer, 2);
	}
	for (cpu = 0; cpu < 2; cpu++) {
		close_fds(r->cpu_fds[cpu], 2);
		unmap_buffer(r->cpu_buffers[cpu], 1);
	}
}

/* Reap the children of a round; the number that did not exit with 0. */
static int reap_round(struct teardown_round *r)
{
	int i, status, bad = 0;

	for (i = 0; i < WORKERS; i++) {
		if (r->children[i] <= 0)
			continue;
		if (waitpid(r->children[i], &status, 0) != r->children[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	}
	return bad;
}

/* A child that faults until killed: a writer that never pauses. */
static pid_t start_faulter(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			touch_fresh_pages(8);
	return pid;
}

/* Every fault of @pid sampled, as one of its own counters. */
static int open_fault_sampler_on(pid_t pid)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = SAMPLE_TYPE;
	attr.sample_id_all = 1;
	return counter_open(&attr, pid, -1, -1, 0);
}

#define REDIRECTS	64
#define PEERS		3

/*
 * Counters on @faulter, running on another CPU, that write into one
 * buffer (overwriting, so that each fault writes a whole sample): the
 * one that mapped it and PEERS sent there with SET_OUTPUT.
 * Unmapped and closed, the buffer lives on through the peers, and the
 * last of them sent back to no buffer drops the last reference while
 * the faulter may be writing through it that very moment: the buffer
 * must wait for that writer to finish.  Returns the opens that failed.
 */
static int redirect_races(pid_t faulter)
{
	int i, j, owner, peers[PEERS], failed = 0;
	void *base;

	for (i = 0; i < REDIRECTS; i++) {
		owner = open_fault_sampler_on(faulter);
		if (owner < 0)
			return failed + 1;
		base = map_buffer(owner, 1, PROT_READ);
		for (j = 0; j < PEERS; j++) {
			peers[j] = open_fault_sampler_on(faulter);
			if (peers[j] < 0 ||
			    ioctl(peers[j], PERF_COUNTER_IOC_SET_OUTPUT, owner))
				failed++;
		}
		unmap_buffer(base, 1);
		close(owner);
		for (j = 0; j < PEERS; j++) {
			if (peers[j] < 0)
				continue;
			ioctl(peers[j], PERF_COUNTER_IOC_SET_OUTPUT, -1);
			close(peers[j]);
		}
		if (!base)
			failed++;
	}
	return failed;
}

/*
 * Every third round the children are reaped before the release (their
 * clones exit first), the others after it (the clones outlive the
 * counters and the mapping they write into).
 */
static int teardown(struct teardown_round *r, unsigned long round)
{
	int bad = 0;

	if (round % 3 == 0)
		bad = reap_round(r);
	release_round(r, round);
	if (round % 3)
		bad = reap_round(r);
	return bad;
}

TEST_F_TIMEOUT(stress, teardown_races_writers_and_hotplug, 600)
{
	unsigned int seconds = stress_seconds();
	unsigned long rounds = 0, hotplugs = 0;
	pthread_t workers[WORKERS], hotplug;
	int i, bad = 0, failed = 0;
	struct teardown_round r;
	bool hotplugging;
	pid_t faulter;
	__u64 start;

	if (!backend_is_counter())
		SKIP(return, "perf_event_open maps no inherited per-task counter");
	hotplugging = access(CPU1_ONLINE, W_OK) == 0;
	if (hotplugging)
		ASSERT_EQ(0, pthread_create(&hotplug, NULL, hotplug_cycles,
					    &hotplugs));
	faulter = start_faulter();
	ASSERT_LT(0, faulter);
	stop_workers = 0;
	for (i = 0; i < WORKERS; i++)
		ASSERT_EQ(0, pthread_create(&workers[i], NULL, worker, NULL));

	start = monotonic_ns();
	while (monotonic_ns() - start < seconds * 1000000000ULL) {
		open_round(&r);
		ASSERT_LE(0, r.task_fds[0]) TH_LOG("open: %s", strerror(errno));
		ASSERT_NE(NULL, r.task_buffer) TH_LOG("mmap: %s", strerror(errno));
		fork_writers(&r);
		failed += redirect_races(faulter);
		bad += teardown(&r, rounds);
		rounds++;
	}
	kill(faulter, SIGKILL);
	waitpid(faulter, NULL, 0);

	stop_workers = 1;
	for (i = 0; i < WORKERS; i++)
		pthread_join(workers[i], NULL);
	if (hotplugging) {
		stop_hotplug = 1;
		pthread_join(hotplug, NULL);
	}
	TH_LOG("%u s: %lu rounds, %lu offline/online cycles of CPU 1%s",
	       seconds, rounds, hotplugs,
	       hotplugging ? "" : " (" CPU1_ONLINE " is not writable)");
	EXPECT_EQ(0, bad) TH_LOG("%d writer children failed", bad);
	EXPECT_EQ(0, failed) TH_LOG("%d opens, mappings or redirections failed",
				    failed);
	EXPECT_LT(0, rounds);
	if (hotplugging)
		EXPECT_LT(0, hotplugs);
}

#define MODEL_PATH	"/sys/kernel/debug/perf_counter_model"
#define MAX_CPUS	4

/*
 * The PMU model's rate (events a microsecond) and the overflows the
 * backend's NMI handler has taken since boot; false without the model.
 */
static bool model_overflows(__u64 *rate, __u64 *overflows)
{
	FILE *f = fopen(MODEL_PATH, "r");
	unsigned long long v;
	bool got_rate = false, got_overflows = false;
	char line[128], *p;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, " rate=");
		if (p && sscanf(p, " rate=%llu", &v) == 1) {
			*rate = v;
			got_rate = true;
		}
		if (sscanf(line, "overflows_handled %llu", &v) == 1) {
			*overflows = v;
			got_overflows = true;
		}
	}
	fclose(f);
	return got_rate && got_overflows;
}

/*
 * A counter on all of @cpu sampling every @period events, whose read()
 * gives its value and the samples it lost.  It starts disabled: until
 * its buffer is mapped, an overflow has nowhere to write and is neither
 * a sample nor lost.  -1 with ENODEV where the CPU is offline.
 */
static int open_cpu_counter(int cpu, __u32 type, __u64 config, __u64 period)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, type, config);
	attr.sample_period = period;
	attr.sample_type = SAMPLE_TYPE;
	attr.sample_id_all = 1;
	attr.read_format = PERF_FORMAT_LOST;
	attr.wakeup_events = 16;
	attr.disabled = 1;
	return counter_open(&attr, -1, cpu, -1, 0);
}

/* Why the cycles accounting cannot run here, or NULL. */
static const char *no_pmu_model(__u64 *rate, __u64 *overflows)
{
	const char *why = no_hw_counters();

	if (why)
		return why;
	if (!model_overflows(rate, overflows))
		return "no PMU model: " MODEL_PATH " is absent";
	return NULL;
}

/* What one CPU has: cycles, its clock and its switches, one buffer. */
struct cpu_writers {
	int	fds[3];
	int	cycles_idx;	/* of the cycles counter in s.ids */
	void	*buffer;
};

static bool drain_buffer(void *base, struct stress *s)
{
	long page_size = sysconf(_SC_PAGESIZE);

	return drain(base, (char *)base + page_size, BUFFER_PAGES * page_size,
		     s);
}

/*
 * On every CPU cycles sample every 100 us of the model's counting, from
 * the PMU's NMI, into a buffer that the CPU's clock (sampling at 10 kHz
 * from its timer interrupt) and its context switches (from the
 * scheduler) write into as well, while the churn's workers and
 * inherited task counters run and the buffers are read.  Nothing is
 * throttled (the limit is raised): every overflow the backend's NMI
 * handler takes is a cycles sample read from a buffer or one its
 * counter lost (PERF_FORMAT_LOST), the same number exactly.  No record
 * is torn.
 */
TEST_F_TIMEOUT(stress, every_cycles_overflow_is_a_sample_or_lost, 600)
{
	static const __u64 task_configs[MAX_COUNTERS][2] = {
		{ PERF_COUNT_SW_CPU_CLOCK, 100000 },
		{ PERF_COUNT_SW_TASK_CLOCK, 100000 },
		{ PERF_COUNT_SW_PAGE_FAULTS, 1 },
		{ PERF_COUNT_SW_CONTEXT_SWITCHES, 1 },
	};
	struct stress s = { .nr_cpus = sysconf(_SC_NPROCESSORS_CONF) };
	__u64 rate, before, after, samples = 0, lost = 0, all_lost = 0;
	struct cpu_writers cpus[MAX_CPUS];
	unsigned int seconds = stress_seconds();
	int task_fds[MAX_COUNTERS], i, j, cpu, nr_cpus;
	pthread_t workers[WORKERS];
	const char *why;
	void *task_buffer;
	__u64 start, r[2];

	why = no_pmu_model(&rate, &before);
	if (why)
		SKIP(return, "%s", why);
	self->saved_rate = read_int_file(MAX_RATE_PATH);
	if (self->saved_rate < 0 || !write_int_file(MAX_RATE_PATH, INT_MAX))
		SKIP(return, "cannot raise %s (not root?)", MAX_RATE_PATH);
	nr_cpus = s.nr_cpus < MAX_CPUS ? s.nr_cpus : MAX_CPUS;
	ASSERT_TRUE(model_overflows(&rate, &before));

	for (i = 0; i < MAX_COUNTERS; i++) {
		task_fds[i] = open_stress_counter(task_configs[i][0],
						  task_configs[i][1], !i);
		ASSERT_LE(0, task_fds[i]) TH_LOG("open: %s", strerror(errno));
		s.ids[s.nr_ids++] = counter_id(task_fds[i]);
	}
	task_buffer = map_buffer(task_fds[0], BUFFER_PAGES,
				 PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, task_buffer) TH_LOG("mmap: %s", strerror(errno));
	for (i = 1; i < MAX_COUNTERS; i++)
		ASSERT_EQ(0, ioctl(task_fds[i], PERF_COUNTER_IOC_SET_OUTPUT,
				   task_fds[0]));

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_writers *c = &cpus[cpu];

		c->buffer = NULL;
		c->fds[0] = open_cpu_counter(cpu, PERF_TYPE_HARDWARE,
					     PERF_COUNT_HW_CPU_CYCLES,
					     100 * rate);
		if (c->fds[0] < 0 && errno == ENODEV)
			continue;
		ASSERT_LE(0, c->fds[0]) TH_LOG("cycles on CPU %d: %s", cpu,
					       strerror(errno));
		c->fds[1] = open_cpu_counter(cpu, PERF_TYPE_SOFTWARE,
					     PERF_COUNT_SW_CPU_CLOCK, 100000);
		c->fds[2] = open_cpu_counter(cpu, PERF_TYPE_SOFTWARE,
					     PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
		ASSERT_LE(0, c->fds[1]) TH_LOG("cpu-clock: %s", strerror(errno));
		ASSERT_LE(0, c->fds[2]) TH_LOG("switches: %s", strerror(errno));
		c->cycles_idx = s.nr_ids;
		for (j = 0; j < 3; j++)
			s.ids[s.nr_ids++] = counter_id(c->fds[j]);
		c->buffer = map_buffer(c->fds[0], BUFFER_PAGES,
				       PROT_READ | PROT_WRITE);
		ASSERT_NE(NULL, c->buffer) TH_LOG("mmap: %s", strerror(errno));
		for (j = 1; j < 3; j++)
			ASSERT_EQ(0, ioctl(c->fds[j], PERF_COUNTER_IOC_SET_OUTPUT,
					   c->fds[0]));
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (j = 0; cpus[cpu].buffer && j < 3; j++)
			ASSERT_EQ(0, ioctl(cpus[cpu].fds[j],
					   PERF_COUNTER_IOC_ENABLE, 0));
	for (i = 0; i < MAX_COUNTERS; i++)
		ASSERT_EQ(0, ioctl(task_fds[i], PERF_COUNTER_IOC_ENABLE, 0));

	stop_workers = 0;
	for (i = 0; i < WORKERS; i++)
		ASSERT_EQ(0, pthread_create(&workers[i], NULL, worker, NULL));
	start = monotonic_ns();
	while (!s.bad && monotonic_ns() - start < seconds * 1000000000ULL) {
		drain_buffer(task_buffer, &s);
		for (cpu = 0; cpu < nr_cpus; cpu++)
			if (cpus[cpu].buffer)
				drain_buffer(cpus[cpu].buffer, &s);
		usleep(1000);
	}
	stop_workers = 1;
	for (i = 0; i < WORKERS; i++)
		pthread_join(workers[i], NULL);

	/* No overflow after this: the count is final, every sample out. */
	for (cpu = 0; cpu < nr_cpus; cpu++)
		for (j = 0; cpus[cpu].buffer && j < 3; j++)
			ASSERT_EQ(0, ioctl(cpus[cpu].fds[j],
					   PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_TRUE(model_overflows(&rate, &after));
	for (i = 0; i < MAX_COUNTERS; i++) {
		ASSERT_EQ(0, ioctl(task_fds[i], PERF_COUNTER_IOC_DISABLE, 0));
		ASSERT_EQ(sizeof(r), read(task_fds[i], r, sizeof(r)));
		all_lost += r[1];
	}
	drain_buffer(task_buffer, &s);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct cpu_writers *c = &cpus[cpu];

		if (!c->buffer)
			continue;
		drain_buffer(c->buffer, &s);
		for (j = 0; j < 3; j++) {
			ASSERT_EQ(sizeof(r), read(c->fds[j], r, sizeof(r)));
			all_lost += r[1];
			if (j)
				continue;
			lost += r[1];
			TH_LOG("CPU %d: %llu cycles samples read, %llu lost",
			       cpu, s.id_samples[c->cycles_idx], r[1]);
		}
		samples += s.id_samples[c->cycles_idx];
	}

	TH_LOG("%u s: %llu overflows handled; %llu cycles samples, %llu lost",
	       seconds, after - before, samples, lost);
	TH_LOG("in all: %llu samples, %llu lost (%llu in LOST records), %llu throttled",
	       s.samples, all_lost, s.lost, s.throttle);
	EXPECT_EQ(0, s.bad) TH_LOG("first bad record: %s", s.first_bad);
	EXPECT_EQ(0, s.throttle);
	EXPECT_LT(0, samples);
	EXPECT_EQ(after - before, samples + lost)
		TH_LOG("%llu overflows handled, but %llu samples read and %llu lost",
		       after - before, samples, lost);
	/* LOST records say what was lost, up to what is still pending. */
	EXPECT_GE(all_lost, s.lost);

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!cpus[cpu].buffer)
			continue;
		unmap_buffer(cpus[cpu].buffer, BUFFER_PAGES);
		close_fds(cpus[cpu].fds, 3);
	}
	unmap_buffer(task_buffer, BUFFER_PAGES);
	close_fds(task_fds, MAX_COUNTERS);
}

TEST_HARNESS_MAIN
