/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_CONFIG_H
#define __PERF_UTIL_CONFIG_H

#include <stddef.h>

/*
 * The perf config files, read as Linux perf reads them: $PERF_CONFIG
 * alone when it is set, else /etc/perfconfig and then ~/.perfconfig
 * (PERF_CONFIG_NOSYSTEM and PERF_CONFIG_NOGLOBAL leave one out).  They
 * are git-style files: "[section]" headers, "key = value" lines, '#'
 * and ';' comments; section names do not depend on case, keys do (as
 * in Linux perf 6.1).
 *
 * perf_config__get() copies the value of @name ("section.key") into
 * @buf; the last setting wins.  Returns 0, -ENOENT when no file sets
 * it, or -ENAMETOOLONG when it does not fit.
 */
int perf_config__get(const char *name, char *buf, size_t size);

#endif /* __PERF_UTIL_CONFIG_H */
