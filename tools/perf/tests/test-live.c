// SPDX-License-Identifier: GPL-2.0
/*
 * Counters on the running kernel, through the selected backend.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <perf/backend.h>
#include <perf/evlist.h>
#include <perf/parse-events.h>
#include <perf/strerror.h>
#include <perf/tracefs.h>
#include "tests.h"

static struct perf_evlist *open_self(struct test_ctx *ctx, const char *events,
				     u64 read_format, int *err)
{
	struct perf_evlist *evlist = perf_evlist__new();
	/* Thread id 0: the calling thread. */
	struct perf_thread_map *threads = perf_thread_map__new_tid(0);
	struct parse_events_error perr;
	struct perf_evsel *pos, *first;
	char msg[512];

	perf_evlist__set_maps(evlist, perf_cpu_map__new_any(), threads);
	*err = parse_events(evlist, events, &perr);
	if (*err) {
		pr_test(ctx, "parse: %s\n", perr.msg);
		return evlist;
	}
	perf_evlist__for_each(evlist, pos) {
		pos->attr.read_format = read_format;
		pos->attr.disabled = 1;
		pos->attr.exclude_kernel = 0;
	}
	*err = perf_evlist__open(evlist, false);
	first = perf_evlist__first(evlist);
	if (*err && first)
		pr_test(ctx, "open: %s\n",
			perf_strerror_open(-*err, first, msg, sizeof(msg)));
	return evlist;
}

static volatile unsigned long sink;

static void spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

int test__live_task_clock(struct test_ctx *ctx)
{
	u64 fmt = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		  PERF_FORMAT_ID;
	struct perf_counts_values v, v2;
	struct perf_evlist *evlist;
	struct perf_evsel *e;
	u64 id = 0;
	int err;

	evlist = open_self(ctx, "task-clock", fmt, &err);
	if (err == -EACCES || err == -EPERM)
		return test_skip(ctx, "no permission to count (%s)",
				 perf_backend_paranoid_file());
	TEST_ASSERT(ctx, !err, "task-clock did not open: %s", strerror(-err));
	e = perf_evlist__first(evlist);
	TEST_ASSERT(ctx, !perf_evsel__read(e, 0, 0, &v) && v.val == 0 &&
		    v.run == 0, "disabled counter counted %llu",
		    (unsigned long long)v.val);
	perf_evlist__enable(evlist);
	spin(20000000);
	perf_evlist__disable(evlist);
	TEST_ASSERT(ctx, !perf_evsel__read(e, 0, 0, &v), "read failed");
	pr_test(ctx, "val %llu ena %llu run %llu id %llu\n",
		(unsigned long long)v.val, (unsigned long long)v.ena,
		(unsigned long long)v.run, (unsigned long long)v.id);
	TEST_ASSERT(ctx, v.val > 0 && v.run > 0 && v.ena >= v.run,
		    "enabled %llu running %llu",
		    (unsigned long long)v.ena, (unsigned long long)v.run);
	ioctl(PERF_EVSEL_FD(e, 0, 0), PERF_COUNTER_IOC_ID, &id);
	TEST_ASSERT(ctx, id && id == v.id, "ID ioctl %llu vs read %llu",
		    (unsigned long long)id, (unsigned long long)v.id);
	/* Disabled: nothing more is counted. */
	spin(1000000);
	TEST_ASSERT(ctx, !perf_evsel__read(e, 0, 0, &v2) && v2.val == v.val,
		    "counted while disabled");
	TEST_ASSERT(ctx, !perf_evsel__ioctl(e, PERF_COUNTER_IOC_RESET, 0) &&
		    !perf_evsel__read(e, 0, 0, &v2) && v2.val == 0,
		    "reset left %llu", (unsigned long long)v2.val);
	perf_evlist__delete(evlist);
	return TEST_OK;
}

/* getppid is counted exactly: the tracepoint fires once per call. */
int test__live_syscall_count(struct test_ctx *ctx)
{
	struct perf_counts_values v;
	struct perf_evlist *evlist;
	int err, i;

	if (!tracefs_path() ||
	    tracefs_event_id("syscalls", "sys_enter_getppid") < 0)
		return test_skip(ctx, "no syscalls:sys_enter_getppid tracepoint (tracefs missing or no CONFIG_FTRACE_SYSCALLS)");
	evlist = open_self(ctx, "syscalls:sys_enter_getppid",
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING, &err);
	if (err == -EACCES || err == -EPERM)
		return test_skip(ctx, "no permission for tracepoints (run as root)");
	if (err == -ENOENT && perf_backend() == PERF_BACKEND_COUNTER)
		return test_skip(ctx, "this kernel's perf_counter has no tracepoint counters yet");
	TEST_ASSERT(ctx, !err, "open failed: %s", strerror(-err));
	perf_evlist__enable(evlist);
	for (i = 0; i < 1234; i++)
		syscall(SYS_getppid);
	perf_evlist__disable(evlist);
	TEST_ASSERT(ctx, !perf_evsel__read(perf_evlist__first(evlist), 0, 0, &v), "read");
	TEST_ASSERT(ctx, v.val == 1234, "counted %llu getppid calls, made 1234",
		    (unsigned long long)v.val);
	perf_evlist__delete(evlist);
	return TEST_OK;
}

