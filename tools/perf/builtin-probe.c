// SPDX-License-Identifier: GPL-2.0
/*
 * perf probe: add, list and remove dynamic probes (uprobes in an object
 * given with -x, kprobes in the kernel otherwise).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/parse-options.h"
#include "util/probe.h"
#include "util/strvec.h"

static const char * const probe_usage[] = {
	"perf probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
	"perf probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
	"perf probe [<options>] --del '[GROUP:]EVENT' ...",
	"perf probe --list [GROUP:]EVENT ...",
	"perf probe [<options>] --funcs [FILTER]",
	"perf probe [<options>] --vars FUNC",
	"perf probe [<options>] --line FUNC",
	NULL
};

struct probe_cmd {
	struct strvec adds;
	struct strvec dels;
	bool list;
	const char *list_glob;
	bool funcs;
	const char *funcs_filter;
};

static int opt_add(const struct option *opt, const char *arg, int unset)
{
	strvec__push(&((struct probe_cmd *)opt->value)->adds, arg);
	return 0;
}

static int opt_del(const struct option *opt, const char *arg, int unset)
{
	strvec__push(&((struct probe_cmd *)opt->value)->dels, arg);
	return 0;
}

static int opt_list(const struct option *opt, const char *arg, int unset)
{
	struct probe_cmd *c = opt->value;

	c->list = true;
	c->list_glob = arg;
	return 0;
}

static int opt_funcs(const struct option *opt, const char *arg, int unset)
{
	struct probe_cmd *c = opt->value;

	c->funcs = true;
	c->funcs_filter = arg;
	return 0;
}

/* The words left after the options form one more probe definition. */
static void add_rest(struct probe_cmd *c, int argc, const char **argv)
{
	size_t len = 1;
	char *spec;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	spec = calloc(1, len);
	if (!spec)
		return;
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(spec, " ");
		strcat(spec, argv[i]);
	}
	strvec__push(&c->adds, spec);
	free(spec);
}

static int run_adds(const struct probe_opts *o, struct probe_cmd *c)
{
	struct probe_spec *specs = calloc(c->adds.nr, sizeof(*specs));
	int i, n = 0, err = 1;

	if (!specs)
		return 1;
	for (; n < (int)c->adds.nr; n++)
		if (probe_spec__parse(&specs[n], c->adds.v[n]))
			goto out;
	err = probe__add(o, specs, n);
out:
	for (i = 0; i < n; i++)
		probe_spec__exit(&specs[i]);
	free(specs);
	return err;
}

static int run_dels(const struct probe_opts *o, struct probe_cmd *c)
{
	size_t i;
	int err = 0;

	for (i = 0; i < c->dels.nr; i++)
		err |= probe__del(o, c->dels.v[i]);
	return err;
}

int cmd_probe(int argc, const char **argv)
{
	struct probe_opts o = { 0 };
	struct probe_cmd c = { 0 };
	const char *vars = NULL, *lines = NULL, *target_ns = NULL;
	char ns_target[PATH_MAX];
	const struct option options[] = {
		OPT_CALLBACK('a', "add", &c, "PROBEDEF",
			     "probe definition: [EVENT=]FUNC[@[@]VER][+OFF|%return] [ARG ...]",
			     opt_add),
		OPT_CALLBACK('d', "del", &c, "[GROUP:]EVENT",
			     "delete the probe events matching the glob",
			     opt_del),
		{ .type = OPTION_CALLBACK, .short_name = 'l', .long_name = "list",
		  .value = &c, .argh = "[GROUP:]EVENT", .optional_arg = true,
		  .optional_next = true, .help = "list the probe events",
		  .callback = opt_list },
		{ .type = OPTION_CALLBACK, .short_name = 'F', .long_name = "funcs",
		  .value = &c, .argh = "FILTER", .optional_arg = true,
		  .optional_next = true,
		  .help = "list the functions that can be probed (glob filter)",
		  .callback = opt_funcs },
		OPT_STRING('V', "vars", &vars, "FUNC",
			   "list the variables a probe on FUNC can fetch"),
		OPT_STRING('L', "line", &lines, "FUNC",
			   "show the source lines of FUNC"),
		OPT_STRING('x', "exec", &o.target, "BINARY",
			   "an executable or shared library: user space probes"),
		OPT_STRING('m', "module", &o.module, "MODULE",
			   "a kernel module the probed function is in"),
		OPT_BOOLEAN('n', "dry-run", &o.dry_run,
			    "print what would be written to tracefs, change nothing"),
		OPT_BOOLEAN('f', "force", &o.force,
			    "add a probe whose event exists, with a new name"),
		OPT_STRING(0, "target-ns", &target_ns, "PID",
			   "-x names a file in the mount namespace of process PID"),
		OPT_BOOLEAN('q', "quiet", &o.quiet, "print errors only"),
		OPT_END()
	};
	int modes, err = 0;

	argc = parse_options(argc - 1, argv + 1, options, probe_usage, 0);
	if (argc)
		add_rest(&c, argc, argv + 1);
	if (o.target && o.module)
		usage_with_options_msg(probe_usage, options,
				       "-x and -m do not go together");
	if (target_ns && !o.target)
		usage_with_options_msg(probe_usage, options,
				       "--target-ns goes with -x");
	if (target_ns) {
		if (probe__target_in_ns(target_ns, o.target, ns_target,
					sizeof(ns_target)))
			return 1;
		o.target = ns_target;
	}
	modes = !!c.adds.nr + !!c.dels.nr + c.list + c.funcs + !!vars + !!lines;
	if (modes == 0)
		usage_with_options(probe_usage, options);
	if (modes > 1)
		usage_with_options_msg(probe_usage, options,
				       "give one of --add, --del, --list, --funcs, --vars, --line");
	if (c.adds.nr)
		err = run_adds(&o, &c);
	else if (c.dels.nr)
		err = run_dels(&o, &c);
	else if (c.list)
		err = probe__list(&o, c.list_glob);
	else if (c.funcs)
		err = probe__funcs(&o, c.funcs_filter);
	else if (vars)
		err = probe__vars(&o, vars);
	else
		err = probe__lines(&o, lines);
	strvec__clear(&c.adds);
	strvec__clear(&c.dels);
	return err ? 1 : 0;
}
