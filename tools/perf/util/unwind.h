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
 * the objects mapped where each return address lies: by rules compiled
 * per address (cfi-rules.h), or libdw's unwinder where those do not do.
 * One unwinder serves one machine; what it learns of a process (the
 * objects it reported, their tables) is kept for the next sample.
 */
struct machine;
struct thread;
struct unwinder;

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

/*
 * The one warning for samples that could not be unwound, if any; and
 * with PERF_UNWIND=stats in the environment, how the samples were
 * unwound.
 */
void unwinder__warn(const struct unwinder *u, FILE *out);

#endif /* __PERF_UTIL_UNWIND_H */
