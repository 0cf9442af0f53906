// SPDX-License-Identifier: GPL-2.0
/*
 * perf evlist and perf buildid-list: what a perf.data holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "build-id.h"
#include "file-info.h"
#include "machine.h"
#include "trace-data.h"

/* ---- evlist ---- */

struct attr_line {
	FILE *fp;
	bool first;
};

static void print_attr_field(FILE *fp, const char *name, const char *val,
			     void *priv)
{
	struct attr_line *l = priv;

	fprintf(fp, "%s%s: %s", l->first ? "" : ", ", name, val);
	l->first = false;
}

static void print_verbose(const struct perf_session_attr *a, FILE *fp)
{
	struct attr_line l = { fp, true };

	fprintf(fp, "%s: ", a->name);
	perf_counter_attr__fprintf(fp, &a->attr, print_attr_field, &l);
	fputc('\n', fp);
}

static void print_freq(const struct perf_session_attr *a, FILE *fp)
{
	fprintf(fp, "%s: %s=%llu\n", a->name,
		a->attr.freq ? "sample_freq" : "sample_period",
		(unsigned long long)a->attr.sample_period);
}

/* The group led by attr @idx, or NULL: groups of one are none. */
static const struct perf_group_desc *group_of(const struct perf_session *s,
					      u32 idx)
{
	u32 i;

	for (i = 0; i < s->info.nr_groups; i++)
		if (s->info.groups[i].leader_idx == idx &&
		    s->info.groups[i].nr_members > 1)
			return &s->info.groups[i];
	return NULL;
}

static void print_groups(const struct perf_session *s, FILE *fp)
{
	u32 i, j;

	for (i = 0; i < s->nr_attrs; i++) {
		const struct perf_group_desc *g = group_of(s, i);

		if (!g) {
			fprintf(fp, "%s\n", s->attrs[i].name);
			continue;
		}
		if (g->name && strcmp(g->name, "{anon_group}"))
			fputs(g->name, fp);
		fputc('{', fp);
		for (j = 0; j < g->nr_members && i + j < s->nr_attrs; j++)
			fprintf(fp, "%s%s", j ? "," : "", s->attrs[i + j].name);
		fputs("}\n", fp);
		i += j - 1;
	}
}

static void print_fields(struct tep_event *ev, const char *name, FILE *fp)
{
	struct tep_format_field **fields = ev ? tep_event_fields(ev) : NULL;
	int i;

	if (!fields) {
		fprintf(fp, "%s: (not a tracepoint)\n", name);
		return;
	}
	fprintf(fp, "%s: trace_fields: ", name);
	for (i = 0; fields[i]; i++)
		fprintf(fp, "%s%s", i ? "," : "", fields[i]->name);
	fputc('\n', fp);
	free(fields);
}

static int print_trace_fields(struct perf_session *s, FILE *fp)
{
	struct tep_handle *tep;
	u32 i;

	if (trace_data__from_session(s, "perf evlist", &tep))
		return -EINVAL;
	for (i = 0; i < s->nr_attrs; i++) {
		const struct perf_counter_attr *a = &s->attrs[i].attr;

		print_fields(tep && a->type == PERF_TYPE_TRACEPOINT ?
			     tep_find_event(tep, a->config) : NULL,
			     s->attrs[i].name, fp);
	}
	if (tep)
		tep_free(tep);
	return 0;
}

static bool has_tracepoints(const struct perf_session *s)
{
	u32 i;

	for (i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

int perf_session__fprintf_evlist(struct perf_session *s,
				 const struct evlist_opts *o, FILE *fp)
{
	u32 i;

	if (o->trace_fields)
		return print_trace_fields(s, fp);
	if (o->group && !o->verbose && !o->freq) {
		print_groups(s, fp);
	} else {
		for (i = 0; i < s->nr_attrs; i++) {
			if (o->verbose)
				print_verbose(&s->attrs[i], fp);
			else if (o->freq)
				print_freq(&s->attrs[i], fp);
			else
				fprintf(fp, "%s\n", s->attrs[i].name);
		}
	}
	if (has_tracepoints(s))
		fprintf(fp, "# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
	return 0;
}

/* ---- build ids ---- */

static void print_build_id(const u8 *id, u8 size, const char *name, FILE *fp)
{
	u8 i;

	for (i = 0; i < size; i++)
		fprintf(fp, "%02x", id[i]);
	if (name)
		fprintf(fp, " %s", name);
	fputc('\n', fp);
}

int build_id__fprintf_kernel(FILE *fp)
{
	u8 id[20], size;
	int err = build_id__kernel(id, &size);

	if (!err)
		print_build_id(id, size, NULL, fp);
	return err;
}

/* The objects samples fell in: a short list, searched linearly. */
struct hit_set {
	struct machine machine;
	const struct dso **dsos;
	size_t nr, alloc;
};

static bool hit_set__has(const struct hit_set *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (!strcmp(h->dsos[i]->long_name, name))
			return true;
	return false;
}

static int hit_set__add(struct hit_set *h, const struct dso *dso)
{
	const struct dso **v;
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (h->dsos[i] == dso)
			return 0;
	if (h->nr == h->alloc) {
		h->alloc = h->alloc ? 2 * h->alloc : 16;
		v = realloc(h->dsos, h->alloc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->dsos = v;
	}
	h->dsos[h->nr++] = dso;
	return 0;
}

static int collect_hit(struct perf_session *s, const union perf_event *ev,
		       u64 offset, const struct perf_sample *sample,
		       struct perf_session_attr *attr, void *ctx)
{
	struct hit_set *h = ctx;
	struct addr_location al;

	if (ev->header.type != PERF_RECORD_SAMPLE)
		return machine__process_event(&h->machine, ev, sample);
	if (!sample || machine__resolve(&h->machine, sample->pid, sample->tid,
					sample->cpumode, sample->ip, &al))
		return 0;
	return al.dso ? hit_set__add(h, al.dso) : 0;
}

int perf_session__fprintf_build_ids(struct perf_session *s, bool with_hits,
				    FILE *fp)
{
	struct hit_set hits = { .dsos = NULL };
	int err = 0;
	u32 i;

	if (with_hits) {
		if (machine__init(&hits.machine))
			return -ENOMEM;
		err = perf_session__process_events_ordered(s, collect_hit,
							   &hits);
	}
	for (i = 0; err >= 0 && i < s->info.nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &s->info.build_ids[i];

		if (!b->filename || !b->size)
			continue;
		if (with_hits && !hit_set__has(&hits, b->filename))
			continue;
		print_build_id(b->build_id, b->size, b->filename, fp);
	}
	if (with_hits) {
		free(hits.dsos);
		machine__exit(&hits.machine);
	}
	return err < 0 ? err : 0;
}
