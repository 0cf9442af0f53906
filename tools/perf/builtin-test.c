// SPDX-License-Identifier: GPL-2.0
/*
 * perf test: run the self-tests (built-in unit tests and the shell tests
 * beside the binary), or one of the bundled workloads with -w.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "builtin.h"
#include "util/array.h"
#include "util/parse-options.h"

#ifdef NO_PERF_TESTS
int cmd_test(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "perf test: this perf was built without its test suite (NO_PERF_TESTS=1); rebuild without it to run tests or workloads\n");
	return 1;
}
#else
#include "tests/tests.h"

int test_skip(struct test_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->skip_reason, sizeof(ctx->skip_reason), fmt, ap);
	va_end(ap);
	return TEST_SKIP;
}

struct shell_test {
	char path[PATH_MAX];
	char desc[256];
};

struct test_totals {
	int passed;
	int failed;
	int skipped;
};

static char shell_dir[PATH_MAX];
static char perf_exe[PATH_MAX];

/* tests/shell beside the running binary, or $PERF_TEST_SHELL_DIR. */
static void find_shell_dir(void)
{
	const char *env = getenv("PERF_TEST_SHELL_DIR");
	ssize_t n = readlink("/proc/self/exe", perf_exe, sizeof(perf_exe) - 1);
	char *slash;

	if (n < 0)
		n = 0;
	perf_exe[n] = '\0';
	if (env) {
		snprintf(shell_dir, sizeof(shell_dir), "%s", env);
		return;
	}
	snprintf(shell_dir, sizeof(shell_dir), "%s", perf_exe);
	slash = strrchr(shell_dir, '/');
	if (slash)
		snprintf(slash, sizeof(shell_dir) - (slash - shell_dir),
			 "/tests/shell");
}

static int cmp_shell(const void *a, const void *b)
{
	return strcmp(((const struct shell_test *)a)->path,
		      ((const struct shell_test *)b)->path);
}

/* The description is the first "# " comment line after the #! line. */
static void read_shell_desc(struct shell_test *t)
{
	char line[512];
	FILE *f = fopen(t->path, "r");

	snprintf(t->desc, sizeof(t->desc), "%s", strrchr(t->path, '/') + 1);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "#!", 2))
			continue;
		if (!strncmp(line, "# ", 2)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(t->desc, sizeof(t->desc), "%s", line + 2);
		}
		break;
	}
	fclose(f);
}

static struct shell_test *load_shell_tests(int *nr)
{
	struct shell_test *tests = NULL;
	struct dirent *d;
	DIR *dir = opendir(shell_dir);
	u32 n = 0, alloc = 0;

	*nr = 0;
	if (!dir)
		return NULL;
	while ((d = readdir(dir)) != NULL) {
		size_t len = strlen(d->d_name);

		if (len < 4 || strcmp(d->d_name + len - 3, ".sh"))
			continue;
		if (array_reserve_one((void **)&tests, &alloc, n,
				      sizeof(*tests))) {
			fprintf(stderr, "perf test: out of memory after %u shell tests\n",
				n);
			break;
		}
		snprintf(tests[n].path, sizeof(tests[n].path), "%s/%s",
			 shell_dir, d->d_name);
		read_shell_desc(&tests[n]);
		n++;
	}
	closedir(dir);
	qsort(tests, n, sizeof(*tests), cmp_shell);
	*nr = n;
	return tests;
}

static void print_result(int num, const char *desc, int result,
			 const char *reason)
{
	printf("%3d: %-66s: ", num, desc);
	if (result == TEST_OK)
		printf("Ok\n");
	else if (result == TEST_SKIP)
		printf("Skip (%s)\n", reason && *reason ? reason : "no reason given");
	else
		printf("FAILED!\n");
	fflush(stdout);
}

static void count_result(struct test_totals *t, int result)
{
	if (result == TEST_OK)
		t->passed++;
	else if (result == TEST_SKIP)
		t->skipped++;
	else
		t->failed++;
}

/* Show what a failed test printed, when it was not shown already. */
static void dump_log(FILE *log)
{
	char line[1024];

	rewind(log);
	while (fgets(line, sizeof(line), log))
		fputs(line, stdout);
}

/*
 * Unit tests run in a child so that a crash is a failure, not an abort.
 * Their output, and what the code under test says on stderr, goes to a
 * log shown with -v or on failure.
 */
static int run_unit_test(const struct test_case *tc, int verbose,
			 char *reason, size_t reason_size)
{
	struct test_ctx ctx = { .verbose = verbose };
	FILE *log = tmpfile();
	int status, result = TEST_FAIL;
	pid_t pid;

	fflush(stdout);
	if (!log)
		return TEST_FAIL;
	pid = fork();
	if (pid == 0) {
		int ret;

		if (!verbose) {
			dup2(fileno(log), STDOUT_FILENO);
			dup2(fileno(log), STDERR_FILENO);
		}
		ret = tc->fn(&ctx);
		fflush(stdout);
		if (ret == TEST_SKIP) {
			fprintf(log, "%s\n", ctx.skip_reason);
			fflush(log);
		}
		_exit(ret == TEST_OK ? 0 : ret == TEST_SKIP ? 2 : 1);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			result = TEST_OK;
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
			result = TEST_SKIP;
		else if (WIFSIGNALED(status))
			printf("    killed by signal %d\n", WTERMSIG(status));
	}
	reason[0] = '\0';
	if (result == TEST_SKIP) {
		char line[1024] = "";

		rewind(log);
		while (fgets(line, sizeof(line), log))
			snprintf(reason, reason_size, "%.*s",
				 (int)strcspn(line, "\n"), line);
	} else if (result == TEST_FAIL && !verbose) {
		dump_log(log);
	}
	fclose(log);
	return result;
}

