// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: a counter is a file.  read() returns its value in the
 * layout attr.read_format asks for, ioctl() controls it, and the last
 * close takes it off its context.
 */

#include <linux/anon_inodes.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/log2.h>
#include <linux/capability.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

/* How many values of a group read fit the stack before we allocate. */
#define READ_STACK_VALUES	16

static bool counter_wants_side_band(const struct perf_counter *counter)
{
	const struct perf_counter_attr *attr = &counter->attr;

	return attr->comm || attr->mmap || attr->mmap2 || attr->mmap_data ||
	       attr->task;
}

/* Where the counts come from: the PMU behind attr.type. */
static int counter_source_init(struct perf_counter *counter,
			       struct perf_counter *parent)
{
	switch (counter->attr.type) {
	case PERF_TYPE_SOFTWARE:
		return perf_counter_sw_init(counter);
	case PERF_TYPE_TRACEPOINT:
		return perf_counter_tp_init(counter, parent);
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return perf_counter_hw_init(counter);
	default:
		return -ENOENT;
	}
}

static void counter_source_free(struct perf_counter *counter)
{
	switch (counter->attr.type) {
	case PERF_TYPE_SOFTWARE:
		atomic_dec(&perf_counter_sw_users[counter->attr.config]);
		break;
	case PERF_TYPE_TRACEPOINT:
		perf_counter_tp_free(counter);
		break;
	default:
		perf_counter_hw_free(counter);
		break;
	}
}

struct perf_counter *perf_counter_alloc(const struct perf_counter_attr *attr,
					int cpu,
					struct perf_counter *group_leader,
					struct perf_counter *parent)
{
	struct perf_counter *counter;
	int err;

	counter = kzalloc(sizeof(*counter), GFP_KERNEL);
	if (!counter)
		return ERR_PTR(-ENOMEM);
	perf_counter_init(counter, attr, NULL, cpu, group_leader);
	err = counter_source_init(counter, parent);
	if (err) {
		kfree(counter);
		return ERR_PTR(err);
	}
	if (parent) {
		refcount_inc(&parent->refcount);
		counter->parent = parent;
	}
	if (counter_wants_side_band(counter))
		atomic_inc(&perf_counter_side_band_users);
	perf_counter_sched_key_get();
	return counter;
}

void perf_counter_put(struct perf_counter *counter)
{
	if (!refcount_dec_and_test(&counter->refcount))
		return;
	counter_source_free(counter);
	if (counter_wants_side_band(counter))
		atomic_dec(&perf_counter_side_band_users);
	perf_counter_sched_key_put();

	if (counter->ctx)
		perf_counter_put_ctx(counter->ctx);
	if (counter->parent)
		perf_counter_put(counter->parent);
	kfree(counter);
}

/* The id user space sees: a clone answers with its user counter's. */
static u64 counter_primary_id(const struct perf_counter *counter)
{
	return counter->parent ? counter->parent->id : counter->id;
}

struct counter_value {
	u64	count;
	u64	enabled;
	u64	running;
};

static void read_fn(struct perf_counter *counter, void *arg)
{
	struct counter_value *v = arg;

	v->count = perf_counter_read_local(counter, &v->enabled, &v->running);
}

static void value_add(struct counter_value *sum, struct perf_counter *counter)
{
	struct counter_value v;

	perf_counter_ctx_call(counter, read_fn, &v);
	sum->count += v.count;
	sum->enabled += v.enabled;
	sum->running += v.running;
}

/*
 * The value of @counter with its children: the live clones (read where
 * they run) plus the totals of those that exited.
 */
static void counter_read_value(struct perf_counter *counter,
			       struct counter_value *v)
{
	struct perf_counter *child;

	memset(v, 0, sizeof(*v));
	value_add(v, counter);
	mutex_lock(&counter->child_mutex);
	v->count += atomic64_read(&counter->child_count);
	v->enabled += atomic64_read(&counter->child_time_enabled);
	v->running += atomic64_read(&counter->child_time_running);
	list_for_each_entry(child, &counter->child_list, child_entry)
		value_add(v, child);
	mutex_unlock(&counter->child_mutex);
}

/* Bytes a read() in @format takes for @nr counters (1 without GROUP). */
size_t perf_counter_read_size(u64 format, unsigned int nr)
{
	size_t per_value = sizeof(u64), header = 0;

	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		header += sizeof(u64);
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		header += sizeof(u64);
	if (format & PERF_FORMAT_ID)
		per_value += sizeof(u64);
	if (format & PERF_FORMAT_LOST)
		per_value += sizeof(u64);
	if (format & PERF_FORMAT_GROUP)
		header += sizeof(u64);
	return header + nr * per_value;
}

static size_t read_size(const struct perf_counter *counter)
{
	u64 format = counter->attr.read_format;

	return perf_counter_read_size(format, format & PERF_FORMAT_GROUP ?
				      1 + counter->group_leader->nr_siblings :
				      1);
}

