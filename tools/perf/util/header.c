// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data feature sections: their payload formats and the header
 * lines perf report prints, one row of feats[] per feature.  What the
 * writer collects from the system is header-collect.c's.
 *
 * Every payload is parsed with bounds checks: a feature section comes
 * from a file that may be damaged, and a bad one must cost that one
 * feature, never the session.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "event.h"
#include "header.h"

void perf_header_info__init(struct perf_header_info *info)
{
	memset(info, 0, sizeof(*info));
}

static void free_strv(char **v, u32 nr)
{
	u32 i;

	for (i = 0; v && i < nr; i++)
		free(v[i]);
	free(v);
}

static void free_tracing_data(struct perf_header_info *info)
{
	free(info->tracing_data);
	info->tracing_data = NULL;
	info->tracing_data_size = 0;
}

static void free_cmdline(struct perf_header_info *info)
{
	free_strv(info->cmdline, info->nr_cmdline);
	info->cmdline = NULL;
	info->nr_cmdline = 0;
}

static void forget_nrcpus(struct perf_header_info *info)
{
	info->nr_cpus_avail = 0;
	info->nr_cpus_online = 0;
}

static void free_events(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_events; i++) {
		free(info->events[i].name);
		free(info->events[i].ids);
	}
	free(info->events);
	info->events = NULL;
	info->nr_events = 0;
}

static void free_topology(struct perf_header_info *info)
{
	free_strv(info->sibling_cores, info->nr_sibling_cores);
	free_strv(info->sibling_dies, info->nr_sibling_dies);
	free_strv(info->sibling_threads, info->nr_sibling_threads);
	free(info->cpu_topo);
	info->sibling_cores = NULL;
	info->sibling_dies = NULL;
	info->sibling_threads = NULL;
	info->cpu_topo = NULL;
	info->nr_sibling_cores = 0;
	info->nr_sibling_dies = 0;
	info->nr_sibling_threads = 0;
	info->nr_cpu_topo = 0;
}

static void free_build_ids(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_build_ids; i++)
		free(info->build_ids[i].filename);
	free(info->build_ids);
	info->build_ids = NULL;
	info->nr_build_ids = 0;
	info->build_ids_alloc = 0;
}

static void free_groups(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_groups; i++)
		free(info->groups[i].name);
	free(info->groups);
	info->groups = NULL;
	info->nr_groups = 0;
	info->groups_alloc = 0;
}

static void free_pmu_mappings(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_pmu_mappings; i++)
		free(info->pmu_mappings[i].name);
	free(info->pmu_mappings);
	info->pmu_mappings = NULL;
	info->nr_pmu_mappings = 0;
}

static void free_numa(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_numa_nodes; i++)
		free(info->numa_nodes[i].cpus);
	free(info->numa_nodes);
	info->numa_nodes = NULL;
	info->nr_numa_nodes = 0;
}

static void free_caches(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_caches; i++) {
		free(info->caches[i].type);
		free(info->caches[i].size);
		free(info->caches[i].map);
	}
	free(info->caches);
	info->caches = NULL;
	info->nr_caches = 0;
}

static void free_memory(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_memory_nodes; i++)
		free(info->memory_nodes[i].bits);
	free(info->memory_nodes);
	info->memory_nodes = NULL;
	info->nr_memory_nodes = 0;
}

static void free_cpu_pmu_caps(struct perf_header_info *info)
{
	free_strv(info->cpu_pmu_caps, info->nr_cpu_pmu_caps);
	info->cpu_pmu_caps = NULL;
	info->nr_cpu_pmu_caps = 0;
}

static void free_pmu_caps(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_pmu_caps; i++) {
		free(info->pmu_caps[i].pmu_name);
		free_strv(info->pmu_caps[i].caps, info->pmu_caps[i].nr_caps);
	}
	free(info->pmu_caps);
	info->pmu_caps = NULL;
	info->nr_pmu_caps = 0;
}

static void free_hybrid(struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_hybrid_nodes; i++) {
		free(info->hybrid_nodes[i].pmu_name);
		free(info->hybrid_nodes[i].cpus);
	}
	free(info->hybrid_nodes);
	info->hybrid_nodes = NULL;
	info->nr_hybrid_nodes = 0;
}

/* ---- writing features ---- */

void perf_header__write_build_id_record(struct perf_fbuf *b,
					const struct perf_build_id_entry *e)
{
	struct perf_record_header_build_id rec;
	size_t olen = strlen(e->filename) + 1;
	size_t len = NAME_ALIGNED(olen);

	memset(&rec, 0, sizeof(rec));
	rec.header.type = PERF_RECORD_HEADER_BUILD_ID;
	rec.header.misc = e->cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE;
	rec.header.size = sizeof(rec) + len;
	rec.pid = e->pid;
	memcpy(rec.build_id, e->build_id, e->size);
	rec.build_id[20] = e->size;
	perf_fbuf__put(b, &rec, sizeof(rec));
	perf_fbuf__put(b, e->filename, olen);
	perf_fbuf__zero(b, len - olen);
}

static void write_strv(struct perf_fbuf *b, char **v, u32 nr)
{
	u32 i;

	perf_fbuf__put_u32(b, nr);
	for (i = 0; i < nr; i++)
		perf_fbuf__put_string(b, v[i]);
}

static int write_event_desc(struct perf_fbuf *b,
			    const struct perf_header_info *info)
{
	u32 i;

	if (!info->nr_events)
		return -ENOENT;
	perf_fbuf__put_u32(b, info->nr_events);
	perf_fbuf__put_u32(b, sizeof(struct perf_counter_attr));
	for (i = 0; i < info->nr_events; i++) {
		const struct perf_event_desc *d = &info->events[i];

		perf_fbuf__put(b, &d->attr, sizeof(d->attr));
		perf_fbuf__put_u32(b, d->nr_ids);
		perf_fbuf__put_string(b, d->name ? d->name : "");
		perf_fbuf__put(b, d->ids, d->nr_ids * sizeof(u64));
	}
	return 0;
}

