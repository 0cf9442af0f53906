// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-buffer reader on a constructed buffer: records in order,
 * records that wrap the end, tail publication, and malformed sizes.
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
