// SPDX-License-Identifier: GPL-2.0
/*
 * perf data convert: a perf.data file in another format (JSON).
 */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include <perf/types.h>
#include "util/data-convert-json.h"
#include "util/parse-options.h"

static const char * const data_usage[] = {
	"perf data convert [<options>]",
	NULL
};

struct data_cmd {
	struct data_convert_opts o;
	const char *to_ctf;
};

/*
 * Linux perf takes the options of convert before the subcommand too
 * ("perf data -i x.data convert --to-json x.json"), so both parses
 * share one table.
 */
static int data_parse(int argc, const char **argv, struct data_cmd *cmd,
		      int flags)
{
	struct data_convert_opts *o = &cmd->o;
	const struct option options[] = {
		OPT_INCR('v', "verbose", &o->verbose,
			 "accepted for Linux perf's scripts"),
		OPT_STRING('i', "input", &o->input, "file",
			   "input file name ('-' for standard input)"),
		OPT_STRING(0, "to-json", &o->output, "file",
			   "convert to JSON, written to this file"),
		OPT_STRING(0, "to-ctf", &cmd->to_ctf, "dir",
			   "convert to CTF (not supported)"),
		OPT_BOOLEAN(0, "tod", &o->tod,
			    "wall clock times (CTF only, refused)"),
		OPT_BOOLEAN('f', "force", &o->force,
			    "overwrite the output file if it exists"),
		OPT_BOOLEAN(0, "all", &o->all,
			    "every event, not only samples (CTF only, refused)"),
		OPT_END()
	};

	argc = parse_options(argc, argv, options, data_usage, flags);
	if (flags)
		return argc;
	if (argc)
		usage_with_options_msg(data_usage, options,
				       "unexpected argument '%s'", argv[0]);
	if (cmd->to_ctf && o->output)
		usage_with_options_msg(data_usage, options,
				       "--to-ctf and --to-json exclude each other");
	return 0;
}

static int data_convert(int argc, const char **argv, void *ctx)
{
	struct data_cmd *cmd = ctx;

	data_parse(argc - 1, argv + 1, cmd, 0);
	if (cmd->to_ctf) {
		fprintf(stderr, "perf data convert: CTF output (--to-ctf) is not supported by this perf; use --to-json\n");
		return 1;
	}
	if (!cmd->o.output) {
		fprintf(stderr, "perf data convert: say what to convert to: --to-json FILE\n");
		return 129;
	}
	if (!cmd->o.input)
		cmd->o.input = "perf.data";
	return data_convert__json(&cmd->o);
}

static const struct subcommand data_subcommands[] = {
	{ "convert", data_convert },
};

int cmd_data(int argc, const char **argv)
{
	struct data_cmd cmd = { .to_ctf = NULL };

	argc = data_parse(argc - 1, argv + 1, &cmd,
			  PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		return subcommand__run("data", data_subcommands,
				       ARRAY_SIZE(data_subcommands), argc,
				       argv + 1, &cmd);
	fprintf(stderr, "\n Usage: %s\n\n", data_usage[0]);
	return 129;
}
