// SPDX-License-Identifier: GPL-2.0
/*
 * A fuzzer for perf_counter_open() and its file descriptors.
 *
 * Threads open counters from random attrs (every field, biased towards
 * values that reach deep: valid types, small configs, known bits, the
 * attr sizes of each ABI version), and apply ioctls, read, mmap, munmap,
 * poll, fork and close to them in random order.  Counter fds are shared
 * between the threads, so one thread's close races another's ioctl or
 * mmap; mappings are each thread's own, since touching a mapping
 * another thread unmapped would only crash the fuzzer.  It runs as
 * root and as user nobody.
 *
 * What it asserts: the kernel survives (vm-run fails on any splat on
 * the console), every failed open gives an errno of the documented
 * table, and once everything is closed no ring buffer is left.
 *
 * PERF_COUNTER_FUZZ_SECONDS sets each run's length (default 10; 'make
 * vmcheck FUZZ=1' gives 300), PERF_COUNTER_FUZZ_SEED the first seed.
 * Threads interleave differently every run, so a seed only replays
 * each thread's sequence of operations.
 */

#include "counter_test.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#define FUZZ_THREADS	4
#define FUZZ_FDS	32
#define FUZZ_MAPS	8
#define CHILD_OPS	32
#define NOBODY		65534
#define SCRATCH		8192

/* Counter fds, shared by every thread; -1 marks a free slot. */
static int fuzz_fds[FUZZ_FDS];

struct fuzz_map {
	void	*addr;
	size_t	len;
	bool	writable;
};

struct fuzzer {
	__u64			rng;
	__u64			deadline;
	struct fuzz_map		maps[FUZZ_MAPS];
	unsigned long		ops, opened, mapped, odd_errno;
	int			first_odd_errno;
	unsigned char		scratch[SCRATCH];
};

