/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SESSION_INTERNAL_H
#define __PERF_UTIL_SESSION_INTERNAL_H

/*
 * What the session reader (session.c) shares with the time-order queue
 * (ordered-events.c), and with nothing else: commands use data.h.
 */
#include <string.h>
#include <stdbool.h>
#include "data.h"

/* Records in a stream need not be aligned: copy their header out. */
static inline struct perf_counter_header session_rec_header(const u8 *rec)
{
	struct perf_counter_header h;

	memcpy(&h, rec, sizeof(h));
	return h;
}

/* What a pass does with each record, at offset pos of the file. */
typedef int (*session_record_fn)(struct perf_session *s, const u8 *rec,
				 u64 pos, perf_session_event_fn fn, void *ctx);

/*
 * One pass over the records: @one takes each record, and each record
 * inside a COMPRESSED one; @begin, when set, runs before the first and
 * @end after the last, given the pass's result to return or replace.
 */
struct session_pass_ops {
	session_record_fn one;
	int (*begin)(struct perf_session *s);
	int (*end)(struct perf_session *s, int ret,
		   perf_session_event_fn fn, void *ctx);
};

int session_pass(struct perf_session *s, const struct session_pass_ops *ops,
		 perf_session_event_fn fn, void *ctx);

/*
 * Decode a kernel record and hand it to fn; records of perf's as is.
 * @block, when not NULL, is a pin on the block @rec lies in that the
 * caller hands over: it is put when fn is done with the record.
 */
int session_deliver(struct perf_session *s, const u8 *rec, u64 pos,
		    perf_session_event_fn fn, void *ctx);
/*
 * The same for a kernel record whose attr session_attr_of() found when
 * it was queued (@attr_idx, -1: none): an id keeps its attr, so the
 * answer still holds.
 */
int session_deliver_known(struct perf_session *s, const u8 *rec, u64 pos,
			  s32 attr_idx, struct session_block *block,
			  perf_session_event_fn fn, void *ctx);
/* A sample of a skipped attr (data.h): 0, or its decoding error. */
int session_skip_sample(struct perf_session *s, const union perf_event *ev,
			u64 pos, struct perf_session_attr *attr);
int session_decode_error(struct perf_session *s, u64 pos,
			 const union perf_event *ev, int err);
int session_attr_of(struct perf_session *s, const union perf_event *ev,
		    struct perf_session_attr **attr);

/*
 * session_attr_of() for a sample, inline: the first attr where samples
 * carry no id (or there is one attr), else the attr of the id.
 */
static inline int session_sample_attr(struct perf_session *s,
				      const union perf_event *ev,
				      struct perf_session_attr **attr)
{
	u32 pos = 1 + s->id_pos;

	if (s->nr_attrs <= 1 || s->id_pos < 0) {
		*attr = s->nr_attrs ? &s->attrs[0] : NULL;
		return 0;
	}
	*attr = NULL;
	if (pos >= ev->header.size / sizeof(u64))
		return -EINVAL;
	*attr = perf_session__find_attr(s, ev->array[pos]);
	return 0;
}
const union perf_event *session_aligned(struct perf_session *s,
					const u8 *rec);

/*
 * Memory that records lie in: the read buffer, and the queue's copies
 * of records that come from elsewhere (unpacked from COMPRESSED ones).
 * Each holder of a record in a block pins it; a block goes back to the
 * session's free list when its last pin goes.  The reader pins the
 * read buffer's block while it reads into it, and never moves or
 * overwrites the bytes of a block that another pin holds: the queue
 * keeps pointers to records there instead of copies.
 */
struct session_block {
	struct session_block *next;	/* on a free list */
	size_t cap;
	size_t used;			/* for copies: bytes taken */
	/*
	 * Pins taken, by the reading thread only, and pins put, by either
	 * thread of a pass with a reader thread (session-reader.c): the
	 * block is free when they are equal.  The reader's own pin on the
	 * block it reads into keeps them apart until it moves on, so pins
	 * never grows after they can meet.
	 */
	u32 pins;
	/* Away from pins: the reader takes pins with every record. */
	u32 puts __aligned(64);
	u64 data[] __aligned(64);
};

