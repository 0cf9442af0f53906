// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data writing and reading, file and pipe mode; see data.h.
 *
 * The reader never allocates per record: a mapped file hands out
 * pointers into the mapping, a stream hands out pointers into its read
 * buffer, and only records queued for time ordering from a stream are
 * copied, into large chunks that are recycled as rounds drain.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <perf/parse-events.h>
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
#define STREAM_BUF_SIZE		(1024 * 1024)
#define STREAM_BUF_MAX		(1024ULL * 1024 * 1024)
#define MAX_RECORD		65536
#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

/* ---- writing ---- */

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };

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
	}
	return 0;
}

static int pwrite_full(int fd, const void *buf, size_t len, u64 off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
		off += n;
	}
	return 0;
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

/* ---- reading: messages ---- */

/* Format checking of the message helpers' arguments. */
#ifndef __printf
#define __printf(a, b) \
	__attribute__((format(printf, a, b)))
#endif

static __printf(2, 3) void set_error(struct perf_session *s,
				     const char *fmt, ...);
static __printf(2, 3) void add_warning(struct perf_session *s,
				       const char *fmt, ...);

static void set_error(struct perf_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
	va_end(ap);
}

static void add_warning(struct perf_session *s, const char *fmt, ...)
{
	size_t len = strlen(s->warnmsg);
	va_list ap;

	if (len + 2 >= sizeof(s->warnmsg))
		return;
	if (len)
		s->warnmsg[len++] = '\n';
	va_start(ap, fmt);
	vsnprintf(s->warnmsg + len, sizeof(s->warnmsg) - len, fmt, ap);
	va_end(ap);
}

const char *perf_session__error(const struct perf_session *s)
{
	return s->errmsg;
}

const char *perf_session__warning(const struct perf_session *s)
{
	return s->warnmsg;
}

/* ---- reading: attrs and the id table ---- */

struct perf_id_slot {
	u64 id;
	s32 idx;			/* attr index, -1 when free */
};

static u32 id_hash(u64 id, u32 mask)
{
	return (u32)((id * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

static void id_put(struct perf_session *s, u64 id, s32 idx)
{
	u32 i = id_hash(id, s->ids.mask);

	while (s->ids.slots[i].idx >= 0) {
		if (s->ids.slots[i].id == id)
			return;		/* the first attr keeps a shared id */
		i = (i + 1) & s->ids.mask;
	}
	s->ids.slots[i].id = id;
	s->ids.slots[i].idx = idx;
	s->ids.nr++;
}

/* Keep the table at most half full so probes stay short. */
static int id_reserve(struct perf_session *s, u32 more)
{
	struct perf_id_slot *old = s->ids.slots;
	u32 old_size = old ? s->ids.mask + 1 : 0, size = 64, i;

	if ((u64)(s->ids.nr + more) * 2 <= old_size)
		return 0;
	while ((u64)size < (u64)(s->ids.nr + more) * 2)
		size *= 2;
	s->ids.slots = malloc(size * sizeof(*old));
	if (!s->ids.slots) {
		s->ids.slots = old;
		return -ENOMEM;
	}
	for (i = 0; i < size; i++)
		s->ids.slots[i].idx = -1;
	s->ids.mask = size - 1;
	s->ids.nr = 0;
	for (i = 0; i < old_size; i++)
		if (old[i].idx >= 0)
			id_put(s, old[i].id, old[i].idx);
	free(old);
	return 0;
}

struct perf_session_attr *perf_session__find_attr(struct perf_session *s,
						  u64 id)
{
	u32 i;

	if (!s->ids.slots)
		return NULL;
	for (i = id_hash(id, s->ids.mask); s->ids.slots[i].idx >= 0;
	     i = (i + 1) & s->ids.mask)
		if (s->ids.slots[i].id == id)
			return &s->attrs[s->ids.slots[i].idx];
	return NULL;
}

/* u64 index of the id in a sample, or -1. */
static int sample_id_pos(u64 t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
	       !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
}

/* u64s from the end of other records to their id, or -1. */
static int trailer_id_pos(u64 t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
}

static void setup_id_positions(struct perf_session *s)
{
	const struct perf_counter_attr *first = &s->attrs[0].attr;
	bool agree = true;
	u32 i;

	s->sample_id_all = first->sample_id_all;
	s->id_pos = sample_id_pos(first->sample_type);
	s->is_pos = trailer_id_pos(first->sample_type);
	s->sample_type_all = 0;
	for (i = 0; i < s->nr_attrs; i++) {
		const struct perf_counter_attr *a = &s->attrs[i].attr;

		s->sample_type_all |= a->sample_type;
		if (sample_id_pos(a->sample_type) != s->id_pos ||
		    trailer_id_pos(a->sample_type) != s->is_pos ||
		    a->sample_id_all != first->sample_id_all)
			agree = false;
	}
	if (!agree || (s->nr_attrs > 1 && s->id_pos < 0))
		add_warning(s,
			    "%s: the events do not all carry a sample id in the same place; samples may be attributed to the wrong event",
			    s->name);
}

static int session_add_attr(struct perf_session *s,
			    const struct perf_counter_attr *attr,
			    const void *ids, u32 nr_ids)
{
	struct perf_session_attr *a;
	u32 i;

	if (array_reserve_one((void **)&s->attrs, &s->attrs_alloc, s->nr_attrs,
			      sizeof(*a)))
		return -ENOMEM;
	a = &s->attrs[s->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->idx = s->nr_attrs;
	a->ids = malloc((nr_ids + 1) * sizeof(u64));
	if (!a->ids || id_reserve(s, nr_ids)) {
		free(a->ids);
		return -ENOMEM;
	}
	/* The ids may sit unaligned in a pipe record. */
	memcpy(a->ids, ids, nr_ids * sizeof(u64));
	a->nr_ids = nr_ids;
	for (i = 0; i < nr_ids; i++)
		id_put(s, a->ids[i], a->idx);
	s->nr_attrs++;
	setup_id_positions(s);
	return 0;
}

static const char *symbol_name(const struct perf_event_symbol *sym, int nr,
			       u64 config)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (sym[i].config != config)
			continue;
		/* perf calls these two by their short names. */
		if (sym[i].alias && (!strcmp(sym[i].alias, "cycles") ||
				     !strcmp(sym[i].alias, "branches")))
			return sym[i].alias;
		return sym[i].name;
	}
	return NULL;
}

/*
 * Names of attrs are the session's own copies: the lists they come from
 * (EVENT_DESC) are freed when a stream sends them again.  A name that
 * is replaced stays allocated until the session closes, since readers
 * keep the name they were given.  @name is taken over; NULL leaves the
 * name as it was.
 */
static void attr_own_name(struct perf_session *s, struct perf_session_attr *a,
			  char *name)
{
	if (!name)
		return;
	if (a->own_name &&
	    array_reserve_one((void **)&s->old_names, &s->old_names_alloc,
			      s->nr_old_names, sizeof(char *))) {
		free(name);
		return;
	}
	if (a->own_name)
		s->old_names[s->nr_old_names++] = a->own_name;
	a->own_name = name;
	a->name = name;
}

static void default_name(struct perf_session *s, struct perf_session_attr *a)
{
	const char *name = NULL;
	char *generic;

	if (a->attr.type == PERF_TYPE_HARDWARE)
		name = symbol_name(perf_hw_symbols, perf_nr_hw_symbols,
				   a->attr.config);
	else if (a->attr.type == PERF_TYPE_SOFTWARE)
		name = symbol_name(perf_sw_symbols, perf_nr_sw_symbols,
				   a->attr.config);
	if (name) {
		a->name = name;
		return;
	}
	a->name = "unknown";
	if (asprintf(&generic, "%u:%#llx", a->attr.type,
		     (u64)a->attr.config) >= 0)
		attr_own_name(s, a, generic);
}

/* EVENT_DESC names the attrs: by their first id, else by position. */
static void name_attrs(struct perf_session *s)
{
	u32 i;

	for (i = 0; i < s->info.nr_events; i++) {
		const struct perf_event_desc *d = &s->info.events[i];
		struct perf_session_attr *a = NULL;

		if (d->nr_ids)
			a = perf_session__find_attr(s, d->ids[0]);
		if (!a && i < s->nr_attrs && !d->nr_ids)
			a = &s->attrs[i];
		if (a && d->name && *d->name && (!a->name || strcmp(a->name, d->name)))
			attr_own_name(s, a, strdup(d->name));
	}
	for (i = 0; i < s->nr_attrs; i++)
		if (!s->attrs[i].name)
			default_name(s, &s->attrs[i]);
}

/* ---- reading: file mode header ---- */

static int check_magic(struct perf_session *s, u64 magic)
{
	if (magic == PERF_MAGIC2)
		return 0;
	if (magic == PERF_MAGIC2_SWAPPED) {
		set_error(s,
			  "%s: written on a machine of the other byte order; big-endian perf.data files are not supported (convert it with perf on such a machine)",
			  s->name);
		return -EOPNOTSUPP;
	}
	if (magic == PERF_MAGIC1) {
		set_error(s,
			  "%s: a version 1 perf.data file (PERFFILE); this format is not supported, record it again",
			  s->name);
		return -EOPNOTSUPP;
	}
	set_error(s, "%s: not a perf.data file (magic %#llx at offset 0, expected \"PERFILE2\")",
		  s->name, magic);
	return -EINVAL;
}

static bool section_ok(const struct perf_session *s,
		       const struct perf_file_section *sec)
{
	return sec->offset <= s->size && sec->size <= s->size - sec->offset;
}

static int read_one_attr(struct perf_session *s, u64 off)
{
	const struct perf_file_header *h = &s->header;
	struct perf_counter_attr attr;
	struct perf_file_section ids;
	u32 asz;

	memcpy(&asz, s->map + off + offsetof(struct perf_counter_attr, size),
	       sizeof(asz));
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz + sizeof(ids) > h->attr_size) {
		set_error(s,
			  "%s: the attr at offset %#llx says it has %u bytes, which do not fit its %llu-byte entry: the header is corrupt",
			  s->name, off, asz, h->attr_size);
		return -EINVAL;
	}
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, s->map + off, asz < sizeof(attr) ? asz : sizeof(attr));
	memcpy(&ids, s->map + off + asz, sizeof(ids));
	if (!section_ok(s, &ids) || ids.size % sizeof(u64) ||
	    ids.size / sizeof(u64) > UINT32_MAX) {
		set_error(s,
			  "%s: the ids of the attr at offset %#llx ([%#llx, +%#llx]) are not inside the %llu-byte file: the file is cut short or corrupt",
			  s->name, off, ids.offset, ids.size, s->size);
		return -EINVAL;
	}
	return session_add_attr(s, &attr, s->map + ids.offset,
				ids.size / sizeof(u64));
}

