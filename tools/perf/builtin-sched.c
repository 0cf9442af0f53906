// SPDX-License-Identifier: GPL-2.0
/*
 * perf sched: record the scheduler tracepoints, analyse them
 * (timehist), or keep the last seconds of them in memory (daemon).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/data.h"
#include "util/parse-options.h"
#include "util/report.h"
#include "util/sched.h"
#include "util/sched-daemon.h"
#include "util/strvec.h"
#include "util/symbol.h"

static const char * const sched_usage[] = {
	"perf sched record [<options>] [-- <command>]",
	"perf sched timehist [<options>]",
	"perf sched daemon [<options>] -o DIR",
	NULL
};

static int sched_record(int argc, const char **argv, void *ctx)
{
	static const char * const fixed[] = {
		"record", "-a", "-R", "-m", "1024", "-c", "1",
	};
	const char *events[SCHED_MAX_EVENTS];
	int nev = sched_events(events, false), i;
	struct strvec v = STRVEC_INIT;

	strvec__pushv(&v, ARRAY_SIZE(fixed), fixed);
	for (i = 0; i < nev; i++) {
		strvec__push(&v, "-e");
		strvec__push(&v, events[i]);
	}
	strvec__pushv(&v, argc - 1, argv + 1);
	return strvec__run(&v, cmd_record, "perf sched record");
}

static const char * const daemon_usage[] = {
	"perf sched daemon [-g] [-C] [-K] -o DIR [--seconds N] [--max-size SIZE] [--pid-file FILE]",
	NULL
};

static int daemon_size(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	if (!sched_daemon__parse_size(arg, opt->value))
		return 0;
	fprintf(stderr, "  Error: --max-size takes bytes with an optional K, M or G: '%s'\n",
		arg);
	return -1;
}

static int sched_daemon(int argc, const char **argv, void *ctx)
{
	struct sched_daemon_opts o = {
		.seconds = SCHED_DAEMON_SECONDS,
		.max_bytes = SCHED_DAEMON_MAX_BYTES,
		.mmap_pages = SCHED_DAEMON_PAGES,
		.comp_level = 1,
		.argc = argc,
	};
	const struct option options[] = {
		OPT_STRING('o', "output-dir", &o.dir, "dir",
			   "write the dumps to this directory"),
		OPT_BOOLEAN('g', "call-graph", &o.callchain,
			    "record call chains (frame pointers)"),
		OPT_BOOLEAN('C', "compress", &o.compress,
			    "compress the dumps with zstd"),
		OPT_INTEGER(0, "compression-level", &o.comp_level, "n",
			    "zstd level for -C (default 1)"),
		OPT_BOOLEAN('K', "kvm", &o.kvm,
			    "record kvm:kvm_entry and kvm:kvm_exit too"),
		OPT_UINTEGER(0, "seconds", &o.seconds, "n",
			     "keep the last n seconds (default 60)"),
		OPT_CALLBACK(0, "max-size", &o.max_bytes, "size",
			     "memory for records at most (default 128M)",
			     daemon_size),
		OPT_UINTEGER('m', "mmap-pages", &o.mmap_pages, "pages",
			     "ring buffer data pages per CPU (power of two, default 256)"),
		OPT_STRING(0, "pid-file", &o.pid_file, "file",
			   "write the daemon's pid here (removed at exit)"),
		OPT_END()
	};

	int ret;

	/* Parsing reorders argv: the file's cmdline feature wants it whole. */
	o.argv = malloc((argc + 1) * sizeof(*argv));
	if (!o.argv)
		return 1;
	memcpy(o.argv, argv, (argc + 1) * sizeof(*argv));
	argc = parse_options(argc - 1, argv + 1, options, daemon_usage, 0);
	if (argc)
		usage_with_options_msg(daemon_usage, options,
				       "unexpected argument '%s'", argv[1]);
	if (!o.dir)
		usage_with_options_msg(daemon_usage, options,
				       "-o DIR is needed: where the dumps go");
	if (!o.seconds)
		usage_with_options_msg(daemon_usage, options,
				       "--seconds needs a positive number");
	if (!o.mmap_pages || (o.mmap_pages & (o.mmap_pages - 1)))
		usage_with_options_msg(daemon_usage, options,
				       "-m needs a power of two number of pages");
	if (o.comp_level < 1 || o.comp_level > 22)
		usage_with_options_msg(daemon_usage, options,
				       "--compression-level takes 1 to 22");
	ret = sched_daemon__run(&o);
	free(o.argv);
	return ret;
}

struct timehist_cmd {
	struct sched_timehist th;
	const char *input;
	const char *time;
	struct callchain_frames_opts frames;
};

static const char * const timehist_usage[] = {
	"perf sched timehist [<options>]",
	NULL
};

