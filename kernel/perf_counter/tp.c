// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: tracepoint counters (PERF_TYPE_TRACEPOINT, config = the
 * event id tracefs shows in events/<system>/<event>/id).
 *
 * The records come from the kernel's perf tracepoint plumbing: a counter
 * takes its event for perf records (perf_counter_trace_get()), which
 * registers the event's probe as a perf event would, and every record
 * the probe builds reaches __perf_counter_tp_event() from perf_tp_event()
 * with its common fields filled in.  Static tracepoints, syscall
 * tracepoints, kprobe and uprobe events all take that one path.
 *
 * Like a software event, a record is counted by the active counters of
 * the two contexts that run on this CPU: the CPU's and that of the task
 * running there.  A record is one event, or __perf_count() of them.
 */

#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/math64.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include "internal.h"

/* How many tracepoint counters exist: the hook's fast test. */
atomic_t perf_counter_tp_users;

/* Tracepoint counters are bumped by records, never on a PMU. */
static int tp_add(struct perf_counter *counter)
{
	return 0;
}

static void tp_del(struct perf_counter *counter)
{
}

static void tp_read(struct perf_counter *counter)
{
}

static const struct perf_counter_pmu perf_counter_tp_pmu = {
	.name	= "tracepoint",
	.add	= tp_add,
	.del	= tp_del,
	.read	= tp_read,
};

/* The counter the user opened: it owns the event and the filter. */
static struct perf_counter *tp_owner(struct perf_counter *counter)
{
	return counter->parent ? counter->parent : counter;
}

/*
 * A clone shares its user counter's hold on the event: the clone keeps
 * that counter alive, and the event with it.
 */
int perf_counter_tp_init(struct perf_counter *counter,
			 struct perf_counter *parent)
{
	struct trace_event_call *call;

	/* Periods are counted in records; no rate estimate (yet). */
	if (counter->attr.freq)
		return -EOPNOTSUPP;
	counter->pmu = &perf_counter_tp_pmu;
	if (parent) {
		counter->tp_call = tp_owner(parent)->tp_call;
	} else {
		call = perf_counter_trace_get(counter->attr.config);
		if (IS_ERR(call))
			return PTR_ERR(call);
		counter->tp_call = call;
	}
	atomic_inc(&perf_counter_tp_users);
	return 0;
}

/*
 * Raw records are kernel data: sampling them needs perf_counter_paranoid
 * at -1 or CAP_PERFMON, except for events marked safe for anybody
 * (TRACE_EVENT_FL_CAP_ANY, the syscall tracepoints) on a task of one's
 * own.  Counting alone reveals nothing the paranoid levels hide.
 */
int perf_counter_tp_check_raw(struct perf_counter *counter, bool per_task)
{
	if (counter->attr.type != PERF_TYPE_TRACEPOINT ||
	    !(counter->attr.sample_type & PERF_SAMPLE_RAW))
		return 0;
	if (per_task && (counter->tp_call->flags & TRACE_EVENT_FL_CAP_ANY))
		return 0;
	if (READ_ONCE(sysctl_perf_counter_paranoid) > -1 && !perfmon_capable())
		return -EPERM;
	return 0;
}

void perf_counter_tp_free(struct perf_counter *counter)
{
	if (!counter->tp_call)
		return;
	atomic_dec(&perf_counter_tp_users);
	if (counter->parent)
		return;
	perf_counter_trace_filter_free(counter->tp_filter);
	perf_counter_trace_put(counter->tp_call);
}

/*
 * PERF_COUNTER_IOC_SET_FILTER: keep only the records that match a filter
 * in tracefs syntax ("prev_pid == 42 && next_comm ~ \"sh*\"").  As with
 * perf events, a counter takes one filter for its life (EEXIST after).
 */
long perf_counter_tp_set_filter(struct perf_counter *counter,
				const char __user *ufilter)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct event_filter *filter;
	char *str;
	long err;

	if (counter->attr.type != PERF_TYPE_TRACEPOINT || counter->parent)
		return -EINVAL;
	str = strndup_user(ufilter, PAGE_SIZE);
	if (IS_ERR(str))
		return PTR_ERR(str);
	mutex_lock(&ctx->mutex);
	err = -EEXIST;
	if (counter->tp_filter)
		goto out;
	err = perf_counter_trace_filter(counter->tp_call, str, &filter);
	if (err)
		goto out;
	/* Pairs with perf_counter_tp_match(): the filter is whole first. */
	smp_store_release(&counter->tp_filter, filter);
