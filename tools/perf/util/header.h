/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_HEADER_H
#define __PERF_UTIL_HEADER_H

/*
 * The perf.data header (format PERFILE2): the file header, the attrs
 * with their ids, and the optional feature sections stored after the
 * data.  The layout is the one Linux perf reads and writes, so files
 * move freely between the two tools.
 *
 * File mode:
 *
 *	struct perf_file_header			at offset 0
 *	u64 ids[] of every attr			anywhere, see perf_file_attr
 *	struct perf_file_attr attrs[]		header.attrs
 *	records					header.data
 *	struct perf_file_section feat[]		at data.offset + data.size,
 *						one per set feature bit
 *	feature payloads			where feat[] points
 *
 * Pipe mode: a perf_pipe_file_header, then records only; attrs and
 * features travel as PERF_RECORD_HEADER_ATTR and _FEATURE records.
 */
#include <stdio.h>
#include <perf/types.h>
#include <linux/perf_counter.h>

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL	/* other byte order */
#define PERF_MAGIC1		0x454c494646524550ULL	/* "PERFFILE" */

/* Strings in feature sections are padded to this many bytes. */
#define NAME_ALIGN 64
#define NAME_ALIGNED(len) (((len) + NAME_ALIGN - 1) & ~(size_t)(NAME_ALIGN - 1))

enum perf_header_feat {
	HEADER_RESERVED		= 0,
	HEADER_FIRST_FEATURE	= 1,
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID		= 2,
	HEADER_HOSTNAME		= 3,
	HEADER_OSRELEASE	= 4,
	HEADER_VERSION		= 5,
	HEADER_ARCH		= 6,
	HEADER_NRCPUS		= 7,
	HEADER_CPUDESC		= 8,
	HEADER_CPUID		= 9,
	HEADER_TOTAL_MEM	= 10,
	HEADER_CMDLINE		= 11,
	HEADER_EVENT_DESC	= 12,
	HEADER_CPU_TOPOLOGY	= 13,
	HEADER_NUMA_TOPOLOGY	= 14,
	HEADER_BRANCH_STACK	= 15,
	HEADER_PMU_MAPPINGS	= 16,
	HEADER_GROUP_DESC	= 17,
	HEADER_AUXTRACE		= 18,
	HEADER_STAT		= 19,
	HEADER_CACHE		= 20,
	HEADER_SAMPLE_TIME	= 21,
	HEADER_MEM_TOPOLOGY	= 22,
	HEADER_CLOCKID		= 23,
	HEADER_DIR_FORMAT	= 24,
	HEADER_BPF_PROG_INFO	= 25,
	HEADER_BPF_BTF		= 26,
	HEADER_COMPRESSED	= 27,
	HEADER_CPU_PMU_CAPS	= 28,
	HEADER_CLOCK_DATA	= 29,
	HEADER_HYBRID_TOPOLOGY	= 30,
	HEADER_PMU_CAPS		= 31,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_BITS	= 256,
};

#define HEADER_FEAT_WORDS (HEADER_FEAT_BITS / 64)

struct perf_file_section {
	u64 offset;
	u64 size;
};

struct perf_file_header {
	u64 magic;
	u64 size;			/* sizeof(struct perf_file_header) */
	u64 attr_size;			/* bytes per entry of attrs */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, empty */
	u64 adds_features[HEADER_FEAT_WORDS];
};

/* The header before the adds_features bitmap existed. */
#define PERF_FILE_HEADER_V1_SIZE 72

struct perf_pipe_file_header {
	u64 magic;
	u64 size;			/* 16 */
};

/* One entry of the attrs section; attr.size bytes of attr, then ids. */
struct perf_file_attr {
	struct perf_counter_attr attr;
	struct perf_file_section ids;
};

static inline bool perf_feat_test(const u64 *bits, int feat)
{
	return (bits[feat / 64] >> (feat % 64)) & 1;
}

static inline void perf_feat_set(u64 *bits, int feat)
{
	bits[feat / 64] |= 1ULL << (feat % 64);
}

static inline void perf_feat_clear(u64 *bits, int feat)
{
	bits[feat / 64] &= ~(1ULL << (feat % 64));
}

