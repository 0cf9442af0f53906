// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer, file and pipe mode; see data.h.  Records are
 * buffered and, when the output cannot take them (a pipe's reader is
 * slow), kept in a FIFO backlog so that the rings are still drained.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "array.h"
#include "compress.h"
#include "data.h"

#ifndef PERF_VERSION
#define PERF_VERSION "0.0"
#endif

#define WRITER_BUF_SIZE		(1024 * 1024)
#define FILE_HEADER_SIZE	sizeof(struct perf_file_header)
#define FILE_ATTR_SIZE		sizeof(struct perf_file_attr)
#define PIPE_HEADER_SIZE	sizeof(struct perf_pipe_file_header)

/* No offset: write at the file position (a pipe has no other). */
#define NO_OFFSET ((u64)-1)

/*
 * Write all of @buf at @off or, with NO_OFFSET, at the file position.
 * Short writes and EINTR go round again.
 */
static int write_all(int fd, const void *buf, size_t len, u64 off)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	const char *p = buf;

	while (len) {
		ssize_t n = off == NO_OFFSET ? write(fd, p, len) :
					       pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		/* A non-blocking pipe (see backlog_room) waits here. */
		if (n < 0 && errno == EAGAIN) {
			poll(&pfd, 1, -1);
			continue;
		}
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
		if (off != NO_OFFSET)
			off += n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, NO_OFFSET);
}

static int pwrite_full(int fd, const void *buf, size_t len, u64 off)
{
	return write_all(fd, buf, len, off);
}

/* perf record keeps the previous recording as NAME.old. */
static int backup_old(const char *path)
{
	char old[PATH_MAX];
	struct stat st;

	if (stat(path, &st) || !st.st_size || !S_ISREG(st.st_mode))
		return 0;
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return -ENAMETOOLONG;
	if (unlink(old) && errno != ENOENT)
		return -errno;
	return rename(path, old) ? -errno : 0;
}

static int writer_header(struct perf_data_writer *w,
			 const struct perf_file_section *attrs,
			 const u64 *features)
{
	struct perf_file_header h;

	memset(&h, 0, sizeof(h));
	h.magic = PERF_MAGIC2;
	h.size = FILE_HEADER_SIZE;
	h.attr_size = FILE_ATTR_SIZE;
	if (attrs)
		h.attrs = *attrs;
	h.data.offset = w->data_offset;
	h.data.size = w->flushed;
	if (features)
		memcpy(h.adds_features, features, sizeof(h.adds_features));
	return pwrite_full(w->fd, &h, sizeof(h), 0);
}

int perf_data_writer__open_fd(struct perf_data_writer *w, int fd, bool pipe)
{
	int err;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->pipe = pipe;
	w->scan.time_pos = -1;
	w->data_offset = FILE_HEADER_SIZE;
	w->buf_cap = WRITER_BUF_SIZE;
	w->buf = malloc(w->buf_cap);
	if (!w->buf)
		return -ENOMEM;
	perf_header_info__init(&w->info);
	err = perf_header_info__collect(&w->info, PERF_VERSION);
	/* A provisional header: readable, empty, until begin. */
	if (!err && !pipe)
		err = writer_header(w, NULL, NULL);
	if (err) {
		perf_header_info__exit(&w->info);
		free(w->buf);
		w->buf = NULL;
		w->closed = true;
	}
	return err;
}

int perf_data_writer__open(struct perf_data_writer *w, const char *path)
{
	struct stat st;
	int fd, err;

	if (!strcmp(path, "-"))
		return perf_data_writer__open_fd(w, STDOUT_FILENO, true);
	/* A FIFO (or /proc/self/fd/N of a pipe) gets the pipe format. */
	if (!stat(path, &st) && S_ISFIFO(st.st_mode)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		err = perf_data_writer__open_fd(w, fd, true);
		if (err) {
			close(fd);
			return err;
		}
		w->own_fd = true;
		/* Our own open file: non-blocking touches no one else's. */
		w->backlog = !fcntl(fd, F_SETFL, O_WRONLY | O_NONBLOCK);
		return 0;
	}
	err = backup_old(path);
	if (err)
		return err;
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = perf_data_writer__open_fd(w, fd, false);
	if (err) {
		close(fd);
		unlink(path);
		return err;
	}
	w->own_fd = true;
	w->path = strdup(path);
	return 0;
}

