// SPDX-License-Identifier: GPL-2.0
/*
 * Samples with the user registers and a copy of the user stack
 * (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER), what --call-graph
 * dwarf unwinds from, and the interrupted registers (REGS_INTR):
 *   - a fault in user mode gives its registers, and the stack copy from
 *     its SP holds what the faulting function put on its stack;
 *   - a sample taken in the kernel (a context switch) gives the user
 *     registers the task entered the kernel with;
 *   - the largest stack asked for is cut so that the record fits;
 *   - kernel threads have no user registers (ABI 0, empty stack);
 *   - register masks that name registers not saved are refused.
 * The same on perf_event_open, whose ABI this is.
 */

#include "counter_test.h"
#include "ring.h"

#include <asm/perf_regs.h>

#define DATA_PAGES	64
#define MAGIC		0x5eedfaceca11ab1eULL
#define REGS_MASK	((1ULL << PERF_REG_X86_BP) | \
			 (1ULL << PERF_REG_X86_SP) | \
			 (1ULL << PERF_REG_X86_IP))

/* What a sample of REGS_USER (BP, SP, IP) and STACK_USER holds. */
struct user_sample {
	__u64		abi;
	__u64		bp, sp, ip;
	__u64		stack_size, dyn_size;
	const __u64	*stack;
	unsigned int	record_size;
};

/* Parse a sample of sample_type REGS_USER | STACK_USER (nothing else). */
static bool parse_user_sample(const struct perf_counter_header *h,
			      struct user_sample *s)
{
	const __u64 *w = (const __u64 *)(h + 1);
	const __u64 *end = (const __u64 *)((const char *)h + h->size);

	memset(s, 0, sizeof(*s));
	s->record_size = h->size;
	s->abi = *w++;
	if (s->abi) {
		s->bp = *w++;
		s->sp = *w++;
		s->ip = *w++;
	}
	if (w >= end)
		return false;
	s->stack_size = *w++;
	if (!s->stack_size)
		return w == end;
	s->stack = w;
	w += s->stack_size / 8;
	if (w >= end)
		return false;
	s->dyn_size = *w++;
	return w == end;
}

/* Every sample of a ring, for @fn with its parse; false on a bad one. */
struct walk {
	struct __test_metadata	*md;
	void			(*fn)(struct walk *w, struct user_sample *s);
	unsigned int		samples, bad;
	void			*arg;
};

static void on_record(const struct perf_counter_header *h, bool broken,
		      void *arg)
{
	struct walk *w = arg;
	struct user_sample s;

	if (broken) {
		w->bad++;
		return;
	}
	if (h->type != PERF_RECORD_SAMPLE)
		return;
	if (!parse_user_sample(h, &s)) {
		w->bad++;
		return;
	}
	w->samples++;
	w->fn(w, &s);
}

static int user_sampler(__u32 type, __u64 config, pid_t pid, int cpu,
			__u32 stack, bool exclude_kernel)
{
	struct perf_counter_attr attr;

	counter_attr_init(&attr, type, config);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = REGS_MASK;
	attr.sample_stack_user = stack;
	attr.exclude_kernel = exclude_kernel;
	attr.disabled = 1;
	return counter_open(&attr, pid, cpu, -1, 0);
}

/* --- a fault in user mode, with a known stack --- */

static volatile char *fault_page;
static __u64 magic_at;		/* where the faulting frame put MAGIC */

static __attribute__((noinline)) void use_magic(volatile __u64 *magic)
{
	magic[0] += magic[3];
}

/*
 * Not a leaf: a leaf may keep its locals in the red zone below SP,
 * which the copy from SP up does not have.
 */
static __attribute__((noinline)) void fault_with_magic(void)
{
	volatile __u64 magic[4] = { MAGIC, MAGIC + 1, MAGIC + 2, MAGIC + 3 };

	magic_at = (__u64)(unsigned long)magic;
	*fault_page = 1;
	/* Used after the fault, so it is still on the stack at it. */
	use_magic(magic);
}

static void check_fault(struct walk *w, struct user_sample *s)
{
	struct __test_metadata *_metadata = w->md;
	__u64 off, i;

	EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, s->abi);
	EXPECT_EQ(512, s->stack_size);
	EXPECT_EQ(512, s->dyn_size);
	/* The faulting frame's array lies above its SP, within the copy. */
	ASSERT_LE(s->sp, magic_at);
	off = magic_at - s->sp;
	ASSERT_GT(512, off + 32);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(MAGIC + i, s->stack[off / 8 + i]) TH_LOG("word %llu", i);
	EXPECT_NE(0, s->ip);
}

