/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_HELP_H
#define __PERF_UTIL_HELP_H

#include <stdio.h>

/* The man page text of a command, built into the binary; NULL if none. */
const char *help__doc_text(const char *cmd);

/* Edit distance, for "did you mean" suggestions. */
int help__levenshtein(const char *a, const char *b);

#endif /* __PERF_UTIL_HELP_H */
