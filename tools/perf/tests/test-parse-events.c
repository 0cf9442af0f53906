// SPDX-License-Identifier: GPL-2.0
/*
 * Event parsing: names, raw encodings, modifiers, groups, tracepoints.
 */
#include <string.h>
#include <perf/parse-events.h>
#include <perf/tracefs.h>
#include "tests.h"

struct expect {
	const char *str;
	u32 type;
	u64 config;
};

static const struct expect simple[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "r1a8", PERF_TYPE_RAW, 0x1a8 },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE,
	  PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
	  ((u64)PERF_COUNT_HW_CACHE_RESULT_MISS << 16) },
	{ "dTLB-stores", PERF_TYPE_HW_CACHE,
	  PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_WRITE << 8) },
};

static struct perf_evlist *parse(const char *str, int *ret,
				 struct parse_events_error *err)
{
	struct perf_evlist *evlist = perf_evlist__new();

	*ret = parse_events(evlist, str, err);
	return evlist;
}

int test__parse_events(struct test_ctx *ctx)
{
	struct parse_events_error err;
	struct perf_evlist *evlist;
	struct perf_evsel *e;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(simple); i++) {
		evlist = parse(simple[i].str, &ret, &err);
		TEST_ASSERT(ctx, !ret && perf_evlist__nr_entries(evlist) == 1, "'%s': %s",
			    simple[i].str, err.msg);
		e = perf_evlist__first(evlist);
		TEST_ASSERT(ctx, e->attr.type == simple[i].type &&
			    e->attr.config == simple[i].config,
			    "'%s' parsed as %u/%#llx", simple[i].str,
			    e->attr.type, (unsigned long long)e->attr.config);
		TEST_ASSERT(ctx, !strcmp(e->name, simple[i].str), "name");
		perf_evlist__delete(evlist);
	}

	evlist = parse("task-clock:u,cs:k", &ret, &err);
	TEST_ASSERT(ctx, !ret && perf_evlist__nr_entries(evlist) == 2, "modifiers: %s", err.msg);
	e = perf_evlist__first(evlist);
	TEST_ASSERT(ctx, !e->attr.exclude_user && e->attr.exclude_kernel &&
		    e->attr.exclude_hv, ":u sets the wrong exclude bits");
	e = e->next;
	TEST_ASSERT(ctx, e->attr.exclude_user && !e->attr.exclude_kernel,
		    ":k sets the wrong exclude bits");
	perf_evlist__delete(evlist);

	evlist = parse("faults,{task-clock,cs}:u,cpu-clock", &ret, &err);
	TEST_ASSERT(ctx, !ret && perf_evlist__nr_entries(evlist) == 4, "group: %s", err.msg);
	e = perf_evlist__first(evlist)->next;
	TEST_ASSERT(ctx, e->leader == e && e->nr_members == 2,
		    "group leader wrong");
	TEST_ASSERT(ctx, e->next->leader == e && e->next->attr.exclude_kernel,
		    "member not in the group or lost the group modifier");
	TEST_ASSERT(ctx, e->next->next->leader == e->next->next,
		    "event after the group joined it");
	e = perf_evlist__first(evlist);
	TEST_ASSERT(ctx, e->leader == e, "first");
	perf_evlist__delete(evlist);

	evlist = parse("cycles,nosuch-event", &ret, &err);
	TEST_ASSERT(ctx, ret && err.pos == 7 && strstr(err.msg, "nosuch-event"),
		    "bad name: ret %d pos %d msg '%s'", ret, err.pos, err.msg);
	perf_evlist__delete(evlist);
	evlist = parse("cycles:q", &ret, &err);
	TEST_ASSERT(ctx, ret && err.pos == 7, "bad modifier accepted");
	perf_evlist__delete(evlist);
	evlist = parse("{cycles,cs", &ret, &err);
	TEST_ASSERT(ctx, ret, "unterminated group accepted");
	perf_evlist__delete(evlist);
	evlist = parse("cycles,", &ret, &err);
	TEST_ASSERT(ctx, ret, "trailing comma accepted");
	perf_evlist__delete(evlist);
	return TEST_OK;
}

int test__parse_tracepoint(struct test_ctx *ctx)
{
	struct parse_events_error err;
	struct perf_evlist *evlist;
	int ret, id;

	if (!tracefs_path())
		return test_skip(ctx, "no tracefs mounted or mountable");
	id = tracefs_event_id("sched", "sched_switch");
	if (id < 0)
		return test_skip(ctx, "no sched:sched_switch tracepoint");
	evlist = parse("sched:sched_switch", &ret, &err);
	TEST_ASSERT(ctx, !ret && perf_evlist__nr_entries(evlist) == 1, "%s", err.msg);
	TEST_ASSERT(ctx, perf_evlist__first(evlist)->attr.type == PERF_TYPE_TRACEPOINT &&
		    perf_evlist__first(evlist)->attr.config == (u64)id, "wrong id");
	perf_evlist__delete(evlist);
	evlist = parse("sched:sched_wakeup*", &ret, &err);
	TEST_ASSERT(ctx, !ret && perf_evlist__nr_entries(evlist) >= 2,
		    "glob matched %d", perf_evlist__nr_entries(evlist));
	perf_evlist__delete(evlist);
	evlist = parse("sched:no_such_tp", &ret, &err);
	TEST_ASSERT(ctx, ret && strstr(err.msg, "sched:no_such_tp"),
		    "unknown tracepoint accepted");
	perf_evlist__delete(evlist);
	return TEST_OK;
}
