// SPDX-License-Identifier: GPL-2.0
/*
 * Every attr flag and every sample_type bit the ABI defines, one at a
 * time: the kernel either refuses it (EINVAL or EOPNOTSUPP) or does
 * what it says, which each row's check asserts from the records or
 * values the counter produces.  A bit accepted and ignored fails here.
 *
 * Rows that perf_counter_open refuses are skipped on perf_event_open,
 * which may well have the feature.
 */

#include "counter_test.h"
#include "ring.h"

#include <limits.h>
#include <poll.h>
#include <asm/perf_regs.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define DATA_PAGES	16
#define RECORDS_MAX	(DATA_PAGES * 4096)

/* What one counter produced: its value and a copy of its records. */
struct session {
	__u64	value;
	__u64	id;
	size_t	len;
	char	records[RECORDS_MAX];
};

static struct session session;

/* Open @attr on the caller, run @work, keep what came out. */
static int record(struct perf_counter_attr *attr, void (*work)(void),
		  struct session *s)
{
	__u64 head;
	struct ring r;
	int fd;

	memset(s, 0, sizeof(*s));
	fd = counter_open(attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	if (!ring_map(&r, fd, DATA_PAGES)) {
		close(fd);
		return -1;
	}
	s->id = counter_id(fd);
	if (attr->disabled)
		ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0);
	work();
	ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0);
	s->value = counter_value(fd);
	head = __atomic_load_n(&r.page->data_head, __ATOMIC_ACQUIRE);
	s->len = head < RECORDS_MAX ? head : RECORDS_MAX;
	ring_copy(&r, 0, s->records, s->len);
	ring_unmap(&r);
	close(fd);
	return 0;
}

/* The next record of @type from *@pos on; NULL when there is none. */
static struct perf_counter_header *next_record(struct session *s,
					       size_t *pos, __u32 type)
{
	struct perf_counter_header *h;

	while (*pos + sizeof(*h) <= s->len) {
		h = (void *)(s->records + *pos);
		if (h->size < sizeof(*h) || *pos + h->size > s->len)
			return NULL;
		*pos += h->size;
		if (h->type == type)
			return h;
	}
	return NULL;
}

static unsigned int count_records(struct session *s, __u32 type)
{
	unsigned int n = 0;
	size_t pos = 0;

	while (next_record(s, &pos, type))
		n++;
	return n;
}

static struct perf_counter_header *first_record(struct session *s, __u32 type)
{
	size_t pos = 0;

	return next_record(s, &pos, type);
}

/* --- work --- */

static void touch_pages(void)
{
	touch_fresh_pages(FAULT_PAGES);
}

static void rename_self(void)
{
	prctl(PR_SET_NAME, "bits-renamed");
}

static void fork_child(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
}

/* A new mapping of our own binary, executable, and an anonymous one. */
static void map_things(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/exe", O_RDONLY);
	void *exec, *data;

	exec = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	data = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (exec != MAP_FAILED)
		munmap(exec, page);
	if (data != MAP_FAILED)
		munmap(data, page);
	close(fd);
}

/* Faults from inside the kernel: read() into fresh pages. */
static void kernel_faults(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/exe", O_RDONLY);
	char *buf;
	int i;

	buf = mmap(NULL, FAULT_PAGES * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < FAULT_PAGES && buf != MAP_FAILED; i++)
		if (pread(fd, buf + i * page, 1, 0) != 1)
			break;
	if (buf != MAP_FAILED)
		munmap(buf, FAULT_PAGES * page);
	close(fd);
}

/* --- attr flags --- */

typedef void (*bit_check)(struct __test_metadata *_metadata,
			  struct perf_counter_attr *attr);

