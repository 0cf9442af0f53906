// SPDX-License-Identifier: GPL-2.0
/*
 * Event parsing: "cycles,task-clock:u,{cs,faults},r1a8,sched:sched_switch".
 *
 * The grammar is small enough for a hand-written scanner:
 *   list   := item (',' item)*
 *   item   := '{' event (',' event)* '}' [':' mods] | event
 *   event  := symbol [':' mods] | 'r' hex [':' mods] | subsys ':' glob
 *   mods   := [ukhGHDp]+
 * A name followed by ':' is a tracepoint unless the name is a known
 * symbol, raw encoding or cache event, in which case modifiers follow.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/parse-events.h>
#include <perf/tracefs.h>
#include "internal.h"

#define HW(n, a, c) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, a, c) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }

const struct perf_event_symbol perf_hw_symbols[] = {
	HW("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", "idle-cycles-frontend",
	   STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", "idle-cycles-backend",
	   STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
};

const struct perf_event_symbol perf_sw_symbols[] = {
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("task-clock", NULL, TASK_CLOCK),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("dummy", NULL, DUMMY),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
};

const int perf_nr_hw_symbols = ARRAY_SIZE(perf_hw_symbols);
const int perf_nr_sw_symbols = ARRAY_SIZE(perf_sw_symbols);

const char * const perf_cache_names[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

const char * const perf_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load",
	[PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};

const char * const perf_cache_op_plurals[PERF_COUNT_HW_CACHE_OP_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "loads",
	[PERF_COUNT_HW_CACHE_OP_WRITE] = "stores",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetches",
};

/*
 * Instruction caches are read and prefetched, never written; the
 * instruction TLB and the branch unit are only read.
 */
bool perf_cache_op_valid(int cache, int op)
{
	if (cache == PERF_COUNT_HW_CACHE_L1I)
		return op != PERF_COUNT_HW_CACHE_OP_WRITE;
	if (cache == PERF_COUNT_HW_CACHE_ITLB || cache == PERF_COUNT_HW_CACHE_BPU)
		return op == PERF_COUNT_HW_CACHE_OP_READ;
	return true;
}

struct parser {
	const char *str;
	const char *p;
	struct parse_events_error *err;
	struct perf_evlist *evlist;
};

static int parse_fail(struct parser *ps, const char *at, const char *fmt,
		      const char *what)
{
	ps->err->pos = at - ps->str;
	snprintf(ps->err->msg, sizeof(ps->err->msg), fmt, what);
	return -EINVAL;
}

static bool symbol_lookup(const char *name, struct perf_counter_attr *attr)
{
	const struct perf_event_symbol *tabs[] = { perf_hw_symbols,
						   perf_sw_symbols };
	const int sizes[] = { ARRAY_SIZE(perf_hw_symbols),
			      ARRAY_SIZE(perf_sw_symbols) };
	size_t t;
	int i;

	for (t = 0; t < ARRAY_SIZE(tabs); t++) {
		for (i = 0; i < sizes[t]; i++) {
			const struct perf_event_symbol *s = &tabs[t][i];

			if (strcmp(name, s->name) &&
			    (!s->alias || strcmp(name, s->alias)))
				continue;
			attr->type = s->type;
			attr->config = s->config;
			return true;
		}
	}
	return false;
}

/* "L1-dcache-loads", "LLC-load-misses", "dTLB-stores", ... */
static bool cache_lookup(const char *name, struct perf_counter_attr *attr)
{
	int c, op;
	char buf[64];

	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			u64 config = c | (op << 8);

			if (!perf_cache_op_valid(c, op))
				continue;
			snprintf(buf, sizeof(buf), "%s-%s", perf_cache_names[c],
				 perf_cache_op_plurals[op]);
			if (!strcmp(name, buf))
				goto found;
			snprintf(buf, sizeof(buf), "%s-%s-misses",
				 perf_cache_names[c], perf_cache_op_names[op]);
			config |= (u64)PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
			if (!strcmp(name, buf))
				goto found;
			continue;
found:
			attr->type = PERF_TYPE_HW_CACHE;
			attr->config = config;
			return true;
		}
	}
	return false;
}

