// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ring buffer: where records land, when data_head
 * moves, what happens when user space lags behind.
 *
 * Nesting is simulated by starting a second record between the begin
 * and the end of a first one, as an interrupt or NMI would on this CPU.
 * Each test uses a one-page buffer, so every offset below is exact.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "internal.h"

#define TEST_SIZE	PAGE_SIZE

static struct perf_counter_buffer *new_buffer(struct kunit *test,
					      bool overwrite)
{
	struct perf_counter_buffer *rb;

	rb = perf_counter_buffer_alloc(1, overwrite);
	KUNIT_ASSERT_NOT_NULL(test, rb);
	KUNIT_ASSERT_EQ(test, rb->size, TEST_SIZE);
	return rb;
}

/* A counter good enough to write records for: no sample_id_all. */
static struct perf_counter *new_writer(struct kunit *test)
{
	struct perf_counter *counter;

	counter = kunit_kzalloc(test, sizeof(*counter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, counter);
	counter->id = 42;
	return counter;
}

static u64 data_head(struct perf_counter_buffer *rb)
{
	return READ_ONCE(rb->user_page->data_head);
}

/* Begin a record of @size bytes; its header says @type. */
static int begin(struct perf_counter_output *out,
		 struct perf_counter_buffer *rb, struct perf_counter *counter,
		 u32 type, unsigned int size)
{
	struct perf_counter_header header = { .type = type, .size = size };
	int err;

	err = perf_counter_output_begin(out, rb, counter, size);
	if (!err)
		perf_counter_output_copy(out, &header, sizeof(header));
	return err;
}

/* Fill the rest of the record with @byte and end it. */
static void finish(struct perf_counter_output *out, u8 byte)
{
	u8 fill[64];

	memset(fill, byte, sizeof(fill));
	while (out->pos < out->end)
		perf_counter_output_copy(out, fill,
					 min_t(unsigned long, sizeof(fill),
					       out->end - out->pos));
	perf_counter_output_end(out, true);
}

static int write_record(struct perf_counter_buffer *rb,
			struct perf_counter *counter, u32 type,
			unsigned int size, u8 byte)
{
	struct perf_counter_output out;
	int err = begin(&out, rb, counter, type, size);

	if (!err)
		finish(&out, byte);
	return err;
}

static struct perf_counter_header *header_at(struct perf_counter_buffer *rb,
					     unsigned long pos)
{
	return rb->data + (pos & (rb->size - 1));
}

static u8 byte_at(struct perf_counter_buffer *rb, unsigned long pos)
{
	return *(u8 *)(rb->data + (pos & (rb->size - 1)));
}

/*
 * An inner writer that starts and ends inside an outer one gets the
 * space after it, and data_head stays put until the outer one ends: a
 * reader never sees the outer record half written.
 */
static void nested_writer_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, false);
	struct perf_counter *counter = new_writer(test);
	struct perf_counter_output outer;

	KUNIT_ASSERT_EQ(test, begin(&outer, rb, counter, 100, 64), 0);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 200, 32, 0xbb), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 0);
	finish(&outer, 0xaa);
	KUNIT_EXPECT_EQ(test, data_head(rb), 96);

	KUNIT_EXPECT_EQ(test, header_at(rb, 0)->type, 100);
	KUNIT_EXPECT_EQ(test, header_at(rb, 0)->size, 64);
	KUNIT_EXPECT_EQ(test, byte_at(rb, 63), 0xaa);
	KUNIT_EXPECT_EQ(test, header_at(rb, 64)->type, 200);
	KUNIT_EXPECT_EQ(test, byte_at(rb, 95), 0xbb);

	/* Alone again, a writer publishes its record itself. */
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 300, 16, 0xcc), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 112);
	perf_counter_buffer_put(rb);
}

