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
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "internal.h"

#define TEST_SIZE	PAGE_SIZE
/* The buffer the concurrent writers share: 512 KiB. */
#define SNAP_SIZE	(128 * PAGE_SIZE)

static struct perf_counter_buffer *new_buffer(struct kunit *test,
					      unsigned int flags)
{
	struct perf_counter_buffer *rb;

	rb = perf_counter_buffer_alloc(1, flags);
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
	while (out->pos != out->end)
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
	struct perf_counter_buffer *rb = new_buffer(test, 0);
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
	struct perf_counter_buffer *rb = new_buffer(test, 0);
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
	struct perf_counter_buffer *rb = new_buffer(test, 0);
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
	struct perf_counter_buffer *rb = new_buffer(test, 0);
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
	struct perf_counter_buffer *rb = new_buffer(test, 0);
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
	struct perf_counter_buffer *rb = new_buffer(test, PERF_COUNTER_RB_OVERWRITE);
	struct perf_counter *counter = new_writer(test);
	int i;

	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 1024, i), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 10 * 1024);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 0);
	KUNIT_EXPECT_EQ(test, byte_at(rb, 9 * 1024 + 100), 9);
	perf_counter_buffer_put(rb);
}

#define BACKWARD_OVERWRITE	(PERF_COUNTER_RB_BACKWARD | PERF_COUNTER_RB_OVERWRITE)

/*
 * Walk a backward buffer's @data (@size bytes) from @head the way a
 * reader does: forward through older and older records, up to a header
 * of size 0 (never written) or one that would reach past one buffer
 * size from @head.  The types of the records found go into @types (at
 * most @max); returns how many there were, or -1 on a malformed size.
 */
static int walk_backward(const void *data, unsigned long size, u64 head,
			 u32 *types, int max)
{
	const struct perf_counter_header *hdr;
	u64 pos = head;
	int n = 0;

	while (n < max && pos - head + sizeof(*hdr) <= size) {
		hdr = data + (pos & (size - 1));
		if (!hdr->size)
			break;
		if (hdr->size < sizeof(*hdr) || (hdr->size & 7))
			return -1;
		if (pos - head + hdr->size > size)
			break;
		types[n++] = hdr->type;
		pos += hdr->size;
	}
	return n;
}

/* Does the record at @pos hold @byte from its header to its end? */
static bool record_filled(struct perf_counter_buffer *rb, u64 pos, u8 byte)
{
	const struct perf_counter_header *hdr = header_at(rb, pos);
	unsigned int i;

	for (i = sizeof(*hdr); i < hdr->size; i++)
		if (byte_at(rb, pos + i) != byte)
			return false;
	return true;
}

/*
 * Written backward, data_head is where the newest record starts and
 * it runs down from 0; the records are found by walking forward from
 * it, newest first, until the unwritten (zeroed) space.
 */
static void backward_layout_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, BACKWARD_OVERWRITE);
	struct perf_counter *counter = new_writer(test);
	u32 types[8];

	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 1000, 1), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), (u64)-1000);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 2, 96, 2), 0);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 3, 8, 3), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), (u64)-1104);

	KUNIT_EXPECT_EQ(test, header_at(rb, -1104)->type, 3);
	KUNIT_EXPECT_EQ(test, header_at(rb, -1096)->type, 2);
	KUNIT_EXPECT_EQ(test, header_at(rb, -1000)->type, 1);
	KUNIT_EXPECT_TRUE(test, record_filled(rb, -1000, 1));
	KUNIT_EXPECT_TRUE(test, record_filled(rb, -1096, 2));
	KUNIT_ASSERT_EQ(test, walk_backward(rb->data, rb->size, data_head(rb),
					    types, ARRAY_SIZE(types)), 3);
	KUNIT_EXPECT_EQ(test, types[0], 3);
	KUNIT_EXPECT_EQ(test, types[1], 2);
	KUNIT_EXPECT_EQ(test, types[2], 1);
	perf_counter_buffer_put(rb);
}

/*
 * Mapped read-only, a backward buffer overwrites its oldest records and
 * never loses new ones.  After many wraps the walk from data_head finds
 * the newest records, in order, whole, covering the buffer but for less
 * than one record; a record cut by the end of that window is not found.
 */
