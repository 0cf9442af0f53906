// SPDX-License-Identifier: GPL-2.0
/*
 * Time order for perf_session__process_events_ordered(): kernel records
 * are queued and delivered in time order, round by round
 * (PERF_RECORD_FINISHED_ROUND), the way perf report and the others that
 * need time order read a file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "session-internal.h"

/*
 * Queued kernel records.  A round's records arrive as a few runs that
 * are each sorted (one per ring buffer); they are sorted by a natural
 * merge sort and merged with what earlier rounds left over.
 */
struct oe_event {
	u64 time;
	u64 pos;
	const u8 *rec;
	struct session_block *block;	/* holds the record: pinned */
	s32 attr;			/* its attr's index, -1: none */
	u32 size;			/* the record's */
};

#define OE_MAX_QUEUED	(4U << 20)

struct perf_session_queue {
	struct oe_event *pending;	/* sorted, after earlier flushes */
	u32 nr_pending;
	u32 pending_cap;
	struct oe_event *incoming;	/* this round, in file order */
	u32 nr_incoming;
	u32 incoming_cap;
	struct oe_event *tmp;
	u32 tmp_cap;
	/*
	 * Flushed, to deliver in order.  With a reader thread they go out
	 * as its ring takes them, while the next round is read.
	 */
	struct oe_event *ready;
	u32 nr_ready;
	u32 ready_pos;
	u32 ready_cap;
	u64 max_time;			/* newest queued time */
	u64 next_flush;			/* the next round flushes up to it */
	u64 last_flushed;		/* time of the last delivered record */
	u64 last_time;			/* time given to records without one */
	struct session_block *copies;	/* where copies go: pinned */
};

void session_queue_free(struct perf_session *s)
{
	struct perf_session_queue *q = s->queue;
	u32 i;

	if (!q)
		return;
	/* Records still queued after a stop pin their blocks. */
	for (i = 0; i < q->nr_pending; i++)
		session_block_put(s, q->pending[i].block);
	for (i = 0; i < q->nr_incoming; i++)
		session_block_put(s, q->incoming[i].block);
	for (i = q->ready_pos; i < q->nr_ready; i++)
		session_block_put(s, q->ready[i].block);
	session_block_put(s, q->copies);
	big_free(q->pending, (size_t)q->pending_cap * sizeof(*q->pending));
	big_free(q->incoming, (size_t)q->incoming_cap * sizeof(*q->incoming));
	big_free(q->tmp, (size_t)q->tmp_cap * sizeof(*q->tmp));
	big_free(q->ready, (size_t)q->ready_cap * sizeof(*q->ready));
	free(q);
	s->queue = NULL;
}

/*
 * From 1 MiB on, the queue's arrays are in huge pages (arena.h): a round
 * of a busy recording queues tens of thousands of records, and faulting
 * in the arrays' 4 KiB pages one by one cost a tenth of a timehist.
 * They grow by doubling, not straight to a huge page: a huge page is
 * cleared whole, which costs as much per byte as the small pages' faults
 * when most of it would go unused.
 */
