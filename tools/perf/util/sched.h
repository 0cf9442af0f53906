/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_SCHED_H
#define __PERF_UTIL_SCHED_H

/*
 * perf sched timehist: for every switch-out seen in the sched_switch
 * records, how long the task waited before it ran (off the CPU since
 * its last switch-out), how long it was delayed after its wakeup, and
 * how long it ran; optional wakeup and migration lines, summaries per
 * task and per CPU, and guest time per vCPU thread from kvm_entry and
 * kvm_exit.  Lines and summaries are those of Linux perf sched
 * timehist.
 */
#include <stdio.h>
#include <perf/types.h>
#include "data.h"
#include "machine.h"
#include "tod.h"

struct tep_handle;
struct sched_attr_info;
struct sched_runtime;
struct sched_kvm;

struct sched_opts {
	bool summary;		/* -S: lines and summary */
	bool summary_only;	/* -s */
	bool wakeups;		/* -w */
	bool migrations;	/* -M */
	bool next;		/* -n */
	bool cpu_visual;	/* -V */
	bool idle_hist;		/* -I */
	bool state;		/* --state */
	bool callchain;		/* -g, on unless --no-call-graph */
	unsigned int max_stack;
	int frames;		/* enum callchain_frames: user/kernel only */
	const char *pids;	/* -p list */
	const char *tids;	/* -t list */
	const char *cpus;	/* -C list */
	u64 time_start;		/* --time, ns; 0: open */
	u64 time_end;
	struct tod_choice tod;	/* --tod[=start], --no-tod */
};

struct sched_stats {
	double n, mean, m2;
	u64 max, min;
};

/* -I -g: idle time after a task left the CPU with this stack. */
struct sched_idle_chain {
	char *folded;		/* "f1 <- f2 <- ..." */
	u64 hit;		/* idle ns */
	u32 count;
};

/* What one task (or one CPU's idle task) accumulated. */
struct sched_runtime {
	struct thread *thread;
	u64 last_time;		/* its last switch-out */
	u64 ready_to_run;	/* its first wakeup since then */
	int last_state;
	u64 dt_run, dt_delay, dt_sleep, dt_iowait, dt_preempt;
	u64 total_run, total_delay, total_sleep, total_iowait, total_preempt;
	u64 migrations;
	struct sched_stats run_stats;
	struct thread *last_thread;	/* idle: the task before it (-I) */
	char *entry_chain;		/* idle: that task's stack (-I -g) */
	struct sched_idle_chain *chains;
	u32 nr_chains, chains_alloc;
};

struct sched_frame_buf {
	const char **names;	/* NULL: no symbol ("[unknown]") */
	u32 nr;
	u32 alloc;
};

struct sched_timehist {
	struct sched_opts opts;
	struct machine machine;
	struct tep_handle *tep;
	struct sched_attr_info *attrs;	/* per session attr */
	u32 nr_attrs;
	FILE *out;
	int comm_width;
	u32 max_cpu;
	u64 skipped;
	u64 hist_start, hist_end;

	struct perf_cpu_map *cpus;	/* -C, NULL: every CPU */
	u32 *pid_list, *tid_list;
	u32 nr_pids, nr_tids;

	struct sched_runtime **runtimes;	/* of machine threads */
	u32 nr_runtimes, runtimes_alloc;
	struct thread **idle;			/* per CPU */
	u32 nr_idle;

	struct sched_frame_buf chain;	/* the last switch-out's stack */
	struct sched_kvm *kvm;
	bool have_waking;
	struct tod *tod;		/* times as time of day, or NULL */
};

/*
 * Analyse session @s into @out.  Returns 0, or -errno with the reason
 * already printed on stderr.
 */
int sched_timehist__run(struct sched_timehist *th, struct perf_session *s,
			FILE *out);
void sched_timehist__exit(struct sched_timehist *th);

/* -s/-S: per task, per CPU idle time, totals. */
void sched_timehist__print_summary(struct sched_timehist *th);

#endif /* __PERF_UTIL_SCHED_H */