/* "HOSTNAME", "BUILD_ID", ...; NULL past the last known feature. */
const char *perf_header__feat_name(int feat);

/* One event of EVENT_DESC: the attr, its name and its ids. */
struct perf_event_desc {
	struct perf_counter_attr attr;
	char *name;
	u64 *ids;
	u32 nr_ids;
};

struct perf_build_id_entry {
	char *filename;
	s32 pid;
	u16 cpumode;			/* PERF_RECORD_MISC_CPUMODE_* */
	u8 size;			/* bytes of build_id in use */
	u8 build_id[20];
};

struct perf_group_desc {
	char *name;			/* "{anon_group}" when unnamed */
	u32 leader_idx;
	u32 nr_members;
};

struct perf_cpu_topo {
	u32 core_id;
	u32 socket_id;
	u32 die_id;			/* when nr_sibling_dies */
};

struct perf_pmu_mapping {
	u32 type;
	char *name;
};

struct perf_numa_node {
	u32 node;
	u64 mem_total;			/* kB */
	u64 mem_free;			/* kB */
	char *cpus;			/* "0-3,8" */
};

struct perf_cache_level {
	u32 level;
	u32 line_size;
	u32 sets;
	u32 ways;
	char *type;			/* "Data", "Instruction", "Unified" */
	char *size;			/* "32K" */
	char *map;			/* CPUs sharing it */
};

struct perf_memory_node {
	u64 node;
	u64 nr_bits;			/* memory blocks */
	u64 *bits;			/* which blocks belong to the node */
};

struct perf_pmu_caps {
	char *pmu_name;
	u32 nr_caps;
	char **caps;			/* "name=value" */
};

struct perf_hybrid_node {
	char *pmu_name;
	char *cpus;
};

/*
 * What the features say about the recording.  The reader fills it from
 * a file; the writer writes the features whose bit is set in features.
 * Every pointer is owned by the struct and freed by
 * perf_header_info__exit().
 */
struct perf_header_info {
	u64 features[HEADER_FEAT_WORDS];

	char *hostname;
	char *osrelease;
	char *version;
	char *arch;
	char *cpudesc;
	char *cpuid;
	u32 nr_cpus_avail;
	u32 nr_cpus_online;
	u64 total_mem;			/* kB */

	u32 nr_cmdline;
	char **cmdline;			/* perf's path, then its arguments */

	u32 nr_events;
	struct perf_event_desc *events;

	u32 nr_sibling_cores;		/* CPU_TOPOLOGY: package lists */
	char **sibling_cores;
	u32 nr_sibling_dies;
	char **sibling_dies;
	u32 nr_sibling_threads;		/* core (SMT sibling) lists */
	char **sibling_threads;
	u32 nr_cpu_topo;		/* == nr_cpus_avail when present */
	struct perf_cpu_topo *cpu_topo;

	u32 nr_pmu_mappings;
	struct perf_pmu_mapping *pmu_mappings;

	u32 nr_numa_nodes;		/* read only, not written */
	struct perf_numa_node *numa_nodes;
	u32 nr_caches;
	struct perf_cache_level *caches;
	u64 memory_bsize;
	u32 nr_memory_nodes;
	struct perf_memory_node *memory_nodes;
	u32 nr_cpu_pmu_caps;
	char **cpu_pmu_caps;		/* "name=value" */
	u32 nr_pmu_caps;
	struct perf_pmu_caps *pmu_caps;
	u32 nr_hybrid_nodes;
	struct perf_hybrid_node *hybrid_nodes;
	u32 comp_type;			/* COMPRESSED: 1 is zstd */
	u32 comp_level;
	u32 comp_ratio;
	u32 comp_mmap_len;

	u32 nr_groups, groups_alloc;
	struct perf_group_desc *groups;

	u32 nr_build_ids;
	u32 build_ids_alloc;
	struct perf_build_id_entry *build_ids;

	u64 first_sample_time;		/* SAMPLE_TIME */
	u64 last_sample_time;

	u64 clockid_res_ns;		/* CLOCKID */

	u8 *tracing_data;		/* TRACING_DATA, written only */
	u64 tracing_data_size;

