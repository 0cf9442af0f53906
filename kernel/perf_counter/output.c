// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the records counters write into their ring buffer.
 *
 * A sample is laid out field by field in the order of its sample_type
 * bits (the ABI's order); side-band records (COMM, MMAP, MMAP2, FORK,
 * EXIT, LOST) carry, with attr.sample_id_all, the identifying subset of
 * those fields at their end, so that a reader can sort them in with the
 * samples.  Each writer computes the record size first, reserves it in
 * one go and fills it in.
 */

#include <linux/hugetlb.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/perf_regs.h>
#include <asm/unwind.h>

#include "internal.h"

/* The sample_id fields a side-band record ends with. */
#define SAMPLE_ID_TYPES	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)

/* The counter whose buffer a counter's records go to. */
static struct perf_counter *output_counter(struct perf_counter *counter)
{
	return counter->parent ? counter->parent : counter;
}

u64 perf_counter_primary_id(const struct perf_counter *counter)
{
	return counter->parent ? counter->parent->id : counter->id;
}

static unsigned int sample_id_size(const struct perf_counter *counter)
{
	u64 type = counter->attr.sample_type & SAMPLE_ID_TYPES;

	if (!counter->attr.sample_id_all)
		return 0;
	return hweight64(type) * sizeof(u64);
}

struct sample_id {
	u32	pid, tid;
	u64	time;
	u32	cpu;
};

/*
 * The time records of @counter carry: the perf clock, or with
 * attr.use_clockid the clock asked for (checked at open), read through
 * its NMI-safe accessor, so that user space can put the records on the
 * time line of its own clock_gettime() readings.
 */
static u64 counter_time(const struct perf_counter *counter)
{
	if (!counter->attr.use_clockid)
		return perf_counter_clock();
	switch (counter->attr.clockid) {
	case CLOCK_MONOTONIC:
		return ktime_get_mono_fast_ns();
	case CLOCK_MONOTONIC_RAW:
		return ktime_get_raw_fast_ns();
	case CLOCK_REALTIME:
		return ktime_get_real_fast_ns();
	case CLOCK_BOOTTIME:
		return ktime_get_boot_fast_ns();
	case CLOCK_TAI:
		return ktime_get_tai_fast_ns();
	default:
		return perf_counter_clock();
	}
}

static void sample_id_fill(struct sample_id *id, struct perf_counter *counter,
			   struct task_struct *task)
{
	id->pid = task_tgid_nr(task);
	id->tid = task_pid_nr(task);
	id->time = counter_time(counter);
	id->cpu = raw_smp_processor_id();
}

static void put_u64(struct perf_counter_output *out, u64 value)
{
	perf_counter_output_copy(out, &value, sizeof(value));
}

static void put_u32_pair(struct perf_counter_output *out, u32 a, u32 b)
{
	u32 pair[2] = { a, b };

	perf_counter_output_copy(out, pair, sizeof(pair));
}

static void sample_id_write(struct perf_counter_output *out,
			    struct perf_counter *counter,
			    const struct sample_id *id)
{
	u64 type = counter->attr.sample_type;

	if (!counter->attr.sample_id_all)
		return;
	if (type & PERF_SAMPLE_TID)
		put_u32_pair(out, id->pid, id->tid);
	if (type & PERF_SAMPLE_TIME)
		put_u64(out, id->time);
	if (type & PERF_SAMPLE_ID)
		put_u64(out, perf_counter_primary_id(counter));
	if (type & PERF_SAMPLE_STREAM_ID)
		put_u64(out, counter->id);
	if (type & PERF_SAMPLE_CPU)
		put_u32_pair(out, id->cpu, 0);
	if (type & PERF_SAMPLE_IDENTIFIER)
		put_u64(out, perf_counter_primary_id(counter));
}

static void put_header(struct perf_counter_output *out, u32 type, u16 misc,
		       unsigned int size)
{
	struct perf_counter_header header = {
		.type = type,
		.misc = misc,
		.size = size,
	};

	perf_counter_output_copy(out, &header, sizeof(header));
}

unsigned int perf_counter_lost_size(struct perf_counter *counter)
{
	return sizeof(struct perf_counter_header) + 2 * sizeof(u64) +
	       sample_id_size(counter);
}

