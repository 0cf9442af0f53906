/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_RECORD_H
#define __PERF_UTIL_RECORD_H

#include <perf/evlist.h>
#include <perf/mmap.h>
#include "target.h"

/* Where drained and synthesized records go; returns 0 or -errno. */
typedef int (*record_sink_fn)(void *ctx, const void *buf, size_t len);

struct record_sink {
	record_sink_fn write;
	void *ctx;
};

struct record_stats {
	u64 samples;		/* SAMPLE records written */
	u64 lost;		/* records the kernel dropped (LOST) */
	u64 lost_chunks;	/* LOST records seen */
	u64 records;		/* all records written */
	u64 wakeups;
};

/*
 * One ring per CPU (per thread when counting threads on any CPU); every
 * counter of that CPU (thread) writes into it through SET_OUTPUT.
 */
struct record_rings {
	int nr;
	struct perf_mmap **maps;
	int *fds;
};

/*
 * Map the rings of the open counters of @evlist.  @overwrite maps them
 * read-only, for counters opened with attr.write_backward: the kernel
 * then keeps the newest records and overwrites the oldest.
 */
int record_rings__mmap(struct record_rings *rings, struct perf_evlist *evlist,
		       unsigned int data_pages, bool overwrite);
void record_rings__unmap(struct record_rings *rings);
/* Forward rings: pass on what they hold and free the space. */
int record_rings__drain(struct record_rings *rings,
			const struct record_sink *sink,
			struct record_stats *stats);
/*
 * Overwritable rings: pass on, oldest first, what each ring holds that
 * was written since its last snapshot (at most a ring's worth).  Pause
 * the rings around it.  Returns the number of records or -errno.
 */
int record_rings__snapshot(struct record_rings *rings,
			   const struct record_sink *sink,
			   struct record_stats *stats);
/* PERF_COUNTER_IOC_PAUSE_OUTPUT on every ring; 0 or the first -errno. */
int record_rings__pause(struct record_rings *rings, bool pause);
int record_rings__poll(struct record_rings *rings, int timeout_ms,
		       bool overwrite);

/* How samples record their call chains (--call-graph). */
enum record_callgraph {
	RECORD_CALLGRAPH_NONE,
	RECORD_CALLGRAPH_FP,		/* the kernel walks frame pointers */
	RECORD_CALLGRAPH_DWARF,		/* user registers and stack copied */
};

struct record_callgraph_param {
	enum record_callgraph mode;
	u32 stack_size;			/* DWARF: bytes of user stack */
	/*
	 * --user-callchains, --kernel-callchains: the chains of that side
	 * only; both (or none) mean both sides, as Linux perf documents.
	 */
	bool user_only, kernel_only;
};

/* The registers samples carry: --user-regs, -I/--intr-regs (masks). */
struct record_regs_param {
	u64 user, intr;
};

/* Bytes of user stack --call-graph dwarf copies unless told. */
#define RECORD_DWARF_STACK_DEFAULT	8192

/*
 * Parse "fp" or "dwarf[,SIZE]" (NULL: fp) into @p; an error message for
 * the user, or NULL.
 */
const char *record_callgraph__parse(const char *arg,
				    struct record_callgraph_param *p);
/*
 * -g: the mode the perf config's call-graph.record-mode names (fp
 * unless it does), as Linux perf; dwarf without a size takes
 * call-graph.dump-size there too.
 */
const char *record_callgraph__default(struct record_callgraph_param *p);
/* The attr bits @p asks for, on an attr set up for sampling. */
void record_callgraph__apply(const struct record_callgraph_param *p,
			     struct perf_counter_attr *attr);
/*
 * The attr bits of @r, after record_callgraph__apply(): with DWARF call
 * graphs --user-regs names what is sampled besides the IP and the stack
 * pointer, as in Linux perf.
 */
void record_regs__apply(const struct record_regs_param *r,
			const struct record_callgraph_param *cg,
			struct perf_counter_attr *attr);

/* Records for what existed before counting started, from /proc. */
int record_synthesize_thread(pid_t pid, pid_t tid, size_t id_size,
			     const struct record_sink *sink);
int record_synthesize_process(pid_t pid, size_t id_size,
			      const struct record_sink *sink);
int record_synthesize_task_thread(pid_t tid, size_t id_size,
				  const struct record_sink *sink);
int record_synthesize_all(size_t id_size, const struct record_sink *sink);

/* Processes record_synthesize_seen() described, sorted. */
struct pid_set {
	pid_t *pids;
	size_t nr;
	size_t alloc;
};

/* record_synthesize_all(), keeping in @seen the processes it found. */
int record_synthesize_seen(size_t id_size, const struct record_sink *sink,
			   struct pid_set *seen);
/*
 * The processes /proc has now and @seen has not: those that started
 * while the first pass read /proc, before counting began, have no
 * FORK or COMM of their own.
 */
int record_synthesize_new(size_t id_size, const struct record_sink *sink,
			  const struct pid_set *seen);
/*
 * Adds the process of the live thread @tid, unless it is @pid: a tid
 * that a record gives to @pid and that another process now uses.
 */
int pid_set__add_other_owner(struct pid_set *set, pid_t tid, pid_t pid);
/* Sorts @set, as record_synthesize_new() needs it. */
void pid_set__sort(struct pid_set *set);
void pid_set__exit(struct pid_set *set);
int record_synthesize_kernel(size_t id_size, const struct record_sink *sink);
/*
 * All of the above that @t needs: the kernel; for CPUs every process;
 * for -p/-t those tasks; for a command (@cmd_pid) its name, or once it
 * has @started (exec'd), its threads and mappings.
 */
int record_synthesize_target(const struct target *t, pid_t cmd_pid,
			     bool started, size_t id_size,
			     const struct record_sink *sink,
			     struct pid_set *seen);

#endif /* __PERF_UTIL_RECORD_H */