/* Two levels deep, and the innermost published by the outermost. */
static void nested_twice_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, false);
	struct perf_counter *counter = new_writer(test);
	struct perf_counter_output task, irq;

	KUNIT_ASSERT_EQ(test, begin(&task, rb, counter, 1, 40), 0);
	KUNIT_ASSERT_EQ(test, begin(&irq, rb, counter, 2, 24), 0);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 3, 16, 3), 0);
	finish(&irq, 2);
	KUNIT_EXPECT_EQ(test, data_head(rb), 0);
	finish(&task, 1);
	KUNIT_EXPECT_EQ(test, data_head(rb), 80);
	KUNIT_EXPECT_EQ(test, header_at(rb, 40)->type, 2);
	KUNIT_EXPECT_EQ(test, header_at(rb, 64)->type, 3);
	perf_counter_buffer_put(rb);
}

/* What nest_writer() writes, and how many more times it comes back. */
static struct perf_counter *nest_counter;
static int nest_left, nest_err;

/*
 * Called by rb_commit() of the outer writer between its read of head and
 * its read of writers: a whole record written there counts itself out
 * seeing the outer writer in flight, and leaves the publication to it.
 * Armed again, it nests into the outer writer's next round too.
 */
static void nest_writer(struct perf_counter_buffer *rb)
{
	nest_err |= write_record(rb, nest_counter, 7, 32, 0x77);
	if (--nest_left > 0)
		rb->test_nest = nest_writer;
}

/*
 * The outer writer published the head it read before the nested records
 * were reserved; unless it notices that head moved on and publishes
 * again, they stay invisible until some later writer comes along.  Three
 * records, each nested into the outer writer's latest round: data_head
 * must cover all of them when the outer writer is done.
 */
static void commit_retry_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, false);
	struct perf_counter *counter = new_writer(test);
	struct perf_counter_output outer;

	nest_counter = counter;
	nest_left = 3;
	nest_err = 0;
	KUNIT_ASSERT_EQ(test, begin(&outer, rb, counter, 100, 64), 0);
	rb->test_nest = nest_writer;
	finish(&outer, 0xaa);
	KUNIT_EXPECT_EQ(test, nest_left, 0);
	KUNIT_EXPECT_EQ(test, nest_err, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->writers), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 64 + 3 * 32);

	KUNIT_EXPECT_EQ(test, header_at(rb, 0)->type, 100);
	KUNIT_EXPECT_EQ(test, header_at(rb, 64)->type, 7);
	KUNIT_EXPECT_EQ(test, header_at(rb, 96)->type, 7);
	KUNIT_EXPECT_EQ(test, header_at(rb, 128)->type, 7);
	KUNIT_EXPECT_EQ(test, byte_at(rb, 159), 0x77);

	/* And the next writer, alone, still publishes its own record. */
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 8, 16, 0x88), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 64 + 3 * 32 + 16);
	perf_counter_buffer_put(rb);
}

/*
 * Without room the record is dropped and counted; once user space moves
 * data_tail, the next record is preceded by a LOST record with the exact
 * count, and the count starts over.
 */
static void lost_accounting_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, false);
	struct perf_counter *counter = new_writer(test);
	unsigned int lost_size = perf_counter_lost_size(counter);
	u64 *lost_body;
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, write_record(rb, counter, 9, 1024, i), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), TEST_SIZE);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, write_record(rb, counter, 9, 8, 0),
				-ENOSPC);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 5);
	KUNIT_EXPECT_EQ(test, data_head(rb), TEST_SIZE);

	/* The reader consumed the first record. */
	WRITE_ONCE(rb->user_page->data_tail, 1024);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 10, 64, 0xee), 0);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), TEST_SIZE + lost_size + 64);

	KUNIT_EXPECT_EQ(test, header_at(rb, TEST_SIZE)->type, PERF_RECORD_LOST);
	KUNIT_EXPECT_EQ(test, header_at(rb, TEST_SIZE)->size, lost_size);
	lost_body = (u64 *)(header_at(rb, TEST_SIZE) + 1);
	KUNIT_EXPECT_EQ(test, lost_body[0], 42);
	KUNIT_EXPECT_EQ(test, lost_body[1], 5);
	KUNIT_EXPECT_EQ(test, header_at(rb, TEST_SIZE + lost_size)->type, 10);
	perf_counter_buffer_put(rb);
}

