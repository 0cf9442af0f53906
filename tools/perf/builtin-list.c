// SPDX-License-Identifier: GPL-2.0
/*
 * perf list: the events this tool can open.  Hardware and cache events
 * are listed only when the running kernel can count them (each is tried
 * once); software events and tracepoints are what the kernel says it has.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <perf/backend.h>
#include <perf/parse-events.h>
#include <perf/tracefs.h>
#include "builtin.h"
#include "util/parse-options.h"

struct list_filter {
	const char *kind;	/* "hw", "sw", "cache", "tracepoint", or NULL */
	const char *glob;	/* name pattern, or NULL */
	int printed;
};

static bool list_wants(const struct list_filter *f, const char *kind,
		       const char *name, const char *alias)
{
	if (f->kind && strcmp(f->kind, kind))
		return false;
	if (!f->glob)
		return true;
	return !fnmatch(f->glob, name, 0) || (alias && !fnmatch(f->glob, alias, 0));
}

static void list_line(struct list_filter *f, const char *name,
		      const char *alias, const char *desc)
{
	char buf[600];

	if (alias)
		snprintf(buf, sizeof(buf), "%s OR %s", name, alias);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	printf("  %-50s [%s]\n", buf, desc);
	f->printed++;
}

/* Hardware events only where the PMU has them; software ones always. */
static bool list_countable(u32 type, u64 config)
{
	if (type != PERF_TYPE_HARDWARE && type != PERF_TYPE_HW_CACHE)
		return true;
	return perf_event_supported(type, config, NULL);
}

static void list_symbols(struct list_filter *f, const char *kind,
			 const struct perf_event_symbol *syms, int nr,
			 const char *desc)
{
	int i;

	for (i = 0; i < nr; i++)
		if (list_wants(f, kind, syms[i].name, syms[i].alias) &&
		    list_countable(syms[i].type, syms[i].config))
			list_line(f, syms[i].name, syms[i].alias, desc);
}

static void list_cache(struct list_filter *f)
{
	const u64 miss_bit = (u64)PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	char access[64], miss[64];
	int c, op;

	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			u64 config = c | (op << 8);

			if (!perf_cache_op_valid(c, op))
				continue;
			snprintf(access, sizeof(access), "%s-%s",
				 perf_cache_names[c], perf_cache_op_plurals[op]);
			snprintf(miss, sizeof(miss), "%s-%s-misses",
				 perf_cache_names[c], perf_cache_op_names[op]);
			if (list_wants(f, "cache", access, NULL) &&
			    list_countable(PERF_TYPE_HW_CACHE, config))
				list_line(f, access, NULL, "Hardware cache event");
			if (list_wants(f, "cache", miss, NULL) &&
			    list_countable(PERF_TYPE_HW_CACHE, config | miss_bit))
				list_line(f, miss, NULL, "Hardware cache event");
		}
	}
}

static int list_tracepoint(const char *subsys, const char *name, void *data)
{
	struct list_filter *f = data;
	char full[256];

	snprintf(full, sizeof(full), "%s:%s", subsys, name);
	if (list_wants(f, "tracepoint", full, NULL))
		list_line(f, full, NULL, "Tracepoint event");
	return 0;
}

static int list_tracepoints(struct list_filter *f)
{
	int err;

	if (f->kind && strcmp(f->kind, "tracepoint"))
		return 0;
	err = tracefs_walk_events(NULL, list_tracepoint, f);
	if (err && f->kind) {
		fprintf(stderr, "perf list: cannot read tracepoints: %s (is tracefs mounted at /sys/kernel/tracing? are you root?)\n",
			strerror(-err));
		return err;
	}
	return 0;
}

static const char * const list_usage[] = {
	"perf list [hw|sw|cache|tracepoint|GLOB]",
	NULL
};

/* The filters that name a kind of event, Linux perf's long names too. */
static const struct {
	const char *name;
	const char *kind;
} list_kinds[] = {
	{ "hw", "hw" },
	{ "hardware", "hw" },
	{ "sw", "sw" },
	{ "software", "sw" },
	{ "cache", "cache" },
	{ "tracepoint", "tracepoint" },
};

int cmd_list(int argc, const char **argv)
{
	const struct option options[] = { OPT_END() };
	struct list_filter f = { 0 };
	size_t i;

	argc = parse_options(argc - 1, argv + 1, options, list_usage, 0);
	if (argc > 1)
		usage_with_options_msg(list_usage, options,
				       "give at most one filter");
	if (argc == 1) {
		f.glob = argv[1];
		for (i = 0; i < ARRAY_SIZE(list_kinds); i++)
			if (!strcmp(argv[1], list_kinds[i].name))
				f.kind = list_kinds[i].kind;
		if (f.kind)
			f.glob = NULL;
		/* A bare word matches anywhere in the name. */
		if (f.glob && !strpbrk(f.glob, "*?[")) {
			static char buf[256];

			snprintf(buf, sizeof(buf), "*%s*", f.glob);
			f.glob = buf;
		}
	}
	printf("\nList of pre-defined events (to be used in -e):\n\n");
	list_symbols(&f, "hw", perf_hw_symbols, perf_nr_hw_symbols,
		     "Hardware event");
	list_symbols(&f, "sw", perf_sw_symbols, perf_nr_sw_symbols,
		     "Software event");
	list_cache(&f);
	if (!f.kind && (!f.glob || !fnmatch(f.glob, "rNNN", 0)))
		list_line(&f, "rNNN", NULL, "Raw hardware event descriptor");
	if (list_tracepoints(&f))
		return 1;
	printf("\n");
	return 0;
}
