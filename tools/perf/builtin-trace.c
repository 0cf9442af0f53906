// SPDX-License-Identifier: GPL-2.0
/*
 * perf trace: syscalls of a command, of tasks or of the whole system,
 * live or from a recording.
 *
 * Live tracing runs perf record (raw_syscalls, time stamps on
 * CLOCK_MONOTONIC with a time-of-day reference) in a child that writes
 * the pipe format into a pipe; this process reads it as perf trace -i
 * reads a file.  Neither process traces itself: each one's pid is
 * filtered out in the kernel, so tracing the whole system does not
 * feed on its own output.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <perf/types.h>
#include "builtin.h"
#include "util/data.h"
#include "util/parse-options.h"
#include "util/symbol.h"
#include "util/trace.h"

struct trace_cmd {
	struct trace_opts opts;
	const char *input;
	const char *output;
	const char *duration;
	const char *symfs;
	bool summary_only;
	bool with_summary;
	int time;
	bool system_wide;
	const char *cpu_list;
	const char *pid_list;
	const char *tid_list;
	const char *mmap_pages;
};

static const char * const trace_usage[] = {
	"perf trace [<options>] [-- <command> [<args>]]",
	"perf trace -i <file> [<options>]",
	"perf trace record [<record options>] [-- <command> [<args>]]",
	NULL
};

static pid_t trace_child;

static void trace_forward_signal(int sig)
{
	if (trace_child > 0)
		kill(trace_child, sig);
}

/* What perf trace record and live tracing record. */
static int record_args(const char **v, const char *filter)
{
	static const char * const fixed[] = {
		"record", "-R", "-c", "1", "--tod", "-m", "1024",
	};
	static const char * const events[] = {
		"raw_syscalls:sys_enter", "raw_syscalls:sys_exit",
	};
	int n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		v[n++] = fixed[i];
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		v[n++] = "-e";
		v[n++] = events[i];
		v[n++] = "--exclude-perf";
		if (filter) {
			v[n++] = "--filter";
			v[n++] = filter;
		}
	}
	return n;
}

static int trace_record(int argc, const char **argv)
{
	const char **v = calloc(argc + 32, sizeof(*v));
	int n, i, ret;

	if (!v)
		return 1;
	n = record_args(v, NULL);
	for (i = 1; i < argc; i++)
		v[n++] = argv[i];
	ret = cmd_record(n, v);
	free(v);
	return ret;
}

/* The recorder's options from ours: target, buffer size, output. */
static int live_record_args(struct trace_cmd *cmd, const char **v,
			    char *filter, size_t fsize, char *out, size_t osize,
			    int fd)
{
	int n;

	snprintf(filter, fsize, "common_pid != %d", (int)getpid());
	snprintf(out, osize, "/proc/self/fd/%d", fd);
	n = record_args(v, filter);
	v[n++] = "-q";
	v[n++] = "-o";
	v[n++] = out;
	if (cmd->mmap_pages) {
		v[n++] = "-m";
		v[n++] = cmd->mmap_pages;
	}
	if (cmd->system_wide)
		v[n++] = "-a";
	if (cmd->cpu_list) {
		v[n++] = "-C";
		v[n++] = cmd->cpu_list;
	}
	if (cmd->pid_list) {
		v[n++] = "-p";
		v[n++] = cmd->pid_list;
	}
	if (cmd->tid_list) {
		v[n++] = "-t";
		v[n++] = cmd->tid_list;
	}
	return n;
}

static int child_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int trace_read(struct trace_cmd *cmd, struct perf_session *s,
		      int err, FILE *out)
{
	if (err == PERF_SESSION_EMPTY) {
		fprintf(stderr, "zero-sized file (%s), nothing to do!\n",
			s->name);
		return 0;
	}
	if (err) {
		fprintf(stderr, "perf trace: %s\n", perf_session__error(s));
		return 1;
	}
	if (perf_session__warning(s)[0])
		fprintf(stderr, "Warning: %s\n", perf_session__warning(s));
	return trace__run(&cmd->opts, s, out);
}

static int trace_live(struct trace_cmd *cmd, int argc, const char **argv,
		      FILE *out)
{
	struct sigaction sa = { .sa_handler = trace_forward_signal };
	char filter[64], path[64];
	struct perf_session s;
	const char **v;
	int p[2], n, i, ret, status;

	v = calloc(argc + 48, sizeof(*v));
	if (!v || pipe2(p, O_CLOEXEC)) {
		perror("perf trace");
		free(v);
		return 1;
	}
	/* Bursts wait in the pipe, not in the kernel's ring, while we print. */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	n = live_record_args(cmd, v, filter, sizeof(filter), path,
			     sizeof(path), p[1]);
	if (argc)
		v[n++] = "--";
	for (i = 0; i < argc; i++)
		v[n++] = argv[i];
	fflush(NULL);
	trace_child = fork();
	if (trace_child < 0) {
		perror("perf trace: fork");
		return 1;
	}
	if (!trace_child) {
		close(p[0]);
		_exit(cmd_record(n, v));
	}
	close(p[1]);
	free(v);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = perf_session__open_fd(&s, p[0], "pipe");
	/* Nothing came: the recorder failed and said why; its status is ours. */
	if (ret) {
		status = child_status(trace_child);
		if (!status && ret != PERF_SESSION_EMPTY)
			fprintf(stderr, "perf trace: %s\n", perf_session__error(&s));
		perf_session__close(&s);
		return status ? status : ret != PERF_SESSION_EMPTY;
	}
	ret = trace_read(cmd, &s, ret, out);
	perf_session__close_report(&s, "perf trace");
	status = child_status(trace_child);
	return ret ? ret : status;
}

