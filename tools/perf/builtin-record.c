// SPDX-License-Identifier: GPL-2.0
/*
 * perf record: sample a command, processes, threads or CPUs into
 * perf.data.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <perf/backend.h>
#include <perf/evlist.h>
#include <perf/parse-events.h>
#include <perf/strerror.h>
#include "builtin.h"
#include "util/build-id.h"
#include "util/data.h"
#include "util/event.h"
#include "util/header.h"
#include "util/parse-options.h"
#include "util/record.h"
#include "util/target.h"
#include "util/tod.h"
#include "util/trace-data.h"
#include "util/workload.h"

#define RECORD_DEFAULT_FREQ 4000
#define RECORD_DEFAULT_PAGES 128

struct record_cmd {
	struct target target;
	int period;
	int freq;
	bool callgraph;
	const char *callgraph_mode;
	const char *output_name;
	unsigned int mmap_pages;
	bool no_inherit;
	bool raw_samples;
	bool quiet;
	int verbose;

	const char **argv;
	int orig_argc;			/* the whole command line, for */
	const char **orig_argv;		/* the file's cmdline feature */
	struct perf_evlist *evlist;
	struct record_rings rings;
	struct record_stats stats;
	struct perf_data_writer writer;
	struct build_id_tracker build_ids;
	struct workload wl;
	size_t id_size;
	bool default_event;
	const char *clock_name;		/* -k */
	int clockid;			/* -1: the kernel's perf clock */
};

static volatile sig_atomic_t record_done;
static volatile sig_atomic_t record_child_exited;

static volatile sig_atomic_t record_signal;

static void record_sig_handler(int sig)
{
	if (sig == SIGCHLD) {
		record_child_exited = 1;
		return;
	}
	record_done = 1;
	record_signal = sig;
}

static int record_callgraph(const struct option *opt, const char *arg,
			    int unset)
{
	struct record_cmd *cmd = opt->value;

	cmd->callgraph = !unset;
	if (arg && strcmp(arg, "fp")) {
		fprintf(stderr, "perf record: call graph mode '%s' is not supported; use 'fp' (frame pointers)\n",
			arg);
		return -1;
	}
	return 0;
}

static bool record_is_workload_only(const struct record_cmd *cmd)
{
	return cmd->argv && !target__has_cpus(&cmd->target) &&
	       !target__has_tasks(&cmd->target);
}

static int record_parse_events(struct record_cmd *cmd)
{
	cmd->default_event = !cmd->target.nr_events;
	return target__parse_events(&cmd->target, cmd->evlist, "cycles");
}

/*
 * Counters per CPU even for tasks: the kernel maps no ring buffer for an
 * inherited counter that follows a task across CPUs.
 */
static int record_setup_maps(struct record_cmd *cmd)
{
	return target__setup_maps(&cmd->target, cmd->evlist,
				  TARGET_TASKS_PER_CPU, "record");
}

static void record_setup_attr(struct record_cmd *cmd, struct perf_evsel *e,
			      bool tracking)
{
	struct perf_counter_attr *a = &e->attr;

	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD;
	if (target__has_cpus(&cmd->target))
		a->sample_type |= PERF_SAMPLE_CPU;
	if (cmd->callgraph)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (cmd->evlist->nr > 1)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	a->read_format = PERF_FORMAT_ID;
	if (cmd->period) {
		a->freq = 0;
		a->sample_period = cmd->period;
	} else if (a->type == PERF_TYPE_TRACEPOINT && !cmd->freq) {
		a->freq = 0;
		a->sample_period = 1;
	} else {
		a->freq = 1;
		a->sample_freq = cmd->freq ? cmd->freq : RECORD_DEFAULT_FREQ;
	}
	/* Wake the reader when a quarter of the ring is full, not per record. */
	a->watermark = 1;
	a->wakeup_watermark = cmd->mmap_pages * sysconf(_SC_PAGESIZE) / 4;
	a->disabled = 1;
	a->inherit = !cmd->no_inherit;
	a->enable_on_exec = record_is_workload_only(cmd);
	a->sample_id_all = 1;
	a->exclude_guest = 1;
	if (cmd->clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = cmd->clockid;
	}
	/* One event carries the side-band records, the others need not. */
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = tracking;
}

