/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_EVENT_H
#define __PERF_UTIL_EVENT_H

/*
 * Records as they appear in the ring buffer and in perf.data, and the
 * decoded form of a sample.  Kernel record types come from the ABI
 * header; types 64 and up exist only in perf.data, written by the tool.
 */
#include <perf/types.h>
#include <linux/perf_counter.h>

enum perf_user_record_type {
	PERF_RECORD_USER_TYPE_START	= 64,
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,	/* obsolete */
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE_INFO	= 70,
	PERF_RECORD_AUXTRACE		= 71,
	PERF_RECORD_AUXTRACE_ERROR	= 72,
	PERF_RECORD_THREAD_MAP		= 73,
	PERF_RECORD_CPU_MAP		= 74,
	PERF_RECORD_STAT_CONFIG		= 75,
	PERF_RECORD_STAT		= 76,
	PERF_RECORD_STAT_ROUND		= 77,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_TIME_CONV		= 79,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_COMPRESSED		= 81,
	PERF_RECORD_FINISHED_INIT	= 82,
	PERF_RECORD_HEADER_MAX
};

#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

/* Strings in records are NUL-terminated and padded to 8 bytes. */
/*
 * The most CPUs a recording may name (Linux perf's limit too).  A CPU
 * number at or above it, in a sample or in the header, is corruption:
 * the reader refuses it, so that consumers can size per-CPU tables by
 * the CPU numbers they see.
 */
#define PERF_MAX_CPUS 4096

#define PERF_ALIGN8(x) (((x) + 7) & ~(size_t)7)

struct perf_record_mmap {
	struct perf_counter_header header;
	u32 pid, tid;
	u64 start;
	u64 len;
	u64 pgoff;
	char filename[];
};

struct perf_record_mmap2 {
	struct perf_counter_header header;
	u32 pid, tid;
	u64 start;
	u64 len;
	u64 pgoff;
	union {
		struct {
			u32 maj;
			u32 min;
			u64 ino;
			u64 ino_generation;
		};
		struct {	/* with PERF_RECORD_MISC_MMAP_BUILD_ID */
			u8 build_id_size;
			u8 __reserved_1;
			u16 __reserved_2;
			u8 build_id[20];
		};
	};
	u32 prot;
	u32 flags;
	char filename[];
};

struct perf_record_comm {
	struct perf_counter_header header;
	u32 pid, tid;
	char comm[];
};

/* FORK and EXIT share a layout. */
struct perf_record_fork {
	struct perf_counter_header header;
	u32 pid, ppid;
	u32 tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_counter_header header;
	u64 id;
	u64 lost;
};

struct perf_record_lost_samples {
	struct perf_counter_header header;
	u64 lost;
};

struct perf_record_throttle {
	struct perf_counter_header header;
	u64 time;
	u64 id;
	u64 stream_id;
};

/*
 * READ (attr.inherit_stat): a child's counter at its exit.  The kernel
 * writes only the values read_format selects, in this order; the
 * fields sit here when it selects all of them but GROUP.
 */
struct perf_record_read {
	struct perf_counter_header header;
	u32 pid, tid;
	u64 value;
	u64 time_enabled;	/* PERF_FORMAT_TOTAL_TIME_ENABLED */
	u64 time_running;	/* PERF_FORMAT_TOTAL_TIME_RUNNING */
	u64 id;			/* PERF_FORMAT_ID */
	u64 lost;		/* PERF_FORMAT_LOST */
};

struct perf_record_aux {
	struct perf_counter_header header;
	u64 aux_offset;
	u64 aux_size;
	u64 flags;		/* PERF_AUX_FLAG_* */
};

struct perf_record_itrace_start {
	struct perf_counter_header header;
	u32 pid, tid;
};

/* SWITCH_CPU_WIDE: the task that comes in or goes out in exchange. */
struct perf_record_switch_cpu_wide {
	struct perf_counter_header header;
	u32 next_prev_pid;
	u32 next_prev_tid;
};

struct perf_record_namespaces {
	struct perf_counter_header header;
	u32 pid, tid;
	u64 nr_namespaces;
	struct perf_ns_link_info link_info[];	/* by *_NS_INDEX */
};

struct perf_record_ksymbol {
	struct perf_counter_header header;
	u64 addr;
	u32 len;
	u16 ksym_type;		/* enum perf_record_ksymbol_type */
	u16 flags;		/* PERF_RECORD_KSYMBOL_FLAGS_* */
	char name[];
};

struct perf_record_bpf_event {
	struct perf_counter_header header;
	u16 type;		/* enum perf_bpf_event_type */
	u16 flags;
	u32 id;			/* the program's id */
	u8 tag[8];
};

