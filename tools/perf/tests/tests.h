/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_TESTS_H
#define __PERF_TESTS_H

#include <stdio.h>
#include <perf/types.h>

enum test_result {
	TEST_OK = 0,
	TEST_FAIL = -1,
	TEST_SKIP = -2,
};

struct test_ctx {
	int verbose;
	char skip_reason[256];
};

struct test_case {
	const char *name;	/* short id for 'perf test NAME' */
	const char *desc;
	int (*fn)(struct test_ctx *ctx);
};

/* Debug output, shown with 'perf test -v'. */
#define pr_test(ctx, ...) \
	do { if ((ctx)->verbose) printf(__VA_ARGS__); } while (0)

/* Fail the current test with a message saying which fact was false. */
#define TEST_ASSERT(ctx, cond, ...)					\
	do {								\
		if (!(cond)) {						\
			printf("    %s:%d: assertion '%s' failed: ",	\
			       __FILE__, __LINE__, #cond);		\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			return TEST_FAIL;				\
		}							\
	} while (0)

int test_skip(struct test_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

extern const struct test_case unit_tests[];
extern const int nr_unit_tests;

/* Bundled workloads for 'perf test -w NAME'. */
struct workload_desc {
	const char *name;
	const char *usage;
	int (*fn)(int argc, const char **argv);
};

extern const struct workload_desc test_workloads[];
extern const int nr_test_workloads;

/* Built-in tests, listed in test-registry.c. */
int test__abi(struct test_ctx *ctx);
int test__read_format(struct test_ctx *ctx);
int test__scaling(struct test_ctx *ctx);
int test__cpumap(struct test_ctx *ctx);
int test__threadmap(struct test_ctx *ctx);
int test__mmap_reader(struct test_ctx *ctx);
int test__mmap_backward(struct test_ctx *ctx);
int test__parse_events(struct test_ctx *ctx);
int test__parse_tracepoint(struct test_ctx *ctx);
int test__stats(struct test_ctx *ctx);
int test__stat_output(struct test_ctx *ctx);
int test__options(struct test_ctx *ctx);
int test__backend(struct test_ctx *ctx);
int test__open_advice(struct test_ctx *ctx);
int test__live_task_clock(struct test_ctx *ctx);
int test__live_syscall_count(struct test_ctx *ctx);
int test__live_hw_events(struct test_ctx *ctx);
int test__symbols(struct test_ctx *ctx);
int test__kallsyms(struct test_ctx *ctx);
int test__symfs(struct test_ctx *ctx);
int test__debuglink(struct test_ctx *ctx);
int test__machine(struct test_ctx *ctx);
int test__hists(struct test_ctx *ctx);
int test__demangle(struct test_ctx *ctx);
int test__demangle_rust(struct test_ctx *ctx);
int test__syscalltbl(struct test_ctx *ctx);
int test__syscall_args(struct test_ctx *ctx);
int test__tod(struct test_ctx *ctx);
int test__option_values(struct test_ctx *ctx);
int test__tod_points(struct test_ctx *ctx);
int test__tod_tracker(struct test_ctx *ctx);

int test__data_file(struct test_ctx *ctx);
int test__data_pipe(struct test_ctx *ctx);
int test__data_truncated(struct test_ctx *ctx);
int test__data_empty(struct test_ctx *ctx);
int test__data_garbage(struct test_ctx *ctx);
int test__data_unfinished(struct test_ctx *ctx);
int test__data_ordered(struct test_ctx *ctx);
int test__data_ids(struct test_ctx *ctx);
int test__data_dump(struct test_ctx *ctx);
int test__data_reader(struct test_ctx *ctx);
int test__report_repeats(struct test_ctx *ctx);
int test__tracing_data(struct test_ctx *ctx);
int test__sched_kvm(struct test_ctx *ctx);
int test__sched_no_switch(struct test_ctx *ctx);
int test__sched_exiting(struct test_ctx *ctx);
int test__sched_corrupt(struct test_ctx *ctx);
int test__sched_skipped(struct test_ctx *ctx);
int test__tracing_data_corrupt(struct test_ctx *ctx);
int test__sched_daemon_kvm(struct test_ctx *ctx);
int test__flight_store_bounds(struct test_ctx *ctx);
int test__flight_store_tasks(struct test_ctx *ctx);
int test__compress_records(struct test_ctx *ctx);
int test__compress_stream(struct test_ctx *ctx);

int workload_dump_data(int argc, const char **argv);
int workload_write_data(int argc, const char **argv);
int workload_syscalls(int argc, const char **argv);
int workload_cpuloop(int argc, const char **argv);
int workload_threads(int argc, const char **argv);
int workload_sched(int argc, const char **argv);
int workload_clock_marks(int argc, const char **argv);
int workload_clock_reads(int argc, const char **argv);

#endif /* __PERF_TESTS_H */
