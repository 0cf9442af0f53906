/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_STRERROR_H
#define __PERF_STRERROR_H

#include <stddef.h>
#include <perf/evsel.h>

/*
 * Explain why opening @evsel failed with @err (a positive errno) in terms
 * a person can act on.  Returns @buf.
 */
const char *perf_strerror_open(int err, const struct perf_evsel *evsel,
			       char *buf, size_t size);

/* True when @err means "this event does not exist here". */
bool perf_errno_unsupported(int err);

#endif /* __PERF_STRERROR_H */
