// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the parsers of option values, each given the input
 * as a string: event lists (-e), sort keys (-s), script fields (-F),
 * time windows (--time), call graph specs (-g), call-chain frames, CPU
 * lists (-C), sizes (--max-size), --switch-output values and clock
 * names (-k).  They take what a user types, so nothing they are given
 * may make them crash, hang or read out of bounds.
 */
#include <stdlib.h>
#include <string.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/parse-events.h>
#include "../../util/hist.h"
#include "../../util/report.h"
#include "../../util/sched-daemon.h"
#include "../../util/script.h"
#include "../../util/switch-output.h"
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
	free(s);
	return 0;
}
