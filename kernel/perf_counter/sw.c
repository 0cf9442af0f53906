// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: software counters.
 *
 * The two clocks count nanoseconds of perf clock while they are on the
 * PMU: for a task's counter that is the time the task ran, for a CPU's
 * counter the time that passed.  The other counters are bumped by hooks
 * in the kernel (scheduler, page fault paths) through
 * perf_counter_sw_event(), which looks only at the contexts active on the
 * current CPU: the CPU's own and that of the task running there.
 */

#include <linux/errno.h>
#include <linux/hrtimer.h>
#include <asm/irq_regs.h>
#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>

#include "internal.h"

/* How many counters of each software id exist: the hooks' fast test. */
atomic_t perf_counter_sw_users[PERF_COUNT_SW_MAX];

static bool sw_is_clock(const struct perf_counter *counter)
{
	return counter->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
	       counter->attr.config == PERF_COUNT_SW_TASK_CLOCK;
}

static void sw_clock_fold(struct perf_counter *counter)
{
	u64 now = perf_counter_clock();

	atomic64_add(now - counter->prev, &counter->count);
	counter->prev = now;
}

/*
 * Nanoseconds between samples of a clock: its period, or for attr.freq
 * the time that gives the asked rate exactly (a clock needs no estimate).
 */
static u64 sw_clock_period(const struct perf_counter *counter)
{
	u64 period = counter->attr.sample_period;

	if (counter->attr.freq)
		period = NSEC_PER_SEC / max_t(u64, counter->attr.sample_freq, 1);
	return max_t(u64, period, 10 * NSEC_PER_USEC);
}

static bool sw_sample_excluded(const struct perf_counter *counter,
			       struct pt_regs *regs)
{
	if (counter->attr.exclude_idle && is_idle_task(current))
		return true;
	if (user_mode(regs))
		return counter->attr.exclude_user;
	return counter->attr.exclude_kernel;
}

/* A clock's sampling timer: hard interrupt context, on the counter's CPU. */
static enum hrtimer_restart sw_clock_tick(struct hrtimer *timer)
{
	struct perf_counter *counter =
		container_of(timer, struct perf_counter, hrtimer);
	struct pt_regs *regs = get_irq_regs();
	unsigned int level;
	bool stop = false;

	if (counter->state != PERF_COUNTER_STATE_ACTIVE)
		return HRTIMER_NORESTART;
	sw_clock_fold(counter);
	/* The period of a sample is the timer's, as with perf_events. */
	if (regs && !sw_sample_excluded(counter, regs) &&
	    perf_counter_recursion_enter(&level)) {
		stop = perf_counter_overflow(counter, regs, 0,
					     sw_clock_period(counter), NULL,
					     true);
		perf_counter_recursion_exit(level);
	}
	if (counter->ctx->pending_disable)
		perf_counter_disable_pending(counter->ctx);
	if (stop || counter->state != PERF_COUNTER_STATE_ACTIVE)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(sw_clock_period(counter)));
	return HRTIMER_RESTART;
}

static bool sw_is_sampling(const struct perf_counter *counter)
{
	return counter->attr.freq || counter->attr.sample_period;
}

