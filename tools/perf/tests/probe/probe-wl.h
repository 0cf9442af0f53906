/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_TESTS_PROBE_WL_H
#define __PERF_TESTS_PROBE_WL_H

/*
 * The perf probe workload (tests/shell/probe.sh).  Its probed
 * functions are noipa: GCC must neither inline nor clone them, so
 * each keeps its symbol and takes its arguments as the ABI says.
 */
#define PROBE_WL_FUNC __attribute__((noipa))

int probe_wl_call_a(int x);
int probe_wl_call_b(int x);
int probe_wl_version(int x);
int probe_wl_call_old(int x);

#endif /* __PERF_TESTS_PROBE_WL_H */
