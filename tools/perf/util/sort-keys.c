// SPDX-License-Identifier: GPL-2.0
/*
 * Report sort keys computed from the file: socket, parent, trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>
#include "sort-keys.h"
#include "srcline.h"
#include "trace-data.h"

static int setup_parent(struct sort_keys *k, const char *pattern,
			const char *cmd)
{
	char why[128];
	int err;

	err = regcomp(&k->parent, pattern ? pattern : SORT_PARENT_DEFAULT,
		      REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, &k->parent, why, sizeof(why));
		fprintf(stderr, "%s: bad --parent pattern '%s': %s\n", cmd,
			pattern, why);
		return -EINVAL;
	}
	k->have_parent = true;
	return 0;
}

/* The tracing data, and the event of each tracepoint attr. */
static int setup_trace(struct sort_keys *k, struct perf_session *s,
		       const char *cmd)
{
	u32 i;

	k->nr_events = s->nr_attrs;
	k->events = calloc(s->nr_attrs ? s->nr_attrs : 1, sizeof(*k->events));
	if (!k->events)
		return -ENOMEM;
	if (trace_data__from_session(s, cmd, &k->tep))
		return -EINVAL;
	if (!k->tep)
		return 0;	/* no tracepoints: every row is N/A */
	k->seq = calloc(1, sizeof(*k->seq));
	if (!k->seq)
		return -ENOMEM;
	trace_seq_init(k->seq);
	for (i = 0; i < s->nr_attrs; i++)
		if (s->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			k->events[i] = tep_find_event(k->tep,
						      s->attrs[i].attr.config);
	return 0;
}

int sort_keys__setup(struct sort_keys *k, const struct hists_config *cfg,
		     struct perf_session *s, const char *parent_pattern,
		     const char *cmd)
{
	int err = 0;

	memset(k, 0, sizeof(*k));
	k->cfg = cfg;
	if (s->info.nr_cpu_topo) {
		k->topo = s->info.cpu_topo;
		k->nr_topo = s->info.nr_cpu_topo;
	}
	if (sort_keys__has(cfg, SORT_PARENT))
		err = setup_parent(k, parent_pattern, cmd);
	if (!err && sort_keys__has(cfg, SORT_TRACE))
		err = setup_trace(k, s, cmd);
	if (!err && (sort_keys__has(cfg, SORT_SRCLINE) ||
		     sort_keys__has(cfg, SORT_SRCFILE))) {
		k->srclines = srcline_cache__new();
		if (!k->srclines)
			err = -ENOMEM;
	}
	return err;
}

void sort_keys__exit(struct sort_keys *k)
{
	if (k->have_parent)
		regfree(&k->parent);
	if (k->seq) {
		trace_seq_destroy(k->seq);
		free(k->seq);
	}
	if (k->tep)
		tep_free(k->tep);
	free(k->events);
	srcline_cache__delete(k->srclines);
	memset(k, 0, sizeof(*k));
}

static int socket_of(const struct sort_keys *k, int cpu)
{
	if (!k->topo || cpu < 0 || (u32)cpu >= k->nr_topo)
		return -1;
	return k->topo[cpu].socket_id;
}

static bool parent_matches(const struct sort_keys *k,
			   const struct hist_frame *f)
{
	return f->sym_name && !regexec(&k->parent, f->sym_name, 0, NULL, 0);
}

/* The first frame from the leaf up whose symbol matches. */
static const char *find_parent(const struct sort_keys *k,
			       const struct hist_sample *hs)
{
	int i;

	if (parent_matches(k, &hs->ip))
		return hs->ip.sym_name;
	for (i = 0; i < hs->chain_len; i++)
		if (parent_matches(k, &hs->chain[i]))
			return hs->chain[i].sym_name;
	return NULL;
}

static const char *format_trace(struct sort_keys *k, struct hists *h,
				const struct perf_sample *s,
				const struct perf_session_attr *attr)
{
	struct tep_record rec = {
		.cpu = s->cpu,
		.size = s->raw_size,
		.data = (void *)s->raw_data,
	};

	if (!k->tep || attr->idx < 0 || (u32)attr->idx >= k->nr_events ||
	    !k->events[attr->idx] || !s->raw_data)
		return NULL;
	trace_seq_reset(k->seq);
	tep_print_event(k->tep, k->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(k->seq);
	return hists__intern(h, k->seq->buffer);
}

/*
 * A frame's source line.  Chain frames without a symbol carry their raw
 * address, not one in the object: they get the object and address form.
 */
static void fill_srcline(struct sort_keys *k, struct hists *h,
			 struct hist_frame *f, bool rel)
{
	const struct srcline *sl;

	if (!rel && !f->sym)
		sl = srcline__find(k->srclines, NULL, f->addr, NULL, 0);
	else
		sl = srcline__find(k->srclines, (struct dso *)f->dso, f->addr,
				   f->sym_name, f->sym_start);
	f->srcline = sl ? hists__intern(h, sl->line) : NULL;
	f->srcfile = sl ? hists__intern(h, sl->file) : NULL;
}

void sort_keys__fill(struct sort_keys *k, struct hists *h,
		     struct hist_sample *hs, const struct perf_sample *s,
		     const struct perf_session_attr *attr)
{
	int i;

	if (k->srclines) {
		fill_srcline(k, h, &hs->ip, true);
		/* The chain is the caller's scratch copy, filled per sample. */
		for (i = 0; i < hs->chain_len; i++)
			fill_srcline(k, h, (struct hist_frame *)&hs->chain[i],
				     false);
	}
	hs->socket = socket_of(k, hs->cpu);
	if (k->have_parent)
		hs->parent = find_parent(k, hs);
	if (k->tep)
		hs->trace = format_trace(k, h, s, attr);
}