static int grow(struct oe_event **a, u32 *cap, u32 need)
{
	struct oe_event *p;
	u32 n = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = big_realloc(*a, (size_t)*cap * sizeof(*p), (size_t)n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*a = p;
	*cap = n;
	return 0;
}

static bool oe_before(const struct oe_event *a, const struct oe_event *b)
{
	return a->time < b->time || (a->time == b->time && a->pos < b->pos);
}

static void oe_merge(const struct oe_event *a, u32 na,
		     const struct oe_event *b, u32 nb, struct oe_event *out)
{
	u32 i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = oe_before(&b[j], &a[i]) ? b[j++] : a[i++];
	while (i < na)
		*out++ = a[i++];
	while (j < nb)
		*out++ = b[j++];
}

static u32 run_end(const struct oe_event *a, u32 i, u32 n)
{
	for (i++; i < n && !oe_before(&a[i], &a[i - 1]); i++)
		;
	return i;
}

/* Natural merge sort of a[n] using tmp[n]; returns where the result is. */
static struct oe_event *oe_sort(struct oe_event *a, struct oe_event *tmp,
				u32 n)
{
	while (n && run_end(a, 0, n) < n) {
		struct oe_event *swap;
		u32 i = 0;

		while (i < n) {
			u32 mid = run_end(a, i, n), end;

			if (mid == n) {
				memcpy(tmp + i, a + i, (n - i) * sizeof(*a));
				break;
			}
			end = run_end(a, mid, n);
			oe_merge(a + i, mid - i, a + mid, end - mid, tmp + i);
			i = end;
		}
		swap = a;
		a = tmp;
		tmp = swap;
	}
	return a;
}

/*
 * A queued record stays where it was read, in the read buffer's block,
 * which it pins.  Records unpacked from COMPRESSED ones lie in a buffer
 * that the next one overwrites: they are copied.
 */
static const u8 *queue_hold(struct perf_session *s, const u8 *rec,
			    struct session_block **block)
{
	*block = session_block_pin(s, rec);
	if (*block)
		return rec;
	return session_block_copy(s, &s->queue->copies, rec, block);
}

/*
 * After an error nothing queued is delivered: the pins go.  The count
 * of ready records is reset by deliver_ready(), the one caller.
 */
static void queue_drop(struct perf_session *s)
{
	struct perf_session_queue *q = s->queue;
	u32 i;

	for (i = q->ready_pos; i < q->nr_ready; i++)
		session_block_put(s, q->ready[i].block);
	for (i = 0; i < q->nr_pending; i++)
		session_block_put(s, q->pending[i].block);
	q->nr_pending = 0;
}

/*
 * Into a reader thread's ring, as many flushed records as it has room
 * for (@some) or all, slots filled a run at a time: one check of room
 * and one handing over for the run.  A record that does not lie 8-byte
 * aligned goes alone, to be copied.  0 with records left only when
 * @some.
 */
static int ready_to_reader(struct perf_session *s, bool some,
			   perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	struct session_held *h;
	const struct oe_event *e;
	u64 bytes_left, bytes;
	int n, i;

	while (q->ready_pos < q->nr_ready) {
		e = &q->ready[q->ready_pos];
		if ((uintptr_t)e->rec & 7) {
			if (some && !session_reader_room(s))
				return 0;
			q->ready_pos++;
			n = session_deliver_known(s, e->rec, e->pos, e->attr,
						  e->block, fn, ctx);
			if (n)
				return n;
			continue;
		}
		n = session_reader_reserve(s, q->nr_ready - q->ready_pos,
					   !some, &bytes_left);
		if (n <= 0)
			return n;
		for (i = 0, bytes = 0; i < n && bytes < bytes_left; i++, e++) {
			if ((uintptr_t)e->rec & 7)
				break;
			h = session_reader_slot_at(s, i);
			h->ev = (const union perf_event *)e->rec;
			h->pos = e->pos;
			h->attr = e->attr < 0 ? NULL : &s->attrs[e->attr];
			h->block = e->block;
			bytes += e->size;
		}
		q->ready_pos += i;
		session_reader_push_n(s, i, bytes);
	}
	return 0;
}

/*
 * Deliver the records flushed: all of them, or (@some) as many as a
 * reader thread's ring takes without waiting.
 */
static int deliver_ready(struct perf_session *s, bool some,
			 perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	const struct oe_event *e;
	int ret = 0;

	if (s->reader && q->ready_pos < q->nr_ready) {
		ret = ready_to_reader(s, some, fn, ctx);
		if (!ret && q->ready_pos < q->nr_ready)
			return 0;
	}
	while (q->ready_pos < q->nr_ready && !ret) {
		e = &q->ready[q->ready_pos++];
		/* The record's pin goes with it. */
		ret = session_deliver_known(s, e->rec, e->pos, e->attr,
					    e->block, fn, ctx);
	}
	if (ret)
		queue_drop(s);
	/* None left: nr_ready alone says there are some. */
	q->nr_ready = 0;
	q->ready_pos = 0;
	return ret;
}

/*
 * One thread delivers the flushed records at once, from the merge's
 * array: a fourth array would only cost memory.
 */
static int deliver_merged(struct perf_session *s, struct oe_event *merged,
			  u32 n, perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	struct oe_event *ready = q->ready;
	int ret;

	q->ready = merged;
	q->nr_ready = n;
	q->ready_pos = 0;
	ret = deliver_ready(s, false, fn, ctx);
	q->ready = ready;
	q->nr_ready = 0;
	q->ready_pos = 0;
	return ret;
}

int session_queue_settle(struct perf_session *s, perf_session_event_fn fn,
			 void *ctx)
{
	return s->queue ? deliver_ready(s, false, fn, ctx) : 0;
}

/* Swap two of the queue's arrays, with their sizes. */
static void swap_arrays(struct oe_event **a, u32 *a_cap,
			struct oe_event **b, u32 *b_cap)
{
	struct oe_event *p = *a;
	u32 cap = *a_cap;

	*a = *b;
	*a_cap = *b_cap;
	*b = p;
	*b_cap = cap;
}

/*
 * Deliver the queued records not later than limit, in time order: the
 * ones flushed before first.  With a reader thread, they are delivered
 * as its ring has room (deliver_ready()), but always before any other
 * record but an unordered attr's sample.
 */
static int queue_flush(struct perf_session *s, u64 limit,
		       perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	u32 n = q->nr_pending + q->nr_incoming, i;
	struct oe_event *sorted, *merged;
	int ret = deliver_ready(s, false, fn, ctx);

	if (ret || !n)
		return ret;
	/* The sort ping-pongs between incoming and tmp; the merge goes
	 * into whichever of them does not hold the sorted run.
	 */
	if (grow(&q->tmp, &q->tmp_cap, n) ||
	    grow(&q->incoming, &q->incoming_cap, n) ||
	    grow(&q->pending, &q->pending_cap, n))
		return -ENOMEM;
	sorted = oe_sort(q->incoming, q->tmp, q->nr_incoming);
	merged = sorted == q->tmp ? q->incoming : q->tmp;
	oe_merge(q->pending, q->nr_pending, sorted, q->nr_incoming, merged);
	q->nr_incoming = 0;
	for (i = 0; i < n && merged[i].time <= limit; i++)
		;
	q->nr_pending = n - i;
	memcpy(q->pending, merged + i, q->nr_pending * sizeof(*merged));
	if (i)
		q->last_flushed = merged[i - 1].time;
	if (!s->reader)
		return deliver_merged(s, merged, i, fn, ctx);
	/*
	 * The flushed ones stay where the merge put them, in an array of
	 * their own while the next round is read into the others.
	 */
	if (merged == q->tmp)
		swap_arrays(&q->ready, &q->ready_cap, &q->tmp, &q->tmp_cap);
	else
		swap_arrays(&q->ready, &q->ready_cap, &q->incoming,
			    &q->incoming_cap);
	q->nr_ready = i;
	q->ready_pos = 0;
	return deliver_ready(s, true, fn, ctx);
}

/*
 * The time a kernel record is ordered by, read in place: the record is
 * decoded (and checked) once, when it is delivered.  *has_time as in
 * decode(); -EINVAL where decode() would fail before the sample fields.
 */
static int record_time(struct perf_session *s, const union perf_event *ev,
		       u64 *time, bool *has_time,
		       struct perf_session_attr **attr)
{
	const u64 *p = ev->array;
	u32 n = ev->header.size / sizeof(u64);
	struct perf_session_attr *a;
	u64 t;
	u32 pos;

	*has_time = false;
	if (ev->header.size & 7)
		return -EINVAL;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (session_sample_attr(s, ev, &a))
			return -EINVAL;
		*attr = a;
		if (!a || !(a->attr.sample_type & PERF_SAMPLE_TIME))
			return 0;
		/* The header is p[0]; the time's slot follows it. */
		pos = 1 + a->layout.time;
		if (pos >= n)
			return -EINVAL;
	} else {
		if (session_attr_of(s, ev, &a))
			return -EINVAL;
		*attr = a;
		if (!s->sample_id_all || !s->nr_attrs)
			return 0;
		t = a ? a->attr.sample_type : s->attrs[0].attr.sample_type;
		pos = perf_sample_id_size(t) / sizeof(u64);
		if (!(t & PERF_SAMPLE_TIME) || pos >= n)
			return 0;
		pos = n - pos + !!(t & PERF_SAMPLE_TID);
	}
	*time = p[pos];
	*has_time = true;
	return 0;
}