/*
 * The writer follows the record boundaries through the writes: the
 * header's data.size then only ever covers whole records, and the
 * sample times for SAMPLE_TIME come for free.  Records may be split
 * across writes; their first bytes are carried until complete.
 */
static void scan_setup(struct perf_data_writer *w)
{
	int pos = -1;
	u32 i;

	for (i = 0; i < w->nr_attrs; i++) {
		u64 t = w->attrs[i].attr.sample_type;
		int p = !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
			!!(t & PERF_SAMPLE_TID);

		if (!(t & PERF_SAMPLE_TIME) || (i && p != pos)) {
			pos = -1;
			break;
		}
		pos = p;
	}
	w->scan.time_pos = pos;
	w->scan.need = sizeof(struct perf_counter_header) + (pos + 1) * 8;
	/* Enough to see the payload size of AUXTRACE and TRACING_DATA. */
	if (w->scan.need < 16)
		w->scan.need = 16;
}

/* A late attr may move the time; then sample times are unknown. */
static void scan_check(struct perf_data_writer *w)
{
	int pos = w->scan.time_pos;

	scan_setup(w);
	if (w->scan.time_pos != pos)
		w->scan.time_pos = -1;
}

/* Bytes of the record in carry that the scan must see. */
static u32 scan_want(const struct perf_data_writer *w)
{
	struct perf_counter_header h;

	if (w->scan.have < sizeof(h))
		return sizeof(h);
	memcpy(&h, w->scan.carry, sizeof(h));
	if (h.size < sizeof(h))
		return sizeof(h);
	if (h.type == PERF_RECORD_AUXTRACE ||
	    h.type == PERF_RECORD_HEADER_TRACING_DATA)
		return h.size < 16 ? h.size : 16;
	if (h.type != PERF_RECORD_SAMPLE || w->scan.time_pos < 0)
		return sizeof(h);
	return h.size < w->scan.need ? h.size : w->scan.need;
}

/*
 * The whole length of the record at rec (with any payload), 0 if bad.
 * rec may sit anywhere in the caller's buffer: read it with memcpy.
 */
static u64 scan_take(struct perf_data_writer *w, const u8 *rec)
{
	struct perf_counter_header h;
	u64 t, payload = 0;

	memcpy(&h, rec, sizeof(h));
	if (h.size < sizeof(h))
		return 0;
	if (h.size >= 16 && (h.type == PERF_RECORD_AUXTRACE ||
			     h.type == PERF_RECORD_HEADER_TRACING_DATA)) {
		memcpy(&payload, rec + 8, h.type == PERF_RECORD_AUXTRACE ?
		       sizeof(u64) : sizeof(u32));
		return h.size + payload;
	}
	if (h.type != PERF_RECORD_SAMPLE || w->scan.time_pos < 0 ||
	    h.size < w->scan.need)
		return h.size;
	memcpy(&t, rec + sizeof(h) + w->scan.time_pos * sizeof(u64),
	       sizeof(t));
	if (!w->scan.samples++ || t < w->scan.first)
		w->scan.first = t;
	if (t > w->scan.last)
		w->scan.last = t;
	return h.size;
}

static void scan_skip(struct perf_data_writer *w, const u8 **p, size_t *len)
{
	size_t n = w->scan.skip < *len ? w->scan.skip : *len;

	w->scan.skip -= n;
	w->scan.pos += n;
	*p += n;
	*len -= n;
	if (!w->scan.skip)
		w->scan.complete = w->scan.pos;
}

