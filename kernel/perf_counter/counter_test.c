// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of counter states, time accounting and group scheduling.
 *
 * The counters live in a private context driven with made-up times and
 * on a made-up PMU with a fixed number of slots, so every total below is
 * exact: it is the arithmetic of the sequence, nothing measured.
 */

#include <kunit/test.h>
#include <linux/slab.h>

#include "internal.h"

struct test_pmu {
	struct perf_counter_pmu	pmu;
	int			slots;
	int			used;
};

static struct test_pmu *to_test_pmu(struct perf_counter *counter)
{
	return container_of(counter->pmu, struct test_pmu, pmu);
}

static int test_pmu_add(struct perf_counter *counter)
{
	struct test_pmu *tp = to_test_pmu(counter);

	if (tp->used >= tp->slots)
		return -EAGAIN;
	tp->used++;
	return 0;
}

static void test_pmu_del(struct perf_counter *counter)
{
	to_test_pmu(counter)->used--;
}

static void test_pmu_read(struct perf_counter *counter)
{
}

static struct test_pmu *new_pmu(struct kunit *test, int slots)
{
	struct test_pmu *tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tp);
	tp->pmu.name = "test";
	tp->pmu.add = test_pmu_add;
	tp->pmu.del = test_pmu_del;
	tp->pmu.read = test_pmu_read;
	tp->slots = slots;
	return tp;
}

static struct perf_counter_context *new_ctx(struct kunit *test)
{
	struct perf_counter_context *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	perf_counter_ctx_init(ctx, NULL, 0);
	return ctx;
}

/* A counter on @ctx, disabled or not, in @leader's group or its own. */
static struct perf_counter *new_counter(struct kunit *test,
					struct perf_counter_context *ctx,
					struct test_pmu *tp, bool disabled,
					struct perf_counter *leader)
{
	struct perf_counter_attr attr = { .disabled = disabled };
	struct perf_counter *counter;

	counter = kunit_kzalloc(test, sizeof(*counter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, counter);
	perf_counter_init(counter, &attr, &tp->pmu, -1, leader);
	perf_counter_attach(ctx, counter);
	return counter;
}

static void expect_times(struct kunit *test, struct perf_counter *counter,
			 u64 enabled, u64 running)
{
	u64 e, r;

	perf_counter_read_local(counter, &e, &r);
	KUNIT_EXPECT_EQ(test, e, enabled);
	KUNIT_EXPECT_EQ(test, r, running);
}

/* At @now, with the context's clock brought up to date first. */
static void enable_at(struct perf_counter *counter, u64 now)
{
	perf_counter_ctx_update_time(counter->ctx, now);
	perf_counter_do_enable(counter);
}

static void disable_at(struct perf_counter *counter, u64 now)
{
	perf_counter_ctx_update_time(counter->ctx, now);
	perf_counter_do_disable(counter);
}

/*
 * enable at 200, out at 500, in at 1000, disable at 1250: enabled and
 * running 300 + 250; the time the context was out does not count, nor
 * what follows the disable.
 */
static void time_enable_sched_disable_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 4);
	struct perf_counter *c = new_counter(test, ctx, tp, true, NULL);

	perf_counter_ctx_sched_in(ctx, 100);
	KUNIT_EXPECT_EQ(test, c->state, PERF_COUNTER_STATE_OFF);
	enable_at(c, 200);
	KUNIT_EXPECT_EQ(test, c->state, PERF_COUNTER_STATE_ACTIVE);
	perf_counter_ctx_sched_out(ctx, 500);
	expect_times(test, c, 300, 300);
	perf_counter_ctx_sched_in(ctx, 1000);
	disable_at(c, 1250);
	KUNIT_EXPECT_EQ(test, c->state, PERF_COUNTER_STATE_OFF);
	perf_counter_ctx_update_time(ctx, 2000);
	expect_times(test, c, 550, 550);
	KUNIT_EXPECT_EQ(test, tp->used, 0);
}

/*
 * One slot, two counters: the second waits the whole time.  Its enabled
 * time grows with the context clock without it being visited; running
 * stays 0, which is how user space tells "never counted".
 */
static void time_waiting_counter_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 1);
	struct perf_counter *a = new_counter(test, ctx, tp, false, NULL);
	struct perf_counter *b = new_counter(test, ctx, tp, false, NULL);

	perf_counter_ctx_sched_in(ctx, 0);
	KUNIT_EXPECT_EQ(test, a->state, PERF_COUNTER_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, b->state, PERF_COUNTER_STATE_INACTIVE);
	perf_counter_ctx_sched_out(ctx, 100);
	perf_counter_ctx_sched_in(ctx, 400);
	perf_counter_ctx_update_time(ctx, 450);
	expect_times(test, a, 150, 150);
	expect_times(test, b, 150, 0);
}