	u32 clockid;			/* CLOCK_DATA */
	u64 clock_tod_ns;		/* wall clock at the reference point */
	u64 clock_clockid_ns;		/* clockid time at the same point */
};

void perf_header_info__init(struct perf_header_info *info);
void perf_header_info__exit(struct perf_header_info *info);
/* Drop what @feat holds and clear its bit, as if it was never read. */
void perf_header_info__forget(struct perf_header_info *info, int feat);

/*
 * Fill the system features from the running machine: hostname,
 * osrelease, arch (uname), nrcpus, cpudesc and cpuid (/proc/cpuinfo),
 * total memory (/proc/meminfo), the CPU topology and the PMU mappings
 * (sysfs), and version.
 * What cannot be read is left out, its bit clear.
 */
int perf_header_info__collect(struct perf_header_info *info,
			      const char *version);

/*
 * The command line as perf stores it: the path of the running binary,
 * then argv as the command saw it (argv[0] = "record").
 */
int perf_header_info__set_cmdline(struct perf_header_info *info, int argc,
				  const char * const *argv);

int perf_header_info__add_build_id(struct perf_header_info *info,
				   const char *filename, s32 pid, u16 cpumode,
				   const u8 *build_id, u8 size);

/* Reference points from perf record -k: clockid and wall time. */
void perf_header_info__set_clock(struct perf_header_info *info, u32 clockid,
				 u64 res_ns, u64 tod_ns, u64 clockid_ns);

int perf_header_info__add_group(struct perf_header_info *info,
				const char *name, u32 leader_idx,
				u32 nr_members);

/* A growable byte buffer: feature payloads are built in it. */
struct perf_fbuf {
	u8 *data;
	size_t len;
	size_t cap;
	int err;			/* sticky -ENOMEM */
};

void perf_fbuf__put(struct perf_fbuf *b, const void *p, size_t len);
void perf_fbuf__put_u32(struct perf_fbuf *b, u32 v);
void perf_fbuf__put_u64(struct perf_fbuf *b, u64 v);
void perf_fbuf__put_string(struct perf_fbuf *b, const char *s);
void perf_fbuf__zero(struct perf_fbuf *b, size_t len);
void perf_fbuf__free(struct perf_fbuf *b);

/*
 * Append the payload of feature feat to b.  Returns 0, -ENOENT when
 * there is nothing to write for it, -ENOMEM.
 */
int perf_header__write_feature(struct perf_fbuf *b, int feat,
			       const struct perf_header_info *info);

/*
 * Parse the payload of feature feat into info and set its bit.
 * Features this tool does not decode only get their bit set.  Returns
 * 0, -EINVAL for a payload that does not hold together, -ENOMEM.
 */
int perf_header__read_feature(struct perf_header_info *info, int feat,
			      const void *buf, size_t size);

/*
 * One PERF_RECORD_HEADER_BUILD_ID record (also the unit of the BUILD_ID
 * feature) into info.
 */
int perf_header__read_build_id_record(struct perf_header_info *info,
				      const void *buf, size_t size);

/* Append one PERF_RECORD_HEADER_BUILD_ID record for e to b. */
void perf_header__write_build_id_record(struct perf_fbuf *b,
					const struct perf_build_id_entry *e);

/*
 * The "# hostname : ..." lines of perf report --header-only, one per
 * set feature in bit order; full adds the topology details.
 */
void perf_header_info__fprintf(const struct perf_header_info *info,
			       FILE *fp, bool full);

/* "# missing features: ..." for a file (not a pipe). */
void perf_header_info__fprintf_missing(const struct perf_header_info *info,
				       FILE *fp);

/*
 * Print every non-zero attr field as pr(fp, "sample_type", "IP|TID").
 * The field names and value formats are those of perf's event lines.
 */
typedef void (*perf_attr_print_fn)(FILE *fp, const char *name,
				   const char *val, void *priv);
void perf_counter_attr__fprintf(FILE *fp, const struct perf_counter_attr *attr,
				perf_attr_print_fn pr, void *priv);

/* "IP|TID|TIME" for a sample_type. */
void perf_sample_type__snprintf(char *buf, size_t size, u64 sample_type);

#endif /* __PERF_UTIL_HEADER_H */
