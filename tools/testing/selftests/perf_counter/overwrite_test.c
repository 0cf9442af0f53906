// SPDX-License-Identifier: GPL-2.0
/*
 * Flight-recorder buffers: attr.write_backward, mapped read-only so that
 * the kernel overwrites the oldest records, read by walking forward from
 * data_head; and PERF_COUNTER_IOC_PAUSE_OUTPUT, which holds a buffer
 * still while it is read.
 *
 * The samples are page faults at addresses we choose, so which records
 * the buffer must hold, and in which order, is known exactly.
 */

#include "counter_test.h"
#include "ring.h"

/* PERF_SAMPLE_ADDR alone: header and address. */
#define SAMPLE_SIZE	16

static int backward_fault_sampler(__u64 read_format)
{
	struct perf_counter_attr attr;

	fault_sampler_attr(&attr, PERF_SAMPLE_ADDR, read_format, true);
	attr.write_backward = 1;
	return counter_open(&attr, 0, -1, -1, 0);
}

/* What a walk from data_head found. */
struct walk {
	__u64 addrs[4096];
	unsigned int nr;
	__u64 covered;		/* bytes, from data_head */
	bool zero_stop;		/* ended at never written space */
};

/*
 * Walk a backward buffer as a reader must: from data_head forward, to a
 * header of size 0 or until the next record would reach beyond one
 * buffer size (it was partly overwritten).
 */
static bool walk_backward(struct ring *r, struct walk *w)
{
	__u64 head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	struct perf_counter_header h;
	__u64 rec[2];

	memset(w, 0, sizeof(*w));
	while (w->covered + sizeof(h) <= r->size && w->nr < 4096) {
		ring_copy(r, head + w->covered, &h, sizeof(h));
		if (!h.size) {
			w->zero_stop = true;
			break;
		}
		if (h.size < sizeof(h) || (h.size & 7))
			return false;
		if (w->covered + h.size > r->size)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size == SAMPLE_SIZE) {
			ring_copy(r, head + w->covered, rec, sizeof(rec));
			w->addrs[w->nr++] = rec[1];
		}
		w->covered += h.size;
	}
	return true;
}

/* How many of the newest samples are our pages, last touched first. */
static unsigned int newest_in_order(const struct walk *w, const char *mem,
				    unsigned int pages)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;

	for (i = 0; i < w->nr && i < pages; i++)
		if (w->addrs[i] != (__u64)(unsigned long)(mem +
				   (pages - 1 - i) * page))
			break;
	return i;
}

/*
 * Like newest_in_order(), but over every sample: those of our pages must
 * run down one page at a time from the newest; a fault elsewhere (or a
 * page faulted twice) may sit among them, and is counted in *@others.
 * Returns how many of ours were in order.
 */
static unsigned int ours_newest_first(const struct walk *w, const char *mem,
				      unsigned int pages, unsigned int *others)
{
	long page = sysconf(_SC_PAGESIZE);
	__u64 start = (unsigned long)mem, end = start + pages * page;
	__u64 prev = 0, want = 0;
	unsigned int i, ours = 0;

	*others = 0;
	for (i = 0; i < w->nr; i++) {
		__u64 addr = w->addrs[i];

		if (addr < start || addr >= end || addr == prev) {
			(*others)++;
			continue;
		}
		if (ours && addr != want)
			break;
		ours++;
		prev = addr;
		want = addr - page;
	}
	return ours;
}

/*
 * Before it wraps, a backward buffer holds every sample, newest first
 * from data_head, and ends at unwritten space; data_head ran down from 0
 * by exactly the bytes written.
 */
TEST(backward_holds_all_before_wrapping)
{
	long page = sysconf(_SC_PAGESIZE);
	static struct walk w;
	struct ring r;
	__u64 head, count;
	char *mem;
	int fd;

	fd = backward_fault_sampler(0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map_prot(&r, fd, 4, false));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	mem = touch_new_pages(64);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_NE(NULL, mem);
	count = counter_value(fd);
	head = r.page->data_head;

	EXPECT_EQ(count * SAMPLE_SIZE, -head);
	ASSERT_TRUE(walk_backward(&r, &w));
	EXPECT_TRUE(w.zero_stop);
	EXPECT_EQ(count, w.nr);
	EXPECT_EQ(-head, w.covered);
	EXPECT_EQ(64, newest_in_order(&w, mem, 64));
	munmap(mem, 64 * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * Mapped read-only, a backward buffer overwrites: after many times its
 * size, nothing was lost, and the walk finds the newest samples, whole
 * and in order, filling the buffer.  (Samples the kernel throttles are
 * never written at all, so the count can be above what was written,
 * and THROTTLE records may sit among the samples.)
 */
TEST(backward_overwrite_keeps_newest)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int pages = 2048, ours, others;
	static struct walk w;
	__u64 values[2];
	struct ring r;
	char *mem;
	int fd;

	fd = backward_fault_sampler(PERF_FORMAT_LOST);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map_prot(&r, fd, 1, false));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	mem = touch_new_pages(pages);
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(sizeof(values), read(fd, values, sizeof(values)));
	EXPECT_EQ(0, values[1]);
	EXPECT_LT(r.size, -r.page->data_head);

	ASSERT_TRUE(walk_backward(&r, &w));
	EXPECT_FALSE(w.zero_stop);
	/*
	 * Full but for less than the next older record: a sample, or a
	 * THROTTLE record (32 bytes) if the kernel throttled meanwhile.
	 */
	EXPECT_GE(r.size, w.covered);
	EXPECT_LT(r.size - 32, w.covered);
	EXPECT_LT(r.size / SAMPLE_SIZE / 2, w.nr);
	ours = ours_newest_first(&w, mem, pages, &others);
	EXPECT_EQ(w.nr, ours + others);
	EXPECT_LE(w.nr * 9 / 10, ours);
	/* The newest of all is the last page touched. */
	EXPECT_EQ((__u64)(unsigned long)(mem + (pages - 1) * page), w.addrs[0]);
	munmap(mem, pages * page);
	ring_unmap(&r);
	close(fd);
}