static int trace_replay(struct trace_cmd *cmd, FILE *out)
{
	struct perf_session s;
	int ret = perf_session__open(&s, cmd->input);

	ret = trace_read(cmd, &s, ret, out);
	perf_session__close_report(&s, "perf trace");
	return ret;
}

static void trace_check_options(struct trace_cmd *cmd, int argc,
				const struct option *options)
{
	struct trace_opts *o = &cmd->opts;
	const char *why;
	char *end;

	if (cmd->duration) {
		o->duration_ms = strtod(cmd->duration, &end);
		if (*end || end == cmd->duration || o->duration_ms < 0)
			usage_with_options_msg(trace_usage, options,
					       "--duration needs milliseconds, e.g. 0.5");
	}
	if (cmd->summary_only && cmd->with_summary)
		usage_with_options_msg(trace_usage, options,
				       "-s and -S are exclusive");
	if (cmd->time > 2)
		usage_with_options_msg(trace_usage, options,
				       "-T and -TT are the time formats");
	if (cmd->input && (argc || cmd->system_wide || cmd->cpu_list ||
			   cmd->tid_list))
		usage_with_options_msg(trace_usage, options,
				       "-i replays a file: no command, -a, -C or -t");
	/* A recording shows the processes -p names. */
	if (cmd->input)
		o->pids = cmd->pid_list;
	/* Nothing to trace or replay: the whole system, as Linux perf. */
	if (!cmd->input && !argc && !cmd->system_wide && !cmd->cpu_list &&
	    !cmd->pid_list && !cmd->tid_list)
		cmd->system_wide = true;
	why = trace_opts__check(o);
	if (why)
		usage_with_options_msg(trace_usage, options, "%s", why);
	o->lines = !cmd->summary_only;
	o->summary = cmd->summary_only || cmd->with_summary;
	o->time = cmd->time == 2 ? TRACE_TIME_TOD :
		  cmd->time == 1 ? TRACE_TIME_PERF : TRACE_TIME_RELATIVE;
	/* --tod is -TT; --tod=start maps with the start reference alone. */
	if (o->tod.show == TOD_SHOW_ON)
		o->time = TRACE_TIME_TOD;
	o->tod.show = TOD_SHOW_ON;
	o->live = !cmd->input;
	symbol_conf.symfs = cmd->symfs;
}

int cmd_trace(int argc, const char **argv)
{
	struct trace_cmd cmd = { 0 };
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "replay a recording (perf trace record)"),
		OPT_STRING('o', "output", &cmd.output, "file",
			   "write the trace to a file"),
		OPT_BOOLEAN('a', "all-cpus", &cmd.system_wide,
			    "trace the whole system"),
		OPT_STRING('C', "cpu", &cmd.cpu_list, "cpu",
			   "trace these CPUs (e.g. 0,2-3)"),
		OPT_STRING('p', "pid", &cmd.pid_list, "pid",
			   "trace existing processes (with -i: show only these)"),
		OPT_STRING('t', "tid", &cmd.tid_list, "tid",
			   "trace existing threads"),
		OPT_STRING('e', "expr", &cmd.opts.syscalls, "syscalls",
			   "only these syscalls (globs; !name leaves one out)"),
		OPT_STRING(0, "duration", &cmd.duration, "ms",
			   "only calls that took longer"),
		OPT_BOOLEAN(0, "failure", &cmd.opts.failure,
			    "only calls that failed"),
		OPT_STRING(0, "comm", &cmd.opts.comms, "comms",
			   "show these commands only"),
		OPT_BOOLEAN('s', "summary", &cmd.summary_only,
			    "a summary per thread instead of the calls"),
		OPT_BOOLEAN('S', "with-summary", &cmd.with_summary,
			    "the calls, then a summary per thread"),
		{ .type = OPTION_CALLBACK, .long_name = "tod",
		  .value = &cmd.opts.tod, .argh = "start",
		  .help = "time of day, as -TT (=start: the start reference alone)",
		  .callback = tod_option, .optional_arg = true },
		OPT_INCR('T', "time", &cmd.time,
			 "-T: event clock time stamps; -TT: time of day"),
		OPT_STRING('m', "mmap-pages", &cmd.mmap_pages, "pages",
			   "ring buffer pages per CPU (power of two)"),
		OPT_STRING(0, "symfs", &cmd.symfs, "dir",
			   "find the recorded executables under this root"),
		OPT_END()
	};
	FILE *out = stderr;	/* as Linux perf: stdout is the workload's */
	int ret;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return trace_record(argc - 1, argv + 1);
	argc = parse_options(argc - 1, argv + 1, options, trace_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	trace_check_options(&cmd, argc, options);
	if (cmd.output) {
		out = fopen(cmd.output, "we");
		if (!out) {
			fprintf(stderr, "perf trace: cannot create '%s': %s\n",
				cmd.output, strerror(errno));
			return 1;
		}
	}
	ret = cmd.input ? trace_replay(&cmd, out) :
			  trace_live(&cmd, argc, argv + 1, out);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "perf trace: writing '%s' failed: %s\n",
			cmd.output, strerror(errno));
		ret = 1;
	}
	return ret;
}