static int read_attrs(struct perf_session *s)
{
	const struct perf_file_header *h = &s->header;
	u64 i, nr;
	int err;

	if (!h->attr_size || !h->attrs.size) {
		set_error(s,
			  "%s: no events in the header (attrs section empty): the recording stopped before it started; record again",
			  s->name);
		return -EINVAL;
	}
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) ||
	    h->attr_size > (1 << 16)) {
		set_error(s,
			  "%s: the header's attr size %llu (at offset %#zx) is impossible: the header is corrupt",
			  s->name, h->attr_size,
			  offsetof(struct perf_file_header, attr_size));
		return -EINVAL;
	}
	if (!section_ok(s, &h->attrs)) {
		set_error(s,
			  "%s: the attrs section [%#llx, +%#llx] runs past the end of the %llu-byte file: the file is cut short",
			  s->name, h->attrs.offset, h->attrs.size, s->size);
		return -EINVAL;
	}
	nr = h->attrs.size / h->attr_size;
	for (i = 0; i < nr; i++) {
		err = read_one_attr(s, h->attrs.offset + i * h->attr_size);
		if (err)
			return err;
	}
	return 0;
}

static void read_features(struct perf_session *s)
{
	const u64 *bits = s->header.adds_features;
	u64 off = s->data_end, nr = 0;
	const u8 *table;
	int feat;

	for (feat = 0; feat < HEADER_FEAT_BITS; feat++)
		nr += perf_feat_test(bits, feat);
	if (!nr)
		return;
	if (off > s->size || nr * sizeof(struct perf_file_section) >
			     s->size - off) {
		add_warning(s,
			    "%s: the feature table at offset %#llx runs past the end of the file: header features ignored",
			    s->name, off);
		return;
	}
	table = s->map + off;
	for (feat = 0; feat < HEADER_FEAT_BITS; feat++) {
		struct perf_file_section sec;

		if (!perf_feat_test(bits, feat))
			continue;
		memcpy(&sec, table, sizeof(sec));
		table += sizeof(sec);
		if (!section_ok(s, &sec)) {
			add_warning(s,
				    "%s: feature %s at offset %#llx runs past the end of the file; ignored",
				    s->name, perf_header__feat_name(feat) ?: "?",
				    sec.offset);
			continue;
		}
		if (feat == HEADER_TRACING_DATA) {
			s->tracing_data = s->map + sec.offset;
			s->tracing_data_size = sec.size;
		}
		if (perf_header__read_feature(&s->info, feat, s->map + sec.offset,
					      sec.size))
			add_warning(s,
				    "%s: feature %s at offset %#llx (size %#llx) is malformed; ignored",
				    s->name, perf_header__feat_name(feat) ?: "?",
				    sec.offset, sec.size);
	}
}

/* Where the records end, given what the header says and the file has. */
static int setup_data(struct perf_session *s)
{
	const struct perf_file_section *d = &s->header.data;

	if (d->offset < s->header.size || d->offset > s->size) {
		set_error(s,
			  "%s: the data section starts at %#llx, outside the %llu-byte file: the header is corrupt or the file cut short",
			  s->name, d->offset, s->size);
		return -EINVAL;
	}
	s->data_offset = d->offset;
	s->data_end = d->offset + d->size;
	if (!d->size && s->size > d->offset) {
		s->unfinished = true;
		s->data_end = s->size;
		add_warning(s,
			    "%s: recording did not finish: reading up to end of file (the header says data size 0)",
			    s->name);
	} else if (d->size > s->size - d->offset) {
		s->data_end = s->size;
		add_warning(s,
			    "%s: the data section should end at %#llx but the file has only %#llx bytes: the file is cut short; reading what is there",
			    s->name, d->offset + d->size, s->size);
	}
	return 0;
}

