// SPDX-License-Identifier: GPL-2.0
/*
 * perf record: sample a command, processes, threads or CPUs into
 * perf.data.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <perf/backend.h>
#include <perf/evlist.h>
#include <perf/parse-events.h>
#include <perf/strerror.h>
#include "builtin.h"
#include "util/data.h"
#include "util/event.h"
#include "util/parse-options.h"
#include "util/record.h"
#include "util/record-output.h"
#include "util/regs.h"
#include "util/switch-output.h"
#include "util/target.h"
#include "util/tod.h"
#include "util/workload.h"

#define RECORD_DEFAULT_FREQ 4000
#define RECORD_DEFAULT_PAGES 128

struct record_cmd {
	struct target target;
	int period;
	int freq;
	struct record_callgraph_param callgraph;
	struct record_regs_param regs;
	const char *output_name;
	unsigned int mmap_pages;
	bool no_inherit;
	bool raw_samples;
	bool quiet;
	int verbose;
	bool overwrite;			/* backward rings, read at dumps */
	struct switch_output so;

	const char **argv;
	struct perf_evlist *evlist;
	struct record_rings rings;
	struct record_output out;
	struct workload wl;
	bool default_event;
	const char *clock_name;		/* -k */
	int clockid;			/* -1: the kernel's perf clock */
	bool tod;			/* --tod */
};

static volatile sig_atomic_t record_done;
static volatile sig_atomic_t record_child_exited;

static volatile sig_atomic_t record_signal;
static volatile sig_atomic_t record_switch_asked;

static void record_sig_handler(int sig)
{
	if (sig == SIGCHLD) {
		record_child_exited = 1;
		return;
	}
	if (sig == SIGUSR2) {
		record_switch_asked = 1;
		return;
	}
	record_done = 1;
	record_signal = sig;
}

static int record_callgraph(const struct option *opt, const char *arg,
			    int unset)
{
	struct record_cmd *cmd = opt->value;
	const char *msg;

	if (unset) {
		cmd->callgraph.mode = RECORD_CALLGRAPH_NONE;
		return 0;
	}
	msg = arg ? record_callgraph__parse(arg, &cmd->callgraph) :
		    record_callgraph__default(&cmd->callgraph);
	if (msg) {
		fprintf(stderr, "perf record: %s\n", msg);
		return PARSE_OPT_ERROR_SAID;
	}
	return 0;
}

/* --user-regs[=LIST] and -I/--intr-regs[=LIST] */
static int record_regs_option(const struct option *opt, const char *arg,
			      int unset)
{
	u64 *mask = opt->value;
	char err[128];

	if (unset) {
		*mask = 0;
		return 0;
	}
	if (!regs__parse(arg, mask, stderr, err, sizeof(err)))
		return 0;
	if (*err)
		fprintf(stderr, "perf record: --%s: %s\n", opt->long_name,
			err);
	return PARSE_OPT_ERROR_SAID;
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
	record_callgraph__apply(&cmd->callgraph, a);
	record_regs__apply(&cmd->regs, &cmd->callgraph, a);
	if (perf_evlist__nr_entries(cmd->evlist) > 1)
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
	a->write_backward = cmd->overwrite;
	if (cmd->clockid >= 0) {
		a->use_clockid = 1;
		a->clockid = cmd->clockid;
	}
	/* One event carries the side-band records, the others need not. */
	a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = tracking;
	/* DWARF unwinders read unwind tables in maps that are not code. */
	a->mmap_data = tracking && cmd->callgraph.mode == RECORD_CALLGRAPH_DWARF;
}

static void record_setup_attrs(struct record_cmd *cmd)
{
	struct perf_evsel *pos;

	perf_evlist__for_each(cmd->evlist, pos)
		record_setup_attr(cmd, pos, pos == perf_evlist__first(cmd->evlist));
}

/*
 * "cycles" is the default; without a PMU (virtual machines) fall back to
 * the cpu-clock timer as Linux perf does, saying so.
 */