/*
 * A record that crosses the end of the data area continues at its
 * start, and the reader's tail bounds the writer exactly: head never
 * gets more than the buffer size ahead of it.
 */
static void wrap_and_tail_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, false);
	struct perf_counter *counter = new_writer(test);
	unsigned long pos;

	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 3000, 1), 0);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 2, 1000, 2), 0);
	/* 96 bytes left: a 104-byte record does not fit, 96 does. */
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 3, 104, 3), -ENOSPC);
	WRITE_ONCE(rb->user_page->data_tail, 3000);
	/* 3096 free now; the LOST record comes first, then the wrap. */
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 4, 2000, 4), 0);
	pos = 4000 + perf_counter_lost_size(counter);
	KUNIT_EXPECT_EQ(test, header_at(rb, 4000)->type, PERF_RECORD_LOST);
	KUNIT_EXPECT_EQ(test, header_at(rb, pos)->type, 4);
	KUNIT_EXPECT_EQ(test, byte_at(rb, TEST_SIZE - 1), 4);
	KUNIT_EXPECT_EQ(test, byte_at(rb, pos + 1999), 4);
	/* What follows the wrapped record is still the old first one. */
	KUNIT_EXPECT_EQ(test, byte_at(rb, pos + 2000), 1);
	KUNIT_EXPECT_EQ(test, data_head(rb), pos + 2000);
	KUNIT_EXPECT_LE(test, data_head(rb) - 3000, (u64)TEST_SIZE);
	perf_counter_buffer_put(rb);
}

/* Mapped read-only, the buffer overwrites: user space has no tail. */
static void overwrite_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, true);
	struct perf_counter *counter = new_writer(test);
	int i;

	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 1024, i), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 10 * 1024);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 0);
	KUNIT_EXPECT_EQ(test, byte_at(rb, 9 * 1024 + 100), 9);
	perf_counter_buffer_put(rb);
}

/* Bound on the wait for the deferred free; it normally takes a moment. */
#define MAX_FREE_WAITS	10000

/*
 * Writers find a buffer under RCU without taking a reference, so the
 * last reference going must not free the buffer, nor let go of the
 * counter that mapped it, while a writer that found it may still be in
 * its read-side section: a writer there still writes and publishes its
 * record.  Once the grace period is over, both are let go.
 */
static void free_after_grace_period_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, false);
	struct perf_counter *owner = new_writer(test);
	int i;

	/* Ours, and the reference the buffer holds on the counter. */
	refcount_set(&owner->refcount, 2);
	rb->owner = owner;

	rcu_read_lock();
	perf_counter_buffer_put(rb);
	KUNIT_EXPECT_EQ(test, refcount_read(&owner->refcount), 2);
	KUNIT_EXPECT_EQ(test, write_record(rb, owner, 1, 64, 1), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 64);
	rcu_read_unlock();

	for (i = 0; i < MAX_FREE_WAITS; i++) {
		if (refcount_read(&owner->refcount) != 2)
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_EQ(test, refcount_read(&owner->refcount), 1);
}

static struct kunit_case perf_counter_ring_buffer_cases[] = {
	KUNIT_CASE(nested_writer_test),
	KUNIT_CASE(nested_twice_test),
	KUNIT_CASE(commit_retry_test),
	KUNIT_CASE(lost_accounting_test),
	KUNIT_CASE(wrap_and_tail_test),
	KUNIT_CASE(overwrite_test),
	KUNIT_CASE(free_after_grace_period_test),
	{}
};

static struct kunit_suite perf_counter_ring_buffer_suite = {
	.name = "perf_counter_ring_buffer",
	.test_cases = perf_counter_ring_buffer_cases,
};

kunit_test_suite(perf_counter_ring_buffer_suite);
