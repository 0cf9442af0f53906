// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter_open(attr, pid, cpu, group_fd, flags): check what user
 * space asks for, create the counter and hand back a file descriptor.
 *
 *   pid > 0, pid == 0	count that task (0: the caller), on any CPU with
 *			cpu == -1 or only while it runs on cpu
 *   pid == -1		count everything on cpu (cpu must be >= 0)
 */

#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/pid.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/syscalls.h>
#include <linux/time.h>
#include <linux/uaccess.h>

#include "internal.h"

#define PERF_COUNTER_OPEN_FLAGS	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

/*
 * Copy an attr of any size: fields this kernel does not know must be
 * zero in a larger one (else E2BIG, and the size we know is written back
 * so the caller can retry); a smaller one leaves our newer fields zero.
 */
static int copy_attr(struct perf_counter_attr __user *uattr,
		     struct perf_counter_attr *attr)
{
	u32 size;
	int err;

	if (get_user(size, &uattr->size))
		return -EFAULT;
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto too_big;
	err = copy_struct_from_user(attr, sizeof(*attr), uattr, size);
	if (err == -E2BIG)
		goto too_big;
	if (err)
		return err;
	attr->size = size;
	return 0;
too_big:
	if (put_user((u32)sizeof(*attr), &uattr->size))
		return -EFAULT;
	return -E2BIG;
}

/* The clocks samples may be stamped with (attr.use_clockid). */
static bool clockid_valid(s32 clockid)
{
	switch (clockid) {
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME:
	case CLOCK_BOOTTIME:
	case CLOCK_TAI:
		return true;
	default:
		return false;
	}
}

static int check_sample_fields(const struct perf_counter_attr *attr)
{
	u64 weights = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;

	/* One weight layout per sample. */
	if ((attr->sample_type & weights) == weights)
		return -EINVAL;
	if (attr->sample_type & PERF_SAMPLE_STACK_USER) {
		if (attr->sample_stack_user >= USHRT_MAX ||
		    !IS_ALIGNED(attr->sample_stack_user, sizeof(u64)))
			return -EINVAL;
	}
	if ((attr->sample_type & PERF_SAMPLE_REGS_USER) &&
	    !perf_counter_regs_mask_valid(attr->sample_regs_user))
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_REGS_INTR) &&
	    !perf_counter_regs_mask_valid(attr->sample_regs_intr))
		return -EINVAL;
	if (attr->use_clockid && !clockid_valid(attr->clockid))
		return -EINVAL;
	return 0;
}

/* What is wrong with the attr itself, whatever counts it: EINVAL. */
static int check_attr(const struct perf_counter_attr *attr)
{
	int err;

	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	err = check_sample_fields(attr);
	if (err)
		return err;
	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;
	if ((attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (attr->branch_sample_type & ~(PERF_SAMPLE_BRANCH_MAX - 1)))
		return -EINVAL;
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;
	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;
	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;
	return 0;
}

static int check_rate(const struct perf_counter_attr *attr)
{
	if (attr->freq)
		return attr->sample_freq >
		       READ_ONCE(sysctl_perf_counter_max_sample_rate) ?
		       -EINVAL : 0;
	return attr->sample_period & (1ULL << 63) ? -EINVAL : 0;
}

/* The sample fields perf_counter_write_sample() writes. */
#define SAMPLE_WRITTEN	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | \
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | \
			 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | \
			 PERF_SAMPLE_REGS_INTR)

/*
 * Valid requests this subsystem does not carry out: refused, never
 * accepted and ignored, since a reader trusting an accepted bit would
 * mis-parse what follows.  Checked once the event is known to exist,
 * as the ABI has it.
 */
static int check_features(const struct perf_counter_attr *attr)
{
	if (attr->sample_type & ~SAMPLE_WRITTEN)
		return -EOPNOTSUPP;
	if (attr->exclude_host || attr->context_switch ||
	    attr->namespaces || attr->ksymbol ||
	    attr->bpf_event || attr->aux_output || attr->cgroup ||
	    attr->text_poke || attr->build_id || attr->remove_on_exec ||
	    attr->sigtrap)
		return -EOPNOTSUPP;
	if ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    attr->sample_max_stack > READ_ONCE(sysctl_perf_counter_max_stack))
		return -EOVERFLOW;
	return 0;
}