TEST(fault_sample_copies_the_faulting_stack)
{
	struct walk w = { .md = _metadata, .fn = check_fault };
	struct ring r;
	int fd;

	fd = user_sampler(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, -1,
			  512, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, DATA_PAGES));
	fault_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, fault_page);
	/* The code and the stack of the fault are there before we count. */
	fault_with_magic();
	munmap((void *)fault_page, 4096);
	fault_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, fault_page);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	fault_with_magic();
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ring_walk(&r, on_record, &w);
	EXPECT_EQ(0, w.bad);
	EXPECT_EQ(1, w.samples);
	munmap((void *)fault_page, 4096);
	ring_unmap(&r);
	close(fd);
}

/* --- a sample in the kernel: the registers user space entered with --- */

static void check_switch(struct walk *w, struct user_sample *s)
{
	struct __test_metadata *_metadata = w->md;
	__u64 here = (__u64)(unsigned long)w->arg;

	EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, s->abi);
	EXPECT_GT(1ULL << 47, s->ip);
	/* Our own stack, a little below a local of the test. */
	EXPECT_LE(s->sp, here);
	EXPECT_GT(1 << 20, here - s->sp);
	EXPECT_EQ(256, s->dyn_size);
}

TEST(kernel_sample_gives_the_user_registers)
{
	struct walk w = { .md = _metadata, .fn = check_switch };
	int local = 0;
	struct ring r;
	int fd, i;

	w.arg = &local;
	fd = user_sampler(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
			  0, -1, 256, false);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "kernel-mode samples not allowed (paranoid)");
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, DATA_PAGES));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	for (i = 0; i < 10; i++)
		usleep(1000);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ring_walk(&r, on_record, &w);
	EXPECT_EQ(0, w.bad);
	EXPECT_LE(10, w.samples);
	ring_unmap(&r);
	close(fd);
}

/* --- the largest stack fits the record --- */

static void check_largest(struct walk *w, struct user_sample *s)
{
	struct __test_metadata *_metadata = w->md;

	EXPECT_GE(65535, s->record_size);
	EXPECT_EQ(0, s->stack_size % 8);
	EXPECT_LT(60000, s->stack_size);
	EXPECT_GE(s->stack_size, s->dyn_size);
}

TEST(largest_stack_is_cut_to_fit_the_record)
{
	struct walk w = { .md = _metadata, .fn = check_largest };
	struct ring r;
	int fd;

	fd = user_sampler(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, -1,
			  65528, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, DATA_PAGES));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	touch_fresh_pages(4);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ring_walk(&r, on_record, &w);
	EXPECT_EQ(0, w.bad);
	EXPECT_LE(4, w.samples);
	ring_unmap(&r);
	close(fd);
}

/* --- kernel threads: no user registers, no stack --- */

static void count_kernel_threads(struct walk *w, struct user_sample *s)
{
	unsigned int *none = w->arg;

	if (!s->abi) {
		(*none)++;
		if (s->stack_size)
			w->bad++;
	}
}

TEST(kernel_threads_have_no_user_registers)
{
	unsigned int none = 0;
	struct walk w = { .md = _metadata, .fn = count_kernel_threads,
			  .arg = &none };
	struct ring r;
	int fd, i;

	fd = user_sampler(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
			  -1, 0, 128, false);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "CPU-wide counters not allowed (not root?)");
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, DATA_PAGES));
	/*
	 * On CPU 0 each of our sleeps switches to another task, idle (a
	 * kernel thread) when nothing else runs there, and back to us:
	 * a kernel thread switches out of CPU 0 whatever the other CPU does.
	 */
	ASSERT_TRUE(pin_to_cpu(0));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	for (i = 0; i < 20 && !none; i++) {
		usleep(20000);
		ring_walk(&r, on_record, &w);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	pin_to_cpu(-1);
	EXPECT_EQ(0, w.bad);
	EXPECT_LT(0, none);
	ring_unmap(&r);
	close(fd);
}

/* --- masks --- */

static int open_errno(__u64 type, __u64 user_mask, __u64 intr_mask)
{
	struct perf_counter_attr attr;
	int fd;

	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = type;
	attr.sample_regs_user = user_mask;
	attr.sample_regs_intr = intr_mask;
	attr.exclude_kernel = 1;
	fd = counter_open(&attr, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

TEST(masks_of_registers_not_saved_are_refused)
{
	EXPECT_EQ(0, open_errno(PERF_SAMPLE_REGS_USER, REGS_MASK, 0));
	EXPECT_EQ(EINVAL, open_errno(PERF_SAMPLE_REGS_USER, 0, 0));
	EXPECT_EQ(EINVAL, open_errno(PERF_SAMPLE_REGS_USER,
				     1ULL << PERF_REG_X86_DS, 0));
	EXPECT_EQ(EINVAL, open_errno(PERF_SAMPLE_REGS_USER,
				     1ULL << PERF_REG_X86_64_MAX, 0));
	EXPECT_EQ(0, open_errno(PERF_SAMPLE_REGS_INTR, 0, REGS_MASK));
	EXPECT_EQ(EINVAL, open_errno(PERF_SAMPLE_REGS_INTR, 0,
				     1ULL << PERF_REG_X86_GS));
}

TEST_HARNESS_MAIN