static void scan_records(struct perf_data_writer *w, const u8 *p, size_t len)
{
	while (len && !w->scan.lost) {
		u64 size;
		size_t n;

		if (w->scan.skip) {
			scan_skip(w, &p, &len);
			continue;
		}
		if (!w->scan.have && len >= w->scan.need) {
			w->scan.skip = scan_take(w, p);
			w->scan.lost = !w->scan.skip;
			continue;
		}
		n = scan_want(w) - w->scan.have;
		n = n < len ? n : len;
		memcpy(w->scan.carry + w->scan.have, p, n);
		w->scan.have += n;
		w->scan.pos += n;
		p += n;
		len -= n;
		if (w->scan.have < scan_want(w))
			continue;
		size = scan_take(w, w->scan.carry);
		w->scan.lost = size < w->scan.have;
		w->scan.skip = size - w->scan.have;
		w->scan.have = 0;
		if (!w->scan.skip)
			w->scan.complete = w->scan.pos;
	}
}

static int write_direct(struct perf_data_writer *w, const void *buf,
			size_t len)
{
	u64 size;
	int err;

	if (w->pipe)
		err = write_full(w->fd, buf, len);
	else
		err = pwrite_full(w->fd, buf, len, w->data_offset + w->flushed);
	if (err)
		goto out;
	w->flushed += len;
	if (w->pipe)
		return 0;
	/* Whole records only, so that a killed recording reads cleanly. */
	size = w->flushed;
	if (!w->scan.lost && w->scan.complete < size)
		size = w->scan.complete;
	err = pwrite_full(w->fd, &size, sizeof(size),
			  offsetof(struct perf_file_header, data.size));
out:
	if (err)
		w->err = err;
	return err;
}

/* Write the buffer out; unless all, only up to its last whole record. */
static int flush_buf(struct perf_data_writer *w, bool all)
{
	size_t n = w->buf_len;
	int err;

	if (!n || w->err)
		return w->err;
	if (!all && !w->pipe && !w->scan.lost &&
	    w->scan.complete > w->flushed &&
	    w->scan.complete - w->flushed < n)
		n = w->scan.complete - w->flushed;
	err = write_direct(w, w->buf, n);
	if (err)
		return err;
	memmove(w->buf, w->buf + n, w->buf_len - n);
	w->buf_len -= n;
	return 0;
}

/*
 * A backlog pipe is not waited on while records come: what it does not
 * take now stays in the buffer, which grows (up to BACKLOG_MAX, then
 * the writes wait), so the reader's pace never fills the kernel's ring.
 */
#define BACKLOG_MAX (1024UL << 20)

int perf_data_writer__pump(struct perf_data_writer *w)
{
	size_t done = 0;

	while (w->backlog && !w->err && done < w->buf_len) {
		ssize_t n = write(w->fd, w->buf + done, w->buf_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0)
			w->err = n < 0 ? -errno : -EIO;
		else
			done += n;
	}
	if (done) {
		memmove(w->buf, w->buf + done, w->buf_len - done);
		w->buf_len -= done;
		w->flushed += done;
	}
	return w->err;
}

bool perf_data_writer__has_backlog(const struct perf_data_writer *w)
{
	return w->backlog && w->buf_len;
}

static int backlog_room(struct perf_data_writer *w)
{
	u8 *bigger;

	if (perf_data_writer__pump(w))
		return w->err;
	if (w->buf_len < w->buf_cap)
		return 0;
	bigger = w->buf_cap < BACKLOG_MAX ? realloc(w->buf, w->buf_cap * 2) :
		 NULL;
	if (!bigger)
		return flush_buf(w, false);
	w->buf = bigger;
	w->buf_cap *= 2;
	return 0;
}

static int buf_put(struct perf_data_writer *w, const void *p, size_t len)
{
	const u8 *src = p;

	while (len) {
		size_t n = w->buf_cap - w->buf_len;

		if (!n && (w->backlog ? backlog_room(w) : flush_buf(w, false)))
			return w->err;
		n = w->buf_cap - w->buf_len;
		if (n > len)
			n = len;
		memcpy(w->buf + w->buf_len, src, n);
		if (!w->pipe)
			scan_records(w, src, n);
		w->buf_len += n;
		src += n;
		len -= n;
	}
	return w->err;
}

