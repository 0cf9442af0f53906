// SPDX-License-Identifier: GPL-2.0
/*
 * The shared-library part of the cpuloop workload.
 */
void hot_lib_loop(unsigned long n);

static volatile unsigned long lib_sink;

void hot_lib_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		lib_sink += i ^ (i >> 3);
}
