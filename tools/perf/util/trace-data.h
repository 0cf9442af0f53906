/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_TRACE_DATA_H
#define __PERF_UTIL_TRACE_DATA_H

/*
 * The tracing data of perf.data (feature TRACING_DATA, or the
 * PERF_RECORD_HEADER_TRACING_DATA record of a pipe): what a reader on
 * another machine needs to decode the raw data of tracepoint samples.
 * The layout is the one Linux perf writes (version "0.6"):
 *
 *	"\027\010\104tracing" "0.6\0"
 *	u8 endian (1 big), u8 sizeof(long), u32 page size
 *	"header_page\0" u64 size, tracefs events/header_page
 *	"header_event\0" u64 size, tracefs events/header_event
 *	u32 count, per ftrace event: u64 size, its format file
 *	u32 systems, per system: name\0, u32 count,
 *		per event: u64 size, its format file
 *	u32 size, kallsyms text (empty: symbols come from elsewhere)
 *	u32 size, tracefs printk_formats
 *	u64 size, tracefs saved_cmdlines
 *
 * Numbers are in the byte order of the recording machine.
 */
#include <stddef.h>
#include <perf/types.h>
#include "header.h"

struct perf_session;
struct tep_handle;

/*
 * Append the tracing data for the tracepoints @events ("subsys:name",
 * nr of them) to @b, read from this machine's tracefs.  With a
 * raw_syscalls event, the formats of every syscalls:sys_enter_* come
 * too: they name and type the arguments.  Returns 0 or -errno
 * (-ENOENT: an event has no format file).
 */
int trace_data__build(struct perf_fbuf *b, const char * const *events,
		      int nr);

/*
 * The TRACING_DATA feature of @info for the tracepoints @events, built
 * as trace_data__build() does; the blob then belongs to @info.
 */
int trace_data__set_header(struct perf_header_info *info,
			   const char * const *events, int nr);

/*
 * Parse a tracing data blob into a new libtraceevent handle.  NULL on
 * failure, with the reason in @err.
 */
struct tep_handle *trace_data__parse(const void *buf, size_t size,
				     char *err, size_t errlen);

/*
 * The tracepoint formats of the file @s, parsed into *@tep: 0 with
 * *@tep NULL when the file has no tracing data (the caller says what
 * that means for it), -EINVAL when the data is damaged, said on stderr
 * as "@cmd: FILE: why".
 */
int trace_data__from_session(const struct perf_session *s, const char *cmd,
			     struct tep_handle **tep);

#endif /* __PERF_UTIL_TRACE_DATA_H */