/*
 * perf list keeps a hardware event when the kernel can count it: each
 * one it keeps opens by name on this thread (or is refused for
 * permission only, or is busy), and each one it leaves out fails with
 * ENOENT or EOPNOTSUPP, what a kernel answers for an event it does not
 * have.  Without a PMU none is kept, and each must fail so: cycles is
 * left out exactly when it cannot be opened.
 */
int test__live_hw_events(struct test_ctx *ctx)
{
	struct perf_evlist *evlist;
	int i, err, probe, kept = 0;
	bool listed;

	for (i = 0; i < perf_nr_hw_symbols; i++) {
		const struct perf_event_symbol *s = &perf_hw_symbols[i];

		listed = perf_event_supported(s->type, s->config, &probe);
		evlist = open_self(ctx, s->name, 0, &err);
		perf_evlist__delete(evlist);
		pr_test(ctx, "%s: %s (%s); opening it: %s\n", s->name,
			listed ? "listed" : "not listed",
			probe ? strerror(probe) : "opened",
			err ? strerror(-err) : "opened");
		if (!listed) {
			TEST_ASSERT(ctx, err == -ENOENT || err == -EOPNOTSUPP,
				    "%s is not listed, yet opening it says: %s",
				    s->name, err ? strerror(-err) : "opened");
			continue;
		}
		kept++;
		TEST_ASSERT(ctx, !err || err == -EACCES || err == -EPERM ||
			    err == -EBUSY, "%s is listed, yet opening it says: %s",
			    s->name, strerror(-err));
	}
	pr_test(ctx, "%d of %d hardware events listed (%s)\n", kept,
		perf_nr_hw_symbols, perf_backend_name(perf_backend()));
	return TEST_OK;
}

int test__backend(struct test_ctx *ctx)
{
	bool ours = access(PERF_COUNTER_PARANOID_FILE, F_OK) == 0;
	const char *env = getenv(PERF_BACKEND_ENV);

	if (env && *env)
		return test_skip(ctx, "%s is set", PERF_BACKEND_ENV);
	TEST_ASSERT(ctx, perf_backend() ==
		    (ours ? PERF_BACKEND_COUNTER : PERF_BACKEND_EVENT),
		    "backend %s chosen", perf_backend_name(perf_backend()));
	pr_test(ctx, "backend: %s\n", perf_backend_name(perf_backend()));
	return TEST_OK;
}

/*
 * Open errors name the paranoid file of the backend in use; refused raw
 * tracepoint samples say they need the lowest level, and how to set it.
 */
int test__open_advice(struct test_ctx *ctx)
{
	const char *file = perf_backend_paranoid_file();
	struct perf_evsel evsel = { .name = (char *)"sched:sched_switch" };
	char msg[1024];

	evsel.attr.type = PERF_TYPE_TRACEPOINT;
	evsel.attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	perf_strerror_open(EPERM, &evsel, msg, sizeof(msg));
	TEST_ASSERT(ctx, strstr(msg, file), "no %s in: %s", file, msg);
	TEST_ASSERT(ctx, strstr(msg, "sched:sched_switch"), "no event in: %s", msg);
	if (perf_backend_paranoid() > -1) {
		TEST_ASSERT(ctx, strstr(msg, "raw records"), "not about raw records: %s", msg);
		TEST_ASSERT(ctx, strstr(msg, "echo -1 >"), "no way out: %s", msg);
	}

	/* Counting a tracepoint needs no raw data: the general advice. */
	evsel.attr.sample_type = 0;
	perf_strerror_open(EACCES, &evsel, msg, sizeof(msg));
	TEST_ASSERT(ctx, strstr(msg, file), "no %s in: %s", file, msg);
	TEST_ASSERT(ctx, !strstr(msg, "raw records"), "raw advice for counting: %s", msg);
	return TEST_OK;
}