static int record_fallback(struct record_cmd *cmd)
{
	struct perf_evsel *e = perf_evlist__first(cmd->evlist);

	if (!cmd->default_event || perf_evlist__nr_entries(cmd->evlist) != 1 ||
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
	if (!perf_evlist__exclude_kernel_on_eperm(cmd->evlist, err))
		return false;
	if (!cmd->quiet)
		fprintf(stderr, "perf record: no permission to sample the kernel, sampling user space only\n");
	return true;
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

static int record_drain(struct record_cmd *cmd)
{
	struct record_sink sink = { record_output__write, &cmd->out };
	int n = record_rings__drain(&cmd->rings, &sink, &cmd->out.file);

	if (n > 0)
		n = record_output__round(&cmd->out);
	if (n < 0)
		cmd->out.failed = "writing the file";
	return n < 0 ? n : perf_data_writer__pump(&cmd->out.writer);
}

/* Is the file name to carry the time it was closed? */
static bool record_renames(const struct record_cmd *cmd)
{
	return cmd->so.trigger != SWITCH_OUTPUT_NONE || cmd->so.timestamp;
}

/*
 * A new file: side-band first unless it goes at the end; in overwrite
 * mode the side-band is taken at each dump instead.
 */
static int record_open_file(struct record_cmd *cmd)
{
	int err = record_output__open(&cmd->out, cmd->output_name);

	if (err) {
		fprintf(stderr, "perf record: cannot create '%s': %s\n",
			cmd->output_name, strerror(-err));
		return err;
	}
	if (cmd->overwrite || cmd->out.tail_synthesize)
		return 0;
	err = record_output__synthesize(&cmd->out);
	if (err)
		cmd->out.failed = "synthesizing tasks and mappings";
	return err;
}

/*
 * The file is complete: overwrite mode writes the rings' newest records
 * into it now, otherwise they are there already.
 */
static int record_close_file(struct record_cmd *cmd)
{
	if (cmd->overwrite)
		return record_output__dump(&cmd->out, &cmd->rings);
	return record_output__close(&cmd->out);
}

/* Give the closed file its timestamped name. */
static int record_rename(struct record_cmd *cmd, char *name, size_t len)
{
	int err = switch_output__rotate(&cmd->so, cmd->output_name, name, len);

	if (err)
		fprintf(stderr, "perf record: cannot rename '%s': %s\n",
			cmd->output_name, strerror(-err));
	return err;
}

/* --switch-output: close this file, name it, start the next. */
static int record_switch(struct record_cmd *cmd)
{
	char name[PATH_MAX];
	int err;

	record_switch_asked = 0;
	err = record_close_file(cmd);
	if (err)
		return err;
	if (!cmd->quiet)
		fprintf(stderr, "[ perf record: dump data: Woken up %llu times ]\n",
			(unsigned long long)cmd->out.file.wakeups);
	err = record_rename(cmd, name, sizeof(name));
	if (err)
		return err;
	if (!cmd->quiet)
		fprintf(stderr, "[ perf record: Dump %s ]\n", name);
	return record_open_file(cmd);
}

static bool record_switch_due(struct record_cmd *cmd)
{
	return switch_output__due(&cmd->so, record_switch_asked,
				  record_output__bytes(&cmd->out));
}

static bool record_targets_gone(struct record_cmd *cmd)
{
	if (cmd->argv || !target__has_tasks(&cmd->target))
		return false;
	return !perf_thread_map__any_alive(perf_evlist__threads(cmd->evlist));
}

static int record_loop(struct record_cmd *cmd)
{
	int err, ready, timeout;

	while (!record_done) {
		if (cmd->argv && (record_child_exited || cmd->wl.reaped) &&
		    workload__poll(&cmd->wl))
			break;
		if (record_targets_gone(cmd))
			break;
		/* Records waiting for a slow FIFO reader go out soon. */
		timeout = perf_data_writer__has_backlog(&cmd->out.writer) ? 5 : 100;
		timeout = switch_output__timeout(&cmd->so, timeout);
		ready = record_rings__poll(&cmd->rings, timeout, cmd->overwrite);
		if (ready > 0)
			cmd->out.file.wakeups++;
		/* All hung up: the tasks are gone; a child is reaped soon. */
		if (ready == -ENOENT && !cmd->argv)
			record_done = 1;
		else if (ready == -ENOENT)
			workload__wait(&cmd->wl, NULL);
		/* Before the drain: what it writes is newer than the point. */
		err = record_output__tod_poll(&cmd->out, !cmd->overwrite);
		if (!err && !cmd->overwrite)
			err = record_drain(cmd);
		if (!err && record_switch_due(cmd))
			err = record_switch(cmd);
		if (err < 0)
			return err;
	}
	return 0;
}

static void record_install_signals(const struct record_cmd *cmd)
{
	struct sigaction sa = { .sa_handler = record_sig_handler };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	if (cmd->so.trigger == SWITCH_OUTPUT_SIGNAL)
		sigaction(SIGUSR2, &sa, NULL);
}

/* The lost records of all files; the size and samples of the last. */
static void record_report_done(struct record_cmd *cmd, const char *name)
{
	const struct record_stats *all = &cmd->out.total;
	const struct record_stats *last = &cmd->out.file;
	double mb = record_output__bytes(&cmd->out) / 1048576.0;

	if (all->lost)
		fprintf(stderr, "Warning: the kernel lost %llu records in %llu chunks: the buffers were full.\n"
			"Use a larger buffer (-m pages) or a lower rate (-F/-c).\n",
			(unsigned long long)all->lost,
			(unsigned long long)all->lost_chunks);
	if (cmd->quiet)
		return;
	fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
		(unsigned long long)last->wakeups);
	if (name[0])
		fprintf(stderr, "[ perf record: Dump %s ]\n", name);
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		mb, cmd->out.writer.pipe ? "(pipe)" : name[0] ? name : cmd->output_name,
		(unsigned long long)last->samples);
}