static void backward_wrap_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, BACKWARD_OVERWRITE);
	struct perf_counter *counter = new_writer(test);
	static const unsigned int sizes[] = { 24, 40, 56, 72, 200, 8 };
	unsigned int covered = 0;
	u64 head, written = 0;
	int i, n, last = 999;
	u32 *types;

	types = kunit_kcalloc(test, TEST_SIZE / 8, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, types);

	for (i = 0; i <= last; i++) {
		unsigned int size = sizes[i % ARRAY_SIZE(sizes)];

		KUNIT_ASSERT_EQ(test, write_record(rb, counter, i, size, i), 0);
		written += size;
	}
	head = data_head(rb);
	KUNIT_EXPECT_EQ(test, head, -written);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 0);

	n = walk_backward(rb->data, rb->size, head, types, TEST_SIZE / 8);
	KUNIT_ASSERT_GT(test, n, 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, types[i], last - i);
		KUNIT_EXPECT_TRUE(test, record_filled(rb, head + covered,
						      (u8)(last - i)));
		covered += header_at(rb, head + covered)->size;
	}
	/* The next older record did not fit in what is left. */
	KUNIT_EXPECT_GT(test, covered + sizes[(last - n) % ARRAY_SIZE(sizes)],
			(unsigned int)TEST_SIZE);
	KUNIT_EXPECT_LE(test, covered, (unsigned int)TEST_SIZE);
	perf_counter_buffer_put(rb);
}

/*
 * A backward record that crosses the start of the data area continues
 * at its end; the record it overwrote the tail of is cut off the walk.
 */
static void backward_straddle_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, BACKWARD_OVERWRITE);
	struct perf_counter *counter = new_writer(test);
	u32 types[8];

	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 1504, 1), 0);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 2, 1504, 2), 0);
	/* From 4096 - 4512 % 4096 = 3680 through the end and on to 1088. */
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 3, 1504, 3), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), (u64)-4512);
	KUNIT_EXPECT_EQ(test, byte_at(rb, TEST_SIZE - 1), 3);
	KUNIT_EXPECT_EQ(test, byte_at(rb, 0), 3);
	KUNIT_EXPECT_TRUE(test, record_filled(rb, -4512, 3));
	KUNIT_EXPECT_EQ(test, walk_backward(rb->data, rb->size, data_head(rb),
					    types, ARRAY_SIZE(types)), 2);
	KUNIT_EXPECT_EQ(test, types[0], 3);
	KUNIT_EXPECT_EQ(test, types[1], 2);
	perf_counter_buffer_put(rb);
}

/*
 * Mapped writable, a backward buffer honours data_tail, which runs down
 * from 0 as the reader takes the oldest records: no room is lost room,
 * reported once there is room again.
 */
static void backward_tail_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test,
						    PERF_COUNTER_RB_BACKWARD);
	struct perf_counter *counter = new_writer(test);
	unsigned int lost_size = perf_counter_lost_size(counter);
	u64 head;
	int i;

	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 1024, i), 0);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 2, 8, 0), -ENOSPC);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 1);
	KUNIT_EXPECT_EQ(test, data_head(rb), (u64)-TEST_SIZE);
	/* The oldest record is read: [-1024, 0) is free again. */
	WRITE_ONCE(rb->user_page->data_tail, (u64)-1024);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 3, 64, 3), 0);
	head = data_head(rb);
	KUNIT_EXPECT_EQ(test, head, (u64)-TEST_SIZE - 64 - lost_size);
	KUNIT_EXPECT_EQ(test, header_at(rb, head)->type, PERF_RECORD_LOST);
	KUNIT_EXPECT_EQ(test, header_at(rb, head + lost_size)->type, 3);
	/* The second oldest, still unread, was not touched. */
	KUNIT_EXPECT_EQ(test, byte_at(rb, -1025), 1);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 4, 1024 - 64 -
					   lost_size + 8, 4), -ENOSPC);
	perf_counter_buffer_put(rb);
}

/*
 * Paused, a buffer takes no record and counts each as lost; resumed, it
 * reports them in a LOST record ahead of the next one.
 */
static void pause_test(struct kunit *test)
{
	struct perf_counter_buffer *rb = new_buffer(test, 0);
	struct perf_counter *counter = new_writer(test);
	unsigned int lost_size = perf_counter_lost_size(counter);

	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 1, 64, 1), 0);
	perf_counter_buffer_pause(rb, true);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 2, 64, 2), -ENOSPC);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 2, 64, 2), -ENOSPC);
	KUNIT_EXPECT_EQ(test, data_head(rb), 64);
	KUNIT_EXPECT_EQ(test, perf_counter_buffer_lost(rb), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&rb->writers), 0);
	perf_counter_buffer_pause(rb, false);
	KUNIT_EXPECT_EQ(test, write_record(rb, counter, 3, 64, 3), 0);
	KUNIT_EXPECT_EQ(test, data_head(rb), 128 + lost_size);
	KUNIT_EXPECT_EQ(test, header_at(rb, 64)->type, PERF_RECORD_LOST);
	KUNIT_EXPECT_EQ(test, ((u64 *)header_at(rb, 64))[2], 2);
	KUNIT_EXPECT_EQ(test, header_at(rb, 64 + lost_size)->type, 3);
	perf_counter_buffer_put(rb);
}

