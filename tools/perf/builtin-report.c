// SPDX-License-Identifier: GPL-2.0
/*
 * perf report: read perf.data and show where the samples fell.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "ui/annotate-browser.h"
#include "ui/browser.h"
#include "ui/hists-browser.h"
#include "util/data.h"
#include "util/dump.h"
#include "util/parse-options.h"
#include "util/report.h"
#include "util/symbol.h"

struct report_cmd {
	struct report r;
	const char *input;
	const char *sort;
	const char *fields;
	bool dump_raw;
	struct tod_choice tod;		/* -D: --tod[=start], --no-tod */
	bool header;
	bool header_only;
	int children;			/* TRISTATE_UNSET: by the file */
	bool inverted;
	bool stdio;
	int tui;			/* TRISTATE_UNSET: by the terminal */
	const char *callchain;
	const char *time;
	struct callchain_frames_opts frames;
	const char *percent_limit;
	const char *percentage;
	int verbose;
};

static const char * const report_usage[] = {
	"perf report [<options>]",
	NULL
};

/* -g VALUE, or -g alone: Linux perf's default display, callers first. */
static int report_callgraph_option(const struct option *opt, const char *arg,
				   int unset)
{
	*(const char **)opt->value = unset ? "none" :
				     arg ? arg : "graph,0.5,caller";
	return 0;
}

static int report_cmd_options(struct report_cmd *cmd,
			      const struct option *options)
{
	struct report *r = &cmd->r;
	const char *msg;

	if (cmd->fields && cmd->sort)
		usage_with_options_msg(report_usage, options,
				       "-F names the columns and the keys: not with -s");
	if (cmd->fields && hist_fields__parse(cmd->fields, &r->cfg))
		usage_with_options_msg(report_usage, options,
				       "bad field in '%s' (use overhead, sample, period, %s)",
				       cmd->fields, sort_keys__names());
	/*
	 * -F shows self overhead; with call chains the callers still get
	 * entries of their own (0.00%), as Linux perf accumulates them.
	 */
	if (cmd->fields)
		;
	else if (sort_keys__parse(cmd->sort ? cmd->sort : "comm,dso,sym",
				  &r->cfg))
		usage_with_options_msg(report_usage, options,
				       "unknown sort key in '%s' (use %s)",
				       cmd->sort, sort_keys__names());
	r->cfg.graph_skip_first = cmd->sort && !cmd->fields &&
				  !strncmp(cmd->sort, "sym", 3);
	/* As Linux perf: a parent pattern adds its column. */
	if (r->parent_pattern && sort_keys__add(&r->cfg, SORT_PARENT))
		usage_with_options_msg(report_usage, options,
				       "no room for the parent key: at most %d keys",
				       SORT_MAX_KEYS);
	if (r->group && (cmd->children == 1 || cmd->fields))
		usage_with_options_msg(report_usage, options,
				       "--group shows self overhead: not with --children or -F");
	if (r->group)
		cmd->children = 0;
	r->children_set = cmd->children != TRISTATE_UNSET;
	r->cfg.children = cmd->children == 1;
	r->cfg.graph_min_pct = 0.5;
	if (cmd->callchain && report__parse_callchain(cmd->callchain, r))
		usage_with_options_msg(report_usage, options,
				       "bad call graph '%s' (e.g. graph,0.5,caller or none)",
				       cmd->callchain);
	if (cmd->inverted)
		report__set_order(r, true);
	if (cmd->time && report__parse_time(cmd->time, &r->filter))
		usage_with_options_msg(report_usage, options,
				       "bad --time '%s' (seconds: start,stop)",
				       cmd->time);
	if (cmd->percentage && strcmp(cmd->percentage, "absolute")) {
		if (strcmp(cmd->percentage, "relative"))
			usage_with_options_msg(report_usage, options,
					       "--percentage takes relative or absolute");
		r->cfg.relative = true;
	}
	if (cmd->percent_limit &&
	    hist_percent_limit__parse(cmd->percent_limit, &r->cfg))
		usage_with_options_msg(report_usage, options,
				       "bad --percent-limit '%s'",
				       cmd->percent_limit);
	msg = callchain_frames__from_options(&cmd->frames, &r->frames);
	if (msg)
		usage_with_options_msg(report_usage, options, "%s", msg);
	return 0;
}

