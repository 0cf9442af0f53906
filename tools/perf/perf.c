// SPDX-License-Identifier: GPL-2.0
/*
 * perf: the command dispatcher.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/backend.h>
#include <perf/types.h>
#include "builtin.h"
#include "util/buildid-cache.h"
#include "util/help.h"
#include "util/parse-options.h"

#ifndef PERF_VERSION
#define PERF_VERSION "0.0"
#endif

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "help", cmd_help, "Show the manual of a command" },
	{ "list", cmd_list, "List the events that can be counted or sampled" },
	{ "record", cmd_record, "Sample a command, tasks or CPUs into perf.data" },
	{ "report", cmd_report, "Show where the samples of a perf.data fell" },
	{ "annotate", cmd_annotate, "Show the instructions of a symbol with their samples" },
	{ "script", cmd_script, "Print the samples of a perf.data, one line each" },
	{ "data", cmd_data, "Convert a perf.data into another format (JSON)" },
	{ "sched", cmd_sched, "Record and analyse scheduler events" },
	{ "trace", cmd_trace, "Trace the syscalls of a command, tasks or the system" },
	{ "stat", cmd_stat, "Count events while a command runs" },
	{ "test", cmd_test, "Run the self-tests, or a bundled workload (-w)" },
	{ "version", cmd_version, "Show the version" },
	{ "evlist", cmd_evlist, "List the events a perf.data recorded" },
	{ "buildid-list", cmd_buildid_list, "List the build ids a perf.data carries" },
	{ "buildid-cache", cmd_buildid_cache, "Manage the build-id cache (~/.debug)" },
	{ "diff", cmd_diff, "Compare the profiles of two perf.data files" },
	{ "top", cmd_top, "A live profile of the system, tasks or CPUs" },
	{ "probe", cmd_probe, "Add, list and remove dynamic probes (uprobes, kprobes)" },
};

static const char perf_usage[] =
	"usage: perf [--version] [--help] COMMAND [ARGS]";

static void list_commands(FILE *out)
{
	size_t i;

	fprintf(out, "\n %s\n\n The commands are:\n", perf_usage);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "   %-12s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\n See 'perf help COMMAND' for more on a command.\n\n");
}

/*
 * What this binary was built with, in the lines of Linux perf's
 * "version --build-options": a name, on or OFF, and the define Linux
 * perf names it by, so that scripts that grep those lines work.
 */
struct build_option {
	const char *name;
	bool on;
	const char *define;
};

static const struct build_option build_options[] = {
	{ "dwarf", false, "HAVE_DWARF_SUPPORT" },
	{ "syscall_table", true, "HAVE_SYSCALL_TABLE_SUPPORT" },
	{ "libelf", true, "HAVE_LIBELF_SUPPORT" },
	{ "libslang", false, "HAVE_SLANG_SUPPORT" },
	{ "libunwind", false, "HAVE_LIBUNWIND_SUPPORT" },
	{ "libdw-dwarf-unwind", false, "HAVE_DWARF_SUPPORT" },
	{ "zstd", true, "HAVE_ZSTD_SUPPORT" },
	{ "libtraceevent", true, "HAVE_LIBTRACEEVENT" },
#ifdef NO_PERF_TESTS
	{ "perf-test", false, "NO_PERF_TESTS" },
#else
	{ "perf-test", true, "NO_PERF_TESTS" },
#endif
#ifdef __SANITIZE_ADDRESS__
	{ "asan-ubsan", true, "SANITIZE" },
#else
	{ "asan-ubsan", false, "SANITIZE" },
#endif
};

int cmd_version(int argc, const char **argv)
{
	size_t i;

	printf("perf version %s\n", PERF_VERSION);
	if (argc < 2)
		return 0;
	if (strcmp(argv[1], "--build-options")) {
		fprintf(stderr, "perf version: unknown option '%s' (--build-options)\n",
			argv[1]);
		return 129;
	}
	for (i = 0; i < ARRAY_SIZE(build_options); i++)
		printf("%22s: [ %s ]  # %s\n", build_options[i].name,
		       build_options[i].on ? "on " : "OFF",
		       build_options[i].define);
	return 0;
}

int cmd_help(int argc, const char **argv)
{
	const char *text;

	if (argc < 2) {
		list_commands(stdout);
		return 0;
	}
	text = help__doc_text(argv[1]);
	if (!text) {
		fprintf(stderr, "perf help: no manual for '%s'; see 'perf help' for the commands\n",
			argv[1]);
		return 1;
	}
	fputs(text, stdout);
	return 0;
}

static const struct cmd_struct *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* Like git: suggest the commands closest to a mistyped one. */
static void suggest(const char *name)
{
	int best = 1 << 20, d;
	size_t i;

	fprintf(stderr, "perf: '%s' is not a perf-command. See 'perf --help'.\n",
		name);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		d = help__levenshtein(name, commands[i].name);
		if (d < best)
			best = d;
	}
	if (best > 3)
		return;
	fprintf(stderr, "\nDid you mean this?\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (help__levenshtein(name, commands[i].name) == best)
			fprintf(stderr, "\t%s\n", commands[i].name);
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;

	if (perf_backend_init())
		fprintf(stderr, "perf: ignoring %s='%s' (use 'event' or 'counter')\n",
			PERF_BACKEND_ENV, getenv(PERF_BACKEND_ENV));
	/* As in Linux perf: where the build-id cache is, for this run. */
	if (argc > 1 && !strcmp(argv[1], "--buildid-dir")) {
		if (argc < 3) {
			fprintf(stderr, "perf: --buildid-dir needs a directory\n");
			return 1;
		}
		buildid_cache__set_dir(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		list_commands(stdout);
		return argc < 2 ? 1 : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v"))
		return cmd_version(argc - 1, argv + 1);
	/* As Linux perf: -vv is version --build-options. */
	if (!strcmp(argv[1], "-vv")) {
		const char *vargv[] = { "version", "--build-options", NULL };

		return cmd_version(2, vargv);
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		suggest(argv[1]);
		return 1;
	}
	/*
	 * "perf CMD --help" shows the manual, "-h" the short usage; so does
	 * "perf CMD SUBCMD --help", through the option parser.
	 */
	parse_options__set_manual(help__doc_text(argv[1]));
	if (argc == 3 && !strcmp(argv[2], "--help") && help__doc_text(argv[1])) {
		const char *hargv[] = { "help", argv[1], NULL };

		return cmd_help(2, hargv);
	}
	return cmd->fn(argc - 1, argv + 1);
}
