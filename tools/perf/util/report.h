/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_REPORT_H
#define __PERF_UTIL_REPORT_H

#include <stdio.h>
#include "data.h"
#include "hist.h"
#include "machine.h"
#include "parse-options.h"
#include "sort-keys.h"
#include "../ui/progress.h"

enum callchain_frames {
	CALLCHAIN_FRAMES_ALL,
	CALLCHAIN_FRAMES_USER,
	CALLCHAIN_FRAMES_KERNEL,
};

/* Which samples count: all filters must pass. */
struct report_filter {
	u64 time_start;		/* ns; 0: from the start */
	u64 time_end;		/* ns; 0: to the end */
	const char *pids;	/* comma separated lists, or NULL */
	const char *tids;
	const char *comms;
	const char *dsos;
};

/*
 * The task and object filters of report and script (--pid, --tid,
 * --comm/-c, --dso/-d), as a table to splice in with OPT_TABLE.
 */
#define REPORT_FILTER_OPTIONS_SIZE 7
void report_filter__options(struct report_filter *f,
			    struct option opts[REPORT_FILTER_OPTIONS_SIZE]);

struct report {
	struct hists_config cfg;
	struct report_filter filter;
	enum callchain_frames frames;
	bool children_set;	/* --children/--no-children given */
	bool callchain_set;	/* -g given */
	bool order_set;		/* caller/callee given */
	int max_stack;
	const char *parent_pattern;	/* -p; NULL: the default */
	bool group;			/* --group: a group's events together */

	/*
	 * Count samples per instruction too (annotate, the browser's
	 * annotate view): one table per attr, like hists.
	 */
	bool annotate;
	struct annotations **annotations;

	struct machine machine;
	struct sort_keys keys;
	struct hists *hists;	/* one per attr of the session */
	int nr_hists;
	u64 lost_samples;
	u64 lost_records;
	u64 lost_chunks;
	u64 filtered;
	struct progress progress;
	struct hist_frame *chain;	/* scratch, reused per sample */
	int chain_alloc;
	/*
	 * The last comm interned: the machine's comm strings never change,
	 * so the same pointer in the same hists is the same name.
	 */
	const char *last_comm;
	const struct hists *last_comm_hists;
	const char *last_comm_interned;
	/*
	 * Samples of a hot loop repeat their task and address: without
	 * call chains, the entry the first of them went to takes the
	 * others while nothing changed (report.c).  NULL: not kept.
	 */
	struct sample_memo_slot *memo;
	bool memo_cpu;		/* a key shows the CPU: it is remembered */
};

int report__parse_time(const char *str, struct report_filter *f);
int report__parse_callchain(const char *str, struct report *r);
void report__set_order(struct report *r, bool caller);
int report__run(struct report *r, struct perf_session *s, FILE *out);
/* The histograms of @s in r->hists, not printed: report__run's first half. */
int report__process(struct report *r, struct perf_session *s);
void report__exit(struct report *r);
/*
 * For a live stream (perf top): report__begin() makes the histograms
 * of @s's attrs, then report__event() takes its records one by one.
 */
int report__begin(struct report *r, struct perf_session *s);
int report__event(struct perf_session *s, const union perf_event *ev,
		  u64 offset, const struct perf_sample *sample,
		  struct perf_session_attr *attr, void *ctx);

/* Is @val, or the string @s, in the comma separated @list? */
bool report__list_has_num(const char *list, u32 val);
bool report__list_has_str(const char *list, const char *s);
/* --call-graph-frames STR, or its short forms, as given. */
struct callchain_frames_opts {
	const char *str;
	bool user;		/* --user-callchain */
	bool kernel;		/* --kernel-callchain */
	bool inline_frames;	/* --inline: refused, see the option */
};

/*
 * --call-graph-frames, its two short forms and --no-inline (what call
 * chains always show; --inline is refused), as a table to splice in with
 * OPT_TABLE.
 */
#define CALLCHAIN_FRAMES_OPTIONS_SIZE 5
void callchain_frames__options(struct callchain_frames_opts *o,
			       struct option opts[CALLCHAIN_FRAMES_OPTIONS_SIZE]);

/* NULL and *@frames set, or what is wrong with the options. */
const char *callchain_frames__from_options(const struct callchain_frames_opts *o,
					  enum callchain_frames *frames);
/* Does a frame found in @cpumode stay with --call-graph-frames? */
bool callchain_frame_wanted(enum callchain_frames frames, u8 cpumode);
/* Give DSOs the build ids the file recorded, before symbols load. */
void report__set_build_ids(struct perf_session *s);

#endif /* __PERF_UTIL_REPORT_H */
