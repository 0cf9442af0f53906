// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of what perf sched daemon is built on: the flight recorder's
 * store (its bounds, its merge, its table of tasks) and the zstd
 * records of perf.data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "tests.h"
#include "../util/compress.h"
#include "../util/event.h"
#include "../util/flight-store.h"
#include "../util/header.h"

#define ST_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		 PERF_SAMPLE_CPU)
#define SEC 1000000000ULL

/* A SAMPLE of ST_TYPE: header, id, pid/tid, time, cpu. */
static void put_sample(struct perf_fbuf *b, u32 tid, u64 time, u32 cpu)
{
	struct perf_counter_header h = {
		.type = PERF_RECORD_SAMPLE, .size = 40,
	};
	u32 pt[2] = { tid, tid }, c[2] = { cpu, 0 };

	perf_fbuf__put(b, &h, sizeof(h));
	perf_fbuf__put_u64(b, 1);
	perf_fbuf__put(b, pt, sizeof(pt));
	perf_fbuf__put_u64(b, time);
	perf_fbuf__put(b, c, sizeof(c));
}

/* The sample_id trailer of ST_TYPE: tid, time, cpu, identifier. */
static void put_trailer(struct perf_fbuf *b, u32 tid, u64 time, u32 cpu)
{
	u32 pt[2] = { tid, tid }, c[2] = { cpu, 0 };

	perf_fbuf__put(b, pt, sizeof(pt));
	perf_fbuf__put_u64(b, time);
	perf_fbuf__put(b, c, sizeof(c));
	perf_fbuf__put_u64(b, 1);
}

static void put_comm(struct perf_fbuf *b, u32 pid, u32 tid, const char *comm,
		     u64 time, u32 cpu)
{
	struct perf_counter_header h = { .type = PERF_RECORD_COMM, .size = 64 };
	char name[16] = { 0 };
	u32 pt[2] = { pid, tid };

	strncpy(name, comm, sizeof(name) - 1);
	perf_fbuf__put(b, &h, sizeof(h));
	perf_fbuf__put(b, pt, sizeof(pt));
	perf_fbuf__put(b, name, sizeof(name));
	put_trailer(b, tid, time, cpu);
}

/* FORK and EXIT: pid, ppid, tid, ptid, time. */
static void put_task(struct perf_fbuf *b, u32 type, u32 pid, u32 tid,
		     u32 ptid, u64 time, u32 cpu)
{
	struct perf_counter_header h = { .type = type, .size = 64 };
	u32 ids[4] = { pid, pid, tid, ptid };

	perf_fbuf__put(b, &h, sizeof(h));
	perf_fbuf__put(b, ids, sizeof(ids));
	perf_fbuf__put_u64(b, time);
	put_trailer(b, tid, time, cpu);
}

static int add_all(struct flight_store *st, const struct perf_fbuf *b,
		   u64 *max_bytes)
{
	size_t off = 0;

	while (off < b->len) {
		const struct perf_counter_header *h = (const void *)(b->data + off);
		int err = flight_store__add(st, h);

		if (err)
			return err;
		if (st->bytes > *max_bytes)
			*max_bytes = st->bytes;
		off += h->size;
	}
	return 0;
}

struct walk {
	u64 n;
	u64 first, prev;
	bool ordered;
};

static int walk_one(void *ctx, const struct perf_counter_header *h, u64 time)
{
	struct walk *w = ctx;

	(void)h;
	if (!w->n++)
		w->first = time;
	if (time < w->prev)
		w->ordered = false;
	w->prev = time;
	return 0;
}

static struct walk walk(const struct flight_store *st, u64 from)
{
	struct walk w = { .ordered = true };

	flight_store__for_each(st, from, walk_one, &w);
	return w;
}

/*
 * 4 MB of samples into a store of 640 KiB: never above the budget, the
 * oldest chunks go first, what is left comes out merged in time order.
 */
