// SPDX-License-Identifier: GPL-2.0
/*
 * Delivery on a second thread, for passes in time order.
 *
 * The reading thread does all that the serial pass does up to the
 * tool's callback: it reads, orders, decodes and counts each record in
 * the order the serial pass would deliver it, and appends the record
 * and its decoded sample to a block.  The delivery thread calls the
 * callback for each, block after block.  So the callback sees the same
 * records, samples and attrs in the same order as in a serial pass,
 * while reading and ordering the next records take the other CPU.
 *
 * The callback touches the session only to read it.  What changes the
 * session while records are read (an attr, a feature, a tracing data,
 * a time-of-day point) waits until the delivery thread has caught up,
 * as does a record with a payload (delivered as it is, in place).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "session-internal.h"

#define BLOCK_SIZE	(512U << 10)
#define MAX_IN_FLIGHT	8		/* blocks handed over, not returned */

struct block {
	struct block *next;
	size_t used;
	u64 first;			/* the number of its first item */
	u8 data[];
};

/* One record, its sample when it has one, and what the callback gets. */
struct item {
	u32 size;			/* of the item, record included */
	u32 with_sample;
	u64 offset;			/* as the callback shows it */
	struct perf_session_attr *attr;
	struct perf_sample sample;
	u64 rec[];			/* the record, 8-byte aligned */
};

struct session_pipeline {
	struct perf_session *s;
	perf_session_event_fn fn;
	void *ctx;
	pthread_t thread;

	pthread_mutex_t lock;
	pthread_cond_t more;		/* to the delivery thread */
	pthread_cond_t returned;	/* to the reading thread */
	struct block *full, **full_tail;
	struct block *free;
	u32 in_flight;
	bool closing;
	/* The first callback failure: its result, the items before it. */
	int failed;
	u64 failed_at;

	/*
	 * Samples of each attr, counted apart from the attrs: a write to
	 * an attr's lines for every sample, which the delivery thread
	 * reads for every sample, took a tenth of its time.
	 */
	u64 *nr_samples;
	u32 nr_attrs;

	struct block *cur;		/* being filled (reading thread) */
	u64 nr_items;			/* appended so far */
	bool stopped;			/* failed was passed on */
	bool own_error;			/* the reading side failed itself */
	u64 own_error_at;
};

/*
 * What the delivery thread needs, copied: it reads nothing of the pipeline
 * but under its lock, while the reading thread writes to it per record.
 */
struct delivery {
	struct perf_session *s;
	perf_session_event_fn fn;
	void *ctx;
	int failed;
	u64 failed_at;
};

/* Call the callback for each item, until one fails. */
static void deliver_block(struct delivery *d, const struct block *b)
{
	u64 nr = b->first;
	size_t off = 0;

	for (; off < b->used && !d->failed; nr++) {
		const struct item *it = (const struct item *)(b->data + off);
		int ret = d->fn(d->s, (const union perf_event *)it->rec,
				it->offset, it->with_sample ? &it->sample : NULL,
				it->attr, d->ctx);

		if (ret) {
			d->failed = ret;
			d->failed_at = nr;
		}
		off += it->size;
	}
}

static void *delivery_thread(void *arg)
{
	struct session_pipeline *p = arg;
	struct delivery d = { 0 };

	pthread_mutex_lock(&p->lock);
	d.s = p->s;
	d.fn = p->fn;
	d.ctx = p->ctx;
	for (;;) {
		struct block *b;

		while (!p->full && !p->closing)
			pthread_cond_wait(&p->more, &p->lock);
		b = p->full;
		if (!b)
			break;
		p->full = b->next;
		if (!p->full)
			p->full_tail = &p->full;
		pthread_mutex_unlock(&p->lock);

		deliver_block(&d, b);

		pthread_mutex_lock(&p->lock);
		if (d.failed && !p->failed) {
			p->failed = d.failed;
			p->failed_at = d.failed_at;
		}
		b->next = p->free;
		p->free = b;
		p->in_flight--;
		pthread_cond_signal(&p->returned);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* How many CPUs this process may run on. */
static int usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set);
}

/*
 * PERF_DELIVERY_THREAD=0 keeps every pass serial, =1 uses the thread
 * even on one CPU (tests compare the two); by default it is used where
 * two CPUs are there to run it.
 */
static bool wanted(void)
{
	const char *env = getenv("PERF_DELIVERY_THREAD");

	if (env && *env)
		return strcmp(env, "0") != 0;
	return usable_cpus() > 1;
}

int pipeline_start(struct perf_session *s, perf_session_event_fn fn,
		   void *ctx)
{
	struct session_pipeline *p;

	if (!s->delivery_thread || !wanted())
		return 0;
	p = calloc(1, sizeof(*p));
	if (p)
		p->nr_samples = calloc(s->nr_attrs_pass + 1,
				       sizeof(*p->nr_samples));
	if (!p || !p->nr_samples) {
		free(p);
		return -ENOMEM;
	}
	p->nr_attrs = s->nr_attrs_pass;
	p->s = s;
	p->fn = fn;
	p->ctx = ctx;
	p->full_tail = &p->full;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->more, NULL);
	pthread_cond_init(&p->returned, NULL);
	if (pthread_create(&p->thread, NULL, delivery_thread, p)) {
		/* No thread: the pass is serial, as it would be on one CPU. */
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->more);
		pthread_cond_destroy(&p->returned);
		free(p->nr_samples);
		free(p);
		return 0;
	}
	s->pipeline = p;
	return 0;
}

