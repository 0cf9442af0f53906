// SPDX-License-Identifier: GPL-2.0
/*
 * The raw dump (perf report -D): for each record its offset, size and
 * type, the bytes in hex, and one decoded line in the shapes perf
 * prints, so that the two dumps of one file can be compared.
 *
 * Records come from a file that may be damaged: every field is read
 * through REC(), by its place in the record structs of event.h, and
 * never past header.size.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include "dump.h"
#include "machine.h"

/* Whether the record holds the size bytes at off. */
static bool rec_has(const union perf_event *ev, size_t off, size_t size)
{
	return off + size <= ev->header.size;
}

/*
 * The integer of size bytes at off, or 0 when the record ends before
 * it: a damaged file must not make the dump read the next record.
 */
static u64 rec_read(const union perf_event *ev, size_t off, size_t size)
{
	const u8 *p = (const u8 *)ev + off;
	u16 v16;
	u32 v32;
	u64 v64;

	if (!rec_has(ev, off, size))
		return 0;
	switch (size) {
	case sizeof(u8):
		return *p;
	case sizeof(u16):
		memcpy(&v16, p, sizeof(v16));
		return v16;
	case sizeof(u32):
		memcpy(&v32, p, sizeof(v32));
		return v32;
	case sizeof(u64):
		memcpy(&v64, p, sizeof(v64));
		return v64;
	default:	/* not an integer field */
		return 0;
	}
}

/* The string at off, or "" when it does not end inside the record. */
static const char *rec_str(const union perf_event *ev, size_t off)
{
	const char *p = (const char *)ev + off;

	if (off >= ev->header.size || !memchr(p, '\0', ev->header.size - off))
		return "";
	return p;
}

#define FIELD_SIZE(type, field) sizeof(((type *)0)->field)

/* Whether record ev holds all of field of the record struct type. */
#define REC_HAS(ev, type, field) \
	rec_has(ev, offsetof(type, field), FIELD_SIZE(type, field))

/*
 * The integer field of the record struct type in ev, read through
 * rec_read(): 0 when the record is too short to hold it.  The field may
 * name an array element, link_info[i].dev, with i a variable.
 */
#define REC(ev, type, field)						\
	((typeof(((type *)0)->field))					\
	 rec_read(ev, offsetof(type, field), FIELD_SIZE(type, field)))

/* The string field of the record struct type in ev, "" when cut. */
#define REC_STR(ev, type, field) rec_str(ev, offsetof(type, field))

/*
 * A function that reads many fields of one record names the struct once,
 * through a shorthand of REC() such as MMAP2_FIELD(ev, pid).
 */

