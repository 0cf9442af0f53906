// SPDX-License-Identifier: GPL-2.0
/*
 * The bundled workloads, run with 'perf test -w NAME'.
 */
#include "../tests.h"

const struct workload_desc test_workloads[] = {
	{ "syscalls", "[--wait-signal] [N getppid [M failing opens [K writes [U unassigned]]]]",
	  workload_syscalls },
	{ "cpuloop", "[SECONDS [times]]: hot functions in perf and in libperf-hot.so",
	  workload_cpuloop },
	{ "threads", "[PAIRS [ROUNDS]]: threads waking each other",
	  workload_threads },
	{ "sched", "[THREADS [ROUNDS]]: short sleeps, wakeups, migrations, forks",
	  workload_sched },
	{ "clock-marks", "[SECONDS [SLEW_PPM [STEP_AT STEP_SECONDS]]]: a marked getpid a second, the clock slewed and set",
	  workload_clock_marks },
	{ "clock-reads", "[SECONDS]: clock_gettime in a loop (samples in the vdso)",
	  workload_clock_reads },
	{ "dump-data", "[--header] FILE: raw dump of a perf.data (test aid)",
	  workload_dump_data },
	{ "write-data", "FILE [SAMPLES]: write a synthetic perf.data (test aid)",
	  workload_write_data },
};

const int nr_test_workloads = sizeof(test_workloads) /
			      sizeof(test_workloads[0]);
