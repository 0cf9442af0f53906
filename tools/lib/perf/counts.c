// SPDX-License-Identifier: GPL-2.0
/*
 * Counter values: parsing what read() returns for each read_format, and
 * scaling counts of counters that were multiplexed.
 */
#include <errno.h>
#include <string.h>
#include <perf/counts.h>
#include <linux/perf_counter.h>

/*
 * A multiplexed counter only counted for part of the time it was enabled;
 * extrapolate to the whole enabled time.  The product is done in 128 bits
 * because val * ena overflows 64 bits for long runs of fast counters.
 */
void perf_counts__scale(const struct perf_counts_values *v, bool has_times,
			struct perf_scaled_count *out)
{
	memset(out, 0, sizeof(*out));
	out->run_pct = 100.0;
	out->val = v->val;
	if (!has_times)
		return;
	if (v->run == 0) {
		/* Never got on a PMU (or never enabled): nothing to show. */
		out->state = PERF_COUNT_NOT_COUNTED;
		out->run_pct = 0.0;
		out->val = 0;
		return;
	}
	if (v->run < v->ena) {
		unsigned __int128 p = (unsigned __int128)v->val * v->ena;

		out->val = (u64)((p + v->run / 2) / v->run);
		out->scaled = true;
		out->run_pct = 100.0 * (double)v->run / (double)v->ena;
	}
}

void perf_counts__add(struct perf_counts_values *sum,
		      const struct perf_counts_values *v)
{
	sum->val += v->val;
	sum->ena += v->ena;
	sum->run += v->run;
	sum->lost += v->lost;
}

/*
 * Size of one read() result.  Without GROUP: value, then the optional
 * enabled, running, id, lost.  With GROUP: nr, the optional enabled and
 * running, then per member the value and optional id and lost.
 */
size_t perf_read_format__size(u64 read_format, int nr_members)
{
	size_t per_value = 1, head = 0;

	if (read_format & PERF_FORMAT_ID)
		per_value++;
	if (read_format & PERF_FORMAT_LOST)
		per_value++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head++;
	if (read_format & PERF_FORMAT_GROUP)
		return (1 + head + per_value * nr_members) * sizeof(u64);
	return (head + per_value) * sizeof(u64);
}

/* Take the next u64 out of a read() buffer, failing when it ran out. */
static int take(const u64 **p, const u64 *end, u64 *out)
{
	if (*p >= end)
		return -EINVAL;
	*out = *(*p)++;
	return 0;
}

static int parse_value(const u64 **p, const u64 *end, u64 read_format,
		       struct perf_counts_values *v)
{
	if (take(p, end, &v->val))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_ID) && take(p, end, &v->id))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_LOST) && take(p, end, &v->lost))
		return -EINVAL;
	return 0;
}

static int parse_times(const u64 **p, const u64 *end, u64 read_format,
		       u64 *ena, u64 *run)
{
	*ena = 0;
	*run = 0;
	if ((read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) && take(p, end, ena))
		return -EINVAL;
	if ((read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) && take(p, end, run))
		return -EINVAL;
	return 0;
}

/*
 * Decode a read() result into @values (one per group member, or one).
 * The group's enabled/running times apply to every member.  Returns the
 * number of values, or -EINVAL for a short/inconsistent buffer and
 * -ENOSPC when the group has more members than @max_values.
 */
int perf_read_format__parse(const void *buf, size_t len, u64 read_format,
			    struct perf_counts_values *values, int max_values)
{
	const u64 *p = buf, *end = p + len / sizeof(u64);
	u64 nr = 1, ena, run, i;

	if (max_values < 1)
		return -ENOSPC;
	if ((read_format & PERF_FORMAT_GROUP) && take(&p, end, &nr))
		return -EINVAL;
	if (!(read_format & PERF_FORMAT_GROUP)) {
		memset(values, 0, sizeof(*values));
		if (take(&p, end, &values->val))
			return -EINVAL;
		if (parse_times(&p, end, read_format, &ena, &run))
			return -EINVAL;
		values->ena = ena;
		values->run = run;
		if ((read_format & PERF_FORMAT_ID) && take(&p, end, &values->id))
			return -EINVAL;
		if ((read_format & PERF_FORMAT_LOST) &&
		    take(&p, end, &values->lost))
			return -EINVAL;
		return 1;
	}
	if (nr == 0 || nr > (u64)(end - p))
		return -EINVAL;
	if (nr > (u64)max_values)
		return -ENOSPC;
	if (parse_times(&p, end, read_format, &ena, &run))
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		memset(&values[i], 0, sizeof(values[i]));
		if (parse_value(&p, end, read_format, &values[i]))
			return -EINVAL;
		values[i].ena = ena;
		values[i].run = run;
	}
	return nr;
}