/* Append the id and lost count of @counter, as far as they are asked. */
static u64 *put_id_lost(u64 *out, u64 format,
			const struct perf_counter *counter)
{
	if (format & PERF_FORMAT_ID)
		*out++ = counter_primary_id(counter);
	if (format & PERF_FORMAT_LOST)
		*out++ = atomic64_read(&counter->lost_samples);
	return out;
}

static u64 *put_times(u64 *out, u64 format, const struct counter_value *v)
{
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*out++ = v->enabled;
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*out++ = v->running;
	return out;
}

/*
 * Fill @buf for a read() of @counter; ctx->mutex of its group is held so
 * the group cannot change.  A group reports its leader's times: the
 * members were on the PMU exactly when the leader was.
 */
static void fill_read(struct perf_counter *counter, u64 *buf)
{
	struct perf_counter *leader = counter->group_leader, *member;
	u64 format = counter->attr.read_format;
	struct counter_value v;
	u64 *out = buf;

	if (!(format & PERF_FORMAT_GROUP)) {
		counter_read_value(counter, &v);
		*out++ = v.count;
		out = put_times(out, format, &v);
		put_id_lost(out, format, counter);
		return;
	}
	*out++ = 1 + leader->nr_siblings;
	counter_read_value(leader, &v);
	out = put_times(out, format, &v);
	*out++ = v.count;
	out = put_id_lost(out, format, leader);
	list_for_each_entry(member, &leader->sibling_list, group_entry) {
		counter_read_value(member, &v);
		*out++ = v.count;
		out = put_id_lost(out, format, member);
	}
}

static ssize_t perf_counter_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct perf_counter *counter = file->private_data;
	struct perf_counter_context *ctx = counter->ctx;
	u64 stack_buf[READ_STACK_VALUES], *buf = stack_buf;
	ssize_t ret;
	size_t size;

	mutex_lock(&ctx->mutex);
	/* A pinned group that could not count has no value to give. */
	if (READ_ONCE(counter->state) == PERF_COUNTER_STATE_ERROR) {
		ret = 0;
		goto out;
	}
	size = read_size(counter);
	if (count < size) {
		ret = -ENOSPC;
		goto out;
	}
	if (size > sizeof(stack_buf)) {
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf) {
			ret = -ENOMEM;
			goto out;
		}
	}
	fill_read(counter, buf);
	ret = copy_to_user(ubuf, buf, size) ? -EFAULT : size;
	if (buf != stack_buf)
		kfree(buf);
out:
	mutex_unlock(&ctx->mutex);
	return ret;
}

static void enable_fn(struct perf_counter *counter, void *arg)
{
	perf_counter_do_enable(counter);
}

static void disable_fn(struct perf_counter *counter, void *arg)
{
	perf_counter_do_disable(counter);
}

static void reset_fn(struct perf_counter *counter, void *arg)
{
	/* Fold what the PMU holds first, so that it is dropped too. */
	if (counter->state == PERF_COUNTER_STATE_ACTIVE)
		counter->pmu->read(counter);
	atomic64_set(&counter->count, 0);
}

static void refresh_fn(struct perf_counter *counter, void *arg)
{
	/* Past INT_MAX overflows the limit stays there, never wraps. */
	counter->event_limit = min_t(s64, (s64)counter->event_limit +
				     *(int *)arg, INT_MAX);
	perf_counter_do_enable(counter);
}

static void period_fn(struct perf_counter *counter, void *arg)
{
	counter->attr.sample_period = *(u64 *)arg;
	if (!counter->attr.freq)
		counter->period_left = counter->attr.sample_period;
}

/* Apply @fn to @counter and to every live clone of it. */
static void counter_apply_with_children(struct perf_counter *counter,
					perf_counter_ctx_fn fn, void *arg)
{
	struct perf_counter *child;

	perf_counter_ctx_call(counter, fn, arg);
	mutex_lock(&counter->child_mutex);
	/* A reset drops what exited children counted, too. */
	if (fn == reset_fn)
		atomic64_set(&counter->child_count, 0);
	list_for_each_entry(child, &counter->child_list, child_entry)
		perf_counter_ctx_call(child, fn, arg);
	mutex_unlock(&counter->child_mutex);
}

/* ... and with PERF_IOC_FLAG_GROUP to every member of its group. */
static void counter_apply(struct perf_counter *counter, bool group,
			  perf_counter_ctx_fn fn, void *arg)
{
	struct perf_counter_context *ctx = counter->ctx;
	struct perf_counter *member;

	mutex_lock(&ctx->mutex);
	if (!group) {
		counter_apply_with_children(counter, fn, arg);
	} else {
		counter = counter->group_leader;
		counter_apply_with_children(counter, fn, arg);
		list_for_each_entry(member, &counter->sibling_list, group_entry)
			counter_apply_with_children(member, fn, arg);
	}
	mutex_unlock(&ctx->mutex);
}

