/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_RECORD_OUTPUT_H
#define __PERF_UTIL_RECORD_OUTPUT_H

/*
 * The perf.data files of a recording, each one complete on its own:
 * header, attrs with their counter ids, features (tracing data for
 * tracepoint events, clock data with -k, the command line, build ids
 * of the binaries its samples hit), the side-band records that resolve
 * its samples (tasks and mappings from /proc), and the records.
 *
 * A recording writes one file, or many: perf record --switch-output,
 * snapshots of overwritable rings, perf sched daemon dumps.
 *
 *	record_output__init()         once, after the counters are open
 *	record_output__open()         a file: header, attrs, features
 *	record_output__synthesize()   the side-band (see tail_synthesize)
 *	record_output__write()        records: the sink of a ring drain
 *	record_output__close()        build ids and features: complete
 *	record_output__exit()
 *
 * record_output__dump() writes the snapshot of overwritable rings into
 * the open file and closes it; record_output__snapshot() does the same
 * into a new file at a path.
 */
#include <perf/evlist.h>
#include "build-id.h"
#include "data.h"
#include "header.h"
#include "record.h"
#include "target.h"
#include "tod.h"

struct record_output {
	/* Set by the caller before init. */
	struct perf_evlist *evlist;
	const struct target *target;	/* which tasks the side-band covers */
	pid_t cmd_pid;			/* the command perf runs, or 0 */
	int clockid;			/* CLOCK_DATA's clock, -1: none */
	bool tod;			/* --tod: correlation points too */
	int argc;			/* for the cmdline feature */
	const char **argv;
	bool tail_synthesize;		/* side-band at a file's end */
	bool started;			/* set once the command has exec'd */

	/* Kept by record_output__*(). */
	struct perf_data_writer writer;
	bool open;
	struct record_stats file;	/* the file being written */
	struct record_stats total;	/* the files closed before it */
	size_t id_size;
	struct build_id_tracker build_ids;
	struct perf_fbuf tracing_data;	/* built once, copied per file */
	struct perf_fbuf snap;		/* a snapshot's records */
	struct tod_tracker tod_tracker;	/* with tod */
	const char *failed;		/* after an error: what failed */
	/* The processes the first file's side-band found (-a, -C). */
	struct pid_set first_pids;
	bool synthesized;		/* a side-band was written */
	bool late_pass;			/* record_output__synthesize_late() due */
};

int record_output__init(struct record_output *out);
void record_output__exit(struct record_output *out);

/* Create @path ("-": a pipe on stdout); 0 or -errno. */
int record_output__open(struct record_output *out, const char *path);

/*
 * Records for what exists now: the kernel's text, then the tasks and
 * their mappings (target.h); time 0, so readers take them first.
 */
int record_output__synthesize(struct record_output *out);
/*
 * Once counting has begun, after a record_output__synthesize() made
 * before it: the processes that started meanwhile, which neither that
 * side-band nor a FORK of their own describes.
 */
int record_output__synthesize_late(struct record_output *out);

/* A record_sink function: to the file, and past the build-id tracker. */
int record_output__write(void *out, const void *buf, size_t len);

/* A PERF_RECORD_FINISHED_ROUND: what came before may be time-sorted. */
int record_output__round(struct record_output *out);

/*
 * The tail side-band (tail_synthesize), the build ids, the features:
 * the file is complete.  Returns the first error of its writing.
 */
int record_output__close(struct record_output *out);

/*
 * Pause every ring of @rings (overwritable ones, record_rings__mmap),
 * copy out what each holds since the previous snapshot, resume them,
 * then write it to the open file with its side-band and close it.  The
 * rings are paused only for the copy.  0 or -errno.
 */
int record_output__dump(struct record_output *out, struct record_rings *rings);

/* record_output__open(@path), then record_output__dump(). */
int record_output__snapshot(struct record_output *out,
			    struct record_rings *rings, const char *path);

/*
 * With tod, call often (every 100 ms or so): takes a correlation point
 * when one is due, and writes it to the open file when @write (not for
 * overwritable rings, whose files get the points kept at the dump).
 * 0 or -errno.
 */
int record_output__tod_poll(struct record_output *out, bool write);

/* Bytes of records in the open file. */
u64 record_output__bytes(const struct record_output *out);

#endif /* __PERF_UTIL_RECORD_OUTPUT_H */