/* A block of at least @cap bytes, pinned once; NULL without memory. */
struct session_block *session_block_get(struct perf_session *s, size_t cap);
void session_block_put(struct perf_session *s, struct session_block *b);
/* Put @n pins of @b at once: the thread that delivers batches them. */
void session_block_put_n(struct perf_session *s, struct session_block *b,
			 u32 n);
/* The read buffer's block, pinned once more, if @rec lies in it. */
struct session_block *session_block_pin(struct perf_session *s,
					const u8 *rec);
/*
 * A copy of the kernel record @rec, 8-byte aligned, in the block
 * *copies (replaced by a new one when full), which the copy pins:
 * *block.  NULL without memory.
 */
const u8 *session_block_copy(struct perf_session *s,
			     struct session_block **copies, const u8 *rec,
			     struct session_block **block);

void session_queue_free(struct perf_session *s);
/*
 * Deliver what one thread would have delivered by now: the records a
 * flush released that a reader thread's ring has not taken yet.
 */
int session_queue_settle(struct perf_session *s, perf_session_event_fn fn,
			 void *ctx);

/* ---- a pass with a reader thread (session-reader.c) ---- */

/*
 * A record the reader thread holds for the delivering thread: pinned
 * where it lies, 8-byte aligned; decoded when delivered.
 */
struct session_held {
	const union perf_event *ev;
	u64 pos;
	struct perf_session_attr *attr;	/* as session_deliver*() have it */
	struct session_block *block;	/* pinned for it, or NULL */
};

/*
 * Decode @h and hand it to fn: fn's result, or (*bad set) the decoding
 * error, whose message session_decode_error() makes.
 */
int session_deliver_held(struct perf_session *s, const struct session_held *h,
			 perf_session_event_fn fn, void *ctx, bool *bad);

/* The records of a pass: the loop session_pass() runs, on any thread. */
int session_read_records(struct perf_session *s,
			 const struct session_pass_ops *ops,
			 perf_session_event_fn fn, void *ctx);

/*
 * Deliveries the ring holds, a power of 2 above 64: tests make it small
 * to have both threads wait for each other often.
 */
extern unsigned int session_reader_slots;

/* Whether a pass over @s reads on a thread of its own. */
bool session_reader_wanted(const struct perf_session *s);
/* session_read_records() on a reader thread, fn on this one. */
int session_reader_pass(struct perf_session *s,
			const struct session_pass_ops *ops,
			perf_session_event_fn fn, void *ctx);
/*
 * On the reader thread: the next delivery to fill, once the ring has
 * room; NULL when the callback stopped the pass.  *copies is where the
 * reader copies records that cannot stay where they lie.
 */
struct session_held *session_reader_slot(struct perf_session *s,
					 struct session_block ***copies);
/* On the reader thread: whether a slot is free now, without waiting. */
bool session_reader_room(struct perf_session *s);
/* The slot filled: hand it to the delivering thread. */
void session_reader_push(struct perf_session *s);
/*
 * On the reader thread, for records already pinned and aligned: how
 * many of up to @want slots are free, waiting for one if @wait (0 only
 * without it); -ECANCELED when the callback stopped the pass.
 * *bytes_left: record bytes the ring takes before it is full.  The
 * slots are session_reader_slot_at() 0 to n - 1, handed over together
 * by session_reader_push_n() with their records' @bytes.
 */
int session_reader_reserve(struct perf_session *s, u32 want, bool wait,
			   u64 *bytes_left);
struct session_held *session_reader_slot_at(struct perf_session *s, u32 i);
void session_reader_push_n(struct perf_session *s, u32 n, u64 bytes);
/*
 * Wait until every delivery pushed was delivered, before the session
 * changes under the callback (a header record's attrs, names, times of
 * day); -ECANCELED when the callback stopped the pass.
 */
int session_reader_drain(struct perf_session *s);

#endif /* __PERF_UTIL_SESSION_INTERNAL_H */