/* Within perf_counter_output_begin(): report records lost before. */
void perf_counter_write_lost(struct perf_counter_output *out,
			     struct perf_counter *counter, u64 lost)
{
	struct sample_id id;

	sample_id_fill(&id, counter, current);
	put_header(out, PERF_RECORD_LOST, 0, perf_counter_lost_size(counter));
	put_u64(out, perf_counter_primary_id(counter));
	put_u64(out, lost);
	sample_id_write(out, counter, &id);
}

static struct perf_counter_buffer *counter_buffer(struct perf_counter *counter)
{
	return rcu_dereference(output_counter(counter)->rb);
}

/*
 * Write one side-band record of @size bytes (header and sample_id
 * included) for @counter; @fill writes the body.
 */
static void write_side_band(struct perf_counter *counter, u32 type, u16 misc,
			    unsigned int body,
			    void (*fill)(struct perf_counter_output *out,
					 const void *arg),
			    const void *arg)
{
	struct perf_counter_output out;
	struct perf_counter_buffer *rb;
	unsigned int size;
	struct sample_id id;

	size = sizeof(struct perf_counter_header) + body +
	       sample_id_size(counter);
	sample_id_fill(&id, counter, current);
	rcu_read_lock();
	rb = counter_buffer(counter);
	if (rb && !perf_counter_output_begin(&out, rb, counter, size)) {
		put_header(&out, type, misc, size);
		fill(&out, arg);
		sample_id_write(&out, counter, &id);
		perf_counter_output_end(&out, false);
	}
	rcu_read_unlock();
}

/*
 * A tracepoint gives its caller's registers (perf_fetch_caller_regs():
 * the ip, and sp at the probe's frame, flags 0), not an exception frame
 * the unwinder can start from, which always has X86_EFLAGS_FIXED set.
 */
static bool regs_of_caller(const struct pt_regs *regs)
{
	return !(regs->flags & X86_EFLAGS_FIXED);
}

/* The caller's ip, then the return addresses of the frames above sp. */
static unsigned int frames_above(const struct pt_regs *regs, u64 *ips,
				 unsigned int max)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int n = 0;

	ips[n++] = regs->ip;
	for (unwind_start(&state, current, NULL, (unsigned long *)regs->sp);
	     n < max && !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		ips[n++] = addr;
	}
	return n;
}

/* Kernel frames of @regs, after their context marker. */
static unsigned int callchain_kernel(struct pt_regs *regs, u64 *ips,
				     unsigned int max)
{
	unsigned int n;

	if (!regs || user_mode(regs) || max < 2)
		return 0;
	/* Saved in place: no array on a stack that may be the NMI's. */
	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(u64));
	if (regs_of_caller(regs))
		n = frames_above(regs, ips + 1, max - 1);
	else
		n = stack_trace_save_regs(regs, (unsigned long *)(ips + 1),
					  max - 1, 0);
	ips[0] = PERF_CONTEXT_KERNEL;
	return n + 1;
}

/*
 * The user-mode registers of the sampled task: those of the sample when
 * it hit user mode, else those its entry to the kernel saved.  A kernel
 * thread has none.
 */
static struct pt_regs *sample_user_regs(struct pt_regs *regs)
{
	if (regs && user_mode(regs))
		return regs;
	if (!current->mm || (current->flags & PF_KTHREAD))
		return NULL;
	return task_pt_regs(current);
}

struct user_frame {
	unsigned long	next;
	unsigned long	ret;
};

/* User frames, after their context marker, followed by frame pointer. */
static unsigned int callchain_user(struct pt_regs *regs, u64 *ips,
				   unsigned int max)
{
	struct user_frame frame;
	unsigned long fp;
	unsigned int n = 0;

	regs = sample_user_regs(regs);
	if (!regs || max < 2)
		return 0;
	ips[n++] = PERF_CONTEXT_USER;
	ips[n++] = instruction_pointer(regs);
	fp = regs->bp;
	while (n < max && fp && !(fp & (sizeof(long) - 1))) {
		if (copy_from_user_nofault(&frame, (void __user *)fp,
					   sizeof(frame)))
			break;
		if (!frame.ret)
			break;
		ips[n++] = frame.ret;
		/* Frames grow towards higher addresses as we unwind. */
		if (frame.next <= fp)
			break;
		fp = frame.next;
	}
	return n;
}