/* A counter attached while the context runs starts from that moment. */
static void time_attach_while_active_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 2);
	struct perf_counter *a, *b;

	a = new_counter(test, ctx, tp, false, NULL);
	perf_counter_ctx_sched_in(ctx, 1000);
	perf_counter_ctx_update_time(ctx, 1600);
	b = new_counter(test, ctx, tp, false, NULL);
	KUNIT_EXPECT_EQ(test, b->state, PERF_COUNTER_STATE_ACTIVE);
	perf_counter_ctx_sched_out(ctx, 2000);
	expect_times(test, a, 1000, 1000);
	expect_times(test, b, 400, 400);
}

/*
 * An exited clone hands its count and times to the counter the user
 * opened, into the child totals and not into the counter's own.
 */
static void time_child_exit_test(struct kunit *test)
{
	struct perf_counter_context *pctx = new_ctx(test);
	struct perf_counter_context *cctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 4);
	struct perf_counter *parent = new_counter(test, pctx, tp, false, NULL);
	struct perf_counter *child = new_counter(test, cctx, tp, false, NULL);

	child->parent = parent;
	perf_counter_ctx_sched_in(cctx, 10);
	atomic64_set(&child->count, 42);
	perf_counter_ctx_sched_out(cctx, 310);
	perf_counter_ctx_sched_in(cctx, 400);
	perf_counter_ctx_sched_out(cctx, 450);
	perf_counter_detach(child);
	perf_counter_fold_child(child);
	KUNIT_EXPECT_EQ(test, atomic64_read(&parent->child_count), 42);
	KUNIT_EXPECT_EQ(test, atomic64_read(&parent->child_time_enabled), 350);
	KUNIT_EXPECT_EQ(test, atomic64_read(&parent->child_time_running), 350);
	expect_times(test, parent, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&parent->count), 0);
}

/*
 * Two slots, one taken by a single counter: a group of three cannot go
 * on, and none of its members may stay on alone or gain running time.
 */
static void group_all_or_nothing_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 2);
	struct perf_counter *single, *leader, *m1, *m2;

	single = new_counter(test, ctx, tp, false, NULL);
	leader = new_counter(test, ctx, tp, false, NULL);
	m1 = new_counter(test, ctx, tp, false, leader);
	m2 = new_counter(test, ctx, tp, false, leader);
	KUNIT_EXPECT_EQ(test, leader->nr_siblings, 2);

	perf_counter_ctx_sched_in(ctx, 0);
	KUNIT_EXPECT_EQ(test, tp->used, 1);
	KUNIT_EXPECT_EQ(test, single->state, PERF_COUNTER_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, leader->state, PERF_COUNTER_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, m1->state, PERF_COUNTER_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, m2->state, PERF_COUNTER_STATE_INACTIVE);
	perf_counter_ctx_sched_out(ctx, 100);
	KUNIT_EXPECT_EQ(test, tp->used, 0);
	expect_times(test, leader, 100, 0);
	expect_times(test, m1, 100, 0);
	expect_times(test, m2, 100, 0);
	expect_times(test, single, 100, 100);
}

/* With room for all, the members run exactly when their leader does. */
static void group_members_follow_leader_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 3);
	struct perf_counter *leader, *m1, *m2;

	leader = new_counter(test, ctx, tp, false, NULL);
	m1 = new_counter(test, ctx, tp, false, leader);
	m2 = new_counter(test, ctx, tp, true, leader);

	perf_counter_ctx_sched_in(ctx, 0);
	KUNIT_EXPECT_EQ(test, tp->used, 2);
	enable_at(m2, 40);
	KUNIT_EXPECT_EQ(test, m2->state, PERF_COUNTER_STATE_ACTIVE);
	disable_at(leader, 70);
	/* A disabled leader takes its group off; the members stay enabled. */
	KUNIT_EXPECT_EQ(test, tp->used, 0);
	KUNIT_EXPECT_EQ(test, m1->state, PERF_COUNTER_STATE_INACTIVE);
	enable_at(leader, 100);
	KUNIT_EXPECT_EQ(test, tp->used, 3);
	perf_counter_ctx_sched_out(ctx, 130);
	expect_times(test, leader, 100, 100);
	expect_times(test, m1, 130, 100);
	expect_times(test, m2, 90, 60);
}

