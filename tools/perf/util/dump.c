// SPDX-License-Identifier: GPL-2.0
/*
 * The raw dump (perf report -D): for each record its offset, size and
 * type, the bytes in hex, and one decoded line in the shapes perf
 * prints, so that the two dumps of one file can be compared.
 *
 * Records come from a file that may be damaged: every field is read
 * through a bounds-checked accessor, never past header.size.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include "dump.h"
#include "machine.h"

static u64 rd64(const union perf_event *ev, size_t off)
{
	u64 v = 0;

	if (off + sizeof(v) <= ev->header.size)
		memcpy(&v, (const u8 *)ev + off, sizeof(v));
	return v;
}

static u32 rd32(const union perf_event *ev, size_t off)
{
	u32 v = 0;

	if (off + sizeof(v) <= ev->header.size)
		memcpy(&v, (const u8 *)ev + off, sizeof(v));
	return v;
}

static u16 rd16(const union perf_event *ev, size_t off)
{
	u16 v = 0;

	if (off + sizeof(v) <= ev->header.size)
		memcpy(&v, (const u8 *)ev + off, sizeof(v));
	return v;
}

/* The string at off, or "" when it does not end inside the record. */
static const char *rd_str(const union perf_event *ev, size_t off)
{
	const char *p = (const char *)ev + off;

	if (off >= ev->header.size || !memchr(p, '\0', ev->header.size - off))
		return "";
	return p;
}

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

static void dump_mmap2(FILE *fp, const union perf_event *ev)
{
	u32 prot = rd32(ev, 64), flags = rd32(ev, 68);
	char id[48] = "";
	u32 i, n;

	fprintf(fp, " %d/%d: [%#llx(%#llx) @ %#llx",
		(int)rd32(ev, 8), (int)rd32(ev, 12), rd64(ev, 16), rd64(ev, 24),
		rd64(ev, 32));
	if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		n = ev->header.size > 40 ? ((const u8 *)ev)[40] : 0;
		for (i = 0; i < n && i < 20 && 44 + i < ev->header.size; i++)
			sprintf(id + 2 * i, "%02x", ((const u8 *)ev)[44 + i]);
		fprintf(fp, " <%s>", id);
	} else {
		fprintf(fp, " %02x:%02x %llu %llu", rd32(ev, 40),
			rd32(ev, 44), rd64(ev, 48), rd64(ev, 56));
	}
	fprintf(fp, "]: %c%c%c%c %s\n", prot & PROT_READ ? 'r' : '-',
		prot & PROT_WRITE ? 'w' : '-', prot & PROT_EXEC ? 'x' : '-',
		flags & MAP_SHARED ? 's' : 'p', rd_str(ev, 72));
}

static void dump_aux(FILE *fp, const union perf_event *ev)
{
	u64 flags = rd64(ev, 24);

	fprintf(fp, " offset: %#llx size: %#llx flags: %#llx [%s%s%s]\n",
		rd64(ev, 8), rd64(ev, 16), flags,
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

	if (ev->header.type == PERF_RECORD_SWITCH) {
		fprintf(fp, " %s\n", in_out);
		return;
	}
	fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", in_out,
		out ? "next" : "prev", (int)rd32(ev, 8), (int)rd32(ev, 12));
}

/*
 * perf reads the values at fixed places whatever the read_format;
 * so does this, to print the same.
 */
static void dump_read(FILE *fp, const union perf_event *ev,
		      const struct perf_session_attr *attr)
{
	u64 format = attr ? attr->attr.read_format : 0;

	fprintf(fp, ": %d %d %s %llu\n", (int)rd32(ev, 8), (int)rd32(ev, 12),
		attr ? attr->name : "(null)", rd64(ev, 16));
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(fp, "... time enabled : %llu\n", rd64(ev, 24));
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(fp, "... time running : %llu\n", rd64(ev, 32));
	if (format & PERF_FORMAT_ID)
		fprintf(fp, "... id           : %llu\n", rd64(ev, 40));
	if (format & PERF_FORMAT_LOST)
		fprintf(fp, "... lost         : %llu\n", rd64(ev, 48));
}