static unsigned int callchain_max(const struct perf_counter *counter)
{
	unsigned int max = counter->attr.sample_max_stack;

	if (!max)
		max = READ_ONCE(sysctl_perf_counter_max_stack);
	max = min_t(unsigned int, max, PERF_COUNTER_MAX_STACK);
	/* room for the two context markers */
	return max + 2;
}

static unsigned int callchain_collect(struct perf_counter *counter,
				      struct pt_regs *regs, u64 *ips)
{
	unsigned int max = callchain_max(counter), n = 0;

	if (!counter->attr.exclude_callchain_kernel)
		n = callchain_kernel(regs, ips, max);
	if (!counter->attr.exclude_callchain_user)
		n += callchain_user(regs, ips + n, max - n);
	return n;
}

static unsigned int put_read_value(u64 *values, unsigned int n, u64 format,
				   struct perf_counter *counter, u64 value)
{
	values[n++] = value;
	if (format & PERF_FORMAT_ID)
		values[n++] = perf_counter_primary_id(counter);
	if (format & PERF_FORMAT_LOST)
		values[n++] = atomic64_read(&counter->lost_samples);
	return n;
}

static unsigned int put_read_times(u64 *values, unsigned int n, u64 format,
				   u64 enabled, u64 running)
{
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		values[n++] = enabled;
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		values[n++] = running;
	return n;
}

/*
 * The count of @counter and its times up to @now, for a sample: the
 * context's lock may be another writer's here, so nothing is changed
 * but the PMU's fold of the count.
 */
static u64 read_for_sample(struct perf_counter *counter, u64 now,
			   u64 *enabled, u64 *running)
{
	if (counter->state == PERF_COUNTER_STATE_ACTIVE)
		counter->pmu->read(counter);
	perf_counter_times_at(counter, now, enabled, running);
	return atomic64_read(&counter->count);
}

/*
 * PERF_SAMPLE_READ: the read() layout, from this CPU (the counter and
 * its group are active here).  Open refuses groups too large for it.
 */
static unsigned int read_values(struct perf_counter *counter, u64 *values)
{
	u64 format = counter->attr.read_format;
	struct perf_counter *leader = counter->group_leader, *member;
	u64 enabled, running, value, now = perf_counter_clock();
	unsigned int n = 0;

	if (!(format & PERF_FORMAT_GROUP)) {
		value = read_for_sample(counter, now, &enabled, &running);
		values[n++] = value;
		n = put_read_times(values, n, format, enabled, running);
		if (format & PERF_FORMAT_ID)
			values[n++] = perf_counter_primary_id(counter);
		if (format & PERF_FORMAT_LOST)
			values[n++] = atomic64_read(&counter->lost_samples);
		return n;
	}
	if (WARN_ON_ONCE(3 + 3 * (1 + leader->nr_siblings) >
			 PERF_COUNTER_MAX_READ_VALUES))
		return 0;
	values[n++] = 1 + leader->nr_siblings;
	value = read_for_sample(leader, now, &enabled, &running);
	n = put_read_times(values, n, format, enabled, running);
	n = put_read_value(values, n, format, leader, value);
	list_for_each_entry(member, &leader->sibling_list, group_entry) {
		value = read_for_sample(member, now, &enabled, &running);
		n = put_read_value(values, n, format, member, value);
	}
	return n;
}

/* --- registers and the user stack --- */

/* Where each PERF_REG_X86_* register a sample may carry is in pt_regs. */
static const u16 reg_offsets[PERF_REG_X86_64_MAX] = {
	[PERF_REG_X86_AX]	= offsetof(struct pt_regs, ax),
	[PERF_REG_X86_BX]	= offsetof(struct pt_regs, bx),
	[PERF_REG_X86_CX]	= offsetof(struct pt_regs, cx),
	[PERF_REG_X86_DX]	= offsetof(struct pt_regs, dx),
	[PERF_REG_X86_SI]	= offsetof(struct pt_regs, si),
	[PERF_REG_X86_DI]	= offsetof(struct pt_regs, di),
	[PERF_REG_X86_BP]	= offsetof(struct pt_regs, bp),
	[PERF_REG_X86_SP]	= offsetof(struct pt_regs, sp),
	[PERF_REG_X86_IP]	= offsetof(struct pt_regs, ip),
	[PERF_REG_X86_FLAGS]	= offsetof(struct pt_regs, flags),
	[PERF_REG_X86_CS]	= offsetof(struct pt_regs, cs),
	[PERF_REG_X86_SS]	= offsetof(struct pt_regs, ss),
	[PERF_REG_X86_R8]	= offsetof(struct pt_regs, r8),
	[PERF_REG_X86_R9]	= offsetof(struct pt_regs, r9),
	[PERF_REG_X86_R10]	= offsetof(struct pt_regs, r10),
	[PERF_REG_X86_R11]	= offsetof(struct pt_regs, r11),
	[PERF_REG_X86_R12]	= offsetof(struct pt_regs, r12),
	[PERF_REG_X86_R13]	= offsetof(struct pt_regs, r13),
	[PERF_REG_X86_R14]	= offsetof(struct pt_regs, r14),
	[PERF_REG_X86_R15]	= offsetof(struct pt_regs, r15),
};

