// SPDX-License-Identifier: GPL-2.0
/* The other static probe_wl_local, with another body. */
#include "probe-wl.h"

static PROBE_WL_FUNC int probe_wl_local(int x)
{
	return x * 3;
}

int probe_wl_call_b(int x)
{
	return probe_wl_local(x);
}
