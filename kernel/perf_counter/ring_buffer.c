// SPDX-License-Identifier: GPL-2.0
/*
 * perf_counter: the ring buffer user space maps to read samples and
 * side-band records.
 *
 * One control page (struct perf_counter_mmap_page) is followed by 2^n
 * data pages.  Writers may nest on one CPU (task, interrupt, NMI) and run
 * on several CPUs at once (inherited counters and SET_OUTPUT send many
 * counters into one buffer), so nothing here takes a lock:
 *
 *  - A writer first counts itself in rb->writers, then reserves its
 *    bytes by moving rb->head with cmpxchg: two writers never get
 *    overlapping space.
 *  - data_head, the position user space reads up to, is published only
 *    by a writer that finds itself the only one in flight, and it is
 *    published before that writer counts itself out.  A writer that
 *    starts meanwhile sees another writer in flight and leaves the
 *    publication to it, so data_head never covers a record that is
 *    still being written and never goes backwards.
 *  - Without room (the buffer is mapped writable and user space has not
 *    moved data_tail far enough) the record is dropped and counted; the
 *    next writer that finds room first writes a PERF_RECORD_LOST.
 *  - A backward buffer (attr.write_backward) moves head down instead:
 *    each record is reserved just below the previous one, so data_head
 *    is where the newest record starts and a reader walks forward from
 *    it to older ones.  Mapped read-only, that is the one layout in
 *    which the records that survive overwriting can still be found.
 *  - Output can be paused (PERF_COUNTER_IOC_PAUSE_OUTPUT): records are
 *    then dropped and counted as lost, and the pause waits for writers
 *    in flight, so that the buffer holds still while user space reads.
 *
 * Wakeups are deferred to an irq_work: writers may run in NMI context or
 * under the scheduler's locks.  They go to every counter writing here
 * (rb->waiters), so that a counter sent here with SET_OUTPUT can be
 * polled on its own file.
 *
 * Writers find the buffer under RCU without a reference, so the last
 * reference frees it only after a grace period, and from process
 * context: the wakeup they may have queued is waited for there, and the
 * counter that mapped the buffer (rb->owner) is let go only then.
 */

#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "internal.h"

/*
 * The ordering between a writer here and the reader in user space, in
 * one picture (tools/lib/perf/mmap.c draws the same from the reader's
 * side):
 *
 *   writer (this file)                    reader (user space)
 *   ------------------                    -------------------
 *   rb_has_room(): READ_ONCE(data_tail) (A)
 *     smp_mb(), then write the record
 *   rb_commit(): smp_mb()               (B)
 *     WRITE_ONCE(data_head)    -------->  load-acquire of data_head  (C)
 *                                         read the records below it
 *                              (D) <----  store-release of data_tail
 *
 * (B) pairs with (C): a reader that sees a data_head sees every byte of
 * the records below it.  (A) pairs with (D): bytes are written over
 * only after the reader, by moving data_tail past them, has said it is
 * done with them.  A buffer mapped read-only has no data_tail to wait
 * for and is overwritten.  Among writers the order comes from the
 * cmpxchg on rb->head and the count in rb->writers (rb_commit()).
 */

static void rb_wakeup(struct irq_work *work)
{
	struct perf_counter_buffer *rb =
		container_of(work, struct perf_counter_buffer, wakeup_work);
	struct perf_counter *counter;
	unsigned long flags;

	spin_lock_irqsave(&rb->waiters_lock, flags);
	list_for_each_entry(counter, &rb->waiters, rb_entry)
		wake_up_all(&counter->waitq);
	spin_unlock_irqrestore(&rb->waiters_lock, flags);
}

/* @counter writes into @rb from now on (NULL: none); mmap_mutex held. */
void perf_counter_buffer_join(struct perf_counter_buffer *rb,
			      struct perf_counter *counter)
{
	unsigned long flags;

	spin_lock_irqsave(&rb->waiters_lock, flags);
	list_add_tail(&counter->rb_entry, &rb->waiters);
	spin_unlock_irqrestore(&rb->waiters_lock, flags);
}