/* Hand the block being filled over; the first callback failure, or 0. */
static int hand_over(struct session_pipeline *p)
{
	struct block *b = p->cur;
	int failed;

	pthread_mutex_lock(&p->lock);
	if (b && b->used) {
		b->next = NULL;
		*p->full_tail = b;
		p->full_tail = &b->next;
		p->in_flight++;
		p->cur = NULL;
		pthread_cond_signal(&p->more);
	}
	failed = p->failed;
	pthread_mutex_unlock(&p->lock);
	if (failed)
		p->stopped = true;
	return failed;
}

/* An empty block to fill, once fewer than MAX_IN_FLIGHT are out. */
static int next_block(struct session_pipeline *p)
{
	struct block *b;

	pthread_mutex_lock(&p->lock);
	while (p->in_flight >= MAX_IN_FLIGHT && !p->failed)
		pthread_cond_wait(&p->returned, &p->lock);
	b = p->free;
	if (b)
		p->free = b->next;
	pthread_mutex_unlock(&p->lock);
	if (!b)
		b = malloc(sizeof(*b) + BLOCK_SIZE);
	if (!b)
		return -ENOMEM;
	b->used = 0;
	b->first = p->nr_items;
	p->cur = b;
	return 0;
}

/* Room for an item of @size bytes in the block being filled. */
static int reserve(struct session_pipeline *p, size_t size,
		   struct item **it)
{
	int ret;

	if (!p->cur || p->cur->used + size > BLOCK_SIZE) {
		ret = hand_over(p);
		if (!ret)
			ret = next_block(p);
		if (ret)
			return ret;
	}
	*it = (struct item *)(p->cur->data + p->cur->used);
	return 0;
}

int pipeline_drain(struct perf_session *s)
{
	struct session_pipeline *p = s->pipeline;
	int failed;

	if (!p)
		return 0;
	failed = hand_over(p);
	pthread_mutex_lock(&p->lock);
	while (p->in_flight && !p->failed)
		pthread_cond_wait(&p->returned, &p->lock);
	failed = p->failed;
	pthread_mutex_unlock(&p->lock);
	if (failed)
		p->stopped = true;
	return failed;
}

/* A record with a payload, delivered in place once the thread is idle. */
static int deliver_in_place(struct perf_session *s, const u8 *rec, u64 pos)
{
	struct session_pipeline *p = s->pipeline;
	const union perf_event *ev = session_aligned(s, rec);
	struct perf_session_attr *attr;
	struct perf_sample sample;
	int ret = pipeline_drain(s);

	if (ret)
		return ret;
	/* Kernel records have no payload: this one's fn gets no sample. */
	session_prepare(s, ev, pos, &sample, &attr);
	ret = p->fn(s, ev, session_shown_offset(s, pos), NULL, NULL, p->ctx);
	if (ret) {
		/* Failed as a callback on the thread would, at this item. */
		pthread_mutex_lock(&p->lock);
		p->failed = ret;
		p->failed_at = p->nr_items;
		pthread_mutex_unlock(&p->lock);
		p->stopped = true;
	}
	p->nr_items++;
	return ret;
}

int pipeline_deliver(struct perf_session *s, const u8 *rec, u64 pos)
{
	const struct perf_counter_header h = session_rec_header(rec);
	struct session_pipeline *p = s->pipeline;
	size_t size = sizeof(struct item) + PERF_ALIGN8(h.size);
	struct item *it;
	int ret;

	if (h.type >= PERF_RECORD_USER_TYPE_START &&
	    session_payload_size(rec))
		return deliver_in_place(s, rec, pos);
	ret = reserve(p, size, &it);
	if (ret)
		return ret;
	memcpy(it->rec, rec, h.size);
	ret = session_prepare(s, (const union perf_event *)it->rec, pos,
			      &it->sample, &it->attr);
	if (ret < 0)
		return ret;
	it->size = size;
	it->with_sample = !ret;
	it->offset = session_shown_offset(s, pos);
	p->cur->used += size;
	p->nr_items++;
	return 0;
}

void pipeline_count_sample(struct perf_session *s, int idx)
{
	s->pipeline->nr_samples[idx]++;
}

void pipeline_note_error(struct perf_session *s, int ret)
{
	struct session_pipeline *p = s->pipeline;

	if (!p || !ret || p->stopped || p->own_error)
		return;
	p->own_error = true;
	p->own_error_at = p->nr_items;
}

/*
 * Wait for the thread to deliver all, and end it.  The result is the
 * serial pass's: a callback's failure, unless the reading side failed
 * before the record it failed at (then what was read after that
 * record, and its error, would not have been read at all).
 */
int pipeline_finish(struct perf_session *s, int ret)
{
	struct session_pipeline *p = s->pipeline;
	struct block *b;
	u32 i;

	if (!p)
		return ret;
	hand_over(p);
	pthread_mutex_lock(&p->lock);
	p->closing = true;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	if (p->failed && (!p->own_error || p->failed_at < p->own_error_at)) {
		s->errmsg[0] = '\0';
		ret = p->failed;
	}
	for (i = 0; i < p->nr_attrs; i++)
		s->attrs[i].nr_samples += p->nr_samples[i];
	free(p->nr_samples);
	free(p->cur);
	while ((b = p->free)) {
		p->free = b->next;
		free(b);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->more);
	pthread_cond_destroy(&p->returned);
	free(p);
	s->pipeline = NULL;
	return ret;
}