/*
 * Package lists, core lists, then per CPU core and socket ids; readers
 * expect exactly nr_cpus_avail of those, and die data after them.
 */
static int write_cpu_topology(struct perf_fbuf *b,
			      const struct perf_header_info *info)
{
	bool per_cpu = info->cpu_topo &&
		       info->nr_cpu_topo == info->nr_cpus_avail;
	u32 i;

	if (!info->nr_sibling_cores && !info->nr_sibling_threads)
		return -ENOENT;
	write_strv(b, info->sibling_cores, info->nr_sibling_cores);
	write_strv(b, info->sibling_threads, info->nr_sibling_threads);
	if (!per_cpu)
		return 0;
	for (i = 0; i < info->nr_cpu_topo; i++) {
		perf_fbuf__put_u32(b, info->cpu_topo[i].core_id);
		perf_fbuf__put_u32(b, info->cpu_topo[i].socket_id);
	}
	if (!info->nr_sibling_dies)
		return 0;
	write_strv(b, info->sibling_dies, info->nr_sibling_dies);
	for (i = 0; i < info->nr_cpu_topo; i++)
		perf_fbuf__put_u32(b, info->cpu_topo[i].die_id);
	return 0;
}

static int write_groups(struct perf_fbuf *b,
			const struct perf_header_info *info)
{
	u32 i;

	if (!info->nr_groups)
		return -ENOENT;
	perf_fbuf__put_u32(b, info->nr_groups);
	for (i = 0; i < info->nr_groups; i++) {
		const struct perf_group_desc *g = &info->groups[i];

		perf_fbuf__put_string(b, g->name ? g->name : "{anon_group}");
		perf_fbuf__put_u32(b, g->leader_idx);
		perf_fbuf__put_u32(b, g->nr_members);
	}
	return 0;
}

static int write_pmu_mappings(struct perf_fbuf *b,
			      const struct perf_header_info *info)
{
	u32 i;

	if (!info->nr_pmu_mappings)
		return -ENOENT;
	perf_fbuf__put_u32(b, info->nr_pmu_mappings);
	for (i = 0; i < info->nr_pmu_mappings; i++) {
		perf_fbuf__put_u32(b, info->pmu_mappings[i].type);
		perf_fbuf__put_string(b, info->pmu_mappings[i].name);
	}
	return 0;
}

static int write_tracing_data(struct perf_fbuf *b,
			      const struct perf_header_info *info)
{
	if (!info->tracing_data_size)
		return -ENOENT;
	perf_fbuf__put(b, info->tracing_data, info->tracing_data_size);
	return 0;
}

static int write_build_ids(struct perf_fbuf *b,
			   const struct perf_header_info *info)
{
	u32 i;

	for (i = 0; i < info->nr_build_ids; i++)
		perf_header__write_build_id_record(b, &info->build_ids[i]);
	return 0;
}

static int write_cmdline(struct perf_fbuf *b,
			 const struct perf_header_info *info)
{
	if (!info->nr_cmdline)
		return -ENOENT;
	write_strv(b, info->cmdline, info->nr_cmdline);
	return 0;
}

static int write_nrcpus(struct perf_fbuf *b,
			const struct perf_header_info *info)
{
	perf_fbuf__put_u32(b, info->nr_cpus_avail);
	perf_fbuf__put_u32(b, info->nr_cpus_online);
	return 0;
}

static int write_total_mem(struct perf_fbuf *b,
			   const struct perf_header_info *info)
{
	perf_fbuf__put_u64(b, info->total_mem);
	return 0;
}

static int write_sample_time(struct perf_fbuf *b,
			     const struct perf_header_info *info)
{
	perf_fbuf__put_u64(b, info->first_sample_time);
	perf_fbuf__put_u64(b, info->last_sample_time);
	return 0;
}

static int write_clockid(struct perf_fbuf *b,
			 const struct perf_header_info *info)
{
	perf_fbuf__put_u64(b, info->clockid_res_ns);
	return 0;
}

static int write_compressed(struct perf_fbuf *b,
			    const struct perf_header_info *info)
{
	perf_fbuf__put_u32(b, 0);	/* version */
	perf_fbuf__put_u32(b, info->comp_type);
	perf_fbuf__put_u32(b, info->comp_level);
	perf_fbuf__put_u32(b, info->comp_ratio);
	perf_fbuf__put_u32(b, info->comp_mmap_len);
	return 0;
}

static int write_clock_data(struct perf_fbuf *b,
			    const struct perf_header_info *info)
{
	perf_fbuf__put_u32(b, 1);	/* version */
	perf_fbuf__put_u32(b, info->clockid);
	perf_fbuf__put_u64(b, info->clock_tod_ns);
	perf_fbuf__put_u64(b, info->clock_clockid_ns);
	return 0;
}

/* ---- reading features ---- */

struct fcur {
	const u8 *p;
	const u8 *end;
	bool bad;
};

static bool fcur_take(struct fcur *c, void *out, size_t len)
{
	if (c->bad || (size_t)(c->end - c->p) < len) {
		c->bad = true;
		return false;
	}
	memcpy(out, c->p, len);
	c->p += len;
	return true;
}

/* What a reader returns once it has taken its fields. */
static int fcur_result(const struct fcur *c)
{
	return c->bad ? -EINVAL : 0;
}

static u32 fcur_u32(struct fcur *c)
{
	u32 v = 0;

	fcur_take(c, &v, sizeof(v));
	return v;
}