/* A page-fault counter on the caller, sampling every fault. */
static void faults_attr(struct perf_counter_attr *attr)
{
	counter_attr_init(attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
}

/* The bit changes nothing a software counter does: it counts all. */
static void check_counts_all(struct __test_metadata *_metadata,
			     struct perf_counter_attr *attr)
{
	ASSERT_EQ(0, record(attr, touch_pages, &session));
	EXPECT_LE(FAULT_PAGES, session.value);
	EXPECT_EQ(session.value, count_records(&session, PERF_RECORD_SAMPLE));
}

static void check_disabled(struct __test_metadata *_metadata,
			   struct perf_counter_attr *attr)
{
	int fd = counter_open(attr, 0, -1, -1, 0);

	ASSERT_LE(0, fd);
	touch_pages();
	EXPECT_EQ(0, counter_value(fd));
	close(fd);
	check_counts_all(_metadata, attr);
}

static void check_inherit(struct __test_metadata *_metadata,
			  struct perf_counter_attr *attr)
{
	pid_t pid;
	int fd;

	attr->sample_period = 0;
	attr->sample_type = 0;
	attr->inherit = 1;
	fd = counter_open(attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	pid = fork();
	if (pid == 0) {
		touch_pages();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	EXPECT_LE(FAULT_PAGES, counter_value(fd));
	close(fd);
}

static void check_inherit_thread(struct __test_metadata *_metadata,
				 struct perf_counter_attr *attr)
{
	__u64 before;
	pid_t pid;
	int fd;

	attr->sample_period = 0;
	attr->sample_type = 0;
	attr->inherit = 1;
	fd = counter_open(attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	before = counter_value(fd);
	pid = fork();
	if (pid == 0) {
		touch_pages();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	/* A forked process is no thread: not inherited, nothing added. */
	EXPECT_GT(before + FAULT_PAGES, counter_value(fd));
	close(fd);
}

/* Always on the PMU: running as long as enabled. */
static void check_always_running(struct __test_metadata *_metadata,
				 struct perf_counter_attr *attr)
{
	struct counter_reading r;
	int fd;

	attr->read_format = FORMAT_TIMES;
	fd = counter_open(attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	outlast_clock_ticks();
	ASSERT_TRUE(counter_read(fd, &r));
	EXPECT_LT(0, r.enabled);
	EXPECT_EQ(r.enabled, r.running);
	close(fd);
}

static void check_exclude_user(struct __test_metadata *_metadata,
			       struct perf_counter_attr *attr)
{
	ASSERT_EQ(0, record(attr, touch_pages, &session));
	EXPECT_GT(FAULT_PAGES / 2, session.value);
	ASSERT_EQ(0, record(attr, kernel_faults, &session));
	EXPECT_LE(FAULT_PAGES, session.value);
}

static void check_exclude_kernel(struct __test_metadata *_metadata,
				 struct perf_counter_attr *attr)
{
	ASSERT_EQ(0, record(attr, kernel_faults, &session));
	EXPECT_GT(FAULT_PAGES / 2, session.value);
	ASSERT_EQ(0, record(attr, touch_pages, &session));
	EXPECT_LE(FAULT_PAGES, session.value);
}

static void check_comm(struct __test_metadata *_metadata,
		       struct perf_counter_attr *attr)
{
	struct perf_counter_header *h;
	char name[16];

	prctl(PR_GET_NAME, name);
	ASSERT_EQ(0, record(attr, rename_self, &session));
	prctl(PR_SET_NAME, name);
	h = first_record(&session, PERF_RECORD_COMM);
	ASSERT_TRUE(h);
	EXPECT_STREQ("bits-renamed", (char *)(h + 1) + 8);
}

static void check_task(struct __test_metadata *_metadata,
		       struct perf_counter_attr *attr)
{
	ASSERT_EQ(0, record(attr, fork_child, &session));
	EXPECT_EQ(1, count_records(&session, PERF_RECORD_FORK));
}

/* An executable mapping gives a record of @type, a data one @data. */
static void check_mmaps(struct __test_metadata *_metadata,
			struct perf_counter_attr *attr, __u32 type,
			unsigned int exec, unsigned int data)
{
	struct perf_counter_header *h;
	unsigned int nexec = 0, ndata = 0;
	size_t pos = 0;

	ASSERT_EQ(0, record(attr, map_things, &session));
	while ((h = next_record(&session, &pos, type))) {
		if (h->misc & PERF_RECORD_MISC_MMAP_DATA)
			ndata++;
		else
			nexec++;
	}
	EXPECT_EQ(exec, nexec);
	/* Our ring's own mapping is a data mapping too. */
	EXPECT_EQ(!data, !ndata);
	EXPECT_LE(data, ndata);
}

static void check_mmap(struct __test_metadata *_metadata,
		       struct perf_counter_attr *attr)
{
	check_mmaps(_metadata, attr, PERF_RECORD_MMAP, 1, 0);
}

static void check_mmap2(struct __test_metadata *_metadata,
			struct perf_counter_attr *attr)
{
	/* As tools ask for it: perf_event_open wants mmap too. */
	attr->mmap = 1;
	check_mmaps(_metadata, attr, PERF_RECORD_MMAP2, 1, 0);
}

/* mmap_data alone: records of data mappings only. */
static void check_mmap_data(struct __test_metadata *_metadata,
			    struct perf_counter_attr *attr)
{
	check_mmaps(_metadata, attr, PERF_RECORD_MMAP, 0, 1);
}

static void check_freq(struct __test_metadata *_metadata,
		       struct perf_counter_attr *attr)
{
	attr->sample_freq = 1000;
	attr->sample_type |= PERF_SAMPLE_PERIOD;
	ASSERT_EQ(0, record(attr, touch_pages, &session));
	EXPECT_LE(1, count_records(&session, PERF_RECORD_SAMPLE));
	EXPECT_LE(FAULT_PAGES, session.value);
}

/* Counted from exec on: a child that execs /bin/true. */
static void exec_child(struct __test_metadata *_metadata,
		       struct perf_counter_attr *attr, struct session *s)
{
	int go[2], fd, status;
	struct ring r;
	pid_t pid;
	__u64 head;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execl("/bin/true", "true", NULL);
		_exit(1);
	}
	close(go[0]);
	fd = counter_open(attr, pid, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, DATA_PAGES));
	ASSERT_EQ(1, write(go[1], "x", 1));
	waitpid(pid, &status, 0);
	s->value = counter_value(fd);
	head = __atomic_load_n(&r.page->data_head, __ATOMIC_ACQUIRE);
	s->len = head < RECORDS_MAX ? head : RECORDS_MAX;
	ring_copy(&r, 0, s->records, s->len);
	ring_unmap(&r);
	close(fd);
	close(go[1]);
}

static void check_enable_on_exec(struct __test_metadata *_metadata,
				 struct perf_counter_attr *attr)
{
	attr->disabled = 1;
	attr->sample_period = 0;
	attr->sample_type = 0;
	exec_child(_metadata, attr, &session);
	/* /bin/true faults its pages in after the exec. */
	EXPECT_LT(0, session.value);
}

static void check_comm_exec(struct __test_metadata *_metadata,
			    struct perf_counter_attr *attr)
{
	struct perf_counter_header *h;

	attr->comm = 1;
	exec_child(_metadata, attr, &session);
	h = first_record(&session, PERF_RECORD_COMM);
	ASSERT_TRUE(h);
	EXPECT_EQ(PERF_RECORD_MISC_COMM_EXEC, h->misc & PERF_RECORD_MISC_COMM_EXEC);
}

/* Side-band records end with the sample_id fields (here TID). */
static void check_sample_id_all(struct __test_metadata *_metadata,
				struct perf_counter_attr *attr)
{
	struct perf_counter_header *h;
	__u32 *tail;

	attr->task = 1;
	ASSERT_EQ(0, record(attr, fork_child, &session));
	h = first_record(&session, PERF_RECORD_FORK);
	ASSERT_TRUE(h);
	ASSERT_EQ(sizeof(*h) + 24 + 8, h->size);
	tail = (__u32 *)((char *)h + h->size - 8);
	EXPECT_EQ(getpid(), tail[0]);
}

static void check_watermark(struct __test_metadata *_metadata,
			    struct perf_counter_attr *attr)
{
	struct pollfd p;
	struct ring r;
	int fd;

	attr->wakeup_watermark = 8;
	fd = counter_open(attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(ring_map(&r, fd, DATA_PAGES));
	touch_fresh_pages(1);
	p.fd = fd;
	p.events = POLLIN;
	EXPECT_EQ(1, poll(&p, 1, 5000));
	ring_unmap(&r);
	close(fd);
}

/*
 * Written backward, data_head runs down from 0 and the newest record
 * starts there: a sample of the fault that came last.  (overwrite_test
 * covers the rest.)
 */
static void check_write_backward(struct __test_metadata *_metadata,
				 struct perf_counter_attr *attr)
{
	struct perf_counter_header h;
	struct ring r;
	__u64 head;
	int fd;

	fd = counter_open(attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(ring_map_prot(&r, fd, DATA_PAGES, false));
	touch_fresh_pages(1);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	head = r.page->data_head;
	EXPECT_LT(0, (__s64)-head);
	EXPECT_GE(r.size, -head);
	ring_copy(&r, head, &h, sizeof(h));
	EXPECT_EQ(PERF_RECORD_SAMPLE, h.type);
	ring_unmap(&r);
	close(fd);
}

/* Software samples are exact: the ip of the faulting instruction. */
static void check_precise(struct __test_metadata *_metadata,
			  struct perf_counter_attr *attr)
{
	struct perf_counter_header *h;

	ASSERT_EQ(0, record(attr, touch_pages, &session));
	h = first_record(&session, PERF_RECORD_SAMPLE);
	ASSERT_TRUE(h);
	EXPECT_EQ(PERF_RECORD_MISC_USER, h->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	EXPECT_NE(0, *(__u64 *)(h + 1));
}

/* A call chain without kernel frames, or without user frames. */
static void check_callchain_excludes(struct __test_metadata *_metadata,
				     struct perf_counter_attr *attr,
				     __u64 absent)
{
	struct perf_counter_header *h;
	__u64 *chain, i;

	attr->sample_type = PERF_SAMPLE_CALLCHAIN;
	attr->exclude_kernel = 0;
	ASSERT_EQ(0, record(attr, kernel_faults, &session));
	h = first_record(&session, PERF_RECORD_SAMPLE);
	ASSERT_TRUE(h);
	chain = (__u64 *)(h + 1);
	ASSERT_LT(0, chain[0]);
	for (i = 1; i <= chain[0]; i++)
		EXPECT_NE(absent, chain[i]);
}

static void check_no_kernel_chain(struct __test_metadata *_metadata,
				  struct perf_counter_attr *attr)
{
	check_callchain_excludes(_metadata, attr, PERF_CONTEXT_KERNEL);
}

static void check_no_user_chain(struct __test_metadata *_metadata,
				struct perf_counter_attr *attr)
{
	check_callchain_excludes(_metadata, attr, PERF_CONTEXT_USER);
}

static __u64 clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Sample times on CLOCK_REALTIME: between our readings around them. */
static void check_clockid(struct __test_metadata *_metadata,
			  struct perf_counter_attr *attr)
{
	struct perf_counter_header *h;
	__u64 before, after, t;

	attr->clockid = CLOCK_REALTIME;
	attr->sample_type = PERF_SAMPLE_TIME;
	before = clock_ns(CLOCK_REALTIME);
	ASSERT_EQ(0, record(attr, touch_pages, &session));
	after = clock_ns(CLOCK_REALTIME);
	h = first_record(&session, PERF_RECORD_SAMPLE);
	ASSERT_TRUE(h);
	t = *(__u64 *)(h + 1);
	EXPECT_LE(before, t);
	EXPECT_GE(after, t);
}

#define SETTER(field, value)						\
static void set_##field(struct perf_counter_attr *attr)		\
{									\
	attr->field = value;						\
}

SETTER(disabled, 1)
SETTER(inherit, 1)
SETTER(pinned, 1)
SETTER(exclusive, 1)
SETTER(exclude_user, 1)
SETTER(exclude_kernel, 1)
SETTER(exclude_hv, 1)
SETTER(exclude_idle, 1)
SETTER(mmap, 1)
SETTER(comm, 1)
SETTER(freq, 1)
SETTER(inherit_stat, 1)
SETTER(enable_on_exec, 1)
SETTER(task, 1)
SETTER(watermark, 1)
SETTER(precise_ip, 3)
SETTER(mmap_data, 1)
SETTER(sample_id_all, 1)
SETTER(exclude_host, 1)
SETTER(exclude_guest, 1)
SETTER(exclude_callchain_kernel, 1)
SETTER(exclude_callchain_user, 1)
SETTER(mmap2, 1)
SETTER(comm_exec, 1)
SETTER(use_clockid, 1)
SETTER(context_switch, 1)
SETTER(write_backward, 1)
SETTER(namespaces, 1)
SETTER(ksymbol, 1)
SETTER(bpf_event, 1)
SETTER(aux_output, 1)
SETTER(cgroup, 1)
SETTER(text_poke, 1)
SETTER(build_id, 1)
SETTER(inherit_thread, 1)
SETTER(remove_on_exec, 1)

static void set_sigtrap(struct perf_counter_attr *attr)
{
	attr->remove_on_exec = 1;
	attr->sigtrap = 1;
}

struct bit_row {
	const char	*name;
	void		(*set)(struct perf_counter_attr *attr);
	bit_check	check;		/* NULL: perf_counter_open refuses it */
};

#define ROW(field, check)	{ #field, set_##field, check }

static const struct bit_row attr_rows[] = {
	ROW(disabled, check_disabled),
	ROW(inherit, check_inherit),
	ROW(pinned, check_always_running),
	ROW(exclusive, check_always_running),
	ROW(exclude_user, check_exclude_user),
	ROW(exclude_kernel, check_exclude_kernel),
	ROW(exclude_hv, check_counts_all),
	ROW(exclude_idle, check_counts_all),
	ROW(mmap, check_mmap),
	ROW(comm, check_comm),
	ROW(freq, check_freq),
	ROW(inherit_stat, check_inherit),
	ROW(enable_on_exec, check_enable_on_exec),
	ROW(task, check_task),
	ROW(watermark, check_watermark),
	ROW(precise_ip, check_precise),
	ROW(mmap_data, check_mmap_data),
	ROW(sample_id_all, check_sample_id_all),
	ROW(exclude_host, NULL),
	ROW(exclude_guest, check_counts_all),
	ROW(exclude_callchain_kernel, check_no_kernel_chain),
	ROW(exclude_callchain_user, check_no_user_chain),
	ROW(mmap2, check_mmap2),
	ROW(comm_exec, check_comm_exec),
	ROW(use_clockid, check_clockid),
	ROW(context_switch, NULL),
	ROW(write_backward, check_write_backward),
	ROW(namespaces, NULL),
	ROW(ksymbol, NULL),
	ROW(bpf_event, NULL),
	ROW(aux_output, NULL),
	ROW(cgroup, NULL),
	ROW(text_poke, NULL),
	ROW(build_id, NULL),
	ROW(inherit_thread, check_inherit_thread),
	ROW(remove_on_exec, NULL),
	ROW(sigtrap, NULL),
};

static bool refusal(int err)
{
	return err == EINVAL || err == EOPNOTSUPP;
}

TEST(every_attr_flag_is_honoured_or_refused)
{
	struct perf_counter_attr attr;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(attr_rows); i++) {
		const struct bit_row *row = &attr_rows[i];

		faults_attr(&attr);
		attr.exclude_kernel = row->set != set_exclude_user;
		row->set(&attr);
		if (!row->check) {
			if (!backend_is_counter())
				continue;
			fd = counter_open(&attr, 0, -1, -1, 0);
			EXPECT_EQ(-1, fd) TH_LOG("%s accepted", row->name);
			EXPECT_TRUE(refusal(errno))
				TH_LOG("%s: %s", row->name, strerror(errno));
			if (fd >= 0)
				close(fd);
			continue;
		}
		TH_LOG("checking %s", row->name);
		row->check(_metadata, &attr);
	}
}

/* --- sample_type bits --- */

/* Where each field a sample may carry is, once parsed. */
struct parsed {
	__u64	ip, addr, id, stream_id, period, identifier, time;
	__u32	pid, tid, cpu;
	__u64	nr_values, nr_ips, raw_size;
	__u64	*values, *ips;
	__u64	user_abi, intr_abi, *user_regs, *intr_regs;
	__u64	stack_size, stack_dyn;
};

/* The registers the register rows ask for: IP and SP. */
#define SAMPLE_REGS	((1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_SP))
#define STACK_BYTES	64

/* Walk a sample in the ABI's order; its size in bytes, or 0 if bad. */
static size_t parse_sample(const struct perf_counter_attr *attr,
			   struct perf_counter_header *h, struct parsed *p)
{
	__u64 *w = (__u64 *)(h + 1), t = attr->sample_type;

	memset(p, 0, sizeof(*p));
	if (t & PERF_SAMPLE_IDENTIFIER)
		p->identifier = *w++;
	if (t & PERF_SAMPLE_IP)
		p->ip = *w++;
	if (t & PERF_SAMPLE_TID) {
		p->pid = ((__u32 *)w)[0];
		p->tid = ((__u32 *)w)[1];
		w++;
	}
	if (t & PERF_SAMPLE_TIME)
		p->time = *w++;
	if (t & PERF_SAMPLE_ADDR)
		p->addr = *w++;
	if (t & PERF_SAMPLE_ID)
		p->id = *w++;
	if (t & PERF_SAMPLE_STREAM_ID)
		p->stream_id = *w++;
	if (t & PERF_SAMPLE_CPU)
		p->cpu = *(__u32 *)w++;
	if (t & PERF_SAMPLE_PERIOD)
		p->period = *w++;
	if (t & PERF_SAMPLE_READ) {
		/* No group here: value, then the read_format words. */
		p->values = w;
		p->nr_values = 1 + __builtin_popcountll(attr->read_format);
		w += p->nr_values;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		p->nr_ips = *w++;
		p->ips = w;
		w += p->nr_ips;
	}
	if (t & PERF_SAMPLE_RAW) {
		p->raw_size = *(__u32 *)w;
		w = (__u64 *)((char *)w + 4 + p->raw_size);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		p->user_abi = *w++;
		p->user_regs = w;
		if (p->user_abi)
			w += __builtin_popcountll(attr->sample_regs_user);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		p->stack_size = *w++;
		w += p->stack_size / 8;
		if (p->stack_size)
			p->stack_dyn = *w++;
	}
	if (t & PERF_SAMPLE_REGS_INTR) {
		p->intr_abi = *w++;
		p->intr_regs = w;
		if (p->intr_abi)
			w += __builtin_popcountll(attr->sample_regs_intr);
	}
	return (char *)w - (char *)h;
}

static void *fault_address;

/* One fault at a known address. */
static void touch_one(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	fault_address = p;
	if (p != MAP_FAILED) {
		*(volatile char *)p = 1;
		munmap(p, 4096);
	}
}

static void check_sample_field(struct __test_metadata *_metadata,
			       __u64 bit, const struct parsed *p)
{
	const __u64 *regs;

	switch (bit) {
	case PERF_SAMPLE_IP:
		EXPECT_NE(0, p->ip);
		break;
	case PERF_SAMPLE_TID:
		EXPECT_EQ(getpid(), p->pid);
		EXPECT_EQ(gettid(), p->tid);
		break;
	case PERF_SAMPLE_TIME:
		EXPECT_NE(0, p->time);
		break;
	case PERF_SAMPLE_ADDR:
		EXPECT_EQ((__u64)(unsigned long)fault_address, p->addr);
		break;
	case PERF_SAMPLE_READ:
		EXPECT_EQ(1, p->values[0]);
		break;
	case PERF_SAMPLE_CALLCHAIN:
		ASSERT_LT(0, p->nr_ips);
		EXPECT_LE(PERF_CONTEXT_MAX, p->ips[0]);
		break;
	case PERF_SAMPLE_ID:
		EXPECT_EQ(session.id, p->id);
		break;
	case PERF_SAMPLE_CPU:
		EXPECT_GT(sysconf(_SC_NPROCESSORS_CONF), p->cpu);
		break;
	case PERF_SAMPLE_PERIOD:
		EXPECT_EQ(1, p->period);
		break;
	case PERF_SAMPLE_STREAM_ID:
		EXPECT_EQ(session.id, p->stream_id);
		break;
	case PERF_SAMPLE_RAW:
		/* No tracepoint record: four zero bytes. */
		EXPECT_EQ(4, p->raw_size);
		break;
	case PERF_SAMPLE_IDENTIFIER:
		EXPECT_EQ(session.id, p->identifier);
		break;
	case PERF_SAMPLE_REGS_USER:
	case PERF_SAMPLE_REGS_INTR:
		/* A user fault: SP and IP (bit order) are user addresses. */
		regs = bit == PERF_SAMPLE_REGS_USER ? p->user_regs : p->intr_regs;
		EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64,
			  bit == PERF_SAMPLE_REGS_USER ? p->user_abi : p->intr_abi);
		EXPECT_NE(0, regs[0]);
		EXPECT_GT(1ULL << 47, regs[0]);
		EXPECT_NE(0, regs[1]);
		EXPECT_GT(1ULL << 47, regs[1]);
		break;
	case PERF_SAMPLE_STACK_USER:
		EXPECT_EQ(STACK_BYTES, p->stack_size);
		EXPECT_EQ(STACK_BYTES, p->stack_dyn);
		break;
	}
}

/* The bits perf_counter_open writes; the others it refuses. */
#define SAMPLE_WRITTEN	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | \
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW | \
			 PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_REGS_USER | \
			 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR)

TEST(every_sample_bit_is_written_or_refused)
{
	struct perf_counter_attr attr;
	struct perf_counter_header *h;
	struct parsed p;
	__u64 bit;
	int fd;

	/* Its code and data faulted in before any counter looks. */
	touch_one();
	for (bit = 1; bit < PERF_SAMPLE_MAX; bit <<= 1) {
		counter_attr_init(&attr, PERF_TYPE_SOFTWARE,
				  PERF_COUNT_SW_PAGE_FAULTS);
		attr.sample_period = 1;
		attr.sample_type = bit;
		attr.sample_regs_user = SAMPLE_REGS;
		attr.sample_regs_intr = SAMPLE_REGS;
		attr.sample_stack_user = STACK_BYTES;
		attr.exclude_kernel = 1;
		attr.disabled = 1;
		if (!(bit & SAMPLE_WRITTEN)) {
			if (!backend_is_counter())
				continue;
			fd = counter_open(&attr, 0, -1, -1, 0);
			EXPECT_EQ(-1, fd) TH_LOG("sample bit %#llx accepted", bit);
			EXPECT_TRUE(refusal(errno))
				TH_LOG("bit %#llx: %s", bit, strerror(errno));
			if (fd >= 0)
				close(fd);
			continue;
		}
		ASSERT_EQ(0, record(&attr, touch_one, &session))
			TH_LOG("bit %#llx", bit);
		h = first_record(&session, PERF_RECORD_SAMPLE);
		ASSERT_TRUE(h) TH_LOG("bit %#llx: no sample", bit);
		EXPECT_EQ(h->size, parse_sample(&attr, h, &p))
			TH_LOG("bit %#llx: size %u", bit, h->size);
		check_sample_field(_metadata, bit, &p);
	}
}

TEST_HARNESS_MAIN