static int read_prologue(struct perf_session *s);

static int open_file_mode(struct perf_session *s)
{
	struct perf_file_header *h = &s->header;
	int err;

	memset(h, 0, sizeof(*h));
	memcpy(h, s->map, s->size < sizeof(*h) ? s->size : sizeof(*h));
	if (h->size != FILE_HEADER_SIZE && h->size != PERF_FILE_HEADER_V1_SIZE) {
		set_error(s,
			  "%s: header size %llu (at offset 0x8) is neither %zu nor %zu: not a perf.data file this perf reads",
			  s->name, h->size, FILE_HEADER_SIZE, PIPE_HEADER_SIZE);
		return -EINVAL;
	}
	if (s->size < h->size) {
		set_error(s,
			  "%s: the file ends at %llu bytes, inside its %llu-byte header: the file is cut short",
			  s->name, s->size, h->size);
		return -EINVAL;
	}
	if (h->size == PERF_FILE_HEADER_V1_SIZE)
		memset(h->adds_features, 0, sizeof(h->adds_features));
	err = read_attrs(s);
	if (!err)
		err = setup_data(s);
	if (err)
		return err;
	/* Features follow the data only when the data was complete. */
	if (!s->unfinished && s->data_end == s->header.data.offset +
					     s->header.data.size)
		read_features(s);
	name_attrs(s);
	tod_from_header(&s->info, &s->tod);
	err = read_prologue(s);
	/* A damaged record is met again, and reported, by the iteration. */
	s->errmsg[0] = '\0';
	return err;
}

/* ---- reading: records, from the mapping or a stream ---- */

/* Double the stream buffer, up to the @want bytes a record needs. */
static int stream_grow(struct perf_session *s, size_t want)
{
	size_t cap = s->buf_cap ? s->buf_cap * 2 : STREAM_BUF_SIZE;
	u8 *p;

	if (cap > want && want > s->buf_cap)
		cap = want > STREAM_BUF_SIZE ? want : STREAM_BUF_SIZE;
	p = realloc(s->buf, cap);
	if (!p)
		return -ENOMEM;
	s->buf = p;
	s->buf_cap = cap;
	return 0;
}

static int stream_fill(struct perf_session *s, u64 pos, size_t need,
		       u64 keep_from)
{
	u64 end = pos + need;
	size_t off;

	if (end <= s->buf_start + s->buf_len)
		return 0;
	if (keep_from > s->buf_start) {
		size_t drop = keep_from - s->buf_start;

		memmove(s->buf, s->buf + drop, s->buf_len - drop);
		s->buf_len -= drop;
		s->buf_start = keep_from;
	}
	off = end - s->buf_start;
	if (off > STREAM_BUF_MAX)
		return -EFBIG;
	while (s->buf_start + s->buf_len < end) {
		ssize_t n;

		if (s->eof)
			return 1;
		/*
		 * The buffer grows as bytes come, not by the size a record
		 * claims: a lying size costs what the pipe really sends.
		 */
		if (s->buf_len == s->buf_cap && stream_grow(s, off))
			return -ENOMEM;
		n = read(s->fd, s->buf + s->buf_len, s->buf_cap - s->buf_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			s->eof = true;
		s->buf_len += n;
	}
	return 0;
}

/* Records in a stream need not be aligned: copy their header out. */
static struct perf_counter_header rec_header(const u8 *rec)
{
	struct perf_counter_header h;

	memcpy(&h, rec, sizeof(h));
	return h;
}

/* Bytes that follow some records beyond header.size. */
static u64 payload_size(const u8 *rec)
{
	const struct perf_counter_header h = rec_header(rec);
	u64 v = 0;
	u32 v32 = 0;

	if (h.type == PERF_RECORD_AUXTRACE && h.size >= 16) {
		memcpy(&v, rec + 8, sizeof(v));
		return v;
	}
	if (h.type == PERF_RECORD_HEADER_TRACING_DATA && h.size >= 12) {
		memcpy(&v32, rec + 8, sizeof(v32));
		return v32;
	}
	return 0;
}

static int data_error(struct perf_session *s, u64 pos, const char *what,
		      const struct perf_counter_header *h)
{
	u64 off = s->pipe ? pos - PIPE_HEADER_SIZE : pos;

	if (h)
		set_error(s,
			  "%s: %s at offset %#llx (type %u %s, size %u); the %llu records before it were read",
			  s->name, what, off, h->type, perf_event__name(h->type),
			  h->size, s->stats.nr_events[0]);
	else
		set_error(s, "%s: %s at offset %#llx; the %llu records before it were read",
			  s->name, what, off, s->stats.nr_events[0]);
	return -EBADMSG;
}

static const char *cut_short(const struct perf_session *s)
{
	static const char * const msg[] = {
		"the data ends inside a record: the file is cut short (disk full, or the recording was killed?)",
		"the data ends inside a record (the recording was killed while writing)",
	};

	return msg[s->unfinished];
}

/*
 * The record at stream/file position pos: 1 with *rec and *total
 * (record plus payload), 0 at the end, or -errno (-EBADMSG: the data is
 * cut short or corrupt there).
 */
static int next_mapped(struct perf_session *s, u64 pos, const u8 **rec,
		       u64 *total)
{
	struct perf_counter_header h;
	u64 left = s->data_end - pos;

	if (!left)
		return 0;
	if (left < sizeof(h))
		return data_error(s, pos, cut_short(s), NULL);
	memcpy(&h, s->map + pos, sizeof(h));
	if (h.size < sizeof(h))
		return data_error(s, pos,
				  "a record smaller than its header: the data is corrupt from there on",
				  &h);
	*total = h.size + payload_size(s->map + pos);
	if (h.size > left || *total > left)
		return data_error(s, pos, cut_short(s), &h);
	*rec = s->map + pos;
	return 1;
}

static int next_stream(struct perf_session *s, u64 pos, u64 keep_from,
		       const u8 **rec, u64 *total)
{
	struct perf_counter_header h;
	int ret = stream_fill(s, pos, sizeof(h), keep_from);

	if (ret < 0)
		goto read_error;
	if (ret)
		return s->buf_start + s->buf_len == pos ? 0 :
		       data_error(s, pos, "the pipe ends inside a record", NULL);
	memcpy(&h, s->buf + (pos - s->buf_start), sizeof(h));
	if (h.size < sizeof(h))
		return data_error(s, pos,
				  "a record smaller than its header: the data is corrupt from there on",
				  &h);
	ret = stream_fill(s, pos, h.size, keep_from);
	if (!ret) {
		*total = h.size + payload_size(s->buf + (pos - s->buf_start));
		ret = stream_fill(s, pos, *total, keep_from);
	}
	if (ret < 0)
		goto read_error;
	if (ret)
		return data_error(s, pos, "the pipe ends inside a record", &h);
	*rec = s->buf + (pos - s->buf_start);
	return 1;
read_error:
	set_error(s, "%s: reading at offset %#llx failed: %s", s->name,
		  pos, strerror(-ret));
	return ret;
}

static int next_record(struct perf_session *s, u64 pos, u64 keep_from,
		       const u8 **rec, u64 *total)
{
	if (s->stream)
		return next_stream(s, pos, keep_from, rec, total);
	return next_mapped(s, pos, rec, total);
}

/* Kernel records are read as u64 arrays: give them 8-byte alignment. */
static const union perf_event *aligned(struct perf_session *s, const u8 *rec)
{
	const struct perf_counter_header h = rec_header(rec);

	if (!((uintptr_t)rec & 7))
		return (const void *)rec;
	memcpy(s->scratch, rec, h.size);
	return (const void *)s->scratch;
}

/* ---- reading: records perf writes (types 64 and up) ---- */

static int process_attr_record(struct perf_session *s, const u8 *rec,
			       u64 pos)
{
	const struct perf_counter_header h = rec_header(rec);
	struct perf_counter_attr attr;
	u32 asz;

	if (h.size < sizeof(h) + PERF_ATTR_SIZE_VER0)
		return data_error(s, pos, "an ATTR record too small for an attr",
				  &h);
	memcpy(&asz, rec + sizeof(h) + offsetof(struct perf_counter_attr, size),
	       sizeof(asz));
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || sizeof(h) + asz > h.size)
		return data_error(s, pos, "an ATTR record whose attr does not fit it",
				  &h);
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, rec + sizeof(h), asz < sizeof(attr) ? asz : sizeof(attr));
	if (session_add_attr(s, &attr, rec + sizeof(h) + asz,
			     (h.size - sizeof(h) - asz) / sizeof(u64)))
		return -ENOMEM;
	name_attrs(s);
	return 0;
}

