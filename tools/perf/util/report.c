// SPDX-License-Identifier: GPL-2.0
/*
 * perf report: turn a session's samples into histograms.
 *
 * Records are delivered in time order so that each sample is resolved
 * against the tasks and mappings that existed when it was taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "parse-options.h"
#include "annotate.h"
#include "report.h"

#define REPORT_DEFAULT_MAX_STACK 127

/* "start,stop" in seconds with up to nanosecond decimals; either may be empty. */
static int parse_seconds(const char *s, size_t len, u64 *out)
{
	char buf[64], *end;
	double v;

	if (len == 0) {
		*out = 0;
		return 0;
	}
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	/* In nanoseconds it must fit a u64: 584 years; NaN fails it too. */
	if (*end || !(v >= 0 && v < 1.8e10))
		return -EINVAL;
	*out = (u64)(v * 1e9 + 0.5);
	return 0;
}

int report__parse_time(const char *str, struct report_filter *f)
{
	const char *comma = strchr(str, ',');

	if (!comma)
		return -EINVAL;
	if (parse_seconds(str, comma - str, &f->time_start) ||
	    parse_seconds(comma + 1, strlen(comma + 1), &f->time_end))
		return -EINVAL;
	if (f->time_end && f->time_end < f->time_start)
		return -EINVAL;
	return 0;
}

void report__set_order(struct report *r, bool caller)
{
	r->cfg.order = caller ? CALLCHAIN_CALLER : CALLCHAIN_CALLEE;
	r->order_set = true;
}

/* "graph,0.5,caller", "none", "callee", "fractal,1" ... */
int report__parse_callchain(const char *str, struct report *r)
{
	char buf[128], *tok, *save = NULL, *end;

	snprintf(buf, sizeof(buf), "%s", str);
	r->callchain_set = true;
	r->cfg.callchain = true;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		double pct = strtod(tok, &end);

		if (!strcmp(tok, "none"))
			r->cfg.callchain = false;
		else if (!strcmp(tok, "folded"))
			r->cfg.folded = true;
		else if (!strcmp(tok, "graph") || !strcmp(tok, "flat") ||
			 !strcmp(tok, "fractal"))
			r->cfg.folded = false;	/* one graph style is printed */
		else if (!strcmp(tok, "function"))
			;	/* the key Linux perf folds frames by: ours */
		else if (!strcmp(tok, "caller") || !strcmp(tok, "callee"))
			report__set_order(r, !strcmp(tok, "caller"));
		else if (end != tok && !*end && pct >= 0)
			r->cfg.graph_min_pct = pct;
		else
			return -EINVAL;
	}
	return 0;
}

/* Is @val (decimal) in the comma separated @list? */
bool report__list_has_num(const char *list, u32 val)
{
	const char *p = list;

	while (*p) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end != p && v == val && (*end == ',' || !*end))
			return true;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	return false;
}