int test__flight_store_bounds(struct test_ctx *ctx)
{
	struct perf_fbuf b = { 0 };
	struct flight_store st;
	u64 max = 0, i, n = 100000;
	struct walk w;
	int err;

	TEST_ASSERT(ctx, flight_store__init(&st, ST_TYPE, 2,
					    flight_store__min_bytes(2) - 1,
					    SEC) == -EINVAL,
		    "a budget below two chunks a CPU refused");
	err = flight_store__init(&st, ST_TYPE, 2, flight_store__min_bytes(2),
				 SEC);
	/* CPU 1 runs 500 ns behind CPU 0: the merge interleaves them. */
	for (i = 0; i < n; i++)
		put_sample(&b, 10, SEC + i * 1000 + (i & 1) * 500, i & 1);
	err = err ? err : add_all(&st, &b, &max);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !err, "add: %d", err);
	pr_test(ctx, "chunk %zu, peak %llu of %llu bytes, dropped %llu\n",
		st.chunk_size, (unsigned long long)max,
		(unsigned long long)st.max_bytes,
		(unsigned long long)st.stats.dropped_size);
	TEST_ASSERT(ctx, max <= st.max_bytes, "never above the budget");
	TEST_ASSERT(ctx, st.stats.dropped_size > 0, "chunks were dropped");
	w = walk(&st, 0);
	TEST_ASSERT(ctx, w.ordered, "merged in time order");
	TEST_ASSERT(ctx, w.n > 0 && w.n < n, "some kept (%llu)",
		    (unsigned long long)w.n);
	TEST_ASSERT(ctx, w.prev == SEC + (n - 1) * 1000 + 500,
		    "the newest record is kept");
	TEST_ASSERT(ctx, w.first > SEC, "the oldest went first");
	TEST_ASSERT(ctx, walk(&st, w.prev).n == 1, "from: only what is not older");
	flight_store__prune(&st, w.prev + SEC / 2);
	TEST_ASSERT(ctx, !st.stats.dropped_time && walk(&st, 0).n == w.n,
		    "nothing older than the window: nothing pruned");
	flight_store__prune(&st, w.prev + SEC + 1);
	TEST_ASSERT(ctx, walk(&st, 0).n == 0 && st.stats.dropped_time,
		    "all of it older than the window: all pruned");
	TEST_ASSERT(ctx, st.bytes == st.chunk_size, "only the spare is held");
	flight_store__exit(&st);
	return TEST_OK;
}

struct names {
	u32 n;
	const char *comm[4];	/* of tids 100, 200, 300, 400 */
};

static int name_one(void *ctx, const struct flight_thread *t)
{
	struct names *nm = ctx;

	nm->n++;
	if (t->tid % 100 == 0 && t->tid <= 400)
		nm->comm[t->tid / 100 - 1] = t->comm;
	return 0;
}

/*
 * The table holds the tasks as of the start of what is kept: records
 * of dropped chunks move it on, kept records do not.
 */