static void record_setup_attrs(struct record_cmd *cmd)
{
	struct perf_evsel *pos;

	perf_evlist__for_each(cmd->evlist, pos)
		record_setup_attr(cmd, pos, pos == cmd->evlist->first);
	cmd->id_size = perf_sample_id_size(cmd->evlist->first->attr.sample_type);
}

/*
 * "cycles" is the default; without a PMU (virtual machines) fall back to
 * the cpu-clock timer as Linux perf does, saying so.
 */
static int record_fallback(struct record_cmd *cmd)
{
	struct perf_evsel *e = cmd->evlist->first;

	if (!cmd->default_event || cmd->evlist->nr != 1 ||
	    !perf_errno_unsupported(e->open_errno))
		return -1;
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	free(e->name);
	e->name = strdup("cpu-clock");
	if (!cmd->quiet)
		fprintf(stderr, "perf record: 'cycles' is not supported here, sampling 'cpu-clock' instead\n");
	return e->name ? 0 : -1;
}

/* Without the right to sample the kernel, sample user space only. */
static bool record_fallback_to_user(struct record_cmd *cmd, int err)
{
	struct perf_evsel *pos;
	bool changed = false;

	if (err != -EACCES && err != -EPERM)
		return false;
	perf_evlist__for_each(cmd->evlist, pos) {
		if (pos->attr.exclude_kernel ||
		    pos->attr.type == PERF_TYPE_TRACEPOINT)
			continue;
		pos->attr.exclude_kernel = 1;
		pos->attr.exclude_hv = 1;
		changed = true;
	}
	if (changed && !cmd->quiet)
		fprintf(stderr, "perf record: no permission to sample the kernel, sampling user space only\n");
	return changed;
}

static int record_open(struct record_cmd *cmd)
{
	struct perf_evsel *pos;
	char msg[1024];
	int err;

	err = perf_evlist__open(cmd->evlist, false);
	if (err && !record_fallback(cmd))
		err = perf_evlist__open(cmd->evlist, false);
	if (err && record_fallback_to_user(cmd, err))
		err = perf_evlist__open(cmd->evlist, false);
	if (!err)
		return 0;
	perf_evlist__for_each(cmd->evlist, pos) {
		if (pos->open_errno) {
			fprintf(stderr, "Error:\n%s\n",
				perf_strerror_open(pos->open_errno, pos, msg,
						   sizeof(msg)));
			break;
		}
	}
	return err;
}

/* Every record goes to the file and past the build-id tracker. */
static int record_write(void *ctx, const void *buf, size_t len)
{
	struct record_cmd *cmd = ctx;
	int err = perf_data_writer__write(&cmd->writer, buf, len);

	if (err || cmd->writer.pipe)
		return err;
	return build_id_tracker__event(&cmd->build_ids, buf);
}

/* Tracepoint samples are decoded with the formats of this machine. */
static int record_add_tracing_data(struct record_cmd *cmd)
{
	struct perf_header_info *info = &cmd->writer.info;
	struct perf_fbuf b = { 0 };
	struct perf_evsel *pos;
	const char **names;
	int nr = 0, err;

	names = calloc(cmd->evlist->nr, sizeof(*names));
	if (!names)
		return -ENOMEM;
	perf_evlist__for_each(cmd->evlist, pos)
		if (pos->attr.type == PERF_TYPE_TRACEPOINT && pos->name)
			names[nr++] = pos->name;
	err = nr ? trace_data__build(&b, names, nr) : 0;
	free(names);
	if (err || !nr) {
		perf_fbuf__free(&b);
		return err;
	}
	info->tracing_data = b.data;
	info->tracing_data_size = b.len;
	perf_feat_set(info->features, HEADER_TRACING_DATA);
	return 0;
}

/* With -k, where event times stand against the time of day. */
static int record_add_clock(struct record_cmd *cmd)
{
	struct timespec res = { 0 };
	struct tod tod;
	int err;

	if (cmd->clockid < 0)
		return 0;
	err = tod_take_reference(cmd->clockid, &tod);
	if (err)
		return err;
	clock_getres(cmd->clockid, &res);
	perf_header_info__set_clock(&cmd->writer.info, cmd->clockid,
				    (u64)res.tv_sec * 1000000000ULL + res.tv_nsec,
				    tod.tod_ns, tod.clock_ns);
	return 0;
}

