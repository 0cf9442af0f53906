/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_UNWIND_H
#define __PERF_UTIL_UNWIND_H

#include <stdio.h>
#include <perf/types.h>
#include "event.h"

/*
 * User call chains from DWARF call frame information: samples of
 * --call-graph dwarf carry the user registers and a copy of the user
 * stack, and the frames are found from .eh_frame or .debug_frame of
 * the objects mapped where each return address lies (libdw's unwinder).
 * One unwinder serves one machine; what it learns of a process (the
 * objects it reported, their tables) is kept for the next sample.
 */
struct machine;
struct thread;
struct unwinder;

struct unwind_stats {
	u64 samples;		/* with a user stack and registers */
	u64 failed;		/* of them, no frame past the first */
	u64 bad_stack;		/* of them, a stack copy whose size lied */
	/*
	 * Of them, user registers in no known map: those the task entered
	 * the kernel with before an exec that the sample caught half way.
	 * Nothing to unwind, and no warning.
	 */
	u64 unmapped;
	u64 first_failed_ip;	/* where the first failure was */
	char first_error[96];	/* and why, as libdw says */
};

struct unwinder *unwinder__new(struct machine *m);
void unwinder__delete(struct unwinder *u);

/*
 * The call chain of sample @s of thread @t: the recorded one, and where
 * @s has user registers and stack, PERF_CONTEXT_USER and the unwound
 * user frames after the recorded kernel part (return addresses less
 * one, as Linux perf keeps them).  Valid until the next call; the
 * sample's own chain (or NULL) where there is nothing to unwind.
 */
const struct ip_callchain *unwinder__chain(struct unwinder *u,
					   struct thread *t,
					   const struct perf_sample *s);

const struct unwind_stats *unwinder__stats(const struct unwinder *u);

/* The one warning for samples that could not be unwound, if any. */
void unwind_stats__warn(const struct unwind_stats *st, FILE *out);

#endif /* __PERF_UTIL_UNWIND_H */