int perf_data_writer__add_attr(struct perf_data_writer *w,
			       const struct perf_counter_attr *attr,
			       const char *name, const u64 *ids, u32 nr_ids)
{
	struct perf_event_desc *d;

	if (array_reserve_one((void **)&w->attrs, &w->attrs_alloc, w->nr_attrs,
			      sizeof(*d)))
		return -ENOMEM;
	d = &w->attrs[w->nr_attrs];
	memset(d, 0, sizeof(*d));
	d->attr = *attr;
	/* Every field we know is in the copy; say so to the reader. */
	d->attr.size = sizeof(d->attr);
	d->name = name ? strdup(name) : NULL;
	d->ids = calloc(nr_ids + 1, sizeof(u64));
	if ((name && !d->name) || !d->ids) {
		free(d->name);
		free(d->ids);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(d->ids, ids, nr_ids * sizeof(u64));
	d->nr_ids = nr_ids;
	w->nr_attrs++;
	/* A pipe learns of late attrs in the stream itself. */
	if (w->pipe && w->begun)
		return perf_data_writer__begin(w);
	if (w->begun)
		scan_check(w);
	return 0;
}

/* ids of every attr, then the attrs section pointing at them, at off. */
static int write_attrs(struct perf_data_writer *w, u64 off,
		       struct perf_file_section *sec)
{
	u64 ids_off = off;
	u32 i;
	int err = 0;

	for (i = 0; i < w->nr_attrs && !err; i++) {
		size_t len = w->attrs[i].nr_ids * sizeof(u64);

		err = pwrite_full(w->fd, w->attrs[i].ids, len, off);
		off += len;
	}
	sec->offset = off;
	sec->size = (u64)w->nr_attrs * FILE_ATTR_SIZE;
	for (i = 0; i < w->nr_attrs && !err; i++) {
		struct perf_file_attr fa;

		memset(&fa, 0, sizeof(fa));
		fa.attr = w->attrs[i].attr;
		fa.ids.offset = ids_off;
		fa.ids.size = w->attrs[i].nr_ids * sizeof(u64);
		ids_off += fa.ids.size;
		err = pwrite_full(w->fd, &fa, sizeof(fa), off);
		off += sizeof(fa);
	}
	return err;
}

static int begin_file(struct perf_data_writer *w)
{
	struct perf_file_section sec;
	int err;

	err = write_attrs(w, FILE_HEADER_SIZE, &sec);
	if (err)
		return err;
	w->data_offset = sec.offset + sec.size;
	w->nr_attrs_out = w->nr_attrs;
	scan_setup(w);
	return writer_header(w, &sec, NULL);
}

static void put_attr_record(struct perf_fbuf *b, const struct perf_event_desc *d)
{
	size_t size = sizeof(struct perf_counter_header) + sizeof(d->attr) +
		      d->nr_ids * sizeof(u64);
	struct perf_counter_header h = {
		.type = PERF_RECORD_HEADER_ATTR,
		.size = size,
	};

	/* The record size is 16 bits: that caps the ids of one attr. */
	if (size > UINT16_MAX) {
		b->err = -E2BIG;
		return;
	}
	perf_fbuf__put(b, &h, sizeof(h));
	perf_fbuf__put(b, &d->attr, sizeof(d->attr));
	perf_fbuf__put(b, d->ids, d->nr_ids * sizeof(u64));
}

/* Padded to 8 bytes so that the records after it stay aligned. */
static void put_feature_record(struct perf_fbuf *b, u64 feat,
			       const struct perf_fbuf *payload)
{
	size_t len = payload ? payload->len : 0;
	size_t pad = PERF_ALIGN8(len) - len;
	struct perf_record_header_feature fe = {
		.header.type = PERF_RECORD_HEADER_FEATURE,
		.header.size = sizeof(fe) + len + pad,
		.feat_id = feat,
	};

	perf_fbuf__put(b, &fe, sizeof(fe));
	if (len)
		perf_fbuf__put(b, payload->data, len);
	perf_fbuf__zero(b, pad);
}

/* The writer's own attrs stand for EVENT_DESC. */
static void features_view(const struct perf_data_writer *w,
			  struct perf_header_info *view)
{
	*view = w->info;
	view->events = w->attrs;
	view->nr_events = w->nr_attrs;
	if (w->nr_attrs)
		perf_feat_set(view->features, HEADER_EVENT_DESC);
}

/*
 * In a pipe the tracing data has a record of its own: a 16-byte header
 * (type, size, the blob's size padded to 8 bytes, a pad word), then the
 * blob.
 */
static void put_tracing_data_record(struct perf_fbuf *b,
				    const struct perf_header_info *info)
{
	u64 len = info->tracing_data_size;
	u32 padded = PERF_ALIGN8(len);
	struct perf_counter_header h = {
		.type = PERF_RECORD_HEADER_TRACING_DATA,
		.size = sizeof(h) + 2 * sizeof(u32),
	};

	perf_fbuf__put(b, &h, sizeof(h));
	perf_fbuf__put_u32(b, padded);
	perf_fbuf__put_u32(b, 0);
	perf_fbuf__put(b, info->tracing_data, len);
	perf_fbuf__zero(b, padded - len);
}

static void put_pipe_features(struct perf_data_writer *w, struct perf_fbuf *b)
{
	struct perf_header_info view;
	int feat;

	features_view(w, &view);
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		struct perf_fbuf payload = { 0 };

		/* Build ids go out as records at the end, with the data. */
		if (!perf_feat_test(view.features, feat) ||
		    feat == HEADER_BUILD_ID || feat == HEADER_SAMPLE_TIME)
			continue;
		if (feat == HEADER_TRACING_DATA) {
			put_tracing_data_record(b, &view);
			continue;
		}
		if (!perf_header__write_feature(&payload, feat, &view) &&
		    payload.len + 24 <= UINT16_MAX)
			put_feature_record(b, feat, &payload);
		perf_fbuf__free(&payload);
	}
	put_feature_record(b, HEADER_LAST_FEATURE, NULL);
}