static void process_feature_record(struct perf_session *s, const u8 *rec,
				   u64 pos)
{
	const struct perf_counter_header h = rec_header(rec);
	u64 feat;

	if (h.size < sizeof(struct perf_record_header_feature))
		return;
	memcpy(&feat, rec + sizeof(h), sizeof(feat));
	/* HEADER_LAST_FEATURE marks the end of the features. */
	if (feat == HEADER_LAST_FEATURE)
		return;
	if (perf_header__read_feature(&s->info, feat, rec + 16, h.size - 16))
		add_warning(s, "%s: feature record %s at offset %#llx is malformed; ignored",
			    s->name, perf_header__feat_name(feat) ?: "?",
			    pos - (s->pipe ? PIPE_HEADER_SIZE : 0));
	if (feat == HEADER_EVENT_DESC)
		name_attrs(s);
}

/* PERF_RECORD_EVENT_UPDATE of type NAME: u64 type, u64 id, name. */
static void process_event_update(struct perf_session *s, const u8 *rec)
{
	const struct perf_counter_header h = rec_header(rec);
	struct perf_session_attr *a;
	u64 type, id;
	char *name;

	if (h.size <= 24)
		return;
	memcpy(&type, rec + 8, sizeof(type));
	memcpy(&id, rec + 16, sizeof(id));
	a = perf_session__find_attr(s, id);
	if (type != 2 || !a)
		return;
	name = strndup((const char *)rec + 24, h.size - 24);
	attr_own_name(s, a, name);
}

static int keep_tracing_data(struct perf_session *s, const u8 *rec)
{
	const struct perf_counter_header h = rec_header(rec);
	u64 size = payload_size(rec);

	if (!s->stream) {
		s->tracing_data = rec + h.size;
		s->tracing_data_size = size;
		return 0;
	}
	free(s->own_tracing_data);
	s->own_tracing_data = malloc(size + 1);
	if (!s->own_tracing_data)
		return -ENOMEM;
	memcpy(s->own_tracing_data, rec + h.size, size);
	s->tracing_data = s->own_tracing_data;
	s->tracing_data_size = size;
	return 0;
}

/* A time-of-day correlation point; an obsolete event type is ignored. */
static int note_tod_point(struct perf_session *s, const u8 *rec)
{
	struct tod_point p;

	if (tod_point_parse(aligned(s, rec), &p))
		return 0;
	return tod_add_point(&s->tod, &p);
}

/* What a record of perf's own tells the session; once per record. */
static int process_user_record(struct perf_session *s, const u8 *rec,
			       u64 pos, u64 total)
{
	const struct perf_counter_header h = rec_header(rec);

	if (pos < s->processed_end)
		return 0;
	s->processed_end = pos + total;
	switch (h.type) {
	case PERF_RECORD_HEADER_ATTR:
		return process_attr_record(s, rec, pos);
	case PERF_RECORD_HEADER_FEATURE:
		process_feature_record(s, rec, pos);
		return 0;
	case PERF_RECORD_HEADER_BUILD_ID:
		perf_header__read_build_id_record(&s->info, rec, h.size);
		return 0;
	case PERF_RECORD_EVENT_UPDATE:
		process_event_update(s, rec);
		return 0;
	case PERF_RECORD_HEADER_TRACING_DATA:
		return keep_tracing_data(s, rec);
	case PERF_RECORD_HEADER_EVENT_TYPE:
		return note_tod_point(s, rec);
	default:
		return 0;
	}
}

/*
 * A pipe's attrs and features come first in the stream, and a --tod
 * recording's first correlation point in files and pipes: read them at
 * open, keeping the bytes so that iteration still delivers them.
 */
static int read_prologue(struct perf_session *s)
{
	u64 pos = s->data_offset, total;
	const u8 *rec;

	for (;;) {
		struct perf_counter_header h;
		int ret = next_record(s, pos, 0, &rec, &total);

		if (ret <= 0)
			return ret == -EBADMSG ? 0 : ret;
		h = rec_header(rec);
		if (h.type < PERF_RECORD_USER_TYPE_START ||
		    h.type == PERF_RECORD_FINISHED_ROUND ||
		    h.type == PERF_RECORD_FINISHED_INIT)
			return 0;
		ret = process_user_record(s, rec, pos, total);
		if (ret)
			return ret == -EBADMSG ? 0 : ret;
		pos += total;
	}
}

static int open_pipe_mode(struct perf_session *s)
{
	int err;

	s->pipe = true;
	s->data_offset = PIPE_HEADER_SIZE;
	s->data_end = s->stream ? UINT64_MAX : s->size;
	err = read_prologue(s);
	if (err)
		return err;
	/* A damaged record is met again, and reported, by the iteration. */
	s->errmsg[0] = '\0';
	name_attrs(s);
	tod_from_header(&s->info, &s->tod);
	return 0;
}

/* ---- reading: open and close ---- */

/* Files up to this size are mapped in at open (MAP_POPULATE). */
#define POPULATE_MAX (1ULL << 30)

