// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling under churn: threads burning CPU and faulting on both CPUs,
 * threads and processes created and reaped all the time, clocks sampling
 * at 10 kHz and every fault and switch sampled, all of it written into
 * one buffer through inheritance and SET_OUTPUT while it is read.  Every
 * record must parse; the kernel's own checks (lockdep, KASAN, with the
 * debug kernel) watch the rest on the console.
 *
 * PERF_COUNTER_STRESS_SECONDS sets how long (default 5; 'make vmcheck
 * STRESS=1' runs 60).
 */

#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>

#include "counter_test.h"

#define BUFFER_PAGES	16
#define WORKERS		4
#define MAX_COUNTERS	4

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
	__u64	ids[MAX_COUNTERS];
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

static bool known_id(const struct stress *s, __u64 id)
{
	int i;

	for (i = 0; i < s->nr_ids; i++)
		if (s->ids[i] == id)
			return true;
	return false;
}

static void check_sample(struct stress *s, const struct perf_counter_header *h)
{
	const __u64 *v = (const __u64 *)(h + 1);
	__u64 nr = v[6];

	if (h->size < sizeof(*h) + SAMPLE_FIXED * 8 || nr > 127 + 2 ||
	    h->size != sizeof(*h) + (SAMPLE_FIXED + nr) * 8)
		return mark_bad(s, h, "sample size and chain length disagree");
	if (!known_id(s, v[3]))
		return mark_bad(s, h, "sample of an unknown counter");
	if ((__u32)v[4] >= s->nr_cpus)
		return mark_bad(s, h, "sample from a CPU that is not there");
	if (!v[5])
		return mark_bad(s, h, "sample with period 0");
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
	if (!known_id(s, v[(h->size - sizeof(*h)) / 8 - 2]))
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

/* A fixture only for its time-out: the run may be longer than 30 s. */
FIXTURE(stress) {};
FIXTURE_SETUP(stress) {}
FIXTURE_TEARDOWN(stress) {}

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

TEST_HARNESS_MAIN
