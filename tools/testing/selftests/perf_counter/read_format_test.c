// SPDX-License-Identifier: GPL-2.0
/*
 * read() on counter file descriptors: for every combination of
 * read_format bits, the exact number of bytes, the order of the words,
 * and ENOSPC when the buffer is one word short.  Groups: one read
 * returns every member, and members share the leader's times.
 */

#include "counter_test.h"

/* Every combination of these bits is tried. */
#define FORMAT_BITS	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID | PERF_FORMAT_GROUP | \
			 PERF_FORMAT_LOST)

/* Faults per format tried: few, as every format is tried. */
#define READ_PAGES	8

#define MAX_MEMBERS	3
#define MAX_WORDS	(3 + MAX_MEMBERS * 3)

/* What one read() returned, taken apart. */
struct decoded_read {
	__u64 nr;
	__u64 enabled;
	__u64 running;
	__u64 value[MAX_MEMBERS];
	__u64 id[MAX_MEMBERS];
	__u64 lost[MAX_MEMBERS];
};

static bool has(__u64 format, __u64 bit)
{
	return (format & bit) != 0;
}

/* Bytes read() returns for @format on a group of @nr counters. */
static size_t expected_size(__u64 format, unsigned int nr)
{
	size_t per_counter = 1 + has(format, PERF_FORMAT_ID) +
			     has(format, PERF_FORMAT_LOST);
	size_t words = has(format, PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       has(format, PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (has(format, PERF_FORMAT_GROUP))
		words += 1 + nr * per_counter;
	else
		words += per_counter;
	return words * sizeof(__u64);
}

/* Word order as the ABI defines it; see read_format in perf_counter.h. */
static void decode(const __u64 *w, __u64 format, struct decoded_read *d)
{
	bool group = has(format, PERF_FORMAT_GROUP);
	unsigned int i;

	memset(d, 0, sizeof(*d));
	d->nr = group ? *w++ : 1;
	if (!group)
		d->value[0] = *w++;
	if (has(format, PERF_FORMAT_TOTAL_TIME_ENABLED))
		d->enabled = *w++;
	if (has(format, PERF_FORMAT_TOTAL_TIME_RUNNING))
		d->running = *w++;
	for (i = 0; i < d->nr && i < MAX_MEMBERS; i++) {
		if (group)
			d->value[i] = *w++;
		if (has(format, PERF_FORMAT_ID))
			d->id[i] = *w++;
		if (has(format, PERF_FORMAT_LOST))
			d->lost[i] = *w++;
	}
}

/*
 * Read @fd with a generous buffer, expecting exactly @size bytes, then
 * with one word less, expecting ENOSPC.  Returns false (after logging)
 * on any difference.
 */
static bool read_exact(struct __test_metadata *_metadata, int fd,
		       __u64 *words, size_t size)
{
	__u64 spare[MAX_WORDS];
	ssize_t got;

	memset(words, 0, MAX_WORDS * sizeof(*words));
	got = read(fd, words, MAX_WORDS * sizeof(*words));
	if (got != (ssize_t)size) {
		TH_LOG("read returned %zd (%s), expected %zu bytes", got,
		       got < 0 ? strerror(errno) : "", size);
		return false;
	}
	got = read(fd, spare, size - sizeof(__u64));
	if (got != -1 || errno != ENOSPC) {
		TH_LOG("short buffer: read returned %zd (%s), not ENOSPC",
		       got, got < 0 ? strerror(errno) : "");
		return false;
	}
	return true;
}

/* Checks that hold for every format on a counter that has counted. */
static void check_times(struct __test_metadata *_metadata, __u64 format,
			const struct decoded_read *d)
{
	if (has(format, PERF_FORMAT_TOTAL_TIME_ENABLED))
		EXPECT_LT(0, d->enabled);
	if (has(format, PERF_FORMAT_TOTAL_TIME_RUNNING))
		EXPECT_LT(0, d->running);
	if (has(format, PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    has(format, PERF_FORMAT_TOTAL_TIME_RUNNING))
		EXPECT_LE(d->running, d->enabled);
}

/*
 * A page-fault counter alone, read in each format.  Its value is known
 * to be at least READ_PAGES, its id is what the ID ioctl says, and it
 * never loses records (it writes none).
 */
TEST(single_counter_every_format)
{
	__u64 words[MAX_WORDS], format;
	struct decoded_read d;
	int fd;

	for (format = 0; format <= FORMAT_BITS; format++) {
		if (format & ~FORMAT_BITS)
			continue;
		fd = sw_counter_open(PERF_COUNT_SW_PAGE_FAULTS, format, false);
		ASSERT_LE(0, fd) TH_LOG("format %#llx: %s", format, strerror(errno));
		ASSERT_TRUE(touch_fresh_pages(READ_PAGES));
		outlast_clock_ticks();

		ASSERT_TRUE(read_exact(_metadata, fd, words,
				       expected_size(format, 1)))
			TH_LOG("format %#llx", format);
		decode(words, format, &d);
		EXPECT_EQ(1, d.nr) TH_LOG("format %#llx", format);
		EXPECT_LE(READ_PAGES, d.value[0]) TH_LOG("format %#llx", format);
		if (has(format, PERF_FORMAT_ID))
			EXPECT_EQ(counter_id(fd), d.id[0]) TH_LOG("format %#llx", format);
		EXPECT_EQ(0, d.lost[0]) TH_LOG("format %#llx", format);
		check_times(_metadata, format, &d);
		close(fd);
	}
}

/*
 * Open a leader and members as one group.  Member 1 is a dummy, which
 * counts nothing, so that a value in the wrong slot shows.  Members are
 * always opened enabled: they count whenever the leader does.
 */
static const __u64 group_configs[MAX_MEMBERS] = {
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_DUMMY,
	PERF_COUNT_SW_PAGE_FAULTS_MIN,
};

static int open_group(int *fds, __u64 format, bool leader_disabled)
{
	struct perf_counter_attr attr;
	unsigned int i;

	for (i = 0; i < MAX_MEMBERS; i++) {
		counter_attr_init(&attr, PERF_TYPE_SOFTWARE, group_configs[i]);
		attr.read_format = format;
		attr.disabled = !i && leader_disabled;
		fds[i] = counter_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

static void close_all(int *fds, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		close(fds[i]);
}

/* PERF_FORMAT_GROUP on the leader returns every member, leader first. */
TEST(group_every_format)
{
	__u64 words[MAX_WORDS], format;
	int fds[MAX_MEMBERS];
	struct decoded_read d;
	unsigned int i;

	for (format = PERF_FORMAT_GROUP; format <= FORMAT_BITS; format++) {
		if ((format & ~FORMAT_BITS) || !has(format, PERF_FORMAT_GROUP))
			continue;
		ASSERT_EQ(0, open_group(fds, format, false))
			TH_LOG("format %#llx: %s", format, strerror(errno));
		ASSERT_TRUE(touch_fresh_pages(READ_PAGES));
		outlast_clock_ticks();

		ASSERT_TRUE(read_exact(_metadata, fds[0], words,
				       expected_size(format, MAX_MEMBERS)))
			TH_LOG("format %#llx", format);
		decode(words, format, &d);
		ASSERT_EQ(MAX_MEMBERS, d.nr) TH_LOG("format %#llx", format);
		EXPECT_LE(READ_PAGES, d.value[0]) TH_LOG("format %#llx", format);
		EXPECT_EQ(0, d.value[1]) TH_LOG("format %#llx", format);
		EXPECT_LE(READ_PAGES, d.value[2]) TH_LOG("format %#llx", format);
		for (i = 0; i < MAX_MEMBERS; i++) {
			if (has(format, PERF_FORMAT_ID))
				EXPECT_EQ(counter_id(fds[i]), d.id[i])
					TH_LOG("format %#llx member %u", format, i);
			EXPECT_EQ(0, d.lost[i]);
		}
		check_times(_metadata, format, &d);
		close_all(fds, MAX_MEMBERS);
	}
}

/* Without PERF_FORMAT_GROUP a member reads as a counter of its own. */
TEST(member_reads_alone)
{
	int fds[MAX_MEMBERS];
	__u64 words[MAX_WORDS];
	struct decoded_read d;
	__u64 format = FORMAT_TIMES | PERF_FORMAT_ID;

	ASSERT_EQ(0, open_group(fds, format, false)) TH_LOG("%s", strerror(errno));
	ASSERT_TRUE(touch_fresh_pages(READ_PAGES));
	outlast_clock_ticks();

	ASSERT_TRUE(read_exact(_metadata, fds[1], words, expected_size(format, 1)));
	decode(words, format, &d);
	EXPECT_EQ(0, d.value[0]);
	EXPECT_EQ(counter_id(fds[1]), d.id[0]);

	ASSERT_TRUE(read_exact(_metadata, fds[2], words, expected_size(format, 1)));
	decode(words, format, &d);
	EXPECT_LE(READ_PAGES, d.value[0]);
	EXPECT_EQ(counter_id(fds[2]), d.id[0]);
	check_times(_metadata, format, &d);
	close_all(fds, MAX_MEMBERS);
}

/*
 * A group is scheduled all or nothing: members run exactly when the
 * leader does.  Members opened enabled under a disabled leader wait for
 * it; enabling and disabling the leader alone then starts and stops the
 * whole group at one instant, so every member has run exactly as long as
 * the leader, and has been enabled at least as long.
 */
TEST(members_run_with_leader)
{
	struct counter_reading r[MAX_MEMBERS];
	int fds[MAX_MEMBERS];
	unsigned int i;

	ASSERT_EQ(0, open_group(fds, FORMAT_TIMES, true)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_ENABLE, 0));
	outlast_clock_ticks();
	ASSERT_TRUE(touch_fresh_pages(READ_PAGES));
	ASSERT_EQ(0, ioctl(fds[0], PERF_COUNTER_IOC_DISABLE, 0));

	for (i = 0; i < MAX_MEMBERS; i++)
		ASSERT_TRUE(counter_read(fds[i], &r[i]));
	EXPECT_LT(0, r[0].running);
	EXPECT_LE(r[0].running, r[0].enabled);
	for (i = 1; i < MAX_MEMBERS; i++) {
		EXPECT_EQ(r[0].running, r[i].running) TH_LOG("member %u", i);
		EXPECT_LE(r[0].enabled, r[i].enabled) TH_LOG("member %u", i);
	}
	EXPECT_LE(READ_PAGES, r[2].value);
	close_all(fds, MAX_MEMBERS);
}

TEST_HARNESS_MAIN
