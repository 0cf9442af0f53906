// SPDX-License-Identifier: GPL-2.0
/*
 * Build ids of the binaries a recording's samples hit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "build-id.h"

struct build_id_late {
	u32 tid;
	u64 ip;
};

/* Enough for the samples of a start-up; later ones are dropped. */
#define BUILD_ID_LATE_MAX 65536

int build_id_tracker__init(struct build_id_tracker *bt, u64 sample_type)
{
	memset(bt, 0, sizeof(*bt));
	/* Only the leading fields are needed; they come first in a sample. */
	bt->sample_type = sample_type & (PERF_SAMPLE_IDENTIFIER |
					 PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	return machine__init(&bt->machine);
}

void build_id_tracker__exit(struct build_id_tracker *bt)
{
	free(bt->hit);
	free(bt->late);
	machine__exit(&bt->machine);
}

void build_id_tracker__forget_hits(struct build_id_tracker *bt)
{
	if (bt->hit)
		memset(bt->hit, 0, bt->hit_size * sizeof(*bt->hit));
	bt->nr_hit = 0;
	bt->nr_late = 0;
	bt->kernel_hit = false;
}

static int hit_grow(struct build_id_tracker *bt)
{
	u32 size = bt->hit_size ? bt->hit_size * 2 : 64, i;
	struct dso **t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < bt->hit_size; i++) {
		u32 j;

		if (!bt->hit[i])
			continue;
		j = ((uintptr_t)bt->hit[i] >> 4) & (size - 1);
		while (t[j])
			j = (j + 1) & (size - 1);
		t[j] = bt->hit[i];
	}
	free(bt->hit);
	bt->hit = t;
	bt->hit_size = size;
	return 0;
}

static int hit_add(struct build_id_tracker *bt, struct dso *dso)
{
	u32 j;

	if ((bt->nr_hit + 1) * 2 > bt->hit_size && hit_grow(bt))
		return -ENOMEM;
	j = ((uintptr_t)dso >> 4) & (bt->hit_size - 1);
	for (; bt->hit[j]; j = (j + 1) & (bt->hit_size - 1))
		if (bt->hit[j] == dso)
			return 0;
	bt->hit[j] = dso;
	bt->nr_hit++;
	return 0;
}

static int remember_late(struct build_id_tracker *bt, u32 tid, u64 ip)
{
	if (bt->nr_late >= BUILD_ID_LATE_MAX)
		return 0;
	if (array_reserve_one((void **)&bt->late, &bt->late_alloc,
			      bt->nr_late, sizeof(*bt->late)))
		return -ENOMEM;
	bt->late[bt->nr_late++] = (struct build_id_late){ tid, ip };
	return 0;
}

static int track_sample(struct build_id_tracker *bt,
			const union perf_event *event)
{
	struct perf_sample s;
	struct thread *t;
	struct map *map;

	if (perf_sample__parse(event, bt->sample_type, 0, 0, 0, 0, &s))
		return 0;
	if (s.cpumode == PERF_RECORD_MISC_KERNEL) {
		bt->kernel_hit = true;
		return 0;
	}
	t = machine__find_thread(&bt->machine, s.tid);
	map = t && t->maps ? maps__find(t->maps, s.ip) : NULL;
	if (map && map->dso)
		return hit_add(bt, map->dso);
	return remember_late(bt, s.tid, s.ip);
}

/* The samples met before their mappings, against the mappings now. */
static int resolve_late(struct build_id_tracker *bt)
{
	u32 i;

	for (i = 0; i < bt->nr_late; i++) {
		struct thread *t = machine__find_thread(&bt->machine,
							bt->late[i].tid);
		struct map *map = t && t->maps ?
				  maps__find(t->maps, bt->late[i].ip) : NULL;

		if (map && map->dso && hit_add(bt, map->dso))
			return -ENOMEM;
	}
	bt->nr_late = 0;
	return 0;
}

int build_id_tracker__event(struct build_id_tracker *bt,
			    const union perf_event *event)
{
	struct perf_sample none;

	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		return track_sample(bt, event);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		memset(&none, 0, sizeof(none));
		none.pid = none.tid = (u32)-1;
		return machine__process_event(&bt->machine, event, &none);
	default:
		return 0;
	}
}

/* The running kernel's build id, from its notes in sysfs. */
int build_id__kernel(u8 *id, u8 *size)
{
	unsigned char buf[4096];
	size_t n, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "rb");

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* Notes: namesz, descsz, type, then name and desc, 4-byte aligned. */
	while (off + 12 <= n) {
		u32 namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (desc_off + descsz > n)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4) &&
		    descsz && descsz <= 20) {
			memcpy(id, buf + desc_off, descsz);
			*size = descsz;
			return 0;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

/* Read the build id of every binary hit and list it in the header. */
int build_id_tracker__collect(struct build_id_tracker *bt,
			      struct perf_header_info *info)
{
	u32 i;
	int err;

	if (resolve_late(bt))
		return -ENOMEM;
	for (i = 0; i < bt->hit_size; i++) {
		struct dso *dso = bt->hit[i];

		if (!dso || dso__read_build_id(dso) || !dso->bid.size)
			continue;
		err = perf_header_info__add_build_id(info, dso->long_name, -1,
						     PERF_RECORD_MISC_USER,
						     dso->bid.data,
						     dso->bid.size);
		if (err)
			return err;
	}
	if (bt->kernel_hit) {
		u8 id[20], size;

		if (!build_id__kernel(id, &size))
			return perf_header_info__add_build_id(info,
				"[kernel.kallsyms]", -1, PERF_RECORD_MISC_KERNEL,
				id, size);
	}
	return 0;
}
