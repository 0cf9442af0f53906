// SPDX-License-Identifier: GPL-2.0
/*
 * The shared-library half of the DWARF unwinding workload, built
 * without frame pointers: one hot loop of its own, and a sort that
 * calls the executable back from libc's qsort().
 */
#include <stdlib.h>

void unwind_lib_mark(void);
void unwind_lib_spin(unsigned long n);
void unwind_lib_sort(int *v, size_t n,
		     int (*cmp)(const void *, const void *));

static volatile unsigned long lib_sink;

/* Called once, where a test puts a uprobe. */
void unwind_lib_mark(void)
{
	lib_sink++;
}

void unwind_lib_spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		lib_sink += i ^ (i >> 3);
}

void unwind_lib_sort(int *v, size_t n,
		     int (*cmp)(const void *, const void *))
{
	qsort(v, n, sizeof(*v), cmp);
	/* Not a tail call: this frame stays on the stack while qsort runs. */
	lib_sink += v[0];
}
