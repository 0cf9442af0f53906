// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: mapping a counter's ring buffer into user space, and
 * sending a counter's records into another counter's buffer.
 */

#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "internal.h"

/* The buffer an unprivileged user may map: perf_event_mlock_kb's default. */
#define PERF_COUNTER_MLOCK_BYTES	(516 * 1024)

static struct perf_counter_buffer *
counter_buffer_locked(struct perf_counter *counter)
{
	return rcu_dereference_protected(counter->rb,
					 lockdep_is_held(&counter->mmap_mutex));
}

/* Replace the buffer @counter writes to; drops the old one's reference. */
void perf_counter_set_buffer(struct perf_counter *counter,
			     struct perf_counter_buffer *rb)
{
	struct perf_counter_buffer *old;

	mutex_lock(&counter->mmap_mutex);
	old = counter_buffer_locked(counter);
	rcu_assign_pointer(counter->rb, rb);
	mutex_unlock(&counter->mmap_mutex);
	if (old)
		perf_counter_buffer_put(old);
}

static void counter_vm_open(struct vm_area_struct *vma)
{
	struct perf_counter_buffer *rb = vma->vm_private_data;

	atomic_inc(&rb->mmap_count);
	refcount_inc(&rb->refcount);
}

/* The last unmap detaches the buffer from the counter that mapped it. */
static void counter_vm_close(struct vm_area_struct *vma)
{
	struct perf_counter_buffer *rb = vma->vm_private_data;
	struct perf_counter *counter = rb->owner;

	if (atomic_dec_and_test(&rb->mmap_count)) {
		mutex_lock(&counter->mmap_mutex);
		if (counter_buffer_locked(counter) == rb) {
			RCU_INIT_POINTER(counter->rb, NULL);
			perf_counter_buffer_put(rb);
		}
		mutex_unlock(&counter->mmap_mutex);
	}
	perf_counter_buffer_put(rb);
}

static const struct vm_operations_struct counter_vm_ops = {
	.open	= counter_vm_open,
	.close	= counter_vm_close,
};

/* Wake up readers every wakeup_events samples, else at the watermark. */
static void buffer_set_wakeups(struct perf_counter_buffer *rb,
			       const struct perf_counter_attr *attr)
{
	rb->watermark = rb->size / 2;
	rb->wakeup_events = INT_MAX;
	if (attr->watermark) {
		if (attr->wakeup_watermark)
			rb->watermark = min_t(unsigned long, rb->size,
					      attr->wakeup_watermark);
	} else if (attr->wakeup_events) {
		rb->wakeup_events = attr->wakeup_events;
	}
}

static struct perf_counter_buffer *
counter_map_buffer(struct perf_counter *counter, unsigned long nr_pages,
		   bool writable)
{
	struct perf_counter_buffer *rb;

	mutex_lock(&counter->mmap_mutex);
	rb = counter_buffer_locked(counter);
	if (rb) {
		/* Mapped again (or redirected): only the same buffer will do. */
		if (rb->owner != counter || rb->nr_pages != nr_pages) {
			rb = ERR_PTR(-EINVAL);
		} else {
			refcount_inc(&rb->refcount);
			atomic_inc(&rb->mmap_count);
		}
		goto out;
	}
	rb = perf_counter_buffer_alloc(nr_pages, !writable);
	if (!rb) {
		rb = ERR_PTR(-ENOMEM);
		goto out;
	}
	buffer_set_wakeups(rb, &counter->attr);
	rb->owner = counter;
	refcount_inc(&counter->refcount);
	/* one reference for the counter, one for this mapping */
	refcount_inc(&rb->refcount);
	atomic_set(&rb->mmap_count, 1);
	rcu_assign_pointer(counter->rb, rb);
out:
	mutex_unlock(&counter->mmap_mutex);
	return rb;
}

int perf_counter_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_counter *counter = file->private_data;
	unsigned long nr_pages = vma_pages(vma) - 1;
	struct perf_counter_buffer *rb;
	int err;

	if (!(vma->vm_flags & VM_SHARED) || vma->vm_pgoff)
		return -EINVAL;
	if (nr_pages && !is_power_of_2(nr_pages))
		return -EINVAL;
	if ((nr_pages << PAGE_SHIFT) > PERF_COUNTER_MLOCK_BYTES &&
	    !capable(CAP_IPC_LOCK))
		return -EPERM;
	rb = counter_map_buffer(counter, nr_pages, vma->vm_flags & VM_WRITE);
	if (IS_ERR(rb))
		return PTR_ERR(rb);
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &counter_vm_ops;
	vma->vm_private_data = rb;
	err = remap_vmalloc_range(vma, rb->base, 0);
	if (err)
		counter_vm_close(vma);
	return err;
}

/*
 * PERF_COUNTER_IOC_SET_OUTPUT: send @counter's records into the buffer of
 * the counter behind @fd (-1: back to none).  A counter whose own buffer
 * is mapped cannot be redirected.
 */
long perf_counter_set_output(struct perf_counter *counter, int fd)
{
	struct perf_counter_buffer *rb = NULL, *own;
	struct perf_counter *target;
	struct fd f;

	mutex_lock(&counter->mmap_mutex);
	own = counter_buffer_locked(counter);
	mutex_unlock(&counter->mmap_mutex);
	if (own && own->owner == counter)
		return -EBUSY;
	if (fd == -1) {
		perf_counter_set_buffer(counter, NULL);
		return 0;
	}
	f = fdget(fd);
	if (!f.file)
		return -EBADF;
	if (f.file->f_op != &perf_counter_fops) {
		fdput(f);
		return -EINVAL;
	}
	target = f.file->private_data;
	mutex_lock(&target->mmap_mutex);
	rb = counter_buffer_locked(target);
	if (rb)
		refcount_inc(&rb->refcount);
	mutex_unlock(&target->mmap_mutex);
	fdput(f);
	if (!rb)
		return -EINVAL;
	perf_counter_set_buffer(counter, rb);
	return 0;
}
