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
#include "util/strvec.h"
#include "util/symbol.h"
#include "util/target.h"
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
	struct target target;		/* events unused: the recorder's */
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

struct event_args {
	struct strvec *v;
	const char *filter;
};

/* An event, without perf's own. */
static int push_event(const char *event, void *arg)
{
	struct event_args *a = arg;

	strvec__push(a->v, "-e");
	strvec__push(a->v, event);
	strvec__push(a->v, "--exclude-perf");
	if (a->filter) {
		strvec__push(a->v, "--filter");
		strvec__push(a->v, a->filter);
	}
	return 0;
}

/*
 * What perf trace record and live tracing record: the syscalls, and the
 * tracepoints -e (@events) names.
 */
static void record_args(struct strvec *v, const char *filter,
			const char *events)
{
	struct event_args a = { v, filter };

	static const char * const fixed[] = {
		"record", "-R", "-c", "1", "--tod", "-m", "1024",
	};
	static const char * const sc_events[] = {
		"raw_syscalls:sys_enter", "raw_syscalls:sys_exit",
	};
	size_t i;

	strvec__pushv(v, ARRAY_SIZE(fixed), fixed);
	for (i = 0; i < ARRAY_SIZE(sc_events); i++)
		push_event(sc_events[i], &a);
	if (events)
		trace__walk_events(events, push_event, &a);
}

static int trace_record(int argc, const char **argv)
{
	struct strvec v = STRVEC_INIT;

	record_args(&v, NULL, NULL);
	strvec__pushv(&v, argc - 1, argv + 1);
	return strvec__run(&v, cmd_record, "perf trace");
}

/* The recorder's options from ours: target, buffer size, output. */
static void live_record_args(struct trace_cmd *cmd, struct strvec *v, int fd)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	record_args(v, filter, cmd->opts.syscalls);
	strvec__push(v, "-q");
	strvec__push(v, "-o");
	strvec__pushf(v, "/proc/self/fd/%d", fd);
	if (cmd->mmap_pages) {
		strvec__push(v, "-m");
		strvec__push(v, cmd->mmap_pages);
	}
	target__push_options(&cmd->target, v);
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

/* A session open without error: its warning, then the trace. */
static int trace_read(struct trace_cmd *cmd, struct perf_session *s,
		      FILE *out)
{
	if (perf_session__warning(s)[0])
		fprintf(stderr, "Warning: %s\n", perf_session__warning(s));
	return trace__run(&cmd->opts, s, out);
}

static int trace_live(struct trace_cmd *cmd, int argc, const char **argv,
		      FILE *out)
{
	struct sigaction sa = { .sa_handler = trace_forward_signal };
	struct strvec v = STRVEC_INIT;
	struct perf_session s;
	int p[2], ret, status;

	if (pipe2(p, O_CLOEXEC)) {
		perror("perf trace");
		return 1;
	}
	/* Bursts wait in the pipe, not in the kernel's ring, while we print. */
	fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	live_record_args(cmd, &v, p[1]);
	if (argc)
		strvec__push(&v, "--");
	strvec__pushv(&v, argc, argv);
	fflush(NULL);
	trace_child = fork();
	if (trace_child < 0) {
		perror("perf trace: fork");
		strvec__clear(&v);
		return 1;
	}
	if (!trace_child) {
		close(p[0]);
		_exit(strvec__run(&v, cmd_record, "perf trace"));
	}
	close(p[1]);
	strvec__clear(&v);
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
	ret = trace_read(cmd, &s, out);
	perf_session__close_report(&s, "perf trace");
	status = child_status(trace_child);
	return ret ? ret : status;
}

static int trace_replay(struct trace_cmd *cmd, FILE *out)
{
	struct perf_session s;
	int ret = perf_session__open_report(&s, cmd->input, "perf trace");

	/* A zero-sized file has nothing to trace: not an error. */
	if (ret)
		return ret != PERF_SESSION_EMPTY;
	ret = trace__run(&cmd->opts, &s, out);
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
	if (cmd->input && (argc || target__has_cpus(&cmd->target) ||
			   cmd->target.tid_list))
		usage_with_options_msg(trace_usage, options,
				       "-i replays a file: no command, -a, -C or -t");
	/* A recording shows the processes -p names. */
	if (cmd->input)
		o->pids = cmd->target.pid_list;
	/* Nothing to trace or replay: the whole system, as Linux perf. */
	if (!cmd->input)
		target__default(&cmd->target, argc);
	o->live = !cmd->input;
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
	symbol_conf.symfs = cmd->symfs;
}

int cmd_trace(int argc, const char **argv)
{
	struct trace_cmd cmd = { 0 };
	struct option target_opts[TARGET_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_STRING('i', "input", &cmd.input, "file",
			   "replay a recording (perf trace record)"),
		OPT_STRING('o', "output", &cmd.output, "file",
			   "write the trace to a file"),
		OPT_TABLE(target_opts),
		OPT_STRING('e', "expr", &cmd.opts.syscalls, "syscalls",
			   "only these syscalls (globs; !name leaves one out), and these tracepoints (GROUP:NAME)"),
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
	target__options(&cmd.target, target_opts);
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