/* A kthread on one CPU writing records into a shared buffer. */
struct snapshot_writer {
	struct perf_counter_buffer	*rb;
	struct perf_counter		*counter;
	struct task_struct		*task;
	struct snapshot_writer		*all;	/* the array this is in */
	unsigned int			cpu;
	unsigned long			records;
	unsigned long			bytes;	/* written by this one */
};

/*
 * How far one writer may run ahead of the slowest.  Lapping a writer
 * that stalls inside its record is the hazard design.txt 7.4 leaves to
 * buffer sizing; an emulated CPU stalls for milliseconds, long enough
 * for the others to write the whole buffer.  With every writer within
 * this lead of the others, a stalled one is never lapped, and a torn
 * record is the subsystem's fault.
 */
#define SNAP_LEAD	(SNAP_SIZE / (4 * nr_cpu_ids))

static bool too_far_ahead(const struct snapshot_writer *w)
{
	unsigned long slowest = ULONG_MAX;
	unsigned int i;

	for (i = 0; i < nr_cpu_ids && READ_ONCE(w->all[i].task); i++)
		slowest = min(slowest, READ_ONCE(w->all[i].bytes));
	return w->bytes > slowest + SNAP_LEAD;
}

/*
 * Type: the CPU plus one in the top byte (so that no record of ours
 * has the type of the LOST records a resume writes) and a sequence
 * number below; the record is filled with the sequence's low byte, so
 * a torn record shows.
 */
static int snapshot_writer_fn(void *arg)
{
	struct snapshot_writer *w = arg;
	u32 seq = 0;

	while (!kthread_should_stop()) {
		unsigned int size = 16 + 8 * (seq % 13);

		if (too_far_ahead(w)) {
			cond_resched();
			continue;
		}
		if (!write_record(w->rb, w->counter, ((w->cpu + 1) << 24) | seq,
				  size, (u8)seq)) {
			w->records++;
			WRITE_ONCE(w->bytes, w->bytes + size);
		}
		seq = (seq + 1) & 0xffffff;
		if (!(seq % 32))
			cond_resched();
	}
	return 0;
}

/*
 * Each record in the snapshot's window is whole and in its writer's
 * order.  Returns false at the first fault, which it reports: the
 * writers still run, so the caller must stop them before giving up.
 */
static bool check_snapshot(struct kunit *test, const u8 *data, u64 head,
			   u32 *types, u32 *last_seq)
{
	const struct perf_counter_header *hdr;
	int i, j, n, max = SNAP_SIZE / 16;
	u64 pos = head;

	n = walk_backward(data, SNAP_SIZE, head, types, max);
	KUNIT_EXPECT_GT(test, n, 0);
	memset(last_seq, 0xff, nr_cpu_ids * sizeof(*last_seq));
	for (i = 0; i < n; i++) {
		unsigned int cpu = (types[i] >> 24) - 1;
		u32 seq = types[i] & 0xffffff;

		hdr = (const void *)(data + (pos & (SNAP_SIZE - 1)));
		/* The records an earlier pause dropped, counted. */
		if (types[i] == PERF_RECORD_LOST) {
			pos += hdr->size;
			continue;
		}
		KUNIT_EXPECT_LT(test, cpu, nr_cpu_ids);
		if (cpu >= nr_cpu_ids)
			return false;
		for (j = sizeof(*hdr); j < hdr->size; j++) {
			if (data[(pos + j) & (SNAP_SIZE - 1)] != (u8)seq) {
				KUNIT_FAIL(test, "record %u/%u torn at byte %d",
					   cpu, seq, j);
				return false;
			}
		}
		/* Newest first: a writer's sequence runs down. */
		KUNIT_EXPECT_LT(test, seq, last_seq[cpu]);
		if (seq >= last_seq[cpu])
			return false;
		last_seq[cpu] = seq;
		pos += hdr->size;
	}
	return n > 0;
}

/* Let the writers write for a while. */
static void let_writers_run(void)
{
	msleep(20);
}

/* Upper bound, in let_writers_run() steps, on waiting for a write. */
#define MAX_WRITE_WAITS	250

/*
 * Wait until the head moves past @head.  An emulated CPU on a loaded
 * host may not run a writer for tens of milliseconds, so the writes
 * after a resume are waited for, not expected within one step.
 */