static __u64 next_rand(struct fuzzer *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

static __u64 rand_below(struct fuzzer *f, __u64 n)
{
	return n ? next_rand(f) % n : 0;
}

static bool chance(struct fuzzer *f, unsigned int percent)
{
	return rand_below(f, 100) < percent;
}

/* A value from where bugs live: edges, small numbers, powers of two. */
static __u64 interesting(struct fuzzer *f)
{
	switch (rand_below(f, 6)) {
	case 0:
		return 0;
	case 1:
		return rand_below(f, 16);
	case 2:
		return 1ULL << rand_below(f, 64);
	case 3:
		return ~0ULL >> rand_below(f, 64);
	case 4:
		return -rand_below(f, 16);
	default:
		return next_rand(f);
	}
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The sizes attrs had in each ABI version, and some that never were. */
static const __u32 attr_sizes[] = {
	0, 8, 63, 64, 72, 80, 96, 104, 112, 120, 128, 136, 4096, 4097,
};

/*
 * Fill @buf (SCRATCH bytes, an attr at its start) with a random attr.
 * Bytes past sizeof(attr) are zero most of the time, as the kernel
 * wants when the size says they are part of the attr.
 */
static void random_attr(struct fuzzer *f, unsigned char *buf)
{
	struct perf_counter_attr *attr = (void *)buf;
	__u64 *word = (void *)buf;
	unsigned int i;

	memset(buf, 0, 512);
	for (i = 0; i < sizeof(*attr) / sizeof(*word); i++)
		if (chance(f, 25))
			word[i] = interesting(f);
	if (chance(f, 85))
		attr->type = rand_below(f, PERF_TYPE_BREAKPOINT + 2);
	if (chance(f, 80))
		attr->config = rand_below(f, 16);
	if (chance(f, 85))
		attr->size = attr_sizes[rand_below(f, ARRAY_SIZE(attr_sizes))];
	if (chance(f, 60)) {
		attr->sample_period = 1 + rand_below(f, 200000);
		attr->freq = chance(f, 30);
		if (attr->freq)
			attr->sample_freq = 1 + rand_below(f, 5000);
	}
	if (chance(f, 70))
		attr->sample_type &= (1ULL << 25) - 1;
	if (chance(f, 70))
		attr->read_format &= (1ULL << 5) - 1;
	/* The flag bits: mostly a few of the 38 defined ones. */
	if (chance(f, 70))
		word[5] &= next_rand(f) & next_rand(f) & ((1ULL << 38) - 1);
	if (chance(f, 70))
		attr->sample_max_stack = rand_below(f, 200);
	/* User mode only: what an unprivileged user may count at level 2. */
	if (chance(f, 50)) {
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
	}
	if (chance(f, 10))
		buf[sizeof(*attr) + rand_below(f, 64)] = 1;
}

static int random_fd(struct fuzzer *f)
{
	return __atomic_load_n(&fuzz_fds[rand_below(f, FUZZ_FDS)],
			       __ATOMIC_RELAXED);
}

/* The errnos design.txt's table lists for the open, and running out. */
static bool documented_open_errno(int err)
{
	switch (err) {
	case EINVAL: case E2BIG: case EFAULT: case EOPNOTSUPP: case ENOENT:
	case EACCES: case EPERM: case ESRCH: case EBADF: case ENODEV:
	case EBUSY: case EOVERFLOW: case EMFILE: case ENFILE: case ENOMEM:
	case ENOSPC:
		return true;
	}
	return false;
}

static void op_open(struct fuzzer *f, pid_t child)
{
	static const unsigned long flag_bits = PERF_FLAG_FD_NO_GROUP |
		PERF_FLAG_FD_OUTPUT | PERF_FLAG_PID_CGROUP |
		PERF_FLAG_FD_CLOEXEC;
	pid_t pids[] = { 0, -1, getpid(), child, interesting(f) };
	int cpus[] = { -1, 0, 1, interesting(f) };
	unsigned long flags;
	int fd, group, slot;

	random_attr(f, f->scratch);
	group = chance(f, 30) ? random_fd(f) : -1;
	flags = chance(f, 90) ? next_rand(f) & flag_bits : interesting(f);
	fd = counter_open((void *)f->scratch,
			  pids[rand_below(f, ARRAY_SIZE(pids))],
			  cpus[rand_below(f, ARRAY_SIZE(cpus))], group, flags);
	if (fd < 0) {
		if (!documented_open_errno(errno) && !f->odd_errno++)
			f->first_odd_errno = errno;
		return;
	}
	f->opened++;
	if (chance(f, 50))
		ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
	slot = rand_below(f, FUZZ_FDS);
	fd = __atomic_exchange_n(&fuzz_fds[slot], fd, __ATOMIC_RELAXED);
	if (fd >= 0)
		close(fd);
}

static void op_close(struct fuzzer *f)
{
	int fd = __atomic_exchange_n(&fuzz_fds[rand_below(f, FUZZ_FDS)], -1,
				     __ATOMIC_RELAXED);

	if (fd >= 0)
		close(fd);
}

static const unsigned long ioctl_cmds[] = {
	PERF_COUNTER_IOC_ENABLE, PERF_COUNTER_IOC_DISABLE,
	PERF_COUNTER_IOC_REFRESH, PERF_COUNTER_IOC_RESET,
	PERF_COUNTER_IOC_PERIOD, PERF_COUNTER_IOC_SET_OUTPUT,
	PERF_COUNTER_IOC_SET_FILTER, PERF_COUNTER_IOC_ID,
	PERF_COUNTER_IOC_SET_BPF, PERF_COUNTER_IOC_PAUSE_OUTPUT,
	PERF_COUNTER_IOC_QUERY_BPF, PERF_COUNTER_IOC_MODIFY_ATTRIBUTES,
};

/* An ioctl argument: a flag, a number, an fd or a buffer of junk. */
static unsigned long ioctl_arg(struct fuzzer *f, unsigned long cmd)
{
	unsigned int i, len;

	if (cmd == PERF_COUNTER_IOC_SET_OUTPUT && chance(f, 80))
		return chance(f, 20) ? -1UL : (unsigned long)random_fd(f);
	if (cmd == PERF_COUNTER_IOC_SET_FILTER && chance(f, 80)) {
		static const char *const filters[] = {
			"common_pid == 1", "prev_pid > 0 && next_pid < 100",
			"comm ~ \"s*\"", "(", "", "nr == ",
		};
		const char *s = filters[rand_below(f, ARRAY_SIZE(filters))];

		len = strlen(s);
		memcpy(f->scratch, s, len + 1);
		if (chance(f, 20)) {
			for (i = 0; i < SCRATCH - 1; i++)
				f->scratch[i] = ' ' + rand_below(f, 95);
			f->scratch[SCRATCH - 1] = chance(f, 50) ? 0 : 'x';
		}
		return (unsigned long)f->scratch;
	}
	if (chance(f, 40)) {
		for (i = 0; i < 64; i++)
			f->scratch[i] = next_rand(f);
		return (unsigned long)f->scratch;
	}
	return chance(f, 50) ? PERF_IOC_FLAG_GROUP & next_rand(f) :
			       interesting(f);
}

static void op_ioctl(struct fuzzer *f)
{
	unsigned long cmd;

	if (chance(f, 90))
		cmd = ioctl_cmds[rand_below(f, ARRAY_SIZE(ioctl_cmds))];
	else
		cmd = chance(f, 50) ? _IO('$', rand_below(f, 32)) :
				      interesting(f);
	ioctl(random_fd(f), cmd, ioctl_arg(f, cmd));
}

static void op_read(struct fuzzer *f)
{
	size_t len = chance(f, 70) ? rand_below(f, 512) : rand_below(f, SCRATCH);

	if (read(random_fd(f), f->scratch, len) > (ssize_t)len)
		f->odd_errno++;
}

/* Look at a mapping as a reader would: the head, the tail, some data. */
static void touch_map(struct fuzzer *f, struct fuzz_map *m)
{
	struct perf_counter_mmap_page *page = m->addr;
	volatile unsigned char *bytes = m->addr;
	long psize = sysconf(_SC_PAGESIZE);
	__u64 head;

	head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	if (m->writable && chance(f, 50))
		__atomic_store_n(&page->data_tail,
				 chance(f, 70) ? head : interesting(f),
				 __ATOMIC_RELEASE);
	if (m->len > (size_t)psize)
		(void)bytes[psize + rand_below(f, m->len - psize)];
}

static void unmap_slot(struct fuzz_map *m)
{
	if (m->addr)
		munmap(m->addr, m->len);
	m->addr = NULL;
}

static void op_mmap(struct fuzzer *f)
{
	static const unsigned int pages[] = { 0, 1, 2, 4, 8, 16, 3, 5 };
	struct fuzz_map *m = &f->maps[rand_below(f, FUZZ_MAPS)];
	long psize = sysconf(_SC_PAGESIZE);
	int prot = PROT_READ;
	off_t off = 0;
	void *addr;
	size_t len;

	unmap_slot(m);
	len = (1 + pages[rand_below(f, ARRAY_SIZE(pages))]) * psize;
	if (chance(f, 60))
		prot |= PROT_WRITE;
	if (chance(f, 5))
		off = rand_below(f, 4) * psize;
	addr = mmap(NULL, len, prot, chance(f, 95) ? MAP_SHARED : MAP_PRIVATE,
		    random_fd(f), off);
	if (addr == MAP_FAILED)
		return;
	f->mapped++;
	*m = (struct fuzz_map){ addr, len, prot & PROT_WRITE };
	touch_map(f, m);
}

/* Unmap all, or only the data pages: the vma is split and one half goes. */
static void op_munmap(struct fuzzer *f)
{
	struct fuzz_map *m = &f->maps[rand_below(f, FUZZ_MAPS)];
	long psize = sysconf(_SC_PAGESIZE);

	if (!m->addr)
		return;
	if (m->len > (size_t)psize && chance(f, 40)) {
		munmap((char *)m->addr + psize, m->len - psize);
		m->len = psize;
		return;
	}
	unmap_slot(m);
}

static void op_poll(struct fuzzer *f)
{
	struct pollfd p[4];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i].fd = random_fd(f);
		p[i].events = POLLIN | POLLHUP;
	}
	poll(p, ARRAY_SIZE(p), 0);
}

