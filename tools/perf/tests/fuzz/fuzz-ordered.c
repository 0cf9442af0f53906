// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the time-ordered delivery of records, on records
 * the input makes up.  The input is the data of a pipe-format file
 * whose two events (ids 1 and 2, software, with sample_id_all) sample
 * IP, TID, TIME, ID and CPU, so most of it parses as timed records of
 * them, FINISHED_ROUNDs and records of other types.
 *
 * Besides crashes and hangs this checks what the order promises: the
 * times delivered never go back, except once for each record that came
 * after its time had been flushed (stats.nr_unordered).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "../../util/data.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define ORDER_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU)

struct order_check {
	u64 last;		/* the last time delivered */
	u64 backwards;		/* times lower than the one before */
};

static int check_order(struct perf_session *s, const union perf_event *ev,
		       u64 offset, const struct perf_sample *sample,
		       struct perf_session_attr *attr, void *ctx)
{
	struct order_check *c = ctx;

	if (!sample || !sample->time || sample->time == UINT64_MAX)
		return 0;
	if (sample->time < c->last)
		c->backwards++;
	c->last = sample->time;
	return 0;
}

/* The file: the two attrs in pipe format, then the input. */
static int write_file(int fd, const u8 *data, size_t size)
{
	struct perf_counter_attr a;
	struct perf_data_writer w;
	u64 id;
	int ret, i;

	ret = perf_data_writer__open_fd(&w, fd, true);
	for (i = 1; i <= 2 && !ret; i++) {
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.size = sizeof(a);
		a.config = i == 1 ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
		a.sample_period = 1;
		a.sample_type = ORDER_SAMPLE_TYPE;
		a.read_format = PERF_FORMAT_ID;
		a.sample_id_all = 1;
		id = i;
		ret = perf_data_writer__add_attr(&w, &a, NULL, &id, 1);
	}
	ret = ret ?: perf_data_writer__begin(&w);
	ret = ret ?: perf_data_writer__write(&w, data, size);
	return perf_data_writer__finish(&w) ?: ret;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct order_check c = { 0 };
	struct perf_session s = { .fd = -1 };
	char path[64];
	int fd = memfd_create("perf-fuzz-ordered", 0);

	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!write_file(fd, data, size) && !perf_session__open(&s, path)) {
		perf_session__process_events_ordered(&s, check_order, &c);
		if (c.backwards > s.stats.nr_unordered) {
			fprintf(stderr, "times went back %llu times, %llu records unordered\n",
				(unsigned long long)c.backwards,
				(unsigned long long)s.stats.nr_unordered);
			abort();
		}
	}
	perf_session__close(&s);
	close(fd);
	return 0;
}
