// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-buffer reader on a constructed buffer: records in order,
 * records that wrap the end, tail publication, and malformed sizes;
 * backward (overwrite) rings: snapshots in order, wrap-around, a full
 * and an overrun buffer, never-written bytes and bad sizes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <perf/mmap.h>
#include "tests.h"

#define DATA_SIZE 4096

struct fake_ring {
	struct perf_mmap map;
	unsigned char *mem;	/* control page + data */
};

static void ring_put(struct fake_ring *r, u64 *head, u32 type, u16 size,
		     u8 fill)
{
	unsigned char rec[256];
	struct perf_counter_header *h = (void *)rec;
	u16 i;

	h->type = type;
	h->misc = 0;
	h->size = size;
	memset(rec + sizeof(*h), fill, size - sizeof(*h));
	for (i = 0; i < size; i++)
		r->map.data[(*head + i) & (DATA_SIZE - 1)] = rec[i];
	*head += size;
}

static int check_record(struct test_ctx *ctx,
			const struct perf_counter_header *h, u32 type, u16 size,
			u8 fill)
{
	const unsigned char *p = (const void *)h;
	int i;

	TEST_ASSERT(ctx, h, "record of type %u missing", type);
	TEST_ASSERT(ctx, h->type == type && h->size == size,
		    "got type %u size %u, wanted %u/%u", h->type, h->size, type,
		    size);
	for (i = sizeof(*h); i < size; i++)
		TEST_ASSERT(ctx, p[i] == fill, "byte %d of type %u torn", i,
			    type);
	return TEST_OK;
}

int test__mmap_reader(struct test_ctx *ctx)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct fake_ring *r = calloc(1, sizeof(*r));
	u64 head;
	int i;

	r->mem = calloc(1, psz + DATA_SIZE);
	perf_mmap__setup(&r->map, r->mem, DATA_SIZE);
	TEST_ASSERT(ctx, perf_mmap__read_init(&r->map) == -EAGAIN,
		    "empty ring reported data");
	/* Start near the end so that the second record wraps. */
	head = DATA_SIZE - 40;
	r->map.pos = head;
	r->map.page->data_tail = head;
	ring_put(r, &head, 9, 32, 0xaa);
	ring_put(r, &head, 3, 48, 0xbb);	/* wraps at 8 bytes in */
	ring_put(r, &head, 10, 64, 0xcc);
	r->map.page->data_head = head;
	TEST_ASSERT(ctx, perf_mmap__read_init(&r->map) == 0, "no data seen");
	if (check_record(ctx, perf_mmap__read_event(&r->map), 9, 32, 0xaa) ||
	    check_record(ctx, perf_mmap__read_event(&r->map), 3, 48, 0xbb) ||
	    check_record(ctx, perf_mmap__read_event(&r->map), 10, 64, 0xcc))
		return TEST_FAIL;
	TEST_ASSERT(ctx, !perf_mmap__read_event(&r->map), "read past head");
	TEST_ASSERT(ctx, r->map.page->data_tail == DATA_SIZE - 40,
		    "tail moved before consume");
	perf_mmap__consume(&r->map);
	TEST_ASSERT(ctx, r->map.page->data_tail == head, "tail %llu != %llu",
		    (unsigned long long)r->map.page->data_tail,
		    (unsigned long long)head);
	/* A header straddling the end: 4 bytes before, 4 after. */
	r->map.pos = head = 2 * DATA_SIZE - 4;
	ring_put(r, &head, 2, 24, 0x11);
	r->map.page->data_head = head;
	perf_mmap__read_init(&r->map);
	if (check_record(ctx, perf_mmap__read_event(&r->map), 2, 24, 0x11))
		return TEST_FAIL;
	/* A zero-size record must stop the reader, not loop forever. */
	for (i = 0; i < 8; i++)
		r->map.data[(head + i) & (DATA_SIZE - 1)] = 0;
	r->map.page->data_head = head + 8;
	perf_mmap__read_init(&r->map);
	TEST_ASSERT(ctx, !perf_mmap__read_event(&r->map) && r->map.error,
		    "zero-sized record accepted");
	free(r->mem);
	free(r);
	return TEST_OK;
}

/* What the kernel does in a backward ring: move the head down, write. */
static void ring_put_backward(struct fake_ring *r, u64 *head, u16 size,
			      u8 seq)
{
	u64 at = *head - size;

	ring_put(r, &at, 9, size, seq);
	*head -= size;
	r->map.page->data_head = *head;
}