static void wait_for_write(struct perf_counter_buffer *rb, u64 head)
{
	int i;

	for (i = 0; i < MAX_WRITE_WAITS && data_head(rb) == head; i++)
		let_writers_run();
}

/* Start a writer on every online CPU; returns how many run. */
static unsigned int start_writers(struct kunit *test,
				  struct perf_counter_buffer *rb,
				  struct snapshot_writer *writers)
{
	unsigned int cpu, nr = 0;
	struct task_struct *task;

	for_each_online_cpu(cpu) {
		struct snapshot_writer *w = &writers[nr];

		w->rb = rb;
		w->counter = new_writer(test);
		w->all = writers;
		w->cpu = cpu;
		task = kthread_create_on_cpu(snapshot_writer_fn, w, cpu,
					     "pc_snap/%u");
		if (IS_ERR(task))
			break;
		/* Seen by the others only once it can be stopped. */
		WRITE_ONCE(w->task, task);
		wake_up_process(task);
		nr++;
	}
	return nr;
}

/*
 * Pause, copy the buffer, let the writers go on, and compare: once the
 * pause has returned nothing may change, head included.
 */
static bool take_snapshot(struct kunit *test, struct perf_counter_buffer *rb,
			  u8 *copy, u32 *types, u32 *last_seq)
{
	bool still;
	u64 head;

	perf_counter_buffer_pause(rb, true);
	head = data_head(rb);
	memcpy(copy, rb->data, SNAP_SIZE);
	let_writers_run();
	still = data_head(rb) == head && !memcmp(copy, rb->data, SNAP_SIZE);
	KUNIT_EXPECT_TRUE_MSG(test, still, "the buffer moved while paused");
	if (still)
		still = check_snapshot(test, copy, head, types, last_seq);
	perf_counter_buffer_pause(rb, false);
	return still;
}

/*
 * With a kthread writing on every CPU into one backward buffer, a pause
 * returns only once no writer is in flight: the buffer then holds still
 * (byte for byte, head included), its window holds whole records only,
 * the records written meanwhile are dropped as lost, and writing
 * carries on after the resume.  The writers keep within SNAP_LEAD of
 * each other: a writer stalled (an emulated CPU descheduled) while the
 * others write more than the whole buffer would land its late bytes in
 * newer records (7.4), a torn record the test would blame on the pause.
 */
static void snapshot_while_writers_test(struct kunit *test)
{
	struct perf_counter_buffer *rb;
	struct snapshot_writer *writers;
	unsigned int i, nr;
	u32 *types, *last_seq;
	u64 lost = 0, head;
	u8 *copy;

	writers = kunit_kcalloc(test, nr_cpu_ids, sizeof(*writers), GFP_KERNEL);
	last_seq = kunit_kcalloc(test, nr_cpu_ids, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, writers && last_seq);
	rb = perf_counter_buffer_alloc(SNAP_SIZE >> PAGE_SHIFT,
				       BACKWARD_OVERWRITE);
	types = vzalloc(SNAP_SIZE / 16 * sizeof(u32));
	copy = vzalloc(SNAP_SIZE);
	nr = rb && types && copy ? start_writers(test, rb, writers) : 0;
	KUNIT_EXPECT_EQ(test, nr, num_online_cpus());
	for (i = 0; nr && i < 3; i++) {
		let_writers_run();
		wait_for_write(rb, data_head(rb));
		if (!take_snapshot(test, rb, copy, types, last_seq))
			break;
	}
	head = rb ? data_head(rb) : 0;
	if (nr)
		wait_for_write(rb, head);
	for (i = 0; i < nr; i++) {
		kthread_stop(writers[i].task);
		KUNIT_EXPECT_GT(test, writers[i].records, 0UL);
		lost += atomic64_read(&writers[i].counter->lost_samples);
	}
	if (nr) {
		KUNIT_EXPECT_NE(test, data_head(rb), head);
		KUNIT_EXPECT_GT(test, lost, 0ULL);
	}
	vfree(copy);
	vfree(types);
	if (rb)
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
	struct perf_counter_buffer *rb = new_buffer(test, 0);
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
	KUNIT_CASE(backward_layout_test),
	KUNIT_CASE(backward_wrap_test),
	KUNIT_CASE(backward_straddle_test),
	KUNIT_CASE(backward_tail_test),
	KUNIT_CASE(pause_test),
	KUNIT_CASE(snapshot_while_writers_test),
	KUNIT_CASE(free_after_grace_period_test),
	{}
};

static struct kunit_suite perf_counter_ring_buffer_suite = {
	.name = "perf_counter_ring_buffer",
	.test_cases = perf_counter_ring_buffer_cases,
};

kunit_test_suite(perf_counter_ring_buffer_suite);
