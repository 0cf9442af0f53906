// SPDX-License-Identifier: GPL-2.0
/*
 * perf diff: compare the profiles of two recordings.
 */
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "util/data.h"
#include "util/diff.h"
#include "util/parse-options.h"
#include "util/report.h"
#include "util/symbol.h"

static const char * const diff_usage[] = {
	"perf diff [<options>] [old_file] [new_file]",
	NULL
};

struct diff_file {
	struct report r;
	struct perf_session s;
	bool open;
};

/* The histograms of one file: self overhead, no call graphs. */
static int diff_file__load(struct diff_file *f, const char *path,
			   const struct report *like)
{
	int err;

	f->r.cfg = like->cfg;
	f->r.filter = like->filter;
	f->r.callchain_set = true;
	f->r.children_set = true;
	f->r.cfg.callchain = false;
	f->r.cfg.children = false;
	err = perf_session__open_report(&f->s, path, "perf diff");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : -1;
	f->open = true;
	err = report__process(&f->r, &f->s);
	if (err < 0) {
		fprintf(stderr, "perf diff: %s: %s\n", path,
			perf_session__error(&f->s)[0] ?
			perf_session__error(&f->s) : strerror(-err));
		return -1;
	}
	return 0;
}

static void diff_file__close(struct diff_file *f)
{
	report__exit(&f->r);
	if (f->open)
		perf_session__close_report(&f->s, "perf diff");
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_file files[2] = { 0 };
	struct report like = { 0 };
	const char *sort = "dso,sym", *compute = "delta-abs";
	const char *percentage = NULL, *paths[2];
	bool quiet = false, force = false;
	struct option symbol_opts[SYMBOL_PATHS_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('c', "compute", &compute, "delta-abs",
			   "what to compute (delta-abs, delta)"),
		OPT_STRING('s', "sort", &sort, "key[,key2]",
			   "pair entries by these keys (default dso,sym)"),
		OPT_STRING('C', "comms", &like.filter.comms, "comm[,comm...]",
			   "only these command names"),
		OPT_STRING('d', "dsos", &like.filter.dsos, "dso[,dso...]",
			   "only these shared objects"),
		OPT_STRING(0, "pid", &like.filter.pids, "pid[,pid...]",
			   "only these process ids"),
		OPT_STRING(0, "tid", &like.filter.tids, "tid[,tid...]",
			   "only these thread ids"),
		OPT_STRING(0, "percentage", &percentage, "relative|absolute",
			   "with filters: shares of what is shown, or of all"),
		OPT_TABLE(symbol_opts),
		OPT_BOOLEAN('q', "quiet", &quiet, "no warnings"),
		OPT_BOOLEAN('f', "force", &force,
			    "accepted for Linux perf's scripts"),
		OPT_END()
	};
	int err = 0, i;

	symbol_conf__options(symbol_opts);
	argc = parse_options(argc - 1, argv + 1, options, diff_usage, 0);
	if (argc > 2)
		usage_with_options_msg(diff_usage, options,
				       "at most two files: old and new");
	if (strcmp(compute, "delta-abs") && strcmp(compute, "delta"))
		usage_with_options_msg(diff_usage, options,
				       "-c %s: only delta-abs and delta are computed", compute);
	if (sort_keys__parse(sort, &like.cfg) || like.cfg.nr_keys > 2)
		usage_with_options_msg(diff_usage, options,
				       "-s '%s': one or two of %s", sort,
				       sort_keys__names());
	if (percentage && strcmp(percentage, "absolute")) {
		if (strcmp(percentage, "relative"))
			usage_with_options_msg(diff_usage, options,
					       "--percentage takes relative or absolute");
		like.cfg.relative = true;
	}
	/*
	 * As Linux perf: perf.data.old against perf.data by default, and
	 * against the one file named.
	 */
	paths[0] = argc > 1 ? argv[1] : "perf.data.old";
	paths[1] = argc > 1 ? argv[2] : argc ? argv[1] : "perf.data";
	for (i = 0; i < 2 && !err; i++)
		err = diff_file__load(&files[i], paths[i], &like);
	if (!err && files[0].open && files[1].open)
		err = diff__fprintf(&files[0].r, &files[0].s, &files[1].r,
				    &files[1].s, stdout);
	for (i = 0; i < 2; i++)
		diff_file__close(&files[i]);
	return err ? 1 : 0;
}
