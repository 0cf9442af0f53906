// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing in the forms perf users type.
 */
#include <string.h>
#include "tests.h"
#include "../util/parse-options.h"

int test__options(struct test_ctx *ctx)
{
	bool all = false, aggr = false;
	int repeat = 1, verbose = 0;
	const char *event = NULL, *out = NULL;
	const char * const usage[] = { "test", NULL };
	const struct option opts[] = {
		OPT_BOOLEAN('a', "all-cpus", &all, "all"),
		OPT_BOOLEAN('A', "no-aggr", &aggr, "per cpu"),
		OPT_INTEGER('r', "repeat", &repeat, "n", "repeat"),
		OPT_STRING('e', "event", &event, "event", "event"),
		OPT_STRING('o', "output", &out, "file", "output"),
		OPT_INCR('v', "verbose", &verbose, "verbose"),
		OPT_END()
	};
	const char *argv1[] = { "-aAvv", "-ecycles", "--repeat=3",
				"--output", "f", "sleep", "-x", NULL };
	const char *argv2[] = { "--no-all-cpus", "--rep", "4", "--", "-a",
				NULL };
	int n;

	n = parse_options(7, argv1, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	TEST_ASSERT(ctx, all && aggr && verbose == 2, "bundled flags");
	TEST_ASSERT(ctx, event && !strcmp(event, "cycles"), "-eX");
	TEST_ASSERT(ctx, repeat == 3, "--repeat=3 gave %d", repeat);
	TEST_ASSERT(ctx, out && !strcmp(out, "f"), "--output f");
	TEST_ASSERT(ctx, n == 2 && !strcmp(argv1[0], "sleep") &&
		    !strcmp(argv1[1], "-x"), "command not left in place");
	n = parse_options(5, argv2, opts, usage, 0);
	TEST_ASSERT(ctx, !all && repeat == 4, "--no- and prefix");
	TEST_ASSERT(ctx, n == 1 && !strcmp(argv2[0], "-a"), "after --");
	return TEST_OK;
}