/*
 * The registers sample_regs_user and sample_regs_intr may name: those
 * pt_regs has.  The segment registers DS to GS are not saved there on
 * x86-64, nor are the XMM registers (PEBS only): refused, as perf
 * events refuses them.
 */
#define SAMPLE_REGS_VALID	(GENMASK_ULL(PERF_REG_X86_64_MAX - 1, 0) & \
				 ~(BIT_ULL(PERF_REG_X86_DS) | \
				   BIT_ULL(PERF_REG_X86_ES) | \
				   BIT_ULL(PERF_REG_X86_FS) | \
				   BIT_ULL(PERF_REG_X86_GS)))

bool perf_counter_regs_mask_valid(u64 mask)
{
	return mask && !(mask & ~SAMPLE_REGS_VALID);
}

static u64 regs_abi(struct pt_regs *regs)
{
	if (!regs)
		return PERF_SAMPLE_REGS_ABI_NONE;
	return user_64bit_mode(regs) ? PERF_SAMPLE_REGS_ABI_64 :
				       PERF_SAMPLE_REGS_ABI_32;
}

/* That of the task, whatever mode the sample hit; none without regs. */
static u64 intr_regs_abi(struct pt_regs *regs)
{
	if (!regs)
		return PERF_SAMPLE_REGS_ABI_NONE;
	if (current->flags & PF_KTHREAD)
		return PERF_SAMPLE_REGS_ABI_64;
	return regs_abi(task_pt_regs(current));
}

/* The ABI word, then (a task's registers) the value of each in @mask. */
static unsigned int regs_size(struct pt_regs *regs, u64 mask)
{
	return (1 + (regs ? hweight64(mask) : 0)) * sizeof(u64);
}

static void put_regs(struct perf_counter_output *out, struct pt_regs *regs,
		     u64 abi, u64 mask)
{
	unsigned int bit;

	put_u64(out, abi);
	if (!regs)
		return;
	for_each_set_bit(bit, (unsigned long *)&mask, PERF_REG_X86_64_MAX)
		put_u64(out, *(unsigned long *)((char *)regs +
						reg_offsets[bit]));
}

/*
 * Bytes of user stack a sample copies: what was asked, but not past the
 * top of the user address space and not more than leaves the record
 * (@other bytes so far, plus the size and dyn_size words) within the
 * 64 KiB a record's size can say.
 */
static unsigned int ustack_size(const struct perf_counter *counter,
				struct pt_regs *uregs, unsigned int other)
{
	unsigned long sp, room;
	unsigned int size;

	if (!uregs)
		return 0;
	sp = user_stack_pointer(uregs);
	size = counter->attr.sample_stack_user;
	room = sp < TASK_SIZE ? TASK_SIZE - sp : 0;
	size = min_t(unsigned long, size, room);
	other += 2 * sizeof(u64);
	if (other >= USHRT_MAX)
		return 0;
	size = min_t(unsigned int, size, USHRT_MAX - other);
	return round_down(size, sizeof(u64));
}

/*
 * PERF_SAMPLE_STACK_USER: the size, the stack from the user SP up, and
 * dyn_size, how much of it could be read; the rest of the copy is
 * zeros.  Without user registers, a size of 0 alone.
 */
static void put_user_stack(struct perf_counter_output *out,
			   struct pt_regs *uregs, unsigned int size)
{
	const void __user *sp;
	unsigned int copied;

