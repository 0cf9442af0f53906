/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_DIFF_H
#define __PERF_UTIL_DIFF_H
/*
 * perf diff: two recordings' profiles side by side, per shared object
 * and symbol, with the change of each entry's share ("Delta Abs").
 */
#include <stdio.h>
#include "report.h"

/*
 * Print the difference of @new against @base, both processed with
 * report__process() on the same sort keys.  Returns 0 or -ENOMEM.
 */
int diff__fprintf(const struct report *base, const struct perf_session *bs,
		  const struct report *new, const struct perf_session *ns,
		  FILE *fp);

#endif /* __PERF_UTIL_DIFF_H */