static int begin_pipe(struct perf_data_writer *w)
{
	struct perf_fbuf b = { 0 };
	int err;

	if (!w->begun) {
		struct perf_pipe_file_header ph = {
			.magic = PERF_MAGIC2,
			.size = PIPE_HEADER_SIZE,
		};

		perf_fbuf__put(&b, &ph, sizeof(ph));
	}
	for (; w->nr_attrs_out < w->nr_attrs; w->nr_attrs_out++)
		put_attr_record(&b, &w->attrs[w->nr_attrs_out]);
	if (!w->begun)
		put_pipe_features(w, &b);
	err = b.err ? b.err : buf_put(w, b.data, b.len);
	w->data_size += b.len;
	perf_fbuf__free(&b);
	return err;
}

int perf_data_writer__begin(struct perf_data_writer *w)
{
	int err;

	if (w->err || w->closed)
		return w->err ? w->err : -EBADF;
	if (w->begun && !w->pipe)
		return 0;
	err = w->pipe ? begin_pipe(w) : begin_file(w);
	if (err && !w->err)
		w->err = err;
	w->begun = true;
	return err;
}

int perf_data_writer__write(struct perf_data_writer *w, const void *buf,
			    size_t len)
{
	int err;

	if (w->err || w->closed)
		return w->err ? w->err : -EBADF;
	if (!w->begun) {
		err = perf_data_writer__begin(w);
		if (err)
			return err;
	}
	w->data_size += len;
	if (len < w->buf_cap / 2)
		return buf_put(w, buf, len);
	/* Large writes skip the copy. */
	err = flush_buf(w, true);
	if (err)
		return err;
	if (!w->pipe)
		scan_records(w, buf, len);
	return write_direct(w, buf, len);
}

struct feat_layout {
	struct perf_fbuf payload;
	struct perf_file_section sec[HEADER_LAST_FEATURE];
	u64 bits[HEADER_FEAT_WORDS];
	u32 nr;
};

static int layout_features(struct perf_data_writer *w, struct feat_layout *l)
{
	struct perf_header_info view;
	int feat;

	features_view(w, &view);
	if (!perf_feat_test(view.features, HEADER_SAMPLE_TIME) &&
	    w->scan.samples && w->scan.time_pos >= 0) {
		view.first_sample_time = w->scan.first;
		view.last_sample_time = w->scan.last;
		perf_feat_set(view.features, HEADER_SAMPLE_TIME);
	}
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		size_t start = l->payload.len;
		int err;

		if (!perf_feat_test(view.features, feat))
			continue;
		err = perf_header__write_feature(&l->payload, feat, &view);
		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		l->sec[l->nr].offset = start;
		l->sec[l->nr].size = l->payload.len - start;
		perf_feat_set(l->bits, feat);
		l->nr++;
	}
	return 0;
}