static int open_mapped(struct perf_session *s, const struct stat *st)
{
	u64 magic, size;
	void *map;
	int err, flags;

	s->size = st->st_size;
	if (s->size < 2 * sizeof(u64)) {
		set_error(s,
			  "%s: the file has %llu bytes, too few for a perf.data header: not a perf.data file, or cut short",
			  s->name, s->size);
		return -EINVAL;
	}
	/*
	 * Every byte is read: mapping the pages in one call costs far less
	 * than a fault per few pages.  Not for files too big to keep in
	 * memory, where it would only read ahead what is evicted again.
	 */
	flags = MAP_PRIVATE;
	if (s->size <= POPULATE_MAX)
		flags |= MAP_POPULATE;
	map = mmap(NULL, s->size, PROT_READ, flags, s->fd, 0);
	if (map == MAP_FAILED) {
		set_error(s, "%s: cannot map the file: %s", s->name,
			  strerror(errno));
		return -errno;
	}
	s->map = map;
	memcpy(&magic, s->map, sizeof(magic));
	memcpy(&size, s->map + sizeof(magic), sizeof(size));
	err = check_magic(s, magic);
	if (err)
		return err;
	if (size == PIPE_HEADER_SIZE)
		return open_pipe_mode(s);
	return open_file_mode(s);
}

static int open_stream(struct perf_session *s)
{
	struct perf_pipe_file_header ph;
	int ret;

	s->stream = true;
	ret = stream_fill(s, 0, sizeof(ph), 0);
	if (ret < 0) {
		set_error(s, "%s: cannot read: %s", s->name, strerror(-ret));
		return ret;
	}
	if (ret && !s->buf_len) {
		set_error(s, "zero-sized file (%s), nothing to do!", s->name);
		return PERF_SESSION_EMPTY;
	}
	if (ret) {
		set_error(s, "%s: the input ends after %zu bytes, inside the perf.data header",
			  s->name, s->buf_len);
		return -EINVAL;
	}
	memcpy(&ph, s->buf, sizeof(ph));
	ret = check_magic(s, ph.magic);
	if (ret)
		return ret;
	if (ph.size != PIPE_HEADER_SIZE) {
		set_error(s,
			  "%s: a perf.data file in file mode cannot be read from a pipe; give its path instead",
			  s->name);
		return -EINVAL;
	}
	return open_pipe_mode(s);
}

int perf_session__open_fd(struct perf_session *s, int fd, const char *name)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->fd = fd;
	s->id_pos = -1;
	s->is_pos = -1;
	perf_header_info__init(&s->info);
	s->scratch = malloc(MAX_RECORD + sizeof(u64));
	if (!s->scratch)
		return -ENOMEM;
	if (fstat(fd, &st)) {
		set_error(s, "%s: %s", s->name, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		set_error(s,
			  "%s is a directory (perf record --dir?): this perf reads perf.data files only",
			  s->name);
		return -EISDIR;
	}
	if (S_ISREG(st.st_mode) && !st.st_size) {
		set_error(s, "zero-sized file (%s), nothing to do!", s->name);
		return PERF_SESSION_EMPTY;
	}
	return S_ISREG(st.st_mode) ? open_mapped(s, &st) : open_stream(s);
}

int perf_session__open(struct perf_session *s, const char *path)
{
	static const char hint[] =
		" (record one with perf record, or name another with -i)";
	int fd, err;

	if (!strcmp(path, "-"))
		return perf_session__open_fd(s, STDIN_FILENO, "stdin");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		memset(s, 0, sizeof(*s));
		s->fd = -1;
		set_error(s, "cannot open %s: %s%s", path, strerror(-err),
			  err == -ENOENT ? hint : "");
		return err;
	}
	err = perf_session__open_fd(s, fd, path);
	s->own_fd = true;
	return err;
}

static void queue_free(struct perf_session_queue *q);
static void decomp_free(struct perf_session *s);

void perf_session__close(struct perf_session *s)
{
	u32 i;

	for (i = 0; i < s->nr_attrs; i++) {
		free(s->attrs[i].ids);
		free(s->attrs[i].own_name);
	}
	for (i = 0; i < s->nr_old_names; i++)
		free(s->old_names[i]);
	free(s->old_names);
	s->old_names = NULL;
	s->nr_old_names = s->old_names_alloc = 0;
	free(s->attrs);
	free(s->ids.slots);
	perf_header_info__exit(&s->info);
	tod_exit(&s->tod);
	if (s->map)
		munmap((void *)s->map, s->size);
	if (s->own_fd)
		close(s->fd);
	s->own_fd = false;
	free(s->buf);
	free(s->scratch);
	free(s->own_tracing_data);
	queue_free(s->queue);
	decomp_free(s);
	s->attrs = NULL;
	s->ids.slots = NULL;
	s->map = NULL;
	s->buf = NULL;
	s->scratch = NULL;
	s->own_tracing_data = NULL;
	s->queue = NULL;
	s->nr_attrs = 0;
	s->fd = -1;
}

const void *perf_session__tracing_data(const struct perf_session *s,
				       u64 *size)
{
	*size = s->tracing_data_size;
	return s->tracing_data;
}

/* ---- reading: decoding and delivery ---- */

/*
 * The attr a kernel record came from: 0 with *attr (NULL when its id is
 * unknown or it carries none), -EINVAL for a sample too short to hold
 * its id.
 */
static int attr_of(struct perf_session *s, const union perf_event *ev,
		   struct perf_session_attr **attr)
{
	const u64 *p = ev->array;
	u32 n = ev->header.size / sizeof(u64);
	int pos;

	*attr = NULL;
	if (s->nr_attrs <= 1) {
		*attr = s->nr_attrs ? &s->attrs[0] : NULL;
		return 0;
	}
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (s->id_pos < 0) {
			*attr = &s->attrs[0];
			return 0;
		}
		pos = 1 + s->id_pos;
		if ((u32)pos >= n)
			return -EINVAL;
	} else {
		if (!s->sample_id_all)
			return 0;
		if (s->is_pos < 0) {
			*attr = &s->attrs[0];
			return 0;
		}
		pos = (int)n - s->is_pos;
		if (pos < 1)
			return 0;
	}
	*attr = perf_session__find_attr(s, p[pos]);
	return 0;
}

static void no_sample(const union perf_event *ev, struct perf_sample *sample)
{
	memset(sample, 0, sizeof(*sample));
	sample->pid = (u32)-1;
	sample->tid = (u32)-1;
	sample->cpu = (u32)-1;
	sample->misc = ev->header.misc;
	sample->cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
}

/*
 * Decode a kernel record: 0 with *sample (and *attr when known), 1 for
 * a sample of an unknown id, -EINVAL for a sample its attr cannot
 * describe, -ERANGE for a sample of a CPU beyond PERF_MAX_CPUS.  *has_time says whether sample->time is real.
 */
