/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_FILE_INFO_H
#define __PERF_UTIL_FILE_INFO_H
/*
 * What a perf.data holds, listed as Linux perf lists it: its events
 * (perf evlist) and the build ids of its binaries (perf buildid-list).
 */
#include <stdbool.h>
#include <stdio.h>
#include "data.h"

struct evlist_opts {
	bool verbose;		/* -v: every attr field that is set */
	bool freq;		/* -F: the sample period or frequency */
	bool group;		/* -g: groups as {leader,member...} */
	bool trace_fields;	/* --trace-fields: a tracepoint's fields */
};

/* The events of @s, one line each; 0 or -errno with the reason said. */
int perf_session__fprintf_evlist(struct perf_session *s,
				 const struct evlist_opts *o, FILE *fp);

/*
 * The build ids of the file's header, "<hex> <path>" in its order;
 * @with_hits: only the binaries samples fell in (reads the samples).
 */
int perf_session__fprintf_build_ids(struct perf_session *s, bool with_hits,
				    FILE *fp);

/* The running kernel's build id alone; 0 or -errno. */
int build_id__fprintf_kernel(FILE *fp);

#endif /* __PERF_UTIL_FILE_INFO_H */
