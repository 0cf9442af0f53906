// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: counters that follow a task into its children, and what
 * happens to counters when their task execs or exits.
 *
 * At fork every group whose leader has attr.inherit is cloned into the
 * child's own context.  A clone points at the counter the user opened
 * (never at an intermediate clone), so grandchildren report straight to
 * it.  When the child exits its clones hand their count and times to that
 * counter's child totals, before the parent can reap the child: a wait()
 * that returned means the child's share is in what read() returns.
 */

#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "internal.h"

static bool counter_wants_inherit(const struct perf_counter *counter,
				  u64 clone_flags)
{
	if (!counter->attr.inherit)
		return false;
	if (counter->attr.inherit_thread && !(clone_flags & CLONE_THREAD))
		return false;
	return counter->state >= PERF_COUNTER_STATE_OFF;
}

/* Clone @counter into @ctx; NULL if its user counter is gone. */
static struct perf_counter *inherit_counter(struct perf_counter *counter,
					    struct perf_counter_context *ctx,
					    struct perf_counter *leader)
{
	struct perf_counter *top = counter->parent ? counter->parent : counter;
	struct perf_counter *child;

	child = perf_counter_alloc(&counter->attr, counter->cpu, leader, top);
	if (IS_ERR(child))
		return child;
	child->state = counter->state == PERF_COUNTER_STATE_OFF ?
		       PERF_COUNTER_STATE_OFF : PERF_COUNTER_STATE_INACTIVE;

	mutex_lock(&top->child_mutex);
	if (top->state == PERF_COUNTER_STATE_DEAD) {
		mutex_unlock(&top->child_mutex);
		perf_counter_put(child);
		return NULL;
	}
	list_add_tail(&child->child_entry, &top->child_list);
	mutex_unlock(&top->child_mutex);

	refcount_inc(&ctx->refcount);
	raw_spin_lock_irq(&ctx->lock);
	perf_counter_attach(ctx, child);
	raw_spin_unlock_irq(&ctx->lock);
	return child;
}

static int inherit_group(struct perf_counter *leader,
			 struct perf_counter_context *ctx)
{
	struct perf_counter *child_leader, *member, *child;

	child_leader = inherit_counter(leader, ctx, NULL);
	if (IS_ERR_OR_NULL(child_leader))
		return PTR_ERR_OR_ZERO(child_leader);
	list_for_each_entry(member, &leader->sibling_list, group_entry) {
		child = inherit_counter(member, ctx, child_leader);
		if (IS_ERR(child))
			return PTR_ERR(child);
	}
	return 0;
}

/* From copy_process(): @child is not running yet. */
int perf_counter_init_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_counter_context *parent_ctx = current->perf_counter_ctxp;
	struct perf_counter_context *ctx = NULL;
	struct perf_counter *leader;
	int err = 0;

	child->perf_counter_ctxp = NULL;
	child->perf_counter_migrated = 0;
	if (!parent_ctx)
		return 0;

	mutex_lock(&parent_ctx->mutex);
	list_for_each_entry(leader, &parent_ctx->counter_list, group_entry) {
		if (!counter_wants_inherit(leader, clone_flags))
			continue;
		if (!ctx)
			ctx = perf_counter_task_ctx_alloc(child);
		if (!ctx) {
			err = -ENOMEM;
			break;
		}
		err = inherit_group(leader, ctx);
		if (err)
			break;
	}
	mutex_unlock(&parent_ctx->mutex);
	/* Even on failure: perf_counter_free_task() undoes what was done. */
	child->perf_counter_ctxp = ctx;
	return err;
}

/*
 * A counter of a context whose task is gone.  A clone reports to its
 * user counter and goes; a counter a user opened on the task stays, with
 * its final values, until its file is closed.
 */
static void exit_counter(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct perf_counter *parent = counter->parent;

	if (!parent) {
		raw_spin_lock_irq(&ctx->lock);
		if (counter->state >= PERF_COUNTER_STATE_OFF) {
			perf_counter_update_times(counter);
			counter->state = PERF_COUNTER_STATE_EXIT;
		}
		raw_spin_unlock_irq(&ctx->lock);
		wake_up_all(&counter->waitq);
		return;
	}
	mutex_lock(&parent->child_mutex);
	raw_spin_lock_irq(&ctx->lock);
	perf_counter_detach(counter);
	raw_spin_unlock_irq(&ctx->lock);
	perf_counter_fold_child(counter);
	list_del_init(&counter->child_entry);
	mutex_unlock(&parent->child_mutex);
	perf_counter_put(counter);
}

/* From do_exit(), before the parent is told; also for a failed fork. */
void perf_counter_exit_task(struct task_struct *task)
{
	struct perf_counter *leader, *next, *member, *next_member;
	struct perf_counter_context *ctx;

	/* A failed fork is no exit anybody has to hear of. */
	if (task == current)
		perf_counter_exit_records(task);
	ctx = perf_counter_take_task_ctx(task);
	if (!ctx)
		return;
	mutex_lock(&ctx->mutex);
	list_for_each_entry_safe(leader, next, &ctx->counter_list, group_entry) {
		list_for_each_entry_safe(member, next_member,
					 &leader->sibling_list, group_entry)
			exit_counter(member);
		exit_counter(leader);
	}
	mutex_unlock(&ctx->mutex);
	perf_counter_put_ctx(ctx);
}

void perf_counter_free_task(struct task_struct *task)
{
	perf_counter_exit_task(task);
}

static void enable_on_exec(struct perf_counter *counter)
{
	if (!counter->attr.enable_on_exec)
		return;
	counter->attr.enable_on_exec = 0;
	perf_counter_do_enable(counter);
}

/* From exec: start the counters that waited for the new program. */
void perf_counter_exec(void)
{
	struct perf_counter_context *ctx = current->perf_counter_ctxp;
	struct perf_counter *leader, *member;
	unsigned long flags;

	if (!ctx)
		return;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	perf_counter_ctx_update_time(ctx, perf_counter_clock());
	list_for_each_entry(leader, &ctx->counter_list, group_entry) {
		enable_on_exec(leader);
		list_for_each_entry(member, &leader->sibling_list, group_entry)
			enable_on_exec(member);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}
