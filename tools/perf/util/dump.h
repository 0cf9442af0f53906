/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_DUMP_H
#define __PERF_UTIL_DUMP_H

/*
 * The raw dump of perf report -D: every record as a hex dump and a
 * decoded line, then the count of records per type.
 */
#include <stdio.h>
#include "data.h"

/*
 * Dump every record of s to fp, in time order when ordered (as perf
 * report -D does) or in file order, then the "Aggregated stats:" block.
 * Returns what perf_session__process_events*() returned; on
 * PERF_SESSION_DATA_ERROR the records before the bad one were dumped.
 */
int perf_session__dump(struct perf_session *s, FILE *fp, bool ordered);

/*
 * The same in time order, with "... time of day: " after each timed
 * record when @choice (tod.h) says so for this file; -EINVAL, said
 * on stderr for @cmd, when asked for without a reference.
 */
int perf_session__dump_tod(struct perf_session *s, FILE *fp,
			   const struct tod_choice *choice, const char *cmd);

/* One record with its hex dump, as the iteration hands it out. */
void perf_dump__record(struct perf_session *s, FILE *fp,
		       const union perf_event *event, u64 offset,
		       const struct perf_sample *sample,
		       const struct perf_session_attr *attr);

/*
 * "PERF_RECORD_NAME" and the decoded fields of one record, on one line:
 * the part of the dump perf script prints for side-band records.
 */
void perf_dump__describe(FILE *fp, const union perf_event *ev,
			 const struct perf_sample *sample,
			 const struct perf_session_attr *attr);

/* ". ... raw event: size N bytes" and the hex/ASCII lines. */
void perf_dump__hex(FILE *fp, const void *buf, size_t len);

/* The "Aggregated stats:" block and the per-event sample counts. */
void perf_dump__stats(const struct perf_session *s, FILE *fp);

#endif /* __PERF_UTIL_DUMP_H */
