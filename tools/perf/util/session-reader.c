// SPDX-License-Identifier: GPL-2.0
/*
 * A pass over a file's records on two threads.  A reader thread reads
 * the records, queues and sorts them into time order and finds their
 * attrs, into a ring of records held where they lie.  The thread that
 * asked for the pass decodes each and runs the command's callback on
 * it, in the ring's order, which is the order one thread delivers them
 * in.  The callback sees the same records, samples and session: where
 * a header record is about to change the session (attrs' names, build
 * ids, times of day), the reader first waits until every record one
 * thread would have delivered before it was delivered.
 *
 * Each side sleeps only when it has nothing to do, and wakes the other
 * only when that one has a good part of the ring to work on: a wake-up
 * per record would cost more than the record.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include "arena.h"
#include "session-internal.h"

#define READER_SLOTS	65536U		/* a power of 2 */

unsigned int session_reader_slots = READER_SLOTS;
/* Record bytes in the ring at most: they pin the read buffer. */
#define READER_BYTES	(4U << 20)
/*
 * Each side tells the other how far it got every this many records,
 * and looks then whether the other sleeps: a cache line that moves
 * between the CPUs with every record would cost more than the record.
 */
#define READER_BATCH	32U
#define CACHE_LINE	64	/* struct reader_progress is aligned to it */

/*
 * How far a side got: records (ring slots) and their bytes.  Each copy
 * of it has a cache line of its own, so that one side's writes do not
 * take the other's line away.
 */
struct reader_progress {
	u32 slots;
	u64 bytes;
} __aligned(CACHE_LINE);

struct session_reader {
	struct session_held *slots;
	u32 nr_slots;			/* a power of 2 */
	const struct session_pass_ops *ops;
	perf_session_event_fn fn;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool reader_waits;		/* for room, or for a drain */
	bool deliverer_waits;		/* for records */
	bool done;			/* the reader has finished: ret */
	bool stop;			/* the callback stopped the pass */
	int ret;
	/* As each side told the other. */
	struct reader_progress filled;	/* by the reader */
	struct reader_progress taken;	/* by the delivering thread */
	/* The reader thread's own: how far it got, and saw the other. */
	struct reader_progress r_filled;
	struct reader_progress r_taken;
	u32 r_polls;			/* session_reader_room() calls */
	struct session_block *copies;
	/* The delivering thread's own. */
	struct reader_progress d_taken;
	struct reader_progress d_filled;
};

/*
 * One side tells the other it sleeps.  The flags, and how far each side
 * got, are stored and read in one total order (seq_cst): either the side
 * going to sleep sees the other's progress, or the other sees its flag
 * and wakes it.
 */
static void set_flag(bool *flag, bool v)
{
	__atomic_store_n(flag, v, __ATOMIC_SEQ_CST);
}

static bool get_flag(const bool *flag)
{
	return __atomic_load_n(flag, __ATOMIC_SEQ_CST);
}

static void wake(struct session_reader *r)
{
	pthread_mutex_lock(&r->lock);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

/* ---- the reader thread's side ---- */

/* What the deliverer said it took, read again. */
static void reader_see_taken(struct session_reader *r)
{
	r->r_taken.slots = __atomic_load_n(&r->taken.slots, __ATOMIC_SEQ_CST);
	r->r_taken.bytes = __atomic_load_n(&r->taken.bytes, __ATOMIC_RELAXED);
}

static bool has_room(struct session_reader *r)
{
	return r->r_filled.slots - r->r_taken.slots < r->nr_slots &&
	       r->r_filled.bytes - r->r_taken.bytes < READER_BYTES;
}

static bool room_seen(struct session_reader *r)
{
	reader_see_taken(r);
	return has_room(r);
}

static bool drained(struct session_reader *r)
{
	reader_see_taken(r);
	return r->r_taken.slots == r->r_filled.slots;
}

/* The slots filled so far go to the deliverer (and the bytes first). */
static void reader_publish(struct session_reader *r)
{
	__atomic_store_n(&r->filled.bytes, r->r_filled.bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&r->filled.slots, r->r_filled.slots, __ATOMIC_SEQ_CST);
}

/* A pause in a loop that polls. */
static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * A while of polling before sleeping: a sleeping virtual CPU costs its
 * host a halt and a wake-up, more than the other side takes to free a
 * batch.
 */
#define READER_SPINS	20000U

/*
 * One side waits until @ready, or until @end is set.  It raises @waits
 * while it sleeps, and wakes the other side if that one sleeps too
 * (on @other_waits): the other may be waiting for this one's progress.
 */
static void side_wait(struct session_reader *r,
		      bool (*ready)(struct session_reader *r), const bool *end,
		      bool *waits, const bool *other_waits)
{
	u32 i;

	for (i = 0; i < READER_SPINS; i++) {
		if (ready(r) || __atomic_load_n(end, __ATOMIC_ACQUIRE))
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&r->lock);
	set_flag(waits, true);
	while (!ready(r) && !get_flag(end)) {
		if (get_flag(other_waits))
			pthread_cond_broadcast(&r->cond);
		pthread_cond_wait(&r->cond, &r->lock);
	}
	set_flag(waits, false);
	pthread_mutex_unlock(&r->lock);
}

/*
 * The reader waits until @ready (or a stop); true when stopped.  The
 * deliverer gets every slot filled first.
 */
static bool reader_wait(struct session_reader *r,
			bool (*ready)(struct session_reader *r))
{
	reader_publish(r);
	side_wait(r, ready, &r->stop, &r->reader_waits, &r->deliverer_waits);
	return get_flag(&r->stop);
}

struct session_held *session_reader_slot(struct perf_session *s,
					 struct session_block ***copies)
{
	struct session_reader *r = s->reader;

	if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED) ||
	    (!has_room(r) && !room_seen(r) && reader_wait(r, room_seen)))
		return NULL;
	*copies = &r->copies;
	return &r->slots[r->r_filled.slots & (r->nr_slots - 1)];
}