static bool counter_is_sampling(const struct perf_counter *counter)
{
	return counter->attr.sample_period != 0;
}

static long ioctl_period(struct perf_counter *counter, u64 __user *uperiod)
{
	u64 period;

	if (copy_from_user(&period, uperiod, sizeof(period)))
		return -EFAULT;
	if (!counter_is_sampling(counter) || !period)
		return -EINVAL;
	if (counter->attr.freq && period > READ_ONCE(sysctl_perf_counter_max_sample_rate))
		return -EINVAL;
	if (!counter->attr.freq && (period & (1ULL << 63)))
		return -EINVAL;
	counter_apply(counter, false, period_fn, &period);
	return 0;
}

static long ioctl_refresh(struct perf_counter *counter, unsigned long arg)
{
	int refresh = arg;

	/* A limit shared by clones on several tasks would mean nothing. */
	if (counter->attr.inherit || !counter_is_sampling(counter))
		return -EINVAL;
	if (refresh < 0)
		return -EINVAL;
	counter_apply(counter, false, refresh_fn, &refresh);
	return 0;
}

static long perf_counter_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	struct perf_counter *counter = file->private_data;
	bool group = arg & PERF_IOC_FLAG_GROUP;

	switch (cmd) {
	case PERF_COUNTER_IOC_ENABLE:
		counter_apply(counter, group, enable_fn, NULL);
		return 0;
	case PERF_COUNTER_IOC_DISABLE:
		counter_apply(counter, group, disable_fn, NULL);
		return 0;
	case PERF_COUNTER_IOC_RESET:
		counter_apply(counter, group, reset_fn, NULL);
		return 0;
	case PERF_COUNTER_IOC_REFRESH:
		return ioctl_refresh(counter, arg);
	case PERF_COUNTER_IOC_PERIOD:
		return ioctl_period(counter, (u64 __user *)arg);
	case PERF_COUNTER_IOC_ID:
		return put_user(counter_primary_id(counter),
				(u64 __user *)arg) ? -EFAULT : 0;
	case PERF_COUNTER_IOC_SET_OUTPUT:
		return perf_counter_set_output(counter, arg);
	case PERF_COUNTER_IOC_SET_FILTER:
		return perf_counter_tp_set_filter(counter, (void __user *)arg);
	case PERF_COUNTER_IOC_PAUSE_OUTPUT:
		return perf_counter_pause_output(counter, arg);
	case PERF_COUNTER_IOC_SET_BPF:
	case PERF_COUNTER_IOC_QUERY_BPF:
	case PERF_COUNTER_IOC_MODIFY_ATTRIBUTES:
		/* Known, but not something this subsystem does (yet). */
		return -EOPNOTSUPP;
	default:
		return -ENOTTY;
	}
}

void perf_counter_release_counter(struct perf_counter *counter)
{
	struct perf_counter_context *ctx = counter->ctx;

	mutex_lock(&ctx->mutex);
	perf_counter_remove(counter);
	mutex_unlock(&ctx->mutex);
	/* Our buffer may outlive us in mappings; it no longer gets records. */
	perf_counter_set_buffer(counter, NULL);
	/* Clones that still run stop at their next switch and exit quietly. */
	mutex_lock(&counter->child_mutex);
	WRITE_ONCE(counter->state, PERF_COUNTER_STATE_DEAD);
	mutex_unlock(&counter->child_mutex);
	perf_counter_put(counter);
}

static int perf_counter_release(struct inode *inode, struct file *file)
{
	perf_counter_release_counter(file->private_data);
	return 0;
}

/*
 * POLLIN when the buffer holds unread records, POLLHUP once the task
 * counted is gone: the values are final.
 */
static __poll_t perf_counter_poll(struct file *file, poll_table *wait)
{
	struct perf_counter *counter = file->private_data;
	struct perf_counter_buffer *rb;
	__poll_t mask = 0;

	poll_wait(file, &counter->waitq, wait);
	rcu_read_lock();
	rb = rcu_dereference(counter->rb);
	if (rb && perf_counter_buffer_readable(rb))
		mask |= EPOLLIN | EPOLLRDNORM;
	rcu_read_unlock();
	if (READ_ONCE(counter->state) == PERF_COUNTER_STATE_EXIT)
		mask |= EPOLLHUP;
	return mask;
}

const struct file_operations perf_counter_fops = {
	.owner		= THIS_MODULE,
	.llseek		= no_llseek,
	.read		= perf_counter_read,
	.poll		= perf_counter_poll,
	.mmap		= perf_counter_file_mmap,
	.release	= perf_counter_release,
	.unlocked_ioctl	= perf_counter_ioctl,
	.compat_ioctl	= perf_counter_ioctl,
};
