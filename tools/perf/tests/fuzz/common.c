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

/* The empty tree goes when a run ends (a crash leaves it: it is rare). */
static void remove_symfs(void)
{
	unlink(fuzz_kallsyms);
	rmdir(fuzz_symfs);
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
	atexit(remove_symfs);

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

/* A reader: the command's leading words and its options. */
struct fuzz_reader {
	fuzz_cmd_fn fn;
	const char *words[3];
	const char *opts[12];
};

/*
 * perf data convert has no --symfs or --kallsyms (nor has Linux perf's):
 * it gets the empty tree through symbol_conf, which fuzz__run() clears.
 */
static int data_convert(int argc, const char **argv)
{
	symbol_conf.symfs = fuzz_symfs;
	symbol_conf.kallsyms = fuzz_kallsyms;
	return cmd_data(argc, argv);
}

/* Filled in with fuzz__init()'s empty tree by reader_opts(). */
#define SYMFS "@symfs"
#define KALLSYMS "@kallsyms"
#define SYMS_LATER "--symfs", SYMFS, "--kallsyms", KALLSYMS

static const struct fuzz_reader readers[] = {
	{ cmd_report, { "report" }, { "--stdio", "--header", "-n", SYMS_LATER } },
	{ cmd_report, { "report" }, { "--stdio", "--children", "-g", "caller",
				      "-s", "comm,pid,dso,sym,cpu", SYMS_LATER } },
	{ cmd_report, { "report" }, { "-D", SYMS_LATER } },
	{ cmd_sched, { "sched", "timehist" }, { "-w", "-M", "-n", "-V", "--state",
						 "-S", SYMS_LATER } },
	{ cmd_sched, { "sched", "timehist" }, { "-I", "-S", SYMS_LATER } },
	{ cmd_trace, { "trace" }, { "-S", "-T", "--symfs", SYMFS } },
	{ cmd_script, { "script" }, { "--show-task-events", "--show-mmap-events",
				      "--show-lost-events", SYMS_LATER } },
	{ data_convert, { "data", "convert" }, { "-f", "--to-json", "/dev/null" } },
};

/* The options of @r, with the empty symfs and kallsyms filled in. */
static void reader_opts(const struct fuzz_reader *r, const char **opts)
{
	int i;

	for (i = 0; r->opts[i]; i++) {
		opts[i] = r->opts[i];
		if (!strcmp(opts[i], SYMFS))
			opts[i] = fuzz_symfs;
		else if (!strcmp(opts[i], KALLSYMS))
			opts[i] = fuzz_kallsyms;
	}
	opts[i] = NULL;
}

/*
 * One reader an input, chosen by its size: every input runs one command
 * (eight times as many inputs a second as running them all), the same
 * one each time it is run again, and mutations that change the size
 * move it to the others.
 */
void fuzz__run_readers(const u8 *data, size_t size, bool pipe)
{
	const struct fuzz_reader *r = &readers[size % ARRAY_SIZE(readers)];
	const char *opts[ARRAY_SIZE(r->opts) + 1];

	reader_opts(r, opts);
	run_reader(r->fn, r->words, opts, data, size, pipe);
}