bool session_reader_room(struct perf_session *s)
{
	struct session_reader *r = s->reader;

	if (has_room(r))
		return true;
	/* Asked with every record read: the other side's line now and then. */
	return !(++r->r_polls % READER_BATCH) && room_seen(r);
}

void session_reader_push(struct perf_session *s)
{
	struct session_reader *r = s->reader;
	const struct session_held *d;

	d = &r->slots[r->r_filled.slots & (r->nr_slots - 1)];
	session_reader_push_n(s, 1, d->ev->header.size);
}

int session_reader_drain(struct perf_session *s)
{
	return reader_wait(s->reader, drained) ? -ECANCELED : 0;
}

int session_reader_reserve(struct perf_session *s, u32 want, bool wait,
			   u64 *bytes_left)
{
	struct session_reader *r = s->reader;
	u32 free_slots;

	if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
		return -ECANCELED;
	if (!has_room(r) && !room_seen(r) &&
	    (!wait || reader_wait(r, room_seen)))
		return wait ? -ECANCELED : 0;
	/* Few free: see what the other side took since. */
	if (r->nr_slots - (r->r_filled.slots - r->r_taken.slots) < want)
		reader_see_taken(r);
	free_slots = r->nr_slots - (r->r_filled.slots - r->r_taken.slots);
	*bytes_left = READER_BYTES - (r->r_filled.bytes - r->r_taken.bytes);
	return want < free_slots ? want : free_slots;
}

struct session_held *session_reader_slot_at(struct perf_session *s, u32 i)
{
	struct session_reader *r = s->reader;

	return &r->slots[(r->r_filled.slots + i) & (r->nr_slots - 1)];
}

void session_reader_push_n(struct perf_session *s, u32 n, u64 bytes)
{
	struct session_reader *r = s->reader;
	u32 queued, before = r->r_filled.slots;

	r->r_filled.bytes += bytes;
	r->r_filled.slots += n;
	if (before / READER_BATCH == r->r_filled.slots / READER_BATCH)
		return;
	reader_publish(r);
	if (!get_flag(&r->deliverer_waits))
		return;
	reader_see_taken(r);
	queued = r->r_filled.slots - r->r_taken.slots;
	if (queued >= r->nr_slots / 4 ||
	    r->r_filled.bytes - r->r_taken.bytes >= READER_BYTES / 4)
		wake(r);
}


