/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_BUILD_ID_H
#define __PERF_UTIL_BUILD_ID_H

#include "event.h"
#include "header.h"
#include "machine.h"

/*
 * Which binaries samples fell into, found while recording, so perf.data
 * carries their build ids: a reader on another machine (or after an
 * upgrade) can then tell whether its copy of a binary is the one that
 * ran.  Samples are resolved to mappings only, never to symbols.
 */
struct build_id_late;

struct build_id_tracker {
	struct machine machine;
	u64 sample_type;	/* of the samples, up to IP and TID */
	struct dso **hit;	/* open addressing set */
	u32 hit_size;
	u32 nr_hit;
	bool kernel_hit;
	/*
	 * Samples read before the records that map their address (the
	 * CPUs' buffers are read one after the other, not in time order):
	 * resolved again when the build ids are collected.
	 */
	struct build_id_late *late;
	u32 nr_late;
	u32 late_alloc;
};

int build_id_tracker__init(struct build_id_tracker *bt, u64 sample_type);
void build_id_tracker__exit(struct build_id_tracker *bt);
int build_id_tracker__event(struct build_id_tracker *bt,
			    const union perf_event *event);
/* A new file begins: its build ids will be those its samples hit. */
void build_id_tracker__forget_hits(struct build_id_tracker *bt);
int build_id_tracker__collect(struct build_id_tracker *bt,
			      struct perf_header_info *info);

/* The running kernel's build id (from /sys/kernel/notes); 0 or -errno. */
int build_id__kernel(u8 *id, u8 *size);
#endif /* __PERF_UTIL_BUILD_ID_H */
