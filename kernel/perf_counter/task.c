// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: per-task and per-CPU contexts and the kernel's hooks:
 * context switch, fork, exec and exit.
 *
 * Every CPU has a context of its own, always active, for counters opened
 * with pid == -1; a task gets a context when the first counter is opened
 * on it (or inherited by it).  A task context is active while its task
 * runs: the scheduler hooks switch it in and out, and each CPU remembers
 * the task context it runs (for the software event hooks).
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

DEFINE_STATIC_KEY_FALSE(perf_counter_sched_key);

struct perf_counter_cpu {
	struct perf_counter_context	ctx;
	struct perf_counter_context	*task_ctx;
	/* A record being handled, per context level: see recursion_enter. */
	u8				busy[PERF_COUNTER_CONTEXT_LEVELS];
	/* Records dropped because one was being handled at their level. */
	unsigned long			recursion_drops;
	/* Runs while a context here has more groups than fit the PMU. */
	struct hrtimer			rotate_timer;
};

static DEFINE_PER_CPU(struct perf_counter_cpu, perf_counter_cpus);

void perf_counter_sched_key_get(void)
{
	static_branch_inc(&perf_counter_sched_key);
}

void perf_counter_sched_key_put(void)
{
	static_branch_dec(&perf_counter_sched_key);
}

struct perf_counter_context *perf_counter_get_cpu_ctx(int cpu)
{
	struct perf_counter_context *ctx = &per_cpu(perf_counter_cpus, cpu).ctx;

	refcount_inc(&ctx->refcount);
	return ctx;
}

/*
 * A new context of @task, not yet the task's.  It keeps the scheduler
 * hooks on for as long as it lives: a context outlives its counters,
 * and were the hooks to go off with the last counter of the system
 * while the task runs, the context would stay marked active after the
 * task left the CPU, and that CPU's task_ctx would still point at it
 * when the next task's context starts there.
 */
struct perf_counter_context *perf_counter_task_ctx_alloc(struct task_struct *task)
{
	struct perf_counter_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	perf_counter_ctx_init(ctx, task, -1);
	get_task_struct(task);
	perf_counter_sched_key_get();
	return ctx;
}

/* A context from perf_counter_task_ctx_alloc() that nobody saw. */
static void task_ctx_free_unused(struct perf_counter_context *ctx)
{
	perf_counter_sched_key_put();
	put_task_struct(ctx->task);
	kfree(ctx);
}

void perf_counter_put_ctx(struct perf_counter_context *ctx)
{
	if (!refcount_dec_and_test(&ctx->refcount))
		return;
	/* The contexts of CPUs are never freed. */
	if (WARN_ON_ONCE(!ctx->task))
		return;
	perf_counter_sched_key_put();
	put_task_struct(ctx->task);
	kfree_rcu(ctx, rcu_head);
}

/*
 * The context of @task, created if it has none; with a reference for the
 * caller.  task_lock orders the creation against perf_counter_exit_task,
 * which takes the context away after PF_EXITING is set.
 */
struct perf_counter_context *perf_counter_get_task_ctx(struct task_struct *task)
{
	struct perf_counter_context *ctx, *new;

	rcu_read_lock();
	ctx = READ_ONCE(task->perf_counter_ctxp);
	if (ctx && !refcount_inc_not_zero(&ctx->refcount))
		ctx = NULL;
	rcu_read_unlock();
	if (ctx)
		return ctx;

	new = perf_counter_task_ctx_alloc(task);
	if (!new)
		return ERR_PTR(-ENOMEM);

	task_lock(task);
	ctx = task->perf_counter_ctxp;
	if (ctx) {
		refcount_inc(&ctx->refcount);
	} else if (task->flags & PF_EXITING) {
		ctx = ERR_PTR(-ESRCH);
	} else {
		refcount_set(&new->refcount, 2);	/* task + caller */
		WRITE_ONCE(task->perf_counter_ctxp, new);
		ctx = new;
		new = NULL;
	}
	task_unlock(task);
	if (new)
		task_ctx_free_unused(new);
	return ctx;
}

struct ctx_call {
	struct perf_counter	*counter;
	perf_counter_ctx_fn	fn;
	void			*arg;
	int			ret;
};