static int record_map_rings(struct record_cmd *cmd)
{
	int err = record_rings__mmap(&cmd->rings, cmd->evlist, cmd->mmap_pages,
				     cmd->overwrite);

	if (err)
		fprintf(stderr, "perf record: cannot map the ring buffers: %s%s\n",
			strerror(-err), err == -EPERM || err == -ENOMEM ?
			" (the locked-memory limit is too low: try a smaller -m, or raise ulimit -l or perf_event_mlock_kb)" : "");
	return err;
}

static int record_start(struct record_cmd *cmd)
{
	int err;

	/* Said plainly: a forward buffer instead would not keep the newest. */
	if (cmd->overwrite && !perf_backward_supported()) {
		fprintf(stderr, "perf record: --overwrite needs backward ring buffers (attr.write_backward), which this kernel refuses (EINVAL)\n");
		return -EINVAL;
	}
	if (cmd->argv) {
		err = workload__prepare(&cmd->wl, cmd->argv,
					!strcmp(cmd->output_name, "-") ?
					WORKLOAD_STDOUT_TO_STDERR : 0);
		if (err) {
			fprintf(stderr, "perf record: cannot fork: %s\n",
				strerror(-err));
			return err;
		}
		cmd->out.cmd_pid = cmd->wl.pid;
		if (record_is_workload_only(cmd))
			err = perf_evlist__set_workload(cmd->evlist,
							cmd->wl.pid);
		if (err)
			return err;
	}
	err = record_open(cmd);
	return err ? err : record_map_rings(cmd);
}

/*
 * Counting starts; in overwrite mode before the file is created, so
 * that once it exists (a dump may be asked for) the rings are filling.
 */
static int record_begin(struct record_cmd *cmd)
{
	int err;

	if (cmd->overwrite && !record_is_workload_only(cmd))
		perf_evlist__enable(cmd->evlist);
	err = record_open_file(cmd);
	if (err)
		return err;
	if (!cmd->overwrite && !record_is_workload_only(cmd)) {
		perf_evlist__enable(cmd->evlist);
		/* Tasks started while /proc was read: no FORK tells of them. */
		err = record_output__synthesize_late(&cmd->out);
		if (err) {
			cmd->out.failed = "synthesizing tasks and mappings";
			return err;
		}
	}
	switch_output__arm(&cmd->so);
	return 0;
}

/* Disable, take the last records, let the command go. */
static int record_end(struct record_cmd *cmd, int err)
{
	perf_evlist__disable(cmd->evlist);
	if (!cmd->overwrite) {
		cmd->out.file.wakeups++;	/* the final drain */
		if (!err)
			err = record_drain(cmd);
	}
	if (!err)
		err = record_close_file(cmd);
	/* Like a shell: the command gets the signal that stopped us. */
	if (cmd->argv && record_done && !cmd->wl.reaped)
		kill(cmd->wl.pid, record_signal ? record_signal : SIGTERM);
	if (cmd->argv)
		workload__wait(&cmd->wl, NULL);
	return err;
}