/* Something for the counters to count: faults, system calls, switches. */
static void op_work(struct fuzzer *f)
{
	unsigned int i, n = rand_below(f, 64);

	switch (rand_below(f, 3)) {
	case 0:
		touch_fresh_pages(1 + n / 8);
		break;
	case 1:
		for (i = 0; i < n; i++)
			getppid();
		break;
	default:
		for (i = 0; i < n / 8; i++)
			sched_yield();
	}
}

static void one_op(struct fuzzer *f, pid_t child, bool may_fork);

/*
 * A child with the fds (and the inherited counters' clones), but none
 * of the mappings: they are not copied into it.  It does a few things
 * and exits, without a word of stdio from this multi-threaded parent.
 */
static void op_fork(struct fuzzer *f, pid_t child)
{
	unsigned int i;
	pid_t pid;

	pid = fork();
	if (pid)
		return;
	memset(f->maps, 0, sizeof(f->maps));
	for (i = 0; i < CHILD_OPS; i++)
		one_op(f, child, false);
	_exit(0);
}

static void one_op(struct fuzzer *f, pid_t child, bool may_fork)
{
	unsigned int op = rand_below(f, 100);

	f->ops++;
	if (op < 22)
		op_open(f, child);
	else if (op < 30)
		op_close(f);
	else if (op < 52)
		op_ioctl(f);
	else if (op < 62)
		op_read(f);
	else if (op < 72)
		op_mmap(f);
	else if (op < 78)
		op_munmap(f);
	else if (op < 83)
		op_poll(f);
	else if (op < 97 || !may_fork)
		op_work(f);
	else
		op_fork(f, child);
}

/* A task to point counters at: sleeps until killed. */
static pid_t start_target(void)
{
	pid_t pid = fork();

	if (!pid) {
		for (;;)
			pause();
	}
	return pid;
}