	put_u64(out, size);
	if (!size)
		return;
	sp = (const void __user *)user_stack_pointer(uregs);
	copied = perf_counter_output_copy_user(out, sp, size);
	put_u64(out, copied);
}

/* What a sample needs besides the counter, gathered before sizing. */
struct sample_data {
	struct sample_id	id;
	u64			ip;
	u64			addr;
	u64			period;
	const struct perf_counter_raw	*raw;
	u16			misc;
	unsigned int		nr_values;
	unsigned int		nr_ips;
	struct pt_regs		*regs;		/* REGS_INTR: the sample's */
	struct pt_regs		*uregs;		/* REGS_USER, STACK_USER */
	unsigned int		ustack;		/* STACK_USER bytes */
	u64			values[PERF_COUNTER_MAX_READ_VALUES];
	u64			ips[PERF_COUNTER_MAX_STACK + 2];
};

/*
 * One scratch area per CPU and context level (task, softirq, hardirq,
 * NMI): a sample written in an NMI may interrupt one being gathered in
 * an interrupt handler, which may interrupt one of the task's.
 */
static DEFINE_PER_CPU(struct sample_data,
		      sample_scratch[PERF_COUNTER_CONTEXT_LEVELS]);

/*
 * PERF_SAMPLE_RAW: a u32 size, then the record and zeros up to the next
 * u64 boundary; the size counts the record and its padding.  A sample
 * with no record (not a tracepoint's) carries four zero bytes.
 */
unsigned int perf_counter_raw_size(const struct perf_counter_raw *raw)
{
	return ALIGN(sizeof(u32) + (raw ? raw->size : sizeof(u32)),
		     sizeof(u64));
}

static void put_raw(struct perf_counter_output *out,
		    const struct perf_counter_raw *raw)
{
	static const u8 zeros[sizeof(u64)];
	u32 size = perf_counter_raw_size(raw) - sizeof(u32);

	perf_counter_output_copy(out, &size, sizeof(size));
	if (raw) {
		perf_counter_output_copy(out, raw->data, raw->size);
		size -= raw->size;
	}
	perf_counter_output_copy(out, zeros, size);
}

static unsigned int sample_size(struct perf_counter *counter,
				const struct sample_data *d)
{
	u64 type = counter->attr.sample_type;
	unsigned int size = sizeof(struct perf_counter_header);

	size += hweight64(type & (SAMPLE_ID_TYPES | PERF_SAMPLE_IP |
				  PERF_SAMPLE_ADDR | PERF_SAMPLE_PERIOD)) *
		sizeof(u64);
	if (type & PERF_SAMPLE_READ)
		size += d->nr_values * sizeof(u64);
	if (type & PERF_SAMPLE_CALLCHAIN)
		size += (1 + d->nr_ips) * sizeof(u64);
	if (type & PERF_SAMPLE_RAW)
		size += perf_counter_raw_size(d->raw);
	if (type & PERF_SAMPLE_REGS_USER)
		size += regs_size(d->uregs, counter->attr.sample_regs_user);
	if (type & PERF_SAMPLE_STACK_USER)
		size += sizeof(u64) + (d->ustack ? d->ustack + sizeof(u64) : 0);
	if (type & PERF_SAMPLE_REGS_INTR)
		size += regs_size(d->regs, counter->attr.sample_regs_intr);
	return size;
}

