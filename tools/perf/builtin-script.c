// SPDX-License-Identifier: GPL-2.0
/*
 * perf script: print the samples of perf.data, one line each, as Linux
 * perf script does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "util/data.h"
#include "util/dump.h"
#include "util/parse-options.h"
#include "util/script.h"
#include "util/symbol.h"

struct script_cmd {
	struct script sc;
	const char *input;
	const char *time;
	struct callchain_frames_opts frames;
	bool dump_raw;
	int verbose;
};

static const char * const script_usage[] = {
	"perf script [<options>]",
	NULL
};

static int fields_cb(const struct option *opt, const char *arg, int unset)
{
	struct script_opts *o = opt->value;
	char err[256] = "";

	if (script__parse_fields(o, arg, err, sizeof(err)) == -EINVAL) {
		fprintf(stderr, "  Error: -F %s: %s\n", arg, err);
		return -1;
	}
	return 0;
}

static void script_cmd_check(struct script_cmd *cmd,
			     const struct option *options)
{
	struct script_opts *o = &cmd->sc.opts;
	const char *msg;

	if (cmd->time && report__parse_time(cmd->time, &o->filter))
		usage_with_options_msg(script_usage, options,
				       "bad --time '%s' (seconds: start,stop)",
				       cmd->time);
	msg = callchain_frames__from_options(&cmd->frames, &o->frames);
	if (msg)
		usage_with_options_msg(script_usage, options, "%s", msg);
	if (o->max_stack < 0)
		usage_with_options_msg(script_usage, options,
				       "--max-stack takes a number of frames");
}

/* The lines, or the raw dump, of an open session. */
static int script_cmd_session(struct script_cmd *cmd, struct perf_session *s)
{
	static char buf[1 << 16];
	int err;

	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	if (cmd->dump_raw)
		err = perf_session__dump_tod(s, stdout, &cmd->sc.opts.tod,
					     "perf script");
	else
		err = script__run(&cmd->sc, s, stdout);
	fflush(stdout);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (err == PERF_SESSION_DATA_ERROR) {
		fprintf(stderr, "Warning: %s\nThe output shows the records before that point.\n",
			perf_session__error(s));
		return 0;
	}
	if (err == -EINVAL && !perf_session__error(s)[0])
		return 1;	/* a field the data lacks: already said */
	if (err < 0) {
		fprintf(stderr, "perf script: %s: %s\n", s->name,
			perf_session__error(s)[0] ? perf_session__error(s) :
			strerror(-err));
		return 1;
	}
	return 0;
}

static int script_cmd_open_run(struct script_cmd *cmd)
{
	struct perf_session s;
	int err;

	err = perf_session__open_report(&s, cmd->input, "perf script");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	err = script_cmd_session(cmd, &s);
	script__exit(&cmd->sc);
	perf_session__close_report(&s, "perf script");
	return err;
}

/* 'perf record -o - | perf script' reads the pipe without -i -. */
static bool stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode);
}

int cmd_script(int argc, const char **argv)
{
	struct script_cmd cmd = { 0 };
	struct script_opts *o = &cmd.sc.opts;
	struct report_filter *f = &o->filter;
	struct option filter_opts[REPORT_FILTER_OPTIONS_SIZE];
	struct option frames_opts[CALLCHAIN_FRAMES_OPTIONS_SIZE];
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "input file name ('-' for standard input)"),
		OPT_CALLBACK('F', "fields", o, "[type:][+-]field,...",
			     "fields to print (see the manual)", fields_cb),
		OPT_BOOLEAN(0, "ns", &o->ns, "show times in nanoseconds"),
		{ .type = OPTION_CALLBACK, .long_name = "tod", .value = &o->tod,
		  .argh = "start", .help = TOD_OPTION_HELP,
		  .callback = tod_option, .optional_arg = true },
		OPT_STRING(0, "time", &cmd.time, "start,stop",
			   "only samples in this time window (seconds)"),
		OPT_TABLE(filter_opts),
		OPT_STRING('C', "cpu", &o->cpus, "cpu",
			   "only these CPUs (e.g. 0,2-3)"),
		OPT_STRING('S', "symbols", &o->symbols, "symbol[,symbol...]",
			   "only samples in these functions (names or 0x start addresses)"),
		OPT_BOOLEAN('G', "hide-call-graph", &o->hide_callchain,
			    "do not show call chains"),
		OPT_TABLE(frames_opts),
		OPT_INTEGER(0, "max-stack", &o->max_stack, "n",
			    "show at most n frames of each call chain (default 127)"),
		OPT_BOOLEAN(0, "show-task-events", &o->show_task,
			    "show COMM, FORK and EXIT records"),
		OPT_BOOLEAN(0, "show-mmap-events", &o->show_mmap,
			    "show MMAP and MMAP2 records"),
		OPT_BOOLEAN(0, "show-lost-events", &o->show_lost,
			    "show LOST records"),
		OPT_BOOLEAN('D', "dump-raw-trace", &cmd.dump_raw,
			    "dump every record with its offset and fields"),
		OPT_TABLE(symbol_opts),
		OPT_INCR('v', "verbose", &cmd.verbose, "say more"),
		OPT_END()
	};

	script__init_opts(o);
	report_filter__options(f, filter_opts);
	callchain_frames__options(&cmd.frames, frames_opts);
	symbol_conf__options(symbol_opts);
	argc = parse_options(argc - 1, argv + 1, options, script_usage, 0);
	if (argc)
		usage_with_options_msg(script_usage, options,
				       "unexpected argument '%s' (scripting languages are not supported)",
				       argv[1]);
	script_cmd_check(&cmd, options);
	if (!cmd.input)
		cmd.input = stdin_is_pipe() ? "-" : "perf.data";
	return script_cmd_open_run(&cmd);
}
