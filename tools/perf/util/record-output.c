// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data files of a recording, each complete on its own, and
 * snapshots of overwritable rings written as such files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "record-output.h"
#include "tod.h"
#include "trace-data.h"

/* Tracepoint samples are decoded with the formats of this machine. */
static int build_tracing_data(struct record_output *out)
{
	struct perf_evsel *pos;
	const char **names;
	int nr = 0, err;

	names = calloc(perf_evlist__nr_entries(out->evlist), sizeof(*names));
	if (!names)
		return -ENOMEM;
	perf_evlist__for_each(out->evlist, pos)
		if (pos->attr.type == PERF_TYPE_TRACEPOINT && pos->name)
			names[nr++] = pos->name;
	err = nr ? trace_data__build(&out->tracing_data, names, nr) : 0;
	free(names);
	return err;
}

/* Points kept for dumps: over an hour of them, 128 KiB. */
#define TOD_KEEP 4096

int record_output__init(struct record_output *out)
{
	u64 sample_type = perf_evlist__first(out->evlist)->attr.sample_type;
	int err;

	out->id_size = perf_sample_id_size(sample_type);
	err = build_id_tracker__init(&out->build_ids, sample_type);
	if (!err && out->tod)
		err = tod_tracker__init(&out->tod_tracker, out->clockid,
					TOD_KEEP);
	if (err)
		return err;
	return build_tracing_data(out);
}

void record_output__exit(struct record_output *out)
{
	if (out->open)
		perf_data_writer__abort(&out->writer);
	out->open = false;
	build_id_tracker__exit(&out->build_ids);
	perf_fbuf__free(&out->tracing_data);
	perf_fbuf__free(&out->snap);
	tod_tracker__exit(&out->tod_tracker);
	pid_set__exit(&out->first_pids);
}

/* The writer frees its features: each file gets its own copy. */
static int add_tracing_data(struct record_output *out)
{
	struct perf_header_info *info = &out->writer.info;
	size_t len = out->tracing_data.len;

	if (!len)
		return 0;
	info->tracing_data = malloc(len);
	if (!info->tracing_data)
		return -ENOMEM;
	memcpy(info->tracing_data, out->tracing_data.data, len);
	info->tracing_data_size = len;
	perf_feat_set(info->features, HEADER_TRACING_DATA);
	return 0;
}

/*
 * With -k or --tod, where event times stand against the time of day;
 * taken per file, so each one carries a fresh reference.
 */
static int add_clock(struct record_output *out, struct tod_point *p)
{
	int err;

	if (out->clockid < 0)
		return 0;
	if (out->tod)
		err = tod_tracker__take(&out->tod_tracker, p);
	else
		err = tod_take_point(out->clockid, p);
	if (!err)
		tod_set_header(&out->writer.info, out->clockid, p);
	return err;
}

static int write_tod_point(struct record_output *out,
			   const struct tod_point *p)
{
	struct perf_record_tod_point rec;

	tod_point_record(p, out->clockid, &rec);
	return perf_data_writer__write(&out->writer, &rec, sizeof(rec));
}

int record_output__tod_poll(struct record_output *out, bool write)
{
	struct tod_point p;
	int ret;

	if (!out->tod || !out->open)
		return 0;
	ret = tod_tracker__poll(&out->tod_tracker, &p);
	if (ret <= 0 || !write)
		return ret;
	return write_tod_point(out, &p);
}

/* Every kept point, before the records of a dump: readers look back. */
static int write_kept_points(struct record_output *out)
{
	const struct tod_tracker *t = &out->tod_tracker;
	int err = 0;
	u32 i;

	for (i = 0; out->tod && i < t->nr_kept && !err; i++)
		err = write_tod_point(out, tod_tracker__kept(t, i));
	return err;
}

static int add_attrs(struct record_output *out)
{
	struct perf_evsel *pos;
	int err;

	perf_evlist__for_each(out->evlist, pos) {
		err = perf_data_writer__add_attr(&out->writer, &pos->attr,
						 pos->name, pos->id,
						 pos->nr_cpus * pos->nr_threads);
		if (err)
			return err;
	}
	return 0;
}

/* Groups ({a,b}) in the GROUP_DESC feature, as Linux perf writes them. */
static int add_groups(struct record_output *out)
{
	struct perf_evsel *pos;
	u32 idx = 0;
	int err = 0;

	perf_evlist__for_each(out->evlist, pos) {
		if (pos->leader == pos && pos->nr_members > 1)
			err = perf_header_info__add_group(&out->writer.info,
							  NULL, idx,
							  pos->nr_members);
		if (err)
			return err;
		idx++;
	}
	return 0;
}

