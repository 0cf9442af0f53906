// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's store: per-CPU chains of chunks of records,
 * bounded in time and bytes, and the table of the tasks at the start
 * of what is kept (see flight-store.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "event.h"
#include "flight-store.h"

/* A chunk must hold any record: header.size is a u16. */
#define CHUNK_MIN	(128U << 10)
#define CHUNK_MAX	(4U << 20)

struct flight_chunk {
	struct flight_chunk *prev, *next;	/* all chunks, by age */
	struct flight_chunk *cpu_next;		/* the CPU's next chunk */
	u64 first, last;			/* record times */
	u32 cpu;
	u32 used;				/* bytes of records */
	u32 cap;
	u32 pad;
	u64 data[];
};

u64 flight_store__min_bytes(u32 nr_cpus)
{
	return (2ULL * nr_cpus + 1) * CHUNK_MIN;
}

/* Four chunks a CPU fit in the budget; a power of two, in bounds. */
static size_t pick_chunk_size(u64 max_bytes, u32 nr_cpus)
{
	u64 want = max_bytes / (4ULL * nr_cpus);
	size_t size = CHUNK_MIN;

	while (size < CHUNK_MAX && size * 2 <= want)
		size *= 2;
	return size;
}

/*
 * The u64 index of the time and the CPU: in a SAMPLE counted from the
 * start (the header is index 0), in the sample_id trailer of other
 * records counted back from the end.  Sample fields come in the order
 * IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU; trailer fields
 * in the order TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER.
 */
static void find_fields(struct flight_store *st, u64 t)
{
	int before_time = 1 + !!(t & PERF_SAMPLE_IDENTIFIER) +
			  !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID);
	int trailer = perf_sample_id_size(t) / sizeof(u64);
	int has_time = !!(t & PERF_SAMPLE_TIME);
	int mid = !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID);

	st->sample_time = has_time ? before_time : -1;
	st->sample_cpu = -1;
	st->id_time = has_time ? trailer - !!(t & PERF_SAMPLE_TID) : -1;
	st->id_cpu = -1;
	if (!(t & PERF_SAMPLE_CPU))
		return;
	st->sample_cpu = before_time + has_time + !!(t & PERF_SAMPLE_ADDR) +
			 mid;
	st->id_cpu = trailer - !!(t & PERF_SAMPLE_TID) - has_time - mid;
}

int flight_store__init(struct flight_store *st, u64 sample_type,
		       u32 nr_cpus, u64 max_bytes, u64 window_ns)
{
	memset(st, 0, sizeof(*st));
	if (!nr_cpus || max_bytes < flight_store__min_bytes(nr_cpus))
		return -EINVAL;
	st->max_bytes = max_bytes;
	st->window_ns = window_ns;
	st->nr_cpus = nr_cpus;
	st->chunk_size = pick_chunk_size(max_bytes, nr_cpus);
	find_fields(st, sample_type);
	st->newest = calloc(nr_cpus, sizeof(*st->newest));
	st->oldest = calloc(nr_cpus, sizeof(*st->oldest));
	st->threads_mask = 1023;
	st->threads = calloc(st->threads_mask + 1, sizeof(*st->threads));
	if (!st->newest || !st->oldest || !st->threads) {
		flight_store__exit(st);
		return -ENOMEM;
	}
	return 0;
}

/* Where record @h belongs: its time and CPU. */
static void record_place(const struct flight_store *st,
			 const struct perf_counter_header *h, u64 *time,
			 u32 *cpu)
{
	const u64 *p = (const u64 *)h;
	int n = h->size / sizeof(u64), t, c;

	if (h->type == PERF_RECORD_SAMPLE) {
		t = st->sample_time;
		c = st->sample_cpu;
	} else {
		t = st->id_time < 0 ? -1 : n - st->id_time;
		c = st->id_cpu < 0 ? -1 : n - st->id_cpu;
	}
	*time = t > 0 && t < n ? p[t] : st->latest;
	*cpu = c > 0 && c < n ? (u32)p[c] : 0;
	if (*cpu >= st->nr_cpus)
		*cpu = 0;
}

/* ---- the table of threads ---- */

static u32 tid_hash(u32 tid, u32 mask)
{
	return (tid * 2654435761U) & mask;
}

static struct flight_thread *thread_slot(const struct flight_store *st,
					 u32 tid)
{
	u32 i = tid_hash(tid, st->threads_mask);

	while (st->threads[i].tid && st->threads[i].tid != tid)
		i = (i + 1) & st->threads_mask;
	return &st->threads[i];
}