/* Make @ctx this CPU's running task context; its task is current. */
static void task_ctx_activate(struct perf_counter_context *ctx)
{
	struct perf_counter_cpu *cpus = this_cpu_ptr(&perf_counter_cpus);

	if (ctx->is_active || ctx->dead || ctx->task->perf_counter_ctxp != ctx)
		return;
	/* The last task's context left with its task (or was never here). */
	WARN_ON_ONCE(cpus->task_ctx && cpus->task_ctx != ctx);
	perf_counter_ctx_sched_in(ctx, perf_counter_clock());
	cpus->task_ctx = ctx;
}

/* Runs on the CPU where the context is (or was) active. */
static void ctx_call_remote(void *info)
{
	struct ctx_call *call = info;
	struct perf_counter_context *ctx = call->counter->ctx;

	raw_spin_lock(&ctx->lock);
	if (ctx->task && ctx->task != current) {
		/* The task moved on before the IPI landed. */
		call->ret = -EAGAIN;
	} else {
		if (ctx->task)
			task_ctx_activate(ctx);
		perf_counter_ctx_update_time(ctx, perf_counter_clock());
		call->fn(call->counter, call->arg);
		call->ret = 0;
	}
	raw_spin_unlock(&ctx->lock);
}

/*
 * A CPU's context is changed on its CPU, or here while the CPU is
 * offline (its counters are off the PMU then); the hotplug lock keeps
 * the CPU as it is meanwhile.
 */
static void cpu_ctx_call(struct perf_counter_context *ctx,
			 struct ctx_call *call)
{
	cpus_read_lock();
	if (cpu_online(ctx->cpu)) {
		smp_call_function_single(ctx->cpu, ctx_call_remote, call, 1);
	} else {
		raw_spin_lock_irq(&ctx->lock);
		perf_counter_ctx_update_time(ctx, perf_counter_clock());
		call->fn(call->counter, call->arg);
		raw_spin_unlock_irq(&ctx->lock);
	}
	cpus_read_unlock();
}

/*
 * Run @fn on @counter with its context locked and its clock current:
 * on the CPU where the context is active, or here while it is active
 * nowhere.  Process context only.
 */
void perf_counter_ctx_call(struct perf_counter *counter,
			   perf_counter_ctx_fn fn, void *arg)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct ctx_call call = { counter, fn, arg, 0 };
	struct task_struct *task = ctx->task;

	if (!task) {
		cpu_ctx_call(ctx, &call);
		return;
	}
	for (;;) {
		if (!READ_ONCE(ctx->dead) && task_curr(task)) {
			call.ret = -EAGAIN;
			smp_call_function_single(task_cpu(task), ctx_call_remote,
						 &call, 1);
			if (call.ret != -EAGAIN)
				return;
			continue;
		}
		raw_spin_lock_irq(&ctx->lock);
		if (!ctx->is_active) {
			fn(counter, arg);
			raw_spin_unlock_irq(&ctx->lock);
			return;
		}
		raw_spin_unlock_irq(&ctx->lock);
		cpu_relax();
	}
}

static void attach_fn(struct perf_counter *counter, void *arg)
{
	perf_counter_attach(arg, counter);
}

/* Called with ctx->mutex held; the counter holds a reference to ctx. */
void perf_counter_install(struct perf_counter_context *ctx,
			  struct perf_counter *counter)
{
	counter->ctx = ctx;
	perf_counter_ctx_call(counter, attach_fn, ctx);
}

static void detach_fn(struct perf_counter *counter, void *arg)
{
	perf_counter_detach(counter);
}

/* Called with ctx->mutex held. */
void perf_counter_remove(struct perf_counter *counter)
{
	perf_counter_ctx_call(counter, detach_fn, NULL);
}

/*
 * One record at a time per CPU and context level (task, softirq, hardirq,
 * NMI).  A record raised while we handle one at the same level, by a
 * tracepoint on a lock or timer of our own path or an event counted from
 * a function we call, would walk context lists in the middle of our
 * change and reuse the scratch area of the sample being written: it is
 * dropped instead (and counted in recursion_drops), as perf events drop
 * theirs.  A record of a higher level, an NMI's, is handled.  Interrupts
 * are off.
 */
bool perf_counter_recursion_enter(unsigned int *level)
{
	struct perf_counter_cpu *cpus = this_cpu_ptr(&perf_counter_cpus);

	*level = interrupt_context_level();
	if (cpus->busy[*level]) {
		cpus->recursion_drops++;
		return false;
	}
	cpus->busy[*level] = 1;
	barrier();	/* Taken before we touch anything it guards. */
	return true;
}

