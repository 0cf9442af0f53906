// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of tracepoint counters: the PERF_SAMPLE_RAW layout, which
 * records a counter takes (its event, through its filter), how one
 * record closes periods, and the recursion guard, with made up records
 * handed to a context of one counter.  The counter has no buffer:
 * samples are decided (and throttled) but written nowhere.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "internal.h"

#define TEST_EVENT_ID	4242

struct tp_fixture {
	struct perf_counter_context	ctx;
	struct perf_counter		counter;
	struct pt_regs			regs;	/* zero: kernel mode */
	struct perf_counter_tp_record	rec;
};

static int tp_test_init(struct kunit *test)
{
	struct perf_counter_attr attr = {
		.type		= PERF_TYPE_TRACEPOINT,
		.config		= TEST_EVENT_ID,
		.sample_period	= 3,
	};
	struct tp_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	perf_counter_ctx_init(&f->ctx, NULL, 0);
	f->ctx.is_active = true;
	perf_counter_init(&f->counter, &attr, NULL, 0, NULL);
	f->counter.ctx = &f->ctx;
	f->counter.state = PERF_COUNTER_STATE_ACTIVE;
	list_add_tail(&f->counter.active_entry, &f->ctx.active_list);
	f->rec.type = TEST_EVENT_ID;
	f->rec.count = 1;
	f->rec.regs = &f->regs;
	test->priv = f;
	return 0;
}

static void deliver(struct tp_fixture *f)
{
	local_irq_disable();
	perf_counter_tp_count(&f->ctx, &f->rec);
	local_irq_enable();
}

static void raw_size_test(struct kunit *test)
{
	struct perf_counter_raw raw = { };
	unsigned int size;

	/* No record: the u32 size and four zero bytes. */
	KUNIT_EXPECT_EQ(test, perf_counter_raw_size(NULL), 8U);
	for (raw.size = 1; raw.size <= 64; raw.size++) {
		size = perf_counter_raw_size(&raw);
		KUNIT_EXPECT_EQ_MSG(test, size % 8, 0U, "record of %u", raw.size);
		KUNIT_EXPECT_GE(test, size, raw.size + 4);
		KUNIT_EXPECT_LT(test, size, raw.size + 4 + 8);
	}
	/* A tracepoint's record is sized so that it needs no padding. */
	raw.size = 20;
	KUNIT_EXPECT_EQ(test, perf_counter_raw_size(&raw), 24U);
}

static void counts_its_event_only_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;

	deliver(f);
	f->rec.type = TEST_EVENT_ID + 1;
	deliver(f);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 1LL);

	/* Tracepoints fire in the kernel: exclude_kernel takes none. */
	f->rec.type = TEST_EVENT_ID;
	f->counter.attr.exclude_kernel = 1;
	deliver(f);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 1LL);

	/* ...but a system call's records carry the user's registers. */
	f->regs.cs = __USER_CS;
	deliver(f);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 2LL);
}

/* __perf_count(): one record of 10 events closes three periods of 3. */
static void record_closes_periods_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;

	f->rec.count = 10;
	deliver(f);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 10LL);
	KUNIT_EXPECT_EQ(test, f->counter.period_left, 2LL);
	KUNIT_EXPECT_EQ(test, f->counter.tick_samples, 3U);
	f->rec.count = 1;
	deliver(f);
	KUNIT_EXPECT_EQ(test, f->counter.period_left, 1LL);
	KUNIT_EXPECT_EQ(test, f->counter.tick_samples, 3U);
}

/*
 * With PERF_SAMPLE_PERIOD a record is one sample, its period the
 * record's count, whatever sample_period says: the period is not
 * counted down.
 */
static void period_sample_per_record_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;
	s64 left = f->counter.period_left;

	/* Each sample uses up one of a REFRESH limit: they are counted. */
	f->counter.attr.sample_type = PERF_SAMPLE_PERIOD;
	f->counter.event_limit = 100;
	f->rec.count = 10;
	deliver(f);
	KUNIT_EXPECT_EQ(test, f->counter.event_limit, 99);
	f->rec.count = 1;
	deliver(f);
	KUNIT_EXPECT_EQ(test, f->counter.event_limit, 98);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 11LL);
	KUNIT_EXPECT_EQ(test, f->counter.period_left, left);
}

/*
 * One record per sample is never throttled, however many come in a
 * tick; a record that closes a million periods is, after the first
 * ones, and the loop over them ends.
 */