static int decode(struct perf_session *s, const union perf_event *ev,
		  struct perf_sample *sample, struct perf_session_attr **attr,
		  bool *has_time)
{
	struct perf_session_attr *a;
	const struct perf_counter_attr *pa;
	u64 type;

	*has_time = false;
	/* The kernel pads every record to 8 bytes; fields are u64 aligned. */
	if ((ev->header.size & 7) || attr_of(s, ev, &a))
		return -EINVAL;
	*attr = a;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (!a)
			return 1;
		pa = &a->attr;
		if (perf_sample__parse(ev, pa->sample_type, pa->read_format,
				       pa->branch_sample_type,
				       pa->sample_regs_user,
				       pa->sample_regs_intr, sample))
			return -EINVAL;
		if ((pa->sample_type & PERF_SAMPLE_CPU) &&
		    sample->cpu >= PERF_MAX_CPUS)
			return -ERANGE;
		/* Without PERIOD in the sample, the attr's period is it. */
		if (!(pa->sample_type & PERF_SAMPLE_PERIOD))
			sample->period = pa->sample_period;
		*has_time = pa->sample_type & PERF_SAMPLE_TIME;
		return 0;
	}
	if (!s->sample_id_all || !s->nr_attrs) {
		no_sample(ev, sample);
		return 0;
	}
	type = a ? a->attr.sample_type : s->attrs[0].attr.sample_type;
	/* A record without its trailer is odd, not worth stopping for. */
	if (perf_sample__parse_id(ev, type, sample) ||
	    ((type & PERF_SAMPLE_CPU) && sample->cpu >= PERF_MAX_CPUS)) {
		no_sample(ev, sample);
		return 0;
	}
	*has_time = type & PERF_SAMPLE_TIME;
	return 0;
}

static int decode_error(struct perf_session *s, u64 pos,
			const union perf_event *ev, int err)
{
	if (err == -ERANGE)
		return data_error(s, pos,
				  "a SAMPLE record for a CPU beyond the " __stringify(PERF_MAX_CPUS) " perf handles: the data is corrupt",
				  &ev->header);
	if (ev->header.size & 7)
		return data_error(s, pos,
				  "a kernel record whose size is not a multiple of 8: the data is corrupt",
				  &ev->header);
	return data_error(s, pos,
			  "a SAMPLE record that does not fit its event's sample_type: the data is corrupt",
			  &ev->header);
}

static void count(struct perf_session *s, u32 type)
{
	struct perf_session_stats *st = &s->stats;
	u32 i;

	st->nr_events[0]++;
	if ((type && type < PERF_RECORD_MAX) ||
	    (type >= PERF_RECORD_USER_TYPE_START && type < PERF_RECORD_HEADER_MAX)) {
		st->nr_events[type]++;
		return;
	}
	st->nr_unknown_events++;
	for (i = 0; i < st->nr_unknown_types; i++)
		if (st->unknown_types[i] == type)
			return;
	if (i < ARRAY_SIZE(st->unknown_types))
		st->unknown_types[st->nr_unknown_types++] = type;
}

static u64 shown_offset(const struct perf_session *s, u64 pos)
{
	return s->pipe ? pos - PIPE_HEADER_SIZE : pos;
}

static int deliver(struct perf_session *s, const u8 *rec, u64 pos,
		   perf_session_event_fn fn, void *ctx)
{
	const union perf_event *ev = aligned(s, rec);
	struct perf_session_attr *attr;
	struct perf_sample sample;
	bool has_time;
	int ret;

	if (ev->header.type >= PERF_RECORD_USER_TYPE_START) {
		count(s, ev->header.type);
		return fn(s, ev, shown_offset(s, pos), NULL, NULL, ctx);
	}
	ret = decode(s, ev, &sample, &attr, &has_time);
	if (ret < 0)
		return decode_error(s, pos, ev, ret);
	if (attr && (u32)attr->idx >= s->nr_attrs_pass) {
		ret = ev->header.type == PERF_RECORD_SAMPLE;
		attr = NULL;
	}
	count(s, ev->header.type);
	if (ret) {
		s->stats.nr_unknown_id++;
		return fn(s, ev, shown_offset(s, pos), NULL, NULL, ctx);
	}
	if (ev->header.type == PERF_RECORD_SAMPLE)
		attr->nr_samples++;
	return fn(s, ev, shown_offset(s, pos), &sample, attr, ctx);
}

#define PROGRESS_STEP (16ULL * 1024 * 1024)

static void progress(struct perf_session *s, u64 pos, bool done)
{
	u64 total = s->stream ? 0 : s->data_end - s->data_offset;

	if (!s->progress || (!done && pos < s->progress_next))
		return;
	s->progress_next = pos + PROGRESS_STEP;
	s->progress(s->progress_ctx, pos - s->data_offset, total);
}

static void reset_stats(struct perf_session *s)
{
	u32 i;

	memset(&s->stats, 0, sizeof(s->stats));
	for (i = 0; i < s->nr_attrs; i++)
		s->attrs[i].nr_samples = 0;
}

static int begin_pass(struct perf_session *s)
{
	if (s->stream && s->finished) {
		set_error(s, "%s: a pipe can be read only once", s->name);
		return -EALREADY;
	}
	s->finished = s->stream;
	s->nr_attrs_pass = s->nr_attrs;
	s->progress_next = s->data_offset + PROGRESS_STEP;
	reset_stats(s);
	decomp_free(s);
	return 0;
}

static void decomp_free(struct perf_session *s)
{
	if (!s->decomp)
		return;
	perf_decompressor__exit(s->decomp);
	free(s->decomp);
	s->decomp = NULL;
}

typedef int (*record_fn)(struct perf_session *s, const u8 *rec, u64 pos,
			 perf_session_event_fn fn, void *ctx);

/*
 * The records inside a COMPRESSED record go where the file's own
 * records go, with its offset.  They live in a buffer that the next
 * COMPRESSED record reuses: the time queue copies them.
 */
static int unpack(struct perf_session *s, const u8 *rec, u64 pos,
		  record_fn one, perf_session_event_fn fn, void *ctx)
{
	const struct perf_counter_header h = rec_header(rec);
	const void *inner;
	int ret;

	if (h.type != PERF_RECORD_COMPRESSED)
		return 0;
	if (!s->decomp)
		s->decomp = calloc(1, sizeof(*s->decomp));
	if (!s->decomp)
		return -ENOMEM;
	ret = perf_decompressor__feed(s->decomp, rec + sizeof(h),
				      h.size - sizeof(h));
	s->unpacking = true;
	while (!ret && (ret = perf_decompressor__next(s->decomp, &inner)) > 0)
		ret = one(s, inner, pos, fn, ctx);
	s->unpacking = false;
	if (ret == -EBADMSG)
		return data_error(s, pos,
				  "a COMPRESSED record that does not decompress to records: the data is corrupt",
				  &h);
	return ret;
}

static int end_pass(struct perf_session *s, int ret)
{
	if (ret == -EBADMSG && s->errmsg[0])
		return PERF_SESSION_DATA_ERROR;
	return ret;
}

int perf_session__process_events(struct perf_session *s,
				 perf_session_event_fn fn, void *ctx)
{
	u64 pos = s->data_offset, total;
	const u8 *rec;
	int ret;

	s->errmsg[0] = '\0';
	ret = begin_pass(s);
	while (!ret) {
		ret = next_record(s, pos, pos, &rec, &total);
		if (ret <= 0)
			break;
		ret = process_user_record(s, rec, pos, total);
		if (!ret)
			ret = deliver(s, rec, pos, fn, ctx);
		if (!ret)
			ret = unpack(s, rec, pos, deliver, fn, ctx);
		pos += total;
		progress(s, pos, false);
	}
	progress(s, pos, true);
	return end_pass(s, ret);
}