/* Exit status: the command's, else 0, or 1/255 on failures. */
static int record_run(struct record_cmd *cmd)
{
	char name[PATH_MAX] = "";
	int err = record_start(cmd);

	if (!err)
		err = record_begin(cmd);
	if (err && !cmd->out.open)
		goto out_kill;
	if (err)
		goto out_write_error;
	if (cmd->argv) {
		err = workload__start(&cmd->wl);
		if (err) {
			fprintf(stderr, "perf record: cannot run '%s': %s\n",
				cmd->argv[0], strerror(-err));
			perf_data_writer__abort(&cmd->out.writer);
			cmd->out.open = false;
			return 255;
		}
	}
	cmd->out.started = true;
	err = record_end(cmd, record_loop(cmd));
	if (err < 0)
		goto out_write_error;
	if (record_renames(cmd) && record_rename(cmd, name, sizeof(name)))
		return 1;
	record_report_done(cmd, name);
	if (cmd->argv && cmd->wl.reaped)
		return workload__exit_code(&cmd->wl);
	return 0;
out_write_error:
	fprintf(stderr, "perf record: %s '%s' failed: %s\n",
		cmd->out.failed ? cmd->out.failed : "writing",
		cmd->output_name, strerror(-err));
	record_output__close(&cmd->out);
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

/* A pipe cannot be renamed; overwritten rings cannot be measured. */
static void record_check_switch(struct record_cmd *cmd,
				const struct option *options)
{
	struct stat st;

	if (!record_renames(cmd))
		return;
	if (!strcmp(cmd->output_name, "-") ||
	    (!stat(cmd->output_name, &st) && S_ISFIFO(st.st_mode)))
		usage_with_options_msg(record_usage, options,
				       "--switch-output and --timestamp-filename need a file to rename, not a pipe");
	if (cmd->overwrite && cmd->so.trigger == SWITCH_OUTPUT_SIZE)
		usage_with_options_msg(record_usage, options,
				       "--overwrite reads the rings only at a dump, so a size cannot trigger one: use --switch-output=signal or a time");
}

/*
 * --tod: events are stamped with CLOCK_MONOTONIC unless -k says
 * otherwise.  It is one clock for all CPUs, read in the vDSO, and NTP
 * slews it with the time of day, so the points only have steps to
 * catch.  The perf clock (CLOCK_PERF on our kernel) is per CPU: where
 * the TSC is not stable its CPUs differ by milliseconds, more than a
 * point read on one CPU can map.
 */
static void record_choose_clock(struct record_cmd *cmd)
{
	if (cmd->tod && cmd->clockid < 0)
		cmd->clockid = CLOCK_MONOTONIC;
	cmd->out.clockid = cmd->clockid;
	cmd->out.tod = cmd->tod;
}

static void record_check_chains(struct record_cmd *cmd,
				const struct option *options)
{
	const struct record_callgraph_param *cg = &cmd->callgraph;

	if ((cg->user_only || cg->kernel_only) &&
	    cg->mode == RECORD_CALLGRAPH_NONE)
		usage_with_options_msg(record_usage, options,
				       "--user-callchains and --kernel-callchains choose which call chains -g or --call-graph records: add one");
	if (cmd->regs.user && cg->mode == RECORD_CALLGRAPH_DWARF)
		fprintf(stderr, "perf record: warning: --user-regs with --call-graph dwarf samples the registers named, the IP and the stack pointer only: unwinding stops where the CFI needs another\n");
}

static void record_check_options(struct record_cmd *cmd,
				 const struct option *options)
{
	const char *why;

	target__default(&cmd->target, cmd->argv != NULL);
	why = target__check(&cmd->target);

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
	record_choose_clock(cmd);
	record_check_chains(cmd, options);
	if (!cmd->mmap_pages || (cmd->mmap_pages & (cmd->mmap_pages - 1)))
		usage_with_options_msg(record_usage, options,
				       "-m needs a power of two number of pages");
	record_check_switch(cmd, options);
}

/* What every file of the recording carries; 0 or 1 (said why). */
static int record_init_output(struct record_cmd *cmd)
{
	int err;

	cmd->out.evlist = cmd->evlist;
	cmd->out.target = &cmd->target;
	err = record_output__init(&cmd->out);
	if (err)
		fprintf(stderr, "perf record: cannot read the tracepoint formats: %s\n",
			strerror(-err));
	return err ? 1 : 0;
}

int cmd_record(int argc, const char **argv)
{
	struct record_cmd cmd = { .output_name = "perf.data",
				  .mmap_pages = RECORD_DEFAULT_PAGES };
	struct option target_opts[TARGET_OPTIONS_SIZE];
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
		OPT_TABLE(target_opts),
		OPT_INTEGER('c', "count", &cmd.period, "n",
			    "sample every n events"),
		OPT_INTEGER('F', "freq", &cmd.freq, "hz",
			    "sample at this frequency (default 4000)"),
		OPT_CALLBACK_NOARG('g', NULL, &cmd,
				   "record call chains (frame pointers)",
				   record_callgraph),
		OPT_CALLBACK(0, "call-graph", &cmd, "fp|dwarf[,size]",
			     "record call chains: frame pointers, or user stacks of size bytes (default 8192) for DWARF unwinding",
			     record_callgraph),
		OPT_BOOLEAN(0, "user-callchains", &cmd.callgraph.user_only,
			    "call chains of user space only"),
		OPT_BOOLEAN(0, "kernel-callchains", &cmd.callgraph.kernel_only,
			    "call chains of the kernel only"),
		{ .type = OPTION_CALLBACK, .long_name = "user-regs",
		  .value = &cmd.regs.user, .argh = "reg,...",
		  .help = "sample these user registers (all by default; '?' lists them)",
		  .callback = record_regs_option, .optional_arg = true },
		{ .type = OPTION_CALLBACK, .short_name = 'I',
		  .long_name = "intr-regs", .value = &cmd.regs.intr,
		  .argh = "reg,...",
		  .help = "sample these registers at the interrupt (all by default; '?' lists them)",
		  .callback = record_regs_option, .optional_arg = true },
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
		OPT_BOOLEAN(0, "tod", &cmd.tod,
			    "time-of-day correlation: a reference at the start and a point every second or when the clock is set"),
		OPT_BOOLEAN(0, "overwrite", &cmd.overwrite,
			    "rings keep the newest records, written at a dump or the end"),
		{ .type = OPTION_CALLBACK, .long_name = "switch-output",
		  .value = &cmd.so, .argh = "signal|size|time",
		  .help = "new file at SIGUSR2, after SIZE (1M) or every TIME (2s)",
		  .callback = switch_output__option, .optional_arg = true },
		OPT_UINTEGER(0, "switch-max-files", &cmd.so.max_files, "n",
			     "with --switch-output, keep only the newest n files"),
		OPT_BOOLEAN(0, "timestamp-filename", &cmd.so.timestamp,
			    "append the time of the end to the file name"),
		OPT_BOOLEAN(0, "tail-synthesize", &cmd.out.tail_synthesize,
			    "existing tasks and mappings at the end of each file"),
		OPT_BOOLEAN('q', "quiet", &cmd.quiet, "no closing messages"),
		OPT_INCR('v', "verbose", &cmd.verbose, "say more"),
		OPT_END()
	};
	int ret;

	cmd.out.argc = argc;
	cmd.out.argv = malloc((argc + 1) * sizeof(*argv));
	if (!cmd.out.argv)
		return 1;
	memcpy(cmd.out.argv, argv, (argc + 1) * sizeof(*argv));
	target__options(&cmd.target, target_opts);
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
	ret = record_init_output(&cmd);
	if (!ret) {
		if (cmd.verbose)
			fprintf(stderr, "Using %s\n",
				perf_backend_name(perf_backend()));
		record_install_signals(&cmd);
		ret = record_run(&cmd);
	}
	record_output__exit(&cmd.out);
	switch_output__exit(&cmd.so);
	record_rings__unmap(&cmd.rings);
	perf_evlist__delete(cmd.evlist);
	return ret;
}
