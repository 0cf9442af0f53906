/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: what the rest of the kernel calls.  The hooks are cheap
 * when nobody counts: each tests a static key or a task field first.
 */
#ifndef _LINUX_PERF_COUNTER_H
#define _LINUX_PERF_COUNTER_H

/* The names both ABIs share come from perf_event's header, first. */
#include <linux/perf_event.h>
#include <uapi/linux/perf_counter.h>

struct pt_regs;
struct task_struct;
struct vm_area_struct;

#ifdef CONFIG_PERF_COUNTERS

#include <linux/jump_label.h>
#include <linux/sched.h>

DECLARE_STATIC_KEY_FALSE(perf_counter_sched_key);
extern atomic_t perf_counter_sw_users[PERF_COUNT_SW_MAX];

void __perf_counter_task_sched_out(struct task_struct *prev,
				   struct task_struct *next);
void __perf_counter_task_sched_in(struct task_struct *prev,
				  struct task_struct *task);
void __perf_counter_sw_event(u32 id, u64 nr, struct pt_regs *regs, u64 addr);

/* Called with interrupts off, before the switch from prev to next. */
static inline void perf_counter_task_sched_out(struct task_struct *prev,
					       struct task_struct *next)
{
	if (static_branch_unlikely(&perf_counter_sched_key))
		__perf_counter_task_sched_out(prev, next);
}

/* Called with interrupts off, once task is current. */
static inline void perf_counter_task_sched_in(struct task_struct *prev,
					      struct task_struct *task)
{
	if (static_branch_unlikely(&perf_counter_sched_key))
		__perf_counter_task_sched_in(prev, task);
}

/* task is about to run on another CPU; counted at its next sched-in. */
static inline void perf_counter_task_migrate(struct task_struct *task)
{
	if (atomic_read(&perf_counter_sw_users[PERF_COUNT_SW_CPU_MIGRATIONS]))
		task->perf_counter_migrated = 1;
}

/* nr events of software counter id happened to current (at addr). */
static inline void perf_counter_sw_event(u32 id, u64 nr, struct pt_regs *regs,
					 u64 addr)
{
	if (atomic_read(&perf_counter_sw_users[id]))
		__perf_counter_sw_event(id, nr, regs, addr);
}

#ifdef CONFIG_PERF_COUNTERS_TRACEPOINTS
extern atomic_t perf_counter_tp_users;
void __perf_counter_tp_event(u16 type, u64 count, void *record, int size,
			     struct pt_regs *regs);

/* A tracepoint's perf record (type: its event id), from perf_tp_event(). */
static inline void perf_counter_tp_event(u16 type, u64 count, void *record,
					 int size, struct pt_regs *regs)
{
	if (atomic_read(&perf_counter_tp_users))
		__perf_counter_tp_event(type, count, record, size, regs);
}
#else
static inline void perf_counter_tp_event(u16 type, u64 count, void *record,
					 int size, struct pt_regs *regs) { }
#endif

int perf_counter_init_task(struct task_struct *child, u64 clone_flags);
void perf_counter_exit_task(struct task_struct *task);
void perf_counter_free_task(struct task_struct *task);
void perf_counter_exec(void);
void perf_counter_fork(struct task_struct *child);
void perf_counter_comm(struct task_struct *task, bool exec);
void perf_counter_mmap(struct vm_area_struct *vma);
u64 perf_counter_clock(void);
bool perf_counter_rdpmc_fixup(struct pt_regs *regs);

#else /* !CONFIG_PERF_COUNTERS */

static inline void perf_counter_task_sched_out(struct task_struct *prev,
					       struct task_struct *next) { }
static inline void perf_counter_task_sched_in(struct task_struct *prev,
					      struct task_struct *task) { }
static inline void perf_counter_task_migrate(struct task_struct *task) { }
static inline void perf_counter_tp_event(u16 type, u64 count, void *record,
					 int size, struct pt_regs *regs) { }
static inline void perf_counter_sw_event(u32 id, u64 nr,
					 struct pt_regs *regs, u64 addr) { }
static inline int perf_counter_init_task(struct task_struct *child,
					 u64 clone_flags)
{
	return 0;
}

static inline void perf_counter_exit_task(struct task_struct *task) { }
static inline void perf_counter_free_task(struct task_struct *task) { }
static inline void perf_counter_exec(void) { }
static inline void perf_counter_fork(struct task_struct *child) { }
static inline void perf_counter_comm(struct task_struct *task, bool exec) { }
static inline void perf_counter_mmap(struct vm_area_struct *vma) { }
static inline bool perf_counter_rdpmc_fixup(struct pt_regs *regs)
{
	return false;
}

#endif /* CONFIG_PERF_COUNTERS */

#endif /* _LINUX_PERF_COUNTER_H */