int record_output__open(struct record_output *out, const char *path)
{
	struct tod_point point;
	int err = perf_data_writer__open(&out->writer, path);

	if (err) {
		out->failed = "creating the file";
		return err;
	}
	out->open = true;
	memset(&out->file, 0, sizeof(out->file));
	/* A file's build ids are those of its own samples. */
	build_id_tracker__forget_hits(&out->build_ids);
	err = add_attrs(out);
	if (!err)
		err = add_groups(out);
	if (!err)
		err = add_tracing_data(out);
	if (!err)
		err = add_clock(out, &point);
	if (!err)
		err = perf_header_info__set_cmdline(&out->writer.info,
						    out->argc, out->argv);
	if (!err)
		err = perf_data_writer__begin(&out->writer);
	/* The file's first record: the reference of all that follow. */
	if (!err && out->tod)
		err = write_tod_point(out, &point);
	if (err) {
		perf_data_writer__abort(&out->writer);
		out->open = false;
		out->failed = "writing the file";
	}
	return err;
}

int record_output__write(void *ctx, const void *buf, size_t len)
{
	struct record_output *out = ctx;
	int err = perf_data_writer__write(&out->writer, buf, len);

	if (err || out->writer.pipe)
		return err;
	return build_id_tracker__event(&out->build_ids, buf);
}

int record_output__synthesize(struct record_output *out)
{
	struct record_sink sink = { record_output__write, out };
	struct pid_set *seen = NULL;

	/* The first file's pass runs before counting: note what it saw. */
	if (!out->synthesized && target__has_cpus(out->target)) {
		seen = &out->first_pids;
		out->late_pass = true;
	}
	out->synthesized = true;
	return record_synthesize_target(out->target, out->cmd_pid,
					out->started, out->id_size, &sink,
					seen);
}

int record_output__synthesize_late(struct record_output *out)
{
	struct record_sink sink = { record_output__write, out };
	int err = 0;

	if (out->late_pass)
		err = record_synthesize_new(out->id_size, &sink,
					    &out->first_pids);
	out->late_pass = false;
	pid_set__exit(&out->first_pids);
	return err;
}

int record_output__round(struct record_output *out)
{
	struct perf_counter_header h = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return perf_data_writer__write(&out->writer, &h, sizeof(h));
}

static void add_stats(struct record_stats *to, const struct record_stats *s)
{
	to->samples += s->samples;
	to->lost += s->lost;
	to->lost_chunks += s->lost_chunks;
	to->records += s->records;
	to->wakeups += s->wakeups;
}

/* Tail side-band first, then a round, so no sample waits behind it. */
int record_output__close(struct record_output *out)
{
	int err = 0;

	if (!out->open)
		return 0;
	if (out->tail_synthesize) {
		err = record_output__synthesize(out);
		if (!err)
			err = record_output__round(out);
	}
	if (!err && !out->writer.pipe)
		err = build_id_tracker__collect(&out->build_ids,
						&out->writer.info);
	/* Finish even after an error: it closes, and keeps the first one. */
	err = perf_data_writer__finish(&out->writer) ?: err;
	if (err && !out->failed)
		out->failed = "writing the file";
	out->open = false;
	add_stats(&out->total, &out->file);
	return err;
}

/* While the rings are paused: only a copy, so the pause stays short. */
static int snap_put(void *ctx, const void *buf, size_t len)
{
	struct perf_fbuf *b = ctx;

	perf_fbuf__put(b, buf, len);
	return b->err;
}

static int take_snapshot(struct record_output *out, struct record_rings *rings)
{
	struct record_sink sink = { snap_put, &out->snap };
	int err, n;

	out->snap.len = 0;
	err = record_rings__pause(rings, true);
	n = err ? 0 : record_rings__snapshot(rings, &sink, &out->file);
	err = record_rings__pause(rings, false) ?: err;
	if (err)
		out->failed = "pausing the ring buffers (PERF_COUNTER_IOC_PAUSE_OUTPUT)";
	else if (n < 0)
		out->failed = "reading the ring buffers";
	return n < 0 ? n : err;
}

/* The copied records, one by one: the build-id tracker sees each. */
static int write_snapshot(struct record_output *out)
{
	const u8 *p = out->snap.data, *end = p + out->snap.len;
	int err = 0;

	while (p < end && !err) {
		const struct perf_counter_header *h = (const void *)p;

		err = record_output__write(out, p, h->size);
		p += h->size;
	}
	return err;
}

int record_output__dump(struct record_output *out, struct record_rings *rings)
{
	int err = take_snapshot(out, rings);

	out->file.wakeups++;
	if (!err)
		err = write_kept_points(out);
	if (!err && !out->tail_synthesize)
		err = record_output__synthesize(out);
	if (!err)
		err = write_snapshot(out);
	if (!err && !out->tail_synthesize)
		err = record_output__round(out);
	if (err && !out->failed)
		out->failed = "writing the file";
	return record_output__close(out) ?: err;
}

int record_output__snapshot(struct record_output *out,
			    struct record_rings *rings, const char *path)
{
	int err = record_output__open(out, path);

	return err ? err : record_output__dump(out, rings);
}

u64 record_output__bytes(const struct record_output *out)
{
	return perf_data_writer__bytes(&out->writer);
}