/*
 * The browser on a terminal, as Linux perf chooses it: stdout and stdin
 * a terminal that TERM names (--tui: whatever TERM says), and nothing
 * asked that only text shows (--stdio, headers, dumps, --group).
 */
static bool report_use_tui(const struct report_cmd *cmd)
{
	return ui_browser__wanted(cmd->stdio || cmd->tui == 0 || cmd->header ||
				  cmd->header_only || cmd->dump_raw ||
				  cmd->r.group);
}

struct report_annotate {
	struct report *r;
	struct perf_session *s;
	struct annotate_opts opts;
};

/* 'a' on an entry: its symbol's own samples, instruction by instruction. */
static int report_annotate_entry(void *arg, struct hists *h,
				 const struct hist_entry *he)
{
	struct report_annotate *ra = arg;
	const struct annotated_sym *as = NULL;
	int i = h - ra->r->hists;	/* the event's index */

	if (he->frame.sym)
		as = annotations__find(ra->r->annotations[i], he->frame.dso,
				       he->frame.sym);
	if (!as) {
		const char *lines[1] = {
			"No sample fell in it: its share is that of what it called.",
		};

		ui_browser__popup(he->frame.sym_name ? he->frame.sym_name : "?",
				  lines, ARRAY_SIZE(lines));
		return 0;
	}
	annotate_browser__run(as, ra->s->attrs[i].name, &ra->opts);
	return 0;
}

/* The browser over every event's histogram (those with samples). */
static int report_browse(struct report *r, struct perf_session *s)
{
	struct report_annotate ra = { .r = r, .s = s, .opts.source = true };
	struct hists_browser_args args = {
		.annotate = r->annotations ? report_annotate_entry : NULL,
		.annotate_arg = &ra,
	};
	int i, err;

	args.events = calloc(r->nr_hists ? r->nr_hists : 1,
			     sizeof(*args.events));
	if (!args.events)
		return -ENOMEM;
	for (i = 0; i < r->nr_hists; i++) {
		if (!r->hists[i].nr_samples && r->nr_hists > 1)
			continue;
		args.events[args.nr_events].hists = &r->hists[i];
		args.events[args.nr_events++].name = s->attrs[i].name;
	}
	err = hists_browser__run(&args) ? -ENOMEM : 0;
	free(args.events);
	return err;
}

/* The histograms, then the browser; what went wrong said after it. */
static int report_tui(struct report_cmd *cmd, struct perf_session *s)
{
	int err, browse_err;

	cmd->r.progress.show = ui_browser__progress;
	cmd->r.annotate = true;		/* for 'a' */
	err = report__process(&cmd->r, s);
	if (err < 0) {
		ui_browser__exit();
		return err;
	}
	browse_err = report_browse(&cmd->r, s);
	ui_browser__exit();
	return browse_err ? browse_err : err;
}

/* Header, raw dump or report, on an open session. */
static int report_cmd_session(struct report_cmd *cmd, struct perf_session *s)
{
	int err;

	if (cmd->header || cmd->header_only) {
		perf_session__fprintf_header(s, stdout, true);
		if (cmd->header_only)
			return 0;
	}
	if (cmd->dump_raw)
		err = perf_session__dump_tod(s, stdout, &cmd->tod,
					     "perf report");
	else if (report_use_tui(cmd))
		err = report_tui(cmd, s);
	else
		err = report__run(&cmd->r, s, stdout);
	if (err == -EINVAL && !perf_session__error(s)[0])
		return 1;	/* no time-of-day reference: already said */
	if (err == PERF_SESSION_DATA_ERROR) {
		fprintf(stderr, "Warning: %s\nThe report shows the records before that point.\n",
			perf_session__error(s));
		return 0;
	}
	if (err < 0) {
		fprintf(stderr, "perf report: %s: %s\n", s->name,
			perf_session__error(s)[0] ? perf_session__error(s) :
			strerror(-err));
		return 1;
	}
	return 0;
}

