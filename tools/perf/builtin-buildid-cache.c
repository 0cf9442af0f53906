// SPDX-License-Identifier: GPL-2.0
/*
 * perf buildid-cache: add binaries to the build-id cache, remove them,
 * list them, and find which binaries of a perf.data it lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/buildid-cache.h"
#include "util/data.h"
#include "util/parse-options.h"

static const char * const buildid_cache_usage[] = {
	"perf buildid-cache [<options>]",
	NULL
};

static int verbose;

static const char *add_error(int err)
{
	switch (err) {
	case -EINVAL:
		return "not an ELF object";
	case -ENODATA:
		return "it has no build id (link it with --build-id)";
	default:
		return strerror(-err);
	}
}

typedef int (*file_op)(const char *path, struct build_id *bid);

struct file_cmd {
	file_op op;
	const char *verb;	/* for -v: "Adding" */
	const char *what;	/* for errors: "add" */
	bool absent_ok;		/* an id not cached is no error */
};

static const struct file_cmd add_cmd = {
	.op = buildid_cache__add, .verb = "Adding", .what = "add",
};

static const struct file_cmd remove_cmd = {
	.op = buildid_cache__remove, .verb = "Removing", .what = "remove",
	.absent_ok = true,
};

static const struct file_cmd update_cmd = {
	.op = buildid_cache__update, .verb = "Updating", .what = "update",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/*
 * Calls @fn for each name of the comma-separated @list, as Linux perf
 * does: in sorted order, each once.  Returns the number of failures.
 */
typedef int (*name_fn)(const char *name, const void *arg);

static int run_names(const char *list, name_fn fn, const void *arg)
{
	char *copy = strdup(list), *p, *tok;
	const char **names;
	size_t nr = 0, i;
	int failed = 0;

	names = calloc(strlen(list) / 2 + 2, sizeof(*names));
	if (!copy || !names) {
		fprintf(stderr, "perf buildid-cache: out of memory\n");
		free(copy);
		free(names);
		return 1;
	}
	for (p = copy; (tok = strsep(&p, ",")) != NULL;)
		if (*tok)
			names[nr++] = tok;
	qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			failed += fn(names[i], arg) != 0;
	free(names);
	free(copy);
	return failed;
}

static int file_one(const char *path, const void *arg)
{
	const struct file_cmd *cmd = arg;
	char sbid[SBUILD_ID_SIZE] = "";
	struct build_id bid = { .size = 0 };
	int err = cmd->op(path, &bid);

	build_id__snprintf(&bid, sbid, sizeof(sbid));
	if (verbose && *sbid)
		fprintf(stderr, "%s %s %s: %s\n", cmd->verb, sbid, path,
			err ? "FAIL" : "Ok");
	if (err == -ENOENT && *sbid && cmd->absent_ok) {
		if (verbose)
			fprintf(stderr, "%s wasn't in the cache\n", path);
		return 0;
	}
	if (err)
		fprintf(stderr, "perf buildid-cache: cannot %s %s: %s\n",
			cmd->what, path, *sbid ? strerror(-err) : add_error(err));
	return err;
}

struct purge {
	const char *path;
	int failed;
};

static int remove_id(const char *sbid, void *arg)
{
	struct purge *p = arg;
	int err = buildid_cache__remove_id(sbid);

	if (verbose)
		fprintf(stderr, "Removing %s %s: %s\n", sbid, p->path,
			err ? "FAIL" : "Ok");
	/* Go on with the others; the exit status says one failed. */
	if (err && err != -ENOENT) {
		fprintf(stderr, "perf buildid-cache: cannot remove %s (%s): %s\n",
			sbid, p->path, strerror(-err));
		p->failed++;
	}
	return 0;
}

static int purge_one(const char *path, const void *arg)
{
	struct purge p = { .path = path };
	int err = buildid_cache__for_path(path, remove_id, &p);

	if (verbose)
		fprintf(stderr, "Purging %s: %s\n", path,
			err || p.failed ? "FAIL" : "Ok");
	if (err == -ENOENT) {
		if (verbose)
			fprintf(stderr, "%s wasn't in the cache\n", path);
		return 0;
	}
	if (err)
		fprintf(stderr, "perf buildid-cache: cannot purge %s: %s\n",
			path, strerror(-err));
	return err || p.failed;
}

static int purge_id(const char *sbid, void *arg)
{
	char name[4096] = "";
	int *failed = arg;
	int err;

	buildid_cache__origin(sbid, name, sizeof(name));
	err = buildid_cache__remove_id(sbid);
	if (verbose)
		fprintf(stderr, "Removing %s (%s): %s\n", name, sbid,
			err ? "FAIL" : "Ok");
	if (err) {
		fprintf(stderr, "perf buildid-cache: cannot remove %s (%s): %s\n",
			sbid, name, strerror(-err));
		(*failed)++;
	}
	return 0;
}

static int list_id(const char *sbid, void *arg)
{
	char name[4096] = "";

	buildid_cache__origin(sbid, name, sizeof(name));
	printf("%s %s\n", sbid, name);
	return 0;
}

static int cache_error(const char *what, int err)
{
	fprintf(stderr, "perf buildid-cache: cannot %s %s: %s\n", what,
		buildid_cache__dir(), strerror(-err));
	return 1;
}

/* The binaries @input recorded whose build ids the cache does not hold. */
static int print_missing(const char *input)
{
	struct perf_session s;
	char path[4096], sbid[SBUILD_ID_SIZE];
	u32 i;
	int err;

	/* Said here: the session's own hint is about perf report's -i. */
	if (strcmp(input, "-") && access(input, F_OK)) {
		fprintf(stderr, "perf buildid-cache: cannot open %s: %s\n",
			input, strerror(errno));
		return 1;
	}
	err = perf_session__open_report(&s, input, "perf buildid-cache");
	if (err)
		return err == PERF_SESSION_EMPTY ? 0 : 1;
	for (i = 0; i < s.info.nr_build_ids; i++) {
		const struct perf_build_id_entry *e = &s.info.build_ids[i];
		struct build_id bid = { .size = 0 };

		if (!e->filename || !e->size)
			continue;
		bid.size = e->size < BUILD_ID_MAX ? e->size : BUILD_ID_MAX;
		memcpy(bid.data, e->build_id, bid.size);
		build_id__snprintf(&bid, sbid, sizeof(sbid));
		err = buildid_cache__check(&bid, e->filename, path, sizeof(path));
		if (err == -ENOENT)
			printf("%-40s %s\n", sbid, e->filename);
		else if (err)
			fprintf(stderr,
				"Warning: %s in the build-id cache has not build id %s: remove it (-r or -p)\n",
				path, sbid);
	}
	perf_session__close(&s);
	return 0;
}

/* Options of Linux perf this one knows of but does not do. */
static int refuse(const struct option *opt, const char *arg, int unset)
{
	const char *why = "this perf does not download debug info";

	if (!strcmp(opt->long_name, "kcore"))
		why = "this perf keeps no copies of kcore";
	else if (!strcmp(opt->long_name, "target-ns"))
		why = "this perf does not enter other mount namespaces";
	fprintf(stderr, "perf buildid-cache: --%s is not supported: %s\n",
		opt->long_name, why);
	return PARSE_OPT_ERROR_SAID;
}

int cmd_buildid_cache(int argc, const char **argv)
{
	const char *add = NULL, *remove = NULL, *purge = NULL;
	const char *missing = NULL, *update = NULL;
	bool purge_all = false, list = false, force = false;
	const struct option options[] = {
		OPT_STRING('a', "add", &add, "file list", "file(s) to add"),
		OPT_CALLBACK('k', "kcore", NULL, "file",
			     "kcore file to add (not supported)", refuse),
		OPT_STRING('r', "remove", &remove, "file list",
			   "file(s) to remove"),
		OPT_STRING('p', "purge", &purge, "file list",
			   "file(s) to remove (remove old caches too)"),
		OPT_BOOLEAN('P', "purge-all", &purge_all,
			    "purge all cached files"),
		OPT_BOOLEAN('l', "list", &list, "list all cached files"),
		OPT_STRING('M', "missing", &missing, "file",
			   "to find missing build ids in the cache"),
		OPT_BOOLEAN('f', "force", &force,
			    "accepted for Linux perf's scripts"),
		OPT_STRING('u', "update", &update, "file list",
			   "file(s) to update"),
		{ .type = OPTION_CALLBACK, .long_name = "debuginfod",
		  .argh = "urls", .optional_arg = true,
		  .help = "debuginfod retrieval (not supported)",
		  .callback = refuse },
		OPT_CALLBACK(0, "target-ns", NULL, "n",
			     "target pid for namespace context (not supported)",
			     refuse),
		OPT_INCR('v', "verbose", &verbose, "be more verbose"),
		OPT_END()
	};
	bool other;
	int failed = 0, err;

	argc = parse_options(argc - 1, argv + 1, options, buildid_cache_usage,
			     0);
	other = add || remove || purge || missing || update || purge_all;
	if (argc)
		usage_with_options_msg(buildid_cache_usage, options,
				       "unexpected argument '%s'", argv[1]);
	if (!list && !other)
		usage_with_options(buildid_cache_usage, options);
	if (list && other)
		usage_with_options_msg(buildid_cache_usage, options,
				       "-l is exclusive");
	if (list) {
		err = buildid_cache__for_each(true, list_id, NULL);
		return err ? cache_error("read", err) : 0;
	}
	/* In Linux perf's order of the options. */
	if (add)
		failed += run_names(add, file_one, &add_cmd);
	if (remove)
		failed += run_names(remove, file_one, &remove_cmd);
	if (purge)
		failed += run_names(purge, purge_one, NULL);
	if (purge_all) {
		err = buildid_cache__for_each(false, purge_id, &failed);
		if (verbose)
			fprintf(stderr, "Purged all: %s\n", err ? "FAIL" : "Ok");
		if (err)
			failed += cache_error("read", err);
	}
	if (missing)
		failed += print_missing(missing);
	if (update)
		failed += run_names(update, file_one, &update_cmd);
	return failed ? 1 : 0;
}