void perf_counter_recursion_exit(unsigned int level)
{
	barrier();	/* Released after we are done. */
	this_cpu_ptr(&perf_counter_cpus)->busy[level] = 0;
}

unsigned long perf_counter_recursion_drops(void)
{
	return this_cpu_ptr(&perf_counter_cpus)->recursion_drops;
}

/* A software event on this CPU's two contexts, under the guard. */
static void sw_event_here(struct perf_counter_cpu *cpus, u32 id, u64 nr,
			  struct pt_regs *regs, u64 addr)
{
	unsigned int level;

	if (!perf_counter_recursion_enter(&level))
		return;
	perf_counter_sw_count(&cpus->ctx, id, nr, regs, addr);
	perf_counter_sw_count(cpus->task_ctx, id, nr, regs, addr);
	perf_counter_recursion_exit(level);
}

void __perf_counter_task_sched_out(struct task_struct *prev,
				   struct task_struct *next)
{
	struct perf_counter_cpu *cpus = this_cpu_ptr(&perf_counter_cpus);
	struct perf_counter_context *ctx = cpus->task_ctx;

	if (atomic_read(&perf_counter_sw_users[PERF_COUNT_SW_CONTEXT_SWITCHES]))
		sw_event_here(cpus, PERF_COUNT_SW_CONTEXT_SWITCHES, 1, NULL, 0);
	if (!ctx)
		return;
	raw_spin_lock(&ctx->lock);
	perf_counter_ctx_sched_out(ctx, perf_counter_clock());
	raw_spin_unlock(&ctx->lock);
	cpus->task_ctx = NULL;
}

void __perf_counter_task_sched_in(struct task_struct *prev,
				  struct task_struct *task)
{
	struct perf_counter_cpu *cpus = this_cpu_ptr(&perf_counter_cpus);
	struct perf_counter_context *ctx = task->perf_counter_ctxp;
	bool migrated = task->perf_counter_migrated;

	task->perf_counter_migrated = 0;
	if (ctx) {
		raw_spin_lock(&ctx->lock);
		task_ctx_activate(ctx);
		raw_spin_unlock(&ctx->lock);
	}
	if (migrated)
		sw_event_here(cpus, PERF_COUNT_SW_CPU_MIGRATIONS, 1, NULL, 0);
}

void __perf_counter_sw_event(u32 id, u64 nr, struct pt_regs *regs, u64 addr)
{
	unsigned long flags;

	local_irq_save(flags);
	sw_event_here(this_cpu_ptr(&perf_counter_cpus), id, nr, regs, addr);
	local_irq_restore(flags);
}

#ifdef CONFIG_PERF_COUNTERS_TRACEPOINTS
/*
 * From perf_tp_event(): a tracepoint's record, its common fields filled
 * in, at the registers the tracepoint gives (the caller's, or the user
 * registers of a system call).  Preemption is off; the record stays
 * valid until we return.
 */
void __perf_counter_tp_event(u16 type, u64 count, void *record, int size,
			     struct pt_regs *regs)
{
	struct perf_counter_tp_record rec = {
		.type	= type,
		.count	= count,
		.raw	= { record, size },
		.regs	= regs,
	};
	struct perf_counter_cpu *cpus;
	unsigned long flags;

	local_irq_save(flags);
	cpus = this_cpu_ptr(&perf_counter_cpus);
	perf_counter_tp_deliver(&cpus->ctx, cpus->task_ctx, &rec);
	local_irq_restore(flags);
}
#endif

static bool rotate_ctx(struct perf_counter_context *ctx, u64 now)
{
	bool more;

	if (!ctx)
		return false;
	raw_spin_lock(&ctx->lock);
	more = perf_counter_ctx_rotate(ctx, now);
	raw_spin_unlock(&ctx->lock);
	return more;
}

/*
 * Multiplexing: hard interrupt context, on this CPU.  The CPU's context
 * and the running task's take their turns; the timer stops once both
 * fit on the PMU, and a group that does not fit starts it again.
 */
static enum hrtimer_restart rotate_tick(struct hrtimer *timer)
{
	struct perf_counter_cpu *cpus = this_cpu_ptr(&perf_counter_cpus);
	u64 now = perf_counter_clock();
	bool more;

	more = rotate_ctx(&cpus->ctx, now);
	more |= rotate_ctx(cpus->task_ctx, now);
	if (!more)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(PERF_COUNTER_ROTATE_NS));
	return HRTIMER_RESTART;
}

