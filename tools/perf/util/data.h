/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_DATA_H
#define __PERF_UTIL_DATA_H

/*
 * Writing and reading perf.data, in file mode and in pipe mode.
 *
 * Writer: open, add the attrs, begin, write records, finish.
 *
 *	File mode writes a provisional header at open and the attrs at
 *	begin; every flush of the write buffer then updates data.size in
 *	the header, so a recording that dies leaves a file that reads up
 *	to its last flush.  finish writes the features after the data and
 *	the final header.  An existing file of the same name that is not
 *	empty is renamed to NAME.old first, as perf record does.
 *
 *	Pipe mode (path "-" is stdout) writes the 16-byte pipe header,
 *	then PERF_RECORD_HEADER_ATTR and PERF_RECORD_HEADER_FEATURE
 *	records at begin, then the records; build ids go out as
 *	PERF_RECORD_HEADER_BUILD_ID records at finish.
 *
 * Reader (struct perf_session): a regular file is mapped read-only and
 * records are handed out in place; stdin and other pipes are read
 * through a buffer.  A file whose header says data.size == 0 but that
 * holds bytes after data.offset was written by a recording that did not
 * finish: the reader warns ("recording did not finish: reading up to
 * end of file") and reads the records up to the end of the file.
 */
#include <errno.h>
#include <stdio.h>
#include <perf/types.h>
#include <linux/perf_counter.h>
#include "event.h"
#include "header.h"
#include "tod.h"

#ifndef __aligned
#define __aligned(x) __attribute__((aligned(x)))
#endif

struct perf_data_writer {
	int fd;
	bool pipe;			/* pipe format (stdout or a pipe) */
	bool begun;			/* attrs written, data may follow */
	bool closed;
	bool own_fd;
	bool backlog;			/* a FIFO we opened: see pump */
	char *path;

	u8 *buf;			/* write buffer */
	size_t buf_len;
	size_t buf_cap;
	int err;			/* first write error, sticky */

	u64 data_offset;		/* file mode: where data starts */
	u64 data_size;			/* bytes of records written */
	u64 flushed;			/* of which on the file */

	struct perf_event_desc *attrs;
	u32 nr_attrs;
	u32 attrs_alloc;
	u32 nr_attrs_out;		/* attrs already in the file/stream */

	/*
	 * The features to write; open collects the system facts, the
	 * caller may add the command line, build ids, clock data and
	 * groups before finish (pipe mode: before begin).
	 */
	struct perf_header_info info;

	/* Record boundaries and sample times seen in the writes. */
	struct {
		u64 pos;		/* data bytes scanned */
		u64 complete;		/* where the last whole record ends */
		u64 skip;		/* bytes left of the current record */
		u64 first, last;	/* sample times, for SAMPLE_TIME */
		u64 samples;
		int time_pos;		/* u64 index of time in a sample, -1 */
		u32 need;		/* bytes of a record to see at once */
		u32 have;		/* bytes held in carry */
		bool lost;		/* a bad size: boundaries unknown */
		u8 carry[64];
	} scan;
};

/*
 * Create path for writing; "-" writes pipe format to stdout.  Returns
 * 0 or -errno.  The system facts of the header are collected here, with
 * this build's PERF_VERSION as the perf version.
 */
int perf_data_writer__open(struct perf_data_writer *w, const char *path);
/* Write to an open descriptor, in pipe format or not (fd must seek). */
int perf_data_writer__open_fd(struct perf_data_writer *w, int fd, bool pipe);

/* Add an attr with the ids of its counters; name may be NULL. */
int perf_data_writer__add_attr(struct perf_data_writer *w,
			       const struct perf_counter_attr *attr,
			       const char *name, const u64 *ids, u32 nr_ids);

/*
 * Put the attrs (and in pipe mode the features) before the data.  The
 * first write does it when not called.
 */
int perf_data_writer__begin(struct perf_data_writer *w);

/* Append records; buffered.  Returns 0 or -errno (ENOSPC, EPIPE...). */
int perf_data_writer__write(struct perf_data_writer *w, const void *buf,
			    size_t len);

/*
 * Flush, write the features and the final header, close.  Returns the
 * first error of the whole writing, or 0.  Safe to call after an error
 * and more than once.
 */
int perf_data_writer__finish(struct perf_data_writer *w);

/* Give up: close, and remove a regular file (it would be incomplete). */
void perf_data_writer__abort(struct perf_data_writer *w);

/* Bytes of records written so far, for the closing "wrote N MB" line. */
u64 perf_data_writer__bytes(const struct perf_data_writer *w);

/*
 * A FIFO output (not stdout) is written without waiting: what its
 * reader has not taken yet stays in memory.  Pump passes on what the
 * FIFO takes now (call it often); has_backlog says something waits.
 */
int perf_data_writer__pump(struct perf_data_writer *w);
bool perf_data_writer__has_backlog(const struct perf_data_writer *w);

/* ---- reading ---- */