static void dump_namespaces(FILE *fp, const union perf_event *ev)
{
	static const char * const names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	u64 nr = rd64(ev, 16), i;

	fprintf(fp, " %d/%d - nr_namespaces: %u\n\t\t[", (int)rd32(ev, 8),
		(int)rd32(ev, 12), (u32)nr);
	for (i = 0; i < nr && 24 + (i + 1) * 16 <= ev->header.size; i++) {
		if (i && i % 4 == 0)
			fprintf(fp, "\n\t\t ");
		fprintf(fp, "%u/%s: %llu/%#llx%s", (u32)i,
			i < ARRAY_SIZE(names) ? names[i] : "UNKNOWN",
			rd64(ev, 24 + i * 16), rd64(ev, 32 + i * 16),
			i + 1 != nr ? ", " : "]\n");
	}
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
		fprintf(fp, " %d/%d: [%#llx(%#llx) @ %#llx]: %c %s\n",
			(int)rd32(ev, 8), (int)rd32(ev, 12),
			rd64(ev, 16), rd64(ev, 24), rd64(ev, 32),
			ev->header.misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x',
			rd_str(ev, 40));
		break;
	case PERF_RECORD_MMAP2:
		dump_mmap2(fp, ev);
		break;
	case PERF_RECORD_COMM:
		fprintf(fp, "%s: %s:%d/%d\n",
			ev->header.misc & PERF_RECORD_MISC_COMM_EXEC ?
			" exec" : "", rd_str(ev, 16), (int)rd32(ev, 8),
			(int)rd32(ev, 12));
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(fp, "(%d:%d):(%d:%d)\n", (int)rd32(ev, 8),
			(int)rd32(ev, 16), (int)rd32(ev, 12), (int)rd32(ev, 20));
		break;
	case PERF_RECORD_LOST:
		fprintf(fp, ": id:%llu: lost:%llu\n",
			rd64(ev, 8), rd64(ev, 16));
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(fp, ": id:%llu: lost samples :%llu\n",
			sample ? sample->id : 0, rd64(ev, 8));
		break;
	case PERF_RECORD_READ:
		dump_read(fp, ev, attr);
		break;
	case PERF_RECORD_AUX:
		dump_aux(fp, ev);
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(fp, " pid: %u tid: %u\n", rd32(ev, 8), rd32(ev, 12));
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		dump_switch(fp, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		dump_namespaces(fp, ev);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(fp, " addr %llx len %u type %u flags 0x%x name %s\n",
			rd64(ev, 8), rd32(ev, 16), rd16(ev, 20), rd16(ev, 22),
			rd_str(ev, 24));
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(fp, " type %u, flags %u, id %u\n", rd16(ev, 8),
			rd16(ev, 10), rd32(ev, 12));
		break;
	case PERF_RECORD_CGROUP:
		fprintf(fp, " cgroup: %llu %s\n", rd64(ev, 8),
			rd_str(ev, 16));
		break;
	case PERF_RECORD_TEXT_POKE:
		fprintf(fp, " %#llx old len %u new len %u\n",
			rd64(ev, 8), rd16(ev, 16), rd16(ev, 18));
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(fp, " hw_id: %#llx\n", rd64(ev, 8));
		break;
	default:
		fputc('\n', fp);
		break;
	}
}

static void dump_id_index(FILE *fp, const union perf_event *ev)
{
	u64 nr = rd64(ev, 8), i;

	fprintf(fp, " nr: %llu\n", nr);
	for (i = 0; i < nr && 16 + (i + 1) * 32 <= ev->header.size; i++) {
		size_t off = 16 + i * 32;

		fprintf(fp, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld\n",
			rd64(ev, off),
			rd64(ev, off + 8), (s64)rd64(ev, off + 16),
			(s64)rd64(ev, off + 24));
	}
}