void perf_dump__hex(FILE *fp, const void *buf, size_t len)
{
	const u8 *p = buf;
	size_t i, j;

	fprintf(fp, ".\n. ... raw event: size %zu bytes\n", len);
	for (i = 0; i < len; i += 16) {
		size_t n = len - i < 16 ? len - i : 16;

		fprintf(fp, ".  %04zx: ", i);
		for (j = 0; j < 16; j++) {
			if (j < n)
				fprintf(fp, " %02x", p[i + j]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (j = 0; j < 16; j++) {
			if (j < n)
				fputc(isprint(p[i + j]) && isascii(p[i + j]) ?
				      p[i + j] : '.', fp);
			else
				fputc(' ', fp);
		}
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

/* The read_format values of a sample, from the raw u64s. */
static void dump_read_values(FILE *fp, const struct perf_sample *sample,
			     u64 read_format)
{
	const u64 *v = sample->read_data;
	size_t n = sample->read_size / sizeof(u64), i = 0;
	u64 nr = 1, k;
	bool group = read_format & PERF_FORMAT_GROUP;

	fprintf(fp, "... sample_read:\n");
	if (group && i < n)
		nr = v[i++];
	else if (!group)
		i++;		/* the value comes first */
	if ((read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) && i < n)
		fprintf(fp, "...... time enabled %016llx\n", v[i++]);
	if ((read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) && i < n)
		fprintf(fp, "...... time running %016llx\n", v[i++]);
	if (group)
		fprintf(fp, ".... group nr %llu\n", nr);
	for (k = 0; k < nr && i <= n; k++) {
		u64 value = group ? (i < n ? v[i++] : 0) : v[0], id = 0;

		if ((read_format & PERF_FORMAT_ID) && i < n)
			id = v[i++];
		fprintf(fp, "..... id %016llx, value %016llx",
			id, value);
		if ((read_format & PERF_FORMAT_LOST) && i < n)
			fprintf(fp, ", lost %llu", v[i++]);
		fputc('\n', fp);
	}
}

static void dump_sample(FILE *fp, const union perf_event *ev,
			const struct perf_sample *sample,
			const struct perf_session_attr *attr)
{
	u64 type = attr->attr.sample_type;
	u64 i;

	fprintf(fp, "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx\n",
		ev->header.misc, (int)sample->pid, (int)sample->tid,
		sample->ip, sample->period, sample->addr);
	if ((type & PERF_SAMPLE_CALLCHAIN) && sample->callchain) {
		fprintf(fp, "... FP chain: nr:%llu\n",
			sample->callchain->nr);
		for (i = 0; i < sample->callchain->nr; i++)
			fprintf(fp, "..... %2d: %016llx\n", (int)i,
				sample->callchain->ips[i]);
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		fprintf(fp, "... weight: %llu\n", sample->weight);
	if (type & PERF_SAMPLE_DATA_SRC)
		fprintf(fp, " . data_src: 0x%llx\n", sample->data_src);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		fprintf(fp, " .. phys_addr: 0x%llx\n",
			sample->phys_addr);
	if (type & PERF_SAMPLE_TRANSACTION)
		fprintf(fp, "... transaction: %llx\n",
			sample->transaction);
	if ((type & PERF_SAMPLE_READ) && sample->read_data)
		dump_read_values(fp, sample, attr->attr.read_format);
}

#define MMAP2_FIELD(ev, field) REC(ev, struct perf_record_mmap2, field)

/* The build id bytes the record holds, in hex. */
static void dump_mmap2_build_id(FILE *fp, const union perf_event *ev)
{
	u8 n = MMAP2_FIELD(ev, build_id_size);
	char id[2 * FIELD_SIZE(struct perf_record_mmap2, build_id) + 1] = "";
	u32 i;

	for (i = 0; i < n && i < ARRAY_SIZE(ev->mmap2.build_id) &&
	     REC_HAS(ev, struct perf_record_mmap2, build_id[i]); i++)
		sprintf(id + 2 * i, "%02x", MMAP2_FIELD(ev, build_id[i]));
	fprintf(fp, " <%s>", id);
}

static void dump_mmap2(FILE *fp, const union perf_event *ev)
{
	u32 prot = MMAP2_FIELD(ev, prot), flags = MMAP2_FIELD(ev, flags);

	fprintf(fp, " %d/%d: [%#llx(%#llx) @ %#llx",
		(int)MMAP2_FIELD(ev, pid), (int)MMAP2_FIELD(ev, tid),
		MMAP2_FIELD(ev, start), MMAP2_FIELD(ev, len),
		MMAP2_FIELD(ev, pgoff));
	if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
		dump_mmap2_build_id(fp, ev);
	else
		fprintf(fp, " %02x:%02x %llu %llu", MMAP2_FIELD(ev, maj),
			MMAP2_FIELD(ev, min), MMAP2_FIELD(ev, ino),
			MMAP2_FIELD(ev, ino_generation));
	fprintf(fp, "]: %c%c%c%c %s\n", prot & PROT_READ ? 'r' : '-',
		prot & PROT_WRITE ? 'w' : '-', prot & PROT_EXEC ? 'x' : '-',
		flags & MAP_SHARED ? 's' : 'p',
		REC_STR(ev, struct perf_record_mmap2, filename));
}

static void dump_aux(FILE *fp, const union perf_event *ev)
{
	u64 flags = REC(ev, struct perf_record_aux, flags);

	fprintf(fp, " offset: %#llx size: %#llx flags: %#llx [%s%s%s]\n",
		REC(ev, struct perf_record_aux, aux_offset),
		REC(ev, struct perf_record_aux, aux_size), flags,
		flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
		flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
		flags & PERF_AUX_FLAG_PARTIAL ? "P" : "");
}

static void dump_switch(FILE *fp, const union perf_event *ev)
{
	bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *in_out = !out ? "IN         " :
		(ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ?
		"OUT preempt" : "OUT        ";
	u32 pid, tid;

	if (ev->header.type == PERF_RECORD_SWITCH) {
		fprintf(fp, " %s\n", in_out);
		return;
	}
	pid = REC(ev, struct perf_record_switch_cpu_wide, next_prev_pid);
	tid = REC(ev, struct perf_record_switch_cpu_wide, next_prev_tid);
	fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", in_out,
		out ? "next" : "prev", (int)pid, (int)tid);
}

#define READ_FIELD(ev, field) REC(ev, struct perf_record_read, field)

/*
 * perf reads the values at fixed places whatever the read_format;
 * so does this, to print the same.
 */
static void dump_read(FILE *fp, const union perf_event *ev,
		      const struct perf_session_attr *attr)
{
	u64 format = attr ? attr->attr.read_format : 0;

	fprintf(fp, ": %d %d %s %llu\n",
		(int)READ_FIELD(ev, pid), (int)READ_FIELD(ev, tid),
		attr ? attr->name : "(null)", READ_FIELD(ev, value));
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(fp, "... time enabled : %llu\n",
			READ_FIELD(ev, time_enabled));
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(fp, "... time running : %llu\n",
			READ_FIELD(ev, time_running));
	if (format & PERF_FORMAT_ID)
		fprintf(fp, "... id           : %llu\n", READ_FIELD(ev, id));
	if (format & PERF_FORMAT_LOST)
		fprintf(fp, "... lost         : %llu\n", READ_FIELD(ev, lost));
}

#define NS_FIELD(ev, field) REC(ev, struct perf_record_namespaces, field)

static void dump_namespaces(FILE *fp, const union perf_event *ev)
{
	static const char * const names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	u64 nr = NS_FIELD(ev, nr_namespaces), i;

	fprintf(fp, " %d/%d - nr_namespaces: %u\n\t\t[",
		(int)NS_FIELD(ev, pid), (int)NS_FIELD(ev, tid), (u32)nr);
	for (i = 0; i < nr &&
	     REC_HAS(ev, struct perf_record_namespaces, link_info[i]); i++) {
		if (i && i % 4 == 0)
			fprintf(fp, "\n\t\t ");
		fprintf(fp, "%u/%s: %llu/%#llx%s", (u32)i,
			i < ARRAY_SIZE(names) ? names[i] : "UNKNOWN",
			NS_FIELD(ev, link_info[i].dev),
			NS_FIELD(ev, link_info[i].ino),
			i + 1 != nr ? ", " : "]\n");
	}
}

#define MMAP_FIELD(ev, field) REC(ev, struct perf_record_mmap, field)

static void dump_mmap(FILE *fp, const union perf_event *ev)
{
	fprintf(fp, " %d/%d: [%#llx(%#llx) @ %#llx]: %c %s\n",
		(int)MMAP_FIELD(ev, pid), (int)MMAP_FIELD(ev, tid),
		MMAP_FIELD(ev, start), MMAP_FIELD(ev, len),
		MMAP_FIELD(ev, pgoff),
		ev->header.misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
		REC_STR(ev, struct perf_record_mmap, filename));
}

/* FORK and EXIT: (pid:tid):(ppid:ptid). */
static void dump_fork(FILE *fp, const union perf_event *ev)
{
	fprintf(fp, "(%d:%d):(%d:%d)\n",
		(int)REC(ev, struct perf_record_fork, pid),
		(int)REC(ev, struct perf_record_fork, tid),
		(int)REC(ev, struct perf_record_fork, ppid),
		(int)REC(ev, struct perf_record_fork, ptid));
}

#define KSYM_FIELD(ev, field) REC(ev, struct perf_record_ksymbol, field)

static void dump_ksymbol(FILE *fp, const union perf_event *ev)
{
	fprintf(fp, " addr %llx len %u type %u flags 0x%x name %s\n",
		KSYM_FIELD(ev, addr), KSYM_FIELD(ev, len),
		KSYM_FIELD(ev, ksym_type), KSYM_FIELD(ev, flags),
		REC_STR(ev, struct perf_record_ksymbol, name));
}

/* Records the kernel writes; perf prints nothing more for throttling. */
static void dump_kernel(FILE *fp, const union perf_event *ev,
			const struct perf_sample *sample,
			const struct perf_session_attr *attr)
{
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		if (sample && attr)
			dump_sample(fp, ev, sample, attr);
		else
			fprintf(fp, "(IP, 0x%x): no event has its id\n",
				ev->header.misc);
		break;
	case PERF_RECORD_MMAP:
		dump_mmap(fp, ev);
		break;
	case PERF_RECORD_MMAP2:
		dump_mmap2(fp, ev);
		break;
	case PERF_RECORD_COMM:
		fprintf(fp, "%s: %s:%d/%d\n",
			ev->header.misc & PERF_RECORD_MISC_COMM_EXEC ?
			" exec" : "", REC_STR(ev, struct perf_record_comm, comm),
			(int)REC(ev, struct perf_record_comm, pid),
			(int)REC(ev, struct perf_record_comm, tid));
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		dump_fork(fp, ev);
		break;
	case PERF_RECORD_LOST:
		fprintf(fp, ": id:%llu: lost:%llu\n",
			REC(ev, struct perf_record_lost, id),
			REC(ev, struct perf_record_lost, lost));
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(fp, ": id:%llu: lost samples :%llu\n",
			sample ? sample->id : 0,
			REC(ev, struct perf_record_lost_samples, lost));
		break;
	case PERF_RECORD_READ:
		dump_read(fp, ev, attr);
		break;
	case PERF_RECORD_AUX:
		dump_aux(fp, ev);
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(fp, " pid: %u tid: %u\n",
			REC(ev, struct perf_record_itrace_start, pid),
			REC(ev, struct perf_record_itrace_start, tid));
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dump_switch(fp, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		dump_namespaces(fp, ev);
		break;
	case PERF_RECORD_KSYMBOL:
		dump_ksymbol(fp, ev);
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(fp, " type %u, flags %u, id %u\n",
			REC(ev, struct perf_record_bpf_event, type),
			REC(ev, struct perf_record_bpf_event, flags),
			REC(ev, struct perf_record_bpf_event, id));
		break;
	case PERF_RECORD_CGROUP:
		fprintf(fp, " cgroup: %llu %s\n",
			REC(ev, struct perf_record_cgroup, id),
			REC_STR(ev, struct perf_record_cgroup, path));
		break;
	case PERF_RECORD_TEXT_POKE:
		fprintf(fp, " %#llx old len %u new len %u\n",
			REC(ev, struct perf_record_text_poke, addr),
			REC(ev, struct perf_record_text_poke, old_len),
			REC(ev, struct perf_record_text_poke, new_len));
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(fp, " hw_id: %#llx\n",
			REC(ev, struct perf_record_aux_output_hw_id, hw_id));
		break;
	default:
		fputc('\n', fp);
		break;
	}
}

#define ID_INDEX_FIELD(ev, field) REC(ev, struct perf_record_id_index, field)

static void dump_id_index(FILE *fp, const union perf_event *ev)
{
	u64 nr = ID_INDEX_FIELD(ev, nr), i;

	fprintf(fp, " nr: %llu\n", nr);
	for (i = 0; i < nr &&
	     REC_HAS(ev, struct perf_record_id_index, entries[i]); i++)
		fprintf(fp, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
			ID_INDEX_FIELD(ev, entries[i].id),
			ID_INDEX_FIELD(ev, entries[i].idx),
			(s64)ID_INDEX_FIELD(ev, entries[i].cpu),
			(s64)ID_INDEX_FIELD(ev, entries[i].tid));
}

/* REC() would convert the integer it reads to double: read the bits. */
static double event_update_scale(const union perf_event *ev)
{
	size_t off = offsetof(struct perf_record_event_update_scale, scale);
	u64 bits = rec_read(ev, off, sizeof(bits));
	double scale;

	memcpy(&scale, &bits, sizeof(scale));
	return scale;
}

static void dump_event_update(FILE *fp, const union perf_event *ev)
{
	u64 type = REC(ev, struct perf_record_event_update, type);

	fprintf(fp, "\n... id:    %llu\n",
		REC(ev, struct perf_record_event_update, id));
	switch (type) {
	case PERF_EVENT_UPDATE__UNIT:
		fprintf(fp, "... unit:  %s\n",
			REC_STR(ev, struct perf_record_event_update, str));
		break;
	case PERF_EVENT_UPDATE__SCALE:
		fprintf(fp, "... scale: %f\n", event_update_scale(ev));
		break;
	case PERF_EVENT_UPDATE__NAME:
		fprintf(fp, "... name:  %s\n",
			REC_STR(ev, struct perf_record_event_update, str));
		break;
	default:
		fprintf(fp, "... unknown type %llu\n", type);
		break;
	}
}

struct cpu_list {
	FILE *fp;
	int first, last;		/* the range being collected */
	bool any;
};

static void cpu_list_flush(struct cpu_list *l)
{
	if (l->first < 0)
		return;
	fprintf(l->fp, "%s%d", l->any ? "," : "", l->first);
	if (l->last > l->first)
		fprintf(l->fp, "-%d", l->last);
	l->any = true;
}

/* Add cpus in increasing order; runs print as ranges. */
static void cpu_list_add(struct cpu_list *l, int cpu)
{
	if (l->first >= 0 && cpu == l->last + 1) {
		l->last = cpu;
		return;
	}
	cpu_list_flush(l);
	l->first = cpu;
	l->last = cpu;
}

#define CPU_MAP_FIELD(ev, field) REC(ev, struct perf_record_cpu_map, field)

static void cpu_map_cpus(struct cpu_list *l, const union perf_event *ev)
{
	u16 nr = CPU_MAP_FIELD(ev, cpus.nr), i;

	for (i = 0; i < nr &&
	     REC_HAS(ev, struct perf_record_cpu_map, cpus.cpu[i]); i++)
		cpu_list_add(l, CPU_MAP_FIELD(ev, cpus.cpu[i]));
}

/* The set bits of the mask, whatever long_size says the words are. */
static void cpu_map_mask(struct cpu_list *l, const union perf_event *ev)
{
	u16 nr = CPU_MAP_FIELD(ev, mask32.nr);
	u16 size = CPU_MAP_FIELD(ev, mask32.long_size);
	u32 bit;

	for (bit = 0; size && bit < (u32)nr * size * 8; bit++) {
		u8 byte = size == 8 ? CPU_MAP_FIELD(ev, mask64.bits[bit / 8]) :
				      CPU_MAP_FIELD(ev, mask32.bits[bit / 8]);

		if ((byte >> (bit % 8)) & 1)
			cpu_list_add(l, bit);
	}
}

static void cpu_map_range(struct cpu_list *l, const union perf_event *ev)
{
	u32 bit;

	if (CPU_MAP_FIELD(ev, range.any_cpu))
		cpu_list_add(l, -1);
	for (bit = CPU_MAP_FIELD(ev, range.start_cpu);
	     bit <= CPU_MAP_FIELD(ev, range.end_cpu); bit++)
		cpu_list_add(l, bit);
}

static void dump_cpu_map(FILE *fp, const union perf_event *ev)
{
	struct cpu_list l = { .fp = fp, .first = -1, .last = -1 };

	fprintf(fp, ": ");
	switch (CPU_MAP_FIELD(ev, type)) {
	case PERF_CPU_MAP__CPUS:
		cpu_map_cpus(&l, ev);
		break;
	case PERF_CPU_MAP__MASK:
		cpu_map_mask(&l, ev);
		break;
	case PERF_CPU_MAP__RANGE:
		cpu_map_range(&l, ev);
		break;
	}
	cpu_list_flush(&l);
	fputc('\n', fp);
}

#define TIME_CONV_FIELD(ev, field) REC(ev, struct perf_record_time_conv, field)

/* In the words Linux perf prints them with, its misspelling included. */
static void dump_time_conv(FILE *fp, const union perf_event *ev)
{
	fprintf(fp, "\n... Time Shift      %llu\n",
		TIME_CONV_FIELD(ev, time_shift));
	fprintf(fp, "... Time Muliplier  %llu\n",
		TIME_CONV_FIELD(ev, time_mult));
	fprintf(fp, "... Time Zero       %llu\n",
		TIME_CONV_FIELD(ev, time_zero));
	/* Newer kernels add the fields from time_cycles on. */
	if (!REC_HAS(ev, struct perf_record_time_conv, time_cycles))
		return;
	fprintf(fp, "... Time Cycles     %llu\n",
		TIME_CONV_FIELD(ev, time_cycles));
	fprintf(fp, "... Time Mask       %#llx\n",
		TIME_CONV_FIELD(ev, time_mask));
	fprintf(fp, "... Cap Time Zero   %d\n",
		TIME_CONV_FIELD(ev, cap_user_time_zero));
	fprintf(fp, "... Cap Time Short  %d\n",
		TIME_CONV_FIELD(ev, cap_user_time_short));
}

/* "2026-11-25 22:14:30.123456789" in local time. */
static void print_tod_ns(FILE *fp, u64 ns)
{
	time_t sec = ns / 1000000000;
	char date[64];
	struct tm tm;

	if (!localtime_r(&sec, &tm))
		strcpy(date, "?");
	else
		strftime(date, sizeof(date), "%F %H:%M:%S", &tm);
	fprintf(fp, "%s.%09llu", date, ns % 1000000000);
}

/* A --tod correlation point; an obsolete event type record as such. */
static void dump_event_type(FILE *fp, const union perf_event *ev)
{
	struct tod_point p;

	if (tod_point_parse(ev, &p)) {
		fputc('\n', fp);
		return;
	}
	fprintf(fp, " tod point: clock %llu.%09llu is ",
		p.clock_ns / 1000000000, p.clock_ns % 1000000000);
	print_tod_ns(fp, p.tod_ns);
	fprintf(fp, " (read in %llu ns)%s\n", p.bracket_ns,
		p.flags & TOD_POINT_STEP ? ", after the clock was set" : "");
}

static void dump_thread_map(FILE *fp, const union perf_event *ev)
{
	u64 nr = REC(ev, struct perf_record_thread_map, nr), i;

	fprintf(fp, " nr: %llu thread:", nr);
	for (i = 0; i < nr &&
	     REC_HAS(ev, struct perf_record_thread_map, entries[i]); i++)
		fprintf(fp, " %lld",
			(s64)REC(ev, struct perf_record_thread_map,
				 entries[i].pid));
	fputc('\n', fp);
}

/* Records perf writes. */
static void dump_user(FILE *fp, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
		/* perf ends these lines with the next record's newline. */
		break;
	case PERF_RECORD_ID_INDEX:
		dump_id_index(fp, ev);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		dump_event_update(fp, ev);
		break;
	case PERF_RECORD_THREAD_MAP:
		dump_thread_map(fp, ev);
		break;
	case PERF_RECORD_CPU_MAP:
		dump_cpu_map(fp, ev);
		break;
	case PERF_RECORD_TIME_CONV:
		dump_time_conv(fp, ev);
		break;
	case PERF_RECORD_HEADER_EVENT_TYPE:
		dump_event_type(fp, ev);
		break;
	default:
		fputc('\n', fp);
		break;
	}
}

/*
 * How many attrs perf knew when it printed this record: an ATTR record
 * is printed before its attr is added, so not its own nor later ones.
 */
static u32 attrs_known(struct perf_session *s, const union perf_event *ev)
{
	size_t off = offsetof(struct perf_record_header_attr, attr);
	struct perf_session_attr *a;
	u32 asz;
	u64 id;

	if (ev->header.type != PERF_RECORD_HEADER_ATTR)
		return s->nr_attrs;
	asz = REC(ev, struct perf_record_header_attr, attr.size);
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	/* The ids follow the attr, of the size the writer knew. */
	if (!rec_has(ev, off + asz, sizeof(id)))
		return s->nr_attrs;
	id = rec_read(ev, off + asz, sizeof(id));
	a = perf_session__find_attr(s, id);
	return a ? (u32)a->idx : s->nr_attrs;
}

static void dump_tstamp(struct perf_session *s, FILE *fp,
			const union perf_event *ev,
			const struct perf_sample *sample)
{
	u32 nr = attrs_known(s, ev), i;
	u64 type = 0;

	for (i = 0; i < nr; i++)
		type |= s->attrs[i].attr.sample_type;
	if (ev->header.type != PERF_RECORD_SAMPLE &&
	    (!nr || !s->attrs[0].attr.sample_id_all)) {
		fputs("-1 -1 ", fp);
		return;
	}
	if (type & PERF_SAMPLE_CPU)
		fprintf(fp, "%u ", sample ? sample->cpu : 0);
	if (type & PERF_SAMPLE_TIME)
		fprintf(fp, "%llu ", sample ? sample->time : 0);
}

void perf_dump__record(struct perf_session *s, FILE *fp,
		       const union perf_event *ev, u64 offset,
		       const struct perf_sample *sample,
		       const struct perf_session_attr *attr)
{
	u32 type = ev->header.type;

	fprintf(fp, "\n%#llx@%s [%#x]: event: %u\n", offset,
		s->pipe ? "pipe" : s->name, ev->header.size, type);
	perf_dump__hex(fp, ev, ev->header.size);
	dump_tstamp(s, fp, ev, sample);
	fprintf(fp, "%#llx [%#x]: ", offset, ev->header.size);
	perf_dump__describe(fp, ev, sample, attr);
}

void perf_dump__describe(FILE *fp, const union perf_event *ev,
			 const struct perf_sample *sample,
			 const struct perf_session_attr *attr)
{
	u32 type = ev->header.type;

	fprintf(fp, "PERF_RECORD_%s", perf_event__name(type));
	if (type < PERF_RECORD_USER_TYPE_START)
		dump_kernel(fp, ev, sample, attr);
	else
		dump_user(fp, ev);
}

void perf_dump__stats(const struct perf_session *s, FILE *fp)
{
	const struct perf_session_stats *st = &s->stats;
	u64 total = st->nr_events[0];
	u32 i;

	fprintf(fp, "\nAggregated stats:\n");
	for (i = 0; i < PERF_RECORD_HEADER_MAX; i++) {
		const char *name = i ? perf_event__name(i) : "TOTAL";

		if (!strcmp(name, "UNKNOWN") || !st->nr_events[i])
			continue;
		if (i && total)
			fprintf(fp, "%16s events: %10llu  (%4.1f%%)\n",
				name, st->nr_events[i],
				100.0 * st->nr_events[i] / total);
		else
			fprintf(fp, "%16s events: %10llu\n", name,
				st->nr_events[i]);
	}
	/* perf leaves out the events that have no samples. */
	for (i = 0; i < s->nr_attrs; i++) {
		if (!s->attrs[i].nr_samples)
			continue;
		fprintf(fp, "%s stats:\n", s->attrs[i].name);
		fprintf(fp, "%16s events: %10llu\n", "SAMPLE",
			s->attrs[i].nr_samples);
	}
}

struct dump_ctx {
	FILE *fp;
	bool tod;		/* a time-of-day line after timed records */
	struct machine *machine;	/* report/script -D: tasks and maps */
};

/*
 * As perf report -D: after a sample, the task and the object its
 * address falls in, from the side-band records seen so far.
 */
static void dump_resolved(struct dump_ctx *d, const union perf_event *ev,
			  const struct perf_sample *sample)
{
	struct addr_location al;

	if (ev->header.type != PERF_RECORD_SAMPLE) {
		machine__process_event(d->machine, ev, sample);
		return;
	}
	if (!sample ||
	    machine__resolve(d->machine, sample->pid, sample->tid,
			     sample->cpumode, sample->ip, &al) || !al.thread)
		return;
	fprintf(d->fp, " ... thread: %s:%d\n", al.thread->comm,
		(int)al.thread->tid);
	fprintf(d->fp, " ...... dso: %s\n",
		al.dso ? al.dso->long_name :
		al.level == 'H' ? "[hypervisor]" : "<not found>");
}

static int dump_one(struct perf_session *s, const union perf_event *event,
		    u64 offset, const struct perf_sample *sample,
		    struct perf_session_attr *attr, void *ctx)
{
	struct dump_ctx *d = ctx;

	perf_dump__record(s, d->fp, event, offset, sample, attr);
	if (d->machine)
		dump_resolved(d, event, sample);
	if (d->tod && sample && sample->time) {
		fputs("... time of day: ", d->fp);
		print_tod_ns(d->fp, tod_of(&s->tod, sample->time));
		fputc('\n', d->fp);
	}
	return 0;
}

static int session_dump(struct perf_session *s, FILE *fp, bool ordered,
			bool tod, struct machine *machine)
{
	struct dump_ctx d = { .fp = fp, .tod = tod, .machine = machine };
	int ret;

	if (ordered)
		ret = perf_session__process_events_ordered(s, dump_one, &d);
	else
		ret = perf_session__process_events(s, dump_one, &d);
	perf_dump__stats(s, fp);
	return ret;
}

int perf_session__dump(struct perf_session *s, FILE *fp, bool ordered)
{
	return session_dump(s, fp, ordered, false, NULL);
}

int perf_session__dump_tod(struct perf_session *s, FILE *fp,
			   const struct tod_choice *choice, const char *cmd)
{
	int tod = tod_show(choice, &s->tod, cmd, s->name);
	struct machine machine;
	int ret;

	if (tod < 0)
		return tod;
	if (machine__init(&machine))
		return -ENOMEM;
	ret = session_dump(s, fp, true, tod, &machine);
	machine__exit(&machine);
	return ret;
}