bool report__list_has_str(const char *list, const char *s)
{
	size_t len = strlen(s);
	const char *p = list;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (n == len && !strncmp(p, s, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static bool sample_in_time(const struct report *r, const struct perf_sample *s)
{
	const struct report_filter *f = &r->filter;

	if (f->time_start && s->time < f->time_start)
		return false;
	return !f->time_end || s->time <= f->time_end;
}

/*
 * Display filters, as Linux perf applies them: a sample of another task
 * or object still counts in the totals and in the children of entries
 * others made, but the entries it creates are not shown.
 */
static bool sample_hidden(const struct report *r, const struct perf_sample *s,
			  const char *comm, const char *dso)
{
	const struct report_filter *f = &r->filter;

	if (f->pids && !report__list_has_num(f->pids, s->pid))
		return true;
	if (f->tids && !report__list_has_num(f->tids, s->tid))
		return true;
	if (f->comms && !report__list_has_str(f->comms, comm))
		return true;
	return f->dsos && !report__list_has_str(f->dsos, dso);
}

static const char *dso_name(const struct addr_location *al)
{
	return al->dso ? al->dso->short_name : "[unknown]";
}

static void frame_from_al(struct hist_frame *f, const struct addr_location *al)
{
	f->dso = al->dso;
	f->dso_name = dso_name(al);
	f->sym = al->sym;
	f->sym_name = al->sym ? al->sym->name : NULL;
	f->sym_start = al->sym ? al->sym->start : 0;
	f->addr = al->addr;
	f->map_size = al->map ? al->map->end - al->map->start : 0;
	f->level = al->level;
}

static int callchain_frames__parse(const char *str, enum callchain_frames *frames)
{
	if (!str || !strcmp(str, "all"))
		*frames = CALLCHAIN_FRAMES_ALL;
	else if (!strcmp(str, "user"))
		*frames = CALLCHAIN_FRAMES_USER;
	else if (!strcmp(str, "kernel"))
		*frames = CALLCHAIN_FRAMES_KERNEL;
	else
		return -EINVAL;
	return 0;
}

void callchain_frames__options(struct callchain_frames_opts *o,
			       struct option opts[CALLCHAIN_FRAMES_OPTIONS_SIZE])
{
	const struct option t[CALLCHAIN_FRAMES_OPTIONS_SIZE] = {
		OPT_STRING(0, "call-graph-frames", &o->str, "all|user|kernel",
			   "keep only user or kernel frames of call chains"),
		OPT_BOOLEAN(0, "user-callchain", &o->user,
			    "same as --call-graph-frames=user"),
		OPT_BOOLEAN(0, "kernel-callchain", &o->kernel,
			    "same as --call-graph-frames=kernel"),
		OPT_BOOLEAN(0, "inline", &o->inline_frames,
			    "inlined functions as frames of their own: not supported, --no-inline is what is shown"),
		OPT_END()
	};

	memcpy(opts, t, sizeof(t));
}

void report_filter__options(struct report_filter *f,
			    struct option opts[REPORT_FILTER_OPTIONS_SIZE])
{
	const struct option t[REPORT_FILTER_OPTIONS_SIZE] = {
		OPT_STRING(0, "pid", &f->pids, "pid[,pid...]",
			   "only these process ids"),
		OPT_STRING(0, "tid", &f->tids, "tid[,tid...]",
			   "only these thread ids"),
		OPT_STRING(0, "comm", &f->comms, "comm[,comm...]",
			   "only these command names"),
		OPT_STRING('c', "comms", &f->comms, "comm[,comm...]",
			   "same as --comm (Linux perf's spelling)"),
		OPT_STRING(0, "dso", &f->dsos, "dso[,dso...]",
			   "only samples in these objects"),
		OPT_STRING('d', "dsos", &f->dsos, "dso[,dso...]",
			   "same as --dso (Linux perf's spelling)"),
		OPT_END()
	};

	memcpy(opts, t, sizeof(t));
}

const char *callchain_frames__from_options(const struct callchain_frames_opts *o,
					  enum callchain_frames *frames)
{
	const char *str = o->str;

	if (o->user && o->kernel)
		return "--user-callchain and --kernel-callchain are exclusive";
	if (o->inline_frames)
		return "--inline is not supported: call chains show the function a frame's address is in (--no-inline)";
	if (o->user || o->kernel)
		str = o->user ? "user" : "kernel";
	if (callchain_frames__parse(str, frames))
		return "--call-graph-frames takes all, user or kernel";
	return NULL;
}

bool callchain_frame_wanted(enum callchain_frames frames, u8 cpumode)
{
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
		      cpumode == PERF_RECORD_MISC_GUEST_KERNEL;

	if (frames == CALLCHAIN_FRAMES_USER)
		return !kernel;
	if (frames == CALLCHAIN_FRAMES_KERNEL)
		return kernel;
	return true;
}

static int chain_reserve(struct report *r, u64 nr)
{
	struct hist_frame *tmp;

	if (nr <= (u64)r->chain_alloc)
		return 0;
	tmp = realloc(r->chain, nr * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	r->chain = tmp;
	r->chain_alloc = nr;
	return 0;
}

/*
 * --max-stack keeps the frames shown first: the leaf side in callee
 * order, the outermost callers in caller order, as Linux perf does.
 */
static int limit_stack(struct report *r, int n)
{
	if (n <= r->max_stack)
		return n;
	if (r->cfg.order == CALLCHAIN_CALLER)
		memmove(r->chain, r->chain + n - r->max_stack,
			r->max_stack * sizeof(*r->chain));
	return r->max_stack;
}

/*
 * Resolve a sample's call chain, leaf first, into r->chain.  Context
 * markers switch between kernel and user resolution and are not frames.
 */
static int resolve_chain(struct report *r, const struct perf_sample *s,
			 struct thread *t)
{
	const struct ip_callchain *cc = machine__callchain(&r->machine, t, s);
	u8 cpumode = s->cpumode;
	int n = 0;
	u64 i;

	if (!cc || chain_reserve(r, cc->nr))
		return 0;
	for (i = 0; i < cc->nr; i++) {
		struct addr_location al;
		u64 ip = cc->ips[i];

		/* A marker switches modes; an unknown one spoils the chain. */
		if (machine__resolve_callchain_ip(&r->machine, t, &cpumode,
						  ip, &al) < 0)
			return 0;
		if (ip >= PERF_CONTEXT_MAX)
			continue;
		if (!callchain_frame_wanted(r->frames, al.cpumode))
			continue;
		frame_from_al(&r->chain[n], &al);
		/* Chain frames without a symbol are known by their raw IP. */
		if (!al.sym)
			r->chain[n].addr = ip;
		n++;
	}
	return limit_stack(r, n);
}

/*
 * A frame nothing maps has no level of its own; it shows the level of
 * the frame before it in display order (the sample's for the first),
 * which is how Linux perf shows it, so reports compare line by line.
 */
static void chain_levels(struct report *r, int n, char level)
{
	bool caller = r->cfg.order == CALLCHAIN_CALLER;
	int i;

	for (i = 0; i < n; i++) {
		struct hist_frame *f = &r->chain[caller ? n - 1 - i : i];

		if (f->dso)
			level = f->level;
		else
			f->level = level;
	}
}

static const char *report__intern_comm(struct report *r, struct hists *h,
				       const char *comm)
{
	if (comm != r->last_comm || h != r->last_comm_hists) {
		r->last_comm_interned = hists__intern(h, comm);
		r->last_comm = r->last_comm_interned ? comm : NULL;
		r->last_comm_hists = h;
	}
	return r->last_comm_interned;
}

#define SAMPLE_MEMO_SLOTS 4096	/* a power of 2 */

/*
 * A sample's entry, by what decided it when there are no call chains,
 * parents or trace fields to see: its task, mode and address (and CPU
 * where a key shows it), under one state of the machine and of the
 * histogram.  The slot is stale once either changed.
 */
struct sample_memo_slot {
	u64 ip;
	u32 pid;
	u32 tid;
	u32 cpu;
	u32 machine_gen;	/* 0: empty */
	u32 hists_epoch;
	u8 cpumode;
	const struct hists *hists;
	struct hist_entry *entry;
};

/*
 * Only where a sample's entry depends on nothing else: the sort keys
 * are fixed by its frame, task and CPU, and nothing but its own entry
 * is added to.
 */
static int report__memo_begin(struct report *r)
{
	const struct hists_config *c = &r->cfg;

	free(r->memo);
	r->memo = NULL;
	if (c->callchain || c->children || r->keys.have_parent ||
	    r->keys.tep || r->frames != CALLCHAIN_FRAMES_ALL || r->annotate)
		return 0;
	r->memo_cpu = sort_keys__has(c, SORT_CPU) ||
		      sort_keys__has(c, SORT_SOCKET);
	r->memo = calloc(SAMPLE_MEMO_SLOTS, sizeof(*r->memo));
	return r->memo ? 0 : -ENOMEM;
}

static struct sample_memo_slot *memo_slot(struct report *r,
					  const struct perf_sample *s)
{
	u64 h = s->ip ^ ((u64)s->tid << 40) ^ ((u64)s->cpumode << 36);

	if (r->memo_cpu)
		h ^= (u64)s->cpu << 48;
	h *= 0x9e3779b97f4a7c15ULL;
	return &r->memo[h >> 40 & (SAMPLE_MEMO_SLOTS - 1)];
}

static bool memo_matches(const struct report *r,
			 const struct sample_memo_slot *m,
			 const struct hists *h, const struct perf_sample *s)
{
	return m->ip == s->ip && m->tid == s->tid && m->pid == s->pid &&
	       m->cpumode == s->cpumode && m->hists == h &&
	       m->machine_gen == r->machine.state_gen &&
	       m->hists_epoch == h->epoch &&
	       (!r->memo_cpu || m->cpu == s->cpu);
}

static void memo_fill(const struct report *r, struct sample_memo_slot *m,
		      const struct hists *h, const struct perf_sample *s)
{
	m->ip = s->ip;
	m->pid = s->pid;
	m->tid = s->tid;
	m->cpu = s->cpu;
	m->cpumode = s->cpumode;
	m->hists = h;
	m->machine_gen = r->machine.state_gen;
	m->hists_epoch = h->epoch;
	m->entry = h->last_entry;
}

/* A sample resolved and added to @h; remembered in @memo if not NULL. */
static int report_sample_add(struct report *r, const struct perf_sample *s,
			     struct perf_session_attr *attr, struct hists *h,
			     struct sample_memo_slot *memo)
{
	struct hist_sample hs = { 0 };
	struct addr_location al;
	struct thread *t;
	int err;

	machine__resolve(&r->machine, s->pid, s->tid, s->cpumode, s->ip, &al);
	t = al.thread;
	hs.comm = report__intern_comm(r, h, t ? t->comm : ":-1");
	hs.filtered = sample_hidden(r, s, hs.comm, dso_name(&al));
	hs.thread_comm = t ? &t->comm : NULL;
	hs.first_comm = t && !t->comm_set ? &t->first_comm : NULL;
	hs.pid = s->pid;
	hs.tid = s->tid;
	hs.cpu = s->cpu;
	hs.period = s->period;
	frame_from_al(&hs.ip, &al);
	/* Chains feed graphs and children, or move the leaf; else skip. */
	if ((attr->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    (r->cfg.callchain || r->cfg.children || r->keys.have_parent ||
	     r->frames != CALLCHAIN_FRAMES_ALL)) {
		hs.chain_len = resolve_chain(r, s, t);
		hs.chain = r->chain;
		chain_levels(r, hs.chain_len, al.level);
		/* With kernel (or user) frames hidden, the leaf moves up. */
		if (hs.chain_len && r->frames != CALLCHAIN_FRAMES_ALL)
			hs.ip = r->chain[0];
	}
	sort_keys__fill(&r->keys, h, &hs, s, attr);
	if (r->annotations && attr->idx < r->nr_hists && al.sym &&
	    al.dso && !hs.filtered &&
	    annotations__add(r->annotations[attr->idx], al.dso, al.sym,
			     al.addr, s->period))
		return -ENOMEM;
	err = hists__add_sample(h, &hs);
	if (!err && memo)
		memo_fill(r, memo, h, s);
	return err;
}

static int report_sample(struct report *r, const struct perf_sample *s,
			 struct perf_session_attr *attr)
{
	struct hists *h = &r->hists[attr->idx];
	struct sample_memo_slot *memo = NULL;

	/* Outside the time window a sample does not exist for the report. */
	if (!sample_in_time(r, s))
		return 0;
	if (r->memo) {
		memo = memo_slot(r, s);
		if (memo_matches(r, memo, h, s)) {
			hists__add_again(h, memo->entry, s->period);
			return 0;
		}
	}
	return report_sample_add(r, s, attr, h, memo);
}

int report__event(struct perf_session *s, const union perf_event *ev,
		  u64 offset, const struct perf_sample *sample,
		  struct perf_session_attr *attr, void *ctx)
{
	struct report *r = ctx;

	progress__update(&r->progress, offset - s->data_offset);
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		if (!attr || !sample)
			return 0;
		return report_sample(r, sample, attr);
	case PERF_RECORD_LOST:
		r->lost_records += ev->lost.lost;
		r->lost_chunks++;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		r->lost_samples += ev->lost_samples.lost;
		return 0;
	default:
		return machine__process_event(&r->machine, ev, sample);
	}
}

/* Without -g: show call graphs when the data has them, like Linux perf. */
static void report_defaults(struct report *r, struct perf_session *s)
{
	bool chains = s->sample_type_all & PERF_SAMPLE_CALLCHAIN;

	if (!r->callchain_set)
		r->cfg.callchain = chains;
	if (!chains)
		r->cfg.callchain = false;
	if (!r->children_set)
		r->cfg.children = chains;
	if (!chains)
		r->cfg.children = false;
	if (!r->order_set)
		r->cfg.order = r->cfg.children ? CALLCHAIN_CALLER :
						 CALLCHAIN_CALLEE;
	if (!r->max_stack)
		r->max_stack = REPORT_DEFAULT_MAX_STACK;
}

static bool single_value(const char *list)
{
	return list && *list && !strchr(list, ',');
}

/* Objects whose recorded build id says which file has their symbols. */
static bool build_id_names_file(const char *name)
{
	return name[0] == '/' || !strcmp(name, KERNEL_DSO_NAME) ||
	       !strcmp(name, VDSO_DSO_NAME);
}

/*
 * The build ids the file recorded: a binary on disk that differs from
 * the one that ran (rebuilt, upgraded) must not lend its symbols; the
 * build-id cache may hold the one that ran.
 */
void report__set_build_ids(struct perf_session *s)
{
	u32 i;

	for (i = 0; i < s->info.nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &s->info.build_ids[i];
		struct dso *dso;

		if (!b->filename || !b->size || !build_id_names_file(b->filename))
			continue;
		dso = dsos__findnew(b->filename);
		if (dso && !dso->bid.size)
			dso__set_build_id(dso, b->build_id, b->size);
	}
}

static int report__begin_annotations(struct report *r)
{
	int i;

	r->annotations = calloc(r->nr_hists ? r->nr_hists : 1,
				sizeof(*r->annotations));
	if (!r->annotations)
		return -ENOMEM;
	for (i = 0; i < r->nr_hists; i++) {
		r->annotations[i] = annotations__new();
		if (!r->annotations[i])
			return -ENOMEM;
	}
	return 0;
}

int report__begin(struct report *r, struct perf_session *s)
{
	u32 i;

	report__set_build_ids(s);
	report_defaults(r, s);
	/* Filtering on one name makes its column say the same on every row. */
	if (single_value(r->filter.comms))
		r->cfg.elide |= 1u << SORT_COMM;
	if (single_value(r->filter.dsos))
		r->cfg.elide |= 1u << SORT_DSO;
	if (machine__init(&r->machine))
		return -ENOMEM;
	if (sort_keys__setup(&r->keys, &r->cfg, s, r->parent_pattern,
			     "perf report"))
		return -EINVAL;
	r->nr_hists = s->nr_attrs;
	r->last_comm = NULL;	/* of an earlier machine, or hists */
	r->last_comm_hists = NULL;
	r->hists = calloc(s->nr_attrs ? s->nr_attrs : 1, sizeof(*r->hists));
	if (!r->hists)
		return -ENOMEM;
	for (i = 0; i < s->nr_attrs; i++)
		if (hists__init(&r->hists[i], &r->cfg))
			return -ENOMEM;
	if (report__memo_begin(r))
		return -ENOMEM;
	return r->annotate ? report__begin_annotations(r) : 0;
}

/* --group: the events of the group attr @i leads (GROUP_DESC), or 1. */
static u32 group_size(const struct report *r, const struct perf_session *s,
		      u32 i)
{
	u32 g;

	for (g = 0; g < s->info.nr_groups; g++) {
		const struct perf_group_desc *d = &s->info.groups[g];

		if (d->leader_idx == i && d->nr_members > 1 &&
		    i + d->nr_members <= (u32)r->nr_hists)
			return d->nr_members;
	}
	return 1;
}

/* "anon group { cpu-clock, task-clock }", as Linux perf names it. */
static void group_name(const struct perf_session *s, u32 i, u32 nr,
		       char *buf, size_t size)
{
	size_t len;
	u32 m;

	len = snprintf(buf, size, "anon group {");
	for (m = 0; m < nr && len < size; m++)
		len += snprintf(buf + len, size - len, "%s %s", m ? "," : "",
				s->attrs[i + m].name);
	if (len < size)
		snprintf(buf + len, size - len, " }");
}

static void print_group(struct report *r, u32 i, u32 nr,
			const struct hists_header *hdr, FILE *out)
{
	struct hists *members[8];
	u32 m;

	for (m = 0; m < nr && m < 8; m++)
		members[m] = &r->hists[i + m];
	hists__fprintf_group(members, nr, hdr, out);
}

static void report_print(struct report *r, struct perf_session *s, FILE *out)
{
	bool printed = false;
	u32 i;

	fprintf(out, "# To display the perf.data header info, please use --header/--header-only options.\n#\n");
	char lines[512] = "", slices[64] = "";
	const struct report_filter *f = &r->filter;

	if (r->cfg.elide & (1u << SORT_COMM))
		snprintf(lines, sizeof(lines), "# comm: %s\n", r->filter.comms);
	if (r->cfg.elide & (1u << SORT_DSO))
		snprintf(lines + strlen(lines), sizeof(lines) - strlen(lines),
			 "# dso: %s\n", r->filter.dsos);
	if (f->time_start || f->time_end)
		snprintf(slices, sizeof(slices), "%llu.%06llu,%llu.%06llu",
			 (unsigned long long)(f->time_start / 1000000000),
			 (unsigned long long)(f->time_start % 1000000000 / 1000),
			 (unsigned long long)(f->time_end / 1000000000),
			 (unsigned long long)(f->time_end % 1000000000 / 1000));
	/* A stream may add attrs after the histograms were made. */
	for (i = 0; i < (u32)r->nr_hists; i++) {
		struct hists_header hdr = {
			.time_slices = slices[0] ? slices : NULL,
			.event_name = s->attrs[i].name,
			.lost_samples = r->lost_samples,
			.filter_lines = lines[0] ? lines : NULL,
			.next_event = printed,
		};

		u32 nr = r->group ? group_size(r, s, i) : 1;
		char name[512];

		if (nr > 1) {
			group_name(s, i, nr, name, sizeof(name));
			hdr.event_name = name;
			hdr.group = true;
			print_group(r, i, nr, &hdr, out);
			printed = true;
			i += nr - 1;
			continue;
		}
		if (!r->hists[i].nr_samples && s->nr_attrs > 1)
			continue;
		hists__fprintf(&r->hists[i], &hdr, out);
		printed = true;
	}
	if (r->lost_chunks)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\nCheck IO/CPU overload!\n\n",
			(unsigned long long)s->stats.nr_events[0],
			(unsigned long long)r->lost_chunks);
}

/* Returns 0, or PERF_SESSION_DATA_ERROR after a partial read, or -errno. */
int report__process(struct report *r, struct perf_session *s)
{
	int err = report__begin(r, s);

	if (err)
		return err;
	progress__init(&r->progress, s->data_end - s->data_offset,
		       "Processing events");
	err = perf_session__for_each_event_ordered(s, report__event, r);
	progress__finish(&r->progress);
	return err;
}

int report__run(struct report *r, struct perf_session *s, FILE *out)
{
	int err;

	/* The graphs are printed once, as text (hist.h). */
	r->cfg.graph_for_text = true;
	err = report__process(r, s);

	if (err < 0)
		return err;
	report_print(r, s, out);
	return err;
}

void report__exit(struct report *r)
{
	int i;

	for (i = 0; i < r->nr_hists; i++) {
		hists__exit(&r->hists[i]);
		if (r->annotations)
			annotations__delete(r->annotations[i]);
	}
	free(r->annotations);
	free(r->hists);
	free(r->chain);
	free(r->memo);
	r->memo = NULL;
	sort_keys__exit(&r->keys);
	machine__exit(&r->machine);
}
