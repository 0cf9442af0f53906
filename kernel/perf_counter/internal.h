/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_counter: declarations shared by the files of the subsystem and
 * its KUnit tests; nothing here is visible to the rest of the kernel.
 *
 * Locking, outermost first:
 *
 *   ctx->mutex			attaching and detaching counters (may sleep)
 *   counter->child_mutex	the list of a counter's inherited clones
 *   ctx->lock			counter states, the lists the scheduler hooks
 *				walk and the context's clock; taken with
 *				interrupts off
 *
 * A task context is changed only on the CPU where it is active (through
 * an IPI when that is not the caller's), or under ctx->lock while it is
 * active nowhere; the scheduler hooks therefore touch it with no more
 * than ctx->lock.  A CPU context is changed only on its own CPU.
 */
#ifndef _KERNEL_PERF_COUNTER_INTERNAL_H
#define _KERNEL_PERF_COUNTER_INTERNAL_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_counter.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <asm/local64.h>

struct ctl_table;
struct ctl_table_header;
struct event_filter;
struct trace_event_call;
struct task_struct;
struct pt_regs;
struct vm_area_struct;

/* The range and default of /proc/sys/kernel/perf_counter_paranoid. */
#define PERF_COUNTER_PARANOID_MIN	(-1)
#define PERF_COUNTER_PARANOID_MAX	3
#define PERF_COUNTER_PARANOID_DEFAULT	2

extern int sysctl_perf_counter_paranoid;
extern int sysctl_perf_counter_max_sample_rate;
extern int sysctl_perf_counter_max_stack;
extern int sysctl_perf_counter_mlock_kb;
extern struct ctl_table perf_counter_sysctl_table[];
extern struct ctl_table_header *perf_counter_sysctl_header;

/*
 * Life of a counter.  Only ACTIVE counters are on a PMU; INACTIVE ones
 * are enabled but waiting for their context to run (or for room on the
 * PMU); OFF ones are disabled.  EXIT: the task went away, the values are
 * final.  DEAD: the file was released, only references keep it.  ERROR:
 * a pinned group that could not go on the PMU; it stays off (and reads
 * as end of file) until it is enabled again.
 */
enum perf_counter_state {
	PERF_COUNTER_STATE_ERROR	= -4,
	PERF_COUNTER_STATE_DEAD		= -3,
	PERF_COUNTER_STATE_EXIT		= -2,
	PERF_COUNTER_STATE_OFF		= -1,
	PERF_COUNTER_STATE_INACTIVE	= 0,
	PERF_COUNTER_STATE_ACTIVE	= 1,
};

struct perf_counter;
struct mm_struct;

/*
 * Where user space reads a counter on a PMU: instruction rdpmc with
 * ECX = index - 1 (index 0: not on this CPU's PMU now) gives @width
 * bits, which sign-extended and less @base are what the counter counted
 * since its count was last folded.
 */
struct perf_counter_user_read {
	u32	index;
	u16	width;
	s64	base;
};

/*
 * What the core needs from a source of counts.  add() puts the counter
 * on the PMU of this CPU and starts it (-EAGAIN: no room, which makes a
 * whole group wait); del() stops it and folds what it counted into
 * counter->count; read() folds the count so far without stopping.  All
 * three run on the counter's CPU with interrupts off.
 */
struct perf_counter_pmu {
	const char	*name;
	int		(*add)(struct perf_counter *counter);
	void		(*del)(struct perf_counter *counter);
	void		(*read)(struct perf_counter *counter);
	/*
	 * Optional, for counters user space may read itself (rdpmc):
	 * user_read() says whether it may, and where the counter is now
	 * (struct perf_counter_user_read), on the counter's CPU with
	 * interrupts off; mapped() and unmapped() are told of each
	 * mapping of its buffer into @mm, under the mm's mmap_lock.
	 */
	bool		(*user_read)(struct perf_counter *counter,
				     struct perf_counter_user_read *ur);
	void		(*mapped)(struct perf_counter *counter,
				  struct mm_struct *mm);
	void		(*unmapped)(struct perf_counter *counter,
				    struct mm_struct *mm);
};

/*
 * The hardware PMU of the machine (arch code), behind PERF_TYPE_HARDWARE,
 * PERF_TYPE_HW_CACHE and PERF_TYPE_RAW.  init() checks the attr and
 * claims the hardware (-ENOENT: no such event here, -EBUSY: the counters
 * belong to someone else); destroy() gives back what init() took.
 */
struct perf_counter_hw_pmu {
	struct perf_counter_pmu	pmu;
	int			(*init)(struct perf_counter *counter);
	void			(*destroy)(struct perf_counter *counter);
};

/* hw.c */
void perf_counter_hw_register(const struct perf_counter_hw_pmu *hw);
const struct perf_counter_hw_pmu *perf_counter_hw_get(void);
int perf_counter_hw_init(struct perf_counter *counter);
void perf_counter_hw_free(struct perf_counter *counter);

struct perf_counter_context;

/*
 * The ring buffer (ring_buffer.c): one control page and 2^n data pages,
 * mapped by user space.  Several counters may write into one buffer.
 */
struct perf_counter_buffer {
	refcount_t			refcount;
	atomic_long_t			head;		/* reserved up to */
	atomic_t			writers;	/* reserved, not committed */
	atomic64_t			lost;		/* not yet reported */
	unsigned long			size;		/* data bytes */
	unsigned long			nr_pages;
	bool				overwrite;	/* mapped read-only */
	bool				backward;	/* head moves down */
	bool				paused;		/* records dropped */
	void				*base;		/* control page + data */
	struct perf_counter_mmap_page	*user_page;
	void				*data;

	/* Wake readers every wakeup_events samples or watermark bytes. */
	atomic_long_t			wakeup_head;
	atomic_t			pending_events;
	unsigned long			watermark;
	int				wakeup_events;
	struct irq_work			wakeup_work;
	atomic_t			mmap_count;
	/* The counter that mapped it; it lives as long as the buffer. */
	struct perf_counter		*owner;
	/* The counters writing here: their poll() waiters are woken. */
	spinlock_t			waiters_lock;
	struct list_head		waiters;
	/* What the mapping was charged: pages of user and of mm. */
	struct user_struct		*mlock_user;
	struct mm_struct		*mlock_mm;
	unsigned long			mlock_user_pages;
	unsigned long			mlock_mm_pages;
	/* Freed from process context once no writer can see it. */
	struct rcu_work			free_work;
#ifdef CONFIG_PERF_COUNTERS_KUNIT_TEST
	/* Run once inside the next commit, where an NMI could nest. */
	void				(*test_nest)(struct perf_counter_buffer *rb);
#endif
};

/* A tracepoint's record, for PERF_SAMPLE_RAW; NULL for other counters. */
struct perf_counter_raw {
	const void	*data;
	u32		size;
};

/* One record being written: from perf_counter_output_begin() to _end(). */
struct perf_counter_output {
	struct perf_counter_buffer	*rb;
	unsigned long			pos;
	unsigned long			end;
};

/* Deepest call chain a sample carries, without its context markers. */
#define PERF_COUNTER_MAX_STACK		127
/* Most u64 values a PERF_SAMPLE_READ may carry: a group of 32. */
#define PERF_COUNTER_MAX_READ_VALUES	(3 + 3 * 32)

struct perf_counter {
	struct perf_counter_attr	attr;
	const struct perf_counter_pmu	*pmu;
	struct perf_counter_context	*ctx;
	u64				id;
	int				cpu;	/* -1: any */
	int				oncpu;	/* where ACTIVE, else -1 */
	enum perf_counter_state		state;

	/* ctx->counter_list for leaders, the leader's sibling_list else */
	struct list_head		group_entry;
	struct list_head		sibling_list;
	struct perf_counter		*group_leader;
	int				nr_siblings;
	/* ctx->active_list while ACTIVE */
	struct list_head		active_entry;

	atomic64_t			count;
	u64				prev;	/* PMU private: last reading */
	/* Hardware counters: event, usable slots, slot, last raw value */
	u64				hw_config;
	u64				hw_slots;
	int				hw_idx;
	local64_t			hw_prev;
	/* Bumped when an NMI moved count and hw_prev: see mmap.c */
	unsigned int			hw_seq;

	/* Nanoseconds of context time, brought up to date at tstamp. */
	u64				total_time_enabled;
	u64				total_time_running;
	u64				tstamp;

	/* Inheritance: clones point at the counter the user opened. */
	struct perf_counter		*parent;
	struct mutex			child_mutex;	/* child_list */
	struct list_head		child_list;
	struct list_head		child_entry;
	atomic64_t			child_count;
	atomic64_t			child_time_enabled;
	atomic64_t			child_time_running;

	/* Sampling: events left to the next overflow; overflows left */
	s64				period_left;
	int				event_limit;	/* 0: no limit */
	bool				pending_disable;
	struct hrtimer			hrtimer;	/* clock sampling */
	/* attr.freq: the period now estimated, and when it was last used */
	u64				freq_period;
	u64				freq_stamp;
	/* Throttling: samples in the tick under way, and whether cut off. */
	unsigned long			throttle_tick;
	unsigned int			tick_samples;
	bool				throttled;
	wait_queue_head_t		waitq;	/* poll() */

	/*
	 * PERF_TYPE_TRACEPOINT: the tracefs event and the filter set by
	 * PERF_COUNTER_IOC_SET_FILTER.  Clones use their user counter's.
	 */
	struct trace_event_call		*tp_call;
	struct event_filter		*tp_filter;

	/* Where records go: our own buffer (mmap) or another's (SET_OUTPUT). */
	struct perf_counter_buffer __rcu *rb;
	struct list_head		rb_entry;	/* rb->waiters */
	struct mutex			mmap_mutex;	/* rb changes */
	atomic64_t			lost_samples;	/* PERF_FORMAT_LOST */
	refcount_t			refcount;
	struct task_struct		*owner_task;	/* for the KUnit suite */
};

struct perf_counter_context {
	raw_spinlock_t			lock;
	/* A CPU's context while the CPU is offline: nothing goes on the PMU. */
	bool				parked;
	struct mutex			mutex;	/* attach, detach */
	struct list_head		counter_list;	/* group leaders */
	struct list_head		active_list;
	int				nr_counters;
	int				nr_active;
	bool				is_active;
	/* A group did not fit on the PMU: groups take turns (rotation). */
	bool				rotate;
	bool				dead;		/* task exited */
	bool				pending_disable;
	struct task_struct		*task;		/* NULL: a CPU's */
	int				cpu;		/* CPU contexts */

	/* Context time: advances only while the context is active. */
	u64				time;
	u64				timestamp;

	refcount_t			refcount;
	struct rcu_head			rcu_head;
};

/* counter.c: states, times and scheduling, free of any real clock */
void perf_counter_ctx_init(struct perf_counter_context *ctx,
			   struct task_struct *task, int cpu);
void perf_counter_init(struct perf_counter *counter,
		       const struct perf_counter_attr *attr,
		       const struct perf_counter_pmu *pmu, int cpu,
		       struct perf_counter *group_leader);
void perf_counter_update_times(struct perf_counter *counter);
void perf_counter_ctx_sched_in(struct perf_counter_context *ctx, u64 now);
void perf_counter_ctx_sched_out(struct perf_counter_context *ctx, u64 now);
void perf_counter_ctx_park(struct perf_counter_context *ctx, u64 now);
void perf_counter_ctx_unpark(struct perf_counter_context *ctx, u64 now);
void perf_counter_attach(struct perf_counter_context *ctx,
			 struct perf_counter *counter);
void perf_counter_detach(struct perf_counter *counter);
void perf_counter_do_enable(struct perf_counter *counter);
void perf_counter_do_disable(struct perf_counter *counter);
void perf_counter_fold_child(struct perf_counter *child);
u64 perf_counter_read_local(struct perf_counter *counter,
			    u64 *enabled, u64 *running);
void perf_counter_ctx_update_time(struct perf_counter_context *ctx, u64 now);
void perf_counter_times_at(const struct perf_counter *counter, u64 now,
			   u64 *enabled, u64 *running);
bool perf_counter_overflow(struct perf_counter *counter, struct pt_regs *regs,
			   u64 addr, u64 period,
			   const struct perf_counter_raw *raw, bool may_throttle);
u64 perf_counter_event_period(const struct perf_counter *counter);
void perf_counter_adjust_freq(struct perf_counter *counter);
bool perf_counter_ctx_rotate(struct perf_counter_context *ctx, u64 now);

/* ring_buffer.c */
#define PERF_COUNTER_RB_OVERWRITE	0x1	/* ignore data_tail */
#define PERF_COUNTER_RB_BACKWARD	0x2	/* attr.write_backward */
struct perf_counter_buffer *perf_counter_buffer_alloc(unsigned long nr_pages,
						      unsigned int flags);
void perf_counter_buffer_put(struct perf_counter_buffer *rb);
void perf_counter_buffer_join(struct perf_counter_buffer *rb,
			      struct perf_counter *counter);
void perf_counter_buffer_leave(struct perf_counter_buffer *rb,
			       struct perf_counter *counter);
int perf_counter_output_begin(struct perf_counter_output *out,
			      struct perf_counter_buffer *rb,
			      struct perf_counter *counter, unsigned int size);
void perf_counter_output_copy(struct perf_counter_output *out,
			      const void *src, unsigned int len);
unsigned int perf_counter_output_copy_user(struct perf_counter_output *out,
					   const void __user *src,
					   unsigned int len);
void perf_counter_output_end(struct perf_counter_output *out, bool sample);
u64 perf_counter_buffer_lost(struct perf_counter_buffer *rb);
bool perf_counter_buffer_readable(struct perf_counter_buffer *rb);
void perf_counter_buffer_pause(struct perf_counter_buffer *rb, bool pause);

/* mmap.c: user space mappings of the buffer, SET_OUTPUT */
void perf_counter_set_buffer(struct perf_counter *counter,
			     struct perf_counter_buffer *rb);
int perf_counter_file_mmap(struct file *file, struct vm_area_struct *vma);
void perf_counter_user_page_update(struct perf_counter *counter);
void perf_counter_user_page_nmi(struct perf_counter *counter);
void perf_counter_arch_user_time(struct perf_counter_mmap_page *up,
				 const struct perf_counter *counter, u64 now);
long perf_counter_set_output(struct perf_counter *counter, int fd);
long perf_counter_pause_output(struct perf_counter *counter, bool pause);

/* output.c: records */
u64 perf_counter_primary_id(const struct perf_counter *counter);
bool perf_counter_regs_mask_valid(u64 mask);
unsigned int perf_counter_lost_size(struct perf_counter *counter);
void perf_counter_write_lost(struct perf_counter_output *out,
			     struct perf_counter *counter, u64 lost);
unsigned int perf_counter_raw_size(const struct perf_counter_raw *raw);
void perf_counter_write_sample(struct perf_counter *counter,
			       struct pt_regs *regs, u64 addr, u64 period,
			       const struct perf_counter_raw *raw);
void perf_counter_write_throttle(struct perf_counter *counter, bool throttle);
void perf_counter_write_comm(struct perf_counter *counter,
			     struct task_struct *task, const char *comm,
			     bool exec);
void perf_counter_write_task(struct perf_counter *counter,
			     struct task_struct *task, bool fork);
void perf_counter_write_mmap(struct perf_counter *counter,
			     const struct vm_area_struct *vma,
			     const char *name);

/* sw.c: software counters */
extern const struct perf_counter_pmu perf_counter_sw_pmu;
int perf_counter_sw_init(struct perf_counter *counter);
void perf_counter_sw_count(struct perf_counter_context *ctx, u32 id, u64 nr,
			   struct pt_regs *regs, u64 addr);
void perf_counter_disable_pending(struct perf_counter_context *ctx);

/* tp.c: tracepoint counters */
struct perf_counter_tp_record {
	u16			type;	/* the tracefs event id */
	u64			count;
	struct perf_counter_raw	raw;
	struct pt_regs		*regs;
};

#ifdef CONFIG_PERF_COUNTERS_TRACEPOINTS
extern atomic_t perf_counter_tp_users;
int perf_counter_tp_init(struct perf_counter *counter,
			 struct perf_counter *parent);
int perf_counter_tp_check_raw(struct perf_counter *counter, bool per_task);
void perf_counter_tp_free(struct perf_counter *counter);
long perf_counter_tp_set_filter(struct perf_counter *counter,
				const char __user *ufilter);
void perf_counter_tp_count(struct perf_counter_context *ctx,
			   const struct perf_counter_tp_record *rec);
void perf_counter_tp_deliver(struct perf_counter_context *cpu_ctx,
			     struct perf_counter_context *task_ctx,
			     const struct perf_counter_tp_record *rec);
bool perf_counter_tp_match(struct perf_counter *counter,
			   const struct perf_counter_tp_record *rec);
#else
static inline int perf_counter_tp_init(struct perf_counter *counter,
				       struct perf_counter *parent)
{
	return -ENOENT;
}

static inline int perf_counter_tp_check_raw(struct perf_counter *counter,
					    bool per_task)
{
	return 0;
}

static inline void perf_counter_tp_free(struct perf_counter *counter) { }
static inline long perf_counter_tp_set_filter(struct perf_counter *counter,
					      const char __user *ufilter)
{
	return -EINVAL;
}
#endif

/* task.c: per-task and per-CPU contexts, the hooks */
/* Task, softirq, hardirq, NMI: the levels at which records can nest. */
#define PERF_COUNTER_CONTEXT_LEVELS	4
bool perf_counter_recursion_enter(unsigned int *level);
void perf_counter_recursion_exit(unsigned int level);
unsigned long perf_counter_recursion_drops(void);
struct perf_counter_context *perf_counter_get_cpu_ctx(int cpu);
struct perf_counter_context *perf_counter_get_task_ctx(struct task_struct *t);
struct perf_counter_context *perf_counter_task_ctx_alloc(struct task_struct *task);
void perf_counter_put_ctx(struct perf_counter_context *ctx);
typedef void (*perf_counter_ctx_fn)(struct perf_counter *counter, void *arg);
void perf_counter_ctx_call(struct perf_counter *counter,
			   perf_counter_ctx_fn fn, void *arg);
void perf_counter_install(struct perf_counter_context *ctx,
			  struct perf_counter *counter);
void perf_counter_remove(struct perf_counter *counter);
void perf_counter_sched_key_get(void);
void perf_counter_sched_key_put(void);
void perf_counter_cpus_init(void);
void perf_counter_rotation_wanted(void);
void perf_counter_disable_pending_here(void);
/* How long groups that do not all fit on the PMU take turns: 4 ms each. */
#define PERF_COUNTER_ROTATE_NS		(4 * NSEC_PER_MSEC)
void perf_counter_exit_records(struct task_struct *task);
extern atomic_t perf_counter_side_band_users;
struct perf_counter_context *perf_counter_take_task_ctx(struct task_struct *task);

/* core.c: counters as files */
struct perf_counter *perf_counter_alloc(const struct perf_counter_attr *attr,
					int cpu,
					struct perf_counter *group_leader,
					struct perf_counter *parent);
void perf_counter_put(struct perf_counter *counter);
void perf_counter_release_counter(struct perf_counter *counter);
extern const struct file_operations perf_counter_fops;
size_t perf_counter_read_size(u64 format, unsigned int nr);

/* syscall.c: who may count what, for the current credentials */
int perf_counter_check_mode(const struct perf_counter_attr *attr);
int perf_counter_check_target(struct task_struct *task);

/* perf_counter_max_sample_rate's default, in samples a second. */
#define PERF_COUNTER_DEFAULT_SAMPLE_RATE	100000

#endif /* _KERNEL_PERF_COUNTER_INTERNAL_H */
