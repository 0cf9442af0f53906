// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat: count events for a command, processes, threads or CPUs.
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
#include "util/parse-options.h"
#include "util/stat.h"
#include "util/target.h"
#include "util/workload.h"

#define STAT_DEFAULT_EVENTS \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles," \
	"instructions,branches,branch-misses"

struct stat_cmd {
	struct target target;
	bool no_aggr;
	int repeat;
	int runs_done;
	int interval_ms;
	const char *csv_sep;
	const char *output_name;
	bool no_inherit;
	int verbose;

	struct perf_evlist *evlist;
	const char **argv;		/* the workload, or NULL */
	FILE *out;
	struct stat_value *values;	/* [evsel][slot] */
	struct stats *run_stats;	/* [evsel][slot] */
	struct perf_counts_values *prev;	/* [evsel][slot], for -I */
	int nr_slots;
	struct stats elapsed;
	struct workload wl;
	bool have_workload_rusage;
};

static volatile sig_atomic_t stat_done;
static volatile sig_atomic_t stat_signal;

static void stat_sig_handler(int sig)
{
	stat_done = 1;
	stat_signal = sig;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int stat_setup_maps(struct stat_cmd *cmd)
{
	int err = target__setup_maps(&cmd->target, cmd->evlist,
				     TARGET_TASKS_ANY_CPU, "stat");

	if (!err)
		cmd->nr_slots = cmd->no_aggr ? perf_cpu_map__nr(perf_evlist__cpus(cmd->evlist)) : 1;
	return err;
}

static bool stat_counts_workload_only(const struct stat_cmd *cmd)
{
	return cmd->argv && !target__has_cpus(&cmd->target) &&
	       !target__has_tasks(&cmd->target);
}

static void stat_setup_attrs(struct stat_cmd *cmd)
{
	struct perf_evsel *pos;

	perf_evlist__for_each(cmd->evlist, pos) {
		struct perf_counter_attr *attr = &pos->attr;

		attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				    PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr->inherit = !cmd->no_inherit;
		attr->sample_period = 0;
		attr->disabled = 1;
		/* Count the command from its exec, not perf's own set-up. */
		attr->enable_on_exec = stat_counts_workload_only(cmd);
	}
}

static int stat_alloc_tables(struct stat_cmd *cmd)
{
	size_t n = (size_t)perf_evlist__nr_entries(cmd->evlist) * cmd->nr_slots;

	cmd->values = calloc(n, sizeof(*cmd->values));
	cmd->run_stats = calloc(n, sizeof(*cmd->run_stats));
	cmd->prev = calloc(n, sizeof(*cmd->prev));
	return cmd->values && cmd->run_stats && cmd->prev ? 0 : -ENOMEM;
}

/*
 * Without the right to count the kernel (paranoid level 2, not root),
 * count user space only, as Linux perf does, instead of failing.
 */
static bool stat_fallback_to_user(struct stat_cmd *cmd, int err)
{
	if (!perf_evlist__exclude_kernel_on_eperm(cmd->evlist, err))
		return false;
	if (cmd->verbose)
		fprintf(stderr, "perf stat: no permission to count the kernel, counting user space only\n");
	return true;
}

/* Report a fatal open error; unsupported events are not fatal. */
static int stat_open(struct stat_cmd *cmd)
{
	struct perf_evsel *pos;
	char msg[1024];
	int err = perf_evlist__open(cmd->evlist, true);

	if (err && stat_fallback_to_user(cmd, err))
		err = perf_evlist__open(cmd->evlist, true);

	if (!err)
		return 0;
	perf_evlist__for_each(cmd->evlist, pos) {
		if (pos->open_errno && !perf_errno_unsupported(pos->open_errno) &&
		    pos->open_errno != EINVAL) {
			fprintf(stderr, "Error:\n%s\n",
				perf_strerror_open(pos->open_errno, pos, msg,
						   sizeof(msg)));
			break;
		}
	}
	return err;
}

/* Sum one evsel's counts into a slot (one CPU index, or all). */
static void stat_slot_counts(struct stat_cmd *cmd, struct perf_evsel *evsel,
			     int slot, struct perf_counts_values *sum)
{
	perf_evsel__sum(evsel, cmd->no_aggr ? slot : -1, sum);
}

static int slot_cpu(struct stat_cmd *cmd, int slot)
{
	return cmd->no_aggr ? perf_cpu_map__cpu(perf_evlist__cpus(cmd->evlist), slot) : -1;
}

/*
 * Turn raw counts into printable values.  With @delta, the values since
 * the previous call (interval mode) are used.
 */
static void stat_collect(struct stat_cmd *cmd, bool delta, bool accumulate)
{
	struct perf_evsel *pos;
	int s;

	perf_evlist__for_each(cmd->evlist, pos) {
		for (s = 0; s < cmd->nr_slots; s++) {
			int i = pos->idx * cmd->nr_slots + s;
			struct stat_value *v = &cmd->values[i];
			struct perf_counts_values c, *prev = &cmd->prev[i];

			stat_slot_counts(cmd, pos, s, &c);
			if (delta) {
				struct perf_counts_values now = c;

				c.val -= prev->val;
				c.ena -= prev->ena;
				c.run -= prev->run;
				*prev = now;
			}
			v->evsel = pos;
			v->cpu = slot_cpu(cmd, s);
			v->supported = pos->open_errno == 0;
			v->run_ns = c.run;
			perf_counts__scale(&c, true, &v->count);
			if (accumulate && v->supported &&
			    v->count.state == PERF_COUNT_OK)
				stats__update(&cmd->run_stats[i], v->count.val);
			v->mean = accumulate ? stats__mean(&cmd->run_stats[i]) :
					       v->count.val;
			v->rel_stddev_pct =
				stats__rel_stddev_pct(&cmd->run_stats[i]);
		}
	}
}

static void stat_print_values(struct stat_cmd *cmd, double elapsed_ns,
			      const char *prefix)
{
	struct stat_output o = {
		.out = cmd->out, .csv_sep = cmd->csv_sep,
		.per_cpu = cmd->no_aggr, .run_count = cmd->repeat,
		.interval_prefix = prefix,
	};
	int nr = perf_evlist__nr_entries(cmd->evlist) * cmd->nr_slots, i;
	struct stat_metric m;

	for (i = 0; i < nr; i++) {
		stat__metric(&cmd->values[i], cmd->values, nr, elapsed_ns, &m);
		stat__print_value(&o, &cmd->values[i], &m);
	}
}

static void stat_print_header(struct stat_cmd *cmd)
{
	FILE *out = cmd->out;
	const char **a;

	const struct target *t = &cmd->target;

	if (cmd->csv_sep)
		return;
	fprintf(out, "\n Performance counter stats for ");
	if (t->system_wide && !t->cpu_list) {
		fprintf(out, "'system wide'");
	} else if (t->cpu_list) {
		fprintf(out, "'CPU(s) %s'", t->cpu_list);
	} else if (t->pid_list) {
		fprintf(out, "process id '%s'", t->pid_list);
	} else if (t->tid_list) {
		fprintf(out, "thread id '%s'", t->tid_list);
	} else {
		fprintf(out, "'");
		for (a = cmd->argv; *a; a++)
			fprintf(out, "%s%s", a == cmd->argv ? "" : " ", *a);
		fprintf(out, "'");
	}
	if (cmd->runs_done > 1)
		fprintf(out, " (%d runs)", cmd->runs_done);
	fprintf(out, ":\n\n");
}

static void stat_print_footer(struct stat_cmd *cmd)
{
	FILE *out = cmd->out;
	double secs = stats__mean(&cmd->elapsed) / 1e9;
	const struct rusage *ru = &cmd->wl.rusage;

	if (cmd->csv_sep)
		return;
	fputc('\n', out);
	if (cmd->repeat > 1)
		fprintf(out, "%18.6f +- %.6f seconds time elapsed  ( +- %5.2f%% )\n",
			secs, stats__stddev_of_mean(&cmd->elapsed) / 1e9,
			stats__rel_stddev_pct(&cmd->elapsed));
	else
		fprintf(out, "%18.9f seconds time elapsed\n", secs);
	if (cmd->have_workload_rusage && cmd->repeat <= 1) {
		fprintf(out, "\n%18.9f seconds user\n%18.9f seconds sys\n",
			ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6,
			ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6);
	}
	fputc('\n', out);
}

/* True while at least one targeted thread still runs (not a zombie). */
static bool stat_targets_alive(struct stat_cmd *cmd)
{
	return perf_thread_map__any_alive(perf_evlist__threads(cmd->evlist));
}

static void stat_print_interval(struct stat_cmd *cmd, double start_ns,
				double *last_ns)
{
	double now = now_ns();
	char prefix[64];
	double since = (now - start_ns) / 1e9;

	perf_evlist__read(cmd->evlist);
	stat_collect(cmd, true, false);
	snprintf(prefix, sizeof(prefix), "%6lu.%09lu", (unsigned long)since,
		 (unsigned long)((since - (unsigned long)since) * 1e9));
	stat_print_values(cmd, now - *last_ns, prefix);
	fflush(cmd->out);
	*last_ns = now;
}

/* Sleep for up to @ms, returning early on a signal. */
static void stat_nap(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Until the next interval is due, at most 100 ms: the exit of watched
 * tasks is polled.  The workload's exit (SIGCHLD) ends the nap early.
 */
static int stat_nap_ms(const struct stat_cmd *cmd, double next_ns)
{
	double left = next_ns - now_ns();

	if (!cmd->interval_ms || left >= 100e6)
		return 100;
	return left > 0 ? (int)(left / 1e6) + 1 : 0;
}

/*
 * Wait for the end of the measurement: the workload's exit, a signal, or
 * (when watching existing tasks) the exit of all of them.  Prints
 * intervals meanwhile.
 */
static void stat_wait(struct stat_cmd *cmd, double start_ns)
{
	double last = start_ns, next = start_ns + cmd->interval_ms * 1e6;
	bool watch_targets = !cmd->argv && target__has_tasks(&cmd->target);

	for (;;) {
		if (cmd->argv && workload__poll(&cmd->wl))
			break;
		if (stat_done || (watch_targets && !stat_targets_alive(cmd)))
			break;
		if (cmd->interval_ms && now_ns() >= next) {
			stat_print_interval(cmd, start_ns, &last);
			next += cmd->interval_ms * 1e6;
		}
		if (cmd->argv && !cmd->interval_ms) {
			bool intr = false;

			workload__wait(&cmd->wl, &intr);
			continue;	/* a signal is passed on below */
		}
		stat_nap(stat_nap_ms(cmd, next));
	}
	if (stat_done && cmd->argv && !cmd->wl.reaped) {
		/* Like a shell: the command gets the signal we got. */
		kill(cmd->wl.pid, stat_signal ? stat_signal : SIGINT);
		workload__wait(&cmd->wl, NULL);
	}
	if (cmd->interval_ms)
		stat_print_interval(cmd, start_ns, &last);
}

/* One measurement: open, run, read, close.  Returns 0 or -errno. */
static int stat_run_once(struct stat_cmd *cmd)
{
	double start, last;
	int err;

	if (cmd->argv) {
		err = workload__prepare(&cmd->wl, cmd->argv, 0);
		if (err) {
			fprintf(stderr, "perf stat: cannot fork: %s\n",
				strerror(-err));
			return err;
		}
		if (stat_counts_workload_only(cmd)) {
			err = perf_evlist__set_workload(cmd->evlist, cmd->wl.pid);
			if (err)
				goto out_kill;
		}
	}
	err = stat_open(cmd);
	if (err)
		goto out_kill;
	if (!stat_counts_workload_only(cmd))
		perf_evlist__enable(cmd->evlist);
	start = now_ns();
	if (cmd->argv) {
		err = workload__start(&cmd->wl);
		if (err) {
			fprintf(stderr, "perf stat: cannot run '%s': %s\n",
				cmd->argv[0], strerror(-err));
			perf_evlist__close(cmd->evlist);
			return err;
		}
	}
	stat_wait(cmd, start);
	last = now_ns();
	perf_evlist__disable(cmd->evlist);
	perf_evlist__read(cmd->evlist);
	perf_evlist__close(cmd->evlist);
	stats__update(&cmd->elapsed, last - start);
	cmd->have_workload_rusage = cmd->argv != NULL;
	if (!cmd->interval_ms)
		stat_collect(cmd, false, true);
	return 0;
out_kill:
	if (cmd->argv)
		workload__kill(&cmd->wl);
	return err;
}

static const char * const stat_usage[] = {
	"perf stat [<options>] [<command>]",
	NULL
};

static int stat_check_options(struct stat_cmd *cmd,
			      const struct option *options)
{
	const char *why;

	target__default(&cmd->target, cmd->argv != NULL);
	why = target__check(&cmd->target);

	if (why)
		usage_with_options_msg(stat_usage, options, "%s", why);
	if (cmd->no_aggr && !target__has_cpus(&cmd->target))
		usage_with_options_msg(stat_usage, options,
				       "-A/--no-aggr needs -a or -C");
	if (cmd->repeat < 1)
		usage_with_options_msg(stat_usage, options,
				       "-r needs a positive count");
	if (cmd->repeat > 1 && !cmd->argv)
		usage_with_options_msg(stat_usage, options,
				       "-r needs a command to repeat");
	if (cmd->interval_ms < 0 ||
	    (cmd->interval_ms > 0 && cmd->interval_ms < 10))
		usage_with_options_msg(stat_usage, options,
				       "-I needs at least 10 ms");
	if (cmd->interval_ms && cmd->repeat > 1)
		usage_with_options_msg(stat_usage, options,
				       "-I and -r cannot be combined");
	return 0;
}

/* Only there to cut a nap short when the workload exits. */
static void stat_child_handler(int sig)
{
	(void)sig;
}

static void stat_install_signals(void)
{
	struct sigaction sa = { .sa_handler = stat_sig_handler };
	struct sigaction child = { .sa_handler = stat_child_handler };

	/* No SA_RESTART: waits must return so we can stop. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &child, NULL);
}

static int stat_main(struct stat_cmd *cmd)
{
	int run, err;

	err = target__parse_events(&cmd->target, cmd->evlist,
				   STAT_DEFAULT_EVENTS);
	if (!err)
		err = stat_setup_maps(cmd);
	if (err)
		return 1;
	stat_setup_attrs(cmd);
	if (stat_alloc_tables(cmd))
		return 1;
	if (cmd->verbose)
		fprintf(stderr, "Using %s\n", perf_backend_name(perf_backend()));
	stat_install_signals();
	/* Linux perf's heading, with the CPU column of -A. */
	if (cmd->interval_ms && !cmd->csv_sep)
		fprintf(cmd->out, "#           time %s counts unit events\n",
			cmd->no_aggr ? "CPU                   " :
				       "           ");
	for (run = 0; run < cmd->repeat && !stat_done; run++) {
		cmd->runs_done = run + 1;
		err = stat_run_once(cmd);
		if (err)
			return cmd->wl.exec_errno ? 127 : 1;
	}
	if (!cmd->interval_ms) {
		stat_print_header(cmd);
		stat_print_values(cmd, stats__mean(&cmd->elapsed), NULL);
		stat_print_footer(cmd);
	}
	return cmd->argv ? workload__exit_code(&cmd->wl) : 0;
}

int cmd_stat(int argc, const char **argv)
{
	struct stat_cmd cmd = { .repeat = 1 };
	struct option target_opts[TARGET_OPTIONS_SIZE];
	const struct option options[] = {
		OPT_CALLBACK('e', "event", &cmd.target, "event",
			     "event selector, see 'perf list'",
			     target__add_event),
		OPT_TABLE(target_opts),
		OPT_BOOLEAN('A', "no-aggr", &cmd.no_aggr,
			    "show counts per CPU"),
		OPT_INTEGER('r', "repeat", &cmd.repeat, "n",
			    "repeat the command and show mean and stddev"),
		OPT_INTEGER('I', "interval-print", &cmd.interval_ms, "msec",
			    "print counts every msec milliseconds"),
		OPT_STRING('x', "field-separator", &cmd.csv_sep, "separator",
			   "print counts as CSV with this separator"),
		OPT_STRING('o', "output", &cmd.output_name, "file",
			   "write the counts to this file"),
		OPT_BOOLEAN('i', "no-inherit", &cmd.no_inherit,
			    "do not count child tasks"),
		OPT_INCR('v', "verbose", &cmd.verbose,
			 "say more (e.g. which kernel interface is used)"),
		OPT_END()
	};
	int ret;

	target__options(&cmd.target, target_opts);
	argc = parse_options(argc - 1, argv + 1, options, stat_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	cmd.argv = argc ? argv + 1 : NULL;
	stat_check_options(&cmd, options);
	cmd.out = stderr;
	if (cmd.output_name) {
		cmd.out = fopen(cmd.output_name, "w");
		if (!cmd.out) {
			fprintf(stderr, "perf stat: cannot create '%s': %s\n",
				cmd.output_name, strerror(errno));
			return 1;
		}
	}
	cmd.evlist = perf_evlist__new();
	if (!cmd.evlist)
		return 1;
	ret = stat_main(&cmd);
	if (cmd.out != stderr)
		fclose(cmd.out);
	perf_evlist__delete(cmd.evlist);
	free(cmd.values);
	free(cmd.run_stats);
	free(cmd.prev);
	return ret;
}