static void dump_event_update(FILE *fp, const union perf_event *ev)
{
	u64 type = rd64(ev, 8);
	double scale;

	fprintf(fp, "\n... id:    %llu\n", rd64(ev, 16));
	switch (type) {
	case 0:
		fprintf(fp, "... unit:  %s\n", rd_str(ev, 24));
		break;
	case 1:
		scale = 0;
		if (ev->header.size >= 32)
			memcpy(&scale, (const u8 *)ev + 24, sizeof(scale));
		fprintf(fp, "... scale: %f\n", scale);
		break;
	case 2:
		fprintf(fp, "... name:  %s\n", rd_str(ev, 24));
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

/* The three encodings of PERF_RECORD_CPU_MAP: list, mask, range. */
static void dump_cpu_map(FILE *fp, const union perf_event *ev)
{
	struct cpu_list l = { .fp = fp, .first = -1, .last = -1 };
	u16 type = rd16(ev, 8), nr = rd16(ev, 10), i, size;
	u32 bit;

	fprintf(fp, ": ");
	if (type == 0) {
		for (i = 0; i < nr && 12 + 2 * i + 2 <= ev->header.size; i++)
			cpu_list_add(&l, rd16(ev, 12 + 2 * i));
	} else if (type == 1) {
		size = rd16(ev, 12);
		for (bit = 0; size && bit < (u32)nr * size * 8; bit++) {
			size_t off = (size == 8 ? 18 : 14) + bit / 8;

			if (off < ev->header.size &&
			    (((const u8 *)ev)[off] >> (bit % 8)) & 1)
				cpu_list_add(&l, bit);
		}
	} else if (type == 2) {
		if (((const u8 *)ev)[10])
			cpu_list_add(&l, -1);
		for (bit = rd16(ev, 12); bit <= rd16(ev, 14); bit++)
			cpu_list_add(&l, bit);
	}
	cpu_list_flush(&l);
	fputc('\n', fp);
}

/* The words perf prints them with, misspelling included. */
static void dump_time_conv(FILE *fp, const union perf_event *ev)
{
	fprintf(fp, "\n... Time Shift      %llu\n", rd64(ev, 8));
	fprintf(fp, "... Time Muliplier  %llu\n", rd64(ev, 16));
	fprintf(fp, "... Time Zero       %llu\n", rd64(ev, 24));
	/* Newer kernels add the fields from time_cycles on. */
	if (ev->header.size < 40)
		return;
	fprintf(fp, "... Time Cycles     %llu\n", rd64(ev, 32));
	fprintf(fp, "... Time Mask       %#llx\n", rd64(ev, 40));
	fprintf(fp, "... Cap Time Zero   %d\n", ((const u8 *)ev)[48]);
	fprintf(fp, "... Cap Time Short  %d\n", ((const u8 *)ev)[49]);
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

/* Records perf writes. */
static void dump_user(FILE *fp, const union perf_event *ev)
{
	u64 v, i;

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
		v = rd64(ev, 8);
		fprintf(fp, " nr: %llu thread:", v);
		for (i = 0; i < v && 16 + (i + 1) * 24 <= ev->header.size; i++)
			fprintf(fp, " %lld", (s64)rd64(ev, 16 + i * 24));
		fputc('\n', fp);
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
	size_t off = sizeof(ev->header);
	struct perf_session_attr *a;
	u32 asz;
	u64 id;

	if (ev->header.type != PERF_RECORD_HEADER_ATTR)
		return s->nr_attrs;
	asz = rd32(ev, off + offsetof(struct perf_counter_attr, size));
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	if (off + asz + sizeof(id) > ev->header.size)
		return s->nr_attrs;
	id = rd64(ev, off + asz);
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