/* An attr of the file and the ids of its counters. */
struct perf_session_attr {
	struct perf_counter_attr attr;
	const char *name;		/* EVENT_DESC name or a generic one */
	char *own_name;
	u64 *ids;
	u32 nr_ids;
	int idx;
	u64 nr_samples;			/* SAMPLE records delivered */
	/*
	 * Set by a tool whose result does not depend on when its samples
	 * come: perf_session__process_events_ordered() delivers them as
	 * read, without queueing them.
	 */
	bool unordered;
	/*
	 * Set too by a tool that wants nothing of an unordered attr's
	 * samples but the highest CPU among them: they are decoded (and
	 * checked) where they are read, and not delivered.  They count in
	 * the stats and nr_samples once the pass is over.
	 */
	bool skipped;
	s32 max_skipped_cpu;		/* -1: none */
	u64 nr_skipped;			/* this pass, not in the stats yet */
	struct perf_sample_layout layout;	/* of attr, to decode samples */
};

struct perf_session_stats {
	u64 nr_events[PERF_RECORD_HEADER_MAX];	/* [0] counts them all */
	u64 nr_unknown_events;		/* types this tool does not know */
	u32 unknown_types[8];		/* the first few of those types */
	u32 nr_unknown_types;
	u64 nr_unknown_id;		/* samples whose id has no attr */
	u64 nr_unordered;		/* came after their time was flushed */
};

/*
 * Status of perf_session__process_events(): 0 when every record was
 * delivered, PERF_SESSION_DATA_ERROR when the data ends in the middle
 * of a record or holds a corrupt one (the records before it were
 * delivered; perf_session__error() names the offset), a negative errno
 * on other failures, or what a callback returned to stop.
 */
#define PERF_SESSION_DATA_ERROR 1

/* perf_session__open() on an empty file: "nothing to do", not a failure. */
#define PERF_SESSION_EMPTY (-ENODATA)

struct perf_session_queue;
struct perf_decompressor;

/*
 * Whether a pass reads a file on a thread of its own while the caller's
 * thread runs the callback (session-reader.c).  PERF_READER_THREAD in
 * the environment overrides it: 0 for never, 1 for always.
 */
enum perf_session_reader {
	PERF_SESSION_READER_OFF,	/* the default: one thread */
	PERF_SESSION_READER_AUTO,	/* when more than one CPU may run us */
	PERF_SESSION_READER_ON,		/* always (tests) */
};

struct perf_session {
	char name[256];			/* the path, or "pipe"/"stdin" */
	int fd;
	bool own_fd;
	bool pipe;			/* pipe format */
	bool stream;			/* read through a buffer, one pass */
	bool finished;			/* a stream was read to its end */

	const u8 *map;			/* the whole file when mapped */
	u64 size;			/* of the file, when mapped */

	struct perf_file_header header;	/* file mode */
	u64 data_offset;
	u64 data_end;			/* where record reading stops */
	bool unfinished;		/* data.size == 0 in the header */

	struct perf_session_attr *attrs;
	u32 nr_attrs;
	u32 attrs_alloc;
	char **old_names;		/* attr names replaced, freed at close */
	u32 nr_old_names;
	u32 old_names_alloc;
	/*
	 * Attrs known when the pass began: consumers size their tables by
	 * them, so records of an attr a stream adds later are delivered
	 * as of an unknown id.
	 */
	u32 nr_attrs_pass;
	int id_pos;			/* u64 index of the id in samples */
	int is_pos;			/* u64s from the end in other records */
	bool sample_id_all;
	u64 sample_type_all;		/* every attr's bits, or-ed */

	struct perf_header_info info;
	/*
	 * Time of day: CLOCK_DATA, and the correlation points of a
	 * recording made with --tod (tod.h).  The points at the start of
	 * the data are read at open, so tod.nr_points says whether the
	 * file has them; the others as the records are read, before any
	 * record they cover is delivered.
	 */
	struct tod tod;
	const void *tracing_data;	/* TRACING_DATA: tracefs formats */
	u64 tracing_data_size;
	void *own_tracing_data;

	/*
	 * The read buffer: a stream's, or a file's data (pread).  buf is
	 * the data of block, a struct session_block that records the time
	 * order queue holds may pin (session-internal.h).
	 *
	 * From here to stats is what the reading thread writes as it
	 * reads; in a pass with a reader thread (session-reader.c) the
	 * delivering thread writes stats: they are kept on cache lines of
	 * their own, or each record would move them between the CPUs.
	 */
	u8 *buf __aligned(64);
	size_t buf_cap;
	struct session_block *block;
	struct session_block *free_blocks;
	/* Freed by the delivering thread of a threaded pass: a stack. */
	struct session_block *returned;
	/* Set by the caller: see enum perf_session_reader. */
	enum perf_session_reader reader_thread;
	/* The pass's reader thread, while one reads (session-reader.c). */
	struct session_reader *reader;
	u64 buf_start;			/* stream or file offset of buf[0] */
	size_t buf_len;
	bool eof;
	u64 processed_end;		/* header records before it are done */

	u64 *scratch;			/* an aligned copy of one record */
	/* Attrs by their ids (the last one found is written as read). */
	struct {
		struct perf_id_slot *slots;
		u32 mask;
		u32 nr;
		/* The last id found: a ring's records come in runs of it. */
		u64 last_id;
		s32 last_idx;
	} ids;