static int record_add_attrs(struct record_cmd *cmd)
{
	struct perf_evsel *pos;
	int err;

	perf_evlist__for_each(cmd->evlist, pos) {
		err = perf_data_writer__add_attr(&cmd->writer, &pos->attr,
						 pos->name, pos->id,
						 pos->nr_cpus * pos->nr_threads);
		if (err)
			return err;
	}
	return 0;
}

/* Every process of a -p list once; each -t thread with its process's maps. */
static int record_synthesize_tasks(struct record_cmd *cmd,
				   const struct record_sink *sink)
{
	const char *list = cmd->target.pid_list ? cmd->target.pid_list :
						  cmd->target.tid_list;
	const char *p = list;
	int err = 0;

	while (*p && !err) {
		char *end;
		pid_t id = strtol(p, &end, 10);

		if (cmd->target.pid_list)
			err = record_synthesize_process(id, cmd->id_size, sink);
		else
			err = record_synthesize_task_thread(id, cmd->id_size,
							    sink);
		p = *end ? end + 1 : end;
	}
	return err;
}

/* The state of the world before the first sample: tasks and mappings. */
static int record_synthesize(struct record_cmd *cmd)
{
	struct record_sink sink = { record_write, cmd };
	int err;

	err = record_synthesize_kernel(cmd->id_size, &sink);
	if (err)
		return err;
	if (target__has_cpus(&cmd->target))
		return record_synthesize_all(cmd->id_size, &sink);
	if (target__has_tasks(&cmd->target))
		return record_synthesize_tasks(cmd, &sink);
	/* The command: its name before exec; exec brings the rest. */
	return record_synthesize_thread(cmd->wl.pid, cmd->wl.pid, cmd->id_size,
					&sink);
}

static int record_finished_round(struct record_cmd *cmd)
{
	struct perf_counter_header h = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return perf_data_writer__write(&cmd->writer, &h, sizeof(h));
}

static int record_drain(struct record_cmd *cmd)
{
	struct record_sink sink = { record_write, cmd };
	int n = record_rings__drain(&cmd->rings, &sink, &cmd->stats);

	if (n > 0)
		n = record_finished_round(cmd);
	return n < 0 ? n : perf_data_writer__pump(&cmd->writer);
}

static bool record_targets_gone(struct record_cmd *cmd)
{
	struct perf_thread_map *t = cmd->evlist->threads;
	int i;

	if (cmd->argv || !target__has_tasks(&cmd->target))
		return false;
	for (i = 0; i < t->nr; i++)
		if (perf_thread__alive(t->tid[i]))
			return false;
	return true;
}

static int record_loop(struct record_cmd *cmd)
{
	int err, ready;

	while (!record_done) {
		if (cmd->argv && (record_child_exited || cmd->wl.reaped) &&
		    workload__poll(&cmd->wl))
			break;
		if (record_targets_gone(cmd))
			break;
		/* Records waiting for a slow FIFO reader go out soon. */
		ready = record_rings__poll(&cmd->rings,
					   perf_data_writer__has_backlog(&cmd->writer) ?
					   5 : 100);
		if (ready > 0)
			cmd->stats.wakeups++;
		/* All hung up: the tasks are gone; a child is reaped soon. */
		if (ready == -ENOENT && !cmd->argv)
			record_done = 1;
		else if (ready == -ENOENT)
			workload__wait(&cmd->wl, NULL);
		err = record_drain(cmd);
		if (err < 0)
			return err;
	}
	return 0;
}

static void record_install_signals(void)
{
	struct sigaction sa = { .sa_handler = record_sig_handler };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
}

static void record_report_done(struct record_cmd *cmd)
{
	double mb = perf_data_writer__bytes(&cmd->writer) / 1048576.0;

	if (cmd->stats.lost)
		fprintf(stderr, "Warning: the kernel lost %llu records in %llu chunks: the buffers were full.\n"
			"Use a larger buffer (-m pages) or a lower rate (-F/-c).\n",
			(unsigned long long)cmd->stats.lost,
			(unsigned long long)cmd->stats.lost_chunks);
	if (cmd->quiet)
		return;
	fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
		(unsigned long long)cmd->stats.wakeups);
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		mb, cmd->writer.pipe ? "(pipe)" : cmd->output_name,
		(unsigned long long)cmd->stats.samples);
}