void perf_counter_buffer_leave(struct perf_counter_buffer *rb,
			       struct perf_counter *counter)
{
	unsigned long flags;

	spin_lock_irqsave(&rb->waiters_lock, flags);
	list_del_init(&counter->rb_entry);
	spin_unlock_irqrestore(&rb->waiters_lock, flags);
}

/*
 * A buffer of @nr_pages data pages (0 or a power of two); @flags are
 * PERF_COUNTER_RB_OVERWRITE and PERF_COUNTER_RB_BACKWARD.
 */
struct perf_counter_buffer *perf_counter_buffer_alloc(unsigned long nr_pages,
						      unsigned int flags)
{
	struct perf_counter_buffer *rb;

	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return NULL;
	rb->base = vmalloc_user((nr_pages + 1) << PAGE_SHIFT);
	if (!rb->base) {
		kfree(rb);
		return NULL;
	}
	rb->user_page = rb->base;
	rb->data = rb->base + PAGE_SIZE;
	rb->size = nr_pages << PAGE_SHIFT;
	rb->nr_pages = nr_pages;
	rb->overwrite = flags & PERF_COUNTER_RB_OVERWRITE;
	rb->backward = flags & PERF_COUNTER_RB_BACKWARD;
	/* Until mmap applies the counter's wishes: half full. */
	rb->watermark = rb->size / 2;
	rb->wakeup_events = INT_MAX;
	refcount_set(&rb->refcount, 1);
	init_irq_work(&rb->wakeup_work, rb_wakeup);
	spin_lock_init(&rb->waiters_lock);
	INIT_LIST_HEAD(&rb->waiters);

	rb->user_page->version = 0;
	rb->user_page->compat_version = 0;
	rb->user_page->data_offset = PAGE_SIZE;
	rb->user_page->data_size = rb->size;
	return rb;
}

/* A grace period after the last reference: no writer is left. */
static void rb_free_work(struct work_struct *work)
{
	struct perf_counter_buffer *rb =
		container_of(to_rcu_work(work), struct perf_counter_buffer,
			     free_work);

	irq_work_sync(&rb->wakeup_work);
	if (rb->owner)
		perf_counter_put(rb->owner);
	vfree(rb->base);
	kfree(rb);
}

void perf_counter_buffer_put(struct perf_counter_buffer *rb)
{
	if (!refcount_dec_and_test(&rb->refcount))
		return;
	INIT_RCU_WORK(&rb->free_work, rb_free_work);
	queue_rcu_work(system_wq, &rb->free_work);
}

/*
 * Is there room for @size bytes at @head?  Mapped read-only: always.
 * Forward, user space still needs [data_tail, head); backward, where
 * data_tail starts at 0 and moves down as the oldest records are read,
 * it needs [head, data_tail).
 */
static bool rb_has_room(struct perf_counter_buffer *rb, unsigned long head,
			unsigned long size)
{
	unsigned long tail, used;

	if (rb->overwrite)
		return size <= rb->size;
	tail = READ_ONCE(rb->user_page->data_tail);
	/*
	 * Order the read of data_tail before our writes of data: user
	 * space stores data_tail only after it has read the records.
	 */
	smp_mb();
	used = rb->backward ? tail - head : head - tail;
	return used <= rb->size && used + size <= rb->size;
}

/*
 * Reserve @size bytes; *@pos gets where the record starts.  False if
 * there is no room or output is paused (the caller then counts a lost
 * record).  The caller is counted in rb->writers either way and must
 * call rb_commit().
 */
static bool rb_reserve(struct perf_counter_buffer *rb, unsigned long size,
		       unsigned long *pos)
{
	unsigned long head, next;

	atomic_inc(&rb->writers);
	/*
	 * Counted in before reserving: see rb_commit()'s reads.  Also
	 * before the read of paused: see perf_counter_buffer_pause().
	 */
	smp_mb__after_atomic();
	if (READ_ONCE(rb->paused))
		return false;
	do {
		head = atomic_long_read(&rb->head);
		if (!rb_has_room(rb, head, size))
			return false;
		next = rb->backward ? head - size : head + size;
	} while (atomic_long_cmpxchg(&rb->head, head, next) != head);
	*pos = rb->backward ? next : head;
	return true;
}

