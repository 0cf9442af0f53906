// SPDX-License-Identifier: GPL-2.0
/*
 * perf evlist: the events a perf.data recorded.
 */
#include <stdio.h>
#include "builtin.h"
#include "util/data.h"
#include "util/file-info.h"
#include "util/parse-options.h"

static const char * const evlist_usage[] = {
	"perf evlist [<options>]",
	NULL
};

int cmd_evlist(int argc, const char **argv)
{
	struct evlist_opts o = { 0 };
	const char *input = "perf.data";
	bool force = false;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('v', "verbose", &o.verbose,
			    "every attribute that is set"),
		OPT_BOOLEAN('F', "freq", &o.freq,
			    "the sample frequency or period"),
		OPT_BOOLEAN('g', "group", &o.group, "event groups as {a,b}"),
		OPT_BOOLEAN(0, "trace-fields", &o.trace_fields,
			    "the fields of tracepoint events"),
		OPT_BOOLEAN('f', "force", &force,
			    "accepted for Linux perf's scripts"),
		OPT_END()
	};
	struct perf_session s;
	int err;

	argc = parse_options(argc - 1, argv + 1, options, evlist_usage, 0);
	if (argc)
		usage_with_options_msg(evlist_usage, options,
				       "unexpected argument '%s'", argv[1]);
	if (o.group && (o.verbose || o.freq))
		usage_with_options_msg(evlist_usage, options,
				       "-g goes with no other listing option");
	err = perf_session__open_report(&s, input, "perf evlist");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	err = perf_session__fprintf_evlist(&s, &o, stdout);
	perf_session__close(&s);
	return err ? 1 : 0;
}