static u64 fcur_u64(struct fcur *c)
{
	u64 v = 0;

	fcur_take(c, &v, sizeof(v));
	return v;
}

static size_t fcur_left(const struct fcur *c)
{
	return c->bad ? 0 : c->end - c->p;
}

/* A u32 length, then that many bytes holding a NUL-padded string. */
static char *fcur_string(struct fcur *c)
{
	u32 len = fcur_u32(c);
	char *s;

	if (c->bad || len > fcur_left(c)) {
		c->bad = true;
		return NULL;
	}
	s = strndup((const char *)c->p, len);
	if (!s)
		c->bad = true;
	c->p += len;
	return s;
}

/* A count of items at least min_size bytes each, checked against what is left. */
static u32 fcur_count(struct fcur *c, size_t min_size)
{
	u32 nr = fcur_u32(c);

	if (!c->bad && (u64)nr * min_size > fcur_left(c))
		c->bad = true;
	return c->bad ? 0 : nr;
}

static char **fcur_strv(struct fcur *c, u32 *nr_out)
{
	u32 nr = fcur_count(c, sizeof(u32)), i;
	char **v;

	*nr_out = 0;
	if (c->bad)
		return NULL;
	v = calloc(nr + 1, sizeof(*v));
	if (!v) {
		c->bad = true;
		return NULL;
	}
	for (i = 0; i < nr && !c->bad; i++)
		v[i] = fcur_string(c);
	*nr_out = c->bad ? i : nr;
	return v;
}

int perf_header__read_build_id_record(struct perf_header_info *info,
				      const void *buf, size_t size)
{
	struct perf_record_header_build_id rec;
	struct perf_build_id_entry e;
	size_t name_len;
	char *name;
	int err;

	/* In a pipe the record may be unaligned: copy its fixed part. */
	if (size < sizeof(rec))
		return -EINVAL;
	memcpy(&rec, buf, sizeof(rec));
	if (rec.header.size < sizeof(rec) || rec.header.size > size)
		return -EINVAL;
	name_len = rec.header.size - sizeof(rec);
	name = strndup((const char *)buf + sizeof(rec), name_len);
	if (!name)
		return -ENOMEM;
	memset(&e, 0, sizeof(e));
	e.pid = rec.pid;
	e.cpumode = rec.header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	e.size = 20;
	if ((rec.header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) &&
	    rec.build_id[20] <= 20)
		e.size = rec.build_id[20];
	memcpy(e.build_id, rec.build_id, e.size);
	err = perf_header_info__add_build_id(info, name, e.pid, e.cpumode,
					     e.build_id, e.size);
	free(name);
	return err;
}

static int read_build_ids(struct perf_header_info *info, struct fcur *c)
{
	while (fcur_left(c) > 0) {
		struct perf_counter_header h;
		int err;

		if (!fcur_take(c, &h, sizeof(h)))
			return -EINVAL;
		c->p -= sizeof(h);
		if (h.size < sizeof(h) || h.size > fcur_left(c))
			return -EINVAL;
		err = perf_header__read_build_id_record(info, c->p, h.size);
		if (err)
			return err;
		c->p += h.size;
	}
	return 0;
}

static bool read_one_event(struct fcur *c, u32 attr_size,
			   struct perf_event_desc *d)
{
	size_t copy = attr_size < sizeof(d->attr) ? attr_size : sizeof(d->attr);
	u32 i;

	if (fcur_left(c) < attr_size) {
		c->bad = true;
		return false;
	}
	memcpy(&d->attr, c->p, copy);
	c->p += attr_size;
	d->nr_ids = fcur_u32(c);
	d->name = fcur_string(c);
	if (c->bad || (u64)d->nr_ids * sizeof(u64) > fcur_left(c)) {
		c->bad = true;
		d->nr_ids = 0;
		return false;
	}
	d->ids = calloc(d->nr_ids + 1, sizeof(u64));
	if (!d->ids) {
		c->bad = true;
		d->nr_ids = 0;
		return false;
	}
	for (i = 0; i < d->nr_ids; i++)
		d->ids[i] = fcur_u64(c);
	return true;
}

static int read_event_desc(struct perf_header_info *info, struct fcur *c)
{
	u32 nr = fcur_u32(c), attr_size = fcur_u32(c), i;

	if (c->bad || attr_size < PERF_ATTR_SIZE_VER0 ||
	    (u64)nr * attr_size > fcur_left(c))
		return -EINVAL;
	free_events(info);
	info->events = calloc(nr + 1, sizeof(*info->events));
	if (!info->events)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		info->nr_events = i + 1;
		if (!read_one_event(c, attr_size, &info->events[i]))
			return -EINVAL;
	}
	return 0;
}

static bool read_cpu_ids(struct perf_header_info *info, struct fcur *c)
{
	u32 i, nr = info->nr_cpus_avail;

	if ((u64)nr * 2 * sizeof(u32) > fcur_left(c))
		return false;
	info->cpu_topo = calloc(nr + 1, sizeof(*info->cpu_topo));
	if (!info->cpu_topo)
		return false;
	info->nr_cpu_topo = nr;
	for (i = 0; i < nr; i++) {
		info->cpu_topo[i].core_id = fcur_u32(c);
		info->cpu_topo[i].socket_id = fcur_u32(c);
		info->cpu_topo[i].die_id = (u32)-1;
	}
	return !c->bad;
}