static int threads_grow(struct flight_store *st)
{
	struct flight_thread *old = st->threads;
	u32 i, n = st->threads_mask + 1;

	st->threads = calloc(2 * n, sizeof(*old));
	if (!st->threads) {
		st->threads = old;
		return -ENOMEM;
	}
	st->threads_mask = 2 * n - 1;
	for (i = 0; i < n; i++)
		if (old[i].tid)
			*thread_slot(st, old[i].tid) = old[i];
	free(old);
	return 0;
}

/* Name thread @tid of process @pid; a NULL @comm keeps the old name. */
static int thread_set(struct flight_store *st, u32 pid, u32 tid,
		      const char *comm)
{
	struct flight_thread *t;

	if (!tid)
		return 0;	/* the idle tasks have no COMM */
	if (2 * (st->nr_threads + 1) > st->threads_mask + 1 &&
	    threads_grow(st))
		return -ENOMEM;
	t = thread_slot(st, tid);
	if (!t->tid) {
		st->nr_threads++;
		memset(t, 0, sizeof(*t));
		t->tid = tid;
	}
	t->pid = pid;
	if (comm)
		strncpy(t->comm, comm, sizeof(t->comm) - 1);
	return 0;
}

/* Linear probing: later entries of the run move back into the hole. */
static void thread_del(struct flight_store *st, u32 tid)
{
	u32 mask = st->threads_mask, i, j, k;
	struct flight_thread *t = thread_slot(st, tid);

	if (!t->tid)
		return;
	st->nr_threads--;
	i = t - st->threads;
	for (j = i;;) {
		j = (j + 1) & mask;
		if (!st->threads[j].tid)
			break;
		k = tid_hash(st->threads[j].tid, mask);
		/* Stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		st->threads[i] = st->threads[j];
		i = j;
	}
	st->threads[i].tid = 0;
}

static void apply_fork(struct flight_store *st, const struct perf_record_fork *f)
{
	const struct flight_thread *parent = thread_slot(st, f->ptid);
	char comm[16] = "";

	if (parent->tid)
		memcpy(comm, parent->comm, sizeof(comm));
	thread_set(st, f->pid, f->tid, comm);
}

/* What a record about a task changes in the table. */
static void apply_record(struct flight_store *st,
			 const struct perf_counter_header *h)
{
	const union perf_event *ev = (const void *)h;

	switch (h->type) {
	case PERF_RECORD_COMM:
		thread_set(st, ev->comm.pid, ev->comm.tid, ev->comm.comm);
		break;
	case PERF_RECORD_FORK:
		apply_fork(st, &ev->fork);
		break;
	case PERF_RECORD_EXIT:
		thread_del(st, ev->fork.tid);
		break;
	default:
		break;
	}
}

int flight_store__seed(void *ctx, const void *rec, size_t len)
{
	(void)len;
	apply_record(ctx, rec);
	return 0;
}

/* ---- chunks ---- */

static void apply_chunk(struct flight_store *st, const struct flight_chunk *c)
{
	u32 off = 0;

	while (off < c->used) {
		const struct perf_counter_header *h =
			(const void *)((const u8 *)c->data + off);

		apply_record(st, h);
		off += PERF_ALIGN8(h->size);
	}
}

static void chunk_unmap(struct flight_store *st, struct flight_chunk *c)
{
	munmap(c, st->chunk_size);
	st->bytes -= st->chunk_size;
}

/* Drop the oldest chunk of its CPU: its tasks go to the table first. */
static void drop(struct flight_store *st, struct flight_chunk *c)
{
	apply_chunk(st, c);
	if (c->prev)
		c->prev->next = c->next;
	else
		st->first = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		st->last = c->prev;
	st->oldest[c->cpu] = c->cpu_next;
	if (st->newest[c->cpu] == c)
		st->newest[c->cpu] = NULL;
	if (st->spare)
		chunk_unmap(st, c);
	else
		st->spare = c;
}

/* A chunk within the budget, dropping the oldest ones for it. */
static struct flight_chunk *get_chunk(struct flight_store *st)
{
	struct flight_chunk *c;

	while (!st->spare && st->first &&
	       st->bytes + st->chunk_size > st->max_bytes) {
		drop(st, st->first);
		st->stats.dropped_size++;
	}
	if (st->spare) {
		c = st->spare;
		st->spare = NULL;
		return c;
	}
	c = mmap(NULL, st->chunk_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return NULL;
	st->bytes += st->chunk_size;
	return c;
}

static struct flight_chunk *new_chunk(struct flight_store *st, u32 cpu)
{
	struct flight_chunk *c = get_chunk(st);

	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->cap = st->chunk_size - sizeof(*c);
	c->prev = st->last;
	if (st->last)
		st->last->next = c;
	else
		st->first = c;
	st->last = c;
	if (st->newest[cpu])
		st->newest[cpu]->cpu_next = c;
	else
		st->oldest[cpu] = c;
	st->newest[cpu] = c;
	return c;
}

int flight_store__add(struct flight_store *st,
		      const struct perf_counter_header *h)
{
	u32 size = PERF_ALIGN8(h->size), cpu;
	struct flight_chunk *c;
	u64 time;

	record_place(st, h, &time, &cpu);
	c = st->newest[cpu];
	if (!c || c->used + size > c->cap)
		c = new_chunk(st, cpu);
	if (!c)
		return -ENOMEM;
	memcpy((u8 *)c->data + c->used, h, h->size);
	c->used += size;
	if (!c->first)
		c->first = time;
	if (time < c->last)
		st->stats.too_late++;
	else
		c->last = time;
	if (time > st->latest)
		st->latest = time;
	st->stats.records++;
	return 0;
}

void flight_store__prune(struct flight_store *st, u64 now)
{
	u64 from = now > st->window_ns ? now - st->window_ns : 0;
	u32 cpu;

	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		while (st->oldest[cpu] && st->oldest[cpu]->last < from) {
			drop(st, st->oldest[cpu]);
			st->stats.dropped_time++;
		}
	}
}

void flight_store__exit(struct flight_store *st)
{
	struct flight_chunk *c, *next;

	for (c = st->first; c; c = next) {
		next = c->next;
		chunk_unmap(st, c);
	}
	if (st->spare)
		chunk_unmap(st, st->spare);
	free(st->newest);
	free(st->oldest);
	free(st->threads);
	memset(st, 0, sizeof(*st));
}

/* ---- walking ---- */

/* A CPU's place in the merge: its current record and that one's time. */
struct cursor {
	const struct flight_chunk *c;
	u32 off;
	u32 cpu;
	u64 time;
	const struct perf_counter_header *h;
};

static bool cursor_load(const struct flight_store *st, struct cursor *k)
{
	u32 cpu;

	while (k->c && k->off >= k->c->used) {
		k->c = k->c->cpu_next;
		k->off = 0;
	}
	if (!k->c)
		return false;
	k->h = (const void *)((const u8 *)k->c->data + k->off);
	record_place(st, k->h, &k->time, &cpu);
	return true;
}

static bool cursor_before(const struct cursor *a, const struct cursor *b)
{
	return a->time < b->time || (a->time == b->time && a->cpu < b->cpu);
}

/* Restore the heap order below slot i of heap[n]. */
static void sift_down(struct cursor *heap, u32 n, u32 i)
{
	for (;;) {
		u32 l = 2 * i + 1, m = i;
		struct cursor tmp;

		if (l < n && cursor_before(&heap[l], &heap[m]))
			m = l;
		if (l + 1 < n && cursor_before(&heap[l + 1], &heap[m]))
			m = l + 1;
		if (m == i)
			return;
		tmp = heap[i];
		heap[i] = heap[m];
		heap[m] = tmp;
		i = m;
	}
}

static u32 heap_build(const struct flight_store *st, struct cursor *heap)
{
	u32 cpu, n = 0, i;

	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		heap[n] = (struct cursor){ .c = st->oldest[cpu], .cpu = cpu };
		if (cursor_load(st, &heap[n]))
			n++;
	}
	for (i = n / 2; i-- > 0;)
		sift_down(heap, n, i);
	return n;
}

int flight_store__for_each(const struct flight_store *st, u64 from,
			   flight_record_fn fn, void *ctx)
{
	struct cursor *heap = calloc(st->nr_cpus, sizeof(*heap));
	u32 n;
	int ret = 0;

	if (!heap)
		return -ENOMEM;
	n = heap_build(st, heap);
	while (n && !ret) {
		struct cursor *k = &heap[0];

		if (k->time >= from)
			ret = fn(ctx, k->h, k->time);
		k->off += PERF_ALIGN8(k->h->size);
		if (!cursor_load(st, k))
			heap[0] = heap[--n];
		sift_down(heap, n, 0);
	}
	free(heap);
	return ret;
}

int flight_store__walk_threads(const struct flight_store *st,
				  flight_thread_fn fn, void *ctx)
{
	u32 i;
	int ret = 0;

	for (i = 0; i <= st->threads_mask && !ret; i++)
		if (st->threads[i].tid)
			ret = fn(ctx, &st->threads[i]);
	return ret;
}