static void sample_write(struct perf_counter_output *out,
			 struct perf_counter *counter,
			 const struct sample_data *d, unsigned int size)
{
	u64 type = counter->attr.sample_type;

	put_header(out, PERF_RECORD_SAMPLE, d->misc, size);
	if (type & PERF_SAMPLE_IDENTIFIER)
		put_u64(out, perf_counter_primary_id(counter));
	if (type & PERF_SAMPLE_IP)
		put_u64(out, d->ip);
	if (type & PERF_SAMPLE_TID)
		put_u32_pair(out, d->id.pid, d->id.tid);
	if (type & PERF_SAMPLE_TIME)
		put_u64(out, d->id.time);
	if (type & PERF_SAMPLE_ADDR)
		put_u64(out, d->addr);
	if (type & PERF_SAMPLE_ID)
		put_u64(out, perf_counter_primary_id(counter));
	if (type & PERF_SAMPLE_STREAM_ID)
		put_u64(out, counter->id);
	if (type & PERF_SAMPLE_CPU)
		put_u32_pair(out, d->id.cpu, 0);
	if (type & PERF_SAMPLE_PERIOD)
		put_u64(out, d->period);
	if (type & PERF_SAMPLE_READ)
		perf_counter_output_copy(out, d->values,
					 d->nr_values * sizeof(u64));
	if (type & PERF_SAMPLE_CALLCHAIN) {
		put_u64(out, d->nr_ips);
		perf_counter_output_copy(out, d->ips, d->nr_ips * sizeof(u64));
	}
	if (type & PERF_SAMPLE_RAW)
		put_raw(out, d->raw);
	if (type & PERF_SAMPLE_REGS_USER)
		put_regs(out, d->uregs, regs_abi(d->uregs),
			 counter->attr.sample_regs_user);
	if (type & PERF_SAMPLE_STACK_USER)
		put_user_stack(out, d->uregs, d->ustack);
	if (type & PERF_SAMPLE_REGS_INTR)
		put_regs(out, d->regs, intr_regs_abi(d->regs),
			 counter->attr.sample_regs_intr);
}

/*
 * Write a sample of @counter for an event at @regs (the interrupted or
 * faulting context).  Interrupts are off, so only a writer of a higher
 * context level (an NMI) can come in on this CPU before we return: the
 * scratch area of our level is ours.
 */
void perf_counter_write_sample(struct perf_counter *counter,
			       struct pt_regs *regs, u64 addr, u64 period,
			       const struct perf_counter_raw *raw)
{
	struct sample_data *d =
		this_cpu_ptr(&sample_scratch[interrupt_context_level()]);
	u64 type = counter->attr.sample_type;
	struct perf_counter_output out;
	struct perf_counter_buffer *rb;
	unsigned int size;

	lockdep_assert_irqs_disabled();
	sample_id_fill(&d->id, counter, current);
	d->ip = regs ? instruction_pointer(regs) : 0;
	d->misc = regs && user_mode(regs) ? PERF_RECORD_MISC_USER :
					     PERF_RECORD_MISC_KERNEL;
	d->addr = addr;
	d->period = period;
	d->raw = raw;
	d->nr_values = 0;
	if (type & PERF_SAMPLE_READ) {
		d->nr_values = read_values(counter, d->values);
		if (!d->nr_values)
			return;
	}
	d->nr_ips = type & PERF_SAMPLE_CALLCHAIN ?
		    callchain_collect(counter, regs, d->ips) : 0;
	d->regs = regs;
	d->uregs = type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER) ?
		   sample_user_regs(regs) : NULL;
	d->ustack = 0;
	size = sample_size(counter, d);
	/* Sized last: it takes what room the record has left. */
	if (type & PERF_SAMPLE_STACK_USER) {
		d->ustack = ustack_size(counter, d->uregs, size);
		size += d->ustack ? d->ustack + sizeof(u64) : 0;
	}

	rcu_read_lock();
	rb = counter_buffer(counter);
	if (rb && !perf_counter_output_begin(&out, rb, counter, size)) {
		sample_write(&out, counter, d, size);
		perf_counter_output_end(&out, true);
	}
	rcu_read_unlock();
}

/* --- side-band records --- */

static void throttle_fill(struct perf_counter_output *out, const void *arg)
{
	const struct perf_counter *counter = arg;

	put_u64(out, counter_time(counter));
	put_u64(out, perf_counter_primary_id(counter));
	put_u64(out, counter->id);
}

/* The counter stopped (@throttle) or resumed sampling for its rate. */
void perf_counter_write_throttle(struct perf_counter *counter, bool throttle)
{
	write_side_band(counter, throttle ? PERF_RECORD_THROTTLE :
					    PERF_RECORD_UNTHROTTLE,
			0, 3 * sizeof(u64), throttle_fill, counter);
}

struct comm_body {
	struct task_struct	*task;
	const char		*comm;
	unsigned int		len;	/* with the NUL, padded to 8 */
};

static void comm_fill(struct perf_counter_output *out, const void *arg)
{
	const struct comm_body *c = arg;
	char name[TASK_COMM_LEN + 8] = { };

	strscpy(name, c->comm, sizeof(name));
	put_u32_pair(out, task_tgid_nr(c->task), task_pid_nr(c->task));
	perf_counter_output_copy(out, name, c->len);
}

