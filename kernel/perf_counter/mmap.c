// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: mapping a counter's ring buffer into user space, and
 * sending a counter's records into another counter's buffer.
 *
 * Mappings lock memory, so unprivileged users are charged for them as
 * for perf_events: perf_counter_mlock_kb per online CPU for free (per
 * user, in user->perf_mlock), the rest against RLIMIT_MEMLOCK (per mm,
 * in mm->pinned_vm).  The charge is given back with the last unmap.
 */

#include <linux/capability.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/user.h>
#include <linux/vmalloc.h>

#include "internal.h"

static struct perf_counter_buffer *
counter_buffer_locked(struct perf_counter *counter)
{
	return rcu_dereference_protected(counter->rb,
					 lockdep_is_held(&counter->mmap_mutex));
}

/*
 * Make @rb the buffer @counter writes to, under its mmap_mutex; returns
 * the old one, whose reference the caller drops once unlocked.
 */
static struct perf_counter_buffer *
swap_buffer_locked(struct perf_counter *counter, struct perf_counter_buffer *rb)
{
	struct perf_counter_buffer *old = counter_buffer_locked(counter);

	if (old)
		perf_counter_buffer_leave(old, counter);
	if (rb)
		perf_counter_buffer_join(rb, counter);
	rcu_assign_pointer(counter->rb, rb);
	return old;
}

/* Replace the buffer @counter writes to; drops the old one's reference. */
void perf_counter_set_buffer(struct perf_counter *counter,
			     struct perf_counter_buffer *rb)
{
	struct perf_counter_buffer *old;

	mutex_lock(&counter->mmap_mutex);
	old = swap_buffer_locked(counter, rb);
	mutex_unlock(&counter->mmap_mutex);
	if (old)
		perf_counter_buffer_put(old);
}

/* The PMU of the counter that mapped @rb hears of each mapping. */
static void buffer_mapped(struct perf_counter_buffer *rb,
			  struct mm_struct *mm, bool mapped)
{
	const struct perf_counter_pmu *pmu = rb->owner->pmu;

	if (pmu && mapped && pmu->mapped)
		pmu->mapped(rb->owner, mm);
	if (pmu && !mapped && pmu->unmapped)
		pmu->unmapped(rb->owner, mm);
}

static void counter_vm_open(struct vm_area_struct *vma)
{
	struct perf_counter_buffer *rb = vma->vm_private_data;

	atomic_inc(&rb->mmap_count);
	refcount_inc(&rb->refcount);
	buffer_mapped(rb, vma->vm_mm, true);
}

/*
 * Pages of @nr_pages data pages (and the control page) an unprivileged
 * caller may lock: what is charged to the user and to the mm, or
 * -EPERM.  Privileged callers and paranoid level -1 are charged to the
 * user as far as the free allowance goes, never refused.
 */
static int mlock_charge(struct perf_counter_buffer *rb,
			unsigned long nr_pages, struct mm_struct *mm)
{
	unsigned long limit, locked, extra = 0, pages = nr_pages + 1;
	struct user_struct *user = current_user();

	limit = (READ_ONCE(sysctl_perf_counter_mlock_kb) >> (PAGE_SHIFT - 10)) *
		num_online_cpus();
	locked = min_t(unsigned long, atomic_long_read(&user->perf_mlock), limit);
	if (locked + pages > limit) {
		extra = locked + pages - limit;
		pages -= extra;
	}
	if (extra && atomic64_read(&mm->pinned_vm) + extra >
		     rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT &&
	    READ_ONCE(sysctl_perf_counter_paranoid) > -1 &&
	    !capable(CAP_IPC_LOCK))
		return -EPERM;
	atomic_long_add(pages, &user->perf_mlock);
	atomic64_add(extra, &mm->pinned_vm);
	rb->mlock_user = get_uid(user);
	rb->mlock_user_pages = pages;
	rb->mlock_mm = mm;
	mmgrab(mm);
	rb->mlock_mm_pages = extra;
	return 0;
}

static void mlock_uncharge(struct perf_counter_buffer *rb)
{
	if (!rb->mlock_user)
		return;
	atomic_long_sub(rb->mlock_user_pages, &rb->mlock_user->perf_mlock);
	atomic64_sub(rb->mlock_mm_pages, &rb->mlock_mm->pinned_vm);
	free_uid(rb->mlock_user);
	mmdrop(rb->mlock_mm);
	rb->mlock_user = NULL;
}

/*
 * The last unmap detaches the buffer from the counter that mapped it
 * and gives back what the mapping was charged.
 */
