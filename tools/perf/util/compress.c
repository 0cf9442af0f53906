// SPDX-License-Identifier: GPL-2.0
/*
 * zstd in perf.data: PERF_RECORD_COMPRESSED records written and read
 * (see compress.h for the layout and the choices).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>
#include "compress.h"
#include "event.h"

#define COMP_RECORD_MAX	65535U		/* header.size is a u16 */
#define COMP_HDR	sizeof(struct perf_counter_header)
#define DECOMP_MAX	(1UL << 30)	/* a sane limit for one record */

int perf_compressor__init(struct perf_compressor *c, int level,
			  perf_comp_emit_fn emit, void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->level = level;
	c->emit = emit;
	c->ctx = ctx;
	c->cctx = ZSTD_createCCtx();
	c->in = malloc(PERF_COMP_BATCH);
	c->out = malloc(COMP_RECORD_MAX);
	if (!c->cctx || !c->in || !c->out) {
		perf_compressor__exit(c);
		return -ENOMEM;
	}
	return 0;
}

void perf_compressor__exit(struct perf_compressor *c)
{
	ZSTD_freeCCtx(c->cctx);
	free(c->in);
	free(c->out);
	c->cctx = NULL;
	c->in = NULL;
	c->out = NULL;
}

static int emit(struct perf_compressor *c, const void *buf, size_t len)
{
	c->bytes_out += len;
	return c->emit(c->ctx, buf, len);
}

static u16 rec_size(const u8 *p)
{
	struct perf_counter_header h;

	memcpy(&h, p, sizeof(h));
	return h.size;
}

/* The first record boundary past the middle of [p, p + len), or 0. */
static size_t middle(const u8 *p, size_t len)
{
	size_t off = rec_size(p), mid = 0;

	while (off < len) {
		mid = off;
		if (off >= len / 2)
			break;
		off += rec_size(p + off);
	}
	return mid;
}

/* Records [p, p + len) as one frame in one record, or halves of them. */
static int compress_range(struct perf_compressor *c, const u8 *p, size_t len)
{
	struct perf_counter_header h = { .type = PERF_RECORD_COMPRESSED };
	size_t n, mid;
	int err;

	n = ZSTD_compressCCtx(c->cctx, c->out + COMP_HDR,
			      COMP_RECORD_MAX - COMP_HDR, p, len, c->level);
	if (!ZSTD_isError(n)) {
		h.size = n + COMP_HDR;
		memcpy(c->out, &h, sizeof(h));
		return emit(c, c->out, h.size);
	}
	if (ZSTD_getErrorCode(n) != ZSTD_error_dstSize_tooSmall)
		return -EIO;
	mid = middle(p, len);
	/* One record that does not shrink: readers take it as it is. */
	if (!mid)
		return emit(c, p, len);
	err = compress_range(c, p, mid);
	return err ? err : compress_range(c, p + mid, len - mid);
}

int perf_compressor__flush(struct perf_compressor *c)
{
	int err;

	if (!c->in_len)
		return 0;
	err = compress_range(c, c->in, c->in_len);
	c->in_len = 0;
	return err;
}

int perf_compressor__add(struct perf_compressor *c, const void *recs,
			 size_t len)
{
	const u8 *p = recs;
	int err;

	c->bytes_in += len;
	while (len) {
		size_t n = rec_size(p);

		if (n < COMP_HDR || n > len)
			return -EINVAL;
		if (c->in_len + n > PERF_COMP_BATCH) {
			err = perf_compressor__flush(c);
			if (err)
				return err;
		}
		memcpy(c->in + c->in_len, p, n);
		c->in_len += n;
		p += n;
		len -= n;
	}
	return 0;
}

u32 perf_compressor__ratio(const struct perf_compressor *c)
{
	u64 r = c->bytes_out ? c->bytes_in / c->bytes_out : 1;

	return r ? r : 1;
}

/* Room for another 64 KiB of output at least. */
static int decomp_room(struct perf_decompressor *d)
{
	size_t cap = d->cap ? d->cap : PERF_COMP_BATCH;
	u8 *p;

	if (d->cap - d->len >= COMP_RECORD_MAX + 1)
		return 0;
	while (cap - d->len < COMP_RECORD_MAX + 1)
		cap *= 2;
	if (cap > DECOMP_MAX)
		return -EFBIG;
	p = realloc(d->buf, cap);
	if (!p)
		return -ENOMEM;
	d->buf = p;
	d->cap = cap;
	return 0;
}

int perf_decompressor__feed(struct perf_decompressor *d, const void *src,
			    size_t len)
{
	ZSTD_inBuffer in = { src, len, 0 };
	ZSTD_outBuffer out;
	size_t ret;
	int err;

	if (!d->dctx) {
		d->dctx = ZSTD_createDCtx();
		if (!d->dctx)
			return -ENOMEM;
	}
	/* The start of a record the previous payload did not finish. */
	if (d->pos) {
		memmove(d->buf, d->buf + d->pos, d->len - d->pos);
		d->len -= d->pos;
		d->pos = 0;
	}
	do {
		err = decomp_room(d);
		if (err)
			return err;
		out = (ZSTD_outBuffer){ d->buf, d->cap, d->len };
		ret = ZSTD_decompressStream(d->dctx, &out, &in);
		if (ZSTD_isError(ret))
			return -EBADMSG;
		d->len = out.pos;
		/* A full output buffer may leave output inside zstd. */
	} while (in.pos < in.size || out.pos == out.size);
	return 0;
}

int perf_decompressor__next(struct perf_decompressor *d, const void **rec)
{
	size_t left = d->len - d->pos;
	u16 size;

	if (left < COMP_HDR)
		return 0;
	size = rec_size(d->buf + d->pos);
	if (size < COMP_HDR)
		return -EBADMSG;
	if (size > left)
		return 0;
	*rec = d->buf + d->pos;
	d->pos += size;
	return 1;
}

void perf_decompressor__exit(struct perf_decompressor *d)
{
	ZSTD_freeDCtx(d->dctx);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}