/* Older writers stop after the lists, or after the per-CPU ids. */
static int read_cpu_topology(struct perf_header_info *info, struct fcur *c)
{
	u32 i;

	free_topology(info);
	info->sibling_cores = fcur_strv(c, &info->nr_sibling_cores);
	info->sibling_threads = fcur_strv(c, &info->nr_sibling_threads);
	if (c->bad)
		return -EINVAL;
	if (!fcur_left(c) || !info->nr_cpus_avail)
		return 0;
	if (!read_cpu_ids(info, c))
		return -EINVAL;
	if (!fcur_left(c))
		return 0;
	info->sibling_dies = fcur_strv(c, &info->nr_sibling_dies);
	if (c->bad || (u64)info->nr_cpu_topo * sizeof(u32) > fcur_left(c))
		return -EINVAL;
	for (i = 0; i < info->nr_cpu_topo; i++)
		info->cpu_topo[i].die_id = fcur_u32(c);
	return 0;
}

static int read_groups(struct perf_header_info *info, struct fcur *c)
{
	u32 nr = fcur_count(c, 3 * sizeof(u32)), i;

	if (c->bad)
		return -EINVAL;
	free_groups(info);
	info->groups = calloc(nr + 1, sizeof(*info->groups));
	if (!info->groups)
		return -ENOMEM;
	info->groups_alloc = nr + 1;
	for (i = 0; i < nr && !c->bad; i++) {
		info->nr_groups = i + 1;
		info->groups[i].name = fcur_string(c);
		info->groups[i].leader_idx = fcur_u32(c);
		info->groups[i].nr_members = fcur_u32(c);
	}
	return fcur_result(c);
}

static int read_pmu_mappings(struct perf_header_info *info, struct fcur *c)
{
	u32 nr = fcur_count(c, 2 * sizeof(u32)), i;

	if (c->bad)
		return -EINVAL;
	free_pmu_mappings(info);
	info->pmu_mappings = calloc(nr + 1, sizeof(*info->pmu_mappings));
	if (!info->pmu_mappings)
		return -ENOMEM;
	for (i = 0; i < nr && !c->bad; i++) {
		info->nr_pmu_mappings = i + 1;
		info->pmu_mappings[i].type = fcur_u32(c);
		info->pmu_mappings[i].name = fcur_string(c);
	}
	return fcur_result(c);
}

static int read_numa(struct perf_header_info *info, struct fcur *c)
{
	u32 nr = fcur_count(c, 24), i;

	if (c->bad)
		return -EINVAL;
	free_numa(info);
	info->numa_nodes = calloc(nr + 1, sizeof(*info->numa_nodes));
	if (!info->numa_nodes)
		return -ENOMEM;
	for (i = 0; i < nr && !c->bad; i++) {
		struct perf_numa_node *n = &info->numa_nodes[i];

		info->nr_numa_nodes = i + 1;
		n->node = fcur_u32(c);
		n->mem_total = fcur_u64(c);
		n->mem_free = fcur_u64(c);
		n->cpus = fcur_string(c);
	}
	return fcur_result(c);
}

static int read_caches(struct perf_header_info *info, struct fcur *c)
{
	u32 nr, i;

	if (fcur_u32(c) != 1)		/* only version 1 is defined */
		return -EINVAL;
	nr = fcur_count(c, 28);
	if (c->bad)
		return -EINVAL;
	free_caches(info);
	info->caches = calloc(nr + 1, sizeof(*info->caches));
	if (!info->caches)
		return -ENOMEM;
	for (i = 0; i < nr && !c->bad; i++) {
		struct perf_cache_level *l = &info->caches[i];

		info->nr_caches = i + 1;
		l->level = fcur_u32(c);
		l->line_size = fcur_u32(c);
		l->sets = fcur_u32(c);
		l->ways = fcur_u32(c);
		l->type = fcur_string(c);
		l->size = fcur_string(c);
		l->map = fcur_string(c);
	}
	return fcur_result(c);
}

static bool read_memory_node(struct fcur *c, struct perf_memory_node *n)
{
	u64 words, i;

	n->node = fcur_u64(c);
	fcur_u64(c);			/* its size, implied by the bits */
	n->nr_bits = fcur_u64(c);
	words = (n->nr_bits + 63) / 64;
	if (c->bad || words > fcur_left(c) / sizeof(u64))
		return false;
	n->bits = calloc(words + 1, sizeof(u64));
	if (!n->bits)
		return false;
	for (i = 0; i < words; i++)
		n->bits[i] = fcur_u64(c);
	return !c->bad;
}

static int read_memory(struct perf_header_info *info, struct fcur *c)
{
	u64 nr, i;

	if (fcur_u64(c) != 1)		/* only version 1 is defined */
		return -EINVAL;
	info->memory_bsize = fcur_u64(c);
	nr = fcur_u64(c);
	if (c->bad || nr > fcur_left(c) / 24)
		return -EINVAL;
	free_memory(info);
	info->memory_nodes = calloc(nr + 1, sizeof(*info->memory_nodes));
	if (!info->memory_nodes)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		info->nr_memory_nodes = i + 1;
		if (!read_memory_node(c, &info->memory_nodes[i]))
			return -EINVAL;
	}
	return 0;
}

/* u32 count, then name and value strings: kept as "name=value". */
static char **read_caps(struct fcur *c, u32 *nr_out)
{
	u32 nr = fcur_count(c, 2 * sizeof(u32)), i;
	char **caps = calloc(nr + 1, sizeof(*caps));

	*nr_out = 0;
	if (!caps) {
		c->bad = true;
		return NULL;
	}
	for (i = 0; i < nr && !c->bad; i++) {
		char *name = fcur_string(c), *value = fcur_string(c);

		if (!c->bad && asprintf(&caps[i], "%s=%s", name, value) < 0) {
			caps[i] = NULL;
			c->bad = true;
		}
		free(name);
		free(value);
		if (!c->bad)
			*nr_out = i + 1;
	}
	return caps;
}

