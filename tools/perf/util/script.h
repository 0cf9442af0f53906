/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SCRIPT_H
#define __PERF_UTIL_SCRIPT_H

/*
 * perf script: one line per sample (and, when asked, per side-band
 * record) in time order, with the fields and layout of Linux perf
 * script, so that tools written for its output (FlameGraph's
 * stackcollapse-perf.pl, ad hoc awk) read ours unchanged.
 *
 * Fields are chosen per kind of event (hardware, software, tracepoint,
 * ...): each kind has a default set, and -F replaces, adds to (+name)
 * or removes from (-name) the set of one kind ("sw:ip,sym") or of all
 * kinds.
 */
#include <stdio.h>
#include <perf/types.h>
#include "data.h"
#include "machine.h"
#include "report.h"
#include "tod.h"

enum script_field {
	SF_COMM, SF_TID, SF_PID, SF_TIME, SF_CPU, SF_EVENT, SF_TRACE, SF_IP,
	SF_SYM, SF_DSO, SF_ADDR, SF_SYMOFF, SF_PERIOD, SF_CALLINDENT,
	SF_WEIGHT, SF_PHYS_ADDR, SF_MISC, SF_TOD, SF_FLAGS, SF_IREGS,
	SF_UREGS,
	SF_NR
};

#define SF(x) (1ULL << SF_##x)

/* The kinds -F can name; an attr of another type is "other". */
enum script_kind {
	SK_HW, SK_SW, SK_TRACE, SK_CACHE, SK_RAW, SK_BREAK, SK_OTHER,
	SK_NR
};

struct script_fields {
	u64 fields;
	u64 invalid;		/* fields this kind cannot have */
	u64 explicit;		/* named by -F: missing data is an error */
	bool user_set;		/* -F changed this kind */
};

struct script_opts {
	struct script_fields kind[SK_NR];
	struct report_filter filter;	/* --time, --pid, --tid, --comm, --dsos */
	const char *cpus;		/* --cpu list */
	const char *symbols;		/* -S list */
	enum callchain_frames frames;	/* --call-graph-frames */
	bool hide_callchain;		/* -G */
	bool ns;			/* --ns */
	bool show_task;			/* --show-task-events */
	bool show_mmap;			/* --show-mmap-events */
	bool show_lost;			/* --show-lost-events */
	int max_stack;			/* 0: the default, 127 */
	struct tod_choice tod;		/* --tod[=start], --no-tod */
};

struct tep_handle;
struct tep_event;
struct script_attr;

struct script {
	struct script_opts opts;
	struct machine machine;
	struct perf_session *session;
	FILE *out;
	bool ready;			/* fields checked against the attrs */
	int name_width;			/* of the widest event name */
	struct tep_handle *tep;
	struct script_attr *attrs;	/* per session attr */
	u32 nr_attrs;
	struct perf_cpu_map *cpus;	/* --cpu, NULL: every CPU */
	void *seq;			/* struct trace_seq, reused */
	u64 lost_chunks;			/* LOST records, for the warning */
};

/* The default fields of every kind; call before script__parse_fields(). */
void script__init_opts(struct script_opts *o);

/*
 * Apply one -F argument.  Returns 0, or -EINVAL with the reason in
 * @err (an unknown field or kind, a mix of +/- and plain names).
 * Warnings (a field invalid for some kind) go to stderr, as Linux perf
 * prints them.
 */
int script__parse_fields(struct script_opts *o, const char *arg,
			 char *err, size_t errlen);

/*
 * Print session @s to @out.  Returns 0, PERF_SESSION_DATA_ERROR when
 * the data ended in a bad record (what came before was printed), or
 * -errno; a field the data cannot give has been reported on stderr.
 */
int script__run(struct script *sc, struct perf_session *s, FILE *out);
void script__exit(struct script *sc);

#endif /* __PERF_UTIL_SCRIPT_H */
