// SPDX-License-Identifier: GPL-2.0
/*
 * A library with two versions of probe_wl_version: PROBE_WL_1 (old,
 * hidden) and PROBE_WL_2 (the default that programs link against).
 */
#include "probe-wl.h"

PROBE_WL_FUNC int probe_wl_version_1(int x)
{
	return x - 1;
}

PROBE_WL_FUNC int probe_wl_version_2(int x)
{
	return x + 2;
}

__asm__(".symver probe_wl_version_1, probe_wl_version@PROBE_WL_1");
__asm__(".symver probe_wl_version_2, probe_wl_version@@PROBE_WL_2");

/* Old callers still reach version 1; this one stands in for them. */
int probe_wl_call_old(int x)
{
	return probe_wl_version_1(x);
}