/* @comm: @task's name, read before any counter's lock was taken. */
void perf_counter_write_comm(struct perf_counter *counter,
			     struct task_struct *task, const char *comm,
			     bool exec)
{
	struct comm_body c = { task, comm };

	c.len = ALIGN(strlen(comm) + 1, sizeof(u64));
	write_side_band(counter, PERF_RECORD_COMM,
			exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
			2 * sizeof(u32) + c.len, comm_fill, &c);
}

struct task_body {
	struct task_struct	*task;
	struct task_struct	*parent;
	u64			time;
};

static void task_fill(struct perf_counter_output *out, const void *arg)
{
	const struct task_body *t = arg;

	put_u32_pair(out, task_tgid_nr(t->task), task_tgid_nr(t->parent));
	put_u32_pair(out, task_pid_nr(t->task), task_pid_nr(t->parent));
	put_u64(out, t->time);
}

/* PERF_RECORD_FORK or _EXIT: pid, ppid, tid, ptid, time. */
void perf_counter_write_task(struct perf_counter *counter,
			     struct task_struct *task, bool fork)
{
	struct task_body t = { task, fork ? current : task->real_parent,
			       counter_time(counter) };

	write_side_band(counter, fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT,
			0, 4 * sizeof(u32) + sizeof(u64), task_fill, &t);
}

/* The prot and flags arguments of mmap() that made @vma, as far as known. */
static u32 mmap_prot_of(const struct vm_area_struct *vma)
{
	u32 prot = 0;

	if (vma->vm_flags & VM_READ)
		prot |= PROT_READ;
	if (vma->vm_flags & VM_WRITE)
		prot |= PROT_WRITE;
	if (vma->vm_flags & VM_EXEC)
		prot |= PROT_EXEC;
	return prot;
}

static u32 mmap_flags_of(const struct vm_area_struct *vma)
{
	u32 flags = vma->vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;

	if (vma->vm_flags & VM_LOCKED)
		flags |= MAP_LOCKED;
	if (is_vm_hugetlb_page((struct vm_area_struct *)vma))
		flags |= MAP_HUGETLB;
	return flags;
}

struct mmap_body {
	const struct vm_area_struct	*vma;
	const char			*name;
	unsigned int			len;	/* with the NUL, padded */
	bool				mmap2;
};

static void mmap_fill(struct perf_counter_output *out, const void *arg)
{
	const struct mmap_body *m = arg;
	const struct vm_area_struct *vma = m->vma;
	struct inode *inode = vma->vm_file ? file_inode(vma->vm_file) : NULL;
	static const char zeros[8];
	unsigned int name_len = strlen(m->name);

	put_u32_pair(out, task_tgid_nr(current), task_pid_nr(current));
	put_u64(out, vma->vm_start);
	put_u64(out, vma->vm_end - vma->vm_start);
	put_u64(out, (u64)vma->vm_pgoff << PAGE_SHIFT);
	if (m->mmap2) {
		put_u32_pair(out, inode ? MAJOR(inode->i_sb->s_dev) : 0,
			     inode ? MINOR(inode->i_sb->s_dev) : 0);
		put_u64(out, inode ? inode->i_ino : 0);
		put_u64(out, inode ? inode->i_generation : 0);
		put_u32_pair(out, mmap_prot_of(vma), mmap_flags_of(vma));
	}
	perf_counter_output_copy(out, m->name, name_len);
	perf_counter_output_copy(out, zeros, m->len - name_len);
}

void perf_counter_write_mmap(struct perf_counter *counter,
			     const struct vm_area_struct *vma, const char *name)
{
	struct mmap_body m = { vma, name };
	unsigned int body;

	m.mmap2 = counter->attr.mmap2;
	m.len = ALIGN(strlen(name) + 1, sizeof(u64));
	body = 2 * sizeof(u32) + 3 * sizeof(u64) + m.len;
	if (m.mmap2)
		body += 2 * sizeof(u32) + 2 * sizeof(u64) + 2 * sizeof(u32);
	write_side_band(counter, m.mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP,
			(vma->vm_flags & VM_EXEC) ? PERF_RECORD_MISC_USER :
			PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
			body, mmap_fill, &m);
}