int test__flight_store_tasks(struct test_ctx *ctx)
{
	struct perf_fbuf b = { 0 }, seed = { 0 };
	struct names nm = { 0 };
	struct flight_store st;
	u64 max = 0, t = SEC;
	size_t off;
	int i, err;

	err = flight_store__init(&st, ST_TYPE, 2, 4 << 20, SEC);
	TEST_ASSERT(ctx, !err, "init");
	put_comm(&seed, 100, 100, "shell", 0, 0);
	put_comm(&seed, 200, 200, "old-daemon", 0, 0);
	for (i = 1000; i < 6000; i++)
		put_comm(&seed, i, i, "many", 0, 0);
	for (off = 0; off < seed.len; off += 64)
		flight_store__seed(&st, seed.data + off, 64);
	perf_fbuf__free(&seed);
	/* Dropped later: an exec, a fork, an exit and many exits. */
	put_comm(&b, 100, 100, "make", t, 0);
	put_task(&b, PERF_RECORD_FORK, 300, 300, 100, t, 0);
	put_task(&b, PERF_RECORD_EXIT, 200, 200, 200, t, 1);
	for (i = 1000; i < 6000; i += 2)
		put_task(&b, PERF_RECORD_EXIT, i, i, i, t, 0);
	/* Enough to fill the chunks those are in. */
	for (i = 0; i < 40000; i++)
		put_sample(&b, 100, t + SEC / 2, i & 1);
	/* Kept: a fork and an exec of 400 in the window. */
	t += 5 * SEC;
	put_task(&b, PERF_RECORD_FORK, 400, 400, 100, t, 0);
	put_comm(&b, 400, 400, "cc1", t, 0);
	err = add_all(&st, &b, &max);
	perf_fbuf__free(&b);
	TEST_ASSERT(ctx, !err, "add");
	flight_store__prune(&st, t);
	TEST_ASSERT(ctx, st.stats.dropped_time && !st.stats.dropped_size,
		    "chunks dropped for their age only");
	TEST_ASSERT(ctx, walk(&st, t - SEC).n == 2,
		    "the window's two records kept (%llu)",
		    (unsigned long long)walk(&st, t - SEC).n);
	flight_store__walk_threads(&st, name_one, &nm);
	TEST_ASSERT(ctx, nm.n == 2 + 2500, "the live tasks (%u)", nm.n);
	TEST_ASSERT(ctx, nm.comm[0] && !strcmp(nm.comm[0], "make"),
		    "a dropped exec renamed 100");
	TEST_ASSERT(ctx, !nm.comm[1], "a dropped exit removed 200");
	TEST_ASSERT(ctx, nm.comm[2] && !strcmp(nm.comm[2], "make"),
		    "a dropped fork gave 300 its parent's name");
	TEST_ASSERT(ctx, !nm.comm[3], "a kept fork is left to the records");
	for (i = 1001; i < 6000; i += 2) {
		struct perf_fbuf one = { 0 };

		/* Every survivor is still found after the deletions. */
		put_task(&one, PERF_RECORD_EXIT, i, i, i, t, 0);
		flight_store__seed(&st, one.data, one.len);
		perf_fbuf__free(&one);
	}
	nm.n = 0;
	flight_store__walk_threads(&st, name_one, &nm);
	TEST_ASSERT(ctx, nm.n == 2, "each of the others found and removed (%u left)",
		    nm.n);
	flight_store__exit(&st);
	return TEST_OK;
}

/* ---- zstd records ---- */

static int to_fbuf(void *ctx, const void *buf, size_t len)
{
	perf_fbuf__put(ctx, buf, len);
	return 0;
}

/* Compressible samples, and a few records of noise that do not shrink. */
static void put_mixed(struct perf_fbuf *b)
{
	struct perf_counter_header h = { .type = PERF_RECORD_SAMPLE };
	u32 seed = 1;
	int i, j;

	for (i = 0; i < 40000; i++) {
		put_sample(b, 100 + i % 7, SEC + i * 1000, i & 1);
		if (i % 10000)
			continue;
		h.size = 65528;
		perf_fbuf__put(b, &h, sizeof(h));
		for (j = 0; j < (65528 - 8) / 4; j++) {
			seed = seed * 1103515245 + 12345;
			perf_fbuf__put_u32(b, seed);
		}
	}
}

struct unpacked {
	struct perf_fbuf recs;
	u32 compressed, raw;
	size_t max_record, max_inner;
	bool bad;
};

/* Read records as a reader does, unpacking COMPRESSED ones. */
static void unpack_all(const struct perf_fbuf *file, struct unpacked *u)
{
	struct perf_decompressor d = { 0 };
	size_t off = 0;

	while (off < file->len && !u->bad) {
		struct perf_counter_header h;
		const void *inner;
		size_t before;

		memcpy(&h, file->data + off, sizeof(h));
		if (h.size > u->max_record)
			u->max_record = h.size;
		if (h.type != PERF_RECORD_COMPRESSED) {
			perf_fbuf__put(&u->recs, file->data + off, h.size);
			u->raw++;
			off += h.size;
			continue;
		}
		u->compressed++;
		before = u->recs.len;
		if (perf_decompressor__feed(&d, file->data + off + 8, h.size - 8))
			u->bad = true;
		while (perf_decompressor__next(&d, &inner) > 0)
			perf_fbuf__put(&u->recs, inner,
				       ((const struct perf_counter_header *)inner)->size);
		if (u->recs.len - before > u->max_inner)
			u->max_inner = u->recs.len - before;
		off += h.size;
	}
	perf_decompressor__exit(&d);
}

