/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_HIST_H
#define __PERF_UTIL_HIST_H

#include <stdbool.h>
#include <stdio.h>
#include <perf/types.h>

/*
 * Histograms of samples for perf report: one entry per distinct value of
 * the sort keys, with the period it collected (self), the period of
 * samples whose call chain passed through it (children), and a call
 * graph.  Everything lives in an arena freed at once.
 */

enum sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_DSO,
	SORT_SYM,
	SORT_CPU,
	SORT_SOCKET,		/* the CPU's package, from CPU_TOPOLOGY */
	SORT_DSO_SIZE,		/* the size of the sample's mapping */
	SORT_PARENT,		/* the first frame matching --parent */
	SORT_TRACE,		/* a tracepoint's formatted fields */
	SORT_SRCLINE,		/* "file.c:42" of the frame's address */
	SORT_SRCFILE,		/* "file.c" */
	SORT_NR_KINDS,
	SORT_MAX_KEYS = 8,	/* keys one --sort may give */
};

/* A resolved code location; identity is (dso, sym), or (dso, addr). */
struct hist_frame {
	const void *dso;	/* identity only */
	const char *dso_name;	/* "[unknown]" when not mapped */
	const void *sym;	/* identity only, NULL when unresolved */
	const char *sym_name;
	u64 sym_start;		/* the symbol's address in its object */
	u64 addr;		/* shown when there is no symbol */
	u64 map_size;		/* of the mapping it fell in; 0: none */
	char level;		/* '.' user, 'k' kernel, 'g' guest, 'H' hv */
	/* Interned, with the srcline or srcfile key only (srcline.h). */
	const char *srcline;
	const char *srcfile;
};

struct hist_sample {
	const char *comm;	/* interned: equal names, equal pointers */
	const char * const *thread_comm;	/* the thread's latest name */
	/*
	 * A thread not yet named: where its first name will be, which
	 * then names the entries @comm (":TID") made, as in Linux perf.
	 */
	const char * const *first_comm;
	u32 pid;
	u32 tid;
	int cpu;
	int socket;		/* -1: unknown */
	const char *parent;	/* interned; NULL: "[other]" */
	const char *trace;	/* interned; NULL: not a tracepoint */
	u64 period;
	struct hist_frame ip;
	const struct hist_frame *chain;	/* leaf first, may be NULL */
	int chain_len;
	bool filtered;		/* counts, but hides the entries it creates */
};

struct sample_shape;

struct callchain_node {
	const struct hist_frame *frame;	/* shared: one copy per frame */
	u64 hits;			/* period through this node */
	struct callchain_node *child;
	struct callchain_node *sibling;
};

/* A child of a node with many (hist.c): its parent is the key. */
struct wide_child {
	const struct callchain_node *parent;
	struct callchain_node *node;
};

struct hist_entry {
	const char *comm;
	const char * const *thread_comm;
	const char * const *first_comm;
	u32 pid;			/* the "pid" key: the thread id */
	u32 tid;
	int cpu;
	int socket;
	const char *parent;
	const char *trace;
	struct hist_frame frame;
	u64 self;
	u64 children;
	u64 nr_samples;
	struct callchain_node *graph;	/* NULL without call chains */
	u64 last_sample;		/* dedupe of recursion (children) */
	u64 graph_hits;			/* hists__flush(): its graph's root */
	bool filtered;			/* created by a hidden sample */
	bool no_graph;			/* no branch of it would show */
};

enum callchain_order {
	CALLCHAIN_CALLEE,	/* leaf at the root of the graph */
	CALLCHAIN_CALLER,	/* outermost caller at the root */
};

struct hists_config {
	enum sort_key keys[SORT_MAX_KEYS];
	int nr_keys;
	unsigned int keymask;	/* bit per key in use, derived from keys */
	bool children;		/* accumulate callers' overhead */
	bool callchain;		/* print the call graph */
	bool folded;		/* as "pct% a;b;c" lines, one per path */
	bool relative;		/* percentages of what the filters show */
	enum callchain_order order;
	double graph_min_pct;	/* hide branches under this (of total) */
	double percent_limit;	/* hide entries under this */
	bool show_nr_samples;	/* -n */
	/*
	 * -F: the columns in their order, which is also the order entries
	 * sort by; a key is FIELD_KEY + its sort_key.  0 fields: the
	 * usual overhead columns, then the keys.
	 */
	int fields[SORT_MAX_KEYS + 3];
	int nr_fields;
	unsigned int elide;	/* bit per sort_key: column not shown */
	/*
	 * -s given starting with "sym", no -F: a graph that follows one
	 * path from its root does not show that path's first frame, as
	 * Linux perf does (taking it for the entry's own symbol, which it
	 * is in callee order).
	 */
	bool graph_skip_first;
	/*
	 * The graphs are for one print as text (perf report --stdio), which
	 * shows no branch under graph_min_pct: an entry whose graph could
	 * have none gets none (hists__flush()).
	 */
	bool graph_for_text;
};

#define HISTS_NAME_MEMO 64

/* A set of pointers by open addressing, at most half full (hist.c). */
struct ptr_table {
	const void **slots;
	size_t size;
	size_t nr;
};

struct name_memo {
	const char *name;
	u64 hash;
};

