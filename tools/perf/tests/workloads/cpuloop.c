// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-bound workload with known hot spots: in this binary,
 * workload_hot_a does twice the work of workload_hot_b, and a shared
 * library (libperf-hot.so beside perf) has hot_lib_loop doing as much
 * as workload_hot_b.  Profiles must rank them a > b ~ lib.
 */
#include <dlfcn.h>
#include <limits.h>
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int __attribute__((noinline)) workload_cpuloop(int argc, const char **argv)
{
	double secs = argc > 0 ? atof(argv[0]) : 1.0, end;
	lib_loop_fn lib_loop = load_lib_loop();

	if (!lib_loop) {
		fprintf(stderr, "cpuloop: libperf-hot.so not found beside perf\n");
		return 1;
	}
	end = now() + secs;
	do {
		workload_hot_a(CHUNK);
		workload_hot_b(CHUNK);
		lib_loop(CHUNK);
	} while (now() < end);
	return 0;
}
