// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader, file and pipe mode: the header and its attrs,
 * records from a mapping or a stream, decoding and delivery; see data.h.
 *
 * The reader never allocates per record: records are read into one
 * buffer, from a pipe or (pread) from the data of a file, and handed out
 * in place; only records queued for time ordering are copied
 * (ordered-events.c).  The header and its sections of a file are read
 * from a mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <perf/parse-events.h>
#include "arena.h"
#include "array.h"
#include "compress.h"
#include "session-internal.h"

#define FILE_HEADER_SIZE	sizeof(struct perf_file_header)
#define PIPE_HEADER_SIZE	sizeof(struct perf_pipe_file_header)
/* A block of the read buffer fills one huge page (arena.h). */
#define STREAM_BUF_SIZE		((2 << 20) - sizeof(struct session_block))
#define STREAM_BUF_MAX		(1024ULL * 1024 * 1024)
#define MAX_RECORD		65536
#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

/* ---- messages ---- */

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

/* ---- attrs and the id table ---- */

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
	s->ids.last_idx = -1;
	for (i = 0; i < old_size; i++)
		if (old[i].idx >= 0)
			id_put(s, old[i].id, old[i].idx);
	free(old);
	return 0;
}

struct perf_session_attr *perf_session__probe_attr(struct perf_session *s,
						   u64 id)
{
	u32 i;

	if (!s->ids.slots)
		return NULL;
	for (i = id_hash(id, s->ids.mask); s->ids.slots[i].idx >= 0;
	     i = (i + 1) & s->ids.mask)
		if (s->ids.slots[i].id == id) {
			s->ids.last_id = id;
			s->ids.last_idx = s->ids.slots[i].idx;
			return &s->attrs[s->ids.last_idx];
		}
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
	perf_sample_layout__init(&a->layout, attr->sample_type,
				 attr->read_format, attr->branch_sample_type,
				 attr->sample_regs_user,
				 attr->sample_regs_intr);
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

/* ---- file mode header ---- */

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

/* ---- the read buffer's blocks (session-internal.h) ---- */

/*
 * Blocks the delivering thread of a threaded pass freed wait on a stack
 * of their own, which the reader takes whole: a pop of one could race.
 */
static struct session_block *free_block(struct perf_session *s)
{
	struct session_block *b = s->free_blocks;

	if (!b && __atomic_load_n(&s->returned, __ATOMIC_RELAXED))
		b = __atomic_exchange_n(&s->returned, NULL, __ATOMIC_ACQUIRE);
	s->free_blocks = b;
	return b;
}

struct session_block *session_block_get(struct perf_session *s, size_t cap)
{
	struct session_block *b = free_block(s);

	if (b && b->cap >= cap) {
		s->free_blocks = b->next;
	} else {
		if (cap < STREAM_BUF_SIZE)
			cap = STREAM_BUF_SIZE;
		b = big_zalloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
	}
	b->next = NULL;
	b->used = 0;
	b->pins = 1;
	b->puts = 0;
	return b;
}

static void block_free(struct perf_session *s, struct session_block *b)
{
	/* Larger ones were for one large record: not kept for the rest. */
	if (b->cap > STREAM_BUF_SIZE) {
		big_free(b, sizeof(*b) + b->cap);
		return;
	}
	if (!s->reader) {
		b->next = s->free_blocks;
		s->free_blocks = b;
		return;
	}
	b->next = __atomic_load_n(&s->returned, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&s->returned, &b->next, b, true,
					    __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
}

void session_block_put_n(struct perf_session *s, struct session_block *b,
			 u32 n)
{
	u32 puts;

	if (!b || !n)
		return;
	if (s->reader) {
		puts = __atomic_add_fetch(&b->puts, n, __ATOMIC_ACQ_REL);
		if (puts != __atomic_load_n(&b->pins, __ATOMIC_RELAXED))
			return;
	} else {
		b->puts += n;
		if (b->puts != b->pins)
			return;
	}
	block_free(s, b);
}

void session_block_put(struct perf_session *s, struct session_block *b)
{
	session_block_put_n(s, b, 1);
}

/* Taken by the reading thread only; the other reads it (put_n). */
static void block_pin(struct session_block *b)
{
	__atomic_store_n(&b->pins, b->pins + 1, __ATOMIC_RELAXED);
}

/* Whether pins other than the reader's own hold @b. */
static bool block_shared(const struct session_block *b)
{
	return b->pins - __atomic_load_n(&b->puts, __ATOMIC_ACQUIRE) > 1;
}

struct session_block *session_block_pin(struct perf_session *s,
					const u8 *rec)
{
	if (!s->block || rec < s->buf || rec >= s->buf + s->buf_len)
		return NULL;
	block_pin(s->block);
	return s->block;
}

const u8 *session_block_copy(struct perf_session *s,
			     struct session_block **copies, const u8 *rec,
			     struct session_block **block)
{
	const struct perf_counter_header h = session_rec_header(rec);
	size_t len = PERF_ALIGN8(h.size);
	struct session_block *c = *copies;
	u8 *dst;

	if (!c || c->used + len > c->cap) {
		session_block_put(s, c);
		c = session_block_get(s, len);
		*copies = c;
		if (!c)
			return NULL;
	}
	dst = (u8 *)c->data + c->used;
	memcpy(dst, rec, h.size);
	c->used += len;
	block_pin(c);
	*block = c;
	return dst;
}

static void blocks_free(struct perf_session *s)
{
	session_block_put(s, s->block);
	s->block = NULL;
	s->buf = NULL;
	s->buf_cap = 0;
	while (free_block(s)) {
		struct session_block *b = s->free_blocks;

		s->free_blocks = b->next;
		big_free(b, sizeof(*b) + b->cap);
	}
}

/*
 * The buffer's bytes from @drop on, moved to its front, in a buffer of
 * at least @cap bytes.  Where queued records pin the block, they stay
 * where they are and the bytes go to another block.
 */
static int buffer_repack(struct perf_session *s, size_t drop, size_t cap)
{
	struct session_block *b = s->block, *nb;
	size_t keep = s->buf_len - drop;

	if (b && !block_shared(b) && cap <= b->cap) {
		memmove(b->data, s->buf + drop, keep);
	} else if (b && !block_shared(b)) {
		nb = big_realloc(b, sizeof(*b) + b->cap, sizeof(*b) + cap);
		if (!nb)
			return -ENOMEM;
		nb->cap = cap;
		memmove(nb->data, (u8 *)nb->data + drop, keep);
		s->block = nb;
	} else {
		nb = session_block_get(s, cap);
		if (!nb)
			return -ENOMEM;
		if (keep)
			memcpy(nb->data, s->buf + drop, keep);
		session_block_put(s, b);
		s->block = nb;
	}
	s->buf = (u8 *)s->block->data;
	s->buf_cap = s->block->cap;
	s->buf_len = keep;
	s->buf_start += drop;
	return 0;
}

/* ---- records, from the mapping or a stream ---- */

/* Double the stream buffer, up to the @want bytes a record needs. */
static int stream_grow(struct perf_session *s, size_t want)
{
	size_t cap = s->buf_cap ? s->buf_cap * 2 : STREAM_BUF_SIZE;

	if (cap > want && want > s->buf_cap)
		cap = want > STREAM_BUF_SIZE ? want : STREAM_BUF_SIZE;
	return buffer_repack(s, 0, cap);
}

/* A file's data is read from its start again, into the buffer. */
static void buffer_rewind(struct perf_session *s)
{
	if (s->stream)
		return;
	/* Bytes queued records still point at are not overwritten. */
	if (s->block && block_shared(s->block)) {
		session_block_put(s, s->block);
		s->block = NULL;
		s->buf = NULL;
		s->buf_cap = 0;
	}
	s->buf_start = s->data_offset;
	s->buf_len = 0;
	s->eof = false;
}

/* More bytes into the buffer: from the pipe, or the file's data. */
static ssize_t buffer_read(struct perf_session *s)
{
	size_t room = s->buf_cap - s->buf_len;
	u64 at = s->buf_start + s->buf_len;

	if (s->stream)
		return read(s->fd, s->buf + s->buf_len, room);
	if (at >= s->data_end)
		return 0;
	if (room > s->data_end - at)
		room = s->data_end - at;
	return pread(s->fd, s->buf + s->buf_len, room, at);
}

static int stream_fill(struct perf_session *s, u64 pos, size_t need,
		       u64 keep_from)
{
	u64 end = pos + need;
	size_t off;

	if (end <= s->buf_start + s->buf_len)
		return 0;
	/*
	 * Bytes before @keep_from go, moving the rest to the front; but a
	 * block that queued records pin is left alone while it has room.
	 */
	if (keep_from > s->buf_start &&
	    (!s->block || !block_shared(s->block) ||
	     end - s->buf_start > s->buf_cap) &&
	    buffer_repack(s, keep_from - s->buf_start, s->buf_cap))
		return -ENOMEM;
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
		n = buffer_read(s);
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

/* Bytes that follow some records beyond header.size. */
static u64 payload_size(const u8 *rec)
{
	const struct perf_counter_header h = session_rec_header(rec);
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

static const char *ends_inside(const struct perf_session *s)
{
	return s->stream ? "the pipe ends inside a record" : cut_short(s);
}

/*
 * The record at stream/file position pos: 1 with *rec and *total
 * (record plus payload), 0 at the end, or -errno (-EBADMSG: the data is
 * cut short or corrupt there).  Bytes before @keep_from may go.
 */
static int next_record(struct perf_session *s, u64 pos, u64 keep_from,
		       const u8 **rec, u64 *total)
{
	u64 end = s->buf_start + s->buf_len;
	struct perf_counter_header h;
	int ret;

	/* Most records lie whole in the buffer: no refill to ask for. */
	if (pos >= s->buf_start && pos + sizeof(h) <= end) {
		const u8 *p = s->buf + (pos - s->buf_start);
		u64 payload;

		memcpy(&h, p, sizeof(h));
		/* Only records perf writes carry data after themselves. */
		payload = h.type < PERF_RECORD_USER_TYPE_START ? 0 :
			  payload_size(p);
		if (h.size >= sizeof(h) && pos + h.size <= end &&
		    pos + h.size + payload <= end) {
			*rec = p;
			*total = h.size + payload;
			return 1;
		}
	}
	ret = stream_fill(s, pos, sizeof(h), keep_from);

	if (ret < 0)
		goto read_error;
	if (ret)
		return s->buf_start + s->buf_len == pos ? 0 :
		       data_error(s, pos, ends_inside(s), NULL);
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
		return data_error(s, pos, ends_inside(s), &h);
	*rec = s->buf + (pos - s->buf_start);
	return 1;
read_error:
	set_error(s, "%s: reading at offset %#llx failed: %s", s->name,
		  pos, strerror(-ret));
	return ret;
}

/* Kernel records are read as u64 arrays: give them 8-byte alignment. */
const union perf_event *session_aligned(struct perf_session *s, const u8 *rec)
{
	const struct perf_counter_header h = session_rec_header(rec);

	if (!((uintptr_t)rec & 7))
		return (const void *)rec;
	memcpy(s->scratch, rec, h.size);
	return (const void *)s->scratch;
}

/* ---- records perf writes (types 64 and up) ---- */

static int process_attr_record(struct perf_session *s, const u8 *rec,
			       u64 pos)
{
	const struct perf_counter_header h = session_rec_header(rec);
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
	const struct perf_counter_header h = session_rec_header(rec);
	u64 feat;

	if (h.size < sizeof(struct perf_record_header_feature))
		return;
	memcpy(&feat, rec + sizeof(h), sizeof(feat));
	/* HEADER_LAST_FEATURE marks the end of the features. */
	if (feat == HEADER_LAST_FEATURE)
		return;
	/*
	 * Readers hold what the first record of a feature put into info
	 * (sort keys keep the CPU topology): a repeat must not free it.
	 */
	if (feat < HEADER_FEAT_BITS && perf_feat_test(s->info.features, feat)) {
		add_warning(s, "%s: feature record %s at offset %#llx repeats one read before; ignored",
			    s->name, perf_header__feat_name(feat) ?: "?",
			    pos - (s->pipe ? PIPE_HEADER_SIZE : 0));
		return;
	}
	if (perf_header__read_feature(&s->info, feat, rec + 16, h.size - 16))
		add_warning(s, "%s: feature record %s at offset %#llx is malformed; ignored",
			    s->name, perf_header__feat_name(feat) ?: "?",
			    pos - (s->pipe ? PIPE_HEADER_SIZE : 0));
	if (feat == HEADER_EVENT_DESC)
		name_attrs(s);
}

/* PERF_RECORD_EVENT_UPDATE of type NAME: the event's name. */
static void process_event_update(struct perf_session *s, const u8 *rec)
{
	const struct perf_counter_header h = session_rec_header(rec);
	const size_t name_off = offsetof(struct perf_record_event_update, str);
	struct perf_session_attr *a;
	u64 type, id;
	char *name;

	if (h.size <= name_off)
		return;
	memcpy(&type, rec + offsetof(struct perf_record_event_update, type),
	       sizeof(type));
	memcpy(&id, rec + offsetof(struct perf_record_event_update, id),
	       sizeof(id));
	a = perf_session__find_attr(s, id);
	if (type != PERF_EVENT_UPDATE__NAME || !a)
		return;
	name = strndup((const char *)rec + name_off, h.size - name_off);
	attr_own_name(s, a, name);
}

static int keep_tracing_data(struct perf_session *s, const u8 *rec)
{
	const struct perf_counter_header h = session_rec_header(rec);
	u64 size = payload_size(rec);

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

	if (tod_point_parse(session_aligned(s, rec), &p))
		return 0;
	return tod_add_point(&s->tod, &p);
}

/* What a record of perf's own tells the session; once per record. */
static int process_user_record(struct perf_session *s, const u8 *rec,
			       u64 pos, u64 total)
{
	const struct perf_counter_header h = session_rec_header(rec);

	/* Kernel records tell the session nothing: nothing to write. */
	if (h.type < PERF_RECORD_USER_TYPE_START || pos < s->processed_end)
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

	buffer_rewind(s);
	for (;;) {
		struct perf_counter_header h;
		int ret = next_record(s, pos, 0, &rec, &total);

		if (ret <= 0)
			return ret == -EBADMSG ? 0 : ret;
		h = session_rec_header(rec);
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

/* ---- open and close ---- */


static int open_mapped(struct perf_session *s, const struct stat *st)
{
	u64 magic, size;
	void *map;
	int err;

	s->size = st->st_size;
	if (s->size < 2 * sizeof(u64)) {
		set_error(s,
			  "%s: the file has %llu bytes, too few for a perf.data header: not a perf.data file, or cut short",
			  s->name, s->size);
		return -EINVAL;
	}
	/* The data is read with pread() as it is needed: session_pass(). */
	map = mmap(NULL, s->size, PROT_READ, MAP_PRIVATE, s->fd, 0);
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
	/* Queued records pin blocks of the buffer: they go first. */
	session_queue_free(s);
	blocks_free(s);
	free(s->scratch);
	free(s->own_tracing_data);
	decomp_free(s);
	s->attrs = NULL;
	s->ids.slots = NULL;
	s->map = NULL;
	s->scratch = NULL;
	s->own_tracing_data = NULL;
	s->nr_attrs = 0;
	s->fd = -1;
}

const void *perf_session__tracing_data(const struct perf_session *s,
				       u64 *size)
{
	*size = s->tracing_data_size;
	return s->tracing_data;
}

/* ---- decoding and delivery ---- */

/*
 * The attr a kernel record came from: 0 with *attr (NULL when its id is
 * unknown or it carries none), -EINVAL for a sample too short to hold
 * its id.
 */
int session_attr_of(struct perf_session *s, const union perf_event *ev,
		    struct perf_session_attr **attr)
{
	const u64 *p = ev->array;
	u32 n = ev->header.size / sizeof(u64);
	int pos;

	if (ev->header.type == PERF_RECORD_SAMPLE)
		return session_sample_attr(s, ev, attr);
	*attr = NULL;
	if (s->nr_attrs <= 1) {
		*attr = s->nr_attrs ? &s->attrs[0] : NULL;
		return 0;
	}
	if (!s->sample_id_all)
		return 0;
	if (s->is_pos < 0) {
		*attr = &s->attrs[0];
		return 0;
	}
	pos = (int)n - s->is_pos;
	if (pos < 1)
		return 0;
	*attr = perf_session__find_attr(s, p[pos]);
	return 0;
}

/* decode()'s attr before it is looked up. */
#define ATTR_UNKNOWN ((struct perf_session_attr *)-1)

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
static inline __attribute__((always_inline))
int decode(struct perf_session *s, const union perf_event *ev,
	   struct perf_sample *sample, struct perf_session_attr **attr,
	   bool *has_time)
{
	struct perf_session_attr *a = *attr;
	const struct perf_counter_attr *pa;
	u64 type;

	*has_time = false;
	/* The kernel pads every record to 8 bytes; fields are u64 aligned. */
	if (a == ATTR_UNKNOWN &&
	    ((ev->header.size & 7) || session_attr_of(s, ev, &a)))
		return -EINVAL;
	*attr = a;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (!a)
			return 1;
		pa = &a->attr;
		if (perf_sample__parse_layout(ev, &a->layout, sample))
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

int session_decode_error(struct perf_session *s, u64 pos,
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

/*
 * Decode @ev for fn: 0 with what fn gets, *attr and *give (&sample, or
 * NULL for a record without one), or decode()'s error (no message yet).
 * It and decode() are inlined into both callers: calls for every record
 * cost a timehist -s 4% more instructions.
 */
static inline __attribute__((always_inline))
int prepare(struct perf_session *s, const union perf_event *ev,
	    struct perf_session_attr **attr, struct perf_sample *sample,
	    const struct perf_sample **give)
{
	bool has_time;
	int ret;

	*give = NULL;
	if (ev->header.type >= PERF_RECORD_USER_TYPE_START) {
		*attr = NULL;
		count(s, ev->header.type);
		return 0;
	}
	ret = decode(s, ev, sample, attr, &has_time);
	if (ret < 0)
		return ret;
	if (*attr && (u32)(*attr)->idx >= s->nr_attrs_pass) {
		ret = ev->header.type == PERF_RECORD_SAMPLE;
		*attr = NULL;
	}
	count(s, ev->header.type);
	if (ret) {
		s->stats.nr_unknown_id++;
		return 0;
	}
	if (ev->header.type == PERF_RECORD_SAMPLE)
		(*attr)->nr_samples++;
	*give = sample;
	return 0;
}

int session_deliver_held(struct perf_session *s, const struct session_held *h,
			 perf_session_event_fn fn, void *ctx, bool *bad)
{
	struct perf_session_attr *attr = h->attr;
	const struct perf_sample *give;
	struct perf_sample sample;
	int ret = prepare(s, h->ev, &attr, &sample, &give);

	*bad = ret;
	return ret ? ret : fn(s, h->ev, shown_offset(s, h->pos), give, attr,
			      ctx);
}

/*
 * @rec where it stays put, 8-byte aligned, while the delivering thread
 * has it: in place, pinned, or copied.  *held is the block it is in.
 */
static const u8 *reader_hold(struct perf_session *s, const u8 *rec,
			     struct session_block *block,
			     struct session_block **copies,
			     struct session_block **held)
{
	const u8 *dst;

	if (!((uintptr_t)rec & 7)) {
		if (!block)
			block = session_block_pin(s, rec);
		if (block) {
			*held = block;
			return rec;
		}
	}
	dst = session_block_copy(s, copies, rec, held);
	session_block_put(s, block);
	return dst;
}

/* deliver() on the reader thread: into the ring, for the other. */
static int reader_deliver(struct perf_session *s, const u8 *rec, u64 pos,
			  struct perf_session_attr *attr,
			  struct session_block *block)
{
	struct session_block **copies;
	struct session_held *h = session_reader_slot(s, &copies);

	if (!h) {
		session_block_put(s, block);
		return -ECANCELED;
	}
	h->ev = (const void *)reader_hold(s, rec, block, copies, &h->block);
	if (!h->ev)
		return -ENOMEM;
	h->pos = pos;
	h->attr = attr;
	session_reader_push(s);
	return 0;
}

static int deliver(struct perf_session *s, const u8 *rec, u64 pos,
		   struct perf_session_attr *attr, struct session_block *block,
		   perf_session_event_fn fn, void *ctx)
{
	const union perf_event *ev;
	const struct perf_sample *give;
	struct perf_sample sample;
	int ret;

	if (s->reader)
		return reader_deliver(s, rec, pos, attr, block);
	ev = session_aligned(s, rec);
	ret = prepare(s, ev, &attr, &sample, &give);
	if (ret)
		ret = session_decode_error(s, pos, ev, ret);
	else
		ret = fn(s, ev, shown_offset(s, pos), give, attr, ctx);
	session_block_put(s, block);
	return ret;
}

/*
 * Counted apart from the stats: the thread reading may not be the one
 * delivering, which counts the rest.
 */
int session_skip_sample(struct perf_session *s, const union perf_event *ev,
			u64 pos, struct perf_session_attr *attr)
{
	u32 cpu;
	int ret = perf_sample__cpu_of(ev, &attr->layout, &cpu) ? -EINVAL : 0;

	/* As decode() refuses them. */
	if (!ret && (attr->attr.sample_type & PERF_SAMPLE_CPU) &&
	    cpu >= PERF_MAX_CPUS)
		ret = -ERANGE;
	if (ret)
		return session_decode_error(s, pos, ev, ret);
	attr->nr_skipped++;
	if (cpu < PERF_MAX_CPUS && (s32)cpu > attr->max_skipped_cpu)
		attr->max_skipped_cpu = cpu;
	return 0;
}

int session_deliver(struct perf_session *s, const u8 *rec, u64 pos,
		    perf_session_event_fn fn, void *ctx)
{
	return deliver(s, rec, pos, ATTR_UNKNOWN, NULL, fn, ctx);
}

int session_deliver_known(struct perf_session *s, const u8 *rec, u64 pos,
			  s32 attr_idx, struct session_block *block,
			  perf_session_event_fn fn, void *ctx)
{
	return deliver(s, rec, pos, attr_idx < 0 ? NULL : &s->attrs[attr_idx],
		       block, fn, ctx);
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
	for (i = 0; i < s->nr_attrs; i++) {
		s->attrs[i].nr_samples = 0;
		s->attrs[i].nr_skipped = 0;
		s->attrs[i].max_skipped_cpu = -1;
	}
}

/* The samples skipped in the pass join the stats of the others. */
static void count_skipped(struct perf_session *s)
{
	u32 i;

	for (i = 0; i < s->nr_attrs; i++) {
		struct perf_session_attr *a = &s->attrs[i];

		s->stats.nr_events[0] += a->nr_skipped;
		s->stats.nr_events[PERF_RECORD_SAMPLE] += a->nr_skipped;
		a->nr_samples += a->nr_skipped;
		a->nr_skipped = 0;
	}
}

static int begin_pass(struct perf_session *s)
{
	if (s->stream && s->finished) {
		set_error(s, "%s: a pipe can be read only once", s->name);
		return -EALREADY;
	}
	s->finished = s->stream;
	buffer_rewind(s);
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

/*
 * The records inside a COMPRESSED record go where the file's own
 * records go, with its offset.  They live in a buffer that the next
 * COMPRESSED record reuses: the time queue copies them.
 */
static int unpack(struct perf_session *s, const u8 *rec, u64 pos,
		  session_record_fn one, perf_session_event_fn fn, void *ctx)
{
	const struct perf_counter_header h = session_rec_header(rec);
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
	count_skipped(s);
	if (ret == -EBADMSG && s->errmsg[0])
		return PERF_SESSION_DATA_ERROR;
	return ret;
}

/*
 * Whether a header record at @pos may change what the callback sees of
 * the session: process_user_record() applies each one it has not met
 * yet, and only a round's end is known to change nothing.
 */
static bool changes_session(const struct perf_session *s, const u8 *rec,
			    u64 pos)
{
	u32 type = session_rec_header(rec).type;

	return type >= PERF_RECORD_USER_TYPE_START &&
	       type != PERF_RECORD_FINISHED_ROUND && pos >= s->processed_end;
}

/* A record perf wrote: what it tells the session first, then the pass. */
static int read_user_record(struct perf_session *s,
			    const struct session_pass_ops *ops, const u8 *rec,
			    u64 pos, u64 total, perf_session_event_fn fn,
			    void *ctx)
{
	int ret = 0;

	/*
	 * What the callback has of the session changes after it: first
	 * every record one thread would have delivered.
	 */
	if (s->reader && changes_session(s, rec, pos))
		ret = session_queue_settle(s, fn, ctx) ?:
		      session_reader_drain(s);
	if (!ret)
		ret = process_user_record(s, rec, pos, total);
	if (!ret)
		ret = ops->one(s, rec, pos, fn, ctx);
	if (!ret)
		ret = unpack(s, rec, pos, ops->one, fn, ctx);
	return ret;
}

int session_read_records(struct perf_session *s,
			 const struct session_pass_ops *ops,
			 perf_session_event_fn fn, void *ctx)
{
	u64 pos = s->data_offset, total;
	const u8 *rec;
	int ret = 0;

	/*
	 * A file's data too is read into the buffer (pread), not used in
	 * place in the mapping: a first touch of mapped page-cache pages
	 * costs several times the kernel's copy into a buffer that stays
	 * in the cache, and memory holds the buffer, not the file.
	 */
	while (!ret) {
		ret = next_record(s, pos, pos, &rec, &total);
		if (ret <= 0)
			break;
		if (session_rec_header(rec).type < PERF_RECORD_USER_TYPE_START)
			ret = ops->one(s, rec, pos, fn, ctx);
		else
			ret = read_user_record(s, ops, rec, pos, total, fn,
					       ctx);
		pos += total;
		if (s->progress && pos >= s->progress_next)
			progress(s, pos, false);
	}
	if (ops->end)
		ret = ops->end(s, ret, fn, ctx);
	progress(s, pos, true);
	return ret;
}

int session_pass(struct perf_session *s, const struct session_pass_ops *ops,
		 perf_session_event_fn fn, void *ctx)
{
	int ret;

	s->errmsg[0] = '\0';
	ret = begin_pass(s);
	if (!ret && ops->begin)
		ret = ops->begin(s);
	if (ret)
		return ret;
	if (session_reader_wanted(s))
		ret = session_reader_pass(s, ops, fn, ctx);
	else
		ret = session_read_records(s, ops, fn, ctx);
	return end_pass(s, ret);
}

int perf_session__process_events(struct perf_session *s,
				 perf_session_event_fn fn, void *ctx)
{
	static const struct session_pass_ops in_file_order = {
		.one = session_deliver,
	};

	return session_pass(s, &in_file_order, fn, ctx);
}