/* "r1a8": a raw PMU encoding in hex. */
static bool raw_lookup(const char *name, struct perf_counter_attr *attr)
{
	char *end;
	u64 config;

	if (name[0] != 'r' || !isxdigit((unsigned char)name[1]))
		return false;
	config = strtoull(name + 1, &end, 16);
	if (*end)
		return false;
	attr->type = PERF_TYPE_RAW;
	attr->config = config;
	return true;
}

static bool name_lookup(const char *name, struct perf_counter_attr *attr)
{
	return symbol_lookup(name, attr) || cache_lookup(name, attr) ||
	       raw_lookup(name, attr);
}

/*
 * Apply modifiers such as "u", "k", "ppp".  Like the established tool,
 * naming any of u/k/h excludes the privilege levels not named.
 */
static int apply_modifiers(struct parser *ps, const char *mods, size_t len,
			   struct perf_counter_attr *attr)
{
	bool u = false, k = false, h = false, any = false;
	int precise = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		switch (mods[i]) {
		case 'u':
			u = any = true;
			break;
		case 'k':
			k = any = true;
			break;
		case 'h':
			h = any = true;
			break;
		case 'G':
			attr->exclude_host = 1;
			break;
		case 'H':
			attr->exclude_guest = 1;
			break;
		case 'D':
			attr->pinned = 1;
			break;
		case 'p':
			precise++;
			break;
		default:
			return parse_fail(ps, mods + i,
					  "unknown event modifier '%.1s'",
					  mods + i);
		}
	}
	if (precise > 3)
		return parse_fail(ps, mods, "at most 3 'p' modifiers%s", "");
	attr->precise_ip = precise;
	if (any) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	return 0;
}

static int add_event(struct parser *ps, const struct perf_counter_attr *attr,
		     const char *name)
{
	struct perf_evsel *evsel = perf_evsel__new(attr, name);

	if (!evsel)
		return -ENOMEM;
	perf_evlist__add(ps->evlist, evsel);
	return 0;
}

struct tp_add {
	struct parser *ps;
	int added;
	int err;
};

static int tracepoint_add_one(const char *subsys, const char *name,
			      void *data)
{
	struct tp_add *tp = data;
	struct perf_counter_attr attr = { .type = PERF_TYPE_TRACEPOINT };
	char full[256];
	int id = tracefs_event_id(subsys, name);

	if (id < 0)
		return 0;	/* e.g. ftrace's own entries have no id */
	attr.config = id;
	attr.sample_period = 1;
	snprintf(full, sizeof(full), "%s:%s", subsys, name);
	tp->err = add_event(tp->ps, &attr, full);
	if (!tp->err)
		tp->added++;
	return tp->err;
}

static int parse_tracepoint(struct parser *ps, const char *start,
			    const char *spec)
{
	struct tp_add tp = { .ps = ps };
	char subsys[128];
	const char *colon = strchr(spec, ':');
	int ret;

	if (!tracefs_path() && errno == EACCES)
		return parse_fail(ps, start,
				  "tracepoint '%s': tracefs is readable by root only; run as root, or make /sys/kernel/tracing readable for this user",
				  spec);
	if (!tracefs_path())
		return parse_fail(ps, start,
				  "tracepoint '%s': tracefs is not mounted and could not be mounted (mount -t tracefs nodev /sys/kernel/tracing)",
				  spec);
	if ((size_t)(colon - spec) >= sizeof(subsys))
		return parse_fail(ps, start, "unknown tracepoint '%s'", spec);
	memcpy(subsys, spec, colon - spec);
	subsys[colon - spec] = '\0';
	if (!strpbrk(spec, "*?[")) {
		ret = tracefs_event_id(subsys, colon + 1);
		if (ret < 0)
			return parse_fail(ps, start,
					  ret == -EACCES ?
					  "tracepoint '%s': permission denied reading tracefs (run as root)" :
					  "unknown tracepoint '%s' (see 'perf list tracepoint')",
					  spec);
	}
	ret = tracefs_walk_events(spec, tracepoint_add_one, &tp);
	if (ret)
		return ret;
	if (!tp.added)
		return parse_fail(ps, start, "no tracepoint matches '%s'", spec);
	return 0;
}

