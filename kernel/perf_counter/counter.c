// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: counter states, time accounting and group scheduling.
 *
 * Nothing in this file reads a clock or knows about tasks and CPUs: the
 * callers bring the context's clock up to date (perf_counter_ctx_update_time)
 * and hold ctx->lock, so the KUnit suite can drive every transition with
 * made-up times and a made-up PMU.
 *
 * Time accounting.  A context keeps its own clock, ctx->time, which runs
 * only while the context is active (for a task: while the task runs).
 * A counter remembers in tstamp the context time up to which its totals
 * are right; whenever its state changes, the time since then is added to
 * total_time_enabled if it was enabled and to total_time_running if it
 * was on the PMU.  A counter that is enabled but waits for room on the
 * PMU therefore needs no visit while it waits: the difference between
 * the context clock and its tstamp is exactly its missing enabled time.
 * Nothing loops over counters on a tick.
 */

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>

#include "internal.h"

static atomic64_t perf_counter_next_id;

/* The perf clock: what time_enabled, time_running and samples use. */
u64 perf_counter_clock(void)
{
	return local_clock();
}

void perf_counter_ctx_init(struct perf_counter_context *ctx,
			   struct task_struct *task, int cpu)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->counter_list);
	INIT_LIST_HEAD(&ctx->active_list);
	ctx->task = task;
	ctx->cpu = cpu;
	ctx->parked = false;
	refcount_set(&ctx->refcount, 1);
}

void perf_counter_init(struct perf_counter *counter,
		       const struct perf_counter_attr *attr,
		       const struct perf_counter_pmu *pmu, int cpu,
		       struct perf_counter *group_leader)
{
	counter->attr = *attr;
	counter->pmu = pmu;
	counter->cpu = cpu;
	counter->oncpu = -1;
	counter->group_leader = group_leader ? group_leader : counter;
	counter->state = attr->disabled ? PERF_COUNTER_STATE_OFF :
					  PERF_COUNTER_STATE_INACTIVE;
	INIT_LIST_HEAD(&counter->group_entry);
	INIT_LIST_HEAD(&counter->sibling_list);
	INIT_LIST_HEAD(&counter->active_entry);
	INIT_LIST_HEAD(&counter->child_list);
	INIT_LIST_HEAD(&counter->child_entry);
	mutex_init(&counter->child_mutex);
	init_waitqueue_head(&counter->waitq);
	INIT_LIST_HEAD(&counter->rb_entry);
	mutex_init(&counter->mmap_mutex);
	counter->period_left = attr->freq ? 0 : attr->sample_period;
	refcount_set(&counter->refcount, 1);
	counter->id = atomic64_inc_return(&perf_counter_next_id);
}

/*
 * Advance the context clock to now; a no-op while it is inactive.  A
 * CPU's context may be brought up to date from another CPU, whose clock
 * can be a little behind: time never runs backwards, it waits.
 */
void perf_counter_ctx_update_time(struct perf_counter_context *ctx, u64 now)
{
	if (!ctx->is_active || (s64)(now - ctx->timestamp) <= 0)
		return;
	ctx->time += now - ctx->timestamp;
	ctx->timestamp = now;
}

/*
 * The times of @counter up to @now, leaving the counter and its context
 * as they are: for samples, written where the context's lock cannot be
 * taken.
 */
void perf_counter_times_at(const struct perf_counter *counter, u64 now,
			   u64 *enabled, u64 *running)
{
	const struct perf_counter_context *ctx = counter->ctx;
	u64 time = ctx->time, delta;

	if (ctx->is_active && (s64)(now - ctx->timestamp) > 0)
		time += now - ctx->timestamp;
	delta = time - counter->tstamp;
	*enabled = counter->total_time_enabled;
	*running = counter->total_time_running;
	if (counter->state >= PERF_COUNTER_STATE_INACTIVE)
		*enabled += delta;
	if (counter->state == PERF_COUNTER_STATE_ACTIVE)
		*running += delta;
}

/* Bring the totals of @counter up to the context's clock. */
void perf_counter_update_times(struct perf_counter *counter)
{
	u64 now = counter->ctx->time;
	u64 delta = now - counter->tstamp;

	if (counter->state >= PERF_COUNTER_STATE_INACTIVE)
		counter->total_time_enabled += delta;
	if (counter->state == PERF_COUNTER_STATE_ACTIVE)
		counter->total_time_running += delta;
	counter->tstamp = now;
}

static void counter_set_state(struct perf_counter *counter,
			      enum perf_counter_state state)
{
	perf_counter_update_times(counter);
	counter->state = state;
}