/* --call-graph-frames, or its two short forms. */
static void timehist_check_frames(struct timehist_cmd *cmd,
				  const struct option *options)
{
	enum callchain_frames frames;
	const char *msg;

	msg = callchain_frames__from_options(&cmd->frames, &frames);
	if (msg)
		usage_with_options_msg(timehist_usage, options, "%s", msg);
	cmd->th.opts.frames = frames;
}

static void timehist_check(struct timehist_cmd *cmd,
			   const struct option *options)
{
	struct sched_opts *o = &cmd->th.opts;
	struct report_filter f = { 0 };

	if ((o->wakeups || o->next) && o->summary_only)
		usage_with_options_msg(timehist_usage, options,
				       "-s and -[n|w] are mutually exclusive");
	if (cmd->time && report__parse_time(cmd->time, &f))
		usage_with_options_msg(timehist_usage, options,
				       "bad --time '%s' (seconds: start,stop)",
				       cmd->time);
	o->time_start = f.time_start;
	o->time_end = f.time_end;
	timehist_check_frames(cmd, options);
}

static int timehist_open_run(struct timehist_cmd *cmd)
{
	struct perf_session s;
	char buf[1 << 16];
	int err;

	err = perf_session__open_report(&s, cmd->input, "perf sched timehist");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	report__set_build_ids(&s);
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	err = sched_timehist__run(&cmd->th, &s, stdout);
	fflush(stdout);
	setvbuf(stdout, NULL, _IOLBF, 0);
	sched_timehist__exit(&cmd->th);
	perf_session__close_report(&s, "perf sched timehist");
	return err ? 1 : 0;
}

static int sched_timehist(int argc, const char **argv, void *ctx)
{
	struct timehist_cmd cmd = {
		.input = "perf.data",
		.th.opts = { .callchain = true, .max_stack = 5 },
	};
	struct sched_opts *o = &cmd.th.opts;
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	struct option frames_opts[CALLCHAIN_FRAMES_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "input file name ('-' for standard input)"),
		OPT_TABLE(symbol_opts),
		OPT_BOOLEAN('g', "call-graph", &o->callchain,
			    "show where tasks were switched out (default on)"),
		OPT_UINTEGER(0, "max-stack", &o->max_stack, "n",
			     "frames of each stack to resolve (default 5)"),
		OPT_TABLE(frames_opts),
		OPT_BOOLEAN('s', "summary", &o->summary_only,
			    "show only the summary"),
		OPT_BOOLEAN('S', "with-summary", &o->summary,
			    "show the lines and the summary"),
		OPT_BOOLEAN('w', "wakeups", &o->wakeups, "show wakeup events"),
		OPT_BOOLEAN('n', "next", &o->next, "show the next task"),
		OPT_BOOLEAN('M', "migrations", &o->migrations,
			    "show migration events"),
		OPT_BOOLEAN('V', "cpu-visual", &o->cpu_visual,
			    "add a CPU visual column"),
		OPT_BOOLEAN('I', "idle-hist", &o->idle_hist,
			    "show idle events only"),
		{ .type = OPTION_CALLBACK, .long_name = "tod", .value = &o->tod,
		  .argh = "start", .help = TOD_OPTION_HELP,
		  .callback = tod_option, .optional_arg = true },
		OPT_STRING(0, "time", &cmd.time, "start,stop",
			   "only this time window (seconds)"),
		OPT_BOOLEAN(0, "state", &o->state,
			    "show the task state at switch-out"),
		OPT_STRING('p', "pid", &o->pids, "pid[,pid...]",
			   "only these process ids"),
		OPT_STRING('t', "tid", &o->tids, "tid[,tid...]",
			   "only these thread ids"),
		OPT_STRING('C', "cpu", &o->cpus, "cpu",
			   "only these CPUs (e.g. 0,2-3)"),
		OPT_END()
	};

	symbol_conf__options(symbol_opts);
	callchain_frames__options(&cmd.frames, frames_opts);
	argc = parse_options(argc - 1, argv + 1, options, timehist_usage, 0);
	if (argc)
		usage_with_options_msg(timehist_usage, options,
				       "unexpected argument '%s'", argv[1]);
	timehist_check(&cmd, options);
	return timehist_open_run(&cmd);
}

static const struct subcommand sched_subcommands[] = {
	{ "record", sched_record },
	{ "timehist", sched_timehist },
	{ "daemon", sched_daemon },
};

int cmd_sched(int argc, const char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h")) {
		fprintf(stderr, "\n Usage: %s\n   or: %s\n   or: %s\n\n",
			sched_usage[0], sched_usage[1], sched_usage[2]);
		return 129;
	}
	return subcommand__run("sched", sched_subcommands,
			       ARRAY_SIZE(sched_subcommands), argc - 1, argv + 1,
			       NULL);
}