/* The members of a leader that goes carry on as groups of their own. */
static void group_detach_leader_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 3);
	struct perf_counter *leader, *m1;

	leader = new_counter(test, ctx, tp, false, NULL);
	m1 = new_counter(test, ctx, tp, false, leader);
	perf_counter_ctx_sched_in(ctx, 0);
	perf_counter_ctx_update_time(ctx, 50);
	perf_counter_detach(leader);
	KUNIT_EXPECT_PTR_EQ(test, m1->group_leader, m1);
	KUNIT_EXPECT_EQ(test, ctx->nr_counters, 1);
	KUNIT_EXPECT_EQ(test, tp->used, 1);
	perf_counter_ctx_sched_out(ctx, 80);
	perf_counter_ctx_sched_in(ctx, 100);
	KUNIT_EXPECT_EQ(test, m1->state, PERF_COUNTER_STATE_ACTIVE);
	perf_counter_ctx_sched_out(ctx, 120);
	expect_times(test, leader, 50, 50);
	expect_times(test, m1, 100, 100);
}

/*
 * A CPU going offline parks its context: everything leaves the PMU and
 * nothing goes on again, not even what is enabled or attached meanwhile,
 * but the context's clock runs on, so enabled time keeps growing while
 * running time stands still.  Back online, every group goes on again.
 *
 *   0 in, 100 park, 150 enable b, 200 attach c, 300 unpark, 400 out
 */
static void park_unpark_test(struct kunit *test)
{
	struct perf_counter_context *ctx = new_ctx(test);
	struct test_pmu *tp = new_pmu(test, 8);
	struct perf_counter *a, *b, *c, *leader, *member;

	a = new_counter(test, ctx, tp, false, NULL);
	b = new_counter(test, ctx, tp, true, NULL);
	leader = new_counter(test, ctx, tp, false, NULL);
	member = new_counter(test, ctx, tp, false, leader);
	perf_counter_ctx_sched_in(ctx, 0);
	KUNIT_EXPECT_EQ(test, tp->used, 3);

	perf_counter_ctx_park(ctx, 100);
	KUNIT_EXPECT_TRUE(test, ctx->parked);
	KUNIT_EXPECT_TRUE(test, ctx->is_active);
	KUNIT_EXPECT_EQ(test, tp->used, 0);
	KUNIT_EXPECT_EQ(test, ctx->nr_active, 0);
	KUNIT_EXPECT_EQ(test, a->state, PERF_COUNTER_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, leader->state, PERF_COUNTER_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, member->state, PERF_COUNTER_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, a->oncpu, -1);

	enable_at(b, 150);
	KUNIT_EXPECT_EQ(test, b->state, PERF_COUNTER_STATE_INACTIVE);
	perf_counter_ctx_update_time(ctx, 200);
	c = new_counter(test, ctx, tp, false, NULL);
	KUNIT_EXPECT_EQ(test, c->state, PERF_COUNTER_STATE_INACTIVE);
	KUNIT_EXPECT_EQ(test, tp->used, 0);

	perf_counter_ctx_update_time(ctx, 250);
	expect_times(test, a, 250, 100);
	expect_times(test, b, 100, 0);
	expect_times(test, member, 250, 100);
	expect_times(test, c, 50, 0);

	perf_counter_ctx_unpark(ctx, 300);
	KUNIT_EXPECT_FALSE(test, ctx->parked);
	KUNIT_EXPECT_EQ(test, tp->used, 5);
	KUNIT_EXPECT_EQ(test, ctx->nr_active, 5);
	KUNIT_EXPECT_EQ(test, b->state, PERF_COUNTER_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, c->state, PERF_COUNTER_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, member->state, PERF_COUNTER_STATE_ACTIVE);

	perf_counter_ctx_sched_out(ctx, 400);
	KUNIT_EXPECT_EQ(test, tp->used, 0);
	expect_times(test, a, 400, 200);
	expect_times(test, b, 250, 100);
	expect_times(test, leader, 400, 200);
	expect_times(test, member, 400, 200);
	expect_times(test, c, 200, 100);
}

static struct kunit_case perf_counter_time_cases[] = {
	KUNIT_CASE(time_enable_sched_disable_test),
	KUNIT_CASE(time_waiting_counter_test),
	KUNIT_CASE(time_attach_while_active_test),
	KUNIT_CASE(time_child_exit_test),
	KUNIT_CASE(park_unpark_test),
	{}
};

static struct kunit_suite perf_counter_time_suite = {
	.name = "perf_counter_time",
	.test_cases = perf_counter_time_cases,
};

static struct kunit_case perf_counter_group_cases[] = {
	KUNIT_CASE(group_all_or_nothing_test),
	KUNIT_CASE(group_members_follow_leader_test),
	KUNIT_CASE(group_detach_leader_test),
	{}
};

static struct kunit_suite perf_counter_group_suite = {
	.name = "perf_counter_group",
	.test_cases = perf_counter_group_cases,
};

kunit_test_suites(&perf_counter_time_suite, &perf_counter_group_suite);
