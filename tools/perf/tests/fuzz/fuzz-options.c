// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parsers of option values, each given the input
 * as a string: event lists (-e), sort keys (-s), script fields (-F),
 * time windows (--time), call graph specs (-g), call-chain frames, CPU
 * lists (-C), sizes (--max-size), --switch-output values and clock
 * names (-k).  They take what a user types, so nothing they are given
 * may make them crash, hang or read out of bounds.
 *
 * The input is also a command line, one argument a line, for
 * parse_options() itself over a table of every kind of option, shared
 * tables spliced in; PARSE_OPT_NO_EXIT keeps its usage errors from
 * ending the process.
 */
#include <stdlib.h>
#include <string.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/parse-events.h>
#include "../../util/hist.h"
#include "../../util/parse-options.h"
#include "../../util/report.h"
#include "../../util/sched-daemon.h"
#include "../../util/script.h"
#include "../../util/switch-output.h"
#include "../../util/symbol.h"
#include "../../util/target.h"
#include "../../util/tod.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

static void parse_event_list(const char *s)
{
	struct perf_evlist *evlist = perf_evlist__new();
	struct parse_events_error err = { 0 };

	if (!evlist)
		return;
	parse_events(evlist, s, &err);
	perf_evlist__delete(evlist);
}

static void parse_report_values(const char *s)
{
	struct hists_config cfg = { 0 };
	struct report_filter f = { 0 };
	struct report r = { 0 };
	struct callchain_frames_opts fo = { .str = s };
	enum callchain_frames frames;

	sort_keys__parse(s, &cfg);
	report__parse_time(s, &f);
	report__parse_callchain(s, &r);
	callchain_frames__from_options(&fo, &frames);
}

static void parse_other_values(const char *s)
{
	struct script_opts so;
	struct switch_output sw = { 0 };
	struct perf_cpu_map *cpus;
	char err[256];
	u64 bytes;

	script__init_opts(&so);
	script__parse_fields(&so, s, err, sizeof(err));
	cpus = perf_cpu_map__parse(s);
	perf_cpu_map__put(cpus);
	sched_daemon__parse_size(s, &bytes);
	switch_output__parse(&sw, s);
	switch_output__exit(&sw);
	tod_parse_clockid(s);
}

static int keep_value(const struct option *opt, const char *arg, int unset)
{
	const char **value = opt->value;

	*value = unset ? NULL : arg;
	return 0;
}

#define MAX_ARGS 64

/* Each line of @s an argument (@s is changed), at most MAX_ARGS. */
static int split_lines(char *s, const char **argv)
{
	int argc = 0;
	char *line;

	while (argc < MAX_ARGS && (line = strsep(&s, "\n")) != NULL)
		argv[argc++] = line;
	argv[argc] = NULL;
	return argc;
}

static void parse_command_line(char *s, bool stop_at_non_option)
{
	static const char * const usage[] = { "perf fuzz [<options>]", NULL };
	struct option target_opts[TARGET_OPTIONS_SIZE];
	struct callchain_frames_opts frames = { 0 };
	struct report_filter filter = { 0 };
	struct target target = { 0 };
	const char *argv[MAX_ARGS + 1], *str = NULL, *cb = NULL;
	int integer = 0, incr = 0, tristate = TRISTATE_UNSET;
	unsigned int uinteger = 0;
	bool boolean = false;
	struct option filter_opts[REPORT_FILTER_OPTIONS_SIZE];
	struct option frames_opts[CALLCHAIN_FRAMES_OPTIONS_SIZE];
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	const struct option opts[] = {
		OPT_TABLE(target_opts),
		OPT_BOOLEAN('b', "boolean", &boolean, "a flag"),
		OPT_TRISTATE(0, "children", &tristate, "three states"),
		OPT_INCR('v', "verbose", &incr, "more each time"),
		OPT_INTEGER('r', "repeat", &integer, "n", "a number"),
		OPT_UINTEGER('m', "mmap-pages", &uinteger, "n", "a count"),
		OPT_STRING('o', "output", &str, "file", "a string"),
		OPT_CALLBACK('g', "call-graph", &cb, "mode", "a callback",
			     keep_value),
		OPT_GROUP("shared"),
		OPT_TABLE(filter_opts),
		OPT_TABLE(frames_opts),
		OPT_TABLE(symbol_opts),
		OPT_END()
	};
	int argc = split_lines(s, argv);

	target__options(&target, target_opts);
	report_filter__options(&filter, filter_opts);
	callchain_frames__options(&frames, frames_opts);
	symbol_conf__options(symbol_opts);
	parse_options(argc, argv, opts, usage,
		      PARSE_OPT_NO_EXIT |
		      (stop_at_non_option ? PARSE_OPT_STOP_AT_NON_OPTION : 0));
	memset(&symbol_conf, 0, sizeof(symbol_conf));
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	parse_event_list(s);
	parse_report_values(s);
	parse_other_values(s);
	parse_command_line(s, size & 1);
	free(s);
	return 0;
}
