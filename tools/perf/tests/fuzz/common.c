// SPDX-License-Identifier: GPL-2.0
/*
 * What the fuzz targets share: the input as a file or as a pipe, and
 * running a perf command on it in process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "../../util/dso.h"
#include "../../util/symbol.h"
#include "../../builtin.h"
#include "fuzz.h"

/* The most a pipe holds; inputs are cut there (see -max_len). */
#define FUZZ_PIPE_SIZE (1024 * 1024)

const char *fuzz_symfs;
const char *fuzz_kallsyms;

static int input_fd = -1;
static char input_path[64];

static void die(const char *what)
{
	perror(what);
	abort();
}

void fuzz__init(void)
{
	static char symfs[] = "/tmp/perf-fuzz-symfs.XXXXXX";
	static char kallsyms[PATH_MAX];
	int fd;

	if (fuzz_symfs)
		return;
	/*
	 * Symbols come from an empty tree: resolving the paths of a fuzzed
	 * file against the host would make every run read whatever big
	 * binary a mutation happens to name.  The ELF reader has its own
	 * target.
	 */
	if (!mkdtemp(symfs))
		die("mkdtemp");
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", symfs);
	fd = open(kallsyms, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	if (fd < 0)
		die(kallsyms);
	close(fd);
	fuzz_symfs = symfs;
	fuzz_kallsyms = kallsyms;

	/* Reports go nowhere; libFuzzer and the sanitizers use stderr. */
	fd = open("/dev/null", O_RDWR);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDIN_FILENO) < 0)
		die("/dev/null");
	close(fd);
}

const char *fuzz__get_file(const u8 *data, size_t size)
{
	const u8 *p = data;

	input_fd = memfd_create("perf-fuzz", 0);
	if (input_fd < 0)
		die("memfd_create");
	while (size) {
		ssize_t n = write(input_fd, p, size);

		if (n <= 0)
			die("write");
		p += n;
		size -= n;
	}
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d",
		 input_fd);
	return input_path;
}

void fuzz__put_file(void)
{
	close(input_fd);
	input_fd = -1;
}

int fuzz__run(fuzz_cmd_fn fn, const char **argv)
{
	int argc = 0;
	int ret;

	while (argv[argc])
		argc++;
	ret = fn(argc, argv);
	fflush(stdout);
	dsos__exit();
	memset(&symbol_conf, 0, sizeof(symbol_conf));
	return ret;
}

/* A pipe already holding the data and closed for writing. */
static int filled_pipe(const u8 *data, size_t size)
{
	int fds[2];
	ssize_t n;

	if (pipe2(fds, O_NONBLOCK))
		die("pipe");
	fcntl(fds[1], F_SETPIPE_SZ, FUZZ_PIPE_SIZE);
	while (size) {
		n = write(fds[1], data, size);
		if (n < 0 && errno == EAGAIN)
			break;		/* full: the rest is cut off */
		if (n <= 0)
			die("write");
		data += n;
		size -= n;
	}
	close(fds[1]);
	if (fcntl(fds[0], F_SETFL, 0))
		die("fcntl");
	return fds[0];
}

int fuzz__run_pipe(fuzz_cmd_fn fn, const char **argv, const u8 *data,
		   size_t size)
{
	int fd = filled_pipe(data, size);
	int ret;

	if (dup2(fd, STDIN_FILENO) < 0)
		die("dup2");
	close(fd);
	ret = fuzz__run(fn, argv);
	fd = open("/dev/null", O_RDONLY);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0)
		die("/dev/null");
	close(fd);
	return ret;
}

#define SYMS "--symfs", fuzz_symfs, "--kallsyms", fuzz_kallsyms

/* Run one command with "-i INPUT" inserted after its leading words. */
static void run_reader(fuzz_cmd_fn fn, const char * const *words,
		       const char * const *opts, const u8 *data, size_t size,
		       bool pipe)
{
	const char *argv[32];
	int n = 0;

	while (*words)
		argv[n++] = *words++;
	argv[n++] = "-i";
	argv[n++] = pipe ? "-" : fuzz__get_file(data, size);
	while (*opts && n < 31)
		argv[n++] = *opts++;
	argv[n] = NULL;
	if (pipe)
		fuzz__run_pipe(fn, argv, data, size);
	else
		fuzz__run(fn, argv);
	if (!pipe)
		fuzz__put_file();
}

void fuzz__run_readers(const u8 *data, size_t size, bool pipe)
{
	const char * const report[] = { "report", NULL };
	const char * const sched[] = { "sched", "timehist", NULL };
	const char * const trace[] = { "trace", NULL };
	const char * const script[] = { "script", NULL };
	const char * const report_header[] = {
		"--stdio", "--header", "-n", SYMS, NULL };
	const char * const report_children[] = {
		"--stdio", "--children", "-g", "caller", "-s",
		"comm,pid,dso,sym,cpu", SYMS, NULL };
	const char * const report_dump[] = { "-D", SYMS, NULL };
	const char * const timehist_all[] = {
		"-w", "-M", "-n", "-V", "--state", "-S", SYMS, NULL };
	const char * const timehist_idle[] = { "-I", "-S", SYMS, NULL };
	const char * const trace_summary[] = {
		"-S", "-T", "--symfs", fuzz_symfs, NULL };
	const char * const script_all[] = {
		"--show-task-events", "--show-mmap-events",
		"--show-lost-events", SYMS, NULL };

	run_reader(cmd_report, report, report_header, data, size, pipe);
	run_reader(cmd_report, report, report_children, data, size, pipe);
	run_reader(cmd_report, report, report_dump, data, size, pipe);
	run_reader(cmd_sched, sched, timehist_all, data, size, pipe);
	run_reader(cmd_sched, sched, timehist_idle, data, size, pipe);
	run_reader(cmd_trace, trace, trace_summary, data, size, pipe);
	run_reader(cmd_script, script, script_all, data, size, pipe);
}