static int read_pmu_caps(struct perf_header_info *info, struct fcur *c)
{
	u32 nr = fcur_count(c, 2 * sizeof(u32)), i;

	if (c->bad)
		return -EINVAL;
	free_pmu_caps(info);
	info->pmu_caps = calloc(nr + 1, sizeof(*info->pmu_caps));
	if (!info->pmu_caps)
		return -ENOMEM;
	for (i = 0; i < nr && !c->bad; i++) {
		struct perf_pmu_caps *p = &info->pmu_caps[i];

		info->nr_pmu_caps = i + 1;
		p->caps = read_caps(c, &p->nr_caps);
		p->pmu_name = fcur_string(c);
	}
	return fcur_result(c);
}

static int read_hybrid(struct perf_header_info *info, struct fcur *c)
{
	u32 nr = fcur_count(c, 2 * sizeof(u32)), i;

	if (c->bad)
		return -EINVAL;
	free_hybrid(info);
	info->hybrid_nodes = calloc(nr + 1, sizeof(*info->hybrid_nodes));
	if (!info->hybrid_nodes)
		return -ENOMEM;
	for (i = 0; i < nr && !c->bad; i++) {
		info->nr_hybrid_nodes = i + 1;
		info->hybrid_nodes[i].pmu_name = fcur_string(c);
		info->hybrid_nodes[i].cpus = fcur_string(c);
	}
	return fcur_result(c);
}

static int read_cmdline(struct perf_header_info *info, struct fcur *c)
{
	free_strv(info->cmdline, info->nr_cmdline);
	info->cmdline = fcur_strv(c, &info->nr_cmdline);
	return fcur_result(c);
}

static int read_cpu_pmu_caps(struct perf_header_info *info, struct fcur *c)
{
	free_cpu_pmu_caps(info);
	info->cpu_pmu_caps = read_caps(c, &info->nr_cpu_pmu_caps);
	return fcur_result(c);
}

static int read_nrcpus(struct perf_header_info *info, struct fcur *c)
{
	info->nr_cpus_avail = fcur_u32(c);
	info->nr_cpus_online = fcur_u32(c);
	/* Consumers size per-CPU tables by these. */
	if (info->nr_cpus_avail > PERF_MAX_CPUS ||
	    info->nr_cpus_online > PERF_MAX_CPUS)
		return -ERANGE;
	return fcur_result(c);
}

static int read_total_mem(struct perf_header_info *info, struct fcur *c)
{
	info->total_mem = fcur_u64(c);
	return fcur_result(c);
}

static int read_sample_time(struct perf_header_info *info, struct fcur *c)
{
	info->first_sample_time = fcur_u64(c);
	info->last_sample_time = fcur_u64(c);
	return fcur_result(c);
}

static int read_clockid(struct perf_header_info *info, struct fcur *c)
{
	info->clockid_res_ns = fcur_u64(c);
	return fcur_result(c);
}

static int read_compressed(struct perf_header_info *info, struct fcur *c)
{
	fcur_u32(c);		/* version */
	info->comp_type = fcur_u32(c);
	info->comp_level = fcur_u32(c);
	info->comp_ratio = fcur_u32(c);
	info->comp_mmap_len = fcur_u32(c);
	return fcur_result(c);
}

static int read_clock_data(struct perf_header_info *info, struct fcur *c)
{
	if (fcur_u32(c) != 1)	/* only version 1 is defined */
		return -EINVAL;
	info->clockid = fcur_u32(c);
	info->clock_tod_ns = fcur_u64(c);
	info->clock_clockid_ns = fcur_u64(c);
	return fcur_result(c);
}

/* ---- printing ---- */
static void desc_attr_print(FILE *fp, const char *name, const char *val,
			    void *priv)
{
	fprintf(fp, ", %s = %s", name, val);
}

static void print_events(const struct perf_header_info *info, FILE *fp)
{
	u32 i, j;

	for (i = 0; i < info->nr_events; i++) {
		const struct perf_event_desc *d = &info->events[i];

		fprintf(fp, "# event : name = %s, ", d->name ? d->name : "");
		if (d->nr_ids) {
			fprintf(fp, ", id = {");
			for (j = 0; j < d->nr_ids; j++)
				fprintf(fp, "%s %llu", j ? "," : "",
					d->ids[j]);
			fprintf(fp, " }");
		}
		perf_counter_attr__fprintf(fp, &d->attr, desc_attr_print, NULL);
		fputc('\n', fp);
	}
}

static void print_cmdline(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	fprintf(fp, "# cmdline : ");
	for (i = 0; i < info->nr_cmdline; i++) {
		const char *s;

		/* Quotes come out escaped so the line can be pasted back. */
		for (s = info->cmdline[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", fp);
			else
				fputc(*s, fp);
		}
		fputc(' ', fp);
	}
	fputc('\n', fp);
}

static void print_strv(FILE *fp, const char *label, char **v, u32 nr)
{
	u32 i;

	for (i = 0; i < nr; i++)
		fprintf(fp, "# %s : %s\n", label, v[i]);
}

static void print_cpu_topology(const struct perf_header_info *info, FILE *fp)
{
	bool dies = info->nr_sibling_dies > 0;
	u32 i;

	print_strv(fp, "sibling sockets", info->sibling_cores,
		   info->nr_sibling_cores);
	print_strv(fp, "sibling dies   ", info->sibling_dies,
		   info->nr_sibling_dies);
	print_strv(fp, "sibling threads", info->sibling_threads,
		   info->nr_sibling_threads);
	if (!info->cpu_topo) {
		fprintf(fp, "# Core ID%s and Socket ID information is not available\n",
			dies ? ", Die ID" : "");
		return;
	}
	for (i = 0; i < info->nr_cpu_topo; i++) {
		const struct perf_cpu_topo *t = &info->cpu_topo[i];

		if (dies)
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n",
				i, (int)t->core_id, (int)t->die_id,
				(int)t->socket_id);
		else
			fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int)t->core_id, (int)t->socket_id);
	}
}