struct worker {
	pthread_t	thread;
	struct fuzzer	f;
	pid_t		target;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	while (now_ns() < w->f.deadline) {
		for (i = 0; i < 64; i++)
			one_op(&w->f, w->target, true);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	for (i = 0; i < FUZZ_MAPS; i++)
		unmap_slot(&w->f.maps[i]);
	return NULL;
}

static unsigned int fuzz_seconds(void)
{
	const char *env = getenv("PERF_COUNTER_FUZZ_SECONDS");

	/* Well inside the test's time-out. */
	return env && atoi(env) > 0 && atoi(env) <= 300 ? atoi(env) : 10;
}

static __u64 fuzz_seed(void)
{
	const char *env = getenv("PERF_COUNTER_FUZZ_SEED");

	return env ? strtoull(env, NULL, 0) : now_ns();
}

/* What a run did, for the checks: summed over its threads. */
struct fuzz_totals {
	unsigned long ops, opened, mapped, odd_errno;
	int first_odd_errno;
};

static void fuzz_run(struct fuzz_totals *t)
{
	static struct worker workers[FUZZ_THREADS];
	__u64 seed = fuzz_seed(), deadline;
	unsigned int i;
	pid_t target;

	deadline = now_ns() + fuzz_seconds() * 1000000000ULL;
	memset(t, 0, sizeof(*t));
	memset(fuzz_fds, 0xff, sizeof(fuzz_fds));
	target = start_target();
	ksft_print_msg("fuzz: uid %d, seed %llu, %u s\n", getuid(),
		       (unsigned long long)seed, fuzz_seconds());
	for (i = 0; i < FUZZ_THREADS; i++) {
		memset(&workers[i], 0, sizeof(workers[i]));
		workers[i].f.rng = (seed + i) * 0x9e3779b97f4a7c15ULL | 1;
		workers[i].f.deadline = deadline;
		workers[i].target = target;
		pthread_create(&workers[i].thread, NULL, worker_fn, &workers[i]);
	}
	for (i = 0; i < FUZZ_THREADS; i++) {
		struct fuzzer *f = &workers[i].f;

		pthread_join(workers[i].thread, NULL);
		t->ops += f->ops;
		t->opened += f->opened;
		t->mapped += f->mapped;
		if (f->odd_errno && !t->odd_errno)
			t->first_odd_errno = f->first_odd_errno;
		t->odd_errno += f->odd_errno;
	}
	for (i = 0; i < FUZZ_FDS; i++)
		if (fuzz_fds[i] >= 0)
			close(fuzz_fds[i]);
	kill(target, SIGKILL);
	while (wait(NULL) > 0)
		;
	ksft_print_msg("fuzz: %lu operations, %lu counters opened, %lu buffers mapped\n",
		       t->ops, t->opened, t->mapped);
}

FIXTURE(fuzz) {
	int	buffers;	/* live ring buffers before */
};

FIXTURE_SETUP(fuzz)
{
	self->buffers = live_buffers();
}

FIXTURE_TEARDOWN(fuzz)
{
}

/* After a run, all closed: the buffers must all go again. */
static void check_totals(struct __test_metadata *_metadata,
			 const struct fuzz_totals *t, int buffers_before,
			 bool privileged)
{
	EXPECT_LT(1000, t->ops);
	/* At paranoid level 3 nobody may open anything. */
	if (privileged || paranoid_level() < 3)
		EXPECT_LT(0, t->opened);
	/* Nobody may be refused every mapping at a strict level. */
	if (privileged)
		EXPECT_LT(0, t->mapped);
	EXPECT_EQ(0, t->odd_errno)
		TH_LOG("open failed with %s, not in the errno table",
		       strerror(t->first_odd_errno));
	EXPECT_EQ(buffers_before, buffers_down_to(buffers_before));
}

TEST_F_TIMEOUT(fuzz, as_root, 600)
{
	struct fuzz_totals t;

	if (!backend_is_counter())
		SKIP(return, "fuzzes perf_counter_open, which this kernel lacks");
	fuzz_run(&t);
	check_totals(_metadata, &t, self->buffers, true);
}

/*
 * As user nobody, at the paranoid level the system has: refusals are
 * the common case, and the charged mappings of an unprivileged user get
 * their share.  The totals come back through a pipe.
 */
TEST_F_TIMEOUT(fuzz, as_nobody, 600)
{
	struct fuzz_totals t;
	int pipefd[2], status;
	pid_t pid;

	if (!backend_is_counter())
		SKIP(return, "fuzzes perf_counter_open, which this kernel lacks");
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(pipefd[0]);
		if (setgid(NOBODY) || setuid(NOBODY))
			_exit(2);
		fuzz_run(&t);
		_exit(write(pipefd[1], &t, sizeof(t)) == sizeof(t) ? 0 : 3);
	}
	close(pipefd[1]);
	ASSERT_EQ(sizeof(t), read(pipefd[0], &t, sizeof(t)));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	check_totals(_metadata, &t, self->buffers, false);
}

TEST_HARNESS_MAIN
