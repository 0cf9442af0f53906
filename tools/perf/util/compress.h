/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_COMPRESS_H
#define __PERF_UTIL_COMPRESS_H

/*
 * zstd in perf.data.  A PERF_RECORD_COMPRESSED record (type 81) is an
 * 8-byte header followed by zstd data that decompresses into ordinary
 * records; header.size covers both and need not be a multiple of 8.
 * The COMPRESSED feature gives the compressor (1: zstd), its level, the
 * ratio achieved, and mmap_len: no record decompresses into more than
 * that many bytes, which is how readers size their buffers.
 *
 * Writing: whole records are batched; a batch becomes one independent
 * zstd frame in one COMPRESSED record, so a batch may not need more
 * than one record's 64 KiB once compressed.  A batch that does is
 * split in two and retried; a single record that still does not fit
 * goes out as it is.  Readers that keep one decompression stream
 * across records (Linux perf) read frames written this way as well as
 * readers that start afresh at every record.
 *
 * Reading: one decompression stream per file, kept across records,
 * because Linux perf writes one continuous stream cut into records at
 * arbitrary points; a record may therefore end inside an inner record,
 * whose first bytes are kept for the next one.
 */
#include <stddef.h>
#include <perf/types.h>

#define PERF_COMP_ZSTD		1	/* the COMPRESSED feature's type */
#define PERF_COMP_BATCH		(256U << 10)	/* bytes of records per frame */

/* Where a compressor puts its COMPRESSED (and raw) records. */
typedef int (*perf_comp_emit_fn)(void *ctx, const void *buf, size_t len);

struct perf_compressor {
	struct ZSTD_CCtx_s *cctx;
	int level;
	u8 *in;				/* whole records waiting */
	size_t in_len;
	u8 *out;			/* one COMPRESSED record */
	u64 bytes_in;			/* records given */
	u64 bytes_out;			/* bytes emitted for them */
	perf_comp_emit_fn emit;
	void *ctx;
};

int perf_compressor__init(struct perf_compressor *c, int level,
			  perf_comp_emit_fn emit, void *ctx);
/* Add whole records (len bytes of them); 0 or -errno. */
int perf_compressor__add(struct perf_compressor *c, const void *recs,
			 size_t len);
/* Emit what waits, so that a record written next comes after it. */
int perf_compressor__flush(struct perf_compressor *c);
/* bytes in / bytes out, at least 1: the feature's ratio. */
u32 perf_compressor__ratio(const struct perf_compressor *c);
void perf_compressor__exit(struct perf_compressor *c);

struct perf_decompressor {
	struct ZSTD_DCtx_s *dctx;
	u8 *buf;			/* decompressed records */
	size_t cap;
	size_t len;
	size_t pos;			/* next record in buf */
};

/*
 * Decompress the payload of one COMPRESSED record after what is left
 * of the previous one.  Then take its records with _next().
 */
int perf_decompressor__feed(struct perf_decompressor *d, const void *src,
			    size_t len);
/*
 * The next whole record in *rec: 1, or 0 when the rest (if any) waits
 * for the next COMPRESSED record, or -EBADMSG for a record smaller
 * than its header.  Records are 8-byte aligned in the buffer when
 * their sizes are multiples of 8, as kernel records are.
 */
int perf_decompressor__next(struct perf_decompressor *d, const void **rec);
void perf_decompressor__exit(struct perf_decompressor *d);

#endif /* __PERF_UTIL_COMPRESS_H */