static int record_start(struct record_cmd *cmd)
{
	int err;

	if (cmd->argv) {
		err = workload__prepare(&cmd->wl, cmd->argv);
		if (err) {
			fprintf(stderr, "perf record: cannot fork: %s\n",
				strerror(-err));
			return err;
		}
		if (record_is_workload_only(cmd))
			cmd->evlist->threads->tid[0] = cmd->wl.pid;
	}
	err = record_open(cmd);
	if (err)
		return err;
	err = record_rings__mmap(&cmd->rings, cmd->evlist, cmd->mmap_pages);
	if (err)
		fprintf(stderr, "perf record: cannot map the ring buffers: %s%s\n",
			strerror(-err), err == -EPERM || err == -ENOMEM ?
			" (the locked-memory limit is too low: try a smaller -m, or raise ulimit -l or perf_event_mlock_kb)" : "");
	return err;
}

/* Exit status: the command's, else 0, or 1/255 on failures. */
static int record_run(struct record_cmd *cmd)
{
	int err = record_start(cmd);

	if (err)
		goto out_kill;
	err = perf_data_writer__open(&cmd->writer, cmd->output_name);
	if (err) {
		fprintf(stderr, "perf record: cannot create '%s': %s\n",
			cmd->output_name, strerror(-err));
		goto out_kill;
	}
	err = record_add_attrs(cmd);
	if (!err)
		err = record_add_tracing_data(cmd);
	if (!err)
		err = record_add_clock(cmd);
	if (!err)
		err = perf_header_info__set_cmdline(&cmd->writer.info,
						    cmd->orig_argc,
						    cmd->orig_argv);
	if (!err)
		err = perf_data_writer__begin(&cmd->writer);
	if (!err)
		err = record_synthesize(cmd);
	if (err)
		goto out_write_error;
	if (!record_is_workload_only(cmd))
		perf_evlist__enable(cmd->evlist);
	if (cmd->argv) {
		err = workload__start(&cmd->wl);
		if (err) {
			fprintf(stderr, "perf record: cannot run '%s': %s\n",
				cmd->argv[0], strerror(-err));
			perf_data_writer__abort(&cmd->writer);
			return 255;
		}
	}
	err = record_loop(cmd);
	perf_evlist__disable(cmd->evlist);
	cmd->stats.wakeups++;	/* the final drain */
	if (!err)
		err = record_drain(cmd);
	if (err < 0)
		goto out_write_error;
	/* Like a shell: the command gets the signal that stopped us. */
	if (cmd->argv && record_done && !cmd->wl.reaped)
		kill(cmd->wl.pid, record_signal ? record_signal : SIGTERM);
	if (cmd->argv)
		workload__wait(&cmd->wl, NULL);
	if (!cmd->writer.pipe)
		build_id_tracker__collect(&cmd->build_ids, &cmd->writer.info);
	err = perf_data_writer__finish(&cmd->writer);
	if (err)
		goto out_write_error;
	record_report_done(cmd);
	if (cmd->argv && cmd->wl.reaped)
		return workload__exit_code(&cmd->wl);
	return 0;
out_write_error:
	fprintf(stderr, "perf record: writing '%s' failed: %s\n",
		cmd->output_name, strerror(-err));
	perf_data_writer__finish(&cmd->writer);
out_kill:
	if (cmd->argv)
		workload__kill(&cmd->wl);
	return 1;
}

static const char * const record_usage[] = {
	"perf record [<options>] [<command>]",
	"perf record [<options>] -- <command> [<options>]",
	NULL
};