/* Length of the next event token: up to ',', '{', '}' or the end. */
static size_t token_len(const char *p)
{
	return strcspn(p, ",{}");
}

static int parse_event(struct parser *ps, const char *group_mods,
		       size_t group_mods_len)
{
	struct perf_counter_attr attr = { 0 };
	const char *start = ps->p;
	size_t len = token_len(start);
	char tok[512], *colon;
	int err;

	if (len == 0)
		return parse_fail(ps, start, "expected an event name%s", "");
	if (len >= sizeof(tok))
		return parse_fail(ps, start, "event name too long%s", "");
	memcpy(tok, start, len);
	tok[len] = '\0';
	ps->p += len;

	colon = strchr(tok, ':');
	if (colon)
		*colon = '\0';
	if (!name_lookup(tok, &attr)) {
		if (!colon)
			return parse_fail(ps, start,
					  "unknown event '%s' (see 'perf list')",
					  tok);
		*colon = ':';
		return parse_tracepoint(ps, start, tok);
	}
	if (colon) {
		/* Point into the user's string so errors show the spot. */
		err = apply_modifiers(ps, start + (colon - tok) + 1,
				      strlen(colon + 1), &attr);
		*colon = ':';
		if (err)
			return err;
	}
	if (group_mods) {
		err = apply_modifiers(ps, group_mods, group_mods_len, &attr);
		if (err)
			return err;
	}
	return add_event(ps, &attr, tok);
}

/* Make the events added since @first one group led by @first. */
static void make_group(struct perf_evsel *first)
{
	struct perf_evsel *pos;

	first->nr_members = 0;
	for (pos = first; pos; pos = pos->next) {
		pos->leader = first;
		first->nr_members++;
	}
}

static int parse_group(struct parser *ps)
{
	struct perf_evsel *before = ps->evlist->last, *first;
	const char *open = ps->p++, *body = ps->p, *close, *mods = NULL;
	size_t mods_len = 0;
	int err;

	close = strchr(body, '}');
	if (!close)
		return parse_fail(ps, open, "unterminated group '{'%s", "");
	if (close[1] == ':') {
		mods = close + 2;
		mods_len = token_len(mods);
	}
	for (;;) {
		err = parse_event(ps, mods, mods_len);
		if (err)
			return err;
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p != '}')
			return parse_fail(ps, ps->p, "expected ',' or '}'%s", "");
		break;
	}
	ps->p = close + 1;
	if (mods)
		ps->p = mods + mods_len;
	first = before ? before->next : ps->evlist->first;
	make_group(first);
	return 0;
}

int parse_events(struct perf_evlist *evlist, const char *str,
		 struct parse_events_error *err)
{
	struct parser ps = { .str = str, .p = str, .err = err,
			     .evlist = evlist };
	int ret;

	memset(err, 0, sizeof(*err));
	for (;;) {
		if (*ps.p == '{')
			ret = parse_group(&ps);
		else
			ret = parse_event(&ps, NULL, 0);
		if (ret)
			return ret;
		if (*ps.p == '\0')
			return 0;
		if (*ps.p != ',')
			return parse_fail(&ps, ps.p, "unexpected '%.1s'", ps.p);
		ps.p++;
	}
}

/* Print the event string with a marker under the failing position. */
void parse_events_error__print(const struct parse_events_error *err,
			       const char *str, FILE *out)
{
	fprintf(out, "event syntax error: '%s'\n", str);
	fprintf(out, "%*s\\___ %s\n", 21 + err->pos, "", err->msg);
	fprintf(out, "Run 'perf list' for a list of valid events\n");
}