struct perf_record_cgroup {
	struct perf_counter_header header;
	u64 id;
	char path[];
};

/* The old bytes then the new ones, padded to 8 bytes. */
struct perf_record_text_poke {
	struct perf_counter_header header;
	u64 addr;
	u16 old_len;
	u16 new_len;
	u8 bytes[];
};

struct perf_record_aux_output_hw_id {
	struct perf_counter_header header;
	u64 hw_id;
};

/* perf.data: an attr and the ids of its counters (pipe mode). */
struct perf_record_header_attr {
	struct perf_counter_header header;
	struct perf_counter_attr attr;
	/* u64 id[] follows, up to header.size */
};

struct perf_record_header_build_id {
	struct perf_counter_header header;
	s32 pid;
	u8 build_id[24];	/* 20 bytes of id; byte 20 is its size when
				 * header.misc has PERF_RECORD_MISC_BUILD_ID_SIZE
				 */
	char filename[];
};

struct perf_record_header_feature {
	struct perf_counter_header header;
	u64 feat_id;
	char data[];
};

/*
 * perf.data: a time-of-day correlation point (perf record --tod, tod.h).
 * It takes the type of the obsolete HEADER_EVENT_TYPE record, which
 * Linux perf reads and skips, in files and in pipes; the magic tells it
 * from a record of the old kind, whose first word is an event id.
 */
#define PERF_TOD_POINT_MAGIC 0x31544e494f50444fULL	/* "ODPOINT1" */

struct perf_record_tod_point {
	struct perf_counter_header header;	/* HEADER_EVENT_TYPE */
	u64 magic;
	u64 clock_ns;		/* the event clock ... */
	u64 tod_ns;		/* ... and CLOCK_REALTIME, at one instant */
	u64 bracket_ns;		/* how long that instant took to read */
	u32 clockid;		/* the event clock's id */
	u32 flags;		/* TOD_POINT_STEP: the clock was set before */
};

struct perf_record_time_conv {
	struct perf_counter_header header;
	u64 time_shift;
	u64 time_mult;
	u64 time_zero;
	u64 time_cycles;
	u64 time_mask;
	u8 cap_user_time_zero;
	u8 cap_user_time_short;
	u8 reserved[6];
};

/* perf.data: the attr, CPU and thread of each counter id. */
struct perf_record_id_index_entry {
	u64 id;
	u64 idx;		/* the attr's index */
	u64 cpu;		/* (u64)-1: any */
	u64 tid;		/* (u64)-1: any */
};

struct perf_record_id_index {
	struct perf_counter_header header;
	u64 nr;
	struct perf_record_id_index_entry entries[];
};

/* perf.data: the threads perf stat counted. */
struct perf_record_thread_map_entry {
	u64 pid;
	char comm[16];
};

struct perf_record_thread_map {
	struct perf_counter_header header;
	u64 nr;
	struct perf_record_thread_map_entry entries[];
};

/* PERF_RECORD_CPU_MAP::type */
enum perf_cpu_map_type {
	PERF_CPU_MAP__CPUS	= 0,
	PERF_CPU_MAP__MASK	= 1,
	PERF_CPU_MAP__RANGE	= 2,
};

/*
 * perf.data: the CPUs of a recording.  The bitmap of a MASK map is
 * words of long_size bytes (4 or 8) that follow the 16-bit fields with
 * no alignment, so it is described, and read, as bytes.
 */
struct perf_record_cpu_map {
	struct perf_counter_header header;
	u16 type;			/* enum perf_cpu_map_type */
	union {
		struct {		/* CPUS */
			u16 nr;
			u16 cpu[];
		} cpus;
		struct {		/* MASK, long_size 4 */
			u16 nr;		/* words */
			u16 long_size;
			u8 bits[];
		} mask32;
		struct {		/* MASK, long_size 8 */
			u16 nr;
			u16 long_size;
			u16 pad[2];	/* a u32, unaligned */
			u8 bits[];
		} mask64;
		struct {		/* RANGE */
			u8 any_cpu;	/* the map holds -1 too */
			u8 pad;
			u16 start_cpu;
			u16 end_cpu;
		} range;
	};
};

/* PERF_RECORD_EVENT_UPDATE::type */
enum perf_event_update_type {
	PERF_EVENT_UPDATE__UNIT		= 0,
	PERF_EVENT_UPDATE__SCALE	= 1,
	PERF_EVENT_UPDATE__NAME		= 2,
	PERF_EVENT_UPDATE__CPUS		= 3,
};