int cmd_report(int argc, const char **argv)
{
	struct report_cmd cmd = { .input = "perf.data", .children = TRISTATE_UNSET,
				  .tui = TRISTATE_UNSET };
	struct report_filter *f = &cmd.r.filter;
	struct option frames_opts[CALLCHAIN_FRAMES_OPTIONS_SIZE];
	struct option filter_opts[REPORT_FILTER_OPTIONS_SIZE];
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "input file name ('-' for standard input)"),
		OPT_BOOLEAN(0, "stdio", &cmd.stdio, "use the stdio interface"),
		OPT_TRISTATE(0, "tui", &cmd.tui,
			     "use the terminal browser (the default on a terminal; --no-tui: text)"),
		OPT_STRING('s', "sort", &cmd.sort, "key[,key2...]",
			   "sort by keys: comm, pid, dso, sym, cpu, socket, dso_size, parent, trace"),
		OPT_STRING('F', "fields", &cmd.fields, "field[,field...]",
			   "the columns, in order: overhead, sample, period and sort keys"),
		OPT_STRING('p', "parent", &cmd.r.parent_pattern, "regex",
			   "the parent: the first caller matching this (adds the parent key)"),
		OPT_BOOLEAN(0, "group", &cmd.r.group,
			    "the events of a group ({a,b}) side by side"),
		OPT_BOOLEAN('n', "show-nr-samples", &cmd.r.cfg.show_nr_samples,
			    "show a column with the number of samples"),
		OPT_TRISTATE(0, "children", &cmd.children,
			     "accumulate callers' overhead (default with call chains; --no-children: self only)"),
		{ .type = OPTION_CALLBACK, .short_name = 'g',
		  .long_name = "call-graph", .value = &cmd.callchain,
		  .argh = "graph|folded,min%,caller|callee",
		  .help = "call graph display, or 'none' (alone: graph,0.5,caller)",
		  .callback = report_callgraph_option,
		  .optional_arg = true, .optional_next = true },
		OPT_BOOLEAN('G', "inverted", &cmd.inverted,
			    "caller-based call graph"),
		OPT_TABLE(frames_opts),
		OPT_INTEGER(0, "max-stack", &cmd.r.max_stack, "n",
			    "use at most n frames of each call chain"),
		OPT_STRING(0, "percent-limit", &cmd.percent_limit, "percent",
			   "hide entries below this overhead"),
		OPT_STRING(0, "percentage", &cmd.percentage, "relative|absolute",
			   "with filters: percentages of what is shown, or of all"),
		OPT_STRING(0, "time", &cmd.time, "start,stop",
			   "only samples in this time window (seconds)"),
		OPT_TABLE(filter_opts),
		OPT_BOOLEAN(0, "header", &cmd.header,
			    "show the file header, then the report"),
		OPT_BOOLEAN(0, "header-only", &cmd.header_only,
			    "show only the file header"),
		{ .type = OPTION_CALLBACK, .long_name = "tod", .value = &cmd.tod,
		  .argh = "start", .help = "with -D: " TOD_OPTION_HELP,
		  .callback = tod_option, .optional_arg = true },
		OPT_BOOLEAN('D', "dump-raw-trace", &cmd.dump_raw,
			    "dump every record with its offset and fields"),
		OPT_TABLE(symbol_opts),
		OPT_INCR('v', "verbose", &cmd.verbose, "say more"),
		OPT_END()
	};
	struct perf_session s;
	int err;

	callchain_frames__options(&cmd.frames, frames_opts);
	report_filter__options(f, filter_opts);
	symbol_conf__options(symbol_opts);
	argc = parse_options(argc - 1, argv + 1, options, report_usage, 0);
	if (argc)
		usage_with_options_msg(report_usage, options,
				       "unexpected argument '%s'", argv[1]);
	report_cmd_options(&cmd, options);
	err = perf_session__open_report(&s, cmd.input, "perf report");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	err = report_cmd_session(&cmd, &s);
	report__exit(&cmd.r);
	perf_session__close_report(&s, "perf report");
	return err;
}
