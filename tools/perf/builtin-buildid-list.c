// SPDX-License-Identifier: GPL-2.0
/*
 * perf buildid-list: the build ids a perf.data carries, or the running
 * kernel's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "util/data.h"
#include "util/file-info.h"
#include "util/parse-options.h"

static const char * const buildid_list_usage[] = {
	"perf buildid-list [<options>]",
	NULL
};

int cmd_buildid_list(int argc, const char **argv)
{
	const char *input = "perf.data";
	bool kernel = false, with_hits = false, force = false;
	const struct option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_BOOLEAN('H', "with-hits", &with_hits,
			    "only the binaries samples fell in"),
		OPT_BOOLEAN('k', "kernel", &kernel,
			    "the running kernel's build id"),
		OPT_BOOLEAN('f', "force", &force,
			    "accepted for Linux perf's scripts"),
		OPT_END()
	};
	struct perf_session s;
	int err;

	argc = parse_options(argc - 1, argv + 1, options, buildid_list_usage,
			     0);
	if (argc)
		usage_with_options_msg(buildid_list_usage, options,
				       "unexpected argument '%s'", argv[1]);
	if (kernel) {
		err = build_id__fprintf_kernel(stdout);
		if (err)
			fprintf(stderr, "perf buildid-list: no build id in /sys/kernel/notes: %s\n",
				strerror(-err));
		return err ? 1 : 0;
	}
	err = perf_session__open_report(&s, input, "perf buildid-list");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	err = perf_session__fprintf_build_ids(&s, with_hits, stdout);
	if (err)
		fprintf(stderr, "perf buildid-list: %s: %s\n", s.name,
			perf_session__error(&s)[0] ? perf_session__error(&s) :
			strerror(-err));
	perf_session__close(&s);
	return err ? 1 : 0;
}