struct hists {
	struct hists_config cfg;
	struct hist_entry **table;	/* open addressing */
	size_t size;
	size_t nr_entries;
	u64 total_period;
	u64 nr_samples;
	u64 shown_period;	/* of the entries the filters show (sorted) */
	u64 shown_samples;
	u64 sample_seq;
	const char * const *cur_thread_comm;	/* of the sample being added */
	const char * const *cur_first_comm;
	u32 cur_tid;
	bool cur_filtered;
	u64 cur_count;
	struct ptr_table shapes;		/* of struct sample_shape */
	struct sample_shape *shape_list;
	struct sample_shape **shapes_tail;
	struct arena *arena;
	struct wide_child *wide;	/* open addressing by (parent, frame) */
	size_t wide_size;
	size_t nr_wide;
	struct ptr_table frames;	/* the nodes' frames, one copy each */
	struct ptr_table shape_frames;	/* the shapes' frames, one copy each */
	struct hist_frame *chain_buf;	/* a shape's chain, as frames */
	size_t chain_buf_alloc;
	const struct hist_frame **path;	/* a sample's chain, as nodes' frames */
	size_t path_alloc;
	struct name_memo name_memo[HISTS_NAME_MEMO];	/* hist.c */
	struct ptr_table names;		/* hists__intern() */
	/* The entry the last sample's own period went to. */
	struct hist_entry *last_entry;
	/*
	 * Unique to these entries as they are: a new one when they are
	 * made anew or renamed (hists__name_threads()), so that an entry
	 * remembered with it is the one a lookup would still find.
	 */
	u32 epoch;
};

int hists__init(struct hists *hists, const struct hists_config *cfg);
void hists__exit(struct hists *hists);
int hists__add_sample(struct hists *hists, const struct hist_sample *s);
/*
 * Without call graphs and children: a sample whose keys are those of
 * the sample that left @e in hists->last_entry, added to @e without
 * looking it up.  The same as hists__add_sample() of it, while
 * hists->epoch is the one @e was found under.
 */
void hists__add_again(struct hists *hists, struct hist_entry *e, u64 period);
int hists__flush(struct hists *hists);
/*
 * Entries of a thread met before it was named take the name it got
 * first, merging with the entries of that name, as Linux perf shows
 * them.  Done before output; 0 or -ENOMEM.
 */
int hists__name_threads(struct hists *hists);
/*
 * perf top between refreshes: every entry keeps 7/8 of its period and
 * samples, so the display follows what runs now; an entry decayed to
 * nothing is no longer shown.
 */
#define HISTS_DECAY_DIV 8
int hists__decay(struct hists *hists);
/* The columns of -F besides the sort keys. */
enum hist_field {
	FIELD_OVERHEAD = 1,	/* self overhead, percent */
	FIELD_SAMPLE,		/* number of samples */
	FIELD_PERIOD,		/* summed period */
	FIELD_KEY = 16,		/* + enum sort_key */
};

/*
 * "overhead,sample,period,comm,sym": -F, the columns in order; the keys
 * among them become the sort keys.  -EINVAL for an unknown name.
 */
int hist_fields__parse(const char *str, struct hists_config *cfg);

/* --percent-limit: "5" or "5%"; 0 or -EINVAL. */
int hist_percent_limit__parse(const char *str, struct hists_config *cfg);

/* "comm,dso,sym": the keys by their Linux perf names; -EINVAL if unknown. */
int sort_keys__parse(const char *str, struct hists_config *cfg);
/* The key names sort_keys__parse() takes, for messages. */
const char *sort_keys__names(void);
bool sort_keys__has(const struct hists_config *cfg, enum sort_key k);
/* Append key @k unless there; -EINVAL when the keys are full. */
int sort_keys__add(struct hists_config *cfg, enum sort_key k);

struct hists_header {
	const char *event_name;
	u64 lost_samples;
	const char *filter_lines;	/* "# comm: sh\n" ..., or NULL */
	const char *time_slices;	/* "--time" window, or NULL */
	bool next_event;	/* not the first: the lost samples are said */
	bool group;		/* event_name names a group: "of events" */
};

void hists__fprintf(struct hists *hists, const struct hists_header *hdr,
		    FILE *out);

/* Entries of two histograms with equal keys (--group), and their hash. */
bool hist_entry__same_keys(const struct hists_config *cfg,
			   const struct hist_entry *a,
			   const struct hist_entry *b);
u64 hist_entry__keys_hash(const struct hists_config *cfg,
			  const struct hist_entry *e);

/*
 * --group: the events of a group side by side, @nr histograms made with
 * the same keys, the leader first; hdr->event_name names the group.
 */
void hists__fprintf_group(struct hists **members, int nr,
			  const struct hists_header *hdr, FILE *out);

/* A column's title, and an entry's value in it, as the report prints them. */
const char *sort_key__title(enum sort_key k);
void hist_entry__key_value(enum sort_key k, const struct hist_entry *e,
			   char *buf, size_t size);

/*
 * The rows alone, as hists__fprintf() prints them, of at most @max_rows
 * entries, their columns as wide as those need (perf top).  Returns the
 * rows printed or -ENOMEM.
 */
int hists__fprintf_rows(struct hists *hists, size_t max_rows, FILE *out);

/* Entries sorted for output (overhead descending); caller frees. */
struct hist_entry **hists__sorted(struct hists *hists, size_t *nr);

/* Interning of short strings (comms), for pointer comparisons. */
const char *hists__intern(struct hists *hists, const char *s);

#endif /* __PERF_UTIL_HIST_H */
