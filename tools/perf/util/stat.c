// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat arithmetic and output: run statistics, derived metrics and
 * the columns people and scripts read.
 */
#include <math.h>
#include <string.h>
#include "stat.h"

void stats__update(struct stats *s, double value)
{
	double delta;

	s->n++;
	delta = value - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (value - s->mean);
}

double stats__mean(const struct stats *s)
{
	return s->mean;
}

/* The standard error: how far the mean of these runs may be off. */
double stats__stddev_of_mean(const struct stats *s)
{
	if (s->n < 2)
		return 0.0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double stats__rel_stddev_pct(const struct stats *s)
{
	if (s->mean == 0.0)
		return 0.0;
	return 100.0 * stats__stddev_of_mean(s) / s->mean;
}

static bool evsel_is(const struct perf_evsel *e, u32 type, u64 config)
{
	return e->attr.type == type && e->attr.config == config;
}

bool stat__is_clock(const struct perf_evsel *evsel)
{
	return evsel_is(evsel, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       evsel_is(evsel, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

/* The value of another event for the same CPU slot, if it was counted. */
static const struct stat_value *find_peer(const struct stat_value *v,
					  const struct stat_value *all,
					  int nr_all, u32 type, u64 config)
{
	int i;

	for (i = 0; i < nr_all; i++) {
		const struct stat_value *o = &all[i];

		if (o->cpu == v->cpu && o->supported &&
		    o->count.state == PERF_COUNT_OK &&
		    evsel_is(o->evsel, type, config))
			return o;
	}
	return NULL;
}

static void metric_set(struct stat_metric *m, double value, const char *unit)
{
	m->valid = true;
	m->value = value;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
}

/* Events per second of task time, with a K/M/G prefix as needed. */
static void metric_rate(struct stat_metric *m, double count, double clock_ns)
{
	double rate = count * 1e9 / clock_ns;

	if (rate >= 1e9)
		metric_set(m, rate / 1e9, "G/sec");
	else if (rate >= 1e6)
		metric_set(m, rate / 1e6, "M/sec");
	else if (rate >= 1e3)
		metric_set(m, rate / 1e3, "K/sec");
	else
		metric_set(m, rate, "/sec");
}

static void metric_ratio(struct stat_metric *m, const struct stat_value *v,
			 const struct stat_value *all, int nr_all, u64 config,
			 double scale, const char *unit)
{
	const struct stat_value *base = find_peer(v, all, nr_all,
						  PERF_TYPE_HARDWARE, config);

	if (base && base->mean > 0) {
		metric_set(m, scale * v->mean / base->mean, unit);
		m->percent = scale == 100.0;
	}
}

/*
 * The metric shown after '#'.  The clocks give CPU utilization; other
 * software and tracepoint events a rate per second of task-clock; some
 * hardware events a ratio to their natural base.
 */
void stat__metric(const struct stat_value *v, const struct stat_value *all,
		  int nr_all, double elapsed_ns, struct stat_metric *m)
{
	const struct perf_evsel *e = v->evsel;
	const struct stat_value *clock;

	memset(m, 0, sizeof(*m));
	if (!v->supported || v->count.state != PERF_COUNT_OK)
		return;
	if (stat__is_clock(e)) {
		if (elapsed_ns > 0)
			metric_set(m, v->mean / elapsed_ns, "CPUs utilized");
		return;
	}
	clock = find_peer(v, all, nr_all, PERF_TYPE_SOFTWARE,
			  PERF_COUNT_SW_TASK_CLOCK);
	if (!clock)
		clock = find_peer(v, all, nr_all, PERF_TYPE_SOFTWARE,
				  PERF_COUNT_SW_CPU_CLOCK);
	if (e->attr.type == PERF_TYPE_HARDWARE) {
		switch (e->attr.config) {
		case PERF_COUNT_HW_CPU_CYCLES:
			if (clock && clock->mean > 0)
				metric_set(m, v->mean / clock->mean, "GHz");
			return;
		case PERF_COUNT_HW_INSTRUCTIONS:
			metric_ratio(m, v, all, nr_all, PERF_COUNT_HW_CPU_CYCLES,
				     1.0, "insn per cycle");
			return;
		case PERF_COUNT_HW_BRANCH_MISSES:
			metric_ratio(m, v, all, nr_all,
				     PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100.0,
				     "of all branches");
			return;
		case PERF_COUNT_HW_CACHE_MISSES:
			metric_ratio(m, v, all, nr_all,
				     PERF_COUNT_HW_CACHE_REFERENCES, 100.0,
				     "of all cache refs");
			return;
		default:
			break;
		}
	}
	if (clock && clock->mean > 0)
		metric_rate(m, v->mean, clock->mean);
}

static void format_count(const struct stat_value *v, char *buf, size_t size,
			 const char **unit)
{
	*unit = "";
	if (!v->supported) {
		snprintf(buf, size, "<not supported>");
		return;
	}
	if (v->count.state == PERF_COUNT_NOT_COUNTED) {
		snprintf(buf, size, "<not counted>");
		if (stat__is_clock(v->evsel))
			*unit = "msec";
		return;
	}
	if (stat__is_clock(v->evsel)) {
		snprintf(buf, size, "%.2f", v->mean / 1e6);
		*unit = "msec";
		return;
	}
	snprintf(buf, size, "%.0f", v->mean);
}

static void print_csv(const struct stat_output *o, const struct stat_value *v,
		      const struct stat_metric *m, const char *count,
		      const char *unit)
{
	const char *sep = o->csv_sep;
	const struct perf_scaled_count *c = &v->count;
	if (o->interval_prefix)
		fprintf(o->out, "%s%s", o->interval_prefix, sep);
	if (v->cpu >= 0)
		fprintf(o->out, "CPU%d%s", v->cpu, sep);
	fprintf(o->out, "%s%s%s%s%s%s", count, sep, unit, sep,
		v->evsel->name, sep);
	if (o->run_count > 1)
		fprintf(o->out, "%.2f%%%s", v->rel_stddev_pct, sep);
	fprintf(o->out, "%llu%s%.2f%s", (unsigned long long)v->run_ns, sep,
		v->supported ? c->run_pct : 100.0, sep);
	if (m->valid)
		fprintf(o->out, "%.3f%s%s", m->value, sep, m->unit);
	else
		fprintf(o->out, "%s", sep);
	fputc('\n', o->out);
}

void stat__print_value(const struct stat_output *o, const struct stat_value *v,
		       const struct stat_metric *m)
{
	char count[64], prefix[32] = "";
	const char *unit;

	format_count(v, count, sizeof(count), &unit);
	if (o->csv_sep) {
		print_csv(o, v, m, count, unit);
		return;
	}
	if (o->interval_prefix)
		fprintf(o->out, "%s ", o->interval_prefix);
	if (v->cpu >= 0)
		snprintf(prefix, sizeof(prefix), "CPU%d", v->cpu);
	if (o->per_cpu)
		fprintf(o->out, "%-11s", prefix);
	fprintf(o->out, "%18s %-4s %-32s ", count, unit, v->evsel->name);
	if (m->valid && m->percent)
		fprintf(o->out, "# %7.2f%% %-23s", m->value, m->unit);
	else if (m->valid)
		fprintf(o->out, "# %8.3f %-23s", m->value, m->unit);
	else
		fprintf(o->out, "%34s", "");
	if (o->run_count > 1 && v->supported &&
	    v->count.state == PERF_COUNT_OK && v->mean != 0)
		fprintf(o->out, "  ( +- %5.2f%% )", v->rel_stddev_pct);
	if (v->supported && v->count.scaled)
		fprintf(o->out, "  (%.2f%%)", v->count.run_pct);
	fputc('\n', o->out);
}