static int sw_add(struct perf_counter *counter)
{
	if (!sw_is_clock(counter))
		return 0;
	counter->prev = perf_counter_clock();
	if (sw_is_sampling(counter))
		hrtimer_start(&counter->hrtimer,
			      ns_to_ktime(sw_clock_period(counter)),
			      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/*
 * The timer is pinned to this CPU and runs in hard interrupt context,
 * and we run here with interrupts off: if its callback is running, it
 * is the one that called us (a REFRESH limit reached in sw_clock_tick()),
 * and waiting for it to end would never return.  It sees the counter
 * stopped and does not restart itself.
 */
static void sw_del(struct perf_counter *counter)
{
	if (!sw_is_clock(counter))
		return;
	if (sw_is_sampling(counter))
		hrtimer_try_to_cancel(&counter->hrtimer);
	sw_clock_fold(counter);
}

static void sw_read(struct perf_counter *counter)
{
	if (sw_is_clock(counter))
		sw_clock_fold(counter);
}

const struct perf_counter_pmu perf_counter_sw_pmu = {
	.name	= "software",
	.add	= sw_add,
	.del	= sw_del,
	.read	= sw_read,
};

/*
 * Which software ids exist here.  Alignment and emulation faults are
 * valid everywhere and simply never happen on x86-64; BPF output and
 * cgroup switches need machinery this subsystem does not have.
 */
int perf_counter_sw_init(struct perf_counter *counter)
{
	switch (counter->attr.config) {
	case PERF_COUNT_SW_CPU_CLOCK:
	case PERF_COUNT_SW_TASK_CLOCK:
	case PERF_COUNT_SW_PAGE_FAULTS:
	case PERF_COUNT_SW_CONTEXT_SWITCHES:
	case PERF_COUNT_SW_CPU_MIGRATIONS:
	case PERF_COUNT_SW_PAGE_FAULTS_MIN:
	case PERF_COUNT_SW_PAGE_FAULTS_MAJ:
	case PERF_COUNT_SW_ALIGNMENT_FAULTS:
	case PERF_COUNT_SW_EMULATION_FAULTS:
	case PERF_COUNT_SW_DUMMY:
		atomic_inc(&perf_counter_sw_users[counter->attr.config]);
		counter->pmu = &perf_counter_sw_pmu;
		hrtimer_init(&counter->hrtimer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		counter->hrtimer.function = sw_clock_tick;
		return 0;
	default:
		return -ENOENT;
	}
}

/* Does @counter want an event that happened in the mode @regs show? */
static bool sw_excluded(const struct perf_counter *counter,
			struct pt_regs *regs)
{
	if (counter->attr.exclude_idle && is_idle_task(current))
		return true;
	if (regs && user_mode(regs))
		return counter->attr.exclude_user;
	return counter->attr.exclude_kernel;
}

/* Sample every period of events; the sample says the period it closed. */
static void sw_count_periods(struct perf_counter *counter, u64 nr,
			     struct pt_regs *regs, u64 addr)
{
	u64 period;

	counter->period_left -= nr;
	while (counter->period_left <= 0) {
		period = perf_counter_event_period(counter);
		if (counter->attr.freq)
			perf_counter_adjust_freq(counter);
		counter->period_left += perf_counter_event_period(counter);
		if (perf_counter_overflow(counter, regs, addr, period, NULL,
					  true))
			break;
	}
}

/*
 * Stop the counters whose last allowed overflow just happened.  A record
 * may be raised while this CPU holds ctx->lock (a tracepoint in code
 * that changes the context): then the stop waits for the next event,
 * and the counters marked meanwhile take no more events.
 */
void perf_counter_disable_pending(struct perf_counter_context *ctx)
{
	struct perf_counter *counter, *next;

	if (!raw_spin_trylock(&ctx->lock))
		return;
	ctx->pending_disable = false;
	perf_counter_ctx_update_time(ctx, perf_counter_clock());
	list_for_each_entry_safe(counter, next, &ctx->active_list,
				 active_entry) {
		if (!counter->pending_disable)
			continue;
		counter->pending_disable = false;
		perf_counter_do_disable(counter);
	}
	raw_spin_unlock(&ctx->lock);
}

/*
 * Add @nr to every active counter of software id @id in @ctx.  Interrupts
 * are off and @ctx is active on this CPU, so nothing changes its active
 * list under us: changes come through an IPI to this CPU or wait until
 * the context is inactive.
 */
void perf_counter_sw_count(struct perf_counter_context *ctx, u32 id, u64 nr,
			   struct pt_regs *regs, u64 addr)
{
	struct pt_regs *sample_regs = regs;
	struct perf_counter *counter;

	if (!ctx || !ctx->is_active)
		return;
	/*
	 * Events the kernel counts for itself (switches, migrations) have
	 * no registers: their samples show where the task left user space.
	 */
	if (!sample_regs && current->mm && !(current->flags & PF_KTHREAD))
		sample_regs = task_pt_regs(current);
	list_for_each_entry(counter, &ctx->active_list, active_entry) {
		if (counter->attr.type != PERF_TYPE_SOFTWARE ||
		    counter->attr.config != id || counter->pending_disable)
			continue;
		if (sw_excluded(counter, regs))
			continue;
		atomic64_add(nr, &counter->count);
		if (sw_is_sampling(counter))
			sw_count_periods(counter, nr, sample_regs, addr);
	}
	if (ctx->pending_disable)
		perf_counter_disable_pending(ctx);
}