out:
	mutex_unlock(&ctx->mutex);
	kfree(str);
	return err;
}

/* Is @rec one for @counter: its event, and through its filter? */
bool perf_counter_tp_match(struct perf_counter *counter,
			   const struct perf_counter_tp_record *rec)
{
	struct event_filter *filter;

	if (counter->attr.type != PERF_TYPE_TRACEPOINT ||
	    counter->attr.config != rec->type)
		return false;
	/* Tracepoints fire in the kernel: exclude_kernel leaves nothing. */
	if (counter->attr.exclude_kernel && !user_mode(rec->regs))
		return false;
	/* Pairs with perf_counter_tp_set_filter()'s release. */
	filter = smp_load_acquire(&tp_owner(counter)->tp_filter);
	return !filter || filter_match_preds(filter, (void *)rec->raw.data);
}

/*
 * Count @rec on @counter and sample it.  As perf events sample
 * tracepoints: with PERF_SAMPLE_PERIOD, every record is one sample whose
 * period is the number of events it stands for (sched_stat_runtime's
 * nanoseconds), whatever sample_period says; otherwise a sample for
 * every period the record closes, until the counter is throttled or
 * reaches its REFRESH limit, where only the periods after the first may
 * throttle.
 */
static void tp_count(struct perf_counter *counter,
		     const struct perf_counter_tp_record *rec)
{
	u64 period = counter->attr.sample_period;
	bool throttle;
	s64 left;
	u64 nr;

	atomic64_add(rec->count, &counter->count);
	if (!period)
		return;
	if (counter->attr.sample_type & PERF_SAMPLE_PERIOD) {
		perf_counter_overflow(counter, rec->regs, 0, rec->count,
				      &rec->raw, false);
		return;
	}
	left = counter->period_left - rec->count;
	if (left > 0) {
		counter->period_left = left;
		return;
	}
	nr = 1 + div64_u64(-left, period);
	counter->period_left = left + nr * period;
	for (throttle = false; nr--; throttle = true) {
		if (perf_counter_overflow(counter, rec->regs, 0, rec->count,
					  &rec->raw, throttle))
			break;
		if (counter->throttled)
			break;
	}
}

/*
 * Count @rec on the active counters of @ctx.  Interrupts are off and the
 * context is active on this CPU, so its active list changes only under
 * ctx->lock on this CPU, and between consistent states as far as a
 * record raised from within that code (a timer's tracepoint, say) can
 * see.  An NMI may come in the middle of a change: then the list is not
 * walked.
 */
void perf_counter_tp_count(struct perf_counter_context *ctx,
			   const struct perf_counter_tp_record *rec)
{
	struct perf_counter *counter;

	if (!ctx || !ctx->is_active)
		return;
	if (in_nmi() && raw_spin_is_locked(&ctx->lock))
		return;
	list_for_each_entry(counter, &ctx->active_list, active_entry) {
		if (counter->pending_disable)
			continue;
		if (perf_counter_tp_match(counter, rec))
			tp_count(counter, rec);
	}
	if (ctx->pending_disable && !in_nmi())
		perf_counter_disable_pending(ctx);
}

/*
 * Count @rec on the CPU's context @cpu_ctx and the running task's
 * @task_ctx (NULL when no task context runs here), unless a record is
 * being handled at this context level already.  Interrupts are off.
 */
void perf_counter_tp_deliver(struct perf_counter_context *cpu_ctx,
			     struct perf_counter_context *task_ctx,
			     const struct perf_counter_tp_record *rec)
{
	unsigned int level;

	if (!perf_counter_recursion_enter(&level))
		return;
	perf_counter_tp_count(cpu_ctx, rec);
	perf_counter_tp_count(task_ctx, rec);
	perf_counter_recursion_exit(level);
}
