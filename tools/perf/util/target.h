/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_TARGET_H
#define __PERF_UTIL_TARGET_H

#include <perf/evlist.h>
#include "parse-options.h"

/*
 * What a command watches: all CPUs (-a), some CPUs (-C), processes (-p),
 * threads (-t), or the command it runs; and the -e event strings.
 */
struct target {
	bool system_wide;
	const char *cpu_list;
	const char *pid_list;
	const char *tid_list;
	const char *events[64];
	const char *filters[64];	/* --filter after events[i] */
	bool exclude_perf[64];		/* --exclude-perf after events[i] */
	int nr_events;
};

/* Per-task counting on every CPU, or on "any CPU" following the task. */
enum target_cpus {
	TARGET_TASKS_ANY_CPU,
	TARGET_TASKS_PER_CPU,
};

/*
 * -a, -C, -p and -t, spelt and explained the same in every command that
 * watches a target: fill @opts, then put OPT_TABLE(opts) in the
 * command's options.
 */
#define TARGET_OPTIONS_SIZE	5
void target__options(struct target *t,
		     struct option opts[TARGET_OPTIONS_SIZE]);

struct strvec;

int target__add_event(const struct option *opt, const char *arg, int unset);
/* --filter and --exclude-perf: they apply to the -e given before them. */
int target__add_filter(const struct option *opt, const char *arg, int unset);
int target__exclude_perf(const struct option *opt, const char *arg,
			 int unset);
bool target__has_tasks(const struct target *t);
bool target__has_cpus(const struct target *t);
void target__default(struct target *t, bool has_command);
const char *target__check(const struct target *t);
/* The -a, -C, -p and -t options that give perf record this target. */
void target__push_options(const struct target *t, struct strvec *v);
int target__parse_events(struct target *t, struct perf_evlist *evlist,
			 const char *default_events);
int target__setup_maps(const struct target *t, struct perf_evlist *evlist,
		       enum target_cpus task_cpus, const char *cmd);

#endif /* __PERF_UTIL_TARGET_H */