	struct perf_session_stats stats __aligned(64);
	struct perf_session_queue *queue __aligned(64);
	struct perf_decompressor *decomp;	/* COMPRESSED records */
	bool unpacking;			/* records come from decomp */

	/*
	 * Set after open to show progress: called every few MiB of
	 * records read and at the end; total is 0 for a pipe.
	 */
	void (*progress)(void *ctx, u64 done, u64 total);
	void *progress_ctx;
	u64 progress_next;

	char errmsg[512];
	char warnmsg[1024];
};

/*
 * Open path ("-" = stdin) and read its header, attrs and features.
 * Returns 0, PERF_SESSION_EMPTY for an empty file, or -errno with
 * perf_session__error() saying what is wrong, where, and what to do.
 * Warnings (unfinished recording, a file cut short, bad features) are
 * in perf_session__warning().  Call perf_session__close() afterwards,
 * whatever open returned.
 */
int perf_session__open(struct perf_session *s, const char *path);
/* The same on a descriptor (a pipe, or a file); name is for messages. */
int perf_session__open_fd(struct perf_session *s, int fd, const char *name);
void perf_session__close(struct perf_session *s);

/*
 * perf_session__open() for a command that reads one file: says on
 * stderr what there is to say, "zero-sized file (PATH), nothing to
 * do!", "CMD: <the error>" or "Warning: <the warning>".  Returns what
 * perf_session__open() returned; the session is closed unless that is
 * 0.
 */
int perf_session__open_report(struct perf_session *s, const char *path,
			      const char *cmd);

/*
 * What a command leaves out, said once at its end: "Warning: CMD
 * skipped N records of types this perf does not know (T, ...) and N
 * samples whose id names no event of the file."  Nothing when none.
 */
void perf_session__fprintf_skipped(const struct perf_session *s,
				   const char *cmd, FILE *fp);

/* perf_session__fprintf_skipped() on stderr, then perf_session__close(). */
void perf_session__close_report(struct perf_session *s, const char *cmd);

const char *perf_session__error(const struct perf_session *s);
/* Empty when there is nothing to warn about. */
const char *perf_session__warning(const struct perf_session *s);

/*
 * Called for every record: its offset in the file (pipe: in the stream,
 * after the pipe header), and for kernel records the decoded sample (a
 * SAMPLE, or the sample_id_all fields of other records; time is 0 and
 * pid/tid/cpu are -1 when the record has none) and the attr it came
 * from (NULL when unknown).  Records of types 64 and up (written by
 * perf), and SAMPLEs whose id matches no attr (counted in
 * stats.nr_unknown_id), get sample == NULL.  Kernel records are 8-byte
 * aligned; pointers are valid during the call only.  Return 0 to go on,
 * a negative value to stop with it.
 */
typedef int (*perf_session_event_fn)(struct perf_session *s,
				     const union perf_event *event,
				     u64 offset,
				     const struct perf_sample *sample,
				     struct perf_session_attr *attr,
				     void *ctx);

/* In file order. */
int perf_session__process_events(struct perf_session *s,
				 perf_session_event_fn fn, void *ctx);

/*
 * In time order.  Kernel records are queued and delivered sorted by
 * (time, offset) at PERF_RECORD_FINISHED_ROUND: a round delivers what
 * is not later than the newest time seen by the previous round, as
 * perf does, and the end delivers the rest.  Records without a time
 * keep their place after the record before them in the file; records
 * of time 0 (synthesized before counting started) are delivered when
 * read, as perf does.  Records of types 64 and up are delivered when
 * read; a FINISHED_ROUND before the records its round releases.  So
 * are the samples of an attr marked unordered; those of one marked
 * skipped too are not delivered at all.
 */
int perf_session__process_events_ordered(struct perf_session *s,
					 perf_session_event_fn fn, void *ctx);

/* Names used by the design notes. */
#define perf_session__for_each_event perf_session__process_events
#define perf_session__for_each_event_ordered \
	perf_session__process_events_ordered

/* The attr of sample id @id, or NULL: the id table's probe. */
struct perf_session_attr *perf_session__probe_attr(struct perf_session *s,
						   u64 id);

/*
 * perf_session__probe_attr(), answered inline where @id is the last id
 * found: a ring's records come in runs of one.  An id keeps its attr
 * once known, so the answer stays true.
 */
static inline struct perf_session_attr *
perf_session__find_attr(struct perf_session *s, u64 id)
{
	if (s->ids.slots && s->ids.last_idx >= 0 && s->ids.last_id == id)
		return &s->attrs[s->ids.last_idx];
	return perf_session__probe_attr(s, id);
}

/*
 * The header lines of perf report --header-only: "# captured on", the
 * layout, each feature, and for files the missing features.
 */
void perf_session__fprintf_header(struct perf_session *s, FILE *fp,
				  bool full);

/* The TRACING_DATA blob (feature or pipe record), or NULL. */
const void *perf_session__tracing_data(const struct perf_session *s,
				       u64 *size);

#endif /* __PERF_UTIL_DATA_H */
