// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-bound workload with known hot spots: in this binary,
 * workload_hot_a does twice the work of workload_hot_b, and a shared
 * library (libperf-hot.so beside perf) has hot_lib_loop doing as much
 * as workload_hot_b.  Profiles must rank them a > b ~ lib.  With
 * "times" after the seconds it prints the CPU time each took, for a
 * profile to be compared with where the time went (in an emulator the
 * guest's clocks run on while the host runs something else, and charge
 * that to whatever function the guest was in).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../tests.h"

/*
 * Iterations per round: small enough that even under an emulated CPU
 * (the VM's TCG, some 20 times slower) a recording of a few tenths of a
 * second holds many rounds, so that its profile has the workload's
 * proportions rather than those of where it cut a round.
 */
#define CHUNK 200000UL

static volatile unsigned long workload_sink;

/*
 * noinline and noclone keep the functions distinct symbols under their
 * own names in a profile.
 */
static __attribute__((noinline, noclone)) void workload_hot_a(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < 2 * n; i++)
		workload_sink += i ^ (i >> 3);
}

static __attribute__((noinline, noclone)) void workload_hot_b(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		workload_sink += i ^ (i >> 3);
}

typedef void (*lib_loop_fn)(unsigned long n);

static lib_loop_fn load_lib_loop(void)
{
	char path[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;
	void *handle;

	if (len < 0)
		return NULL;
	path[len] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	strcpy(slash + 1, "libperf-hot.so");
	handle = dlopen(path, RTLD_NOW);
	if (!handle) {
		fprintf(stderr, "cpuloop: %s\n", dlerror());
		return NULL;
	}
	return (lib_loop_fn)dlsym(handle, "hot_lib_loop");
}

static double clock_now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_now(CLOCK_MONOTONIC);
}

/*
 * With "times": the thread's CPU time since @since added to *sum, and
 * the time now; else nothing.  Called between the hot functions, so
 * their call chains stay as they are.
 */
static double lap(bool on, double *sum, double since)
{
	double t;

	if (!on)
		return since;
	t = clock_now(CLOCK_THREAD_CPUTIME_ID);
	*sum += t - since;
	return t;
}

int __attribute__((noinline)) workload_cpuloop(int argc, const char **argv)
{
	double secs = argc > 0 ? atof(argv[0]) : 1.0, end, t, spent[3] = { 0 };
	bool times = argc > 1 && !strcmp(argv[1], "times");
	lib_loop_fn lib_loop = load_lib_loop();

	if (!lib_loop) {
		fprintf(stderr, "cpuloop: libperf-hot.so not found beside perf\n");
		return 1;
	}
	end = now() + secs;
	t = times ? clock_now(CLOCK_THREAD_CPUTIME_ID) : 0;
	do {
		workload_hot_a(CHUNK);
		t = lap(times, &spent[0], t);
		workload_hot_b(CHUNK);
		t = lap(times, &spent[1], t);
		lib_loop(CHUNK);
		t = lap(times, &spent[2], t);
	} while (now() < end);
	if (times)
		fprintf(stderr, "cpuloop: CPU seconds: workload_hot_a %.6f workload_hot_b %.6f hot_lib_loop %.6f\n",
			spent[0], spent[1], spent[2]);
	return 0;
}
