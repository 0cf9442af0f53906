// SPDX-License-Identifier: GPL-2.0
/*
 * probe-wl N: calls each probed function a known number of times:
 *
 *	probe_wl_global		N
 *	probe_wl_args		N, with (i, "probe-wl-str") for i < N,
 *				returning 2 * i
 *	probe_wl_many		N, its 7th argument (on the stack) 1000 + i
 *	probe_wl_local (a.c)	N
 *	probe_wl_local (b.c)	2 * N
 *	probe_wl_version@@PROBE_WL_2	N
 *	probe_wl_version@PROBE_WL_1	3 * N
 */
#include <stdio.h>
#include <stdlib.h>
#include "probe-wl.h"

/* Global, so that the stores and the calls feeding them stay. */
int sink;

PROBE_WL_FUNC void probe_wl_global(int x)
{
	sink += x;
}

PROBE_WL_FUNC int probe_wl_args(int n, const char *s)
{
	sink += s[0];
	return 2 * n;
}

PROBE_WL_FUNC long probe_wl_many(long a, long b, long c, long d, long e,
				 long f, long g)
{
	return a + b + c + d + e + f + g;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, i;

	for (i = 0; i < n; i++) {
		probe_wl_global(i);
		sink += probe_wl_args(i, "probe-wl-str");
		sink += (int)probe_wl_many(1, 2, 3, 4, 5, 6, 1000 + i);
		sink += probe_wl_call_a(i);
		sink += probe_wl_call_b(i) + probe_wl_call_b(i);
		sink += probe_wl_version(i);
		sink += probe_wl_call_old(i) + probe_wl_call_old(i) +
			probe_wl_call_old(i);
	}
	printf("%d\n", n);
	return 0;
}