static void rb_maybe_wakeup(struct perf_counter_buffer *rb, unsigned long head)
{
	unsigned long last = atomic_long_read(&rb->wakeup_head);
	unsigned long written = rb->backward ? last - head : head - last;

	if (written < rb->watermark &&
	    atomic_read(&rb->pending_events) < rb->wakeup_events)
		return;
	if (atomic_long_cmpxchg(&rb->wakeup_head, last, head) != last)
		return;
	atomic_set(&rb->pending_events, 0);
	irq_work_queue(&rb->wakeup_work);
}

#ifdef CONFIG_PERF_COUNTERS_KUNIT_TEST
/* The KUnit suite nests a writer at the one point where it is hardest. */
static void rb_test_nest(struct perf_counter_buffer *rb)
{
	void (*nest)(struct perf_counter_buffer *rb) = rb->test_nest;

	if (nest) {
		rb->test_nest = NULL;
		nest(rb);
	}
}
#else
static inline void rb_test_nest(struct perf_counter_buffer *rb) { }
#endif

/*
 * Count this writer out; the last one in flight publishes data_head up to
 * everything reserved so far (all of it written by then).
 */
static void rb_commit(struct perf_counter_buffer *rb)
{
	unsigned long head;
	int writers;

	for (;;) {
		head = atomic_long_read(&rb->head);
		rb_test_nest(rb);
		/* Pairs with rb_reserve(): a reservation in head is counted. */
		smp_mb();
		writers = atomic_read(&rb->writers);
		if (writers > 1) {
			if (atomic_cmpxchg(&rb->writers, writers,
					   writers - 1) == writers)
				return;
			continue;
		}
		/* Our data and that of the writers counted out before us. */
		smp_mb();
		WRITE_ONCE(rb->user_page->data_head, head);
		/* Someone started meanwhile: count out and leave it to them. */
		if (atomic_cmpxchg(&rb->writers, 1, 0) != 1)
			continue;
		/*
		 * A writer that nested between our reads of head and of
		 * writers (an NMI, say) counted out seeing us in flight:
		 * its record is past what we published and nobody else
		 * will publish it.  Count in again and cover it.
		 */
		smp_mb();
		if (atomic_long_read(&rb->head) == head)
			break;
		atomic_inc(&rb->writers);
		/* Counted in again before the next read of head. */
		smp_mb__after_atomic();
	}
	rb_maybe_wakeup(rb, head);
}

/* Copy @len bytes to buffer offset @pos, wrapping at the end. */
static void rb_copy(struct perf_counter_buffer *rb, unsigned long pos,
		    const void *src, unsigned long len)
{
	unsigned long off = pos & (rb->size - 1);
	unsigned long first = min(len, rb->size - off);

	memcpy(rb->data + off, src, first);
	if (len > first)
		memcpy(rb->data, src + first, len - first);
}

static void rb_zero(struct perf_counter_buffer *rb, unsigned long pos,
		    unsigned long len)
{
	unsigned long off = pos & (rb->size - 1);
	unsigned long first = min(len, rb->size - off);

	memset(rb->data + off, 0, first);
	if (len > first)
		memset(rb->data, 0, len - first);
}

/*
 * Start a record of @size bytes for @counter: on success the caller
 * writes it with perf_counter_output_copy() and ends it with
 * perf_counter_output_end().  Records lost before are reported first.
 */
int perf_counter_output_begin(struct perf_counter_output *out,
			      struct perf_counter_buffer *rb,
			      struct perf_counter *counter, unsigned int size)
{
	unsigned int lost_size = 0;
	unsigned long pos;
	u64 lost;