static void print_pmu_mappings(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	fprintf(fp, "# pmu mappings: ");
	for (i = 0; i < info->nr_pmu_mappings; i++)
		fprintf(fp, "%s%s = %u", i ? ", " : "",
			info->pmu_mappings[i].name,
			info->pmu_mappings[i].type);
	fputc('\n', fp);
}

static const char *event_name(const struct perf_header_info *info, u32 idx)
{
	if (idx < info->nr_events && info->events[idx].name)
		return info->events[idx].name;
	return "?";
}

static void print_groups(const struct perf_header_info *info, FILE *fp)
{
	u32 i, j;

	for (i = 0; i < info->nr_groups; i++) {
		const struct perf_group_desc *g = &info->groups[i];
		bool anon = !g->name || !strcmp(g->name, "{anon_group}");

		if (g->nr_members < 2)
			continue;
		fprintf(fp, "# group: %s{%s", anon ? "" : g->name,
			event_name(info, g->leader_idx));
		for (j = 1; j < g->nr_members; j++)
			fprintf(fp, ",%s", event_name(info, g->leader_idx + j));
		fprintf(fp, "}\n");
	}
}

static void print_sample_time(const struct perf_header_info *info, FILE *fp)
{
	u64 first = info->first_sample_time, last = info->last_sample_time;

	fprintf(fp, "# time of first sample : %llu.%06llu\n",
		first / 1000000000, first % 1000000000 / 1000);
	fprintf(fp, "# time of last sample : %llu.%06llu\n",
		last / 1000000000, last % 1000000000 / 1000);
	fprintf(fp, "# sample duration : %10.3f ms\n",
		(double)(last - first) / 1000000);
}

static const char *clockid_name(u32 clockid)
{
	switch (clockid) {
	case 0:
		return "realtime";
	case 1:
		return "monotonic";
	case 4:
		return "monotonic_raw";
	case 7:
		return "boottime";
	case 11:
		return "tai";
	default:
		return "(not found)";
	}
}

static void print_clock_data(const struct perf_header_info *info, FILE *fp)
{
	time_t sec = info->clock_tod_ns / 1000000000;
	u64 usec = info->clock_tod_ns % 1000000000 / 1000;
	u64 csec = info->clock_clockid_ns / 1000000000;
	u64 cnsec = info->clock_clockid_ns % 1000000000;
	char date[64] = "<error>";
	struct tm tm;

	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(info->clockid),
		info->clockid);
	fprintf(fp, "# reference time: %s.%06llu = %ld.%06llu (TOD) = %llu.%09llu (%s)\n",
		date, usec, (long)sec, usec, csec, cnsec,
		clockid_name(info->clockid));
}

static void print_numa(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	for (i = 0; i < info->nr_numa_nodes; i++) {
		const struct perf_numa_node *n = &info->numa_nodes[i];

		fprintf(fp, "# node%u meminfo  : total = %llu kB, free = %llu kB\n",
			n->node, n->mem_total, n->mem_free);
		fprintf(fp, "# node%u cpu list : %s\n", n->node, n->cpus);
	}
}

static void print_caches(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	fprintf(fp, "# CPU cache info:\n");
	for (i = 0; i < info->nr_caches; i++) {
		const struct perf_cache_level *l = &info->caches[i];

		fprintf(fp, "#  L%d %-15s %8s [%s]\n", l->level, l->type,
			l->size, l->map);
	}
}

/* "24G": whole units of 1024, as perf prints memory sizes. */
static void print_size(FILE *fp, u64 n)
{
	static const char units[] = "BKMGTPEZY";
	size_t i = 0;

	while (n / 1024 > 1 && i < sizeof(units) - 2) {
		n /= 1024;
		i++;
	}
	fprintf(fp, "%llu%c", n, units[i]);
}

/* The set bits as ranges: "0-23,32-199". */
static void print_bit_ranges(FILE *fp, const u64 *bits, u64 nr)
{
	u64 i = 0, start;
	bool first = true;

	while (i < nr) {
		if (!((bits[i / 64] >> (i % 64)) & 1)) {
			i++;
			continue;
		}
		start = i;
		while (i < nr && ((bits[i / 64] >> (i % 64)) & 1))
			i++;
		fprintf(fp, "%s%llu", first ? "" : ",", start);
		if (i - 1 > start)
			fprintf(fp, "-%llu", i - 1);
		first = false;
	}
}

static void print_memory(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	fprintf(fp, "# memory nodes (nr %u, block size 0x%llx):\n",
		info->nr_memory_nodes, info->memory_bsize);
	for (i = 0; i < info->nr_memory_nodes; i++) {
		const struct perf_memory_node *n = &info->memory_nodes[i];
		u64 blocks = 0, w;

		for (w = 0; w < (n->nr_bits + 63) / 64; w++)
			blocks += __builtin_popcountll(n->bits[w]);
		fprintf(fp, "#  %3llu [", n->node);
		print_size(fp, blocks * info->memory_bsize);
		fprintf(fp, "]: ");
		print_bit_ranges(fp, n->bits, n->nr_bits);
		fputc('\n', fp);
	}
}