/* The snapshot holds records @first..@last (by seq), oldest first. */
static int check_snapshot(struct test_ctx *ctx, struct fake_ring *r,
			  u16 size, u8 first, u8 last)
{
	u8 seq = first;

	TEST_ASSERT(ctx, perf_mmap__read_init_backward(&r->map) == 0,
		    "backward snapshot found nothing");
	for (;;) {
		if (check_record(ctx, perf_mmap__read_event(&r->map), 9, size,
				 seq))
			return TEST_FAIL;
		if (seq++ == last)
			break;
	}
	TEST_ASSERT(ctx, !perf_mmap__read_event(&r->map),
		    "snapshot holds more than records %u..%u", first, last);
	perf_mmap__consume(&r->map);
	TEST_ASSERT(ctx, !r->map.page->data_tail,
		    "data_tail written in a read-only ring");
	return TEST_OK;
}

static int backward_order_and_wrap(struct test_ctx *ctx, struct fake_ring *r)
{
	u64 head = 0;
	u8 seq;

	TEST_ASSERT(ctx, perf_mmap__read_init_backward(&r->map) == -EAGAIN,
		    "empty backward ring reported data");
	for (seq = 1; seq <= 3; seq++)
		ring_put_backward(r, &head, 40, seq);
	/* The first record sits at the top of the buffer: it wraps nothing. */
	if (check_snapshot(ctx, r, 40, 1, 3))
		return TEST_FAIL;
	TEST_ASSERT(ctx, perf_mmap__read_init_backward(&r->map) == -EAGAIN,
		    "a read snapshot came back");
	/* Pad down to offset 88: two records later one wraps the bottom. */
	while ((head & (DATA_SIZE - 1)) != 88)
		ring_put_backward(r, &head, 8, 0);
	perf_mmap__read_init_backward(&r->map);
	perf_mmap__consume(&r->map);
	ring_put_backward(r, &head, 40, 4);
	ring_put_backward(r, &head, 40, 5);
	ring_put_backward(r, &head, 40, 6);	/* 8 bytes at 0, 32 at the top */
	ring_put_backward(r, &head, 40, 7);
	return check_snapshot(ctx, r, 40, 4, 7);
}

/*
 * Written past one buffer since the last snapshot: 64-byte records fill
 * it exactly, all 64 newest come back; with 48-byte ones the oldest
 * that fits only in part is dropped, 85 come back.
 */
static int backward_overrun(struct test_ctx *ctx, struct fake_ring *r)
{
	u64 head = r->map.page->data_head;
	int i;

	for (i = 0; i < 200; i++)
		ring_put_backward(r, &head, 64, i);
	if (check_snapshot(ctx, r, 64, 200 - 64, 199))
		return TEST_FAIL;
	for (i = 0; i < 200; i++)
		ring_put_backward(r, &head, 48, i);
	return check_snapshot(ctx, r, 48, 200 - DATA_SIZE / 48, 199);
}

/* Never-written (zero) bytes and a bad size end the walk. */
static int backward_stops(struct test_ctx *ctx, struct fake_ring *r)
{
	u64 head = 0;

	memset(r->map.data, 0, DATA_SIZE);
	/* As if far more than a buffer had been written. */
	r->map.pos = 3 * DATA_SIZE;
	ring_put_backward(r, &head, 24, 1);
	ring_put_backward(r, &head, 24, 2);
	if (check_snapshot(ctx, r, 24, 1, 2))
		return TEST_FAIL;
	r->map.pos = head + 3 * DATA_SIZE;
	/* Record 2's size (the u16 at byte 6) becomes 12: not a size. */
	r->map.data[(head + 6) & (DATA_SIZE - 1)] = 12;
	ring_put_backward(r, &head, 32, 3);
	ring_put_backward(r, &head, 32, 4);
	return check_snapshot(ctx, r, 32, 3, 4);
}

int test__mmap_backward(struct test_ctx *ctx)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct fake_ring *r = calloc(1, sizeof(*r));
	int ret;

	TEST_ASSERT(ctx, r, "out of memory");
	r->mem = calloc(1, psz + DATA_SIZE);
	TEST_ASSERT(ctx, r->mem, "out of memory");
	perf_mmap__setup(&r->map, r->mem, DATA_SIZE);
	ret = backward_order_and_wrap(ctx, r);
	if (!ret)
		ret = backward_overrun(ctx, r);
	if (!ret)
		ret = backward_stops(ctx, r);
	perf_mmap__unmap(&r->map);
	free(r->mem);
	free(r);
	return ret;
}