/*
 * perf_counter_paranoid, for callers without CAP_PERFMON: 3 refuses
 * everything, 2 and above refuse kernel mode, 1 and above CPU-wide
 * counters.  Other users' tasks need ptrace rights at any level.  The
 * mode is checked with the attr, the target once it is known.
 */
int perf_counter_check_mode(const struct perf_counter_attr *attr)
{
	int level = READ_ONCE(sysctl_perf_counter_paranoid);

	if (perfmon_capable())
		return 0;
	if (level >= 3)
		return -EACCES;
	if (!attr->exclude_kernel && level >= 2)
		return -EACCES;
	return 0;
}

int perf_counter_check_target(struct task_struct *task)
{
	if (perfmon_capable())
		return 0;
	if (!task)
		return READ_ONCE(sysctl_perf_counter_paranoid) >= 1 ?
		       -EACCES : 0;
	if (!ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS))
		return -EACCES;
	return 0;
}

static struct task_struct *find_target_task(pid_t pid)
{
	struct task_struct *task;

	if (!pid) {
		get_task_struct(current);
		return current;
	}
	rcu_read_lock();
	task = find_task_by_vpid(pid);
	if (task)
		get_task_struct(task);
	rcu_read_unlock();
	return task ? task : ERR_PTR(-ESRCH);
}

/* The CPU argument, once the task is known (cpu -1: any, for a task). */
static int check_cpu(struct task_struct *task, int cpu)
{
	if (cpu == -1)
		return task ? 0 : -EINVAL;
	if (cpu < 0 || cpu >= (int)nr_cpu_ids)
		return -EINVAL;
	return 0;
}

/*
 * The counter behind @group_fd, with a reference on its file in @f.
 * Only that it is a counter is checked here (EBADF); whether it can
 * lead this one is for counter_attach_ctx().
 */
static struct perf_counter *get_group_fd(int group_fd, struct fd *f)
{
	*f = fdget(group_fd);
	if (!f->file)
		return ERR_PTR(-EBADF);
	if (f->file->f_op != &perf_counter_fops) {
		fdput(*f);
		f->file = NULL;
		return ERR_PTR(-EBADF);
	}
	return f->file->private_data;
}

/* Largest read() of a group, and of a sample carrying one: E2BIG past. */
#define GROUP_READ_MAX	(16 * 1024)

/* Would a group of @nr still read (and sample) whole for @attr? */
static bool group_fits(const struct perf_counter_attr *attr, unsigned int nr)
{
	size_t size;

	if (!(attr->read_format & PERF_FORMAT_GROUP))
		return true;
	size = perf_counter_read_size(attr->read_format, nr);
	if (size > GROUP_READ_MAX)
		return false;
	return !(attr->sample_type & PERF_SAMPLE_READ) ||
	       size / sizeof(u64) <= PERF_COUNTER_MAX_READ_VALUES;
}

/*
 * Can @leader take @counter into its group?  Under ctx->mutex, so that
 * the group cannot change meanwhile.
 */
static int check_group(struct perf_counter *leader,
		       struct perf_counter *counter,
		       struct perf_counter_context *ctx)
{
	unsigned int nr = leader->nr_siblings + 2;
	struct perf_counter *member;

	if (leader->group_leader != leader || leader->ctx != ctx ||
	    leader->cpu != counter->cpu)
		return -EINVAL;
	if (leader->state < PERF_COUNTER_STATE_OFF)
		return -EINVAL;
	/* Only a leader decides how its group is scheduled. */
	if (counter->attr.pinned || counter->attr.exclusive)
		return -EINVAL;
	if (!group_fits(&counter->attr, nr) || !group_fits(&leader->attr, nr))
		return -E2BIG;
	list_for_each_entry(member, &leader->sibling_list, group_entry)
		if (!group_fits(&member->attr, nr))
			return -E2BIG;
	return 0;
}

static struct perf_counter_context *target_ctx(struct task_struct *task,
					       int cpu)
{
	return task ? perf_counter_get_task_ctx(task) :
		      perf_counter_get_cpu_ctx(cpu);
}

/* Put @counter on @ctx (whose reference it takes over) under ctx->mutex. */
static int counter_attach_ctx(struct perf_counter *counter,
			      struct perf_counter_context *ctx,
			      struct perf_counter *leader)
{
	int err = 0;

	mutex_lock(&ctx->mutex);
	if (ctx->dead)
		err = -ESRCH;
	else if (leader)
		err = check_group(leader, counter, ctx);
	if (!err)
		perf_counter_install(ctx, counter);
	mutex_unlock(&ctx->mutex);
	if (err)
		perf_counter_put_ctx(ctx);
	return err;
}