static void print_caps(FILE *fp, const char *pmu, char **caps, u32 nr)
{
	u32 i;

	if (!nr) {
		fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", pmu);
	for (i = 0; i < nr; i++)
		fprintf(fp, "%s%s", i ? ", " : "", caps[i]);
	fputc('\n', fp);
}

static void print_hybrid(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	fprintf(fp, "# hybrid cpu system:\n");
	for (i = 0; i < info->nr_hybrid_nodes; i++)
		fprintf(fp, "# %s cpu list : %s\n",
			info->hybrid_nodes[i].pmu_name,
			info->hybrid_nodes[i].cpus);
}

static void print_nrcpus(const struct perf_header_info *info, FILE *fp)
{
	fprintf(fp, "# nrcpus online : %u\n", info->nr_cpus_online);
	fprintf(fp, "# nrcpus avail : %u\n", info->nr_cpus_avail);
}

static void print_total_mem(const struct perf_header_info *info, FILE *fp)
{
	fprintf(fp, "# total memory : %llu kB\n", info->total_mem);
}

static void print_branch_stack(const struct perf_header_info *info,
			       FILE *fp)
{
	fprintf(fp, "# contains samples with branch stack\n");
}

static void print_auxtrace(const struct perf_header_info *info, FILE *fp)
{
	fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
}

static void print_stat(const struct perf_header_info *info, FILE *fp)
{
	fprintf(fp, "# contains stat data\n");
}

static void print_clockid(const struct perf_header_info *info, FILE *fp)
{
	fprintf(fp, "# clockid frequency: %llu MHz\n",
		info->clockid_res_ns * 1000);
}

static void print_compressed(const struct perf_header_info *info, FILE *fp)
{
	fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
		info->comp_type == 1 ? "Zstd" : "Unknown",
		info->comp_level, info->comp_ratio);
}

static void print_cpu_pmu_caps(const struct perf_header_info *info,
			       FILE *fp)
{
	print_caps(fp, "cpu", info->cpu_pmu_caps, info->nr_cpu_pmu_caps);
}

static void print_pmu_caps(const struct perf_header_info *info, FILE *fp)
{
	u32 i;

	for (i = 0; i < info->nr_pmu_caps; i++)
		print_caps(fp, info->pmu_caps[i].pmu_name,
			   info->pmu_caps[i].caps, info->pmu_caps[i].nr_caps);
}

/* ---- the features, one row each ---- */

/*
 * What perf does with a feature: write its payload (-ENOENT when there
 * is nothing to write), read one (info keeps what it decoded; an error
 * makes the caller forget the feature), print its header lines, and
 * free what reading or collecting put into info.  A NULL operation is
 * one the feature does not have: perf never writes it, reads only its
 * bit, prints nothing, or has nothing to free.
 *
 * The six features that are one string need no operations: str_field
 * says where the string lives, str_label how its line starts.
 */
struct feat_ops {
	const char *name;
	int (*write)(struct perf_fbuf *b, const struct perf_header_info *info);
	int (*read)(struct perf_header_info *info, struct fcur *c);
	void (*print)(const struct perf_header_info *info, FILE *fp);
	void (*forget)(struct perf_header_info *info);
	bool full_only;			/* printed with -I only */
	size_t str_field;		/* offsetof a char *, or 0 */
	const char *str_label;
};

#define STRING_FEAT(id, field, label)					\
	[HEADER_##id] = {						\
		.name = #id,						\
		.str_field = offsetof(struct perf_header_info, field),	\
		.str_label = label,					\
	}

static const struct feat_ops feats[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = {
		.name = "TRACING_DATA",
		.write = write_tracing_data,
		.forget = free_tracing_data,
	},
	[HEADER_BUILD_ID] = {
		.name = "BUILD_ID",
		.write = write_build_ids,
		.read = read_build_ids,
		.forget = free_build_ids,
	},
	STRING_FEAT(HOSTNAME, hostname, "hostname"),
	STRING_FEAT(OSRELEASE, osrelease, "os release"),
	STRING_FEAT(VERSION, version, "perf version"),
	STRING_FEAT(ARCH, arch, "arch"),
	[HEADER_NRCPUS] = {
		.name = "NRCPUS",
		.write = write_nrcpus,
		.read = read_nrcpus,
		.print = print_nrcpus,
		.forget = forget_nrcpus,
	},
	STRING_FEAT(CPUDESC, cpudesc, "cpudesc"),
	STRING_FEAT(CPUID, cpuid, "cpuid"),
	[HEADER_TOTAL_MEM] = {
		.name = "TOTAL_MEM",
		.write = write_total_mem,
		.read = read_total_mem,
		.print = print_total_mem,
	},
	[HEADER_CMDLINE] = {
		.name = "CMDLINE",
		.write = write_cmdline,
		.read = read_cmdline,
		.print = print_cmdline,
		.forget = free_cmdline,
	},
	[HEADER_EVENT_DESC] = {
		.name = "EVENT_DESC",
		.write = write_event_desc,
		.read = read_event_desc,
		.print = print_events,
		.forget = free_events,
	},
	[HEADER_CPU_TOPOLOGY] = {
		.name = "CPU_TOPOLOGY",
		.write = write_cpu_topology,
		.read = read_cpu_topology,
		.print = print_cpu_topology,
		.forget = free_topology,
		.full_only = true,
	},
	[HEADER_NUMA_TOPOLOGY] = {
		.name = "NUMA_TOPOLOGY",
		.read = read_numa,
		.print = print_numa,
		.forget = free_numa,
		.full_only = true,
	},
	[HEADER_BRANCH_STACK] = {
		.name = "BRANCH_STACK",
		.print = print_branch_stack,
	},
	[HEADER_PMU_MAPPINGS] = {
		.name = "PMU_MAPPINGS",
		.write = write_pmu_mappings,
		.read = read_pmu_mappings,
		.print = print_pmu_mappings,
		.forget = free_pmu_mappings,
	},
	[HEADER_GROUP_DESC] = {
		.name = "GROUP_DESC",
		.write = write_groups,
		.read = read_groups,
		.print = print_groups,
		.forget = free_groups,
	},
	[HEADER_AUXTRACE] = {
		.name = "AUXTRACE",
		.print = print_auxtrace,
	},
	[HEADER_STAT] = {
		.name = "STAT",
		.print = print_stat,
	},
	[HEADER_CACHE] = {
		.name = "CACHE",
		.read = read_caches,
		.print = print_caches,
		.forget = free_caches,
		.full_only = true,
	},
	[HEADER_SAMPLE_TIME] = {
		.name = "SAMPLE_TIME",
		.write = write_sample_time,
		.read = read_sample_time,
		.print = print_sample_time,
	},
	[HEADER_MEM_TOPOLOGY] = {
		.name = "MEM_TOPOLOGY",
		.read = read_memory,
		.print = print_memory,
		.forget = free_memory,
		.full_only = true,
	},
	[HEADER_CLOCKID] = {
		.name = "CLOCKID",
		.write = write_clockid,
		.read = read_clockid,
		.print = print_clockid,
	},
	[HEADER_DIR_FORMAT] = { .name = "DIR_FORMAT" },
	[HEADER_BPF_PROG_INFO] = { .name = "BPF_PROG_INFO" },
	[HEADER_BPF_BTF] = { .name = "BPF_BTF" },
	[HEADER_COMPRESSED] = {
		.name = "COMPRESSED",
		.write = write_compressed,
		.read = read_compressed,
		.print = print_compressed,
	},
	[HEADER_CPU_PMU_CAPS] = {
		.name = "CPU_PMU_CAPS",
		.read = read_cpu_pmu_caps,
		.print = print_cpu_pmu_caps,
		.forget = free_cpu_pmu_caps,
	},
	[HEADER_CLOCK_DATA] = {
		.name = "CLOCK_DATA",
		.write = write_clock_data,
		.read = read_clock_data,
		.print = print_clock_data,
	},
	[HEADER_HYBRID_TOPOLOGY] = {
		.name = "HYBRID_TOPOLOGY",
		.read = read_hybrid,
		.print = print_hybrid,
		.forget = free_hybrid,
		.full_only = true,
	},
	[HEADER_PMU_CAPS] = {
		.name = "PMU_CAPS",
		.read = read_pmu_caps,
		.print = print_pmu_caps,
		.forget = free_pmu_caps,
	},
};

