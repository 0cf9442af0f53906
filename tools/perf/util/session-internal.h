/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SESSION_INTERNAL_H
#define __PERF_UTIL_SESSION_INTERNAL_H

/*
 * What the session reader (session.c) shares with the time-order queue
 * (ordered-events.c), and with nothing else: commands use data.h.
 */
#include <string.h>
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

/* Decode a kernel record and hand it to fn; records of perf's as is. */
int session_deliver(struct perf_session *s, const u8 *rec, u64 pos,
		    perf_session_event_fn fn, void *ctx);
/*
 * The same for a kernel record whose attr session_attr_of() found when
 * it was queued (@attr_idx, -1: none): an id keeps its attr, so the
 * answer still holds.
 */
int session_deliver_known(struct perf_session *s, const u8 *rec, u64 pos,
			  s32 attr_idx, perf_session_event_fn fn, void *ctx);
int session_decode_error(struct perf_session *s, u64 pos,
			 const union perf_event *ev, int err);
int session_attr_of(struct perf_session *s, const union perf_event *ev,
		    struct perf_session_attr **attr);
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
	struct session_block *next;	/* on the free list */
	size_t cap;
	size_t used;			/* for copies: bytes taken */
	u32 pins;
	u64 data[];
};

/* A block of at least @cap bytes, pinned once; NULL without memory. */
struct session_block *session_block_get(struct perf_session *s, size_t cap);
void session_block_put(struct perf_session *s, struct session_block *b);
/* The read buffer's block, pinned once more, if @rec lies in it. */
struct session_block *session_block_pin(struct perf_session *s,
					const u8 *rec);

void session_queue_free(struct perf_session *s);

#endif /* __PERF_UTIL_SESSION_INTERNAL_H */