static int counter_sched_in(struct perf_counter *counter, int cpu)
{
	struct perf_counter_context *ctx = counter->ctx;

	if (counter->state != PERF_COUNTER_STATE_INACTIVE)
		return 0;
	if (ctx->parked)
		return -EAGAIN;
	counter_set_state(counter, PERF_COUNTER_STATE_ACTIVE);
	counter->oncpu = cpu;
	if (counter->pmu->add(counter)) {
		/* The times were settled just now: nothing ran. */
		counter->state = PERF_COUNTER_STATE_INACTIVE;
		counter->oncpu = -1;
		/* No room: the groups take turns until there is. */
		ctx->rotate = true;
		perf_counter_rotation_wanted();
		return -EAGAIN;
	}
	list_add_tail(&counter->active_entry, &ctx->active_list);
	ctx->nr_active++;
	perf_counter_user_page_update(counter);
	return 0;
}

static void counter_sched_out(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;

	if (counter->state != PERF_COUNTER_STATE_ACTIVE)
		return;
	counter->pmu->del(counter);
	list_del_init(&counter->active_entry);
	ctx->nr_active--;
	counter_set_state(counter, PERF_COUNTER_STATE_INACTIVE);
	counter->oncpu = -1;
	perf_counter_user_page_update(counter);
}

static void group_sched_out(struct perf_counter *leader)
{
	struct perf_counter *member;

	list_for_each_entry(member, &leader->sibling_list, group_entry)
		counter_sched_out(member);
	counter_sched_out(leader);
}

/* Clones of a closed counter have nobody to report to: leave them off. */
static bool counter_orphaned(struct perf_counter *counter)
{
	return counter->parent &&
	       READ_ONCE(counter->parent->state) == PERF_COUNTER_STATE_DEAD;
}

/*
 * A group goes on the PMU whole or not at all, so that the ratios between
 * its members are measured over the same time.  Members that fail undo
 * the ones before them; as this happens at one context time, the undone
 * members gain no running time.  A pinned group that does not fit is in
 * error: it asked to count all the time or not at all.
 */
static void group_sched_in(struct perf_counter *leader, int cpu)
{
	struct perf_counter *member, *undo;

	if (leader->state != PERF_COUNTER_STATE_INACTIVE)
		return;
	if (leader->cpu != -1 && leader->cpu != cpu)
		return;
	if (counter_orphaned(leader))
		return;
	if (counter_sched_in(leader, cpu))
		goto failed;
	list_for_each_entry(member, &leader->sibling_list, group_entry) {
		if (counter_sched_in(member, cpu))
			goto undo;
	}
	return;
undo:
	list_for_each_entry(undo, &leader->sibling_list, group_entry) {
		if (undo == member)
			break;
		counter_sched_out(undo);
	}
	counter_sched_out(leader);
failed:
	if (leader->attr.pinned && !leader->ctx->parked)
		counter_set_state(leader, PERF_COUNTER_STATE_ERROR);
}

/*
 * Every enabled group that fits goes on the PMU: the pinned ones first,
 * as they must count all the time, then the others in list order.
 */
static void ctx_groups_sched_in(struct perf_counter_context *ctx, int cpu)
{
	struct perf_counter *leader;

	ctx->rotate = false;
	list_for_each_entry(leader, &ctx->counter_list, group_entry)
		if (leader->attr.pinned)
			group_sched_in(leader, cpu);
	list_for_each_entry(leader, &ctx->counter_list, group_entry)
		if (!leader->attr.pinned)
			group_sched_in(leader, cpu);
}

/*
 * The context starts to run at @now: its clock restarts and every enabled
 * group that fits goes on the PMU, in the order the groups were created.
 */
void perf_counter_ctx_sched_in(struct perf_counter_context *ctx, u64 now)
{
	if (ctx->is_active)
		return;
	ctx->is_active = true;
	ctx->timestamp = now;
	ctx_groups_sched_in(ctx, raw_smp_processor_id());
}

/* The context stops at @now: its clock stops, its counters leave the PMU. */
void perf_counter_ctx_sched_out(struct perf_counter_context *ctx, u64 now)
{
	struct perf_counter *counter, *next;

	if (!ctx->is_active)
		return;
	perf_counter_ctx_update_time(ctx, now);
	list_for_each_entry_safe(counter, next, &ctx->active_list, active_entry)
		counter_sched_out(counter);
	ctx->is_active = false;
}

/*
 * The CPU of @ctx goes offline: its counters leave the PMU, but the
 * context's clock runs on, so that they stay enabled and their running
 * time falls behind: what user space scales by.
 */