static void throttling_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;
	unsigned int max = sysctl_perf_counter_max_sample_rate / HZ;
	unsigned int i;

	f->counter.attr.sample_period = 1;
	f->counter.period_left = 1;
	local_irq_disable();
	for (i = 0; i < 2 * max + 10; i++)
		perf_counter_tp_count(&f->ctx, &f->rec);
	local_irq_enable();
	KUNIT_EXPECT_FALSE(test, f->counter.throttled);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count),
			(s64)(2 * max + 10));

	f->counter.tick_samples = 0;
	f->rec.count = 1000000;
	deliver(f);
	KUNIT_EXPECT_TRUE(test, f->counter.throttled);
	KUNIT_EXPECT_EQ(test, f->counter.period_left, 1LL);
}

/* A counter that used up its REFRESH limit takes no more records. */
static void pending_disable_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;

	f->counter.pending_disable = true;
	f->ctx.pending_disable = true;
	local_irq_disable();
	raw_spin_lock(&f->ctx.lock);	/* the stop cannot happen now */
	perf_counter_tp_count(&f->ctx, &f->rec);
	raw_spin_unlock(&f->ctx.lock);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 0LL);
	KUNIT_EXPECT_TRUE(test, f->ctx.pending_disable);
}

/*
 * A filter in tracefs syntax, on a real event's format: records whose
 * fields match are counted, the others are not, and a filter naming a
 * field the event lacks is refused.
 */
static void filter_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;
	struct trace_event_file *file;
	struct event_filter *filter;
	struct trace_entry *entry;
	int err;

	file = trace_get_event_file(NULL, "sched", "sched_switch");
	if (IS_ERR(file))
		kunit_skip(test, "no sched:sched_switch event");
	err = perf_counter_trace_filter(file->event_call, "no_such_field == 1",
					&filter);
	KUNIT_EXPECT_LT(test, err, 0);
	KUNIT_EXPECT_NULL(test, filter);
	err = perf_counter_trace_filter(file->event_call, "common_pid == 42",
					&filter);
	KUNIT_ASSERT_EQ(test, err, 0);

	entry = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, entry);
	f->counter.attr.config = file->event_call->event.type;
	f->counter.tp_filter = filter;
	f->rec.type = file->event_call->event.type;
	f->rec.raw.data = entry;
	f->rec.raw.size = 256;
	entry->pid = 42;
	deliver(f);
	entry->pid = 43;
	deliver(f);
	deliver(f);
	entry->pid = 42;
	deliver(f);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 2LL);

	f->counter.tp_filter = NULL;
	perf_counter_trace_filter_free(filter);
	trace_put_event_file(file);
}

/*
 * A record raised while one is being handled at the same context level
 * (from our own path) is dropped and counted as such; one of a higher
 * level, an interrupt's, still counts.
 */
static void recursion_guard_test(struct kunit *test)
{
	struct tp_fixture *f = test->priv;
	unsigned long drops_before, drops_after;
	unsigned int level;
	bool entered;

	local_irq_disable();
	perf_counter_tp_deliver(&f->ctx, NULL, &f->rec);
	entered = perf_counter_recursion_enter(&level);
	drops_before = perf_counter_recursion_drops();
	perf_counter_tp_deliver(&f->ctx, NULL, &f->rec);
	drops_after = perf_counter_recursion_drops();
	__irq_enter_raw();
	perf_counter_tp_deliver(&f->ctx, NULL, &f->rec);
	__irq_exit_raw();
	if (entered)
		perf_counter_recursion_exit(level);
	perf_counter_tp_deliver(&f->ctx, NULL, &f->rec);
	local_irq_enable();

	KUNIT_EXPECT_TRUE(test, entered);
	KUNIT_EXPECT_EQ(test, drops_after, drops_before + 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->counter.count), 3LL);
}

static struct kunit_case perf_counter_tp_test_cases[] = {
	KUNIT_CASE(raw_size_test),
	KUNIT_CASE(counts_its_event_only_test),
	KUNIT_CASE(record_closes_periods_test),
	KUNIT_CASE(period_sample_per_record_test),
	KUNIT_CASE(throttling_test),
	KUNIT_CASE(pending_disable_test),
	KUNIT_CASE(filter_test),
	KUNIT_CASE(recursion_guard_test),
	{ }
};

static struct kunit_suite perf_counter_tp_test_suite = {
	.name = "perf_counter_tp",
	.init = tp_test_init,
	.test_cases = perf_counter_tp_test_cases,
};

kunit_test_suite(perf_counter_tp_test_suite);
