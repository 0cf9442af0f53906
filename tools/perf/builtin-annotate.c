// SPDX-License-Identifier: GPL-2.0
/*
 * perf annotate: the disassembly of the symbols samples fell in, with
 * the share of the samples each instruction took.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
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
	bool no_source;
};

static int annotate_cmd_run(struct annotate_cmd *cmd)
{
	struct perf_session s;
	int err;

	err = perf_session__open_report(&s, cmd->input, "perf annotate");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	err = report__process(&cmd->r, &s);
	if (err == PERF_SESSION_DATA_ERROR) {
		fprintf(stderr, "Warning: %s\nThe annotations show the records before that point.\n",
			perf_session__error(&s));
		err = 0;
	}
	if (err < 0)
		fprintf(stderr, "perf annotate: %s: %s\n", s.name,
			perf_session__error(&s)[0] ? perf_session__error(&s) :
			strerror(-err));
	else
		err = annotate__fprintf_report(&cmd->r, &s, &cmd->opts,
					       &cmd->sel, stdout);
	report__exit(&cmd->r);
	perf_session__close_report(&s, "perf annotate");
	return err ? 1 : 0;
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate_cmd cmd = { .input = "perf.data" };
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "input file name ('-' for standard input)"),
		OPT_BOOLEAN(0, "stdio", &cmd.stdio, "use the stdio interface"),
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