int test__compress_records(struct test_ctx *ctx)
{
	struct perf_fbuf in = { 0 }, out = { 0 };
	struct unpacked u;
	struct perf_compressor c;
	int err;

	memset(&u, 0, sizeof(u));
	put_mixed(&in);
	err = perf_compressor__init(&c, 1, to_fbuf, &out);
	TEST_ASSERT(ctx, !err, "init");
	err = perf_compressor__add(&c, in.data, in.len);
	err = err ? err : perf_compressor__flush(&c);
	TEST_ASSERT(ctx, !err, "compress: %d", err);
	pr_test(ctx, "%zu bytes to %zu, ratio %u\n", in.len, out.len,
		perf_compressor__ratio(&c));
	TEST_ASSERT(ctx, c.bytes_in == in.len && c.bytes_out == out.len,
		    "bytes counted");
	perf_compressor__exit(&c);
	unpack_all(&out, &u);
	TEST_ASSERT(ctx, !u.bad, "every frame decompresses");
	TEST_ASSERT(ctx, u.recs.len == in.len && !memcmp(u.recs.data, in.data, in.len),
		    "the records come back as they went in");
	TEST_ASSERT(ctx, u.compressed > 1 && u.raw == 4,
		    "%u compressed records, the 4 records of noise raw (%u)",
		    u.compressed, u.raw);
	TEST_ASSERT(ctx, u.max_inner <= PERF_COMP_BATCH,
		    "no record unpacks to more than mmap_len");
	perf_fbuf__free(&in);
	perf_fbuf__free(&out);
	perf_fbuf__free(&u.recs);
	return TEST_OK;
}

/*
 * A reader must also take one zstd stream cut into records anywhere,
 * records of the payload running on into the next COMPRESSED record.
 */
int test__compress_stream(struct test_ctx *ctx)
{
	struct perf_fbuf in = { 0 }, file = { 0 };
	struct unpacked u;
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	u8 piece[1000];
	size_t off;

	memset(&u, 0, sizeof(u));
	TEST_ASSERT(ctx, cctx, "zstd context");
	put_mixed(&in);
	for (off = 0; off < in.len; off += 777) {
		size_t n = in.len - off < 777 ? in.len - off : 777, left;
		ZSTD_inBuffer src = { in.data + off, n, 0 };

		do {
			ZSTD_outBuffer dst = { piece + 8, sizeof(piece) - 8, 0 };
			struct perf_counter_header h = {
				.type = PERF_RECORD_COMPRESSED,
			};

			left = ZSTD_compressStream2(cctx, &dst, &src,
						    ZSTD_e_flush);
			TEST_ASSERT(ctx, !ZSTD_isError(left), "compress");
			h.size = dst.pos + 8;
			memcpy(piece, &h, sizeof(h));
			if (dst.pos)
				perf_fbuf__put(&file, piece, h.size);
		} while (src.pos < src.size || left);
	}
	ZSTD_freeCCtx(cctx);
	unpack_all(&file, &u);
	TEST_ASSERT(ctx, !u.bad && u.raw == 0, "all of it decompresses");
	TEST_ASSERT(ctx, u.recs.len == in.len && !memcmp(u.recs.data, in.data, in.len),
		    "the records come back whole, in order");
	perf_fbuf__free(&in);
	perf_fbuf__free(&file);
	perf_fbuf__free(&u.recs);
	return TEST_OK;
}