/*
 * A group found no room on this CPU's PMU.  Interrupts are off where
 * contexts are scheduled, but the KUnit suites drive the scheduler from
 * a task.
 */
void perf_counter_rotation_wanted(void)
{
	struct hrtimer *timer;
	unsigned long flags;

	local_irq_save(flags);
	timer = this_cpu_ptr(&perf_counter_cpus.rotate_timer);
	if (!hrtimer_active(timer))
		hrtimer_start(timer, ns_to_ktime(PERF_COUNTER_ROTATE_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
	local_irq_restore(flags);
}

/*
 * Stop the counters of this CPU's contexts whose last allowed overflow
 * happened where no lock could be taken (a PMU interrupt, an NMI).
 */
void perf_counter_disable_pending_here(void)
{
	struct perf_counter_cpu *cpus = this_cpu_ptr(&perf_counter_cpus);

	if (cpus->ctx.pending_disable)
		perf_counter_disable_pending(&cpus->ctx);
	if (cpus->task_ctx && cpus->task_ctx->pending_disable)
		perf_counter_disable_pending(cpus->task_ctx);
}

/*
 * CPU hotplug, on the CPU itself: going down, its context's counters
 * leave the PMU (timers included) and wait, enabled; coming up, they go
 * on again.  Also run on every CPU at boot, which starts each context's
 * clock from that CPU's own.
 */
static int perf_counter_cpu_online(unsigned int cpu)
{
	struct perf_counter_context *ctx = &per_cpu(perf_counter_cpus, cpu).ctx;

	raw_spin_lock_irq(&ctx->lock);
	perf_counter_ctx_unpark(ctx, perf_counter_clock());
	raw_spin_unlock_irq(&ctx->lock);
	return 0;
}

static int perf_counter_cpu_offline(unsigned int cpu)
{
	struct perf_counter_context *ctx = &per_cpu(perf_counter_cpus, cpu).ctx;

	raw_spin_lock_irq(&ctx->lock);
	perf_counter_ctx_park(ctx, perf_counter_clock());
	raw_spin_unlock_irq(&ctx->lock);
	return 0;
}

/* Contexts of CPUs that never came up start parked. */
void __init perf_counter_cpus_init(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu) {
		struct perf_counter_cpu *cpus = &per_cpu(perf_counter_cpus, cpu);
		struct perf_counter_context *ctx = &cpus->ctx;

		hrtimer_init(&cpus->rotate_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		cpus->rotate_timer.function = rotate_tick;
		perf_counter_ctx_init(ctx, NULL, cpu);
		ctx->is_active = true;
		ctx->parked = true;
		ctx->timestamp = perf_counter_clock();
	}
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf_counter:online",
				perf_counter_cpu_online,
				perf_counter_cpu_offline);
	WARN_ON(ret < 0);
}

/*
 * Stop @task's context and take it from the task: from here on the
 * scheduler hooks ignore it and nothing can be opened on the task.
 * Returns the context (the task's reference passes to the caller).
 */
struct perf_counter_context *perf_counter_take_task_ctx(struct task_struct *task)
{
	struct perf_counter_cpu *cpus;
	struct perf_counter_context *ctx;

	local_irq_disable();
	task_lock(task);
	ctx = task->perf_counter_ctxp;
	WRITE_ONCE(task->perf_counter_ctxp, NULL);
	task_unlock(task);
	if (ctx) {
		cpus = this_cpu_ptr(&perf_counter_cpus);
		raw_spin_lock(&ctx->lock);
		perf_counter_ctx_sched_out(ctx, perf_counter_clock());
		if (cpus->task_ctx == ctx)
			cpus->task_ctx = NULL;
		WRITE_ONCE(ctx->dead, true);
		raw_spin_unlock(&ctx->lock);
	}
	local_irq_enable();
	return ctx;
}

/* Counters asking for side-band records, for the hooks' fast test. */
atomic_t perf_counter_side_band_users;

typedef bool (*side_band_want)(const struct perf_counter *counter);
typedef void (*side_band_emit)(struct perf_counter *counter, void *arg);

static void side_band_ctx(struct perf_counter_context *ctx,
			  side_band_want want, side_band_emit emit, void *arg)
{
	struct perf_counter *leader, *member;

	if (!ctx)
		return;
	raw_spin_lock(&ctx->lock);
	list_for_each_entry(leader, &ctx->counter_list, group_entry) {
		if (leader->state >= PERF_COUNTER_STATE_INACTIVE && want(leader))
			emit(leader, arg);
		list_for_each_entry(member, &leader->sibling_list, group_entry) {
			if (member->state >= PERF_COUNTER_STATE_INACTIVE &&
			    want(member))
				emit(member, arg);
		}
	}
	raw_spin_unlock(&ctx->lock);
}

/*
 * Side-band records about current go to the enabled counters that asked
 * for them in current's context and in this CPU's.
 */
static void side_band(side_band_want want, side_band_emit emit, void *arg)
{
	struct perf_counter_cpu *cpus;
	unsigned long flags;

	if (!atomic_read(&perf_counter_side_band_users))
		return;
	local_irq_save(flags);
	cpus = this_cpu_ptr(&perf_counter_cpus);
	side_band_ctx(&cpus->ctx, want, emit, arg);
	side_band_ctx(current->perf_counter_ctxp, want, emit, arg);
	local_irq_restore(flags);
}

static bool wants_task(const struct perf_counter *counter)
{
	const struct perf_counter_attr *attr = &counter->attr;

	return attr->task || attr->comm || attr->mmap || attr->mmap2 ||
	       attr->mmap_data;
}

static void emit_fork(struct perf_counter *counter, void *arg)
{
	perf_counter_write_task(counter, arg, true);
}

static void emit_exit(struct perf_counter *counter, void *arg)
{
	perf_counter_write_task(counter, arg, false);
}

/* From copy_process(), in the parent, once the child exists. */
void perf_counter_fork(struct task_struct *child)
{
	side_band(wants_task, emit_fork, child);
}

void perf_counter_exit_records(struct task_struct *task)
{
	side_band(wants_task, emit_exit, task);
}

static bool wants_comm(const struct perf_counter *counter)
{
	return counter->attr.comm;
}

struct comm_arg {
	struct task_struct	*task;
	char			comm[TASK_COMM_LEN];
	bool			exec;
};

static void emit_comm(struct perf_counter *counter, void *arg)
{
	struct comm_arg *c = arg;

	perf_counter_write_comm(counter, c->task, c->comm, c->exec);
}

/* From __set_task_comm(): @task got a new name (by exec or prctl). */
void perf_counter_comm(struct task_struct *task, bool exec)
{
	struct comm_arg c = { .task = task, .exec = exec };

	if (task != current || !atomic_read(&perf_counter_side_band_users))
		return;
	/* The name is read under task_lock(), never inside a ctx->lock. */
	get_task_comm(c.comm, task);
	side_band(wants_comm, emit_comm, &c);
}

struct mmap_arg {
	struct vm_area_struct	*vma;
	const char		*name;
};

static bool wants_exec_mmap(const struct perf_counter *counter)
{
	return counter->attr.mmap || counter->attr.mmap2;
}

static bool wants_data_mmap(const struct perf_counter *counter)
{
	return counter->attr.mmap_data;
}

static void emit_mmap(struct perf_counter *counter, void *arg)
{
	struct mmap_arg *m = arg;

	perf_counter_write_mmap(counter, m->vma, m->name);
}

/* The name a mapping has in /proc/PID/maps, as far as tools need it. */
static const char *mmap_name(struct vm_area_struct *vma, char *buf, int len)
{
	const char *name;

	if (vma->vm_file) {
		name = d_path(&vma->vm_file->f_path, buf, len);
		return IS_ERR(name) ? "//toolong" : name;
	}
	if (vma->vm_ops && vma->vm_ops->name) {
		name = vma->vm_ops->name(vma);
		if (name)
			return name;
	}
	name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma->vm_mm && vma->vm_start <= vma->vm_mm->brk &&
	    vma->vm_end >= vma->vm_mm->start_brk)
		return "[heap]";
	if (vma->vm_mm && vma->vm_start <= vma->vm_mm->start_stack &&
	    vma->vm_end >= vma->vm_mm->start_stack)
		return "[stack]";
	return "//anon";
}

/* From mmap_region() and special mappings: @vma is new in current->mm. */
void perf_counter_mmap(struct vm_area_struct *vma)
{
	struct mmap_arg m = { vma };
	char *buf;

	if (!atomic_read(&perf_counter_side_band_users))
		return;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	m.name = mmap_name(vma, buf, PATH_MAX);
	side_band(vma->vm_flags & VM_EXEC ? wants_exec_mmap : wants_data_mmap,
		  emit_mmap, &m);
	kfree(buf);
}