static void *reader_main(void *arg)
{
	struct perf_session *s = arg;
	struct session_reader *r = s->reader;
	int ret = session_read_records(s, r->ops, r->fn, r->ctx);

	reader_publish(r);
	pthread_mutex_lock(&r->lock);
	r->ret = ret;
	set_flag(&r->done, true);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

/* ---- the delivering thread's side ---- */

static void deliverer_publish(struct session_reader *r)
{
	__atomic_store_n(&r->taken.bytes, r->d_taken.bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&r->taken.slots, r->d_taken.slots, __ATOMIC_SEQ_CST);
}

static bool records_seen(struct session_reader *r)
{
	r->d_filled.slots = __atomic_load_n(&r->filled.slots, __ATOMIC_SEQ_CST);
	return r->d_filled.slots != r->d_taken.slots;
}

/*
 * The deliverer waits for records: true when there will be none, the
 * reader having finished (it tells how far it got before it says so).
 * A reader waiting for a drain or for room is told how far delivery
 * got first.
 */
static bool deliverer_wait(struct session_reader *r)
{
	deliverer_publish(r);
	side_wait(r, records_seen, &r->done, &r->deliverer_waits,
		  &r->reader_waits);
	return !records_seen(r);
}

/* Every batch: how far delivery got; a reader waiting for room wakes. */
static void deliverer_batch_done(struct session_reader *r)
{
	deliverer_publish(r);
	if (get_flag(&r->reader_waits) &&
	    r->d_filled.slots - r->d_taken.slots <= r->nr_slots / 2 &&
	    __atomic_load_n(&r->filled.bytes, __ATOMIC_RELAXED) -
	    r->d_taken.bytes <= READER_BYTES / 2)
		wake(r);
}

/* Pins of one block, put together when the records move on from it. */
struct pin_batch {
	struct session_block *block;
	u32 n;
};

static void batch_put(struct perf_session *s, struct pin_batch *b,
		      struct session_block *block)
{
	if (block == b->block) {
		b->n++;
		return;
	}
	session_block_put_n(s, b->block, b->n);
	b->block = block;
	b->n = 1;
}

static void batch_flush(struct perf_session *s, struct pin_batch *b)
{
	session_block_put_n(s, b->block, b->n);
	b->block = NULL;
	b->n = 0;
}

/*
 * One delivery, by the callback; its slot is free after it, but for a
 * record that does not decode: *bad, the slot kept for the message.
 */
static int deliver_one(struct perf_session *s, struct session_reader *r,
		       struct pin_batch *pins, bool *bad)
{
	const struct session_held *h;
	int ret;

	h = &r->slots[r->d_taken.slots & (r->nr_slots - 1)];
	ret = session_deliver_held(s, h, r->fn, r->ctx, bad);
	if (*bad)
		return ret;
	r->d_taken.bytes += h->ev->header.size;
	batch_put(s, pins, h->block);
	r->d_taken.slots++;
	return ret;
}

static int deliver_all(struct perf_session *s, struct session_reader *r,
		       bool *bad)
{
	struct pin_batch pins = { NULL, 0 };
	int ret = 0;

	*bad = false;
	for (;;) {
		if (r->d_filled.slots == r->d_taken.slots && !records_seen(r)) {
			batch_flush(s, &pins);
			if (deliverer_wait(r))
				break;
		}
		ret = deliver_one(s, r, &pins, bad);
		if (ret)
			break;
		if (!(r->d_taken.slots % READER_BATCH))
			deliverer_batch_done(r);
	}
	batch_flush(s, &pins);
	deliverer_publish(r);
	if (ret) {
		pthread_mutex_lock(&r->lock);
		set_flag(&r->stop, true);
		pthread_cond_broadcast(&r->cond);
		pthread_mutex_unlock(&r->lock);
	}
	return ret;
}

/*
 * PERF_READER_THREAD=0: never; =1: every pass over a file, whatever the
 * command chose (tests compare the two); else the command's choice.
 */
bool session_reader_wanted(const struct perf_session *s)
{
	const char *env = getenv("PERF_READER_THREAD");
	enum perf_session_reader mode = s->reader_thread;
	cpu_set_t cpus;

	if (env && !strcmp(env, "0"))
		mode = PERF_SESSION_READER_OFF;
	else if (env && !strcmp(env, "1"))
		mode = PERF_SESSION_READER_ON;
	/* A stream's header records change the session as they come. */
	if (s->stream || s->pipe || mode == PERF_SESSION_READER_OFF)
		return false;
	if (mode == PERF_SESSION_READER_ON)
		return true;
	/* Pinned to one CPU, the second thread would only take turns. */
	return !sched_getaffinity(0, sizeof(cpus), &cpus) &&
	       CPU_COUNT(&cpus) > 1;
}

static struct session_reader *reader_new(const struct session_pass_ops *ops,
					 perf_session_event_fn fn, void *ctx)
{
	struct session_reader *r;

	if (posix_memalign((void **)&r, CACHE_LINE, sizeof(*r)))
		return NULL;
	memset(r, 0, sizeof(*r));
	r->nr_slots = session_reader_slots;
	r->slots = big_zalloc(r->nr_slots * sizeof(*r->slots));
	if (!r->slots) {
		free(r);
		return NULL;
	}
	r->ops = ops;
	r->fn = fn;
	r->ctx = ctx;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	return r;
}

static void reader_delete(struct perf_session *s, struct session_reader *r)
{
	/* Records a stop left in the ring still pin their blocks. */
	for (; r->d_taken.slots != r->r_filled.slots; r->d_taken.slots++)
		session_block_put(s, r->slots[r->d_taken.slots &
					      (r->nr_slots - 1)].block);
	session_block_put(s, r->copies);
	s->reader = NULL;
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	big_free(r->slots, r->nr_slots * sizeof(*r->slots));
	free(r);
}

/* Signals are the caller's thread's to take, as without the reader. */
static int reader_start(struct perf_session *s, struct session_reader *r)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->reader = r;
	err = pthread_create(&r->thread, NULL, reader_main, s);
	if (err)
		s->reader = NULL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

int session_reader_pass(struct perf_session *s,
			const struct session_pass_ops *ops,
			perf_session_event_fn fn, void *ctx)
{
	struct session_reader *r = reader_new(ops, fn, ctx);
	const struct session_held *h;
	bool bad;
	int ret;

	if (r && reader_start(s, r)) {
		reader_delete(s, r);
		r = NULL;
	}
	/* Without a thread, the pass is read on this one. */
	if (!r)
		return session_read_records(s, ops, fn, ctx);
	ret = deliver_all(s, r, &bad);
	pthread_join(r->thread, NULL);
	/* The first error met in delivery order is the one to tell. */
	if (bad) {
		h = &r->slots[r->d_taken.slots & (r->nr_slots - 1)];
		ret = session_decode_error(s, h->pos, h->ev, ret);
	}
	if (!ret)
		ret = r->ret;
	reader_delete(s, r);
	return ret;
}