static int queue_record(struct perf_session *s, const u8 *rec, u64 pos,
			perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	const union perf_event *ev = session_aligned(s, rec);
	u64 time;
	struct perf_session_attr *attr;
	struct oe_event *e;
	bool has_time;
	s32 attr_idx;

	if (record_time(s, ev, &time, &has_time, &attr) < 0)
		return session_decode_error(s, pos, ev, -EINVAL);
	attr_idx = attr ? attr->idx : -1;
	if (!has_time)
		time = q->last_time;
	/*
	 * Time 0 is what records synthesized before counting started
	 * carry: perf delivers those at once, and so do we.
	 */
	if (!time || time == UINT64_MAX)
		return deliver_ready(s, false, fn, ctx) ?:
		       session_deliver_known(s, rec, pos, attr_idx, NULL, fn,
					     ctx);
	if (time < q->last_flushed)
		s->stats.nr_unordered++;
	/*
	 * The times of samples delivered at once still count for when
	 * rounds flush: the others come out in the same batches either
	 * way.
	 */
	if (attr && attr->unordered &&
	    ev->header.type == PERF_RECORD_SAMPLE) {
		q->last_time = time;
		if (time > q->max_time)
			q->max_time = time;
		if (attr->skipped && (u32)attr_idx < s->nr_attrs_pass)
			return session_skip_sample(s, ev, pos, attr);
		return session_deliver_known(s, rec, pos, attr_idx, NULL, fn,
					     ctx);
	}
	if (grow(&q->incoming, &q->incoming_cap, q->nr_incoming + 1))
		return -ENOMEM;
	e = &q->incoming[q->nr_incoming];
	e->time = time;
	e->pos = pos;
	e->attr = attr_idx;
	e->size = ev->header.size;
	e->rec = queue_hold(s, rec, &e->block);
	if (!e->rec)
		return -ENOMEM;
	q->nr_incoming++;
	q->last_time = time;
	if (time > q->max_time)
		q->max_time = time;
	/* A file without rounds must not queue all of itself. */
	if (q->nr_incoming + q->nr_pending >= OE_MAX_QUEUED)
		return queue_flush(s, q->last_time < q->max_time ?
				   q->last_time : q->max_time, fn, ctx);
	return 0;
}