static char **str_field(const struct perf_header_info *info,
			const struct feat_ops *f)
{
	return (char **)((const char *)info + f->str_field);
}

const char *perf_header__feat_name(int feat)
{
	if (feat < HEADER_FIRST_FEATURE || feat >= HEADER_LAST_FEATURE)
		return NULL;
	return feats[feat].name;
}

/* Drop what feature feat put into info, so a bad payload leaves no half. */
void perf_header_info__forget(struct perf_header_info *info, int feat)
{
	const struct feat_ops *f = &feats[feat];

	if (f->str_field) {
		free(*str_field(info, f));
		*str_field(info, f) = NULL;
	} else if (f->forget) {
		f->forget(info);
	}
	perf_feat_clear(info->features, feat);
}

void perf_header_info__exit(struct perf_header_info *info)
{
	int feat;

	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		perf_header_info__forget(info, feat);
	/* Filled without their feature bit, e.g. build ids from records. */
	free_build_ids(info);
	free_events(info);
	memset(info, 0, sizeof(*info));
}

int perf_header__write_feature(struct perf_fbuf *b, int feat,
			       const struct perf_header_info *info)
{
	const struct feat_ops *f;
	const char *str;
	int err = -ENOENT;

	if (feat < HEADER_FIRST_FEATURE || feat >= HEADER_LAST_FEATURE)
		return -ENOENT;
	f = &feats[feat];
	if (f->str_field) {
		str = *str_field(info, f);
		if (str) {
			perf_fbuf__put_string(b, str);
			err = 0;
		}
	} else if (f->write) {
		err = f->write(b, info);
	}
	return err ? err : b->err;
}

static int read_feat(struct perf_header_info *info, int feat, struct fcur *c)
{
	const struct feat_ops *f = &feats[feat];
	char **str;

	if (f->str_field) {
		str = str_field(info, f);
		free(*str);
		*str = fcur_string(c);
		return *str ? 0 : -EINVAL;
	}
	/* Without a reader the feature is known to exist, not decoded. */
	return f->read ? f->read(info, c) : 0;
}

int perf_header__read_feature(struct perf_header_info *info, int feat,
			      const void *buf, size_t size)
{
	struct fcur c = { .p = buf, .end = (const u8 *)buf + size };
	int err;

	if (feat < HEADER_FIRST_FEATURE || feat >= HEADER_FEAT_BITS)
		return -EINVAL;
	if (feat >= HEADER_LAST_FEATURE) {
		perf_feat_set(info->features, feat);
		return 0;
	}
	err = read_feat(info, feat, &c);
	if (err) {
		perf_header_info__forget(info, feat);
		return err;
	}
	perf_feat_set(info->features, feat);
	return 0;
}

static void print_feat(const struct perf_header_info *info,
		       const struct feat_ops *f, FILE *fp)
{
	if (f->str_field)
		fprintf(fp, "# %s : %s\n", f->str_label, *str_field(info, f));
	else if (f->print)
		f->print(info, fp);
}

void perf_header_info__fprintf(const struct perf_header_info *info,
			       FILE *fp, bool full)
{
	const struct feat_ops *f;
	int feat;

	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		if (!perf_feat_test(info->features, feat))
			continue;
		f = &feats[feat];
		if (f->full_only && !full)
			fprintf(fp, "# %s info available, use -I to display\n",
				f->name);
		else
			print_feat(info, f, fp);
	}
}

void perf_header_info__fprintf_missing(const struct perf_header_info *info,
				       FILE *fp)
{
	int feat;

	fprintf(fp, "# missing features: ");
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		if (!perf_feat_test(info->features, feat))
			fprintf(fp, "%s ", feats[feat].name);
	fputc('\n', fp);
}
