/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_STAT_H
#define __PERF_UTIL_STAT_H

#include <stdio.h>
#include <perf/evlist.h>

/* Running mean and variance (Welford), for repeated runs. */
struct stats {
	double n;
	double mean;
	double m2;
};

void stats__update(struct stats *s, double value);
double stats__mean(const struct stats *s);
double stats__stddev_of_mean(const struct stats *s);
double stats__rel_stddev_pct(const struct stats *s);

/* One printed value: an event on one CPU (or all CPUs). */
struct stat_value {
	const struct perf_evsel *evsel;
	int cpu;			/* -1: aggregated over CPUs */
	bool supported;
	struct perf_scaled_count count;	/* the (last) run's scaled value */
	u64 run_ns;			/* time running, for CSV output */
	double mean;			/* mean scaled value over runs */
	double rel_stddev_pct;		/* 0 with a single run */
};

/* A derived metric shown after '#', e.g. "0.95 CPUs utilized". */
struct stat_metric {
	double value;
	char unit[32];
	bool valid;
	bool percent;		/* value is a percentage: "12.34% unit" */
};

bool stat__is_clock(const struct perf_evsel *evsel);
void stat__metric(const struct stat_value *v, const struct stat_value *all,
		  int nr_all, double elapsed_ns, struct stat_metric *m);

struct stat_output {
	FILE *out;
	const char *csv_sep;	/* NULL: human-readable columns */
	bool per_cpu;
	int run_count;
	const char *interval_prefix;	/* time stamp column, or NULL */
};

void stat__print_value(const struct stat_output *o, const struct stat_value *v,
		       const struct stat_metric *m);

#endif /* __PERF_UTIL_STAT_H */
