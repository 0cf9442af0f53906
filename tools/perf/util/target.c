// SPDX-License-Identifier: GPL-2.0
/*
 * Targets and events as perf stat and perf record take them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <perf/parse-events.h>
#include "strvec.h"
#include "target.h"

/* OPT_CALLBACK for -e: the option's value is the struct target. */
int target__add_event(const struct option *opt, const char *arg, int unset)
{
	struct target *t = opt->value;

	(void)unset;
	if (t->nr_events == (int)ARRAY_SIZE(t->events)) {
		fprintf(stderr, "  Error: too many -e options (at most %d)\n",
			(int)ARRAY_SIZE(t->events));
		return -1;
	}
	t->events[t->nr_events++] = arg;
	return 0;
}

static int last_event(const struct target *t, const char *opt)
{
	if (t->nr_events)
		return t->nr_events - 1;
	fprintf(stderr, "  Error: %s must follow the -e tracepoint it applies to\n",
		opt);
	return -1;
}

int target__add_filter(const struct option *opt, const char *arg, int unset)
{
	struct target *t = opt->value;
	int i = last_event(t, "--filter");

	(void)unset;
	if (i < 0)
		return -1;
	if (t->filters[i]) {
		fprintf(stderr, "  Error: -e %s has two --filter options: join them with &&\n",
			t->events[i]);
		return -1;
	}
	t->filters[i] = arg;
	return 0;
}

int target__exclude_perf(const struct option *opt, const char *arg,
			 int unset)
{
	struct target *t = opt->value;
	int i = last_event(t, "--exclude-perf");

	(void)arg;
	(void)unset;
	if (i < 0)
		return -1;
	t->exclude_perf[i] = true;
	return 0;
}

bool target__has_tasks(const struct target *t)
{
	return t->pid_list || t->tid_list;
}

bool target__has_cpus(const struct target *t)
{
	return t->system_wide || t->cpu_list;
}

/*
 * No command and no target: the whole system, until SIGINT, as with
 * Linux perf.
 */
void target__default(struct target *t, bool has_command)
{
	if (!has_command && !target__has_cpus(t) && !target__has_tasks(t))
		t->system_wide = true;
}

/* A reason the combination makes no sense, or NULL. */
const char *target__check(const struct target *t)
{
	if (t->pid_list && t->tid_list)
		return "-p and -t are exclusive";
	if (target__has_tasks(t) && target__has_cpus(t))
		return "-p/-t follow tasks on any CPU: drop -a/-C";
	return NULL;
}

/*
 * Filters go to the tracepoints that one -e added (its evsels follow
 * @first in the list); an event that is no tracepoint cannot take one.
 */
static int apply_filters(const struct target *t, int i,
			 struct perf_evsel *first)
{
	struct perf_evsel *pos;
	char self[32];

	snprintf(self, sizeof(self), "common_pid != %d", (int)getpid());
	for (pos = first; pos; pos = pos->next) {
		if (pos->attr.type != PERF_TYPE_TRACEPOINT) {
			fprintf(stderr, "  Error: --filter and --exclude-perf need tracepoints; '%s' is not one\n",
				pos->name);
			return -EINVAL;
		}
		if ((t->filters[i] &&
		     perf_evsel__append_filter(pos, t->filters[i])) ||
		    (t->exclude_perf[i] &&
		     perf_evsel__append_filter(pos, self)))
			return -ENOMEM;
	}
	return 0;
}

int target__parse_events(struct target *t, struct perf_evlist *evlist,
			 const char *default_events)
{
	struct parse_events_error err;
	struct perf_evsel *before;
	int i;

	if (!t->nr_events)
		t->events[t->nr_events++] = default_events;
	for (i = 0; i < t->nr_events; i++) {
		before = perf_evlist__last(evlist);
		if (parse_events(evlist, t->events[i], &err)) {
			parse_events_error__print(&err, t->events[i], stderr);
			return -EINVAL;
		}
		if ((t->filters[i] || t->exclude_perf[i]) &&
		    apply_filters(t, i, before ? before->next :
				  perf_evlist__first(evlist)))
			return -EINVAL;
	}
	return 0;
}

