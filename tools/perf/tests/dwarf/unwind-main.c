// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF unwinding workload, built -O2 -fomit-frame-pointer: frame
 * pointers give no call chain here, the CFI does.  For SECONDS it runs
 * two known paths:
 *
 *   main -> unwind_spin_outer -> unwind_lib_spin (the library's loop)
 *   main -> unwind_sort_outer -> unwind_lib_sort -> qsort (libc)
 *        -> ... -> unwind_compare (this executable, a slow comparison)
 *
 * and once, first, a path where the frame pointer holds a frame that is
 * not the caller's (a walk by frame pointer skips unwind_fp_outer):
 *
 *   main -> unwind_fp_outer (with a frame pointer) -> unwind_nofp_mid
 *        -> unwind_lib_mark (the library)
 */
#include <stdlib.h>
#include <time.h>

void unwind_lib_mark(void);
void unwind_lib_spin(unsigned long n);
void unwind_lib_sort(int *v, size_t n,
		     int (*cmp)(const void *, const void *));

static volatile unsigned long sink;

static __attribute__((noinline)) int unwind_compare(const void *a,
						      const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	unsigned long i;

	for (i = 0; i < 200; i++)
		sink += i * x;
	return (x > y) - (x < y);
}

static __attribute__((noinline)) void unwind_sort_outer(int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (int)((i * 2654435761u) % 1000);
	unwind_lib_sort(v, n, unwind_compare);
	sink += v[n - 1];
}

static __attribute__((noinline)) void unwind_spin_outer(unsigned long n)
{
	unwind_lib_spin(n);
	sink += n;
}

static __attribute__((noinline)) void unwind_nofp_mid(void)
{
	unwind_lib_mark();
	sink++;
}

static __attribute__((noinline, optimize("no-omit-frame-pointer")))
void unwind_fp_outer(void)
{
	unwind_nofp_mid();
	sink++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1, end = now() + seconds;
	static int v[2000];

	unwind_fp_outer();
	while (now() < end) {
		unwind_sort_outer(v, sizeof(v) / sizeof(v[0]));
		unwind_spin_outer(2000000);
	}
	return 0;
}
