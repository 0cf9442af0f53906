// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing in the forms perf users type.
 */
#include <errno.h>
#include <string.h>
#include "tests.h"
#include "../util/parse-options.h"
#include "../util/report.h"

/* parse_options() with PARSE_OPT_NO_EXIT on one or two arguments. */
static int parse_no_exit(const struct option *opts, const char * const *usage,
			 const char *a, const char *b)
{
	const char *argv[3] = { a, b, NULL };

	return parse_options(b ? 2 : 1, argv, opts, usage, PARSE_OPT_NO_EXIT);
}

/* With PARSE_OPT_NO_EXIT a usage error returns -1 and the test goes on. */
static int check_no_exit(struct test_ctx *ctx, const struct option *opts,
			 const char * const *usage)
{
	TEST_ASSERT(ctx, parse_no_exit(opts, usage, "--nosuch", NULL) == -1,
		    "--nosuch");
	TEST_ASSERT(ctx, parse_no_exit(opts, usage, "-r", NULL) == -1,
		    "-r alone");
	TEST_ASSERT(ctx, parse_no_exit(opts, usage, "--repeat=x", NULL) == -1,
		    "--repeat=x");
	TEST_ASSERT(ctx, parse_no_exit(opts, usage, "-a", "-h") == -1, "-h");
	TEST_ASSERT(ctx, parse_no_exit(opts, usage, "-a", "cmd") == 1,
		    "-a cmd");
	return TEST_OK;
}

int test__options(struct test_ctx *ctx)
{
	bool all = false, aggr = false;
	int repeat = 1, verbose = 0, children = TRISTATE_UNSET;
	const char *event = NULL, *out = NULL;
	const char * const usage[] = { "test", NULL };
	/* Shared options, spliced in: found by short, long and prefix. */
	const struct option shared[] = {
		OPT_BOOLEAN('a', "all-cpus", &all, "all"),
		OPT_BOOLEAN('A', "no-aggr", &aggr, "per cpu"),
		OPT_END()
	};
	const struct option opts[] = {
		OPT_TABLE(shared),
		OPT_TRISTATE(0, "children", &children, "children"),
		OPT_INTEGER('r', "repeat", &repeat, "n", "repeat"),
		OPT_STRING('e', "event", &event, "event", "event"),
		OPT_STRING('o', "output", &out, "file", "output"),
		OPT_INCR('v', "verbose", &verbose, "verbose"),
		OPT_END()
	};
	const char *argv1[] = { "-aAvv", "-ecycles", "--repeat=3", "--children",
				"--output", "f", "sleep", "-x", NULL };
	const char *argv2[] = { "--no-all", "--rep", "4", "--no-ch", "--",
				"-a", NULL };
	int n;

	n = parse_options(8, argv1, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	TEST_ASSERT(ctx, all && aggr && verbose == 2, "bundled flags");
	TEST_ASSERT(ctx, event && !strcmp(event, "cycles"), "-eX");
	TEST_ASSERT(ctx, repeat == 3, "--repeat=3 gave %d", repeat);
	TEST_ASSERT(ctx, out && !strcmp(out, "f"), "--output f");
	TEST_ASSERT(ctx, children == 1, "--children gave %d", children);
	TEST_ASSERT(ctx, n == 2 && !strcmp(argv1[0], "sleep") &&
		    !strcmp(argv1[1], "-x"), "command not left in place");
	n = parse_options(6, argv2, opts, usage, 0);
	TEST_ASSERT(ctx, !all && repeat == 4, "--no- and prefix");
	TEST_ASSERT(ctx, children == 0, "--no-ch gave %d", children);
	TEST_ASSERT(ctx, n == 1 && !strcmp(argv2[0], "-a"), "after --");
	return check_no_exit(ctx, opts, usage);
}

/*
 * Option values out of range are refused, never converted: --time
 * 1e23 overflowed the conversion to nanoseconds (undefined behaviour).
 */
int test__option_values(struct test_ctx *ctx)
{
	static const char * const bad_times[] = {
		"1e23,", ",1e30", "nan,", "inf,", "-1,", "1,0.5", "x,",
	};
	struct report_filter f = { 0 };
	size_t i;

	TEST_ASSERT(ctx, !report__parse_time("100.5,200", &f) &&
		    f.time_start == 100500000000ULL &&
		    f.time_end == 200000000000ULL, "a window in seconds");
	TEST_ASSERT(ctx, !report__parse_time("17000000000,", &f),
		    "539 years of uptime still fit");
	for (i = 0; i < ARRAY_SIZE(bad_times); i++)
		TEST_ASSERT(ctx, report__parse_time(bad_times[i], &f) == -EINVAL,
			    "--time %s refused", bad_times[i]);
	return TEST_OK;
}
