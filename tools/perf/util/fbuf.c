// SPDX-License-Identifier: GPL-2.0
/*
 * A growable byte buffer: how feature payloads, tracing data and
 * snapshots are built before they are written out whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "header.h"


static bool fbuf_reserve(struct perf_fbuf *b, size_t len)
{
	size_t cap = b->cap ? b->cap : 256;
	u8 *p;

	if (b->err)
		return false;
	if (b->len + len <= b->cap)
		return true;
	while (cap < b->len + len)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->err = -ENOMEM;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void perf_fbuf__put(struct perf_fbuf *b, const void *p, size_t len)
{
	if (!len || !fbuf_reserve(b, len))
		return;
	memcpy(b->data + b->len, p, len);
	b->len += len;
}

void perf_fbuf__zero(struct perf_fbuf *b, size_t len)
{
	if (!len || !fbuf_reserve(b, len))
		return;
	memset(b->data + b->len, 0, len);
	b->len += len;
}

void perf_fbuf__put_u32(struct perf_fbuf *b, u32 v)
{
	perf_fbuf__put(b, &v, sizeof(v));
}

void perf_fbuf__put_u64(struct perf_fbuf *b, u64 v)
{
	perf_fbuf__put(b, &v, sizeof(v));
}

/* u32 length (padded, with the NUL), then the string, NUL padded. */
void perf_fbuf__put_string(struct perf_fbuf *b, const char *s)
{
	size_t olen = strlen(s) + 1;
	size_t len = NAME_ALIGNED(olen);

	perf_fbuf__put_u32(b, len);
	perf_fbuf__put(b, s, olen);
	perf_fbuf__zero(b, len - olen);
}

void perf_fbuf__free(struct perf_fbuf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