/* The section table right after the data, the payloads after it. */
static int write_features(struct perf_data_writer *w, u64 *end,
			  u64 *bits)
{
	u64 off = w->data_offset + w->flushed, payload_off;
	struct feat_layout *l = calloc(1, sizeof(*l));
	u32 i;
	int err;

	if (!l)
		return -ENOMEM;
	err = layout_features(w, l);
	payload_off = off + (u64)l->nr * sizeof(struct perf_file_section);
	for (i = 0; i < l->nr; i++)
		l->sec[i].offset += payload_off;
	if (!err)
		err = pwrite_full(w->fd, l->sec, l->nr * sizeof(l->sec[0]), off);
	if (!err)
		err = pwrite_full(w->fd, l->payload.data, l->payload.len,
				  payload_off);
	*end = payload_off + l->payload.len;
	memcpy(bits, l->bits, sizeof(l->bits));
	perf_fbuf__free(&l->payload);
	free(l);
	return err;
}

static int finish_file(struct perf_data_writer *w)
{
	u64 bits[HEADER_FEAT_WORDS] = { 0 };
	struct perf_file_section sec = {
		.offset = FILE_HEADER_SIZE,
		.size = (u64)w->nr_attrs_out * FILE_ATTR_SIZE,
	};
	u64 end;
	u32 i;
	int err;

	/* Where begin put them: after their ids. */
	for (i = 0; i < w->nr_attrs_out; i++)
		sec.offset += w->attrs[i].nr_ids * sizeof(u64);
	err = write_features(w, &end, bits);
	/* Attrs added after the data began go after the features. */
	if (!err && w->nr_attrs != w->nr_attrs_out) {
		err = write_attrs(w, PERF_ALIGN8(end), &sec);
		end = sec.offset + sec.size;
	}
	if (!err)
		err = writer_header(w, &sec, bits);
	/* A reused descriptor may hold more than this recording. */
	if (!err && ftruncate(w->fd, end))
		err = -errno;
	return err;
}

static int finish_pipe(struct perf_data_writer *w)
{
	struct perf_fbuf b = { 0 };
	u32 i;
	int err;

	for (i = 0; i < w->info.nr_build_ids; i++)
		perf_header__write_build_id_record(&b, &w->info.build_ids[i]);
	err = b.err ? b.err : buf_put(w, b.data, b.len);
	w->data_size += b.len;
	perf_fbuf__free(&b);
	return err ? err : flush_buf(w, true);
}

static void writer_release(struct perf_data_writer *w)
{
	u32 i;

	for (i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].name);
		free(w->attrs[i].ids);
	}
	free(w->attrs);
	w->attrs = NULL;
	w->nr_attrs = 0;
	w->attrs_alloc = 0;
	perf_header_info__exit(&w->info);
	free(w->buf);
	w->buf = NULL;
	if (w->own_fd)
		close(w->fd);
	w->fd = -1;
	free(w->path);
	w->path = NULL;
	w->closed = true;
}

int perf_data_writer__finish(struct perf_data_writer *w)
{
	int err;

	if (w->closed)
		return w->err;
	if (!w->begun)
		perf_data_writer__begin(w);
	err = flush_buf(w, true);
	if (!err)
		err = w->pipe ? finish_pipe(w) : finish_file(w);
	if (err && !w->err)
		w->err = err;
	writer_release(w);
	return w->err;
}

void perf_data_writer__abort(struct perf_data_writer *w)
{
	char *path = w->path;

	if (w->closed)
		return;
	w->path = NULL;
	writer_release(w);
	if (path)
		unlink(path);
	free(path);
}

u64 perf_data_writer__bytes(const struct perf_data_writer *w)
{
	return w->data_size;
}