void perf_counter_ctx_park(struct perf_counter_context *ctx, u64 now)
{
	struct perf_counter *counter, *next;

	perf_counter_ctx_update_time(ctx, now);
	list_for_each_entry_safe(counter, next, &ctx->active_list, active_entry)
		counter_sched_out(counter);
	ctx->parked = true;
}

/* ... and is back: every enabled group that fits goes on again. */
void perf_counter_ctx_unpark(struct perf_counter_context *ctx, u64 now)
{
	perf_counter_ctx_update_time(ctx, now);
	ctx->parked = false;
	ctx_groups_sched_in(ctx, raw_smp_processor_id());
}

/* Is @leader an enabled group this CPU could run, that is not on? */
static bool group_waits(struct perf_counter *leader, int cpu)
{
	return leader->state == PERF_COUNTER_STATE_INACTIVE &&
	       (leader->cpu == -1 || leader->cpu == cpu) &&
	       !counter_orphaned(leader);
}

/*
 * Groups that do not all fit take turns: at each rotation the groups
 * that are not pinned leave the PMU, the list turns so that the first
 * group that waited leads it, and as many as fit go on again.  Every
 * waiting group thus goes on before any group runs twice: with N groups
 * of one size and room for K, each runs K/N of the time, whatever
 * counters of other kinds (fixed ones, software ones) sit between them.
 * Returns whether the groups still do not all fit, so that rotation
 * goes on.
 */
bool perf_counter_ctx_rotate(struct perf_counter_context *ctx, u64 now)
{
	struct perf_counter *leader, *waiting = NULL;
	int cpu = raw_smp_processor_id();

	if (!ctx->is_active || ctx->parked || !ctx->rotate)
		return false;
	perf_counter_ctx_update_time(ctx, now);
	list_for_each_entry(leader, &ctx->counter_list, group_entry) {
		if (leader->attr.pinned)
			continue;
		if (!waiting && group_waits(leader, cpu))
			waiting = leader;
		group_sched_out(leader);
	}
	if (waiting)
		list_rotate_to_front(&waiting->group_entry, &ctx->counter_list);
	ctx_groups_sched_in(ctx, cpu);
	return ctx->rotate;
}

/*
 * Link @counter into @ctx (as a group leader, or as the last member of
 * its leader's group) and, if the context runs, put it on the PMU.
 */
void perf_counter_attach(struct perf_counter_context *ctx,
			 struct perf_counter *counter)
{
	struct perf_counter *leader = counter->group_leader;
	int cpu = raw_smp_processor_id();

	counter->ctx = ctx;
	counter->tstamp = ctx->time;
	ctx->nr_counters++;
	if (leader == counter) {
		list_add_tail(&counter->group_entry, &ctx->counter_list);
		if (ctx->is_active)
			group_sched_in(counter, cpu);
		return;
	}
	list_add_tail(&counter->group_entry, &leader->sibling_list);
	leader->nr_siblings++;
	if (ctx->is_active && leader->state == PERF_COUNTER_STATE_ACTIVE)
		counter_sched_in(counter, cpu);
}

/*
 * Take @counter off its context for good.  The members of a leader that
 * goes become groups of their own and carry on counting.
 */
void perf_counter_detach(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct perf_counter *leader = counter->group_leader;
	struct perf_counter *member, *next;

	counter_sched_out(counter);
	/* Settle the times: a counter off its context counts no more. */
	if (counter->state >= PERF_COUNTER_STATE_INACTIVE)
		counter_set_state(counter, PERF_COUNTER_STATE_OFF);
	list_del_init(&counter->group_entry);
	ctx->nr_counters--;
	if (leader != counter) {
		leader->nr_siblings--;
		return;
	}
	list_for_each_entry_safe(member, next, &counter->sibling_list,
				 group_entry) {
		list_move_tail(&member->group_entry, &ctx->counter_list);
		member->group_leader = member;
	}
	counter->nr_siblings = 0;
}

void perf_counter_do_enable(struct perf_counter *counter)
{
	struct perf_counter *leader = counter->group_leader;
	int cpu = raw_smp_processor_id();

	if (counter->state != PERF_COUNTER_STATE_OFF &&
	    counter->state != PERF_COUNTER_STATE_ERROR)
		return;
	counter_set_state(counter, PERF_COUNTER_STATE_INACTIVE);
	if (!counter->ctx->is_active)
		return;
	if (leader == counter)
		group_sched_in(counter, cpu);
	else if (leader->state == PERF_COUNTER_STATE_ACTIVE)
		counter_sched_in(counter, cpu);
}

