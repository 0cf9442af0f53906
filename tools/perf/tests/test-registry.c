// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in tests, in the order 'perf test' numbers them.
 */
#include "tests.h"

const struct test_case unit_tests[] = {
	{ "abi", "ABI: binary compatible with <linux/perf_event.h>", test__abi },
	{ "read-format", "read() formats: every read_format combination",
	  test__read_format },
	{ "scaling", "Count scaling by time enabled/running", test__scaling },
	{ "cpumap", "CPU map parsing", test__cpumap },
	{ "threadmap", "Thread maps from pids and tids", test__threadmap },
	{ "mmap", "Ring buffer reader: order, wrap, tail, bad sizes",
	  test__mmap_reader },
	{ "parse-events", "Event parsing: names, raw, modifiers, groups",
	  test__parse_events },
	{ "parse-tracepoint", "Event parsing: tracepoints and globs",
	  test__parse_tracepoint },
	{ "hists", "Histograms: keys, children, call graphs, limits",
	  test__hists },
	{ "stats", "Mean and standard error of repeated runs", test__stats },
	{ "stat-output", "perf stat lines: units, metrics, multiplexing, CSV",
	  test__stat_output },
	{ "options", "Command-line option parsing", test__options },
	{ "backend", "Backend selection", test__backend },
	{ "task-clock", "Live: task-clock enable/disable/read/reset/id",
	  test__live_task_clock },
	{ "syscall-count", "Live: exact getppid count from a tracepoint",
	  test__live_syscall_count },
};

const int nr_unit_tests = sizeof(unit_tests) / sizeof(unit_tests[0]);
