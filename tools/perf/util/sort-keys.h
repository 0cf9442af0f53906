/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SORT_KEYS_H
#define __PERF_UTIL_SORT_KEYS_H
/*
 * The values of the report sort keys that need more than the sample's
 * own fields: the CPU's socket (the file's CPU_TOPOLOGY), the parent
 * (the first frame whose symbol matches a regular expression) and a
 * tracepoint's formatted fields (the file's tracing data), and the
 * source line of a frame (its object's DWARF).
 */
#include <regex.h>
#include <stdbool.h>
#include "data.h"
#include "hist.h"

struct tep_handle;
struct tep_event;
struct trace_seq;
struct srcline_cache;

/* Linux perf's parent pattern: system calls and page faults. */
#define SORT_PARENT_DEFAULT "^sys_|^do_page_fault"

struct sort_keys {
	const struct hists_config *cfg;
	const struct perf_cpu_topo *topo;	/* NULL without CPU_TOPOLOGY */
	u32 nr_topo;
	regex_t parent;
	bool have_parent;
	struct tep_handle *tep;		/* with the trace key only */
	struct trace_seq *seq;
	struct tep_event **events;	/* per attr index; NULL: not one */
	u32 nr_events;
	struct srcline_cache *srclines;	/* with srcline or srcfile only */
};

/*
 * Ready the keys @cfg uses for session @s; @parent_pattern is an
 * extended regular expression (NULL: the default).  Returns 0 or -errno
 * with the reason printed, naming @cmd.
 */
int sort_keys__setup(struct sort_keys *k, const struct hists_config *cfg,
		     struct perf_session *s, const char *parent_pattern,
		     const char *cmd);
void sort_keys__exit(struct sort_keys *k);

/*
 * Socket, trace and the parent from @hs->ip and @hs->chain; the source
 * lines of those frames.
 */
void sort_keys__fill(struct sort_keys *k, struct hists *h,
		     struct hist_sample *hs, const struct perf_sample *s,
		     const struct perf_session_attr *attr);

#endif /* __PERF_UTIL_SORT_KEYS_H */