/* ---- reading: time order ---- */

/*
 * Queued kernel records.  A round's records arrive as a few runs that
 * are each sorted (one per ring buffer); they are sorted by a natural
 * merge sort and merged with what earlier rounds left over.
 */
struct oe_event {
	u64 time;
	u64 pos;
	const u8 *rec;
	struct oe_chunk *chunk;		/* holds the copy, for streams */
};

struct oe_chunk {
	size_t used;
	size_t cap;
	u32 live;
	u64 data[];
};

#define OE_CHUNK_SIZE	(4U << 20)
#define OE_MAX_QUEUED	(4U << 20)

struct perf_session_queue {
	struct oe_event *pending;	/* sorted, after earlier flushes */
	u32 nr_pending;
	u32 pending_cap;
	struct oe_event *incoming;	/* this round, in file order */
	u32 nr_incoming;
	u32 incoming_cap;
	struct oe_event *tmp;
	u32 tmp_cap;
	u64 max_time;			/* newest queued time */
	u64 next_flush;			/* the next round flushes up to it */
	u64 last_flushed;		/* time of the last delivered record */
	u64 last_time;			/* time given to records without one */
	struct oe_chunk *chunk;		/* where stream copies go */
	struct oe_chunk *spare;
};

static void chunk_release(struct perf_session_queue *q, struct oe_chunk *c);

static void queue_free(struct perf_session_queue *q)
{
	u32 i;

	if (!q)
		return;
	/* Records still queued after a stop hold their chunks. */
	for (i = 0; i < q->nr_pending; i++)
		chunk_release(q, q->pending[i].chunk);
	for (i = 0; i < q->nr_incoming; i++)
		chunk_release(q, q->incoming[i].chunk);
	free(q->pending);
	free(q->incoming);
	free(q->tmp);
	free(q->chunk);
	free(q->spare);
	free(q);
}

static int grow(struct oe_event **a, u32 *cap, u32 need)
{
	struct oe_event *p;
	u32 n = *cap ? *cap : 1024;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*a, (size_t)n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*a = p;
	*cap = n;
	return 0;
}

static bool oe_before(const struct oe_event *a, const struct oe_event *b)
{
	return a->time < b->time || (a->time == b->time && a->pos < b->pos);
}

static void oe_merge(const struct oe_event *a, u32 na,
		     const struct oe_event *b, u32 nb, struct oe_event *out)
{
	u32 i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = oe_before(&b[j], &a[i]) ? b[j++] : a[i++];
	while (i < na)
		*out++ = a[i++];
	while (j < nb)
		*out++ = b[j++];
}

static u32 run_end(const struct oe_event *a, u32 i, u32 n)
{
	for (i++; i < n && !oe_before(&a[i], &a[i - 1]); i++)
		;
	return i;
}

/* Natural merge sort of a[n] using tmp[n]; returns where the result is. */
static struct oe_event *oe_sort(struct oe_event *a, struct oe_event *tmp,
				u32 n)
{
	while (n && run_end(a, 0, n) < n) {
		struct oe_event *swap;
		u32 i = 0;

		while (i < n) {
			u32 mid = run_end(a, i, n), end;

			if (mid == n) {
				memcpy(tmp + i, a + i, (n - i) * sizeof(*a));
				break;
			}
			end = run_end(a, mid, n);
			oe_merge(a + i, mid - i, a + mid, end - mid, tmp + i);
			i = end;
		}
		swap = a;
		a = tmp;
		tmp = swap;
	}
	return a;
}

static void chunk_release(struct perf_session_queue *q, struct oe_chunk *c)
{
	if (!c || --c->live || c == q->chunk)
		return;
	if (!q->spare) {
		q->spare = c;
		return;
	}
	free(c);
}

/* Streams reuse their buffer: a queued record needs its own copy. */
static const u8 *queue_copy(struct perf_session_queue *q, const u8 *rec,
			    struct oe_chunk **chunk)
{
	const struct perf_counter_header h = rec_header(rec);
	size_t len = PERF_ALIGN8(h.size);
	struct oe_chunk *c = q->chunk;
	u8 *dst;

	if (c && !c->live)
		c->used = 0;
	if (!c || c->used + len > c->cap) {
		if (c && !c->live)
			free(c);
		c = q->spare;
		q->spare = NULL;
		if (!c)
			c = malloc(sizeof(*c) + OE_CHUNK_SIZE);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = OE_CHUNK_SIZE;
		c->live = 0;
		q->chunk = c;
	}
	dst = (u8 *)c->data + c->used;
	memcpy(dst, rec, h.size);
	c->used += len;
	c->live++;
	*chunk = c;
	return dst;
}

/* Deliver the queued records not later than limit, in time order. */
static int queue_flush(struct perf_session *s, u64 limit,
		       perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	u32 n = q->nr_pending + q->nr_incoming, i;
	struct oe_event *sorted, *merged;
	int ret = 0;

	if (!n)
		return 0;
	/* The sort ping-pongs between incoming and tmp; the merge goes
	 * into whichever of them does not hold the sorted run.
	 */
	if (grow(&q->tmp, &q->tmp_cap, n) ||
	    grow(&q->incoming, &q->incoming_cap, n) ||
	    grow(&q->pending, &q->pending_cap, n))
		return -ENOMEM;
	sorted = oe_sort(q->incoming, q->tmp, q->nr_incoming);
	merged = sorted == q->tmp ? q->incoming : q->tmp;
	oe_merge(q->pending, q->nr_pending, sorted, q->nr_incoming, merged);
	q->nr_incoming = 0;
	for (i = 0; i < n && merged[i].time <= limit && !ret; i++) {
		ret = deliver(s, merged[i].rec, merged[i].pos, fn, ctx);
		q->last_flushed = merged[i].time;
		chunk_release(q, merged[i].chunk);
	}
	for (; ret && i < n; i++)
		chunk_release(q, merged[i].chunk);
	q->nr_pending = n - i;
	memcpy(q->pending, merged + i, q->nr_pending * sizeof(*merged));
	return ret;
}

/*
 * The time a kernel record is ordered by, read in place: the record is
 * decoded (and checked) once, when it is delivered.  *has_time as in
 * decode(); -EINVAL where decode() would fail before the sample fields.
 */
static int record_time(struct perf_session *s, const union perf_event *ev,
		       u64 *time, bool *has_time)
{
	const u64 *p = ev->array;
	u32 n = ev->header.size / sizeof(u64);
	struct perf_session_attr *a;
	u64 t;
	u32 pos;

	*has_time = false;
	if ((ev->header.size & 7) || attr_of(s, ev, &a))
		return -EINVAL;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (!a || !(a->attr.sample_type & PERF_SAMPLE_TIME))
			return 0;
		t = a->attr.sample_type;
		/* The header is p[0]; IDENTIFIER, IP and TID come first. */
		pos = 1 + !!(t & PERF_SAMPLE_IDENTIFIER) +
		      !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID);
		if (pos >= n)
			return -EINVAL;
	} else {
		if (!s->sample_id_all || !s->nr_attrs)
			return 0;
		t = a ? a->attr.sample_type : s->attrs[0].attr.sample_type;
		pos = perf_sample_id_size(t) / sizeof(u64);
		if (!(t & PERF_SAMPLE_TIME) || pos >= n)
			return 0;
		pos = n - pos + !!(t & PERF_SAMPLE_TID);
	}
	*time = p[pos];
	*has_time = true;
	return 0;
}