static void record_check_options(struct record_cmd *cmd,
				 const struct option *options)
{
	const char *why = target__check(&cmd->target, cmd->argv != NULL);

	if (why)
		usage_with_options_msg(record_usage, options, "%s", why);
	if (cmd->period < 0 || cmd->freq < 0)
		usage_with_options_msg(record_usage, options,
				       "-c and -F need positive values");
	if (cmd->period && cmd->freq)
		usage_with_options_msg(record_usage, options,
				       "-c and -F are exclusive");
	cmd->clockid = cmd->clock_name ? tod_parse_clockid(cmd->clock_name) : -1;
	if (cmd->clock_name && cmd->clockid < 0)
		usage_with_options_msg(record_usage, options,
				       "unknown clock '%s' for -k (monotonic, monotonic_raw, realtime, boottime, tai or a number)",
				       cmd->clock_name);
	if (!cmd->mmap_pages || (cmd->mmap_pages & (cmd->mmap_pages - 1)))
		usage_with_options_msg(record_usage, options,
				       "-m needs a power of two number of pages");
}

int cmd_record(int argc, const char **argv)
{
	struct record_cmd cmd = { .output_name = "perf.data",
				  .mmap_pages = RECORD_DEFAULT_PAGES };
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &cmd.target, "event",
			     "event selector, see 'perf list'",
			     target__add_event),
		OPT_CALLBACK(0, "filter", &cmd.target, "filter",
			     "tracepoint filter for the -e before it",
			     target__add_filter),
		OPT_CALLBACK_NOARG(0, "exclude-perf", &cmd.target,
				   "do not record perf's own events of the -e before it",
				   target__exclude_perf),
		OPT_BOOLEAN('a', "all-cpus", &cmd.target.system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &cmd.target.cpu_list, "cpu",
			   "list of CPUs to sample (e.g. 0,2-3)"),
		OPT_STRING('p', "pid", &cmd.target.pid_list, "pid",
			   "sample existing processes (all their threads)"),
		OPT_STRING('t', "tid", &cmd.target.tid_list, "tid",
			   "sample existing threads"),
		OPT_INTEGER('c', "count", &cmd.period, "n",
			    "sample every n events"),
		OPT_INTEGER('F', "freq", &cmd.freq, "hz",
			    "sample at this frequency (default 4000)"),
		OPT_CALLBACK_NOARG('g', NULL, &cmd,
				   "record call chains (frame pointers)",
				   record_callgraph),
		OPT_CALLBACK(0, "call-graph", &cmd, "fp",
			     "record call chains with this method",
			     record_callgraph),
		OPT_STRING('o', "output", &cmd.output_name, "file",
			   "output file ('-' for a pipe)"),
		OPT_UINTEGER('m', "mmap-pages", &cmd.mmap_pages, "pages",
			     "ring buffer data pages per CPU (power of two)"),
		OPT_BOOLEAN('i', "no-inherit", &cmd.no_inherit,
			    "do not sample child tasks"),
		OPT_BOOLEAN('R', "raw-samples", &cmd.raw_samples,
			    "raw tracepoint data in samples (always on for tracepoints)"),
		OPT_STRING('k', "clockid", &cmd.clock_name, "clockid",
			   "time stamps from this clock (monotonic, realtime, ...), with a time-of-day reference in the file"),
		OPT_BOOLEAN('q', "quiet", &cmd.quiet, "no closing messages"),
		OPT_INCR('v', "verbose", &cmd.verbose, "say more"),
		OPT_END()
	};
	int ret;

	cmd.orig_argc = argc;
	cmd.orig_argv = malloc((argc + 1) * sizeof(*argv));
	if (!cmd.orig_argv)
		return 1;
	memcpy(cmd.orig_argv, argv, (argc + 1) * sizeof(*argv));
	argc = parse_options(argc - 1, argv + 1, options, record_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	cmd.argv = argc ? argv + 1 : NULL;
	record_check_options(&cmd, options);
	cmd.evlist = perf_evlist__new();
	if (!cmd.evlist)
		return 1;
	if (record_parse_events(&cmd) || record_setup_maps(&cmd)) {
		perf_evlist__delete(cmd.evlist);
		return 1;
	}
	record_setup_attrs(&cmd);
	if (build_id_tracker__init(&cmd.build_ids,
				   cmd.evlist->first->attr.sample_type)) {
		perf_evlist__delete(cmd.evlist);
		return 1;
	}
	if (cmd.verbose)
		fprintf(stderr, "Using %s\n", perf_backend_name(perf_backend()));
	record_install_signals();
	ret = record_run(&cmd);
	build_id_tracker__exit(&cmd.build_ids);
	record_rings__unmap(&cmd.rings);
	perf_evlist__delete(cmd.evlist);
	return ret;
}
