// SPDX-License-Identifier: GPL-2.0
/*
 * perf top: a live profile of the system, tasks or CPUs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/parse-options.h"
#include "util/strvec.h"
#include "util/target.h"
#include "util/top.h"

struct top_cmd {
	struct top t;
	struct strvec record;		/* perf record's arguments */
	const char *sort;
	const char *percent_limit;
	struct target target;		/* events unused: record's */
	bool stdio;
	bool tui;
	char target_desc[256];
};

static const char * const top_usage[] = {
	"perf top [<options>]",
	NULL
};

/* An option perf record takes as it is: "-e cycles", "-F 99", "-g". */
static int top_pass_option(const struct option *opt, const char *arg,
			   int unset)
{
	struct top_cmd *cmd = opt->value;

	if (unset)
		strvec__pushf(&cmd->record, "--no-%s", opt->long_name);
	else if (opt->short_name)
		strvec__pushf(&cmd->record, "-%c", opt->short_name);
	else
		strvec__pushf(&cmd->record, "--%s", opt->long_name);
	if (arg && !unset)
		strvec__push(&cmd->record, arg);
	return 0;
}

static void top_target_desc(struct top_cmd *cmd)
{
	const struct target *t = &cmd->target;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (t->pid_list)
		snprintf(cmd->target_desc, sizeof(cmd->target_desc),
			 "target_pid: %s", t->pid_list);
	else if (t->tid_list)
		snprintf(cmd->target_desc, sizeof(cmd->target_desc),
			 "target_tid: %s", t->tid_list);
	else if (t->cpu_list)
		snprintf(cmd->target_desc, sizeof(cmd->target_desc),
			 "all, CPU%s: %s", strpbrk(t->cpu_list, ",-") ? "s" : "",
			 t->cpu_list);
	else
		snprintf(cmd->target_desc, sizeof(cmd->target_desc),
			 "all, %ld CPU%s", cpus, cpus == 1 ? "" : "s");
	cmd->t.target_desc = cmd->target_desc;
}

/* perf record's target: ours, and without one the whole system. */
static void top_record_target(struct top_cmd *cmd)
{
	/* -C alone, not -a -C: the CPUs are the target, not a filter. */
	if (cmd->target.cpu_list)
		cmd->target.system_wide = false;
	target__default(&cmd->target, false);
	target__push_options(&cmd->target, &cmd->record);
}

static void top_check_options(struct top_cmd *cmd,
			      const struct option *options)
{
	struct report *r = &cmd->t.r;

	if (cmd->tui)
		usage_with_options_msg(top_usage, options,
				       "this perf top has no TUI yet: it shows its profile as --stdio does");
	if (!!cmd->target.pid_list + !!cmd->target.tid_list +
	    !!cmd->target.cpu_list > 1)
		usage_with_options_msg(top_usage, options,
				       "-p, -t and -C are exclusive");
	if (cmd->target.system_wide && target__has_tasks(&cmd->target))
		usage_with_options_msg(top_usage, options,
				       "-a watches every CPU: not with -p or -t");
	if (sort_keys__parse(cmd->sort ? cmd->sort : "dso,sym", &r->cfg))
		usage_with_options_msg(top_usage, options,
				       "unknown sort key in '%s' (use %s)",
				       cmd->sort, sort_keys__names());
	if (cmd->percent_limit &&
	    hist_percent_limit__parse(cmd->percent_limit, &r->cfg))
		usage_with_options_msg(top_usage, options,
				       "bad --percent-limit '%s'",
				       cmd->percent_limit);
	if (!cmd->t.delay_secs)
		usage_with_options_msg(top_usage, options,
				       "-d takes a delay of at least one second");
	/* The live rows show self overhead; call chains feed no graph. */
	r->children_set = true;
	r->callchain_set = true;
	r->cfg.graph_min_pct = 0.5;
}

int cmd_top(int argc, const char **argv)
{
	struct top_cmd cmd = {
		.t.delay_secs = 2,
		.record = STRVEC_INIT,
	};
	struct option target_opts[TARGET_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &cmd, "event",
			     "event to sample (perf list), as perf record takes it",
			     top_pass_option),
		OPT_CALLBACK('c', "count", &cmd, "n",
			     "a sample every n events", top_pass_option),
		OPT_CALLBACK('F', "freq", &cmd, "hz",
			     "samples per second", top_pass_option),
		OPT_CALLBACK('m', "mmap-pages", &cmd, "pages",
			     "ring buffer pages per CPU", top_pass_option),
		OPT_CALLBACK_NOARG('g', NULL, &cmd,
				   "record call chains", top_pass_option),
		OPT_CALLBACK(0, "call-graph", &cmd, "fp",
			     "how to record call chains", top_pass_option),
		OPT_TABLE(target_opts),
		OPT_UINTEGER('d', "delay", &cmd.t.delay_secs, "seconds",
			     "between refreshes (2)"),
		OPT_UINTEGER('E', "entries", &cmd.t.entries, "n",
			     "rows to show (as many as fit)"),
		OPT_STRING('s', "sort", &cmd.sort, "key[,key...]",
			   "sort keys, as perf report's (dso,sym)"),
		OPT_BOOLEAN('z', "zero", &cmd.t.zero,
			    "start afresh at each refresh instead of decaying"),
		OPT_BOOLEAN('K', "hide_kernel_symbols", &cmd.t.hide_kernel,
			    "leave kernel samples out"),
		OPT_BOOLEAN('U', "hide_user_symbols", &cmd.t.hide_user,
			    "leave user samples out"),
		OPT_BOOLEAN('n', "show-nr-samples", &cmd.t.r.cfg.show_nr_samples,
			    "show the number of samples"),
		OPT_STRING(0, "percent-limit", &cmd.percent_limit, "percent",
			   "hide entries under this overhead"),
		OPT_BOOLEAN(0, "stdio", &cmd.stdio, "text output (the default)"),
		OPT_BOOLEAN(0, "tui", &cmd.tui, "the TUI (not in this perf)"),
		OPT_END()
	};
	int ret;

	strvec__push(&cmd.record, "perf");
	strvec__push(&cmd.record, "record");
	strvec__push(&cmd.record, "-q");
	strvec__push(&cmd.record, "-o");
	strvec__push(&cmd.record, "-");
	target__options(&cmd.target, target_opts);
	argc = parse_options(argc - 1, argv + 1, options, top_usage, 0);
	if (argc)
		usage_with_options_msg(top_usage, options,
				       "perf top runs no command: use -p, -t or -C, or perf record");
	top_check_options(&cmd, options);
	top_record_target(&cmd);
	top_target_desc(&cmd);
	if (strvec__failed(&cmd.record)) {
		fprintf(stderr, "perf top: out of memory\n");
		strvec__clear(&cmd.record);
		return 1;
	}
	ret = top__run(&cmd.t, cmd.record.v);
	strvec__clear(&cmd.record);
	return ret;
}
