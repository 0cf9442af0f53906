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
	if (attr->use_clockid && !clockid_valid(attr->clockid))
		return -EINVAL;
	return 0;
}

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
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;
	if (attr->freq) {
		if (attr->sample_freq > READ_ONCE(sysctl_perf_counter_max_sample_rate))
			return -EINVAL;
	} else if (attr->sample_period & (1ULL << 63)) {
		return -EINVAL;
	}
	if (attr->inherit_thread && !attr->inherit)
		return -EINVAL;
	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;
	/* Valid, but not something this subsystem does (yet). */
	if (attr->remove_on_exec || attr->sigtrap || attr->aux_output)
		return -EOPNOTSUPP;
	if (attr->type != PERF_TYPE_SOFTWARE &&
	    attr->type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	return 0;
}

/*
 * perf_counter_paranoid, for callers without CAP_PERFMON: 3 refuses
 * everything, 2 and above refuse kernel mode, 1 and above CPU-wide
 * counters.  Other users' tasks need ptrace rights at any level.
 */
static int check_permission(const struct perf_counter_attr *attr, int pid)
{
	int level = READ_ONCE(sysctl_perf_counter_paranoid);

	if (perfmon_capable())
		return 0;
	if (level >= 3)
		return -EACCES;
	if (pid == -1 && level >= 1)
		return -EACCES;
	if (!attr->exclude_kernel && level >= 2)
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

static int check_target(pid_t pid, int cpu, unsigned long flags)
{
	if (flags & ~PERF_COUNTER_OPEN_FLAGS)
		return -EINVAL;
	if (pid < -1 || cpu < -1 || (pid == -1 && cpu == -1))
		return -EINVAL;
	if (cpu >= (int)nr_cpu_ids)
		return -EINVAL;
	if (cpu >= 0 && !cpu_online(cpu))
		return -ENODEV;
	/* No cgroups and no ring buffer to redirect output to, yet. */
	if (flags & (PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_OUTPUT))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * The group leader behind @group_fd, with a reference on its file in
 * @f; NULL for none.  It must be a leader, on the same task and CPU.
 */
static struct perf_counter *get_group_leader(int group_fd, struct fd *f,
					     const struct perf_counter_attr *attr,
					     struct task_struct *task, int cpu)
{
	struct perf_counter *leader;

	*f = fdget(group_fd);
	if (!f->file)
		return ERR_PTR(-EBADF);
	if (f->file->f_op != &perf_counter_fops) {
		fdput(*f);
		f->file = NULL;
		return ERR_PTR(-EBADF);
	}
	leader = f->file->private_data;
	if (leader->group_leader != leader || leader->ctx->task != task ||
	    leader->cpu != cpu)
		goto invalid;
	/* A group is inherited whole or not at all. */
	if (leader->attr.inherit != attr->inherit)
		goto invalid;
	if (leader->state < PERF_COUNTER_STATE_OFF)
		goto invalid;
	return leader;
invalid:
	fdput(*f);
	f->file = NULL;
	return ERR_PTR(-EINVAL);
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
	else if (leader && leader->ctx != ctx)
		err = -EINVAL;
	else
		perf_counter_install(ctx, counter);
	mutex_unlock(&ctx->mutex);
	if (err)
		perf_counter_put_ctx(ctx);
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
	err = perf_counter_tp_check_raw(counter, task);
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

SYSCALL_DEFINE5(perf_counter_open, struct perf_counter_attr __user *, uattr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_counter *leader = NULL;
	struct task_struct *task = NULL;
	struct perf_counter_attr attr;
	struct fd group = { NULL, 0 };
	long ret;

	ret = copy_attr(uattr, &attr);
	if (ret)
		return ret;
	ret = check_target(pid, cpu, flags);
	if (!ret)
		ret = check_attr(&attr);
	if (!ret)
		ret = check_permission(&attr, pid);
	if (ret)
		return ret;

	if (pid != -1) {
		task = find_target_task(pid);
		if (IS_ERR(task))
			return PTR_ERR(task);
		if (!ptrace_may_access(task, PTRACE_MODE_READ_REALCREDS)) {
			ret = -EACCES;
			goto out;
		}
	}
	if (group_fd != -1 && !(flags & PERF_FLAG_FD_NO_GROUP)) {
		leader = get_group_leader(group_fd, &group, &attr, task,
					  cpu);
		if (IS_ERR(leader)) {
			ret = PTR_ERR(leader);
			goto out;
		}
	}
	ret = counter_open(&attr, task, cpu, leader, flags);
	if (leader)
		fdput(group);
out:
	if (task)
		put_task_struct(task);
	return ret;
}
