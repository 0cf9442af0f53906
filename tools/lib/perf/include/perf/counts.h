/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_COUNTS_H
#define __PERF_COUNTS_H

#include <perf/types.h>

/* One counter's values as read() returned them. */
struct perf_counts_values {
	u64 val;
	u64 ena;	/* time enabled, ns (0 when not asked for) */
	u64 run;	/* time running, ns (0 when not asked for) */
	u64 id;
	u64 lost;
};

/* How a scaled count came about; what perf stat shows instead of a number. */
enum perf_count_state {
	PERF_COUNT_OK,		/* counted the whole time, or scaled */
	PERF_COUNT_NOT_COUNTED,	/* enabled but never got on the PMU */
};

struct perf_scaled_count {
	u64 val;		/* val * ena / run, rounded to nearest */
	double run_pct;		/* run / ena * 100; 100 when not multiplexed */
	enum perf_count_state state;
	bool scaled;		/* run < ena: the value is an estimate */
};

void perf_counts__scale(const struct perf_counts_values *v, bool has_times,
			struct perf_scaled_count *out);
void perf_counts__add(struct perf_counts_values *sum,
		      const struct perf_counts_values *v);

size_t perf_read_format__size(u64 read_format, int nr_members);
int perf_read_format__parse(const void *buf, size_t len, u64 read_format,
			    struct perf_counts_values *values, int max_values);

#endif /* __PERF_COUNTS_H */
