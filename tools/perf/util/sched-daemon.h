/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SCHED_DAEMON_H
#define __PERF_UTIL_SCHED_DAEMON_H

/*
 * perf sched daemon: a flight recorder of the scheduler.  It records
 * the tracepoints of perf sched record system-wide, keeps the last N
 * seconds in memory (flight-store.h) within a byte budget, and on
 * SIGHUP writes them to a new perf.data in a directory, from a forked
 * child so that recording goes on meanwhile.  SIGTERM and SIGINT stop
 * it without writing.
 */
#include <stdbool.h>
#include <perf/types.h>

struct perf_evlist;
struct flight_store;
struct tod_tracker;

#define SCHED_DAEMON_SECONDS	60
#define SCHED_DAEMON_MAX_BYTES	(128ULL << 20)
#define SCHED_DAEMON_PAGES	256
#define SCHED_MAX_EVENTS	8

struct sched_daemon_opts {
	const char *dir;		/* -o: where dumps go */
	const char *pid_file;
	unsigned int seconds;		/* the window */
	u64 max_bytes;			/* the store's budget */
	unsigned int mmap_pages;	/* ring data pages per CPU */
	bool callchain;			/* -g */
	bool compress;			/* -C: zstd */
	int comp_level;
	bool kvm;			/* -K: kvm_entry/kvm_exit too */
	int argc;			/* the command line, for the */
	const char **argv;		/* cmdline feature */
};

/*
 * The tracepoints perf sched record and the daemon record, into
 * names[SCHED_MAX_EVENTS]; with @kvm the two KVM ones too.  Returns
 * how many.
 */
int sched_events(const char **names, bool kvm);

/* "128M", "1G", "65536": bytes into *out; -EINVAL when unreadable. */
int sched_daemon__parse_size(const char *s, u64 *out);

/* Run until SIGTERM/SIGINT; the exit status: 0, or 1 on errors. */
int sched_daemon__run(const struct sched_daemon_opts *o);

struct sched_dump_stats {
	u64 records;			/* written from the store */
	u64 first, last;		/* their times */
	u32 ratio;			/* compression ratio, 0: none */
};

/*
 * Write the records of @st at or after @from, with the tasks and
 * mappings they need, as a perf.data at @path for the events of
 * @evlist (their attrs and ids), and the time-of-day correlation
 * points @tod kept (NULL: none).  0 or -errno.
 */
int sched_daemon__write(struct perf_evlist *evlist,
			const struct flight_store *st, u64 from,
			const char *path, const struct sched_daemon_opts *o,
			const struct tod_tracker *tod,
			struct sched_dump_stats *stats);

#endif /* __PERF_UTIL_SCHED_DAEMON_H */