static int queue_record(struct perf_session *s, const u8 *rec, u64 pos,
			perf_session_event_fn fn, void *ctx)
{
	struct perf_session_queue *q = s->queue;
	const union perf_event *ev = aligned(s, rec);
	u64 time;
	struct oe_event *e;
	bool has_time;

	if (record_time(s, ev, &time, &has_time) < 0)
		return decode_error(s, pos, ev, -EINVAL);
	if (!has_time)
		time = q->last_time;
	/*
	 * Time 0 is what records synthesized before counting started
	 * carry: perf delivers those at once, and so do we.
	 */
	if (!time || time == UINT64_MAX)
		return deliver(s, rec, pos, fn, ctx);
	if (time < q->last_flushed)
		s->stats.nr_unordered++;
	if (grow(&q->incoming, &q->incoming_cap, q->nr_incoming + 1))
		return -ENOMEM;
	e = &q->incoming[q->nr_incoming];
	e->time = time;
	e->pos = pos;
	e->chunk = NULL;
	e->rec = s->stream || s->unpacking ? queue_copy(q, rec, &e->chunk) :
		 rec;
	if (!e->rec)
		return -ENOMEM;
	q->nr_incoming++;
	q->last_time = time;
	if (time > q->max_time)
		q->max_time = time;
	/* A file without rounds must not queue all of itself. */
	if (q->nr_incoming + q->nr_pending >= OE_MAX_QUEUED)
		return queue_flush(s, q->last_time < q->max_time ?
				   q->last_time : q->max_time, fn, ctx);
	return 0;
}

static int ordered_one(struct perf_session *s, const u8 *rec, u64 pos,
		       perf_session_event_fn fn, void *ctx)
{
	const struct perf_counter_header h = rec_header(rec);
	struct perf_session_queue *q = s->queue;
	int ret;

	if (h.type < PERF_RECORD_USER_TYPE_START)
		return queue_record(s, rec, pos, fn, ctx);
	ret = deliver(s, rec, pos, fn, ctx);
	if (ret || h.type != PERF_RECORD_FINISHED_ROUND)
		return ret;
	/* What the previous round saw is complete now. */
	ret = queue_flush(s, q->next_flush, fn, ctx);
	q->next_flush = q->max_time;
	return ret;
}

int perf_session__process_events_ordered(struct perf_session *s,
					 perf_session_event_fn fn, void *ctx)
{
	u64 pos = s->data_offset, total;
	const u8 *rec;
	int ret, flush;

	s->errmsg[0] = '\0';
	ret = begin_pass(s);
	if (ret)
		return ret;
	queue_free(s->queue);
	s->queue = calloc(1, sizeof(*s->queue));
	if (!s->queue)
		return -ENOMEM;
	while (!ret) {
		ret = next_record(s, pos, pos, &rec, &total);
		if (ret <= 0)
			break;
		ret = process_user_record(s, rec, pos, total);
		if (!ret)
			ret = ordered_one(s, rec, pos, fn, ctx);
		if (!ret)
			ret = unpack(s, rec, pos, ordered_one, fn, ctx);
		pos += total;
		progress(s, pos, false);
	}
	/* After a data error, what came before it still goes out. */
	if (!ret || ret == -EBADMSG) {
		char msg[sizeof(s->errmsg)];

		memcpy(msg, s->errmsg, sizeof(msg));
		flush = queue_flush(s, UINT64_MAX, fn, ctx);
		/* The first error is the one to tell, be it the flush's. */
		if (ret)
			memcpy(s->errmsg, msg, sizeof(msg));
		else
			ret = flush;
	}
	queue_free(s->queue);
	s->queue = NULL;
	progress(s, pos, true);
	return end_pass(s, ret);
}

/* ---- header lines ---- */

void perf_session__fprintf_header(struct perf_session *s, FILE *fp, bool full)
{
	const struct perf_file_header *h = &s->header;
	struct stat st;
	time_t t = time(NULL);

	if (s->fd >= 0 && !fstat(s->fd, &st))
		t = st.st_mtime;
	fprintf(fp, "# ========\n");
	fprintf(fp, "# captured on    : %s", ctime(&t));
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %llu\n",
		s->pipe ? 0 : h->data.offset);
	fprintf(fp, "# data size      : %llu\n",
		s->pipe ? 0 : h->data.size);
	fprintf(fp, "# feat offset    : %llu\n",
		s->pipe ? 0 : h->data.offset + h->data.size);
	if (s->pipe)
		fprintf(fp, "# ========\n#\n");
	perf_header_info__fprintf(&s->info, fp, full);
	if (s->pipe)
		return;
	perf_header_info__fprintf_missing(&s->info, fp);
	fprintf(fp, "# ========\n#\n");
}

/* "N records of unknown types (T, ...)": the types of the first few. */
static void fprintf_unknown_types(const struct perf_session *s, FILE *fp)
{
	u32 i;

	fprintf(fp, "%llu records of types this perf does not know (",
		(unsigned long long)s->stats.nr_unknown_events);
	for (i = 0; i < s->stats.nr_unknown_types; i++)
		fprintf(fp, "%s%u", i ? ", " : "", s->stats.unknown_types[i]);
	fputc(')', fp);
}

void perf_session__fprintf_skipped(const struct perf_session *s,
				   const char *cmd, FILE *fp)
{
	const struct perf_session_stats *st = &s->stats;

	if (!st->nr_unknown_events && !st->nr_unknown_id)
		return;
	fprintf(fp, "Warning: %s skipped ", cmd);
	if (st->nr_unknown_events)
		fprintf_unknown_types(s, fp);
	if (st->nr_unknown_events && st->nr_unknown_id)
		fputs(" and ", fp);
	if (st->nr_unknown_id)
		fprintf(fp, "%llu samples whose id names no event of the file",
			(unsigned long long)st->nr_unknown_id);
	fputs(".\n", fp);
}

void perf_session__close_report(struct perf_session *s, const char *cmd)
{
	perf_session__fprintf_skipped(s, cmd, stderr);
	perf_session__close(s);
}

int perf_session__open_report(struct perf_session *s, const char *path,
			      const char *cmd)
{
	int err = perf_session__open(s, path);

	if (err == PERF_SESSION_EMPTY)
		fprintf(stderr, "zero-sized file (%s), nothing to do!\n", path);
	else if (err)
		fprintf(stderr, "%s: %s\n", cmd, perf_session__error(s));
	else if (perf_session__warning(s)[0])
		fprintf(stderr, "Warning: %s\n", perf_session__warning(s));
	if (err)
		perf_session__close(s);
	return err;
}