/* Name the first CPU of @cpus that is not online, if any. */
static bool cpus_offline(const struct perf_cpu_map *cpus, const char *cmd)
{
	struct perf_cpu_map *online = perf_cpu_map__new_online();
	bool bad = false;
	int i, cpu;

	if (!online)
		return false;
	perf_cpu_map__for_each_cpu(cpu, i, cpus) {
		if (perf_cpu_map__has(online, cpu))
			continue;
		fprintf(stderr, "perf %s: CPU %d is not online (online: ",
			cmd, cpu);
		perf_cpu_map__fprintf(online, stderr);
		fprintf(stderr, ")\n");
		bad = true;
		break;
	}
	perf_cpu_map__put(online);
	return bad;
}

/*
 * CPUs and threads to open counters on.  Without -a/-C/-p/-t the thread
 * map holds one "any" slot that the caller fills with its command's pid.
 */
int target__setup_maps(const struct target *t, struct perf_evlist *evlist,
		       enum target_cpus task_cpus, const char *cmd)
{
	struct perf_cpu_map *cpus = NULL;
	struct perf_thread_map *threads = NULL;
	bool per_cpu = task_cpus == TARGET_TASKS_PER_CPU;

	if (target__has_cpus(t)) {
		cpus = t->cpu_list ? perf_cpu_map__parse(t->cpu_list) :
				     perf_cpu_map__new_online();
		if (!cpus) {
			fprintf(stderr, "perf %s: invalid CPU list '%s' (expected e.g. 0,2-3)\n",
				cmd, t->cpu_list);
			return -EINVAL;
		}
		if (t->cpu_list && cpus_offline(cpus, cmd)) {
			perf_cpu_map__put(cpus);
			return -EINVAL;
		}
		threads = perf_thread_map__new_any();
	} else {
		cpus = per_cpu ? perf_cpu_map__new_online() :
				 perf_cpu_map__new_any();
		if (t->pid_list)
			threads = perf_thread_map__parse_pids(t->pid_list);
		else if (t->tid_list)
			threads = perf_thread_map__parse_tids(t->tid_list);
		else
			threads = perf_thread_map__new_any();
		if (!threads) {
			fprintf(stderr, "perf %s: no such process or thread: '%s'\n",
				cmd, t->pid_list ? t->pid_list : t->tid_list);
			perf_cpu_map__put(cpus);
			return -ESRCH;
		}
	}
	if (!cpus || !threads) {
		perf_cpu_map__put(cpus);
		perf_thread_map__put(threads);
		return -ENOMEM;
	}
	perf_evlist__set_maps(evlist, cpus, threads);
	return 0;
}

void target__push_options(const struct target *t, struct strvec *v)
{
	const struct {
		const char *opt;
		const char *arg;
	} lists[] = {
		{ "-C", t->cpu_list }, { "-p", t->pid_list }, { "-t", t->tid_list },
	};
	size_t i;

	if (t->system_wide)
		strvec__push(v, "-a");
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		if (!lists[i].arg)
			continue;
		strvec__push(v, lists[i].opt);
		strvec__push(v, lists[i].arg);
	}
}

void target__options(struct target *t,
		     struct option opts[TARGET_OPTIONS_SIZE])
{
	const struct option o[TARGET_OPTIONS_SIZE] = {
		OPT_BOOLEAN('a', "all-cpus", &t->system_wide,
			    "system-wide collection from all CPUs"),
		OPT_STRING('C', "cpu", &t->cpu_list, "cpu",
			   "list of CPUs to watch (e.g. 0,2-3)"),
		OPT_STRING('p', "pid", &t->pid_list, "pid",
			   "existing processes (all their threads)"),
		OPT_STRING('t', "tid", &t->tid_list, "tid",
			   "existing threads"),
		OPT_END()
	};

	memcpy(opts, o, sizeof(o));
}
