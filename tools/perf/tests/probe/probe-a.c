// SPDX-License-Identifier: GPL-2.0
/* One of two files with a static probe_wl_local: an ambiguous name. */
#include "probe-wl.h"

static PROBE_WL_FUNC int probe_wl_local(int x)
{
	return x + 1;
}

int probe_wl_call_a(int x)
{
	return probe_wl_local(x);
}