/*
 * The checks that need the counter: its event exists (ENOENT), this
 * subsystem can do what it asks (EOPNOTSUPP, EOVERFLOW), the caller may
 * watch the target (EACCES), the CPU is there (ENODEV).
 */
static int check_counter(struct perf_counter *counter,
			 struct task_struct *task, int cpu)
{
	int err;

	err = check_features(&counter->attr);
	if (!err)
		err = perf_counter_tp_check_raw(counter, task);
	if (!err)
		err = perf_counter_check_target(task);
	if (!err && cpu >= 0 && !cpu_online(cpu))
		err = -ENODEV;
	return err;
}

static long counter_open(const struct perf_counter_attr *attr,
			 struct task_struct *task, int cpu,
			 struct perf_counter *leader, unsigned long flags)
{
	struct perf_counter_context *ctx;
	struct perf_counter *counter;
	struct file *file;
	int fd, err;

	counter = perf_counter_alloc(attr, cpu, leader, NULL);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	err = check_counter(counter, task, cpu);
	if (err) {
		perf_counter_put(counter);
		return err;
	}
	ctx = target_ctx(task, cpu);
	if (IS_ERR(ctx)) {
		perf_counter_put(counter);
		return PTR_ERR(ctx);
	}
	err = counter_attach_ctx(counter, ctx, leader);
	if (err) {
		perf_counter_put(counter);
		return err;
	}
	/* From here on the counter counts; failing means taking it off. */
	fd = get_unused_fd_flags(O_RDWR |
				 (flags & PERF_FLAG_FD_CLOEXEC ? O_CLOEXEC : 0));
	if (fd < 0) {
		perf_counter_release_counter(counter);
		return fd;
	}
	file = anon_inode_getfile("[perf_counter]", &perf_counter_fops,
				  counter, O_RDWR);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		perf_counter_release_counter(counter);
		return PTR_ERR(file);
	}
	fd_install(fd, file);
	return fd;
}

/* The checks of the arguments alone, in the order the ABI has them. */
static int check_args(const struct perf_counter_attr *attr, pid_t pid,
		      int cpu, unsigned long flags)
{
	int err;

	err = check_attr(attr);
	if (!err)
		err = perf_counter_check_mode(attr);
	if (!err)
		err = check_rate(attr);
	if (err)
		return err;
	if (flags & PERF_FLAG_PID_CGROUP) {
		if (pid == -1 || cpu == -1)
			return -EINVAL;
		/* No cgroup counters here, nor output given at open. */
		return -EOPNOTSUPP;
	}
	if (flags & PERF_FLAG_FD_OUTPUT)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The checks run in the order of perf_event_open(), so that callers that
 * branch on the errno see the same one: flags, attr size and fields,
 * mode permission, rate, group fd, pid, inheritance against the leader,
 * CPU, event (ENOENT), features, target permission, CPU online, group.
 * Documentation/perf_counter/design.txt has the table.
 */
SYSCALL_DEFINE5(perf_counter_open, struct perf_counter_attr __user *, uattr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_counter *leader = NULL;
	struct task_struct *task = NULL;
	struct perf_counter_attr attr;
	struct fd group = { NULL, 0 };
	long ret;

	if (flags & ~PERF_COUNTER_OPEN_FLAGS)
		return -EINVAL;
	ret = copy_attr(uattr, &attr);
	if (!ret)
		ret = check_args(&attr, pid, cpu, flags);
	if (ret)
		return ret;
	if (group_fd != -1) {
		leader = get_group_fd(group_fd, &group);
		if (IS_ERR(leader))
			return PTR_ERR(leader);
		if (flags & PERF_FLAG_FD_NO_GROUP)
			leader = NULL;
	}
	if (pid != -1) {
		task = find_target_task(pid);
		if (IS_ERR(task)) {
			ret = PTR_ERR(task);
			task = NULL;
			goto out;
		}
	}
	/* A group is inherited whole or not at all. */
	if (task && leader && leader->attr.inherit != attr.inherit)
		ret = -EINVAL;
	if (!ret)
		ret = check_cpu(task, cpu);
	if (!ret)
		ret = counter_open(&attr, task, cpu, leader, flags);
out:
	if (group.file)
		fdput(group);
	if (task)
		put_task_struct(task);
	return ret;
}