	if (!rb->size)
		return -ENOSPC;
	/* Claimed whole, so that two writers never report the same loss. */
	lost = atomic64_xchg(&rb->lost, 0);
	if (lost)
		lost_size = perf_counter_lost_size(counter);
	if (!rb_reserve(rb, size + lost_size, &pos)) {
		atomic64_add(lost + 1, &rb->lost);
		atomic64_inc(&(counter->parent ?: counter)->lost_samples);
		rb_commit(rb);
		return -ENOSPC;
	}
	out->rb = rb;
	out->pos = pos;
	out->end = pos + size + lost_size;
	if (lost)
		perf_counter_write_lost(out, counter, lost);
	return 0;
}

void perf_counter_output_copy(struct perf_counter_output *out,
			      const void *src, unsigned int len)
{
	/* Distances, not positions: a backward record may end at 0. */
	if (WARN_ON_ONCE(len > out->end - out->pos))
		return;
	rb_copy(out->rb, out->pos, src, len);
	out->pos += len;
}

/*
 * Copy @len bytes from user memory at @src into the record, where no
 * fault may be taken (any context, NMIs included); returns how many
 * could be read, from the start.  The rest of the @len bytes are zeros.
 */
unsigned int perf_counter_output_copy_user(struct perf_counter_output *out,
					   const void __user *src,
					   unsigned int len)
{
	struct perf_counter_buffer *rb = out->rb;
	unsigned long off = out->pos & (rb->size - 1);
	unsigned long first = min_t(unsigned long, len, rb->size - off);
	unsigned long left = len;

	if (WARN_ON_ONCE(len > out->end - out->pos))
		return 0;
	/*
	 * copy_from_user_nmi(): no fault taken, nothing that locks (the
	 * checks of usercopy hardening would), and nothing read while an
	 * NMI finds another mm's page tables loaded.
	 */
	left = copy_from_user_nmi(rb->data + off, src, first);
	if (!left && len > first)
		left = copy_from_user_nmi(rb->data, src + first, len - first);
	else if (left)
		left += len - first;
	rb_zero(rb, out->pos + len - left, left);
	out->pos += len;
	return len - left;
}

void perf_counter_output_end(struct perf_counter_output *out, bool sample)
{
	WARN_ON_ONCE(out->pos != out->end);
	if (sample)
		atomic_inc(&out->rb->pending_events);
	rb_commit(out->rb);
}

/* Records dropped for want of room, not yet reported in a LOST record. */
u64 perf_counter_buffer_lost(struct perf_counter_buffer *rb)
{
	return atomic64_read(&rb->lost);
}

/* Does the buffer hold records user space has not consumed? */
bool perf_counter_buffer_readable(struct perf_counter_buffer *rb)
{
	struct perf_counter_mmap_page *up = rb->user_page;

	return READ_ONCE(up->data_head) != READ_ONCE(up->data_tail);
}

/*
 * PERF_COUNTER_IOC_PAUSE_OUTPUT: @pause stops output into @rb, and
 * returns only once no writer is in flight and all is published, so
 * that nothing in the buffer changes until output is resumed.  A writer
 * counts itself in before it reads rb->paused, and we read rb->writers
 * after storing it: once we have seen no writer, every later one sees
 * the pause.
 */
void perf_counter_buffer_pause(struct perf_counter_buffer *rb, bool pause)
{
	unsigned int spins = 0;

	WRITE_ONCE(rb->paused, pause);
	if (!pause)
		return;
	/* Pairs with rb_reserve(): the flag stored before writers read. */
	smp_mb();
	/*
	 * Writers are short; one preempted in a record needs its CPU.  The
	 * last writer out may count itself in again to publish a record
	 * that nested into its commit (rb_commit()): until data_head
	 * covers every reservation, the buffer is not still yet.
	 */
	while (atomic_read(&rb->writers) ||
	       READ_ONCE(rb->user_page->data_head) !=
	       atomic_long_read(&rb->head)) {
		if (++spins < 1000)
			cpu_relax();
		else
			usleep_range(50, 100);
	}
}