/* perf.data: a property of a counter: its unit or name, a string. */
struct perf_record_event_update {
	struct perf_counter_header header;
	u64 type;		/* enum perf_event_update_type */
	u64 id;			/* the counter's id */
	char str[];
};

/* The same record with a PERF_EVENT_UPDATE__SCALE: a double. */
struct perf_record_event_update_scale {
	struct perf_counter_header header;
	u64 type;
	u64 id;
	double scale;
};

union perf_event {
	struct perf_counter_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_header_attr attr;
	struct perf_record_header_feature feat;
	struct perf_record_time_conv time_conv;
	u64 array[1];
};

struct ip_callchain {
	u64 nr;
	u64 ips[];
};

/* A decoded sample, or the sample_id_all fields of another record. */
/* PERF_SAMPLE_REGS_USER or _INTR: abi 0 means none (a kernel thread). */
struct perf_sample_regs {
	u64 abi;		/* PERF_SAMPLE_REGS_ABI_* */
	u64 mask;		/* which registers regs[] has, lowest bit first */
	const u64 *regs;	/* points into the record */
};

/*
 * Bits set in a register mask.  Not __builtin_popcountll(): without
 * -mpopcnt (not every x86-64 has it) that is a call into libgcc, made
 * for every register of every sample unwound.
 */
static inline unsigned int regs_mask_weight(u64 w)
{
	w -= (w >> 1) & 0x5555555555555555ULL;
	w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (w * 0x0101010101010101ULL) >> 56;
}

struct perf_sample {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 id;
	u64 stream_id;
	u32 cpu;
	u64 period;
	u64 weight;
	u64 data_src;
	u64 phys_addr;
	u64 cgroup;
	u64 transaction;
	const struct ip_callchain *callchain;	/* points into the record */
	u32 raw_size;
	const void *raw_data;			/* points into the record */
	const void *read_data;			/* PERF_SAMPLE_READ values */
	u32 read_size;
	struct perf_sample_regs user_regs;
	struct perf_sample_regs intr_regs;
	/* PERF_SAMPLE_STACK_USER: stack bytes from the user sp up */
	const void *user_stack;			/* points into the record */
	u64 user_stack_size;			/* of them valid (dyn_size) */
	bool user_stack_bad;			/* dyn_size said more than size */
	u16 misc;
	u8 cpumode;				/* PERF_RECORD_MISC_CPUMODE_* */
};

/* Bytes of sample_id_all trailer a record carries for this sample_type. */
size_t perf_sample_id_size(u64 sample_type);

int perf_sample__parse(const union perf_event *event, u64 sample_type,
		       u64 read_format, u64 branch_sample_type,
		       u64 regs_user_mask, u64 regs_intr_mask,
		       struct perf_sample *sample);
/* The same into a struct zeroed first (a bad record's result; tests). */
int perf_sample__parse_zeroed(const union perf_event *event, u64 sample_type,
			      u64 read_format, u64 branch_sample_type,
			      u64 regs_user_mask, u64 regs_intr_mask,
			      struct perf_sample *sample);

/*
 * An attr's samples as perf_sample__parse() takes them, and where their
 * fixed fields (IDENTIFIER up to PERIOD) lie: a u64 slot after the
 * header each, or SAMPLE_SLOT_NONE.  Samples with nothing after those
 * but a call chain and raw data are decoded without a test per field.
 */
#define SAMPLE_SLOT_NONE 0xff

struct perf_sample_layout {
	u64 sample_type;
	u64 read_format;
	u64 branch_sample_type;
	u64 regs_user_mask;
	u64 regs_intr_mask;
	u8 ip, tid, time, addr, id, stream_id, cpu, period;
	u8 nr_fixed;		/* slots the fixed fields take */
	bool simple;		/* only CALLCHAIN and RAW after them */
};

void perf_sample_layout__init(struct perf_sample_layout *l, u64 sample_type,
			      u64 read_format, u64 branch_sample_type,
			      u64 regs_user_mask, u64 regs_intr_mask);
/* The same as perf_sample__parse() with the layout's attr fields. */
int perf_sample__parse_layout(const union perf_event *event,
			      const struct perf_sample_layout *l,
			      struct perf_sample *sample);
/*
 * Only the CPU (-1 without one): the same checks and error as
 * perf_sample__parse_layout(), for a sample nothing else is read of.
 */
int perf_sample__cpu_of(const union perf_event *event,
			const struct perf_sample_layout *l, u32 *cpu);
int perf_sample__parse_id(const union perf_event *event, u64 sample_type,
			  struct perf_sample *sample);

const char *perf_event__name(u32 type);

#endif /* __PERF_UTIL_EVENT_H */
