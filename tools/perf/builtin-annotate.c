// SPDX-License-Identifier: GPL-2.0
/*
 * perf annotate: the disassembly of the symbols samples fell in, with
 * the share of the samples each instruction took.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "ui/annotate-browser.h"
#include "ui/browser.h"
#include "util/annotate.h"
#include "util/data.h"
#include "util/parse-options.h"
#include "util/report.h"
#include "util/symbol.h"

static const char * const annotate_usage[] = {
	"perf annotate [<options>] [SYMBOL]",
	NULL
};

struct annotate_cmd {
	struct report r;
	struct annotate_opts opts;
	struct annotate_select sel;
	const char *input;
	bool stdio;
	int tui;		/* TRISTATE_UNSET: on a terminal */
	bool no_source;
};

/* The browser on a terminal that TERM names, unless --stdio. */
static bool annotate_use_tui(const struct annotate_cmd *cmd)
{
	return ui_browser__wanted(cmd->stdio || cmd->tui == 0);
}

/*
 * The symbols one at a time, hottest first: LEFT and RIGHT go to the
 * previous and the next one, q leaves.
 */
static int annotate_browse(struct annotate_cmd *cmd, struct perf_session *s)
{
	struct annotate_item *items;
	size_t nr, i = 0;
	int err = 0;

	items = annotate__select(&cmd->r, s, &cmd->sel, &nr);
	if (!items)
		return -ENOMEM;
	if (!nr) {
		annotate__say_none(&cmd->sel);
		free(items);
		return -ENOENT;
	}
	for (;;) {
		enum annotate_browser_exit how;

		how = annotate_browser__run(items[i].as, items[i].event,
					    &cmd->opts);
		if (how == ANNOTATE_BROWSER_ERROR)
			err = -ENOMEM;
		if (how == ANNOTATE_BROWSER_NEXT && i + 1 < nr)
			i++;
		else if (how == ANNOTATE_BROWSER_PREV && i > 0)
			i--;
		else if (how != ANNOTATE_BROWSER_NEXT &&
			 how != ANNOTATE_BROWSER_PREV)
			break;
	}
	ui_browser__exit();
	free(items);
	return err;
}

static int annotate_cmd_run(struct annotate_cmd *cmd)
{
	bool use_tui = annotate_use_tui(cmd);
	struct perf_session s;
	int err;

	err = perf_session__open_report(&s, cmd->input, "perf annotate");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	if (use_tui)
		cmd->r.progress.show = ui_browser__progress;
	err = report__process(&cmd->r, &s);
	if (use_tui && err < 0)
		ui_browser__exit();
	if (err == PERF_SESSION_DATA_ERROR) {
		fprintf(stderr, "Warning: %s\nThe annotations show the records before that point.\n",
			perf_session__error(&s));
		err = 0;
	}
	if (err < 0)
		fprintf(stderr, "perf annotate: %s: %s\n", s.name,
			perf_session__error(&s)[0] ? perf_session__error(&s) :
			strerror(-err));
	else if (use_tui)
		err = annotate_browse(cmd, &s);
	else
		err = annotate__fprintf_report(&cmd->r, &s, &cmd->opts,
					       &cmd->sel, stdout);
	report__exit(&cmd->r);
	perf_session__close_report(&s, "perf annotate");
	return err ? 1 : 0;
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate_cmd cmd = { .input = "perf.data", .tui = TRISTATE_UNSET };
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "input file name ('-' for standard input)"),
		OPT_BOOLEAN(0, "stdio", &cmd.stdio, "use the stdio interface"),
		OPT_TRISTATE(0, "tui", &cmd.tui,
			     "use the terminal browser (default on a terminal)"),
		OPT_STRING('s', "symbol", &cmd.sel.sym, "symbol",
			   "annotate only this symbol"),
		OPT_STRING('d', "dsos", &cmd.sel.dsos, "dso[,dso...]",
			   "only symbols of these objects"),
		OPT_BOOLEAN('n', "show-nr-samples", &cmd.sel.show_nr_samples,
			    "the number of samples, not percentages"),
		OPT_BOOLEAN(0, "no-source", &cmd.no_source,
			    "the instructions without the source lines"),
		OPT_STRING(0, "objdump", &cmd.opts.objdump, "path",
			   "the objdump to disassemble with"),
		OPT_STRING('M', "disassembler-style", &cmd.opts.disassembler_style,
			   "style", "objdump's -M, e.g. intel"),
		OPT_TABLE(symbol_opts),
		OPT_END()
	};

	symbol_conf__options(symbol_opts);
	argc = parse_options(argc - 1, argv + 1, options, annotate_usage, 0);
	if (argc > 1 || (argc == 1 && cmd.sel.sym))
		usage_with_options_msg(annotate_usage, options,
				       "one symbol at most: '%s'",
				       argv[argc]);
	if (argc == 1)
		cmd.sel.sym = argv[1];
	cmd.opts.source = !cmd.no_source;
	cmd.r.annotate = true;
	if (sort_keys__parse("dso,sym", &cmd.r.cfg) ||
	    report__parse_callchain("none", &cmd.r))
		return 1;
	return annotate_cmd_run(&cmd);
}