static void counter_vm_close(struct vm_area_struct *vma)
{
	struct perf_counter_buffer *rb = vma->vm_private_data;
	struct perf_counter *counter = rb->owner;
	struct perf_counter_buffer *old = NULL;

	buffer_mapped(rb, vma->vm_mm, false);
	if (atomic_dec_and_test(&rb->mmap_count)) {
		mutex_lock(&counter->mmap_mutex);
		if (counter_buffer_locked(counter) == rb)
			old = swap_buffer_locked(counter, NULL);
		mlock_uncharge(rb);
		mutex_unlock(&counter->mmap_mutex);
		if (old)
			perf_counter_buffer_put(old);
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

/*
 * Mapped without PROT_WRITE, user space cannot move data_tail: the
 * buffer overwrites.  The direction is the mapping counter's.
 */
static unsigned int buffer_flags(const struct perf_counter *counter,
				 const struct vm_area_struct *vma)
{
	unsigned int flags = 0;

	if (!(vma->vm_flags & VM_WRITE))
		flags |= PERF_COUNTER_RB_OVERWRITE;
	if (counter->attr.write_backward)
		flags |= PERF_COUNTER_RB_BACKWARD;
	return flags;
}

static struct perf_counter_buffer *
counter_map_buffer(struct perf_counter *counter, unsigned long nr_pages,
		   struct vm_area_struct *vma)
{
	struct perf_counter_buffer *rb;
	int err;

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
	rb = perf_counter_buffer_alloc(nr_pages, buffer_flags(counter, vma));
	if (!rb) {
		rb = ERR_PTR(-ENOMEM);
		goto out;
	}
	err = mlock_charge(rb, nr_pages, vma->vm_mm);
	if (err) {
		perf_counter_buffer_put(rb);
		rb = ERR_PTR(err);
		goto out;
	}
	buffer_set_wakeups(rb, &counter->attr);
	rb->owner = counter;
	refcount_inc(&counter->refcount);
	/* one reference for the counter, one for this mapping */
	refcount_inc(&rb->refcount);
	atomic_set(&rb->mmap_count, 1);
	swap_buffer_locked(counter, rb);
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
	rb = counter_map_buffer(counter, nr_pages, vma);
	if (IS_ERR(rb))
		return PTR_ERR(rb);
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &counter_vm_ops;
	vma->vm_private_data = rb;
	buffer_mapped(rb, vma->vm_mm, true);
	err = remap_vmalloc_range(vma, rb->base, 0);
	if (err) {
		counter_vm_close(vma);
		return err;
	}
	/*
	 * The control page has the times from the start: as far as they
	 * can be read from here, exact from the counter's next switch on.
	 */
	perf_counter_user_page_update(counter);
	return 0;
}

/*
 * The control page of the buffer @counter mapped, when @counter is the
 * counter that mapped it: NULL otherwise.  Under rcu_read_lock().
 */
static struct perf_counter_mmap_page *
counter_user_page(struct perf_counter *counter)
{
	struct perf_counter_buffer *rb = rcu_dereference(counter->rb);

	return rb && rb->owner == counter ? rb->user_page : NULL;
}

/*
 * The count as user space reads it: offset, plus with a nonzero index
 * what rdpmc gives, sign-extended to pmc_width bits.  With index 0
 * offset is the whole count, as of the last fold.
 */
static void user_page_write_count(struct perf_counter_mmap_page *up,
				  struct perf_counter *counter)
{
	const struct perf_counter_pmu *pmu = counter->pmu;
	struct perf_counter_user_read ur = { };
	bool rdpmc;

	rdpmc = pmu && pmu->user_read && pmu->user_read(counter, &ur);
	up->cap_user_rdpmc = rdpmc;
	up->pmc_width = rdpmc ? ur.width : 0;
	up->index = rdpmc ? ur.index : 0;
	up->offset = atomic64_read(&counter->count);
	if (up->index)
		up->offset -= ur.base;
}

/* The lock is odd while fields change: readers retry. */
static void user_page_lock(struct perf_counter_mmap_page *up)
{
	WRITE_ONCE(up->lock, up->lock + 1);
	/* An odd lock, seen before any field changes. */
	smp_wmb();
}

static void user_page_unlock(struct perf_counter_mmap_page *up)
{
	/* Every field written before the lock is even again. */
	smp_wmb();
	WRITE_ONCE(up->lock, up->lock + 1);
}

/*
 * The control page's clock fields, which turn a cycle count into the
 * time since @now and into @counter's sample timestamps: none unless
 * the arch has them.
 */
void __weak perf_counter_arch_user_time(struct perf_counter_mmap_page *up,
					const struct perf_counter *counter,
					u64 now)
{
	up->cap_user_time = 0;
	up->cap_user_time_zero = 0;
}

/*
 * The control page of the buffer @counter mapped: its count and times
 * as of now, for user space that reads itself without a system call.
 * The times are complete where the context is current (at a switch, or
 * through perf_counter_ctx_call()).
 *
 * A PMU's NMI may move count and hw_prev (and bump hw_seq) at any
 * point here; it leaves the page to us while the lock is odd (see
 * perf_counter_user_page_nmi()), so the page is written again until
 * no NMI came between the reading and the even lock.
 */
void perf_counter_user_page_update(struct perf_counter *counter)
{
	struct perf_counter_mmap_page *up;
	u64 enabled, running, now;
	unsigned long flags;
	unsigned int seq;

	rcu_read_lock();
	up = counter_user_page(counter);
	if (!up)
		goto out;
	/* Where the counter is cannot change under us (mmap() calls too). */
	local_irq_save(flags);
	now = perf_counter_clock();
	perf_counter_times_at(counter, now, &enabled, &running);
	do {
		seq = READ_ONCE(counter->hw_seq);
		user_page_lock(up);
		user_page_write_count(up, counter);
		up->time_enabled = enabled;
		up->time_running = running;
		perf_counter_arch_user_time(up, counter, now);
		user_page_unlock(up);
		/* The page first, then whether an NMI came in before it. */
		smp_rmb();
	} while (READ_ONCE(counter->hw_seq) != seq);
	local_irq_restore(flags);
out:
	rcu_read_unlock();
}

/*
 * From a PMU's NMI that just moved @counter's count and hw_prev: the
 * count part of its control page.  A writer that the NMI interrupted
 * (odd lock) sees hw_seq move and writes the page again itself.
 */
void perf_counter_user_page_nmi(struct perf_counter *counter)
{
	struct perf_counter_mmap_page *up;

	WRITE_ONCE(counter->hw_seq, counter->hw_seq + 1);
	rcu_read_lock();
	up = counter_user_page(counter);
	if (up && !(READ_ONCE(up->lock) & 1)) {
		user_page_lock(up);
		user_page_write_count(up, counter);
		user_page_unlock(up);
	}
	rcu_read_unlock();
}

/* Both mmap_mutexes, always in the same order. */
static void lock_two(struct perf_counter *a, struct perf_counter *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mmap_mutex);
	mutex_lock_nested(&b->mmap_mutex, SINGLE_DEPTH_NESTING);
}

static void unlock_two(struct perf_counter *a, struct perf_counter *b)
{
	mutex_unlock(&a->mmap_mutex);
	mutex_unlock(&b->mmap_mutex);
}

/*
 * May @counter write into @target's buffer?  Records must come from one
 * CPU or one task, as for perf_events: a per-task counter's buffer is
 * no place for another task's per-task records.
 */
static bool output_compatible(struct perf_counter *counter,
			      struct perf_counter *target)
{
	if (counter == target || target->cpu != counter->cpu)
		return false;
	/* One buffer, one direction: records of both could not be walked. */
	if (counter->attr.write_backward != target->attr.write_backward)
		return false;
	return counter->cpu != -1 || target->ctx->task == counter->ctx->task;
}

/* Redirect, both mmap_mutexes held; the old buffer is returned in *old. */
static long set_output_locked(struct perf_counter *counter,
			      struct perf_counter *target,
			      struct perf_counter_buffer **old)
{
	struct perf_counter_buffer *own = counter_buffer_locked(counter);
	struct perf_counter_buffer *rb = counter_buffer_locked(target);

	if (own && own->owner == counter)
		return -EBUSY;
	if (!rb || !output_compatible(counter, target))
		return -EINVAL;
	refcount_inc(&rb->refcount);
	*old = swap_buffer_locked(counter, rb);
	return 0;
}

/*
 * PERF_COUNTER_IOC_SET_OUTPUT: send @counter's records into the buffer of
 * the counter behind @fd (-1: back to none).  A counter whose own buffer
 * is mapped cannot be redirected; checked and done under both counters'
 * mmap_mutex, so that a concurrent mmap() of either sees one or the other.
 */
long perf_counter_set_output(struct perf_counter *counter, int fd)
{
	struct perf_counter_buffer *old = NULL, *own;
	struct perf_counter *target;
	struct fd f;
	long err;

	if (fd == -1) {
		err = 0;
		mutex_lock(&counter->mmap_mutex);
		own = counter_buffer_locked(counter);
		if (own && own->owner == counter)
			err = -EBUSY;
		else
			old = swap_buffer_locked(counter, NULL);
		mutex_unlock(&counter->mmap_mutex);
		goto out;
	}
	f = fdget(fd);
	if (!f.file)
		return -EBADF;
	if (f.file->f_op != &perf_counter_fops) {
		fdput(f);
		return -EINVAL;
	}
	target = f.file->private_data;
	if (target == counter) {
		fdput(f);
		return -EINVAL;
	}
	lock_two(counter, target);
	err = set_output_locked(counter, target, &old);
	unlock_two(counter, target);
	fdput(f);
out:
	if (old)
		perf_counter_buffer_put(old);
	return err;
}

/* PERF_COUNTER_IOC_PAUSE_OUTPUT: on the buffer @counter writes into. */
long perf_counter_pause_output(struct perf_counter *counter, bool pause)
{
	struct perf_counter_buffer *rb;
	long err = -EINVAL;

	mutex_lock(&counter->mmap_mutex);
	rb = counter_buffer_locked(counter);
	if (rb) {
		perf_counter_buffer_pause(rb, pause);
		err = 0;
	}
	mutex_unlock(&counter->mmap_mutex);
	return err;
}