static int ordered_one(struct perf_session *s, const u8 *rec, u64 pos,
		       perf_session_event_fn fn, void *ctx)
{
	const struct perf_counter_header h = session_rec_header(rec);
	struct perf_session_queue *q = s->queue;
	int ret;

	if (h.type < PERF_RECORD_USER_TYPE_START) {
		/* A reader thread's ring gets the flushed records as it can. */
		ret = q->nr_ready ? deliver_ready(s, true, fn, ctx) : 0;
		return ret ?: queue_record(s, rec, pos, fn, ctx);
	}
	ret = deliver_ready(s, false, fn, ctx) ?:
	      session_deliver(s, rec, pos, fn, ctx);
	if (ret || h.type != PERF_RECORD_FINISHED_ROUND)
		return ret;
	/* What the previous round saw is complete now. */
	ret = queue_flush(s, q->next_flush, fn, ctx);
	q->next_flush = q->max_time;
	return ret;
}

static int ordered_begin(struct perf_session *s)
{
	session_queue_free(s);
	s->queue = calloc(1, sizeof(*s->queue));
	return s->queue ? 0 : -ENOMEM;
}

/* After a data error, what came before it still goes out. */
static int ordered_end(struct perf_session *s, int ret,
		       perf_session_event_fn fn, void *ctx)
{
	if (!ret || ret == -EBADMSG) {
		char msg[sizeof(s->errmsg)];
		int flush;

		memcpy(msg, s->errmsg, sizeof(msg));
		flush = queue_flush(s, UINT64_MAX, fn, ctx) ?:
			deliver_ready(s, false, fn, ctx);
		/* The first error is the one to tell, be it the flush's. */
		if (ret)
			memcpy(s->errmsg, msg, sizeof(msg));
		else
			ret = flush;
	}
	session_queue_free(s);
	return ret;
}

int perf_session__process_events_ordered(struct perf_session *s,
					 perf_session_event_fn fn, void *ctx)
{
	static const struct session_pass_ops in_time_order = {
		.one = ordered_one,
		.begin = ordered_begin,
		.end = ordered_end,
	};

	return session_pass(s, &in_time_order, fn, ctx);
}