/*
 * Mapped writable, a backward buffer keeps what the reader has not
 * taken: data_head never runs more than the size below data_tail, and
 * what did not fit is counted lost.
 */
TEST(backward_writable_honours_tail)
{
	__u64 values[2], head;
	struct ring r;
	int fd;

	fd = backward_fault_sampler(PERF_FORMAT_LOST);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	ASSERT_TRUE(touch_fresh_pages(1024));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(values), read(fd, values, sizeof(values)));
	head = r.page->data_head;
	/* Full, give or take the one sample a kernel may keep free. */
	EXPECT_GE(r.size, -head);
	EXPECT_LE(r.size - SAMPLE_SIZE, -head);
	EXPECT_LT(0, values[1]);
	EXPECT_GE(values[0] - -head / SAMPLE_SIZE, values[1]);
	ring_unmap(&r);
	close(fd);
}

/* One buffer, one direction: forward records cannot go into a backward one. */
TEST(set_output_needs_same_direction)
{
	struct perf_counter_attr attr;
	int backward, forward;
	struct ring r;

	backward = backward_fault_sampler(0);
	ASSERT_LE(0, backward) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map_prot(&r, backward, 1, false));
	counter_attr_init(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	forward = counter_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, forward);
	EXPECT_EQ(-1, ioctl(forward, PERF_COUNTER_IOC_SET_OUTPUT, backward));
	EXPECT_EQ(EINVAL, errno);
	close(forward);
	attr.write_backward = 1;
	forward = counter_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, forward);
	EXPECT_EQ(0, ioctl(forward, PERF_COUNTER_IOC_SET_OUTPUT, backward));
	close(forward);
	ring_unmap(&r);
	close(backward);
}

/*
 * Paused, the buffer holds still: data_head and every byte stay as they
 * were while the counter goes on counting.  Resumed, the first record is
 * a LOST record with exactly the samples dropped meanwhile.
 */
TEST(pause_output_holds_buffer_still)
{
	__u64 before, during, head, rec[3];
	struct perf_counter_header h;
	static char copy[4096];
	struct ring r;
	int fd;

	/* Faulted in now: a fault while paused must be one we count. */
	memset(copy, 1, sizeof(copy));
	fd = fault_sampler(PERF_SAMPLE_ADDR, 0, true);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_TRUE(ring_map(&r, fd, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_ENABLE, 0));
	ASSERT_TRUE(touch_fresh_pages(16));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_PAUSE_OUTPUT, 1));
	before = counter_value(fd);
	head = r.page->data_head;
	memcpy(copy, r.data, sizeof(copy));
	ASSERT_TRUE(touch_fresh_pages(32));
	/* Compared while paused: its own first faults are dropped too. */
	EXPECT_EQ(head, r.page->data_head);
	EXPECT_EQ(0, memcmp(copy, r.data, sizeof(copy)));
	during = counter_value(fd) - before;
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_PAUSE_OUTPUT, 0));
	EXPECT_LE(32, during);

	ASSERT_TRUE(touch_fresh_pages(1));
	ASSERT_EQ(0, ioctl(fd, PERF_COUNTER_IOC_DISABLE, 0));
	ASSERT_LT(head, r.page->data_head);
	ring_copy(&r, head, &h, sizeof(h));
	EXPECT_EQ(PERF_RECORD_LOST, h.type);
	ring_copy(&r, head, rec, sizeof(rec));
	EXPECT_EQ(during, rec[2]);
	ring_unmap(&r);
	close(fd);
}

/* Without a buffer, there is no output to pause. */
TEST(pause_output_needs_a_buffer)
{
	int fd = fault_sampler(PERF_SAMPLE_ADDR, 0, true);

	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(-1, ioctl(fd, PERF_COUNTER_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST_HARNESS_MAIN