void perf_counter_do_disable(struct perf_counter *counter)
{
	if (counter->state == PERF_COUNTER_STATE_ERROR)
		counter->state = PERF_COUNTER_STATE_OFF;
	if (counter->state < PERF_COUNTER_STATE_INACTIVE)
		return;
	if (counter->group_leader == counter)
		group_sched_out(counter);
	else
		counter_sched_out(counter);
	counter_set_state(counter, PERF_COUNTER_STATE_OFF);
}

/*
 * The count and times of @counter itself (no children), up to the
 * context's clock.  On the counter's CPU if it is active.
 */
u64 perf_counter_read_local(struct perf_counter *counter,
			    u64 *enabled, u64 *running)
{
	if (counter->state == PERF_COUNTER_STATE_ACTIVE)
		counter->pmu->read(counter);
	if (counter->state >= PERF_COUNTER_STATE_INACTIVE)
		perf_counter_update_times(counter);
	*enabled = counter->total_time_enabled;
	*running = counter->total_time_running;
	return atomic64_read(&counter->count);
}

/*
 * An inherited clone is done (its task exited): hand its count and times
 * to the counter the user opened.  They are kept apart from the parent's
 * own so that the scheduler paths never touch the parent.
 */
void perf_counter_fold_child(struct perf_counter *child)
{
	struct perf_counter *parent = child->parent;

	atomic64_add(atomic64_read(&child->count), &parent->child_count);
	atomic64_add(child->total_time_enabled, &parent->child_time_enabled);
	atomic64_add(child->total_time_running, &parent->child_time_running);
}

/*
 * Past perf_counter_max_sample_rate / HZ overflows in one tick a counter
 * writes no more until the next tick; it says so with a THROTTLE record,
 * and with an UNTHROTTLE record at its first overflow after.  Only
 * overflows that may throttle (@may_throttle) cut a counter off, as
 * with perf events: a timer's or a PMU's, and every overflow but the
 * first that one event closes.  One tracepoint record, one sample, is
 * never cut off, so that tracing loses no record it could write.
 */
static bool counter_throttled(struct perf_counter *counter, bool may_throttle)
{
	unsigned int max = READ_ONCE(sysctl_perf_counter_max_sample_rate) / HZ;
	unsigned long tick = jiffies;

	if (counter->throttle_tick != tick) {
		counter->throttle_tick = tick;
		counter->tick_samples = 0;
		if (counter->throttled) {
			counter->throttled = false;
			perf_counter_write_throttle(counter, false);
		}
	}
	if (counter->throttled)
		return true;
	if (++counter->tick_samples <= max(max, 1U) || !may_throttle)
		return false;
	counter->throttled = true;
	perf_counter_write_throttle(counter, true);
	return true;
}

/*
 * A sampling counter reached its period: write a sample for the event at
 * @regs (with @raw, a tracepoint's record).  With a limit set by REFRESH,
 * the overflow that uses it up stops the counter; as the caller may be
 * walking the active list, the stop is only marked here.  Returns true
 * when the counter is to stop.
 */
bool perf_counter_overflow(struct perf_counter *counter, struct pt_regs *regs,
			   u64 addr, u64 period,
			   const struct perf_counter_raw *raw, bool may_throttle)
{
	if (counter_throttled(counter, may_throttle))
		return false;
	perf_counter_write_sample(counter, regs, addr, period, raw);
	if (!counter->event_limit || --counter->event_limit)
		return false;
	counter->pending_disable = true;
	counter->ctx->pending_disable = true;
	return true;
}

/* Events between samples of an event counter, now. */
u64 perf_counter_event_period(const struct perf_counter *counter)
{
	if (!counter->attr.freq)
		return counter->attr.sample_period;
	return max_t(u64, counter->freq_period, 1);
}

/*
 * attr.freq on an event counter: at each overflow the period is
 * re-estimated from the time the last one took, half way towards the
 * period that would have given the asked rate, so that one burst of
 * events does not swing it.  The first period is one event.
 */
void perf_counter_adjust_freq(struct perf_counter *counter)
{
	u64 want = NSEC_PER_SEC / max_t(u64, counter->attr.sample_freq, 1);
	u64 period = perf_counter_event_period(counter);
	u64 now = perf_counter_clock();
	u64 elapsed = now - counter->freq_stamp;
	u64 ideal;

	counter->freq_stamp = now;
	ideal = mul_u64_u64_div_u64(period, want, max_t(u64, elapsed, 1));
	counter->freq_period = max_t(u64, period / 2 + ideal / 2, 1);
}