/*
 * Shell tests: exit 0 passes, 2 skips (the last output line says why),
 * anything else fails.  Output is shown with -v, or on failure.
 */
static int run_shell_test(const struct shell_test *t, int verbose,
			  char *reason, size_t reason_size)
{
	char cmd[PATH_MAX * 2 + 64], line[1024], *log = NULL;
	size_t log_len = 0;
	FILE *p;
	int status;

	reason[0] = '\0';
	setenv("PERF", perf_exe, 1);
	snprintf(cmd, sizeof(cmd), "sh '%s' 2>&1", t->path);
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return TEST_FAIL;
	while (fgets(line, sizeof(line), p)) {
		size_t len = strlen(line);
		char *tmp;

		if (verbose)
			fputs(line, stdout);
		tmp = realloc(log, log_len + len + 1);
		if (tmp) {
			log = tmp;
			memcpy(log + log_len, line, len + 1);
			log_len += len;
		}
		line[strcspn(line, "\n")] = '\0';
		if (*line)
			snprintf(reason, reason_size, "%s", line);
	}
	status = pclose(p);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		free(log);
		return TEST_OK;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		free(log);
		return TEST_SKIP;
	}
	if (!verbose && log)
		fputs(log, stdout);
	free(log);
	return TEST_FAIL;
}

/* A test is selected by number or by a substring of its name/desc. */
static bool selected(int argc, const char **argv, int num, const char *name,
		     const char *desc)
{
	int i;

	if (argc == 0)
		return true;
	for (i = 0; i < argc; i++) {
		char *end;
		long n = strtol(argv[i], &end, 10);

		if (*argv[i] && !*end) {
			if (n == num)
				return true;
			continue;
		}
		if (strstr(name, argv[i]) || strstr(desc, argv[i]))
			return true;
	}
	return false;
}

static int run_workload(const char *name, int argc, const char **argv)
{
	int i;

	for (i = 0; i < nr_test_workloads; i++)
		if (!strcmp(test_workloads[i].name, name))
			return test_workloads[i].fn(argc, argv);
	fprintf(stderr, "perf test: unknown workload '%s'; the workloads are:\n",
		name);
	for (i = 0; i < nr_test_workloads; i++)
		fprintf(stderr, "  %-10s %s\n", test_workloads[i].name,
			test_workloads[i].usage);
	return 1;
}

static const char * const test_usage[] = {
	"perf test [<options>] [{NUMBER|NAME}...]",
	"perf test -w WORKLOAD [ARGS]",
	NULL
};

int cmd_test(int argc, const char **argv)
{
	struct test_totals totals = { 0 };
	const char *workload = NULL;
	int verbose = 0, i, num = 0, nr_shell;
	bool list_only = false;
	struct shell_test *shell;
	char reason[256];
	const struct option options[] = {
		OPT_INCR('v', "verbose", &verbose, "show the tests' output"),
		OPT_STRING('w', "workload", &workload, "name",
			   "run a bundled workload instead of the tests"),
		OPT_BOOLEAN('l', "list", &list_only, "list the tests"),
		OPT_END()
	};

	/* A workload takes the rest of the line as its own arguments. */
	if (argc >= 3 && (!strcmp(argv[1], "-w") ||
			  !strcmp(argv[1], "--workload")))
		return run_workload(argv[2], argc - 3, argv + 3);
	argc = parse_options(argc - 1, argv + 1, options, test_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (workload)
		return run_workload(workload, argc, argv + 1);
	find_shell_dir();
	shell = load_shell_tests(&nr_shell);
	for (i = 0; i < nr_unit_tests + nr_shell; i++) {
		bool is_unit = i < nr_unit_tests;
		const struct test_case *tc = is_unit ? &unit_tests[i] : NULL;
		const struct shell_test *st = is_unit ? NULL :
					      &shell[i - nr_unit_tests];
		const char *desc = is_unit ? tc->desc : st->desc;
		int result;

		num = i + 1;
		if (!selected(argc, argv + 1, num,
			      is_unit ? tc->name : strrchr(st->path, '/') + 1,
			      desc))
			continue;
		if (list_only) {
			printf("%3d: %s\n", num, desc);
			continue;
		}
		if (verbose)
			printf("--- start: %d: %s\n", num, desc);
		if (is_unit)
			result = run_unit_test(tc, verbose, reason,
					       sizeof(reason));
		else
			result = run_shell_test(st, verbose, reason,
						sizeof(reason));
		print_result(num, desc, result, reason);
		count_result(&totals, result);
	}
	free(shell);
	if (argc && !list_only &&
	    totals.passed + totals.failed + totals.skipped == 0) {
		fprintf(stderr, "perf test: no test matches the selection; see 'perf test -l'\n");
		return 1;
	}
	if (!list_only) {
		if (!nr_shell)
			printf("warning: no shell tests found in %s\n",
			       shell_dir);
		printf("%d passed, %d failed, %d skipped\n", totals.passed,
		       totals.failed, totals.skipped);
	}
	return totals.failed ? 1 : 0;
}
#endif
